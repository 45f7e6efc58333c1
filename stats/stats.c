/* The statistics engine (stats.h). A pair costs: the syscall's row (an
 * array), its two histograms, the rates' slot, and three bounded tables
 * (table.c) whose keys are small integers: pid, tid, and for the file the
 * path's id in an interned string table — found by comparing the path with
 * the previous pair's (the common case: a loop on one file) before
 * hashing it. */
#include "stats.h"
#include "table.h"
#include "stats/devices.h"
#include "text/strtab.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NS 1000000000ull

/* A comm NUL-padded to 16 bytes, and the comm_id it was padded for. */
struct padded_comm {
	uint64_t id; /* 0 none */
	char pad[16];
};

struct ior_stats {
	struct ior_stats_cfg cfg;
	/* by ior_sys() index, nsys of them: grown when a recording defines
	 * names (syscalls.h) */
	struct ior_stats_sums *sys;
	struct ior_hist *lat, *gap;
	unsigned nsys;
	struct ior_hist lat_all, gap_all; /* every syscall's, made on demand */
	struct table tab[IOR_STATS_NTABLES]; /* FILES, PROCESSES, THREADS (SYSCALLS unused) */
	struct ior_strtab paths, spare; /* the files' keys; spare: for folding */
	uint32_t last_path;            /* id of the previous pair's path + 1 */
	uint64_t last_src;             /* its path_id (event_pair.h), 0 unknown */
	struct padded_comm comms[8];   /* by comm_id: threads take turns */
	struct ior_stats_totals tot;
	struct ior_stats_second ring[IOR_STATS_SECONDS];
	uint64_t ring_sec[IOR_STATS_SECONDS]; /* the second a slot holds + 1; 0: none */
	uint64_t now_ns;               /* latest exit or tick */
	struct ior_devices dev;        /* block requests (devices.h) */
	struct ior_stats_row *scratch; /* for ior_stats_select */
	size_t scratch_cap;
};

/* Room for n syscall indexes; 0 or -ENOMEM (s unchanged but for
 * capacity). */
static int grow_sys(struct ior_stats *s, unsigned n)
{
	struct ior_stats_sums *sys;
	struct ior_hist *h;

	if (n <= s->nsys)
		return 0;
	if (!(sys = realloc(s->sys, n * sizeof *sys)))
		return -ENOMEM;
	s->sys = sys;
	if (!(h = realloc(s->lat, n * sizeof *h)))
		return -ENOMEM;
	s->lat = h;
	if (!(h = realloc(s->gap, n * sizeof *h)))
		return -ENOMEM;
	s->gap = h;
	memset(&s->sys[s->nsys], 0, (n - s->nsys) * sizeof *s->sys);
	for (unsigned i = s->nsys; i < n; i++)
		ior_hist_init(&s->lat[i]), ior_hist_init(&s->gap[i]);
	s->nsys = n;
	return 0;
}

int ior_stats_new(struct ior_stats **sp, const struct ior_stats_cfg *cfg)
{
	struct ior_stats *s = calloc(1, sizeof *s);
	int r = 0;

	*sp = NULL;
	if (!s)
		return -ENOMEM;
	if (cfg)
		s->cfg = *cfg;
	s->cfg.max_files = s->cfg.max_files ? s->cfg.max_files : 4096;
	s->cfg.max_processes = s->cfg.max_processes ? s->cfg.max_processes : 1024;
	s->cfg.max_threads = s->cfg.max_threads ? s->cfg.max_threads : 4096;
	s->cfg.max_path_bytes = s->cfg.max_path_bytes ? s->cfg.max_path_bytes : 4u << 20;
	ior_hist_init(&s->lat_all);
	ior_hist_init(&s->gap_all);
	ior_devices_init(&s->dev);
	if (grow_sys(s, ior_sys_count())) {
		ior_stats_free(s);
		return -ENOMEM;
	}
	r |= table_init(&s->tab[IOR_STATS_FILES], s->cfg.max_files);
	r |= table_init(&s->tab[IOR_STATS_PROCESSES], s->cfg.max_processes);
	r |= table_init(&s->tab[IOR_STATS_THREADS], s->cfg.max_threads);
	r |= ior_strtab_init(&s->paths);
	r |= ior_strtab_init(&s->spare);
	if (r) {
		ior_stats_free(s);
		return -ENOMEM;
	}
	*sp = s;
	return 0;
}

void ior_stats_free(struct ior_stats *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->nsys; i++)
		ior_hist_free(&s->lat[i]), ior_hist_free(&s->gap[i]);
	ior_hist_free(&s->lat_all);
	ior_hist_free(&s->gap_all);
	for (int t = 0; t < IOR_STATS_NTABLES; t++)
		table_free(&s->tab[t]);
	ior_strtab_free(&s->paths);
	ior_strtab_free(&s->spare);
	ior_devices_free(&s->dev);
	free(s->sys);
	free(s->lat);
	free(s->gap);
	free(s->scratch);
	free(s);
}

/* ---- adding a pair --------------------------------------------------------- */

/* READ bytes are read, WRITE bytes written, TRANSFER bytes both. */
static void add_bytes(uint64_t *read, uint64_t *written, unsigned cls, uint64_t bytes)
{
	if (cls == IOR_SC_READ || cls == IOR_SC_TRANSFER)
		*read += bytes;
	if (cls == IOR_SC_WRITE || cls == IOR_SC_TRANSFER)
		*written += bytes;
}

static void add_sums(struct ior_stats_sums *a, const struct ior_event_pair *p, uint64_t n, unsigned cls)
{
	a->gap_ns += p->gap_ns;
	if (!n) /* a gap correction */
		return;
	a->pairs += n;
	a->time_ns += p->duration_ns;
	if (p->summary)
		a->summarized += n;
	else {
		a->errors += p->ret < 0;
		if (p->duration_ns > a->max_ns)
			a->max_ns = p->duration_ns;
	}
	add_bytes(&a->bytes_read, &a->bytes_written, cls, p->bytes);
}

static int add_hists(struct ior_stats *s, const struct ior_event_pair *p)
{
	int r = ior_hist_add(&s->lat[p->sys], p->duration_ns, 1);

	if (p->gap_ns)
		r |= ior_hist_add(&s->gap[p->sys], p->gap_ns, 1);
	if (r)
		s->tot.not_in_hist++;
	return r ? -ENOMEM : 0;
}

static void add_second(struct ior_stats *s, const struct ior_event_pair *p, uint64_t n, unsigned cls)
{
	uint64_t sec = (p->summary ? p->end_ns : p->enter_ns) / NS;
	unsigned i = (unsigned)(sec % IOR_STATS_SECONDS);
	struct ior_stats_second *slot = &s->ring[i];

	if (sec + IOR_STATS_SECONDS <= s->now_ns / NS)
		return; /* older than the ring */
	if (s->ring_sec[i] != sec + 1) {
		memset(slot, 0, sizeof *slot);
		s->ring_sec[i] = sec + 1;
	}
	slot->pairs += n;
	slot->errors += !p->summary && p->ret < 0;
	slot->time_ns += p->duration_ns;
	add_bytes(&slot->bytes_read, &slot->bytes_written, cls, p->bytes);
}

/* comm, NUL-padded to 16 bytes: rows compare it as two words. */
static void pad_comm(char dst[16], const char *comm)
{
	unsigned i = 0;

	for (; i < 15 && comm[i]; i++)
		dst[i] = comm[i];
	memset(dst + i, 0, 16 - i);
}

static void set_comm(char dst[16], const char comm[16])
{
	if (memcmp(dst, comm, 16))
		memcpy(dst, comm, 16);
}

/* The row of key, folding the table when it is full; NULL: out of memory. */
static struct trow *key_row(struct table *t, uint64_t key)
{
	struct trow *r = table_find(t, key);

	if (!r && !(r = table_add(t, key)) && t->n == t->max) {
		table_fold(t);
		r = table_add(t, key);
	}
	return r;
}

static uint32_t path_id(struct ior_stats *s, const char *path, size_t len)
{
	uint32_t id;

	if (s->last_path && ior_strtab_is(&s->paths, s->last_path - 1, path, len))
		return s->last_path - 1;
	id = ior_strtab_intern(&s->paths, path, len);
	s->last_path = id == UINT32_MAX ? 0 : id + 1;
	return id;
}

/* Folds the file table and keeps the strings of the rows left (a row whose
 * path cannot be copied joins (other) too). */
static void fold_files(struct ior_stats *s)
{
	struct table *t = &s->tab[IOR_STATS_FILES];
	struct ior_strtab old = s->paths;
	uint32_t kept = 0;

	table_fold(t);
	ior_strtab_clear(&s->spare);
	for (uint32_t i = 0; i < t->n; i++) {
		struct trow *r = &t->rows[i];
		uint32_t id = ior_strtab_intern(&s->spare, ior_strtab_get(&old, (uint32_t)r->key),
						ior_strtab_len(&old, (uint32_t)r->key));
		if (id == UINT32_MAX) {
			ior_stats_sums_merge(&t->other.s, &r->s);
			continue;
		}
		r->key = id;
		t->rows[kept++] = *r;
	}
	t->n = kept;
	s->paths = s->spare;
	s->spare = old;
	s->last_path = 0;
	table_reindex(t);
}

static struct trow *file_row(struct ior_stats *s, const char *path, uint64_t src)
{
	struct table *t = &s->tab[IOR_STATS_FILES];
	struct trow *r;
	size_t len;
	uint32_t id;

	if (src && src == s->last_src && s->last_path) { /* the same string: no bytes to look at */
		if ((r = table_find(t, s->last_path - 1)))
			return r;
		len = strlen(path);
		id = s->last_path - 1;
	} else {
		len = strlen(path);
		id = path_id(s, path, len);
		s->last_src = s->last_path ? src : 0;
	}

	if (id != UINT32_MAX && (r = table_find(t, id)))
		return r;
	if (t->n == t->max || s->paths.len > s->cfg.max_path_bytes) {
		fold_files(s);
		id = path_id(s, path, len);
		s->last_src = s->last_path ? src : 0;
	}
	return id == UINT32_MAX ? NULL : table_add(t, id);
}

static void add_keyed(struct ior_stats *s, const struct ior_event_pair *p, uint64_t n, unsigned cls)
{
	struct table *pt = &s->tab[IOR_STATS_PROCESSES], *tt = &s->tab[IOR_STATS_THREADS];
	struct trow *r;
	struct padded_comm *slot = &s->comms[p->comm_id % (sizeof s->comms / sizeof s->comms[0])];
	const char *comm = slot->pad;

	if (p->path[0]) {
		r = file_row(s, p->path, p->path_id);
		add_sums(r ? &r->s : &s->tab[IOR_STATS_FILES].other.s, p, n, cls);
	}
	if (!p->comm_id || p->comm_id != slot->id) { /* else the same bytes */
		pad_comm(slot->pad, p->comm);
		slot->id = p->comm_id;
	}
	if ((r = key_row(pt, p->pid))) {
		r->pid = p->pid;
		set_comm(r->comm, comm);
	}
	add_sums(r ? &r->s : &pt->other.s, p, n, cls);
	if ((r = key_row(tt, p->tid))) {
		r->pid = p->pid;
		set_comm(r->comm, comm);
	}
	add_sums(r ? &r->s : &tt->other.s, p, n, cls);
}

int ior_stats_add(struct ior_stats *s, const struct ior_event_pair *p)
{
	uint64_t n = ior_pair_count(p), exit_ns;
	unsigned cls, count = ior_sys_count();
	int r = 0;

	if (p->sys >= count)
		return -EINVAL;
	if (count > s->nsys && grow_sys(s, count)) /* a recording defined a name */
		return -ENOMEM;
	cls = ior_sys(p->sys)->cls;
	exit_ns = p->summary ? p->end_ns : p->enter_ns + p->duration_ns;
	if (n && (!s->tot.first_ns || p->enter_ns < s->tot.first_ns))
		s->tot.first_ns = p->enter_ns;
	if (exit_ns > s->tot.last_ns)
		s->tot.last_ns = exit_ns;
	add_sums(&s->tot.sums, p, n, cls);
	add_sums(&s->sys[p->sys], p, n, cls);
	s->dev.cache[ior_pair_cache_kind(p, cls == IOR_SC_READ)]++;
	s->dev.cache_pages += p->cache_pages;
	s->dev.device_ns += p->device_ns;
	s->dev.blk_pairs += p->blk_requests != 0;
	if (!p->summary)
		r = add_hists(s, p);
	if (n) {
		add_second(s, p, n, cls);
		add_keyed(s, p, n, cls);
	}
	if (exit_ns > s->now_ns)
		s->now_ns = exit_ns;
	return r;
}

void ior_stats_tick(struct ior_stats *s, uint64_t now_ns)
{
	if (now_ns > s->now_ns)
		s->now_ns = now_ns;
}

static void sink_pair(void *ctx, const struct ior_event_pair *p)
{
	ior_stats_add(ctx, p); /* a failure is counted in not_in_hist */
}

static int sink_tick(void *ctx, uint64_t now_ns)
{
	ior_stats_tick(ctx, now_ns);
	return 0;
}

void ior_stats_add_block(struct ior_stats *s, const struct ior_block_req *r)
{
	ior_devices_add(&s->dev, r);
}

static void sink_block(void *ctx, const struct ior_block_req *r)
{
	ior_stats_add_block(ctx, r);
}

struct ior_devices *ior_stats_devices(struct ior_stats *s)
{
	ior_devices_sort(&s->dev);
	return &s->dev;
}

struct ior_sink ior_stats_sink(struct ior_stats *s)
{
	return (struct ior_sink){ sink_pair, sink_tick, s, sink_block };
}

/* ---- reading --------------------------------------------------------------- */

void ior_stats_totals(const struct ior_stats *s, struct ior_stats_totals *t)
{
	*t = s->tot;
	for (int i = IOR_STATS_FILES; i < IOR_STATS_NTABLES; i++)
		t->folds[i] = s->tab[i].folds;
}

unsigned ior_stats_rows(const struct ior_stats *s, enum ior_stats_table table)
{
	unsigned n = 0;

	if (table != IOR_STATS_SYSCALLS)
		return table < IOR_STATS_NTABLES ? s->tab[table].n : 0;
	for (unsigned i = 0; i < s->nsys; i++)
		n += s->sys[i].pairs > 0;
	return n;
}

/* hists[sys], or for sys < 0 every syscall's merged into all (on
 * demand: a pair costs one histogram increment less). */
static const struct ior_hist *hist_of(const struct ior_stats *s, struct ior_hist *hists, struct ior_hist *all,
				      int sys)
{
	if (sys >= 0)
		return (unsigned)sys < s->nsys ? &hists[sys] : NULL;
	ior_hist_clear(all);
	for (unsigned i = 0; i < s->nsys; i++)
		if (hists[i].count && ior_hist_merge(all, &hists[i]))
			return NULL;
	return all;
}

const struct ior_hist *ior_stats_latency(struct ior_stats *s, int sys)
{
	return hist_of(s, s->lat, &s->lat_all, sys);
}

const struct ior_hist *ior_stats_gaps(struct ior_stats *s, int sys)
{
	return hist_of(s, s->gap, &s->gap_all, sys);
}

unsigned ior_stats_series(const struct ior_stats *s, struct ior_stats_second *out, unsigned n)
{
	uint64_t head = s->now_ns / NS;

	if (!s->tot.sums.pairs)
		return 0;
	if (n > IOR_STATS_SECONDS)
		n = IOR_STATS_SECONDS;
	for (unsigned k = 0; k < n; k++) {
		uint64_t sec = head - (n - 1 - k);
		unsigned i = (unsigned)(sec % IOR_STATS_SECONDS);
		if (head >= n - 1 - k && s->ring_sec[i] == sec + 1)
			out[k] = s->ring[i];
		else
			memset(&out[k], 0, sizeof out[k]);
	}
	return n;
}

void ior_stats_rates(const struct ior_stats *s, unsigned seconds, struct ior_stats_rates *r)
{
	struct ior_stats_second w[IOR_STATS_SECONDS], sum = { 0 };
	uint64_t head = s->now_ns / NS, start;
	unsigned n;

	memset(r, 0, sizeof *r);
	seconds = seconds < 1 ? 1 : seconds > IOR_STATS_SECONDS ? IOR_STATS_SECONDS : seconds;
	n = ior_stats_series(s, w, seconds);
	start = head + 1 >= seconds ? (head + 1 - seconds) * NS : 0;
	if (s->tot.first_ns > start)
		start = s->tot.first_ns;
	if (!n || s->now_ns < start + NS / 1000)
		return;
	for (unsigned i = 0; i < n; i++) {
		sum.pairs += w[i].pairs;
		sum.errors += w[i].errors;
		sum.bytes_read += w[i].bytes_read;
		sum.bytes_written += w[i].bytes_written;
	}
	r->seconds = (double)(s->now_ns - start) / NS;
	r->pairs = (double)sum.pairs / r->seconds;
	r->errors = (double)sum.errors / r->seconds;
	r->bytes_read = (double)sum.bytes_read / r->seconds;
	r->bytes_written = (double)sum.bytes_written / r->seconds;
}

/* ---- selecting rows -------------------------------------------------------- */

static void derive(struct ior_stats_row *r, const struct ior_hist *h)
{
	static const double q[] = { 0, 50, 95, 99 };
	uint64_t v[4] = { 0 };

	r->mean_ns = r->sums.pairs ? r->sums.time_ns / r->sums.pairs : 0;
	r->hist = h && h->count;
	if (r->hist)
		ior_hist_percentiles(h, q, v, 4);
	r->min_ns = v[0], r->p50_ns = v[1], r->p95_ns = v[2], r->p99_ns = v[3];
}

static void syscall_row(const struct ior_stats *s, unsigned i, struct ior_stats_row *r)
{
	memset(r, 0, sizeof *r);
	r->name = ior_sys(i)->name;
	r->key = i;
	r->sums = s->sys[i];
	derive(r, &s->lat[i]);
}

static void table_row(const struct ior_stats *s, enum ior_stats_table table, const struct trow *t,
		      struct ior_stats_row *r)
{
	memset(r, 0, sizeof *r);
	r->key = t->key;
	r->name = table == IOR_STATS_FILES ? ior_strtab_get(&s->paths, (uint32_t)t->key) : "";
	r->pid = t->pid;
	r->tid = table == IOR_STATS_THREADS ? (uint32_t)t->key : 0;
	memcpy(r->comm, t->comm, sizeof r->comm);
	r->sums = t->s;
	derive(r, NULL);
}

static uint64_t number(const struct ior_stats_row *r, enum ior_stats_col col)
{
	switch (col) {
	case IOR_STATS_BY_PID: return r->pid;
	case IOR_STATS_BY_TID: return r->tid;
	case IOR_STATS_BY_PAIRS: return r->sums.pairs;
	case IOR_STATS_BY_ERRORS: return r->sums.errors;
	case IOR_STATS_BY_SUMMARIZED: return r->sums.summarized;
	case IOR_STATS_BY_READ: return r->sums.bytes_read;
	case IOR_STATS_BY_WRITTEN: return r->sums.bytes_written;
	case IOR_STATS_BY_BYTES: return r->sums.bytes_read + r->sums.bytes_written;
	case IOR_STATS_BY_GAP: return r->sums.gap_ns;
	case IOR_STATS_BY_MEAN: return r->mean_ns;
	case IOR_STATS_BY_MIN: return r->min_ns;
	case IOR_STATS_BY_P50: return r->p50_ns;
	case IOR_STATS_BY_P95: return r->p95_ns;
	case IOR_STATS_BY_P99: return r->p99_ns;
	case IOR_STATS_BY_MAX: return r->sums.max_ns;
	default: return r->sums.time_ns;
	}
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

struct order {
	enum ior_stats_col col;
	bool ascending;
};

static int cmp_rows(const void *pa, const void *pb, void *ctx)
{
	const struct ior_stats_row *a = pa, *b = pb;
	const struct order *o = ctx;
	int c = o->col == IOR_STATS_BY_NAME ? strcmp(a->name, b->name) :
		o->col == IOR_STATS_BY_COMM ? strcmp(a->comm, b->comm) :
					      cmp_u64(number(a, o->col), number(b, o->col));

	if (c)
		return o->ascending ? c : -c;
	if ((c = cmp_u64(b->sums.time_ns, a->sums.time_ns)) || (c = cmp_u64(b->sums.pairs, a->sums.pairs)))
		return c;
	if ((c = strcmp(a->name, b->name)))
		return c;
	return cmp_u64(a->key, b->key);
}

/* Every row of the table with pairs into s->scratch; their number, or -ENOMEM. */
static int gather(struct ior_stats *s, enum ior_stats_table table)
{
	size_t cap = table == IOR_STATS_SYSCALLS ? s->nsys : s->tab[table].n;
	int n = 0;

	if (cap > s->scratch_cap) {
		struct ior_stats_row *r = realloc(s->scratch, cap * sizeof *r);
		if (!r)
			return -ENOMEM;
		s->scratch = r;
		s->scratch_cap = cap;
	}
	for (size_t i = 0; i < cap; i++) {
		if (table == IOR_STATS_SYSCALLS && s->sys[i].pairs)
			syscall_row(s, (unsigned)i, &s->scratch[n++]);
		else if (table != IOR_STATS_SYSCALLS && s->tab[table].rows[i].s.pairs)
			table_row(s, table, &s->tab[table].rows[i], &s->scratch[n++]);
	}
	return n;
}

int ior_stats_select(struct ior_stats *s, enum ior_stats_table table, enum ior_stats_col col,
		     bool ascending, struct ior_stats_row *rows, unsigned max, struct ior_stats_row *other)
{
	struct order o = { col, ascending };
	int n;

	if (table >= IOR_STATS_NTABLES || col >= IOR_STATS_NCOLS)
		return -EINVAL;
	if ((n = gather(s, table)) < 0)
		return n;
	qsort_r(s->scratch, (size_t)n, sizeof *s->scratch, cmp_rows, &o);
	memset(other, 0, sizeof *other);
	other->name = IOR_STATS_OTHER;
	if (table != IOR_STATS_SYSCALLS)
		other->sums = s->tab[table].other.s;
	if ((unsigned)n > max) {
		for (int i = (int)max; i < n; i++)
			ior_stats_sums_merge(&other->sums, &s->scratch[i].sums);
		n = (int)max;
	}
	derive(other, NULL);
	if (n)
		memcpy(rows, s->scratch, (size_t)n * sizeof *rows);
	return n;
}
