/* The session's state, shared by session.c (bring-up and the drain),
 * kernel.c (what is read back from bpf.c's maps) and report.c. */
#ifndef IOR_TRACE_SESSION_INT_H
#define IOR_TRACE_SESSION_INT_H

#include "pair/canon.h"
#include "pair/fdtab.h"
#include "trace/merge.h"
#include "pair/pair.h"
#include "trace/ring.h"
#include "trace/session.h"
#include "pair/snapshot.h"
#include "trace/summary.h"
#include "log/log.h"

#define IOR_SESSION_SLACK_NS 5000000ull /* a record's ts may precede its ring write by this much */

struct ior_session {
	struct ior_session_cfg cfg;
	struct ior_probe probe;
	struct ior_ring *rings;
	int *ring_cpu;
	unsigned char *ring_full; /* per ring: its CPU's batch is held (ring full) */
	unsigned nrings;
	struct ior_merge *merge;
	struct ior_fdtab *fds;
	struct ior_canon *canon;
	struct ior_pairer *pairer;
	struct ior_sink sinks[IOR_MAX_SINKS];
	unsigned nsinks;
	int sink_error;             /* the first sink's -errno */
	int merge_full;
	uint64_t forced_flushes;
	int flush_error;            /* errno of a failed flush, warned once */
	uint64_t flush_busy;        /* flushes given up: the batch stayed busy */
	uint64_t malformed_samples; /* samples whose records do not add up */
	struct ior_sumtab *sums;    /* what the summary map held at the last read */
	uint64_t sums_read_ns;
	uint64_t sums_untracked;    /* summary keys past what user space could remember */
	uint64_t summary_in_flight; /* summarized enters without exit at stop */
	uint64_t start_ns, stop_ns;
	struct ior_snapshot_stats snap;
	char err[512];              /* scratch for warnings */
};

/* kernel.c */
uint64_t ior_session_counter(struct ior_session *s, const char *name);
void ior_session_flush_batches(struct ior_session *s);
int ior_session_reflush_full(struct ior_session *s);
void ior_session_read_summaries(struct ior_session *s, uint64_t now);
uint64_t ior_session_end_open_streaks(struct ior_session *s);
/* Async ops the kernel summarized and still holds at stop (in flight). */
uint64_t ior_session_async_folded_in_flight(struct ior_session *s);
void ior_session_push_leftovers(struct ior_session *s);
uint64_t ior_session_lost(struct ior_session *s, uint64_t *busy);
/* session.c */
int ior_session_push(struct ior_session *s, unsigned src, const void *raw, size_t len);
void ior_session_deliver_all(struct ior_session *s);

#endif
