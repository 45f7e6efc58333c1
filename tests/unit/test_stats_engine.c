/* stats/stats.c: the tables (syscalls, files, processes, threads), summary
 * rows, top-K with (other), sorting, rates, the sink. Last: a
 * micro-benchmark of the sink's cost per pair (printed, not checked). */
#include "stats/stats.h"
#include "t.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#define MS 1000000ull
#define S 1000000000ull

static uint16_t sys_of(const char *name)
{
	const struct ior_syscall *s = ior_syscall_by_name(name);
	if (!s) {
		printf("no syscall %s\n", name);
		exit(1);
	}
	return (uint16_t)ior_syscall_index(s);
}

/* A pair of `name` by pid/tid on path, entering at enter for dur ns. */
static struct ior_event_pair pair(const char *name, uint32_t pid, uint32_t tid, const char *comm,
				  const char *path, uint64_t enter, uint64_t dur, int64_t ret)
{
	uint16_t sys = sys_of(name);
	unsigned cls = ior_sys(sys)->cls;
	bool bytes = cls == IOR_SC_READ || cls == IOR_SC_WRITE || cls == IOR_SC_TRANSFER;
	return (struct ior_event_pair){
		.enter_ns = enter, .duration_ns = dur, .ret = ret, .bytes = bytes && ret > 0 ? (uint64_t)ret : 0,
		.flags = IOR_FLAGS_UNKNOWN, .pid = pid, .tid = tid, .fd = 3, .sys = sys, .comm = comm,
		.path = path, .path2 = "",
	};
}

/* A summary row: n pairs summing dur, bytes, gap; first enter and last exit. */
static struct ior_event_pair summary(const char *name, uint32_t pid, uint32_t tid, const char *path,
				     uint64_t n, uint64_t dur, uint64_t bytes, uint64_t first, uint64_t end)
{
	struct ior_event_pair p = pair(name, pid, tid, "sum", path, first, dur, 0);
	p.summary = 1;
	p.pairs = n;
	p.bytes = bytes;
	p.end_ns = end;
	return p;
}

static struct ior_stats *new_stats(const struct ior_stats_cfg *cfg)
{
	struct ior_stats *s;
	if (ior_stats_new(&s, cfg)) {
		printf("ior_stats_new failed\n");
		exit(1);
	}
	return s;
}

static void add(struct ior_stats *s, struct ior_event_pair p)
{
	CHECK(ior_stats_add(s, &p) == 0);
}

/* The row named name in rows[0..n), NULL when absent. */
static const struct ior_stats_row *row_named(const struct ior_stats_row *rows, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

static const struct ior_stats_row *row_keyed(const struct ior_stats_row *rows, int n, uint64_t key)
{
	for (int i = 0; i < n; i++)
		if (rows[i].key == key)
			return &rows[i];
	return NULL;
}

TEST(syscall_table)
{
	struct ior_stats *s = new_stats(NULL);
	struct ior_stats_row rows[16], other;
	uint64_t t = 10 * S;

	for (int i = 1; i <= 100; i++) /* read: 1..100 µs, 10 bytes each */
		add(s, pair("read", 1, 1, "a", "/f", t += MS, i * 1000ull, 10));
	add(s, pair("read", 1, 1, "a", "/f", t += MS, 500, -9)); /* EBADF: an error, no bytes */
	add(s, pair("write", 1, 1, "a", "/f", t += MS, 2000, 4096));
	add(s, pair("write", 1, 1, "a", "/f", t += MS, 3000, 0));
	add(s, pair("sendfile64", 1, 1, "a", "/f", t += MS, 7000, 300)); /* a transfer: read and written */
	add(s, pair("fsync", 1, 1, "a", "/f", t += MS, 9000, 0));

	int n = ior_stats_select(s, IOR_STATS_SYSCALLS, IOR_STATS_BY_TIME, false, rows, 16, &other);
	CHECK_EQ_INT(n, 4);
	CHECK_EQ_INT(ior_stats_rows(s, IOR_STATS_SYSCALLS), 4);
	const struct ior_stats_row *r = row_named(rows, n, "read");
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ_INT(r->sums.pairs, 101);
		CHECK_EQ_INT(r->sums.errors, 1);
		CHECK_EQ_INT(r->sums.bytes_read, 1000);
		CHECK_EQ_INT(r->sums.bytes_written, 0);
		CHECK_EQ_INT(r->sums.time_ns, 5050000 + 500);
		CHECK_EQ_INT(r->mean_ns, (5050000 + 500) / 101);
		CHECK(r->hist);
		CHECK_EQ_INT(r->min_ns, 500);
		CHECK_EQ_INT(r->sums.max_ns, 100000);
		/* nearest rank of 101 values: p50 is the 51st (50 µs), p99 the 100th */
		CHECK(r->p50_ns >= 50000 && r->p50_ns <= 50000 + 50000 / 128);
		CHECK(r->p95_ns >= 95000 && r->p95_ns <= 95000 + 95000 / 128);
		CHECK(r->p99_ns >= 99000 && r->p99_ns <= 99000 + 99000 / 128);
		CHECK(r->key == sys_of("read"));
	}
	r = row_named(rows, n, "write");
	CHECK(r && r->sums.pairs == 2 && r->sums.bytes_written == 4096 && r->sums.bytes_read == 0 &&
	      r->sums.errors == 0 && r->min_ns == 2000 && r->sums.max_ns == 3000 && r->mean_ns == 2500);
	r = row_named(rows, n, "sendfile64");
	CHECK(r && r->sums.bytes_read == 300 && r->sums.bytes_written == 300);
	r = row_named(rows, n, "fsync");
	CHECK(r && r->sums.bytes_read == 0 && r->sums.bytes_written == 0 && r->p99_ns == 9000);
	/* the syscall table is never folded: nothing in (other) */
	CHECK_EQ_INT(other.sums.pairs, 0);
	CHECK_EQ_STR(other.name, IOR_STATS_OTHER);
	/* sorted by time, most first: read (5 ms) leads */
	CHECK_EQ_STR(rows[0].name, "read");

	struct ior_stats_totals tot;
	ior_stats_totals(s, &tot);
	CHECK_EQ_INT(tot.sums.pairs, 105);
	CHECK_EQ_INT(tot.sums.errors, 1);
	CHECK_EQ_INT(tot.sums.bytes_read, 1300);
	CHECK_EQ_INT(tot.sums.bytes_written, 4396);
	CHECK_EQ_INT(tot.first_ns, 10 * S + MS);
	CHECK_EQ_INT(tot.last_ns, t + 9000);
	CHECK_EQ_INT(ior_stats_latency(s, -1)->count, 105);
	CHECK_EQ_INT(ior_stats_latency(s, sys_of("write"))->count, 2);
	CHECK(ior_stats_latency(s, (int)ior_sys_count()) == NULL);
	ior_stats_free(s);
}

/* durationToPrevNs: the thread's first pair's 0 is no gap. */
TEST(gap_histograms)
{
	struct ior_stats *s = new_stats(NULL);
	struct ior_event_pair p = pair("read", 1, 1, "a", "/f", S, 100, 1);

	add(s, p);
	p.gap_ns = 5000;
	add(s, p);
	p.gap_ns = 7000;
	add(s, p);
	const struct ior_hist *g = ior_stats_gaps(s, sys_of("read"));
	CHECK(g && g->count == 2 && g->min == 5000 && g->max == 7000);
	CHECK_EQ_INT(ior_stats_gaps(s, -1)->count, 2);
	CHECK_EQ_INT(ior_stats_gaps(s, sys_of("write"))->count, 0);
	ior_stats_free(s);
}

/* Summary rows weigh their pairs in every sum and stay out of the
 * histograms and max; a 0-pair row corrects gaps only. */
TEST(summary_rows)
{
	struct ior_stats *s = new_stats(NULL);
	struct ior_stats_row rows[8], other;
	struct ior_stats_totals tot;

	add(s, pair("pread64", 7, 8, "db", "/data", 5 * S, 1000, 4096));
	add(s, pair("pread64", 7, 8, "db", "/data", 5 * S + MS, 3000, 4096));
	/* 1000 pairs, 2 ms in all (2 µs each on average), 4 MB */
	add(s, summary("pread64", 7, 8, "/data", 1000, 2 * MS, 4096000, 5 * S + 2 * MS, 6 * S + 500 * MS));
	struct ior_event_pair fix = summary("pread64", 7, 8, "/data", 0, 0, 0, 6 * S, 6 * S);
	fix.gap_ns = 777;
	fix.duration_ns = 99, fix.bytes = 7; /* nothing a correction may carry: ignored */
	add(s, fix);

	int n = ior_stats_select(s, IOR_STATS_SYSCALLS, IOR_STATS_BY_TIME, false, rows, 8, &other);
	CHECK_EQ_INT(n, 1);
	CHECK_EQ_INT(rows[0].sums.pairs, 1002);
	CHECK_EQ_INT(rows[0].sums.summarized, 1000);
	CHECK_EQ_INT(rows[0].sums.bytes_read, 4096 * 1002);
	CHECK_EQ_INT(rows[0].sums.time_ns, 2 * MS + 4000);
	CHECK_EQ_INT(rows[0].sums.gap_ns, 777);
	CHECK_EQ_INT(rows[0].mean_ns, (2 * MS + 4000) / 1002);
	/* percentiles and max from the two pairs seen in detail */
	CHECK_EQ_INT(rows[0].sums.max_ns, 3000);
	CHECK_EQ_INT(rows[0].min_ns, 1000);
	CHECK_EQ_INT(rows[0].p99_ns, 3000);
	CHECK_EQ_INT(ior_stats_latency(s, sys_of("pread64"))->count, 2);

	n = ior_stats_select(s, IOR_STATS_FILES, IOR_STATS_BY_TIME, false, rows, 8, &other);
	CHECK(n == 1 && rows[0].sums.pairs == 1002 && rows[0].sums.summarized == 1000 &&
	      rows[0].sums.gap_ns == 0 && rows[0].sums.max_ns == 3000);
	n = ior_stats_select(s, IOR_STATS_THREADS, IOR_STATS_BY_TIME, false, rows, 8, &other);
	CHECK(n == 1 && rows[0].tid == 8 && rows[0].pid == 7 && rows[0].sums.pairs == 1002);

	ior_stats_totals(s, &tot);
	CHECK_EQ_INT(tot.sums.pairs, 1002);
	CHECK_EQ_INT(tot.sums.summarized, 1000);
	CHECK_EQ_INT(tot.sums.gap_ns, 777);
	CHECK_EQ_INT(tot.sums.time_ns, 2 * MS + 4000);
	CHECK_EQ_INT(tot.sums.bytes_read, 4096 * 1002);
	CHECK_EQ_INT(tot.last_ns, 6 * S + 500 * MS);
	CHECK_EQ_INT(tot.not_in_hist, 0);

	/* rates: the summary's pairs at the second of its latest exit */
	struct ior_stats_second sec[3];
	CHECK_EQ_INT(ior_stats_series(s, sec, 3), 3);
	CHECK(sec[0].pairs == 0 && sec[1].pairs == 2 && sec[2].pairs == 1000);
	CHECK(sec[2].bytes_read == 4096000 && sec[1].bytes_read == 8192);
	ior_stats_free(s);
}

TEST(files_processes_threads)
{
	struct ior_stats *s = new_stats(NULL);
	struct ior_stats_row rows[8], other;
	uint64_t t = S;

	add(s, pair("openat", 10, 10, "cat", "/etc/passwd", t += MS, 2000, 3));
	add(s, pair("read", 10, 10, "cat", "/etc/passwd", t += MS, 1000, 100));
	add(s, pair("read", 10, 11, "cat", "/etc/passwd", t += MS, 4000, 0));
	add(s, pair("write", 10, 11, "cat", "/dev/pts/0", t += MS, 500, 100));
	add(s, pair("close", 10, 10, "cat", "/etc/passwd", t += MS, 100, 0));
	add(s, pair("openat", 20, 20, "sh", "/nope", t += MS, 300, -2));
	add(s, pair("sync", 20, 20, "bash", "", t += MS, 60, 0)); /* no file; comm changed */

	int n = ior_stats_select(s, IOR_STATS_FILES, IOR_STATS_BY_NAME, true, rows, 8, &other);
	CHECK_EQ_INT(n, 3);
	CHECK_EQ_STR(rows[0].name, "/dev/pts/0");
	CHECK_EQ_STR(rows[1].name, "/etc/passwd");
	CHECK_EQ_STR(rows[2].name, "/nope");
	CHECK(rows[1].sums.pairs == 4 && rows[1].sums.bytes_read == 100 && rows[1].sums.bytes_written == 0 &&
	      rows[1].sums.time_ns == 7100 && rows[1].sums.max_ns == 4000 && rows[1].mean_ns == 1775);
	CHECK(rows[0].sums.pairs == 1 && rows[0].sums.bytes_written == 100);
	CHECK(rows[2].sums.errors == 1 && !rows[2].hist);
	CHECK_EQ_INT(other.sums.pairs, 0);

	n = ior_stats_select(s, IOR_STATS_PROCESSES, IOR_STATS_BY_PID, true, rows, 8, &other);
	CHECK_EQ_INT(n, 2);
	CHECK(rows[0].pid == 10 && rows[0].key == 10 && !strcmp(rows[0].comm, "cat") && rows[0].sums.pairs == 5 &&
	      rows[0].sums.bytes_read == 100 && rows[0].sums.bytes_written == 100 && rows[0].sums.time_ns == 7600);
	CHECK(rows[1].pid == 20 && !strcmp(rows[1].comm, "bash") && rows[1].sums.pairs == 2 &&
	      rows[1].sums.errors == 1);
	CHECK_EQ_STR(rows[1].name, "");

	n = ior_stats_select(s, IOR_STATS_THREADS, IOR_STATS_BY_TID, false, rows, 8, &other);
	CHECK_EQ_INT(n, 3);
	CHECK(rows[0].tid == 20 && rows[1].tid == 11 && rows[2].tid == 10);
	CHECK(rows[1].pid == 10 && rows[1].sums.pairs == 2 && rows[1].sums.time_ns == 4500);
	ior_stats_free(s);
}

/* A long comm is cut at 15 bytes and stays NUL-terminated. */
TEST(comm_bounds)
{
	struct ior_stats *s = new_stats(NULL);
	struct ior_stats_row rows[2], other;
	char comm[16] = "0123456789abcde";

	add(s, pair("sync", 1, 1, comm, "", S, 1, 0));
	CHECK_EQ_INT(ior_stats_select(s, IOR_STATS_PROCESSES, IOR_STATS_BY_TIME, false, rows, 2, &other), 1);
	CHECK_EQ_STR(rows[0].comm, "0123456789abcde");
	add(s, pair("sync", 1, 1, "x", "", S, 1, 0));
	ior_stats_select(s, IOR_STATS_PROCESSES, IOR_STATS_BY_TIME, false, rows, 2, &other);
	CHECK_EQ_STR(rows[0].comm, "x");
	ior_stats_free(s);
}

/* The sums of a table's rows and (other) equal the totals. */
/* Pairs that name their comm by id (comm_id) keep each row's comm exact
 * while threads with different comms interleave, one id per comm. */
TEST(comm_ids)
{
	static const char *comms[] = { "postgres", "cat", "a-much-longer-c" };
	struct ior_stats *s = new_stats(NULL);
	struct ior_stats_row rows[4], other;
	unsigned x = 7;

	for (int i = 0; i < 300; i++) {
		x = x * 1103515245u + 12345u;
		unsigned k = (x >> 10) % 3;
		struct ior_event_pair p = pair("read", 10 + k, 10 + k, comms[k], "/f", S + (uint64_t)i * MS, 10, 1);
		p.comm_id = k ? 8 * k + 1 : 2; /* two of three share a slot */
		add(s, p);
	}
	CHECK_EQ_INT(ior_stats_select(s, IOR_STATS_THREADS, IOR_STATS_BY_TID, true, rows, 4, &other), 3);
	for (int i = 0; i < 3; i++)
		CHECK_EQ_STR(rows[i].comm, comms[rows[i].tid - 10]);
	ior_stats_free(s);
}

static void check_sums(struct ior_stats *s, enum ior_stats_table table, uint64_t pairs, uint64_t time)
{
	static struct ior_stats_row rows[8192];
	struct ior_stats_row other;
	uint64_t p = 0, t = 0;
	int n = ior_stats_select(s, table, IOR_STATS_BY_TIME, false, rows, 8192, &other);

	for (int i = 0; i < n; i++)
		p += rows[i].sums.pairs, t += rows[i].sums.time_ns;
	p += other.sums.pairs, t += other.sums.time_ns;
	if (p != pairs || t != time)
		T_FAIL("table %d: rows and (other) sum %" PRIu64 " pairs, %" PRIu64 " ns; want %" PRIu64 ", %" PRIu64,
		       table, p, t, pairs, time);
}

/* Many distinct files, pids and tids through small tables: at most max
 * rows each, the busy ones kept, the rest in (other), sums exact. */
TEST(top_k_and_other)
{
	struct ior_stats_cfg cfg = { .max_files = 16, .max_processes = 8, .max_threads = 8 };
	struct ior_stats *s = new_stats(&cfg);
	struct ior_stats_row rows[32], other;
	struct ior_stats_totals tot;
	char path[64];
	uint64_t t = S, pairs = 0, time = 0;

	for (int i = 0; i < 5000; i++) {
		/* three hot files, pids and tids (1 ms each) among 5000 cold ones (1 µs) */
		bool hot = i % 10 == 0;
		int k = hot ? i / 10 % 3 : i;
		snprintf(path, sizeof path, "/%s/%d", hot ? "hot" : "cold", k);
		uint64_t dur = hot ? MS : 1000;
		add(s, pair("read", 1000 + (uint32_t)k + (hot ? 0 : 100), 1000 + (uint32_t)k + (hot ? 0 : 100), "w",
			    path, t += MS, dur, 1));
		pairs++, time += dur;
	}
	CHECK(ior_stats_rows(s, IOR_STATS_FILES) <= 16);
	CHECK(ior_stats_rows(s, IOR_STATS_PROCESSES) <= 8);
	CHECK(ior_stats_rows(s, IOR_STATS_THREADS) <= 8);
	ior_stats_totals(s, &tot);
	CHECK(tot.folds[IOR_STATS_FILES] > 0 && tot.folds[IOR_STATS_PROCESSES] > 0 && tot.folds[IOR_STATS_THREADS] > 0);
	CHECK_EQ_INT(tot.folds[IOR_STATS_SYSCALLS], 0);
	check_sums(s, IOR_STATS_FILES, pairs, time);
	check_sums(s, IOR_STATS_PROCESSES, pairs, time);
	check_sums(s, IOR_STATS_THREADS, pairs, time);

	/* the three hot ones lead, each with nearly all its 1 ms pairs */
	int n = ior_stats_select(s, IOR_STATS_FILES, IOR_STATS_BY_TIME, false, rows, 3, &other);
	CHECK_EQ_INT(n, 3);
	for (int i = 0; i < n; i++)
		if (strncmp(rows[i].name, "/hot/", 5) || rows[i].sums.pairs < 100)
			T_FAIL("file row %d: %s with %" PRIu64 " pairs", i, rows[i].name, rows[i].sums.pairs);
	CHECK(other.sums.pairs + rows[0].sums.pairs + rows[1].sums.pairs + rows[2].sums.pairs == pairs);
	n = ior_stats_select(s, IOR_STATS_PROCESSES, IOR_STATS_BY_TIME, false, rows, 3, &other);
	CHECK(n == 3 && row_keyed(rows, n, 1000) && row_keyed(rows, n, 1001) && row_keyed(rows, n, 1002));
	/* max 0: everything in (other) */
	n = ior_stats_select(s, IOR_STATS_FILES, IOR_STATS_BY_TIME, false, rows, 0, &other);
	CHECK(n == 0 && other.sums.pairs == pairs && other.sums.time_ns == time && other.mean_ns == time / pairs);
	ior_stats_free(s);
}

/* Long paths fold the file table before the strings pass their bound. */
TEST(path_bytes_bound)
{
	struct ior_stats_cfg cfg = { .max_path_bytes = 64 << 10 };
	struct ior_stats *s = new_stats(&cfg);
	static char path[4097];
	uint64_t pairs = 0, time = 0;

	for (int i = 0; i < 2000; i++) {
		memset(path, 'a' + i % 26, 4000);
		snprintf(path + 4000, 97, "/%d", i);
		add(s, pair("newfstatat", 1, 1, "x", path, S + (uint64_t)i, 10 + (uint64_t)i % 7, 0));
		pairs++, time += 10 + (uint64_t)i % 7;
	}
	/* the strings stay under the bound, a file (4 KiB) over it at most */
	CHECK(ior_stats_rows(s, IOR_STATS_FILES) <= (64 << 10) / 4000 + 1);
	check_sums(s, IOR_STATS_FILES, pairs, time);
	/* paths survive folding intact */
	struct ior_stats_row rows[64], other;
	int n = ior_stats_select(s, IOR_STATS_FILES, IOR_STATS_BY_TIME, false, rows, 64, &other);
	for (int i = 0; i < n; i++)
		if (strlen(rows[i].name) < 4002 || rows[i].name[4000] != '/')
			T_FAIL("file row %d: a path of %zu bytes", i, strlen(rows[i].name));
	ior_stats_free(s);
}

TEST(sort_by_any_column)
{
	struct ior_stats *s = new_stats(NULL);
	struct ior_stats_row rows[8], other;

	/* pid 1: many short; pid 2: one long; pid 3: bytes */
	for (int i = 0; i < 10; i++)
		add(s, pair("sync", 1, 1, "many", "", S + (uint64_t)i, 100, 0));
	add(s, pair("fsync", 2, 2, "long", "/x", S, 50000, -5));
	add(s, pair("write", 3, 3, "bytes", "/y", S, 200, 1 << 20));

	struct {
		enum ior_stats_col col;
		bool asc;
		uint32_t first;
	} cases[] = {
		{ IOR_STATS_BY_TIME, false, 2 },    { IOR_STATS_BY_TIME, true, 3 },
		{ IOR_STATS_BY_PAIRS, false, 1 },   { IOR_STATS_BY_MAX, false, 2 },
		{ IOR_STATS_BY_MEAN, true, 1 },     { IOR_STATS_BY_BYTES, false, 3 },
		{ IOR_STATS_BY_WRITTEN, false, 3 }, { IOR_STATS_BY_ERRORS, false, 2 },
		{ IOR_STATS_BY_COMM, true, 3 },     { IOR_STATS_BY_PID, false, 3 },
		{ IOR_STATS_BY_PID, true, 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int n = ior_stats_select(s, IOR_STATS_PROCESSES, cases[i].col, cases[i].asc, rows, 8, &other);
		if (n != 3 || rows[0].pid != cases[i].first)
			T_FAIL("column %d %s: first pid %u, want %u", cases[i].col, cases[i].asc ? "up" : "down",
			       n > 0 ? rows[0].pid : 0, cases[i].first);
	}
	/* syscall percentiles sort too */
	int n = ior_stats_select(s, IOR_STATS_SYSCALLS, IOR_STATS_BY_P99, false, rows, 8, &other);
	CHECK(n == 3 && !strcmp(rows[0].name, "fsync") && !strcmp(rows[2].name, "sync"));
	n = ior_stats_select(s, IOR_STATS_SYSCALLS, IOR_STATS_BY_NAME, true, rows, 2, &other);
	CHECK(n == 2 && !strcmp(rows[0].name, "fsync") && !strcmp(rows[1].name, "sync"));
	CHECK(other.sums.pairs == 1 && other.sums.bytes_written == 1 << 20); /* write, beyond 2 rows */
	CHECK(ior_stats_select(s, IOR_STATS_NTABLES, IOR_STATS_BY_TIME, false, rows, 8, &other) == -EINVAL);
	CHECK(ior_stats_select(s, IOR_STATS_FILES, IOR_STATS_NCOLS, false, rows, 8, &other) == -EINVAL);
	ior_stats_free(s);
}

TEST(rates)
{
	struct ior_stats *s = new_stats(NULL);
	struct ior_stats_second sec[IOR_STATS_SECONDS];
	struct ior_stats_rates r;

	ior_stats_rates(s, 10, &r);
	CHECK(r.seconds == 0 && r.pairs == 0);
	CHECK_EQ_INT(ior_stats_series(s, sec, 10), 0);
	/* seconds 100..109: 10*(k+1) pairs in second 100+k, 1 error, 1000 bytes read each */
	for (int k = 0; k < 10; k++)
		for (int i = 0; i <= 10 * k + 9; i++)
			add(s, pair("read", 1, 1, "r", "/f", (100 + (uint64_t)k) * S + (uint64_t)i * MS, 1000,
				    i ? 1000 : -4));
	/* now: the last exit, in second 109 at 99 ms + 1 µs */
	CHECK_EQ_INT(ior_stats_series(s, sec, 10), 10);
	for (int k = 0; k < 10; k++)
		if (sec[k].pairs != 10 * (uint64_t)k + 10 || sec[k].errors != 1 ||
		    sec[k].bytes_read != 1000 * (10 * (uint64_t)k + 9) || sec[k].time_ns != 1000 * sec[k].pairs)
			T_FAIL("second %d: %" PRIu64 " pairs, %" PRIu64 " errors", k, sec[k].pairs, sec[k].errors);
	/* the whole trace: 550 pairs from 100 s to 109.099001 s */
	ior_stats_rates(s, 300, &r);
	CHECK(r.seconds > 9.0989 && r.seconds < 9.0991);
	CHECK(r.pairs > 550 / 9.0991 && r.pairs < 550 / 9.0989);
	CHECK(r.errors > 10 / 9.0991 && r.errors < 10 / 9.0989);
	/* the last 2 seconds: 108 (90 pairs) and 109 (100), over 1.099001 s */
	ior_stats_rates(s, 2, &r);
	CHECK(r.seconds > 1.0989 && r.seconds < 1.0991);
	CHECK(r.pairs > 190 / 1.0991 && r.pairs < 190 / 1.0989);
	CHECK(r.bytes_read > 188000 / 1.0991 && r.bytes_read < 188000 / 1.0989);
	CHECK(r.bytes_written == 0);

	/* idle: ticks move the window on, the rates fall */
	ior_stats_tick(s, 111 * S);
	CHECK_EQ_INT(ior_stats_series(s, sec, 3), 3);
	CHECK(sec[0].pairs == 100 && sec[1].pairs == 0 && sec[2].pairs == 0);
	ior_stats_rates(s, 2, &r); /* seconds 110 and 111, which just began */
	CHECK(r.seconds == 1.0 && r.pairs == 0);
	ior_stats_tick(s, 50 * S); /* time does not go back */
	CHECK_EQ_INT(ior_stats_series(s, sec, 1), 1);
	CHECK_EQ_INT(sec[0].pairs, 0);

	/* five minutes later the ring has forgotten; the totals have not */
	ior_stats_tick(s, 500 * S);
	add(s, pair("read", 1, 1, "r", "/f", 105 * S, 10, 1)); /* older than the ring: totals only */
	CHECK_EQ_INT(ior_stats_series(s, sec, IOR_STATS_SECONDS + 5), IOR_STATS_SECONDS);
	uint64_t in_ring = 0;
	for (int k = 0; k < IOR_STATS_SECONDS; k++)
		in_ring += sec[k].pairs;
	CHECK_EQ_INT(in_ring, 0);
	struct ior_stats_totals tot;
	ior_stats_totals(s, &tot);
	CHECK_EQ_INT(tot.sums.pairs, 551);
	/* a slot reused a ring later holds only its new second */
	add(s, pair("read", 1, 1, "r", "/f", (500 - 1) * S, 10, 1));
	ior_stats_series(s, sec, 2);
	CHECK(sec[0].pairs == 1 && sec[1].pairs == 0);
	ior_stats_free(s);
}

TEST(sink)
{
	struct ior_stats *s = new_stats(NULL);
	struct ior_sink k = ior_stats_sink(s);
	struct ior_event_pair p = pair("read", 1, 1, "x", "/f", 3 * S, 10, 5);
	struct ior_stats_totals tot;
	struct ior_stats_second sec[2];

	CHECK(k.ctx == s && k.pair && k.tick);
	k.pair(k.ctx, &p);
	CHECK_EQ_INT(k.tick(k.ctx, 4 * S + 1), 0);
	ior_stats_totals(s, &tot);
	CHECK(tot.sums.pairs == 1 && tot.sums.bytes_read == 5);
	ior_stats_series(s, sec, 2);
	CHECK(sec[0].pairs == 1 && sec[1].pairs == 0);
	p.sys = (uint16_t)ior_sys_count(); /* not a syscall: refused, not counted */
	CHECK(ior_stats_add(s, &p) == -EINVAL);
	ior_stats_totals(s, &tot);
	CHECK_EQ_INT(tot.sums.pairs, 1);
	/* a name a recording defined after s was made: a row of its own */
	p.sys = (uint16_t)ior_sys_define("stats_future_call");
	CHECK_EQ_INT(ior_stats_add(s, &p), 0);
	struct ior_stats_row rows[4], other;
	CHECK_EQ_INT(ior_stats_select(s, IOR_STATS_SYSCALLS, IOR_STATS_BY_NAME, false, rows, 4, &other), 2);
	CHECK_EQ_STR(rows[0].name, "stats_future_call");
	CHECK_EQ_INT(rows[0].sums.pairs, 1);
	CHECK_EQ_INT(ior_stats_latency(s, p.sys)->count, 1);
	ior_stats_free(s);
}

/* ns per pair through the sink: one file in a loop (the common case), and
 * a new file every pair (the worst: the table folds every 2048 pairs).
 * Printed only. */
static double bench(bool new_files, int n)
{
	struct ior_stats *s = new_stats(NULL);
	struct ior_sink k = ior_stats_sink(s);
	static struct ior_event_pair ps[1024]; /* in cache, as a pair is when it comes */
	char(*paths)[48] = calloc(new_files ? (size_t)n : 1, sizeof *paths);
	struct timespec a, b;

	if (!paths) {
		printf("out of memory\n");
		exit(1);
	}
	for (int i = 0; i < (new_files ? n : 1); i++)
		snprintf(paths[i], sizeof *paths, "/var/lib/postgresql/15/main/base/%d", i);
	for (int i = 0; i < 1024; i++) {
		ps[i] = pair(i % 3 ? "pread64" : "pwrite64", 4242, 4242 + (uint32_t)i % 4, "postgres", paths[0],
			     S, 500 + (uint64_t)i * 7919 % 20000, 8192);
		ps[i].gap_ns = 300 + (uint64_t)i % 100;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < n; i++) {
		struct ior_event_pair *p = &ps[i % 1024];
		p->enter_ns = S + (uint64_t)i * 1000;
		if (new_files)
			p->path = paths[i];
		k.pair(k.ctx, p);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	ior_stats_free(s);
	free(paths);
	return ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / n;
}

TEST(cost_per_pair)
{
	printf("stats sink: %.1f ns/pair on one file, %.1f ns/pair with a new file every pair\n",
	       bench(false, 1000000), bench(true, 500000));
}

int main(void)
{
	RUN(syscall_table);
	RUN(gap_histograms);
	RUN(summary_rows);
	RUN(files_processes_threads);
	RUN(comm_bounds);
	RUN(comm_ids);
	RUN(top_k_and_other);
	RUN(path_bytes_bound);
	RUN(sort_by_any_column);
	RUN(rates);
	RUN(sink);
	RUN(cost_per_pair);
	return t_done();
}
