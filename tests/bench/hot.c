/* iorhot: ior's user-space hot path without the kernel, for profiling.
 *
 *   iorhot plain|flame|stats|dash|none [-pairs N] [-threads T] [-reps R] [-out FILE]
 *
 * Builds the records bpf.c sends for the bench's read loop (pread64 of
 * 4 KiB on one fd, T threads, thread i on CPU i % 2) in 7.6 KiB batches
 * as the kernel cuts them, writes them as perf samples into per-CPU rings
 * in memory (8 MiB each, as ior's on 2 CPUs), and runs them through what
 * trace/session.c does per drain: every ring's samples into the merge
 * (in place), a flush up to a watermark, pairing, and the sink: CSV rows to stdout (-plain) or a
 * recording (-flamegraph, to FILE, default /dev/shm/iorhot.ior.zst), the
 * statistics engine (-summary, stats/stats.h), the statistics and the
 * dashboard's own sink (dash: its Stream ring, Flame aggregate, picked
 * process and Latency, as -tui feeds them; nothing drawn), or nothing
 * (none: the merge and pairing alone).
 * Prints the consumer's CPU time per pair (best of R passes after a
 * warm-up pass) on
 * stderr. Pure user space: run it under perf record for a profile with
 * many samples. */
#include "stats/stats.h"
#include "dash/dash.h"
#include "csv/csv.h"
#include "bpf/event.h"
#include "pair/fdtab.h"
#include "trace/merge.h"
#include "pair/pair.h"
#include "rec/rec.h"
#include "syscalls/syscalls.h"
#include "trace/ring.h"

#include <linux/perf_event.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NR_PREAD64 17
#define SAMPLE_CUT (IOR_BATCH_BYTES - IOR_REC_MAX) /* bpf.c sends past this */
#ifndef SAMPLES_PER_DRAIN /* per CPU: 64 are ~490 KiB */
#define SAMPLES_PER_DRAIN 64
#endif
#define PID 4242
#define RING_BYTES (8u << 20)

struct sample {
	uint32_t off, len;
	uint64_t last_ts;
};

struct stream {
	char *data;
	size_t len, cap;
	struct sample *s;
	size_t n, cap_s, open; /* open: bytes in the sample being built */
};

struct hot {
	int flame;
	FILE *out;
	struct ior_rec_writer *rec;
	struct ior_stats *stats;
	struct ior_dash *dash;
	uint64_t pairs;
};

static void die(const char *what)
{
	fprintf(stderr, "iorhot: %s\n", what);
	exit(1);
}

static void *append(struct stream *st, size_t n)
{
	if (st->len + n > st->cap) {
		st->cap = st->cap ? 2 * st->cap : 1 << 24;
		if (!(st->data = realloc(st->data, st->cap)))
			die("out of memory");
	}
	void *p = st->data + st->len;
	memset(p, 0, n);
	st->len += (n + 7) & ~(size_t)7;
	st->open += (n + 7) & ~(size_t)7;
	return p;
}

static void cut(struct stream *st, uint64_t ts, int force)
{
	if (!st->open || (!force && st->open <= SAMPLE_CUT))
		return;
	if (st->n == st->cap_s) {
		st->cap_s = st->cap_s ? 2 * st->cap_s : 4096;
		if (!(st->s = realloc(st->s, st->cap_s * sizeof *st->s)))
			die("out of memory");
	}
	st->s[st->n++] = (struct sample){ (uint32_t)(st->len - st->open), (uint32_t)st->open, ts };
	st->open = 0;
}

static void head(struct ior_rec_head *h, uint64_t ts, uint32_t tid, uint16_t kind, uint32_t len)
{
	*h = (struct ior_rec_head){ ts, PID, tid, kind, NR_PREAD64, len };
}

/* Noise for the times: zstd meets varints as varied as a real run's. */
static uint32_t rnd(void)
{
	static uint64_t x = 88172645463325252ull;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return (uint32_t)(x >> 32);
}

/* One pair of thread tid on its CPU's stream: enter at ts, exit 500 to
 * 563 ns later (a real run's recording: ~1.6 bytes a pair). */
static void add_pair(struct stream *st, uint32_t tid, uint64_t ts)
{
	uint64_t dur = 500 + rnd() % 64;

	struct ior_rec_enter *e = append(st, sizeof *e);
	head(&e->h, ts, tid, IOR_REC_ENTER, sizeof *e);
	e->fd = 3;
	e->aux = 0;
	memcpy(e->comm, "iorbench", 9);
	cut(st, ts, 0);
	struct ior_rec_exit *x = append(st, IOR_REC_EXIT_BASE);
	head(&x->h, ts + dur, tid, IOR_REC_EXIT, IOR_REC_EXIT_BASE);
	x->ret = 4096;
	cut(st, ts + dur, 0);
}

static void build(struct stream *st, unsigned ncpu, uint64_t pairs, unsigned threads)
{
	uint64_t ts = 1000000000ull;

	for (uint64_t i = 0; i < pairs; i++) {
		unsigned t = (unsigned)(i % threads);
		add_pair(&st[t % ncpu], PID + t, ts);
		ts += (1100 + rnd() % 128) / threads;
	}
	for (unsigned c = 0; c < ncpu; c++)
		cut(&st[c], ts, 1);
}

#ifdef IOR_CSV_ROW_MAX /* rows batched as cmd/trace.c does */
static char rows[256 << 10];
static size_t rows_len;

static void rows_out(FILE *out)
{
	fwrite(rows, 1, rows_len, out);
	rows_len = 0;
}

static void csv_row(FILE *out, const struct ior_event_pair *p)
{
	if (sizeof rows - rows_len < IOR_CSV_ROW_MAX)
		rows_out(out);
	rows_len += ior_csv_format_pair(rows + rows_len, p, IOR_ESCAPE_AUTO);
}
#else
static void rows_out(FILE *out)
{
	(void)out;
}

static void csv_row(FILE *out, const struct ior_event_pair *p)
{
	ior_csv_write_pair(out, p, IOR_ESCAPE_AUTO);
}
#endif

static void sink(void *ctx, const struct ior_event_pair *p)
{
	struct hot *h = ctx;

	h->pairs++;
	if (h->out)
		csv_row(h->out, p);
	if (h->rec && ior_rec_write(h->rec, p) < 0)
		die("recording write failed");
	if (h->stats && ior_stats_add(h->stats, p) < 0)
		die("statistics: out of memory");
	if (h->dash)
		ior_dash_add(h->dash, p);
}

static void deliver(void *ctx, const void *rec, size_t len)
{
	ior_pair_feed(ctx, rec, len);
}

static double cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

struct ring {
	struct perf_event_mmap_page meta;
	char *data;
	struct ior_ring r;
};

static void ring_put(struct ring *g, uint64_t pos, const void *p, size_t n)
{
	size_t off = (size_t)(pos & (RING_BYTES - 1)), first = RING_BYTES - off;

	if (n <= first) {
		memcpy(g->data + off, p, n);
	} else {
		memcpy(g->data + off, p, first);
		memcpy(g->data, (const char *)p + first, n - first);
	}
}

/* The kernel's side: one raw sample, padded as perf pads it; 0 when the
 * ring has no room. */
static int ring_write(struct ring *g, const void *payload, uint32_t n)
{
	uint32_t raw = ((n + 4 + 7) & ~7u) - 4, zero = 0;
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, (uint16_t)(sizeof h + 4 + raw) };
	uint64_t pos = g->meta.data_head;

	if (pos + h.size - __atomic_load_n(&g->meta.data_tail, __ATOMIC_ACQUIRE) > RING_BYTES)
		return 0;
	ring_put(g, pos, &h, sizeof h);
	ring_put(g, pos + sizeof h, &raw, 4);
	ring_put(g, pos + sizeof h + 4, payload, n);
	for (uint32_t i = n; i < raw; i++)
		ring_put(g, pos + sizeof h + 4 + i, &zero, 1);
	__atomic_store_n(&g->meta.data_head, pos + h.size, __ATOMIC_RELEASE);
	return 1;
}

struct consumer {
	struct ior_merge *m;
	struct ior_pairer *pr;
	struct ring *rings;
	unsigned ncpu, src;
	struct hot *h;
};

static int push(void *ctx, const void *raw, size_t len, uint64_t pos, int in_place)
{
	struct consumer *c = ctx;
	int r = in_place ? ior_merge_push_ref(c->m, c->src, raw, len, pos)
			 : ior_merge_push_sample(c->m, c->src, raw, len);
	if (r)
		die("merge push failed");
	return 0;
}

/* One drain as trace/session.c does it: counted by bench_hot.sh. */
__attribute__((noinline)) static void run_drain(struct consumer *c, uint64_t mark)
{
	for (c->src = 0; c->src < c->ncpu; c->src++)
		ior_ring_read(&c->rings[c->src].r, push, c);
	ior_merge_flush(c->m, mark, deliver, c->pr);
	for (unsigned i = 0; i < c->ncpu; i++)
		ior_ring_release(&c->rings[i].r, ior_merge_held_pos(c->m, i));
	if (c->h->rec && ior_rec_tick(c->h->rec, mark) < 0)
		die("recording tick failed");
}

__attribute__((noinline)) static void run_open(struct hot *h, const char *path)
{
	char err[256];

	if (h->flame && ior_rec_writer_open(&h->rec, path, NULL, err, sizeof err) < 0)
		die(err);
}

__attribute__((noinline)) static void run_close(struct hot *h)
{
	char err[256];

	if (h->out) {
		rows_out(h->out);
		fflush(h->out);
	}
	if (h->rec && ior_rec_writer_close(h->rec, NULL, err, sizeof err) < 0)
		die(err);
	h->rec = NULL;
}

/* One pass over the streams: the kernel's writes into the rings (not
 * counted), then the consumer's drain, until all is delivered. */
static double pass(struct stream *st, struct consumer *c, const char *path)
{
	size_t next[2] = { 0, 0 };
	struct hot *h = c->h;

	h->pairs = 0;
	double t0 = cpu_ns();
	run_open(h, path);
	double t = cpu_ns() - t0;
	for (int more = 1; more;) {
		uint64_t mark = UINT64_MAX;
		more = 0;
		for (unsigned k = 0; k < c->ncpu; k++) {
			size_t i = 0;
			for (; i < SAMPLES_PER_DRAIN && next[k] < st[k].n; i++, next[k]++) {
				const struct sample *s = &st[k].s[next[k]];
				if (!ring_write(&c->rings[k], st[k].data + s->off, s->len))
					break;
				if (i + 1 == SAMPLES_PER_DRAIN && s->last_ts < mark)
					mark = s->last_ts;
			}
			if (i < SAMPLES_PER_DRAIN && next[k] < st[k].n && next[k] && st[k].s[next[k] - 1].last_ts < mark)
				mark = st[k].s[next[k] - 1].last_ts; /* ring full: no further than it got */
			more |= next[k] < st[k].n;
		}
		t0 = cpu_ns();
		run_drain(c, more ? mark : UINT64_MAX);
		t += cpu_ns() - t0;
	}
	t0 = cpu_ns();
	run_close(h);
	return t + cpu_ns() - t0;
}

int main(int argc, char **argv)
{
	static char outbuf[1 << 16];
	uint64_t pairs = 2000000;
	unsigned threads = 1, reps = 5, ncpu = 2;
	const char *path = "/dev/shm/iorhot.ior.zst";
	struct hot h = { 0 };
	struct stream st[2];

	if (argc < 2 || (strcmp(argv[1], "plain") && strcmp(argv[1], "flame") && strcmp(argv[1], "stats") &&
			 strcmp(argv[1], "dash") && strcmp(argv[1], "none")))
		die("usage: iorhot plain|flame|stats|dash|none [-pairs N] [-threads T] [-reps R] [-out FILE]");
	h.flame = !strcmp(argv[1], "flame");
	for (int i = 2; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-pairs"))
			pairs = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "-threads"))
			threads = (unsigned)atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-reps"))
			reps = (unsigned)atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "-out"))
			path = argv[i + 1];
		else
			die("unknown flag");
	}
	if (!threads || !pairs || !reps)
		die("-pairs, -threads and -reps must be positive");
	memset(st, 0, sizeof st);
	build(st, ncpu, pairs, threads);
	if (!strcmp(argv[1], "plain")) {
		h.out = stdout;
		setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
	}
	int dash = !strcmp(argv[1], "dash");
	if ((dash || !strcmp(argv[1], "stats")) && ior_stats_new(&h.stats, NULL))
		die("out of memory");
	if (dash && ior_dash_new(&h.dash, &(struct ior_dash_cfg){ .stats = h.stats, .title = "iorhot" }))
		die("out of memory");
	/* one merge, fd table and pairer for every pass, as in ior: their
	 * memory is warm after the first pass, which is not counted */
	struct ior_merge *m = ior_merge_new(ncpu, 32u << 20);
	struct ior_fdtab *fds = ior_fdtab_new(65536, 16384);
	struct ior_pair_cfg pc = { fds, "", sink, &h, NULL, NULL, NULL, NULL };
	struct ior_pairer *pr = fds ? ior_pair_new(&pc) : NULL;
	if (!m || !pr)
		die("out of memory");
	ior_fdtab_set(fds, PID, 3, "/dev/shm/iorbench-4242-0.data", O_RDONLY | O_CLOEXEC);
	static struct ring rings[2];
	for (unsigned k = 0; k < ncpu; k++) {
		if (!(rings[k].data = aligned_alloc(4096, RING_BYTES)))
			die("out of memory");
		ior_ring_init(&rings[k].r, &rings[k].meta, rings[k].data, RING_BYTES);
	}
	struct consumer c = { m, pr, rings, ncpu, 0, &h };
	pass(st, &c, path);
	double best = 0;
	for (unsigned r = 0; r < reps; r++) {
		double t = pass(st, &c, path);
		if (h.pairs != pairs)
			die("pairs delivered differ from pairs built");
		if (!r || t < best)
			best = t;
	}
	fprintf(stderr, "iorhot: %s threads=%u pairs=%llu best of %u: %.1f ns/pair\n", argv[1], threads,
		(unsigned long long)pairs, reps, best / (double)pairs);
	return 0;
}
