/* Interned strings: dense ids, one arena, open addressing. Internal to flame/. */
#ifndef IOR_FLAME_STRTAB_H
#define IOR_FLAME_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct ior_flame_strtab {
	char *arena;
	size_t len, cap;
	uint32_t *off;   /* id -> offset */
	uint32_t *hash;  /* slot -> id + 1, 0 empty */
	uint32_t n, ncap, hcap;
};

int ior_flame_strtab_init(struct ior_flame_strtab *t);
void ior_flame_strtab_free(struct ior_flame_strtab *t);
/* The id of s[0..n) (added when new); UINT32_MAX when out of memory. */
uint32_t ior_flame_strtab_intern(struct ior_flame_strtab *t, const char *s, size_t n);
/* The id of s[0..n) if it is interned, else UINT32_MAX (nothing added). */
uint32_t ior_flame_strtab_find(const struct ior_flame_strtab *t, const char *s, size_t n);
static inline const char *ior_flame_strtab_get(const struct ior_flame_strtab *t, uint32_t id)
{
	return t->arena + t->off[id];
}

#endif
