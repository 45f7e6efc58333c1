#include "strtab.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001B3ull;
	return (uint32_t)(h ^ h >> 32);
}

int ior_flame_strtab_init(struct ior_flame_strtab *t)
{
	memset(t, 0, sizeof *t);
	t->cap = 1 << 12;
	t->ncap = 256;
	t->hcap = 512;
	t->arena = malloc(t->cap);
	t->off = malloc(t->ncap * sizeof *t->off);
	t->hash = calloc(t->hcap, sizeof *t->hash);
	return t->arena && t->off && t->hash ? 0 : -1;
}

void ior_flame_strtab_free(struct ior_flame_strtab *t)
{
	free(t->arena);
	free(t->off);
	free(t->hash);
	memset(t, 0, sizeof *t);
}

static int rehash(struct ior_flame_strtab *t)
{
	uint32_t hcap = t->hcap * 2;
	uint32_t *h = calloc(hcap, sizeof *h);
	if (!h)
		return -1;
	for (uint32_t id = 0; id < t->n; id++) {
		const char *s = ior_flame_strtab_get(t, id);
		uint32_t i = hash_bytes(s, strlen(s)) & (hcap - 1);
		while (h[i])
			i = (i + 1) & (hcap - 1);
		h[i] = id + 1;
	}
	free(t->hash);
	t->hash = h;
	t->hcap = hcap;
	return 0;
}

static int reserve(struct ior_flame_strtab *t, size_t n)
{
	if (t->n == t->ncap) {
		uint32_t *off = realloc(t->off, 2 * (size_t)t->ncap * sizeof *off);
		if (!off)
			return -1;
		t->off = off;
		t->ncap *= 2;
	}
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap;
		while (t->len + n + 1 > cap)
			cap *= 2;
		char *a = realloc(t->arena, cap);
		if (!a)
			return -1;
		t->arena = a;
		t->cap = cap;
	}
	return 0;
}

uint32_t ior_flame_strtab_find(const struct ior_flame_strtab *t, const char *s, size_t n)
{
	for (uint32_t i = hash_bytes(s, n) & (t->hcap - 1); t->hash[i]; i = (i + 1) & (t->hcap - 1)) {
		const char *c = ior_flame_strtab_get(t, t->hash[i] - 1);
		if (!strncmp(c, s, n) && !c[n]) /* c may be shorter than n */
			return t->hash[i] - 1;
	}
	return UINT32_MAX;
}

uint32_t ior_flame_strtab_intern(struct ior_flame_strtab *t, const char *s, size_t n)
{
	uint32_t i = hash_bytes(s, n) & (t->hcap - 1);
	for (; t->hash[i]; i = (i + 1) & (t->hcap - 1)) {
		const char *c = ior_flame_strtab_get(t, t->hash[i] - 1);
		if (!strncmp(c, s, n) && !c[n]) /* c may be shorter than n */
			return t->hash[i] - 1;
	}
	if (t->n >= UINT32_MAX / 2 || t->len + n + 1 > UINT32_MAX || reserve(t, n))
		return UINT32_MAX;
	memcpy(t->arena + t->len, s, n);
	t->arena[t->len + n] = 0;
	t->off[t->n] = (uint32_t)t->len;
	t->len += n + 1;
	t->hash[i] = t->n + 1;
	uint32_t id = t->n++;
	if (t->n * 2 > t->hcap && rehash(t))
		return UINT32_MAX;
	return id;
}
