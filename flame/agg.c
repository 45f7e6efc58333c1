/* Aggregation. The hot loop works on small integers only: a pair becomes a
 * key of ids (comm id, path id, syscall, pid, tid, flags: just the fields
 * asked for), summed in an open-addressing table; consecutive pairs with
 * the same key (the common case) skip even the hash. Strings are split into
 * frames once per distinct key, when the tree is built. */
#include "agg.h"
#include "strtab.h"
#include "trace/rec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	struct ior_flame_key k;
	uint64_t value;
};

enum { USE_COMM = 1, USE_PATH = 2, USE_SYS = 4, USE_PID = 8, USE_TID = 16, USE_FLAGS = 32 };
enum { FILTER_UNKNOWN, FILTER_PASS, FILTER_FAIL };

struct ior_flame_agg {
	struct ior_flame_spec spec;
	unsigned use;
	struct ior_flame_strtab strs;   /* raw comm and path strings */
	/* Keys and sums inline in one open-addressing table: a lookup costs
	 * one cache miss, which is what limits traces with many distinct
	 * files. */
	struct entry *table;
	uint32_t tcap, nentries;
	uint32_t last;                  /* slot of the previous pair, + 1 */
	/* reader string id -> strs id + 1, per reader generation */
	uint32_t *idmap;
	uint8_t *comm_ok, *path_ok;
	uint32_t map_cap, gen;
	uint64_t pairs, total, first_ns, last_ns;
	bool spanned; /* first_ns and last_ns are set */
	/* bounds (0: none) and the "(other)" bucket beyond them */
	uint32_t max_keys;
	size_t max_string_bytes;
	uint64_t other_pairs, other_value;
};

int ior_flame_agg_new(struct ior_flame_agg **ap, const struct ior_flame_spec *spec)
{
	struct ior_flame_agg *a = calloc(1, sizeof *a);
	*ap = NULL;
	if (!a)
		return -ENOMEM;
	a->spec = *spec;
	for (unsigned i = 0; i < spec->nfields; i++)
		a->use |= 1u << spec->fields[i];
	a->tcap = 2048;
	a->table = calloc(a->tcap, sizeof *a->table);
	if (!a->table || ior_flame_strtab_init(&a->strs)) {
		ior_flame_agg_free(a);
		return -ENOMEM;
	}
	*ap = a;
	return 0;
}

void ior_flame_agg_free(struct ior_flame_agg *a)
{
	if (!a)
		return;
	ior_flame_strtab_free(&a->strs);
	free(a->table);
	free(a->idmap);
	free(a->comm_ok);
	free(a->path_ok);
	free(a);
}

static inline uint32_t hash_key(const struct ior_flame_key *k)
{
	const uint64_t m = 0x9E3779B97F4A7C15ull;
	uint64_t h = (uint64_t)k->flags;
	h = (h ^ ((uint64_t)k->comm << 32 | k->path)) * m;
	h = (h ^ ((uint64_t)k->pid << 32 | k->tid)) * m;
	h = (h ^ k->sys) * m;
	/* murmur3's finaliser: every input bit reaches the low bits used */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (uint32_t)h;
}

static inline bool key_eq(const struct ior_flame_key *a, const struct ior_flame_key *b)
{
	return a->flags == b->flags && a->comm == b->comm && a->path == b->path &&
	       a->pid == b->pid && a->tid == b->tid && a->sys == b->sys;
}

static uint32_t find_slot(const struct entry *table, uint32_t tcap, const struct ior_flame_key *k)
{
	uint32_t i = hash_key(k) & (tcap - 1);
	while (table[i].k.used && !key_eq(&table[i].k, k))
		i = (i + 1) & (tcap - 1);
	return i;
}

static int grow_table(struct ior_flame_agg *a)
{
	if (a->tcap >= UINT32_MAX / 2)
		return -ENOMEM;
	uint32_t tcap = a->tcap * 2;
	struct entry *t = calloc(tcap, sizeof *t);
	if (!t)
		return -ENOMEM;
	for (uint32_t i = 0; i < a->tcap; i++)
		if (a->table[i].k.used)
			t[find_slot(t, tcap, &a->table[i].k)] = a->table[i];
	free(a->table);
	a->table = t;
	a->tcap = tcap;
	return 0;
}

void ior_flame_agg_set_limits(struct ior_flame_agg *a, uint32_t max_keys, size_t max_string_bytes)
{
	a->max_keys = max_keys;
	a->max_string_bytes = max_string_bytes;
}

static void add_other(struct ior_flame_agg *a, uint64_t w, uint64_t pairs)
{
	a->other_pairs += pairs;
	a->other_value = ior_flame_sat_add(a->other_value, w);
}

static int add_key(struct ior_flame_agg *a, struct ior_flame_key *k, uint64_t w, uint64_t pairs)
{
	k->used = 1;
	if (!a->last || !key_eq(&a->table[a->last - 1].k, k)) {
		uint32_t i = find_slot(a->table, a->tcap, k);
		if (!a->table[i].k.used) {
			if (a->max_keys && a->nentries >= a->max_keys) {
				add_other(a, w, pairs);
				return 0;
			}
			if ((a->nentries + 1) * 2 > a->tcap) {
				if (grow_table(a))
					return -ENOMEM;
				i = find_slot(a->table, a->tcap, k);
			}
			a->table[i] = (struct entry){ .k = *k };
			a->nentries++;
		}
		a->last = i + 1;
	}
	struct entry *e = &a->table[a->last - 1];
	e->value = ior_flame_sat_add(e->value, w);
	return 0;
}

static inline uint64_t weight(enum ior_flame_metric m, const struct ior_event_pair *p)
{
	switch (m) {
	case IOR_METRIC_DURATION:
		return p->duration_ns;
	case IOR_METRIC_DURATION_TO_PREV:
		return p->gap_ns;
	case IOR_METRIC_BYTES:
		return p->bytes;
	default:
		return ior_pair_count(p);
	}
}

static void account(struct ior_flame_agg *a, const struct ior_event_pair *p, uint64_t w)
{
	/* a summary's duration is a sum: its span is enter_ns..end_ns */
	uint64_t exit = p->summary ? p->end_ns : p->enter_ns + p->duration_ns;
	bool spans = !p->summary || p->pairs;
	if (spans && (!a->spanned || p->enter_ns < a->first_ns))
		a->first_ns = p->enter_ns;
	if (spans && (!a->spanned || exit > a->last_ns))
		a->last_ns = exit;
	a->spanned |= spans;
	a->pairs += ior_pair_count(p);
	a->total = ior_flame_sat_add(a->total, w);
}

static void fill_key(struct ior_flame_agg *a, const struct ior_event_pair *p, struct ior_flame_key *k)
{
	memset(k, 0, sizeof *k);
	if (a->use & USE_SYS)
		k->sys = p->sys;
	if (a->use & USE_PID)
		k->pid = p->pid;
	if (a->use & USE_TID)
		k->tid = p->tid;
	if (a->use & USE_FLAGS)
		k->flags = p->flags;
}

/* The string's id; once the strings reach their bound only strings already
 * known have one (*absent set otherwise: the pair's tuple is new). */
static int string_id(struct ior_flame_agg *a, const char *s, uint32_t *id, bool *absent)
{
	size_t n = strlen(s);
	if (a->max_string_bytes && a->strs.len >= a->max_string_bytes) {
		*id = ior_flame_strtab_find(&a->strs, s, n);
		*absent |= *id == UINT32_MAX;
		return 0;
	}
	*id = ior_flame_strtab_intern(&a->strs, s, n);
	return *id == UINT32_MAX ? -ENOMEM : 0;
}

int ior_flame_agg_add(struct ior_flame_agg *a, const struct ior_event_pair *p)
{
	if (!ior_flame_spec_match(&a->spec, p))
		return 0;
	struct ior_flame_key k;
	bool absent = false;
	fill_key(a, p, &k);
	if (a->use & USE_COMM && string_id(a, p->comm ? p->comm : "", &k.comm, &absent))
		return -ENOMEM;
	if (a->use & USE_PATH && !absent && string_id(a, p->path ? p->path : "", &k.path, &absent))
		return -ENOMEM;
	uint64_t w = weight(a->spec.metric, p);
	account(a, p, w);
	if (p->summary && !w)
		return 0; /* a correction of another metric: no frame */
	if (absent) {
		add_other(a, w, ior_pair_count(p));
		return 0;
	}
	return add_key(a, &k, w, ior_pair_count(p));
}

/* ---- fast path on reader string ids ------------------------------------- */

static int map_reserve(struct ior_flame_agg *a, uint32_t n)
{
	if (n <= a->map_cap)
		return 0;
	uint32_t cap = a->map_cap ? a->map_cap : 1024;
	while (cap < n)
		cap *= 2;
	uint32_t *m = realloc(a->idmap, cap * sizeof *m);
	uint8_t *c = m ? realloc(a->comm_ok, cap) : NULL;
	uint8_t *p = c ? realloc(a->path_ok, cap) : NULL;
	if (m)
		a->idmap = m;
	if (c)
		a->comm_ok = c;
	if (!p)
		return -ENOMEM;
	a->path_ok = p;
	memset(m + a->map_cap, 0, (cap - a->map_cap) * sizeof *m);
	memset(c + a->map_cap, 0, cap - a->map_cap);
	memset(p + a->map_cap, 0, cap - a->map_cap);
	a->map_cap = cap;
	return 0;
}

static void map_reset(struct ior_flame_agg *a, uint32_t gen)
{
	if (a->map_cap) {
		memset(a->idmap, 0, a->map_cap * sizeof *a->idmap);
		memset(a->comm_ok, 0, a->map_cap);
		memset(a->path_ok, 0, a->map_cap);
	}
	a->gen = gen;
}

static inline uint32_t map_id(struct ior_flame_agg *a, struct ior_rec_reader *r, uint32_t id)
{
	if (a->idmap[id])
		return a->idmap[id] - 1;
	const char *s = ior_rec_reader_string(r, id);
	uint32_t v = ior_flame_strtab_intern(&a->strs, s, strlen(s));
	if (v != UINT32_MAX)
		a->idmap[id] = v + 1;
	return v;
}

static bool contains_cached(uint8_t *cache, struct ior_rec_reader *r, uint32_t id, const char *needle)
{
	if (cache[id] == FILTER_UNKNOWN)
		cache[id] = strstr(ior_rec_reader_string(r, id), needle) ? FILTER_PASS : FILTER_FAIL;
	return cache[id] == FILTER_PASS;
}

static bool fast_match(struct ior_flame_agg *a, struct ior_rec_reader *r,
		       const struct ior_event_pair *p, const struct ior_rec_ids *ids)
{
	const struct ior_flame_spec *s = &a->spec;
	if (s->pid >= 0 && p->pid != (uint64_t)s->pid)
		return false;
	if (s->tid >= 0 && p->tid != (uint64_t)s->tid)
		return false;
	if (s->comm && *s->comm && !contains_cached(a->comm_ok, r, ids->comm, s->comm))
		return false;
	if (s->path && *s->path && !contains_cached(a->path_ok, r, ids->path, s->path) &&
	    !contains_cached(a->path_ok, r, ids->path2, s->path))
		return false;
	return true;
}

int ior_flame_agg_add_recording(struct ior_flame_agg *a, struct ior_rec_reader *r)
{
	struct ior_event_pair p;
	struct ior_rec_ids ids;
	int rc;
	while ((rc = ior_rec_read_ids(r, &p, &ids)) == 1) {
		if (ids.gen != a->gen)
			map_reset(a, ids.gen);
		if (map_reserve(a, ior_rec_reader_nstrings(r)))
			return -ENOMEM;
		if (!fast_match(a, r, &p, &ids))
			continue;
		struct ior_flame_key k;
		fill_key(a, &p, &k);
		if (a->use & USE_COMM && (k.comm = map_id(a, r, ids.comm)) == UINT32_MAX)
			return -ENOMEM;
		if (a->use & USE_PATH && (k.path = map_id(a, r, ids.path)) == UINT32_MAX)
			return -ENOMEM;
		uint64_t w = weight(a->spec.metric, &p);
		account(a, &p, w);
		if (p.summary && !w)
			continue;
		if (add_key(a, &k, w, ior_pair_count(&p)))
			return -ENOMEM;
	}
	return rc;
}

uint64_t ior_flame_agg_other_pairs(const struct ior_flame_agg *a)
{
	return a->other_pairs;
}

uint32_t ior_flame_agg_keys(const struct ior_flame_agg *a)
{
	return a->nentries;
}

uint64_t ior_flame_agg_pairs(const struct ior_flame_agg *a)
{
	return a->pairs;
}

uint64_t ior_flame_agg_total(const struct ior_flame_agg *a)
{
	return a->total;
}

void ior_flame_agg_span(const struct ior_flame_agg *a, uint64_t *first_ns, uint64_t *last_ns)
{
	*first_ns = a->spanned ? a->first_ns : 0;
	*last_ns = a->spanned ? a->last_ns : 0;
}

int ior_flame_agg_each(const struct ior_flame_agg *a,
		       int (*fn)(void *ctx, const struct ior_flame_key *k, uint64_t value), void *ctx)
{
	int rc = 0;
	for (uint32_t i = 0; !rc && i < a->tcap; i++)
		if (a->table[i].k.used)
			rc = fn(ctx, &a->table[i].k, a->table[i].value);
	return rc;
}

const char *ior_flame_agg_string(const struct ior_flame_agg *a, uint32_t id)
{
	return ior_flame_strtab_get(&a->strs, id);
}

const struct ior_flame_spec *ior_flame_agg_spec(const struct ior_flame_agg *a)
{
	return &a->spec;
}

uint64_t ior_flame_agg_other_value(const struct ior_flame_agg *a)
{
	return a->other_value;
}
