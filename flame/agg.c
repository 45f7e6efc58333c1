/* Aggregation. The hot loop works on small integers only: a pair becomes a
 * key of ids (comm id, path id, syscall, pid, tid, flags: just the fields
 * asked for), summed in an open-addressing table; consecutive pairs with
 * the same key (the common case) skip even the hash. Strings are split into
 * frames once per distinct key, when the tree is built. */
#include "flame.h"
#include "strtab.h"
#include "trace/csv.h"
#include "trace/rec.h"
#include "trace/syscalls.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct key {
	int64_t flags;
	uint32_t comm, path, pid, tid;
	uint16_t sys;
	uint16_t used; /* table slot occupied */
};

struct entry {
	struct key k;
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

static const char *field_names[] = { "comm", "path", "tracepoint", "pid", "tid", "flags" };
static const char *metric_names[] = { "count", "duration", "durationToPrev", "bytes" };

const char *ior_flame_metric_name(enum ior_flame_metric m)
{
	return metric_names[m];
}

static int parse_field(const char *s, size_t n, enum ior_flame_field *f)
{
	for (unsigned i = 0; i < sizeof field_names / sizeof *field_names; i++)
		if (strlen(field_names[i]) == n && !memcmp(field_names[i], s, n)) {
			*f = (enum ior_flame_field)i;
			return 0;
		}
	return -1;
}

int ior_flame_spec_parse(struct ior_flame_spec *spec, const char *fields, const char *metric,
			 char *err, size_t errlen)
{
	memset(spec, 0, sizeof *spec);
	spec->pid = spec->tid = -1;
	unsigned seen = 0;
	for (const char *p = fields;;) {
		size_t n = strcspn(p, ",");
		enum ior_flame_field f;
		if (parse_field(p, n, &f)) {
			snprintf(err, errlen, "-fields: unknown field \"%.*s\": use comm, path, tracepoint, pid, tid, flags",
				 (int)(n > 64 ? 64 : n), p);
			return -EINVAL;
		}
		if (seen & 1u << f) {
			snprintf(err, errlen, "-fields: \"%s\" given twice", field_names[f]);
			return -EINVAL;
		}
		seen |= 1u << f;
		spec->fields[spec->nfields++] = f;
		if (!p[n])
			break;
		p += n + 1;
	}
	for (unsigned i = 0; i < sizeof metric_names / sizeof *metric_names; i++)
		if (!strcmp(metric, metric_names[i])) {
			spec->metric = (enum ior_flame_metric)i;
			return 0;
		}
	snprintf(err, errlen, "-count: unknown metric \"%.64s\": use count, duration, durationToPrev, bytes", metric);
	return -EINVAL;
}

void ior_flame_fields_str(const struct ior_flame_spec *spec, char sep, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < spec->nfields && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? (char[]){ sep, 0 } : "",
				      field_names[spec->fields[i]]);
}

bool ior_flame_spec_match(const struct ior_flame_spec *s, const struct ior_event_pair *p)
{
	const char *comm = p->comm ? p->comm : "", *path = p->path ? p->path : "";
	const char *path2 = p->path2 ? p->path2 : "";
	if (s->pid >= 0 && p->pid != (uint64_t)s->pid)
		return false;
	if (s->tid >= 0 && p->tid != (uint64_t)s->tid)
		return false;
	if (s->comm && *s->comm && !strstr(comm, s->comm))
		return false;
	if (s->path && *s->path && !strstr(path, s->path) && !strstr(path2, s->path))
		return false;
	return true;
}

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

static inline uint32_t hash_key(const struct key *k)
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

static inline bool key_eq(const struct key *a, const struct key *b)
{
	return a->flags == b->flags && a->comm == b->comm && a->path == b->path &&
	       a->pid == b->pid && a->tid == b->tid && a->sys == b->sys;
}

static uint32_t find_slot(const struct entry *table, uint32_t tcap, const struct key *k)
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

static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t s = a + b;
	return s < a ? UINT64_MAX : s;
}

void ior_flame_agg_set_limits(struct ior_flame_agg *a, uint32_t max_keys, size_t max_string_bytes)
{
	a->max_keys = max_keys;
	a->max_string_bytes = max_string_bytes;
}

static void add_other(struct ior_flame_agg *a, uint64_t w, uint64_t pairs)
{
	a->other_pairs += pairs;
	a->other_value = sat_add(a->other_value, w);
}

static int add_key(struct ior_flame_agg *a, struct key *k, uint64_t w, uint64_t pairs)
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
	e->value = sat_add(e->value, w);
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
	a->total = sat_add(a->total, w);
}

static void fill_key(struct ior_flame_agg *a, const struct ior_event_pair *p, struct key *k)
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
	struct key k;
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
		struct key k;
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

/* ---- the frame tree ----------------------------------------------------- */

struct builder {
	struct ior_flame_tree *t;
	struct ior_flame_strtab names;
	uint32_t ncap;
	uint64_t *child_keys;   /* (parent << 32 | name) + 1, 0 empty */
	uint32_t *child_nodes;
	uint32_t ccap;
	char buf[4 * 4096 + 16];
};

static int grow_children(struct builder *b)
{
	uint32_t cap = b->ccap * 2;
	uint64_t *k = calloc(cap, sizeof *k);
	uint32_t *n = malloc(cap * sizeof *n);
	if (!k || !n) {
		free(k);
		free(n);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < b->ccap; i++) {
		if (!b->child_keys[i])
			continue;
		uint64_t h = (b->child_keys[i] * 0x9E3779B97F4A7C15ull) >> 32;
		uint32_t j = (uint32_t)h & (cap - 1);
		while (k[j])
			j = (j + 1) & (cap - 1);
		k[j] = b->child_keys[i];
		n[j] = b->child_nodes[i];
	}
	free(b->child_keys);
	free(b->child_nodes);
	b->child_keys = k;
	b->child_nodes = n;
	b->ccap = cap;
	return 0;
}

static int new_node(struct builder *b, uint32_t parent, uint32_t name, uint32_t *id)
{
	struct ior_flame_tree *t = b->t;
	if (t->nnodes == b->ncap) {
		if (b->ncap >= UINT32_MAX / 4)
			return -ENOMEM;
		struct ior_flame_node *n = realloc(t->nodes, 2 * (size_t)b->ncap * sizeof *n);
		if (!n)
			return -ENOMEM;
		t->nodes = n;
		b->ncap *= 2;
	}
	uint32_t depth = t->nnodes ? t->nodes[parent].depth + 1 : 0;
	t->nodes[t->nnodes] = (struct ior_flame_node){ .name = name, .parent = parent, .depth = depth };
	if (depth > t->max_depth)
		t->max_depth = depth;
	*id = t->nnodes++;
	return 0;
}

/* The child of parent named name, created when missing. */
static int child(struct builder *b, uint32_t parent, uint32_t name, uint32_t *id)
{
	uint64_t key = ((uint64_t)parent << 32 | name) + 1;
	uint32_t j = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (b->ccap - 1);
	for (; b->child_keys[j]; j = (j + 1) & (b->ccap - 1))
		if (b->child_keys[j] == key) {
			*id = b->child_nodes[j];
			return 0;
		}
	int rc = new_node(b, parent, b->names.off[name], id);
	if (rc)
		return rc;
	b->child_keys[j] = key;
	b->child_nodes[j] = *id;
	if (b->t->nnodes * 2 > b->ccap)
		return grow_children(b);
	return 0;
}

/* Descends one frame from *node, adding w on the way. */
static int frame(struct builder *b, uint32_t *node, const char *s, size_t n, uint64_t w)
{
	size_t len = ior_flame_sanitize(b->buf, sizeof b->buf, s, n);
	uint32_t name = ior_flame_strtab_intern(&b->names, b->buf, len);
	if (name == UINT32_MAX)
		return -ENOMEM;
	int rc = child(b, *node, name, node);
	if (!rc)
		b->t->nodes[*node].value = sat_add(b->t->nodes[*node].value, w);
	return rc;
}

static int path_frames(struct builder *b, uint32_t *node, const char *path, uint64_t w)
{
	if (!*path)
		return frame(b, node, "(no path)", 9, w);
	int rc = 0;
	if (*path == '/')
		rc = frame(b, node, "/", 1, w);
	for (const char *p = path; !rc && *p;) {
		p += strspn(p, "/");
		size_t n = strcspn(p, "/");
		if (n)
			rc = frame(b, node, p, n, w);
		p += n;
	}
	return rc;
}

static int field_frames(struct builder *b, const struct ior_flame_agg *a, enum ior_flame_field f,
			const struct entry *e, uint32_t *node)
{
	char tmp[256];
	uint64_t w = e->value;
	const char *s;
	switch (f) {
	case IOR_FIELD_COMM:
		s = ior_flame_strtab_get(&a->strs, e->k.comm);
		return *s ? frame(b, node, s, strlen(s), w) : frame(b, node, "?", 1, w);
	case IOR_FIELD_PATH:
		return path_frames(b, node, ior_flame_strtab_get(&a->strs, e->k.path), w);
	case IOR_FIELD_TRACEPOINT:
		s = e->k.sys < ior_nsyscalls ? ior_syscalls[e->k.sys].name : "?";
		return frame(b, node, s, strlen(s), w);
	case IOR_FIELD_PID:
	case IOR_FIELD_TID:
		snprintf(tmp, sizeof tmp, "%s %u", f == IOR_FIELD_PID ? "pid" : "tid",
			 f == IOR_FIELD_PID ? e->k.pid : e->k.tid);
		return frame(b, node, tmp, strlen(tmp), w);
	case IOR_FIELD_FLAGS:
		if (e->k.flags == IOR_FLAGS_UNKNOWN)
			snprintf(tmp, sizeof tmp, "(flags unknown)");
		else
			ior_open_flags_str(tmp, sizeof tmp, e->k.flags);
		return frame(b, node, tmp, strlen(tmp), w);
	}
	return -EINVAL;
}

static const struct ior_flame_tree *sort_tree;

static int by_name(const void *x, const void *y)
{
	const struct ior_flame_tree *t = sort_tree;
	return strcmp(ior_flame_node_name(t, *(const uint32_t *)x), ior_flame_node_name(t, *(const uint32_t *)y));
}

/* Children lists in one array, each sorted by name. */
static int link_children(struct ior_flame_tree *t)
{
	t->kids = malloc((t->nnodes ? t->nnodes : 1) * sizeof *t->kids);
	if (!t->kids)
		return -ENOMEM;
	for (uint32_t i = 1; i < t->nnodes; i++)
		t->nodes[t->nodes[i].parent].nchild++;
	uint32_t next = 0;
	for (uint32_t i = 0; i < t->nnodes; i++) {
		t->nodes[i].child0 = next;
		next += t->nodes[i].nchild;
		t->nodes[i].nchild = 0;
	}
	for (uint32_t i = 1; i < t->nnodes; i++) {
		struct ior_flame_node *p = &t->nodes[t->nodes[i].parent];
		t->kids[p->child0 + p->nchild++] = i;
	}
	sort_tree = t;
	for (uint32_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].nchild > 1)
			qsort(t->kids + t->nodes[i].child0, t->nodes[i].nchild, sizeof *t->kids, by_name);
	return 0;
}

static int build(struct builder *b, const struct ior_flame_agg *a)
{
	struct ior_flame_tree *t = b->t;
	uint32_t root;
	int rc = ior_flame_strtab_intern(&b->names, "all", 3) == UINT32_MAX ? -ENOMEM : 0;
	if (!rc)
		rc = new_node(b, 0, 0, &root);
	for (uint32_t i = 0; !rc && i < a->tcap; i++) {
		const struct entry *e = &a->table[i];
		if (!e->k.used)
			continue;
		uint32_t node = 0;
		t->nodes[0].value = sat_add(t->nodes[0].value, e->value);
		for (unsigned f = 0; !rc && f < a->spec.nfields; f++)
			rc = field_frames(b, a, a->spec.fields[f], e, &node);
		if (!rc)
			t->nodes[node].self = sat_add(t->nodes[node].self, e->value);
	}
	if (!rc && a->other_pairs) {
		uint32_t node = 0;
		t->nodes[0].value = sat_add(t->nodes[0].value, a->other_value);
		rc = frame(b, &node, IOR_FLAME_OTHER, strlen(IOR_FLAME_OTHER), a->other_value);
		if (!rc)
			t->nodes[node].self = sat_add(t->nodes[node].self, a->other_value);
	}
	t->names = b->names.arena; /* final: no more names are added */
	if (!rc)
		rc = link_children(t);
	return rc;
}

int ior_flame_tree_build(const struct ior_flame_agg *a, struct ior_flame_tree **tp)
{
	*tp = NULL;
	struct ior_flame_tree *t = calloc(1, sizeof *t);
	struct builder b = { .t = t, .ncap = 1024, .ccap = 2048 };
	if (!t)
		return -ENOMEM;
	t->spec = a->spec;
	t->pairs = a->pairs;
	t->nodes = malloc(b.ncap * sizeof *t->nodes);
	b.child_keys = calloc(b.ccap, sizeof *b.child_keys);
	b.child_nodes = malloc(b.ccap * sizeof *b.child_nodes);
	int rc = -ENOMEM;
	if (t->nodes && b.child_keys && b.child_nodes && !ior_flame_strtab_init(&b.names))
		rc = build(&b, a);
	free(b.child_keys);
	free(b.child_nodes);
	t->names = b.names.arena;
	b.names.arena = NULL;
	ior_flame_strtab_free(&b.names);
	if (rc) {
		ior_flame_tree_free(t);
		return rc;
	}
	*tp = t;
	return 0;
}

void ior_flame_tree_free(struct ior_flame_tree *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t->kids);
	free(t->names);
	free(t);
}
