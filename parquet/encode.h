/* Parquet's value encodings, each appending to a buffer (buf.h):
 * PLAIN for numbers, booleans and byte arrays; the RLE/bit-packed hybrid
 * for definition levels and dictionary indices; and the string
 * dictionary (RLE_DICTIONARY's page of distinct values). Spec:
 * parquet-format/Encodings.md. Little-endian hosts only (x86_64). */
#ifndef IOR_PARQUET_ENCODE_H
#define IOR_PARQUET_ENCODE_H

#include "buf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "PLAIN is little-endian: x86_64 only");

/* Bits to hold values 0..max; at least 1 (bit width 0 is legal but not
 * every reader takes it). */
unsigned ior_pq_bit_width(uint32_t max);

/* The RLE/bit-packed hybrid of v[0..n), each < 2^bit_width (<= 32): runs
 * of 8 or more equal values as RLE runs, the rest bit-packed in groups
 * of 8 (the last group padded with zeros). No length prefix: definition
 * levels put a 4-byte one before it, dictionary indices a bit-width byte. */
void ior_pq_rle_hybrid(struct ior_pq_buf *b, const uint32_t *v, size_t n, unsigned bit_width);

/* PLAIN booleans: bit-packed, least significant bit first. */
void ior_pq_plain_bools(struct ior_pq_buf *b, const uint8_t *v, size_t n);

static inline void ior_pq_plain_i64(struct ior_pq_buf *b, int64_t v)
{
	ior_pq_buf_put(b, &v, 8);
}

static inline void ior_pq_plain_i32(struct ior_pq_buf *b, int32_t v)
{
	ior_pq_buf_put(b, &v, 4);
}

/* PLAIN byte array: a 4-byte little-endian length, the bytes. */
static inline void ior_pq_plain_bytes(struct ior_pq_buf *b, const void *s, uint32_t n)
{
	ior_pq_buf_le32(b, n);
	ior_pq_buf_put(b, s, n);
}

/* A string dictionary: distinct keys (the raw strings a caller has) map
 * to dense indices; each index also has a value (what the file holds for
 * it: the key escaped), kept as the dictionary page's PLAIN values. */
struct ior_pq_dict {
	struct ior_pq_buf keys;   /* the raw keys, back to back */
	struct ior_pq_buf values; /* the dictionary page: PLAIN byte arrays */
	struct ior_pq_dict_ent {
		uint64_t hash;
		uint64_t key_off;
		uint32_t key_len;
	} *ents;
	uint32_t n, cap;   /* entries, room in ents */
	uint32_t *slots;   /* open addressing: entry + 1, 0 when empty */
	uint32_t nslots;   /* power of two, > 2 * n */
};

uint64_t ior_pq_hash(const void *s, size_t n);
/* The index of key, or -1 when not in d. */
int64_t ior_pq_dict_find(const struct ior_pq_dict *d, const void *key, size_t n, uint64_t hash);
/* Adds key (not in d) with its value; its index or -ENOMEM. */
int64_t ior_pq_dict_add(struct ior_pq_dict *d, const void *key, size_t n, uint64_t hash, const void *value,
			uint32_t vn);
/* Empties d, keeping its memory. */
void ior_pq_dict_reset(struct ior_pq_dict *d);
void ior_pq_dict_free(struct ior_pq_dict *d);

#endif
