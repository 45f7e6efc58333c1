/* Thrift's compact protocol, the encoding half only: what Parquet's
 * footer and page headers need (structs, i16/i32/i64, bool, binary,
 * lists). Spec: thrift/doc/specs/thrift-compact-protocol.md.
 *
 * A writer appends to a buffer; structs nest up to IOR_THRIFT_DEPTH.
 * Fields of a struct are written in increasing id order (the short
 * "delta" field header needs it, and Parquet's structs are declared so). */
#ifndef IOR_PARQUET_THRIFT_H
#define IOR_PARQUET_THRIFT_H

#include "buf.h"

#include <stdbool.h>
#include <stdint.h>

#define IOR_THRIFT_DEPTH 16

enum ior_thrift_type {
	IOR_THRIFT_BOOL_TRUE = 1,
	IOR_THRIFT_BOOL_FALSE = 2,
	IOR_THRIFT_BYTE = 3,
	IOR_THRIFT_I16 = 4,
	IOR_THRIFT_I32 = 5,
	IOR_THRIFT_I64 = 6,
	IOR_THRIFT_DOUBLE = 7,
	IOR_THRIFT_BINARY = 8,
	IOR_THRIFT_LIST = 9,
	IOR_THRIFT_SET = 10,
	IOR_THRIFT_MAP = 11,
	IOR_THRIFT_STRUCT = 12,
};

struct ior_thrift {
	struct ior_pq_buf *out;
	int16_t last[IOR_THRIFT_DEPTH]; /* last field id per open struct */
	unsigned depth;                 /* open structs; 0: top level */
	int err;                        /* -EINVAL on misuse (sticky) */
};

void ior_thrift_init(struct ior_thrift *t, struct ior_pq_buf *out);

/* Field headers and values. A field's value follows its header. */
void ior_thrift_field(struct ior_thrift *t, int16_t id, enum ior_thrift_type type);
void ior_thrift_i32(struct ior_thrift *t, int32_t v);  /* zigzag varint (i16 too) */
void ior_thrift_i64(struct ior_thrift *t, int64_t v);
void ior_thrift_binary(struct ior_thrift *t, const void *s, size_t n);

/* A whole field in one call. */
void ior_thrift_field_i32(struct ior_thrift *t, int16_t id, int32_t v);
void ior_thrift_field_i64(struct ior_thrift *t, int16_t id, int64_t v);
void ior_thrift_field_byte(struct ior_thrift *t, int16_t id, int8_t v);
void ior_thrift_field_bool(struct ior_thrift *t, int16_t id, bool v); /* the type carries the value */
void ior_thrift_field_binary(struct ior_thrift *t, int16_t id, const void *s, size_t n);
void ior_thrift_field_string(struct ior_thrift *t, int16_t id, const char *s);

/* A list header: n elements of type follow (structs: each begun with
 * ior_thrift_struct_begin, ended with ior_thrift_struct_end). */
void ior_thrift_list(struct ior_thrift *t, enum ior_thrift_type elem, uint32_t n);
void ior_thrift_field_list(struct ior_thrift *t, int16_t id, enum ior_thrift_type elem, uint32_t n);

/* A struct value: begin after its field header or list header (or at the
 * top level), end writes the stop byte. */
void ior_thrift_struct_begin(struct ior_thrift *t);
void ior_thrift_struct_end(struct ior_thrift *t);
/* field header + begin */
void ior_thrift_field_struct(struct ior_thrift *t, int16_t id);

/* 0, -ENOMEM (the buffer) or -EINVAL (unbalanced or too deep structs,
 * fields out of order). */
int ior_thrift_error(const struct ior_thrift *t);

#endif
