/* Parquet encodings. The hybrid's bit-packed groups are built in a
 * 64-bit accumulator: 8 values of at most 32 bits are at most 32 bytes. */
#include "encode.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* 63 groups keep a bit-packed run's header one byte, as parquet-mr writes it */
#define MAX_GROUPS 63

unsigned ior_pq_bit_width(uint32_t max)
{
	unsigned w = 1;

	while (w < 32 && (max >> w))
		w++;
	return w;
}

/* Groups of 8 from v[0..n) (n > 0; the last group padded). */
static void bit_packed(struct ior_pq_buf *b, const uint32_t *v, size_t n, unsigned w)
{
	size_t groups = (n + 7) / 8;

	ior_pq_buf_uvarint(b, groups << 1 | 1);
	if (ior_pq_buf_reserve(b, groups * w))
		return;
	uint8_t *out = b->p + b->len;
	for (size_t g = 0; g < groups; g++) {
		uint64_t acc = 0;
		unsigned bits = 0;
		for (size_t i = g * 8; i < g * 8 + 8; i++) {
			acc |= (uint64_t)(i < n ? v[i] : 0) << bits;
			bits += w;
			while (bits >= 8) {
				*out++ = (uint8_t)acc;
				acc >>= 8;
				bits -= 8;
			}
		}
	}
	b->len += groups * w;
}

static void rle_run(struct ior_pq_buf *b, uint32_t value, size_t count, unsigned w)
{
	ior_pq_buf_uvarint(b, (uint64_t)count << 1);
	for (unsigned i = 0; i < (w + 7) / 8; i++)
		ior_pq_buf_byte(b, (uint8_t)(value >> (8 * i)));
}

/* Pending literals lit[0..nlit) go out in bit-packed runs; only the
 * last one of the whole sequence may end in a partial group. */
static void flush_literals(struct ior_pq_buf *b, const uint32_t *lit, size_t nlit, unsigned w)
{
	while (nlit) {
		size_t k = nlit < MAX_GROUPS * 8 ? nlit : MAX_GROUPS * 8;
		bit_packed(b, lit, k, w);
		lit += k;
		nlit -= k;
	}
}

void ior_pq_rle_hybrid(struct ior_pq_buf *b, const uint32_t *v, size_t n, unsigned w)
{
	size_t lit = 0, i = 0; /* literals are v[lit..i) */

	while (i < n) {
		size_t run = 1;
		while (i + run < n && v[i + run] == v[i])
			run++;
		/* literals before an RLE run must fill whole groups: lend
		 * them values from the run */
		size_t lend = (i - lit) % 8 ? 8 - (i - lit) % 8 : 0;
		if (run < 8 + lend) {
			i += run;
			continue;
		}
		flush_literals(b, v + lit, i + lend - lit, w);
		rle_run(b, v[i], run - lend, w);
		i += run;
		lit = i;
	}
	flush_literals(b, v + lit, n - lit, w);
}

void ior_pq_plain_bools(struct ior_pq_buf *b, const uint8_t *v, size_t n)
{
	if (ior_pq_buf_reserve(b, (n + 7) / 8))
		return;
	uint8_t *out = b->p + b->len;
	memset(out, 0, (n + 7) / 8);
	for (size_t i = 0; i < n; i++)
		out[i / 8] |= (uint8_t)((v[i] != 0) << (i % 8));
	b->len += (n + 7) / 8;
}

/* 8 bytes a step, multiply-mix: paths are 20-100 bytes, hashed once a row. */
uint64_t ior_pq_hash(const void *s, size_t n)
{
	const uint8_t *p = s;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n, w;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, p, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 29);
}

int64_t ior_pq_dict_find(const struct ior_pq_dict *d, const void *key, size_t n, uint64_t hash)
{
	if (!d->nslots)
		return -1;
	for (uint32_t s = (uint32_t)hash & (d->nslots - 1);; s = (s + 1) & (d->nslots - 1)) {
		uint32_t e = d->slots[s];
		if (!e)
			return -1;
		const struct ior_pq_dict_ent *x = &d->ents[e - 1];
		if (x->hash == hash && x->key_len == n && !memcmp(d->keys.p + x->key_off, key, n))
			return e - 1;
	}
}

static void insert_slot(struct ior_pq_dict *d, uint32_t e)
{
	uint32_t s = (uint32_t)d->ents[e].hash & (d->nslots - 1);

	while (d->slots[s])
		s = (s + 1) & (d->nslots - 1);
	d->slots[s] = e + 1;
}

static int grow(struct ior_pq_dict *d)
{
	if (d->n == d->cap) {
		uint32_t cap = d->cap ? d->cap * 2 : 64;
		void *p = realloc(d->ents, cap * sizeof *d->ents);
		if (!p)
			return -ENOMEM;
		d->ents = p;
		d->cap = cap;
	}
	if (d->nslots > 2 * (d->n + 1))
		return 0;
	uint32_t nslots = d->nslots ? d->nslots * 2 : 128;
	uint32_t *slots = calloc(nslots, sizeof *slots);
	if (!slots)
		return -ENOMEM;
	free(d->slots);
	d->slots = slots;
	d->nslots = nslots;
	for (uint32_t e = 0; e < d->n; e++)
		insert_slot(d, e);
	return 0;
}

int64_t ior_pq_dict_add(struct ior_pq_dict *d, const void *key, size_t n, uint64_t hash, const void *value,
			uint32_t vn)
{
	if (n > UINT32_MAX || d->n == UINT32_MAX - 1 || grow(d))
		return -ENOMEM;
	struct ior_pq_dict_ent *x = &d->ents[d->n];
	x->hash = hash;
	x->key_off = d->keys.len;
	x->key_len = (uint32_t)n;
	ior_pq_buf_put(&d->keys, key, n);
	ior_pq_plain_bytes(&d->values, value, vn);
	if (d->keys.err || d->values.err)
		return -ENOMEM;
	insert_slot(d, d->n);
	return d->n++;
}

void ior_pq_dict_reset(struct ior_pq_dict *d)
{
	d->keys.len = d->values.len = 0;
	d->n = 0;
	if (d->slots)
		memset(d->slots, 0, d->nslots * sizeof *d->slots);
}

void ior_pq_dict_free(struct ior_pq_dict *d)
{
	ior_pq_buf_free(&d->keys);
	ior_pq_buf_free(&d->values);
	free(d->ents);
	free(d->slots);
	memset(d, 0, sizeof *d);
}
