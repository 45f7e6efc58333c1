/* One trace, user side: the probe (trace/probe.h) with its per-CPU rings,
 * the merge into timestamp order, the fd table, the pairing, the kernel's
 * summaries, and the sinks every pair goes to. One thread runs it all,
 * so the hot path takes no lock; the kernel fills the rings in parallel.
 *
 *   ior_session_open   load (not attached yet), rings, pairing
 *   ior_session_add_sink ...
 *   ior_session_attach, ior_session_snapshot
 *   loop: poll(ior_session_pollfds) then ior_session_step
 *   ior_session_stop   detach, read what is left, end open streaks
 *   ior_session_report, ior_session_totals; close the sinks; free
 *
 * Nothing here prints but ior_session_report: warnings go to the probe
 * config's warn(). */
#ifndef IOR_TRACE_SESSION_H
#define IOR_TRACE_SESSION_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bpf/event.h"
#include "pair/pair.h"
#include "trace/probe.h"
#include "pair/sink.h"

struct ior_session;

struct ior_session_cfg {
	struct ior_probe_cfg probe;
	const char *path_filter; /* substring of path or path2; "" or NULL: all */
	uint64_t ring_bytes;     /* per CPU: a power of two, at least 64 KiB */
};

/* 0, or -errno with err filled (what failed; a verifier rejection brings
 * its log). *out is set even on failure: free it. */
int ior_session_open(struct ior_session **out, const struct ior_session_cfg *cfg, char *err,
		     size_t errlen);
/* -ENOSPC past IOR_MAX_SINKS. */
int ior_session_add_sink(struct ior_session *s, struct ior_sink sink);
int ior_session_attach(struct ior_session *s, char *err, size_t errlen);
/* The descriptors that predate the trace, from /proc, drained meanwhile.
 * -ENOMEM. */
int ior_session_snapshot(struct ior_session *s, int64_t pid, int64_t tid, const char *comm);

/* The rings' fds (POLLIN) into pfd[0..cap); returns how many. */
size_t ior_session_pollfds(const struct ior_session *s, struct pollfd *pfd, size_t cap);
/* Sends the CPUs' batches, drains the rings, delivers what every ring has
 * caught up with, reads the summaries when due, ticks the sinks. The first
 * sink's -errno stops it (and the trace). */
int ior_session_step(struct ior_session *s, uint64_t now_ns);
/* Detaches, delivers every record left, ends the streaks still open,
 * reads the summaries a last time, ticks the sinks. */
void ior_session_stop(struct ior_session *s);

/* The lines a person reads at the end: counts, losses, what is in flight,
 * fds without a path (and, verbose, the fd table's story). */
void ior_session_report(struct ior_session *s, FILE *f, bool verbose);
/* Syscalls entered and not returned, oldest first (pair/pair.h): up to
 * max into out; returns how many there are. */
size_t ior_session_in_flight(const struct ior_session *s, struct ior_in_flight *out, size_t max);
/* What the recording's trailer keeps (lost records included). */
void ior_session_totals(struct ior_session *s, struct ior_trace_totals *t);
const struct ior_probe *ior_session_probe(const struct ior_session *s);
unsigned ior_session_cpus(const struct ior_session *s);
uint64_t ior_session_started(const struct ior_session *s); /* after the snapshot, or at attach */

void ior_session_free(struct ior_session *s);

#endif
