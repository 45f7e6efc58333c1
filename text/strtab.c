#include "text/strtab.h"

#include <errno.h>
#include <stdlib.h>

#define MAX_IDS (1u << 30) /* so the index (2 slots an id) fits in 32 bits */

/* A word at a time (a byte at a time took most of the time of interning
 * long paths), then mixed so the low bits, which pick the slot, depend on
 * every byte. */
static uint32_t hash_bytes(const char *s, size_t n)
{
	const uint64_t m = 0x9E3779B97F4A7C15ull;
	uint64_t h = n * m, w = 0;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		h = (h ^ ior_strtab_word(s + i)) * m;
		h ^= h >> 29;
	}
	if (n >= 8) /* the tail as the last word, overlapping: no memcpy call */
		w = ior_strtab_word(s + n - 8);
	else
		for (; i < n; i++)
			w = w << 8 | (unsigned char)s[i];
	h = (h ^ w) * m;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (uint32_t)h;
}

int ior_strtab_init(struct ior_strtab *t)
{
	memset(t, 0, sizeof *t);
	t->cap = 1 << 12;
	t->ncap = 256;
	t->hcap = 512;
	t->arena = malloc(t->cap);
	t->off = malloc(t->ncap * sizeof *t->off);
	t->hash = calloc(t->hcap, sizeof *t->hash);
	return t->arena && t->off && t->hash ? 0 : -ENOMEM;
}

void ior_strtab_free(struct ior_strtab *t)
{
	free(t->arena);
	free(t->off);
	free(t->hash);
	memset(t, 0, sizeof *t);
}

static int rehash(struct ior_strtab *t);

int ior_strtab_reserve(struct ior_strtab *t, size_t bytes, uint32_t ids)
{
	uint32_t ncap = t->ncap, hcap = t->hcap;
	size_t cap = t->cap;

	while (ncap <= ids) /* reserve() grows off when n reaches ncap */
		ncap *= 2;
	while (hcap < 2 * (uint64_t)ids) /* intern rehashes past n * 2 > hcap */
		hcap *= 2;
	while (cap < bytes)
		cap *= 2;
	if (ncap != t->ncap) {
		uint32_t *off = realloc(t->off, (size_t)ncap * sizeof *off);
		if (!off)
			return -ENOMEM;
		t->off = off;
		t->ncap = ncap;
	}
	if (cap != t->cap) {
		char *a = realloc(t->arena, cap);
		if (!a)
			return -ENOMEM;
		t->arena = a;
		t->cap = cap;
	}
	while (t->hcap < hcap)
		if (rehash(t))
			return -ENOMEM;
	return 0;
}

size_t ior_strtab_memory(const struct ior_strtab *t)
{
	return t->cap + (size_t)t->ncap * sizeof *t->off + (size_t)t->hcap * sizeof *t->hash;
}

void ior_strtab_clear(struct ior_strtab *t)
{
	memset(t->hash, 0, t->hcap * sizeof *t->hash);
	t->len = 0;
	t->n = 0;
}

static int rehash(struct ior_strtab *t)
{
	uint32_t hcap = t->hcap * 2;
	uint32_t *h = calloc(hcap, sizeof *h);
	if (!h)
		return -ENOMEM;
	for (uint32_t id = 0; id < t->n; id++) {
		uint32_t i = hash_bytes(ior_strtab_get(t, id), ior_strtab_len(t, id)) & (hcap - 1);
		while (h[i])
			i = (i + 1) & (hcap - 1);
		h[i] = id + 1;
	}
	free(t->hash);
	t->hash = h;
	t->hcap = hcap;
	return 0;
}

/* Room for one more id and n more bytes (and a NUL). */
static int reserve(struct ior_strtab *t, size_t n)
{
	if (t->n == t->ncap) {
		uint32_t *off = realloc(t->off, 2 * (size_t)t->ncap * sizeof *off);
		if (!off)
			return -ENOMEM;
		t->off = off;
		t->ncap *= 2;
	}
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap;
		while (t->len + n + 1 > cap)
			cap *= 2;
		char *a = realloc(t->arena, cap);
		if (!a)
			return -ENOMEM;
		t->arena = a;
		t->cap = cap;
	}
	return 0;
}

/* The id of s[0..n); else UINT32_MAX and *slot is the free slot for it. */
static uint32_t probe(const struct ior_strtab *t, const char *s, size_t n, uint32_t *slot)
{
	uint32_t mask = t->hcap - 1, i = hash_bytes(s, n) & mask;
	for (; t->hash[i]; i = (i + 1) & mask)
		if (ior_strtab_is(t, t->hash[i] - 1, s, n))
			return t->hash[i] - 1;
	*slot = i;
	return UINT32_MAX;
}

uint32_t ior_strtab_find(const struct ior_strtab *t, const char *s, size_t n)
{
	uint32_t slot;
	return probe(t, s, n, &slot);
}

uint32_t ior_strtab_append(struct ior_strtab *t, const char *s, size_t n)
{
	if (t->n >= MAX_IDS || t->len + n + 1 > UINT32_MAX || reserve(t, n))
		return UINT32_MAX;
	memcpy(t->arena + t->len, s, n);
	t->arena[t->len + n] = 0;
	t->off[t->n] = (uint32_t)t->len;
	t->len += n + 1;
	return t->n++;
}

uint32_t ior_strtab_intern(struct ior_strtab *t, const char *s, size_t n)
{
	uint32_t slot, id = probe(t, s, n, &slot);
	if (id != UINT32_MAX)
		return id;
	id = ior_strtab_append(t, s, n);
	if (id == UINT32_MAX)
		return id;
	t->hash[slot] = id + 1;
	if (t->n * 2 > t->hcap && rehash(t))
		return UINT32_MAX;
	return id;
}
