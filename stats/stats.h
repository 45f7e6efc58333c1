/* The statistics engine: event pairs in (a trace's sink, or a recording's
 * pairs), tables out — per syscall, per file, per process, per thread —
 * plus totals, per-second rates for sparklines and latency histograms.
 * The text report (stats/report.c) and the dashboard read it.
 *
 * Memory stays flat on any host. The syscall table has a row per syscall
 * of syscalls/syscalls.h. The file, process and thread tables hold at most
 * their cfg bound of rows: when a new key finds its table full, the half of
 * the rows with the least total time is folded into the table's "(other)"
 * row, so the rows kept are the ones that take the time (a row counts from
 * when it last entered its table; what it had before stays in "(other)").
 * Paths are interned, and the file table is folded too when its paths
 * take more than max_path_bytes. Every sum of a table (rows and "(other)")
 * equals the totals, except that the file table leaves out pairs without
 * a path.
 *
 * Summary rows (p->summary: the kernel's ring was full, pairs folded per
 * thread, syscall and fd) weigh p->pairs pairs: their pairs, time, gap and
 * bytes go into every sum, and are counted in `summarized`. Their single
 * pairs' durations are unknown, so they stay out of the histograms, out of
 * max_ns and out of the percentiles: these describe the pairs seen in
 * detail (a sample in time of the same syscalls), while mean_ns (time /
 * pairs) counts every pair. Their pairs count in the rates at the second
 * of their latest exit (p->end_ns). A summary row of 0 pairs (a gap
 * correction) adds its gap to the totals and to its syscall only.
 *
 * Bytes: READ syscalls' bytes are read, WRITE syscalls' written; a
 * TRANSFER (sendfile, splice, tee, vmsplice, copy_file_range) moves its
 * bytes from one fd to another: they count as read and as written.
 *
 * Cost per pair: array and hash lookups on small keys, a path compared
 * with the previous pair's (or hashed once), two histogram increments.
 * Not thread-safe. Nothing here prints. */
#ifndef IOR_STATS_STATS_H
#define IOR_STATS_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/hist.h"
#include "pair/event_pair.h"
#include "pair/sink.h"

enum ior_stats_table {
	IOR_STATS_SYSCALLS,
	IOR_STATS_FILES,
	IOR_STATS_PROCESSES,
	IOR_STATS_THREADS,
	IOR_STATS_NTABLES,
};

#define IOR_STATS_OTHER "(other)"
#define IOR_STATS_SECONDS 300 /* the rates' ring: the last five minutes */

struct ior_stats_cfg {
	uint32_t max_files, max_processes, max_threads; /* rows kept; 0: 4096, 1024, 4096 */
	size_t max_path_bytes;                          /* 0: 4 MiB */
};

/* What a row (or the totals) summed. */
struct ior_stats_sums {
	uint64_t pairs;         /* calls (accesses for files); summary rows weigh their pairs */
	uint64_t errors;        /* pairs that returned < 0 */
	uint64_t summarized;    /* of pairs: delivered in summary rows */
	uint64_t bytes_read, bytes_written;
	uint64_t time_ns;       /* durations summed */
	uint64_t gap_ns;        /* durationToPrevNs summed */
	uint64_t max_ns;        /* the longest pair seen in detail */
};

/* Adds b into a (max_ns: the larger). */
void ior_stats_sums_merge(struct ior_stats_sums *a, const struct ior_stats_sums *b);

/* A row as ior_stats_select hands it out: a copy, with the derived values. */
struct ior_stats_row {
	const char *name;    /* SYSCALLS: the syscall; FILES: the path, raw bytes
			      * from the traced system (escape before showing);
			      * PROCESSES, THREADS: ""; IOR_STATS_OTHER for the
			      * (other) row. Valid until the next pair is added. */
	uint64_t key;        /* SYSCALLS: an ior_sys() index; FILES: an
			      * id valid until the next pair; PROCESSES: pid;
			      * THREADS: tid */
	uint32_t pid, tid;   /* PROCESSES: pid; THREADS: pid and tid */
	char comm[16];       /* PROCESSES, THREADS: the latest command name */
	struct ior_stats_sums sums;
	uint64_t mean_ns;    /* time_ns / pairs (0 without pairs) */
	bool hist;           /* SYSCALLS, with pairs seen in detail: the below are known */
	uint64_t min_ns, p50_ns, p95_ns, p99_ns; /* of the pairs seen in detail (stats/hist.h) */
};

/* What ior_stats_select sorts by. Names and comms sort in byte order,
 * unknown percentiles as 0; ties go by time, then pairs, then key. */
enum ior_stats_col {
	IOR_STATS_BY_NAME,
	IOR_STATS_BY_PID,
	IOR_STATS_BY_TID,
	IOR_STATS_BY_COMM,
	IOR_STATS_BY_PAIRS,
	IOR_STATS_BY_ERRORS,
	IOR_STATS_BY_SUMMARIZED,
	IOR_STATS_BY_READ,
	IOR_STATS_BY_WRITTEN,
	IOR_STATS_BY_BYTES,  /* read + written */
	IOR_STATS_BY_TIME,
	IOR_STATS_BY_GAP,
	IOR_STATS_BY_MEAN,
	IOR_STATS_BY_MIN,
	IOR_STATS_BY_P50,
	IOR_STATS_BY_P95,
	IOR_STATS_BY_P99,
	IOR_STATS_BY_MAX,
	IOR_STATS_NCOLS,
};

struct ior_stats_totals {
	struct ior_stats_sums sums;
	uint64_t first_ns, last_ns;  /* first enter, last exit (CLOCK_MONOTONIC; 0: no pair) */
	uint64_t folds[IOR_STATS_NTABLES]; /* times a full table folded rows into (other) */
	uint64_t not_in_hist;        /* pairs seen in detail that no histogram took (out of memory) */
};

/* One second of the rates' ring. */
struct ior_stats_second {
	uint64_t pairs, errors, bytes_read, bytes_written, time_ns;
};

/* Per second over a window (ior_stats_rates). */
struct ior_stats_rates {
	double pairs, errors, bytes_read, bytes_written;
	double seconds; /* the time they cover; 0 (and rates 0) before 1 ms of trace */
};

struct ior_stats;

/* cfg may be NULL (defaults). 0, or -ENOMEM. */
int ior_stats_new(struct ior_stats **s, const struct ior_stats_cfg *cfg);
void ior_stats_free(struct ior_stats *s);

/* One pair or summary row. The sums stay exact whatever happens: a row
 * that cannot be allocated goes to its table's (other). Returns 0,
 * -ENOMEM when a histogram could not take it (counted in not_in_hist), or
 * -EINVAL (nothing counted) when p->sys is not an ior_sys() index. */
int ior_stats_add(struct ior_stats *s, const struct ior_event_pair *p);
/* The time is now_ns (CLOCK_MONOTONIC): the rates move on without pairs. */
void ior_stats_tick(struct ior_stats *s, uint64_t now_ns);
/* One completed block request, into the device table (stats/devices.h). */
void ior_stats_add_block(struct ior_stats *s, const struct ior_block_req *r);
/* The device table, sorted by device and op; valid until the next add. */
struct ior_devices *ior_stats_devices(struct ior_stats *s);
/* A sink (pair/sink.h) adding every pair and block request, ticking with
 * the session. */
struct ior_sink ior_stats_sink(struct ior_stats *s);

void ior_stats_totals(const struct ior_stats *s, struct ior_stats_totals *t);

/* The rows of a table sorted by col (descending, or ascending when asked),
 * the first max of them copied to rows[0..max), the rest summed into
 * *other with the table's own (other) row (other->name IOR_STATS_OTHER,
 * other->sums.pairs 0 when it holds nothing; its time and pairs are what
 * matter, its percentiles unknown). Rows without pairs are left out.
 * Returns the number of rows written, -ENOMEM, or -EINVAL for an unknown
 * table or column. */
int ior_stats_select(struct ior_stats *s, enum ior_stats_table table, enum ior_stats_col col,
		     bool ascending, struct ior_stats_row *rows, unsigned max, struct ior_stats_row *other);
/* Rows the table holds now (without (other)). */
unsigned ior_stats_rows(const struct ior_stats *s, enum ior_stats_table table);

/* Latency (durationNs) and gap (durationToPrevNs, the thread's first pair's
 * 0 left out) histograms of the pairs seen in detail, of one syscall (an
 * ior_sys() index) or of all (sys < 0: merged when asked, valid
 * until the next call for all). NULL when sys is out of range or out of
 * memory; an empty histogram when none. */
const struct ior_hist *ior_stats_latency(struct ior_stats *s, int sys);
const struct ior_hist *ior_stats_gaps(struct ior_stats *s, int sys);

/* The last n seconds (n <= IOR_STATS_SECONDS) up to the newest, oldest
 * first into out[0..n); the newest is still filling. The newest second is
 * that of the latest pair or tick. Returns how many were written: n (at
 * most IOR_STATS_SECONDS), 0 before the first pair. Pairs older than the
 * ring are in the totals only. */
unsigned ior_stats_series(const struct ior_stats *s, struct ior_stats_second *out, unsigned n);
/* Rates over the last `seconds` seconds (at most IOR_STATS_SECONDS; the
 * whole trace when it is shorter): sums over the span from the window's
 * start (or the first pair) to the latest pair or tick. */
void ior_stats_rates(const struct ior_stats *s, unsigned seconds, struct ior_stats_rates *r);

#endif
