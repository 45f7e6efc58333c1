/* A string table: strings NUL-terminated back to back in one arena, each
 * named by a dense id in the order it was added (string id is arena +
 * off[id]). Interning (ior_strtab_intern) adds a string only when new, via
 * an open-addressing index on its bytes; appending (ior_strtab_append)
 * adds it as a new id whatever it holds, for ids someone else assigns (a
 * recording's), and leaves it out of the index: find and intern do not
 * see it.
 * Not thread-safe. Strings may move when one is added; ids stay. */
#ifndef IOR_TEXT_STRTAB_H
#define IOR_TEXT_STRTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct ior_strtab {
	char *arena;
	size_t len, cap;  /* arena bytes used, allocated */
	uint32_t *off;    /* id -> offset in arena */
	uint32_t *hash;   /* slot -> id + 1, 0 empty */
	uint32_t n, ncap, hcap;
};

/* 0, or -ENOMEM (then ior_strtab_free is still safe). */
int ior_strtab_init(struct ior_strtab *t);
void ior_strtab_free(struct ior_strtab *t);
/* Memory up front for ids strings of bytes in all (their NULs counted):
 * until the table holds more, adding never allocates. 0, or -ENOMEM. */
int ior_strtab_reserve(struct ior_strtab *t, size_t bytes, uint32_t ids);
/* The bytes the table has allocated. */
size_t ior_strtab_memory(const struct ior_strtab *t);
/* Forgets every string (the next id is 0 again), keeps the memory. */
void ior_strtab_clear(struct ior_strtab *t);
/* The id of s[0..n) (added when new); UINT32_MAX when out of memory or
 * beyond 2^30 strings or 4 GiB. */
uint32_t ior_strtab_intern(struct ior_strtab *t, const char *s, size_t n);
/* The id of s[0..n) if it is interned, else UINT32_MAX (nothing added). */
uint32_t ior_strtab_find(const struct ior_strtab *t, const char *s, size_t n);
/* Adds s[0..n) as the next id, unindexed; UINT32_MAX as for intern. */
uint32_t ior_strtab_append(struct ior_strtab *t, const char *s, size_t n);

static inline const char *ior_strtab_get(const struct ior_strtab *t, uint32_t id)
{
	return t->arena + t->off[id];
}

/* Its length without strlen: its NUL ends where the next string starts. */
static inline size_t ior_strtab_len(const struct ior_strtab *t, uint32_t id)
{
	size_t end = id + 1 < t->n ? t->off[id + 1] : t->len;
	return end - t->off[id] - 1;
}

/* 8 bytes at p, unaligned */
static inline uint64_t ior_strtab_word(const char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* memcmp(a, b, n) == 0 a word at a time, the tail as one overlapping word
 * (or two halves): musl compares bytes, and the recording writer compares
 * every string of every pair. Reads only a[0, n) and b[0, n). */
static inline bool ior_strtab_same_bytes(const char *a, const char *b, size_t n)
{
	uint32_t x, y;
	uint16_t u, v;

	if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8)
			if (ior_strtab_word(a + i) != ior_strtab_word(b + i))
				return false;
		return ior_strtab_word(a + n - 8) == ior_strtab_word(b + n - 8);
	}
	if (n >= 4) {
		memcpy(&x, a, 4), memcpy(&y, b, 4);
		if (x != y)
			return false;
		memcpy(&x, a + n - 4, 4), memcpy(&y, b + n - 4, 4);
		return x == y;
	}
	if (n >= 2) {
		memcpy(&u, a, 2), memcpy(&v, b, 2);
		return u == v && a[n - 1] == b[n - 1];
	}
	return !n || *a == *b;
}

/* String id is exactly s[0..n). */
static inline bool ior_strtab_is(const struct ior_strtab *t, uint32_t id, const char *s, size_t n)
{
	return ior_strtab_len(t, id) == n && ior_strtab_same_bytes(ior_strtab_get(t, id), s, n);
}

#endif
