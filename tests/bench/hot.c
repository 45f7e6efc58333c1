/* iorhot: ior's user-space hot path without the kernel, for profiling.
 *
 *   iorhot plain|flame|stats|none [-pairs N] [-threads T] [-reps R] [-out FILE]
 *
 * Builds the records bpf.c sends for the bench's read loop (pread64 of
 * 4 KiB on one fd, T threads, thread i on CPU i % 2) in 7.6 KiB batches
 * as the kernel cuts them, then runs them through what cmd/trace.c does
 * per drain: every CPU's samples into the merge, a flush up to a
 * watermark, pairing, and the sink: CSV rows to stdout (-plain) or a
 * recording (-flamegraph, to FILE, default /dev/shm/iorhot.ior.zst), the
 * statistics engine (-summary, stats/stats.h), or nothing (none: the merge
 * and pairing alone).
 * Prints the consumer's CPU time per pair (best of R passes after a
 * warm-up pass) on
 * stderr. Pure user space: run it under perf record for a profile with
 * many samples. */
#include "stats/stats.h"
#include "csv/csv.h"
#include "bpf/event.h"
#include "pair/fdtab.h"
#include "trace/merge.h"
#include "pair/pair.h"
#include "rec/rec.h"
#include "syscalls/syscalls.h"

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

/* One pass over the streams as the consumer loop drains them. */
static double run(struct stream *st, unsigned ncpu, struct ior_merge *m, struct ior_pairer *pr,
		  struct hot *h, const char *path)
{
	size_t next[2] = { 0, 0 };
	char err[256];

	if (h->flame && ior_rec_writer_open(&h->rec, path, NULL, err, sizeof err) < 0)
		die(err);
	h->pairs = 0;
	double t0 = cpu_ns();
	for (int more = 1; more;) {
		uint64_t mark = UINT64_MAX;
		more = 0;
		for (unsigned c = 0; c < ncpu; c++) {
			for (size_t k = 0; k < SAMPLES_PER_DRAIN && next[c] < st[c].n; k++, next[c]++) {
				const struct sample *s = &st[c].s[next[c]];
				if (ior_merge_push_sample(m, c, st[c].data + s->off, s->len))
					die("merge push failed");
				if (k + 1 == SAMPLES_PER_DRAIN && s->last_ts < mark)
					mark = s->last_ts;
			}
			more |= next[c] < st[c].n;
		}
		ior_merge_flush(m, more ? mark : UINT64_MAX, deliver, pr);
		if (h->rec && ior_rec_tick(h->rec, mark) < 0)
			die("recording tick failed");
	}
	if (h->out) {
		rows_out(h->out);
		fflush(h->out);
	}
	if (h->rec && ior_rec_writer_close(h->rec, NULL, err, sizeof err) < 0)
		die(err);
	double t = cpu_ns() - t0;
	h->rec = NULL;
	return t;
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
			 strcmp(argv[1], "none")))
		die("usage: iorhot plain|flame|stats|none [-pairs N] [-threads T] [-reps R] [-out FILE]");
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
	if (!strcmp(argv[1], "stats") && ior_stats_new(&h.stats, NULL))
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
	run(st, ncpu, m, pr, &h, path);
	double best = 0;
	for (unsigned r = 0; r < reps; r++) {
		double t = run(st, ncpu, m, pr, &h, path);
		if (h.pairs != pairs)
			die("pairs delivered differ from pairs built");
		if (!r || t < best)
			best = t;
	}
	fprintf(stderr, "iorhot: %s threads=%u pairs=%llu best of %u: %.1f ns/pair\n", argv[1], threads,
		(unsigned long long)pairs, reps, best / (double)pairs);
	return 0;
}
