/* A growable byte buffer: what every encoder in this room appends to.
 * Allocation failure is sticky (err = -ENOMEM) and later appends do
 * nothing, so an encoder checks once, at the end. Not thread-safe. */
#ifndef IOR_PARQUET_BUF_H
#define IOR_PARQUET_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct ior_pq_buf {
	uint8_t *p;
	size_t len, cap;
	int err; /* 0 or -ENOMEM */
};

/* Room for n more bytes; 0 or -ENOMEM (sticky). */
int ior_pq_buf_reserve(struct ior_pq_buf *b, size_t n);
void ior_pq_buf_free(struct ior_pq_buf *b);

static inline void ior_pq_buf_put(struct ior_pq_buf *b, const void *s, size_t n)
{
	if (n > b->cap - b->len && ior_pq_buf_reserve(b, n))
		return;
	if (n)
		memcpy(b->p + b->len, s, n);
	b->len += n;
}

static inline void ior_pq_buf_byte(struct ior_pq_buf *b, uint8_t c)
{
	if (b->len == b->cap && ior_pq_buf_reserve(b, 1))
		return;
	b->p[b->len++] = c;
}

/* ULEB128, as Thrift's compact protocol and Parquet's RLE headers use. */
static inline void ior_pq_buf_uvarint(struct ior_pq_buf *b, uint64_t v)
{
	uint8_t tmp[10];
	size_t n = 0;

	while (v >= 0x80) {
		tmp[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	tmp[n++] = (uint8_t)v;
	ior_pq_buf_put(b, tmp, n);
}

static inline void ior_pq_buf_le32(struct ior_pq_buf *b, uint32_t v)
{
	uint8_t t[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	ior_pq_buf_put(b, t, 4);
}

#endif
