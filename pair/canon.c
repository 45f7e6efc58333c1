/* Open addressing on the path (linear probing); full means cleared: the
 * entries are only a cache of what realpath(3) and stat(2) say. */
#include "pair/canon.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

struct entry {
	char *path, *canon;
	uint64_t ino, gen; /* gen: names_changed count when it was verified */
	uint32_t kdev;
};

struct ior_canon {
	struct entry *tab;
	size_t mask, n, max;
	int trust;
	uint64_t gen;
	struct ior_canon_stats st;
	char buf[PATH_MAX];
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

struct ior_canon *ior_canon_new(size_t max, int counted)
{
	struct ior_canon *c = calloc(1, sizeof *c);
	size_t cap = 16;

	if (!c)
		return NULL;
	while (cap < 2 * max)
		cap <<= 1;
	c->tab = calloc(cap, sizeof *c->tab);
	if (!c->tab)
		return free(c), NULL;
	c->mask = cap - 1;
	c->max = max ? max : 1;
	c->trust = counted;
	return c;
}

void ior_canon_generation(struct ior_canon *c, uint64_t gen)
{
	c->gen = gen;
}

static void clear(struct ior_canon *c)
{
	for (size_t i = 0; i <= c->mask; i++) {
		free(c->tab[i].path);
		free(c->tab[i].canon);
	}
	memset(c->tab, 0, (c->mask + 1) * sizeof *c->tab);
	c->n = 0;
}

void ior_canon_free(struct ior_canon *c)
{
	if (!c)
		return;
	clear(c);
	free(c->tab);
	free(c);
}

static struct entry *slot(struct ior_canon *c, const char *path)
{
	size_t i = hash_str(path) & c->mask;

	while (c->tab[i].path && strcmp(c->tab[i].path, path))
		i = (i + 1) & c->mask;
	return &c->tab[i];
}

/* Magic links (/proc/self/..., /dev/fd/N) would resolve in ior itself. */
static int resolvable(const char *path)
{
	return path[0] == '/' && strncmp(path, "/proc/", 6) && strncmp(path, "/dev/fd/", 8) &&
	       strncmp(path, "/dev/std", 8);
}

static int same_file(const char *path, uint32_t kdev, uint64_t ino)
{
	struct stat st;

	return !stat(path, &st) && (uint64_t)st.st_ino == ino &&
	       major(st.st_dev) == kdev >> 20 && minor(st.st_dev) == (kdev & 0xfffff);
}

static const char *remember(struct ior_canon *c, const char *path, const char *canon,
			    uint32_t kdev, uint64_t ino)
{
	struct entry *e;

	if (c->n >= c->max) {
		clear(c);
		c->st.clears++;
	}
	e = slot(c, path);
	if (!e->path) {
		if (!(e->path = strdup(path)))
			return canon;
		c->n++;
	}
	free(e->canon);
	e->canon = strdup(canon);
	e->kdev = kdev;
	e->ino = ino;
	e->gen = c->gen;
	return e->canon ? e->canon : canon;
}

/* realpath of path's directory joined with leaf, into c->buf; 0 when the
 * result names (kdev, ino). */
static int beside(struct ior_canon *c, const char *path, const char *leaf, uint32_t kdev, uint64_t ino)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0, m;
	char dir[PATH_MAX];

	if (!leaf[0] || strchr(leaf, '/') || !slash || n >= sizeof dir)
		return -1;
	memcpy(dir, path, n);
	dir[n] = 0;
	if (!realpath(n ? dir : "/", c->buf))
		return -1;
	m = strlen(c->buf);
	if (m + 1 + strlen(leaf) >= sizeof c->buf)
		return -1;
	snprintf(c->buf + m, sizeof c->buf - m, "%s%s", m > 1 ? "/" : "", leaf);
	return same_file(c->buf, kdev, ino) ? 0 : -1;
}

const char *ior_canon_get(struct ior_canon *c, const char *path, uint32_t kdev, uint64_t ino,
			  const char *leaf)
{
	struct entry *e;

	if (!resolvable(path))
		return NULL;
	e = slot(c, path);
	if (e->path && e->canon && e->kdev == kdev && e->ino == ino) {
		if (c->trust && e->gen == c->gen) {
			c->st.hits++; /* no name changed on the host: it still leads there */
			return e->canon;
		}
		if (same_file(e->canon, kdev, ino)) {
			c->st.verified_hits++; /* one stat instead of a walk */
			e->gen = c->gen;
			return e->canon;
		}
	}
	if ((!realpath(path, c->buf) || !same_file(c->buf, kdev, ino)) &&
	    beside(c, path, leaf, kdev, ino)) {
		c->st.unverified++;
		return NULL;
	}
	c->st.resolved++;
	return remember(c, path, c->buf, kdev, ino);
}

void ior_canon_get_stats(const struct ior_canon *c, struct ior_canon_stats *s)
{
	*s = c->st;
}
