/* Aggregation. The hot loop works on small integers only: a pair becomes a
 * key of one word per field asked for (a string's id, the syscall, pid,
 * ...: field.h), summed in an open-addressing table; consecutive pairs
 * with the same key (the common case) skip even the hash. Strings are
 * split into frames once per distinct key, when the tree is built
 * (tree.c). */
#include "agg.h"
#include "field.h"
#include "text/strtab.h"
#include "rec/rec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A slot of the table: the key's words follow used and the sums. Keys and
 * sums inline in one open-addressing table: a lookup costs one cache miss,
 * which is what limits traces with many distinct files. */
struct slot {
	uint64_t used;
	struct ior_flame_sums sums;
	uint64_t key[];
};

#define SEEN 8 /* live string ids remembered per key word */

struct live_string {
	uint64_t live; /* the pair's id (comm_id, path_id) */
	uint32_t id;   /* the string's id in strs */
};

struct ior_flame_agg {
	struct ior_flame_spec spec;
	/* Key word j is field keyf[j]'s, in table order, so text fields are
	 * interned in the same order whatever -fields says (it matters once
	 * the strings reach their bound); word[i] is spec field i's. */
	const struct ior_flame_field *keyf[IOR_FLAME_MAX_FIELDS];
	uint8_t word[IOR_FLAME_MAX_FIELDS];
	unsigned nkey, stride;          /* key words; words per slot */
	bool text_keyed;                /* a key word is a string's id */
	struct ior_strtab strs;         /* the text fields' strings */
	uint64_t *table;                /* tcap slots of stride words */
	uint32_t tcap, nentries;
	uint32_t last;                  /* slot of the previous pair, + 1 */
	uint64_t pairs, total, first_ns, last_ns;
	bool spanned; /* first_ns and last_ns are set */
	/* bounds (0: none) and the "(other)" bucket beyond them */
	uint32_t max_keys, max_frames;
	size_t max_string_bytes;
	uint64_t frames;                /* the keys' frames, with max_frames */
	bool full;                      /* a bound refused a key: no new one is kept */
	bool per_source;                /* a field keys on the source's host */
	uint32_t host;                  /* its string id (VALUE_ID: not kept) */
	/* Key word j's live strings: the pair's id for one (live_id) and its
	 * string id here, in SEEN slots by id (threads taking turns each
	 * have a comm id), so a comm or an fd's name is not hashed again on
	 * every pair. */
	struct live_string seen[IOR_FLAME_MAX_FIELDS][SEEN];
	uint64_t other_pairs;
	struct ior_flame_sums other;
};

static inline struct slot *slot_at(uint64_t *table, unsigned stride, uint32_t i)
{
	return (struct slot *)(table + (size_t)i * stride);
}

/* The key words in table order; -EINVAL for a spec that is not parsed. */
static int plan_key(struct ior_flame_agg *a)
{
	const struct ior_flame_spec *s = &a->spec;
	if (s->nfields > IOR_FLAME_MAX_FIELDS)
		return -EINVAL;
	for (unsigned i = 0; i < s->nfields; i++)
		if (s->fields[i] >= ior_flame_nfields)
			return -EINVAL;
	for (unsigned f = 0; f < ior_flame_nfields; f++)
		for (unsigned i = 0; i < s->nfields; i++)
			if (s->fields[i] == f) {
				a->word[i] = (uint8_t)a->nkey;
				a->keyf[a->nkey++] = &ior_flame_fields[f];
				a->text_keyed |= ior_flame_fields[f].text != NULL;
				a->per_source |= ior_flame_fields[f].per_source;
			}
	a->stride = (unsigned)(sizeof(struct slot) / sizeof(uint64_t)) + a->nkey;
	return 0;
}

int ior_flame_agg_new(struct ior_flame_agg **ap, const struct ior_flame_spec *spec)
{
	struct ior_flame_agg *a = calloc(1, sizeof *a);
	*ap = NULL;
	if (!a)
		return -ENOMEM;
	a->spec = *spec;
	int rc = plan_key(a);
	if (rc) {
		free(a);
		return rc;
	}
	a->tcap = 2048;
	a->table = calloc((size_t)a->tcap * a->stride, sizeof *a->table);
	if (!a->table || ior_strtab_init(&a->strs) || ior_flame_agg_set_host(a, "")) {
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
	ior_strtab_free(&a->strs);
	free(a->table);
	free(a);
}

static inline uint32_t hash_key(const uint64_t *k, unsigned n)
{
	const uint64_t m = 0x9E3779B97F4A7C15ull;
	uint64_t h = 0;
	for (unsigned i = 0; i < n; i++)
		h = (h ^ k[i]) * m;
	/* murmur3's finaliser: every input bit reaches the low bits used */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (uint32_t)h;
}

static inline bool key_eq(const uint64_t *a, const uint64_t *b, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static uint32_t find_slot(const struct ior_flame_agg *a, uint64_t *table, uint32_t tcap, const uint64_t *k)
{
	uint32_t i = hash_key(k, a->nkey) & (tcap - 1);
	for (struct slot *s; (s = slot_at(table, a->stride, i))->used && !key_eq(s->key, k, a->nkey);)
		i = (i + 1) & (tcap - 1);
	return i;
}

static int grow_table(struct ior_flame_agg *a)
{
	if (a->tcap >= UINT32_MAX / 2)
		return -ENOMEM;
	uint32_t tcap = a->tcap * 2;
	uint64_t *t = calloc((size_t)tcap * a->stride, sizeof *t);
	if (!t)
		return -ENOMEM;
	for (uint32_t i = 0; i < a->tcap; i++) {
		struct slot *s = slot_at(a->table, a->stride, i);
		if (s->used)
			memcpy(slot_at(t, a->stride, find_slot(a, t, tcap, s->key)), s,
			       a->stride * sizeof *t);
	}
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

void ior_flame_agg_set_max_frames(struct ior_flame_agg *a, uint32_t max_frames)
{
	a->max_frames = max_frames;
}

void ior_flame_agg_set_bounds(struct ior_flame_agg *a)
{
	ior_flame_agg_set_limits(a, IOR_FLAME_MAX_KEYS, IOR_FLAME_MAX_STRING_BYTES);
	ior_flame_agg_set_max_frames(a, IOR_FLAME_MAX_FRAMES);
}

/* The frames key k (table order) draws: at most what it adds to a tree. */
static uint32_t key_frames(const struct ior_flame_agg *a, const uint64_t *k)
{
	uint32_t n = 0;
	for (unsigned j = 0; j < a->nkey; j++) {
		const struct ior_flame_field *f = a->keyf[j];
		n += ior_flame_count_frames(f, f->text ? ior_strtab_get(&a->strs, (uint32_t)k[j]) : NULL, k[j]);
	}
	return n;
}

/* Room for new key k within the bounds; its frames are counted then.
 * Once a bound refuses a key, none is kept any more (nor a new string). */
static bool key_fits(struct ior_flame_agg *a, const uint64_t *k)
{
	uint32_t n = a->max_frames && !a->full ? key_frames(a, k) : 0;
	a->full |= (a->max_keys && a->nentries >= a->max_keys) || (a->max_frames && a->frames + n > a->max_frames);
	a->frames += a->full ? 0 : n;
	return !a->full;
}

static inline void add_sums(struct ior_flame_sums *s, const struct ior_flame_sums *w)
{
	s->value = ior_flame_sat_add(s->value, w->value);
	s->time_ns = ior_flame_sat_add(s->time_ns, w->time_ns);
	s->device_ns = ior_flame_sat_add(s->device_ns, w->device_ns);
}

static void add_other(struct ior_flame_agg *a, const struct ior_flame_sums *w, uint64_t pairs)
{
	a->other_pairs += pairs;
	add_sums(&a->other, w);
}

/* The slot of key k, + 1, added when new; 0 when new beyond the bound. */
static int lookup(struct ior_flame_agg *a, const uint64_t *k, uint32_t *found)
{
	uint32_t i = find_slot(a, a->table, a->tcap, k);
	struct slot *s = slot_at(a->table, a->stride, i);
	*found = 0;
	if (!s->used) {
		if (!key_fits(a, k))
			return 0;
		if ((a->nentries + 1) * 2 > a->tcap) {
			if (grow_table(a))
				return -ENOMEM;
			i = find_slot(a, a->table, a->tcap, k);
			s = slot_at(a->table, a->stride, i);
		}
		s->used = 1;
		memcpy(s->key, k, a->nkey * sizeof *k);
		a->nentries++;
	}
	*found = i + 1;
	return 0;
}

static inline bool same_as_last(const struct ior_flame_agg *a, const uint64_t *k)
{
	return a->last && key_eq(slot_at(a->table, a->stride, a->last - 1)->key, k, a->nkey);
}

/* Adds w to key k (same: k is the previous pair's key). */
static int add_key(struct ior_flame_agg *a, const uint64_t *k, bool same, const struct ior_flame_sums *w,
		   uint64_t pairs)
{
	if (!same) {
		uint32_t found;
		if (lookup(a, k, &found))
			return -ENOMEM;
		if (!found) {
			add_other(a, w, pairs);
			return 0;
		}
		a->last = found;
	}
	add_sums(&slot_at(a->table, a->stride, a->last - 1)->sums, w);
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
	case IOR_METRIC_DEVICE_TIME:
		return p->device_ns;
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

/* A recording's string as the reader hands it over (define_string): its
 * id here and the filters it passes, in the one word the reader keeps. */
#define VALUE_ID 0x3fffffffu     /* the id; all ones: the string is not kept */
#define VALUE_COMM_OK (1u << 30) /* passes the comm filter */
#define VALUE_PATH_OK (1u << 31) /* passes the path filter */

/* No new string is kept once the strings reach their bound, or the keys
 * theirs (a new string could only make a new tuple, which goes to
 * "(other)" then), nor beyond the ids VALUE_ID can name. */
static bool strings_full(const struct ior_flame_agg *a)
{
	return (a->max_string_bytes && a->strs.len >= a->max_string_bytes) ||
	       (a->max_keys && a->nentries >= a->max_keys) || a->full || a->strs.n >= VALUE_ID;
}

/* 0 and *id, 1 when s[0..n) is not kept (see strings_full), or -ENOMEM. */
static int keep_string(struct ior_flame_agg *a, const char *s, size_t n, uint32_t *id)
{
	if (strings_full(a)) {
		*id = ior_strtab_find(&a->strs, s, n);
		return *id == UINT32_MAX;
	}
	*id = ior_strtab_intern(&a->strs, s, n);
	return *id == UINT32_MAX ? -ENOMEM : 0;
}

int ior_flame_agg_set_host(struct ior_flame_agg *a, const char *host)
{
	uint32_t id;
	int rc = a->per_source ? keep_string(a, host, strlen(host), &id) : 0;

	if (rc < 0)
		return rc;
	a->host = rc ? VALUE_ID : id;
	return 0;
}

/* The string's id; *absent set when it is not kept (the tuple is new). */
static int string_id(struct ior_flame_agg *a, const char *s, uint64_t *id, bool *absent)
{
	uint32_t v;
	int rc = keep_string(a, s, strlen(s), &v);
	*absent |= rc == 1;
	*id = v;
	return rc < 0 ? rc : 0;
}

/* Key word j of a live pair whose string has the id live: the string id
 * kept for that id, as string_id() would give it; only a kept string is
 * remembered (one not kept may be kept later). */
static int live_string_id(struct ior_flame_agg *a, unsigned j, uint64_t live, const char *s, uint64_t *id,
			  bool *absent)
{
	struct live_string *slot = &a->seen[j][live % SEEN];
	if (live && slot->live == live) {
		*id = slot->id;
		return 0;
	}
	bool missing = false;
	int rc = string_id(a, s, id, &missing);
	*absent |= missing;
	if (!rc && !missing) {
		slot->live = live;
		slot->id = (uint32_t)*id;
	}
	return rc;
}

/* The key of a pair, strings by content; *absent: a string is not kept. */
static int key_of_pair(struct ior_flame_agg *a, const struct ior_event_pair *p, uint64_t *k, bool *absent)
{
	for (unsigned j = 0; j < a->nkey; j++) {
		const struct ior_flame_field *f = a->keyf[j];
		const char *s;
		if (f->per_source)
			*absent |= (k[j] = a->host) == VALUE_ID;
		else if (!f->text)
			k[j] = f->number(p);
		else if (!*absent && live_string_id(a, j, f->live_id ? f->live_id(p) : 0,
						    (s = f->text(p)) ? s : "", &k[j], absent))
			return -ENOMEM;
	}
	return 0;
}

int ior_flame_agg_add(struct ior_flame_agg *a, const struct ior_event_pair *p)
{
	if (!ior_flame_spec_match(&a->spec, p))
		return 0;
	uint64_t k[IOR_FLAME_MAX_FIELDS];
	bool absent = false;
	if (key_of_pair(a, p, k, &absent))
		return -ENOMEM;
	struct ior_flame_sums w = { weight(a->spec.metric, p), p->duration_ns, p->device_ns };
	account(a, p, w.value);
	if (p->summary && !w.value)
		return 0; /* a correction of another metric: no frame */
	if (absent) {
		add_other(a, &w, ior_pair_count(p));
		return 0;
	}
	return add_key(a, k, same_as_last(a, k), &w, ior_pair_count(p));
}

/* ---- fast path on a recording's string values ---------------------------- */

static bool contains(const char *s, const char *needle)
{
	return !needle || !*needle || strstr(s, needle);
}

/* Each string once, as the file defines it (ior_rec_reader_map_strings):
 * interned when a text field is keyed and the bounds allow, and tested
 * against the filters now, so no pair reads a string. */
static int define_string(void *ctx, const char *s, size_t n, uint32_t *value)
{
	struct ior_flame_agg *a = ctx;
	uint32_t id = VALUE_ID;
	int rc = a->text_keyed ? keep_string(a, s, n, &id) : 1;
	if (rc < 0)
		return rc;
	*value = (rc ? VALUE_ID : id) | (contains(s, a->spec.comm) ? VALUE_COMM_OK : 0) |
		 (contains(s, a->spec.path) ? VALUE_PATH_OK : 0);
	return 0;
}

static bool fast_match(const struct ior_flame_agg *a, const struct ior_event_pair *p,
		       const struct ior_rec_ids *ids)
{
	const struct ior_flame_spec *s = &a->spec;
	return (s->pid < 0 || p->pid == (uint64_t)s->pid) && (s->tid < 0 || p->tid == (uint64_t)s->tid) &&
	       ids->comm & VALUE_COMM_OK && (ids->path | ids->path2) & VALUE_PATH_OK;
}

/* The key of a recorded pair, strings by their values: 0, or 1 when a
 * string of it is not kept (its tuple is new); *same: it is the previous
 * pair's (compared on the way: the common case). */
static int key_of_ids(const struct ior_flame_agg *a, const struct ior_event_pair *p,
		      const struct ior_rec_ids *ids, uint64_t *k, bool *same)
{
	static const uint64_t none[IOR_FLAME_MAX_FIELDS];
	const uint64_t *last = a->last ? slot_at(a->table, a->stride, a->last - 1)->key : none;
	uint64_t diff = !a->last;
	for (unsigned j = 0; j < a->nkey; j++) {
		const struct ior_flame_field *f = a->keyf[j];
		uint64_t v;
		if (f->per_source) {
			if ((v = a->host) == VALUE_ID)
				return 1;
		} else if (!f->text)
			v = f->number(p);
		else if ((v = f->text_id(ids) & VALUE_ID) == VALUE_ID)
			return 1;
		diff |= v ^ last[j];
		k[j] = v;
	}
	*same = !diff;
	return 0;
}

int ior_flame_agg_add_recording(struct ior_flame_agg *a, struct ior_rec_reader *r)
{
	struct ior_event_pair p;
	struct ior_rec_ids ids;
	uint64_t k[IOR_FLAME_MAX_FIELDS];
	int rc = ior_flame_agg_set_host(a, ior_rec_reader_info(r)->host);
	if (!rc)
		rc = ior_rec_reader_map_strings(r, define_string, a);
	if (rc)
		return rc;
	while ((rc = ior_rec_read_ids(r, &p, &ids)) == 1) {
		if (!fast_match(a, &p, &ids))
			continue;
		bool same = false;
		int absent = key_of_ids(a, &p, &ids, k, &same);
		struct ior_flame_sums w = { weight(a->spec.metric, &p), p.duration_ns, p.device_ns };
		account(a, &p, w.value);
		if (p.summary && !w.value)
			continue;
		if (absent)
			add_other(a, &w, ior_pair_count(&p));
		else if (add_key(a, k, same, &w, ior_pair_count(&p)))
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
		       int (*fn)(void *ctx, const uint64_t *key, const struct ior_flame_sums *sums), void *ctx)
{
	uint64_t k[IOR_FLAME_MAX_FIELDS];
	int rc = 0;
	for (uint32_t i = 0; !rc && i < a->tcap; i++) {
		const struct slot *s = slot_at(a->table, a->stride, i);
		if (!s->used)
			continue;
		for (unsigned f = 0; f < a->spec.nfields; f++)
			k[f] = s->key[a->word[f]];
		rc = fn(ctx, k, &s->sums);
	}
	return rc;
}

const char *ior_flame_agg_string(const struct ior_flame_agg *a, uint64_t id)
{
	return id < a->strs.n ? ior_strtab_get(&a->strs, (uint32_t)id) : "";
}

const struct ior_flame_spec *ior_flame_agg_spec(const struct ior_flame_agg *a)
{
	return &a->spec;
}

struct ior_flame_sums ior_flame_agg_other_sums(const struct ior_flame_agg *a)
{
	return a->other;
}
