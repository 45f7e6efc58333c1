/* Thrift compact protocol encoder. A field header is one byte when the id
 * is 1..15 above the previous field's in the same struct (delta << 4 |
 * type), else the type byte and the id as a zigzag varint. Booleans live
 * in the field header's type. */
#include "thrift.h"

#include <errno.h>
#include <string.h>

void ior_thrift_init(struct ior_thrift *t, struct ior_pq_buf *out)
{
	memset(t, 0, sizeof *t);
	t->out = out;
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

void ior_thrift_field(struct ior_thrift *t, int16_t id, enum ior_thrift_type type)
{
	int16_t *last = &t->last[t->depth];

	if (id <= *last) /* out of order: the decoder would still read it, but
			  * Parquet's structs never need it; a bug here */
		t->err = -EINVAL;
	if (id > *last && id - *last <= 15) {
		ior_pq_buf_byte(t->out, (uint8_t)((id - *last) << 4 | type));
	} else {
		ior_pq_buf_byte(t->out, (uint8_t)type);
		ior_pq_buf_uvarint(t->out, zigzag(id));
	}
	*last = id;
}

void ior_thrift_i32(struct ior_thrift *t, int32_t v)
{
	ior_pq_buf_uvarint(t->out, zigzag(v));
}

void ior_thrift_i64(struct ior_thrift *t, int64_t v)
{
	ior_pq_buf_uvarint(t->out, zigzag(v));
}

void ior_thrift_binary(struct ior_thrift *t, const void *s, size_t n)
{
	ior_pq_buf_uvarint(t->out, n);
	ior_pq_buf_put(t->out, s, n);
}

void ior_thrift_field_i32(struct ior_thrift *t, int16_t id, int32_t v)
{
	ior_thrift_field(t, id, IOR_THRIFT_I32);
	ior_thrift_i32(t, v);
}

void ior_thrift_field_i64(struct ior_thrift *t, int16_t id, int64_t v)
{
	ior_thrift_field(t, id, IOR_THRIFT_I64);
	ior_thrift_i64(t, v);
}

void ior_thrift_field_byte(struct ior_thrift *t, int16_t id, int8_t v)
{
	ior_thrift_field(t, id, IOR_THRIFT_BYTE);
	ior_pq_buf_byte(t->out, (uint8_t)v);
}

void ior_thrift_field_bool(struct ior_thrift *t, int16_t id, bool v)
{
	ior_thrift_field(t, id, v ? IOR_THRIFT_BOOL_TRUE : IOR_THRIFT_BOOL_FALSE);
}

void ior_thrift_field_binary(struct ior_thrift *t, int16_t id, const void *s, size_t n)
{
	ior_thrift_field(t, id, IOR_THRIFT_BINARY);
	ior_thrift_binary(t, s, n);
}

void ior_thrift_field_string(struct ior_thrift *t, int16_t id, const char *s)
{
	ior_thrift_field_binary(t, id, s, strlen(s));
}

void ior_thrift_list(struct ior_thrift *t, enum ior_thrift_type elem, uint32_t n)
{
	if (n < 15) {
		ior_pq_buf_byte(t->out, (uint8_t)(n << 4 | elem));
		return;
	}
	ior_pq_buf_byte(t->out, (uint8_t)(0xf0 | elem));
	ior_pq_buf_uvarint(t->out, n);
}

void ior_thrift_field_list(struct ior_thrift *t, int16_t id, enum ior_thrift_type elem, uint32_t n)
{
	ior_thrift_field(t, id, IOR_THRIFT_LIST);
	ior_thrift_list(t, elem, n);
}

void ior_thrift_struct_begin(struct ior_thrift *t)
{
	if (t->depth + 1 >= IOR_THRIFT_DEPTH) {
		t->err = -EINVAL;
		return;
	}
	t->last[++t->depth] = 0;
}

void ior_thrift_struct_end(struct ior_thrift *t)
{
	ior_pq_buf_byte(t->out, 0); /* stop */
	if (!t->depth)
		t->err = -EINVAL;
	else
		t->depth--;
}

void ior_thrift_field_struct(struct ior_thrift *t, int16_t id)
{
	ior_thrift_field(t, id, IOR_THRIFT_STRUCT);
	ior_thrift_struct_begin(t);
}

int ior_thrift_error(const struct ior_thrift *t)
{
	return t->out->err ? t->out->err : t->err;
}
