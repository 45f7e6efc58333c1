/* The lines a person reads when a trace ends: what was traced, what was
 * lost or summarized and why, what was still in flight, which fds had no
 * path. Every count that could hide a loss is said. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "text/escape.h"
#include "trace/session_int.h"
#include "syscalls/syscalls.h"

#define IN_FLIGHT_SHOWN 10

typedef unsigned long long ull;

/* Perf samples the rings reported lost beyond the kernel's own refused
 * sends (which kept their batch): nothing should be there. */
static uint64_t samples_lost_unexplained(struct ior_session *s)
{
	uint64_t samples = 0;
	uint64_t refused = ior_session_counter(s, "held_batches") + ior_session_counter(s, "resend_refused");

	for (unsigned i = 0; i < s->nrings; i++)
		samples += s->rings[i].lost;
	return samples > refused ? samples - refused : 0;
}

static void print_lost(struct ior_session *s, FILE *f, const struct ior_pair_stats *st)
{
	uint64_t busy, lost = ior_session_lost(s, &busy), reserve = ior_session_counter(s, "reserve_full");
	uint64_t full = ior_session_counter(s, "summary_full"), odd = samples_lost_unexplained(s);

	fprintf(f, "ior: lost: %llu records in the perf buffers", (ull)lost);
	if (reserve || full || s->sums_untracked)
		fprintf(f, " (%llu found a full ring's reserve full, %llu pairs found the summary "
			   "maps full, %llu summaries could not be tracked; try a larger -mapSize)",
			(ull)reserve, (ull)full, (ull)s->sums_untracked);
	if (busy)
		fprintf(f, ", %llu of them dropped because their CPU's batch was busy "
			   "(a program interrupted another on the same CPU)", (ull)busy);
	if (odd)
		fprintf(f, "; the rings also reported %llu perf samples lost", (ull)odd);
	fprintf(f, "; summarized: %llu pairs (detail dropped, totals kept)", (ull)st->t.summarized);
	if (s->summary_in_flight)
		fprintf(f, ", %llu summarized enters in flight at stop", (ull)s->summary_in_flight);
	fputc('\n', f);
}

/* Whether a thread still runs (/proc/PID/task/TID): a gone one's enter is
 * no syscall in flight, its exit record was lost. */
static int thread_alive(void *ctx, uint32_t pid, uint32_t tid)
{
	char p[64];

	(void)ctx;
	snprintf(p, sizeof p, "/proc/%u/task/%u", pid, tid);
	return access(p, F_OK) == 0 || errno != ENOENT;
}

static void print_in_flight(const struct ior_session *s, FILE *f)
{
	struct ior_in_flight fl[IN_FLIGHT_SHOWN];
	size_t n = ior_pair_in_flight(s->pairer, fl, IN_FLIGHT_SHOWN);
	char comm[80], path[1100];

	for (size_t i = 0; i < n && i < IN_FLIGHT_SHOWN; i++) {
		uint64_t age = s->stop_ns > fl[i].enter_ns ? s->stop_ns - fl[i].enter_ns : 0;
		ior_escape_str(comm, sizeof comm, fl[i].comm, strnlen(fl[i].comm, sizeof fl[i].comm),
			       IOR_ESCAPE_AUTO);
		ior_escape_str(path, sizeof path, fl[i].path, strlen(fl[i].path), IOR_ESCAPE_AUTO);
		const struct ior_syscall *sc = ior_sys(fl[i].sys);
		fprintf(f, "ior:   %s by %s %u.%u, %s for %.3f s", sc->name, comm, fl[i].pid, fl[i].tid,
			ior_syscall_async(sc) ? "in flight" : "in the syscall", age / 1e9);
		if (fl[i].fd >= 0)
			fprintf(f, ", on fd %d%s%s", fl[i].fd, path[0] ? " " : "", path);
		else if (path[0])
			fprintf(f, ", on %s", path);
		fputc('\n', f);
	}
	if (n > IN_FLIGHT_SHOWN)
		fprintf(f, "ior:   ... and %zu more\n", n - IN_FLIGHT_SHOWN);
}

/* "fds without a path: N (reason: n, ...)", the most frequent reason first. */
static void print_unattributed(const struct ior_pair_stats *st, FILE *f)
{
	uint64_t left[IOR_FD_NREASONS];
	int any = 0;

	memcpy(left, st->unattributed_why, sizeof left);
	fprintf(f, "ior: fds without a path: %llu", (ull)st->unattributed);
	for (;;) {
		unsigned top = 0;
		for (unsigned i = 1; i < IOR_FD_NREASONS; i++)
			top = left[i] > left[top] ? i : top;
		if (!left[top])
			break;
		fprintf(f, "%s%s: %llu", any++ ? ", " : " (", ior_fd_unknown_name(top), (ull)left[top]);
		left[top] = 0;
	}
	fputs(any ? ")\n" : "\n", f);
}

static void print_oddities(struct ior_session *s, FILE *f, const struct ior_pair_stats *st)
{
	uint64_t full = ior_session_counter(s, "path_args_full"), bad = 0;

	if (st->mismatched_exits || st->enters_at_thread_exit || st->bad_records)
		fprintf(f, "ior: exits of another syscall than the enter: %llu, enters unpaired at exit "
			   "(the thread ended, or ended and its exit was lost): %llu, malformed records: %llu\n",
			(ull)st->mismatched_exits, (ull)st->enters_at_thread_exit, (ull)st->bad_records);
	if (s->malformed_samples || s->flush_busy)
		fprintf(f, "ior: perf samples with malformed records: %llu, batch flushes given up (busy): %llu\n",
			(ull)s->malformed_samples, (ull)s->flush_busy);
	if (ior_merge_late(s->merge) || s->forced_flushes)
		fprintf(f, "ior: records merged out of order: %llu late, %llu forced flushes\n",
			(ull)ior_merge_late(s->merge), (ull)s->forced_flushes);
	if (st->paths_cut)
		fprintf(f, "ior: paths cut at %d bytes (longer than the kernel takes; shown ending in "
			   "\"...(cut)\"): %llu\n", IOR_PATH_MAX - 1, (ull)st->paths_cut);
	if (st->mmsg_unread)
		fprintf(f, "ior: sendmmsg/recvmmsg messages whose bytes were not counted (past the first %d "
			   "of a call, or unreadable): %llu\n", IOR_MMSG_MAX, (ull)st->mmsg_unread);
	if (s->cfg.probe.follow && (bad = ior_session_counter(s, "follow_full")))
		fprintf(f, "ior: %llu new processes not traced: the followed set was full (%d processes)\n",
			(ull)bad, IOR_FOLLOW_MAX);
	if ((bad = ior_session_counter(s, "async_full")))
		fprintf(f, "ior: %llu async operations not traced: the in-flight map was full (65536)\n", (ull)bad);
	if ((bad = ior_session_counter(s, "aio_unread")))
		fprintf(f, "ior: %llu libaio iocbs or events not traced: past the first %d of a call, or the "
			   "call could not be remembered\n", (ull)bad, IOR_AIO_BATCH_MAX);
	if ((bad = ior_session_counter(s, "uring_files_unread")) || st->uring_slots_cut)
		fprintf(f, "ior: io_uring registered files not kept: %llu slots past the first %d of a call (or "
			   "calls not remembered), %llu slots past %d\n", (ull)bad, IOR_URING_FILES_MAX,
			(ull)st->uring_slots_cut, IOR_URING_SLOTS_MAX);
	if (st->async_fixed)
		fprintf(f, "ior: io_uring operations on registered (fixed) files, shown without a file: %llu\n",
			(ull)st->async_fixed);
	bad = 0;
	if (full)
		fprintf(f, "ior: %llu syscalls without their path: their path pointers could not be kept "
			   "from enter to exit (path_args full, or no memory for task storage)\n", (ull)full);
	for (unsigned i = 0; i < s->nrings; i++)
		bad += s->rings[i].bad;
	if (bad)
		fprintf(f, "ior: malformed perf records: %llu (the rest of those rings was skipped)\n", (ull)bad);
}

/* Block requests: how many, how many charged to pairs, what was missed. */
static void print_block(struct ior_session *s, FILE *f, const struct ior_pair_stats *st)
{
	if (!s->probe.block)
		return;
	fprintf(f, "ior: block requests: %llu completed, %llu charged to traced syscalls; %llu completions "
		   "of requests begun before the trace (not counted), %llu requests not remembered (map full)\n",
		(ull)st->blk_requests, (ull)st->blk_in_pairs, (ull)ior_session_counter(s, "blk_unstarted"),
		(ull)ior_session_counter(s, "blk_full"));
	if (s->probe.cache)
		fprintf(f, "ior: page cache: %llu pages added by traced threads, %llu of them outside a syscall "
			   "(page faults: no pair)\n", (ull)st->cache_pages, (ull)st->cache_outside);
	if (st->blk_cover_merged)
		fprintf(f, "ior: device time of a pair merged across gaps (more than %d intervals): %llu times\n",
			IOR_BLK_IV_MAX, (ull)st->blk_cover_merged);
}

static void print_fd_story(const struct ior_session *s, FILE *f, const struct ior_pair_stats *st)
{
	struct ior_fdtab_stats fs;

	ior_fdtab_get_stats(s->fds, &fs);
	fprintf(f, "ior: fd table: %llu fds of %llu processes, %llu evicted, %llu resets, %llu forks, "
		   "%llu execs, %llu renamed; snapshot: %llu processes, %llu fds (%llu gone meanwhile) "
		   "in %.1f ms, %llu applied; %llu threads; %llu exits of syscalls begun after the stop\n",
		(ull)fs.fds, (ull)fs.procs, (ull)fs.evicted, (ull)fs.resets, (ull)fs.forks, (ull)fs.execs,
		(ull)fs.renamed, (ull)s->snap.procs, (ull)s->snap.fds, (ull)s->snap.failed,
		s->snap.ns / 1e6, (ull)fs.snapshots, (ull)st->threads, (ull)st->exits_after_stop);
}

void ior_session_report(struct ior_session *s, FILE *f, bool verbose)
{
	struct ior_pair_stats st;
	double secs = (s->stop_ns - s->start_ns) / 1e9;

	if (!s->pairer) {
		fprintf(f, "ior: traced %.2f s with the empty program\n", secs);
		return;
	}
	ior_pair_close_gone(s->pairer, thread_alive, NULL);
	ior_pair_get_stats(s->pairer, &st);
	fprintf(f, "ior: traced %.2f s: %llu syscall pairs (%.0f/s), %llu after filters\n", secs,
		(ull)st.t.pairs_seen, secs > 0 ? st.t.pairs_seen / secs : 0.0, (ull)st.t.pairs);
	print_lost(s, f, &st);
	fprintf(f, "ior: exits without an enter: %llu, enters overwritten: %llu, enters in flight at stop: %llu",
		(ull)st.t.unpaired_exits, (ull)st.t.overwritten_enters, (ull)st.t.in_flight);
	if (st.async_in_flight)
		fprintf(f, " (%llu async ops in flight at stop)", (ull)st.async_in_flight);
	fputc('\n', f);
	print_in_flight(s, f);
	print_oddities(s, f, &st);
	print_block(s, f, &st);
	print_unattributed(&st, f);
	if (verbose)
		print_fd_story(s, f, &st);
}

void ior_session_totals(struct ior_session *s, struct ior_trace_totals *t)
{
	struct ior_pair_stats st;
	uint64_t busy;

	memset(t, 0, sizeof *t);
	if (!s->pairer)
		return;
	ior_pair_get_stats(s->pairer, &st);
	*t = st.t;
	t->lost = ior_session_lost(s, &busy);
}
