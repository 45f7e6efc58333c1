/* A trace's user side: bring-up, then drain -> merge -> pair -> sinks on
 * one thread. What is read back from bpf.c's maps is in kernel.c, the
 * closing report in report.c. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/loader.h"
#include "pair/clock.h"
#include "trace/session_int.h"

#define MAX_CPUS 1024           /* size of bpf.c's events map */
#define FD_ENTRIES 65536
#define PROC_ENTRIES 16384
#define CANON_ENTRIES 16384     /* opened paths whose canonical name is cached */
#define SUMMARY_NS 1000000000ull /* the summary map is read this often */
#define REFLUSH_ROUNDS 4        /* drains per step while full rings give back batches */
/* A ring more than 1/RING_COPY_ABOVE full is copied out, not read in
 * place: its space goes back before pairing. Not a quarter, the wake-up
 * watermark: then 42% of the bytes were copied at 0.55 M pairs/s, and
 * ior took 7% more CPU a pair (-flamegraph, perf samples). */
#define RING_COPY_ABOVE 2

/* ---- bring-up ------------------------------------------------------------ */

/* One ring per online CPU, stored in the events map at the CPU's index.
 * Without the possible list, the configured count. */
static int open_rings(struct ior_session *s, char *err, size_t errlen)
{
	long ncpu = ior_possible_cpus(-1, NULL);
	int map = ior_loader_map_fd(s->probe.obj, "events");

	ncpu = ncpu > 0 ? ncpu : sysconf(_SC_NPROCESSORS_CONF);
	ncpu = ncpu < 1 ? 1 : ncpu > MAX_CPUS ? MAX_CPUS : ncpu;
	if (map < 0)
		return snprintf(err, errlen, "map 'events': not in the BPF object: %s", strerror(-map)), map;
	s->rings = calloc((size_t)ncpu, sizeof *s->rings);
	s->ring_cpu = calloc((size_t)ncpu, sizeof *s->ring_cpu);
	s->ring_full = calloc((size_t)ncpu, 1);
	if (!s->rings || !s->ring_cpu || !s->ring_full)
		return snprintf(err, errlen, "out of memory for %ld rings", ncpu), -ENOMEM;
	for (int cpu = 0; cpu < ncpu; cpu++) {
		struct ior_ring *r = &s->rings[s->nrings];
		uint32_t key = (uint32_t)cpu;
		uint64_t size = s->cfg.ring_bytes;
		int e = ior_ring_open(r, cpu, size, (uint32_t)(size / 4), err, errlen);
		if (e == -ENODEV || e == -EINVAL) /* offline CPU: nothing runs there */
			continue;
		if (e < 0)
			return e;
		e = ior_sys_map_update_elem(map, &key, &r->fd, 0);
		if (e < 0) {
			snprintf(err, errlen, "map 'events': storing the ring of CPU %d: %s", cpu, strerror(-e));
			ior_ring_close(r);
			return e;
		}
		s->ring_cpu[s->nrings++] = cpu;
	}
	if (!s->nrings)
		return snprintf(err, errlen, "no perf ring could be opened"), -ENODEV;
	return 0;
}

static void sink_pair(void *ctx, const struct ior_event_pair *p)
{
	struct ior_session *s = ctx;

	for (unsigned i = 0; i < s->nsinks; i++)
		s->sinks[i].pair(s->sinks[i].ctx, p);
}

static void sink_block(void *ctx, const struct ior_block_req *r)
{
	struct ior_session *s = ctx;

	for (unsigned i = 0; i < s->nsinks; i++)
		if (s->sinks[i].block)
			s->sinks[i].block(s->sinks[i].ctx, r);
}

static const char *canon_path(void *ctx, const char *path, uint32_t kdev, uint64_t ino, const char *leaf)
{
	return ior_canon_get(ctx, path, kdev, ino, leaf);
}

static int open_pairing(struct ior_session *s, char *err, size_t errlen)
{
	struct ior_pair_cfg pc = { NULL, s->cfg.path_filter, sink_pair, s, s->cfg.probe.sel, NULL, NULL, sink_block };
	size_t arena = 2 * s->nrings * s->cfg.ring_bytes;

	arena = arena < (1u << 20) ? (1u << 20) : arena > (256u << 20) ? (256u << 20) : arena;
	s->merge = ior_merge_new(s->nrings, arena);
	s->fds = ior_fdtab_new(FD_ENTRIES, PROC_ENTRIES);
	if (s->probe.file_idents && !(s->canon = ior_canon_new(CANON_ENTRIES, s->probe.use_btf)))
		return snprintf(err, errlen, "out of memory for the pairing"), -ENOMEM;
	pc.fds = s->fds;
	pc.canon = s->canon ? canon_path : NULL;
	pc.canon_ctx = s->canon;
	s->pairer = s->fds ? ior_pair_new(&pc) : NULL;
	if (!s->merge || !s->pairer)
		return snprintf(err, errlen, "out of memory for the pairing"), -ENOMEM;
	return 0;
}

int ior_session_open(struct ior_session **out, const struct ior_session_cfg *cfg, char *err,
		     size_t errlen)
{
	struct ior_session *s = calloc(1, sizeof *s);
	int r;

	*out = s;
	if (!s)
		return snprintf(err, errlen, "out of memory"), -ENOMEM;
	s->cfg = *cfg;
	s->probe.flush_fd = s->probe.enter_fd = s->probe.submit_fd = s->probe.failed_fd = s->probe.aio_submit_fd = -1;
	if ((r = ior_probe_load(&s->probe, &cfg->probe, err, errlen)) < 0)
		return r;
	if (cfg->probe.empty)
		return 0;
	if ((r = open_rings(s, err, errlen)) < 0)
		return r;
	return open_pairing(s, err, errlen);
}

int ior_session_add_sink(struct ior_session *s, struct ior_sink sink)
{
	if (s->nsinks == IOR_MAX_SINKS)
		return -ENOSPC;
	s->sinks[s->nsinks++] = sink;
	return 0;
}

int ior_session_attach(struct ior_session *s, char *err, size_t errlen)
{
	int r = ior_probe_attach(&s->probe, err, errlen);

	s->start_ns = ior_mono_ns();
	return r;
}

static void drain(struct ior_session *s, uint64_t watermark);

/* Drains the rings while the snapshot reads /proc: the records it leaves
 * alone belong to processes whose snapshot is registered already. */
static void snapshot_tick(void *ctx)
{
	struct ior_session *s = ctx;

	ior_session_flush_batches(s);
	drain(s, ior_mono_ns() - IOR_SESSION_SLACK_NS);
}

int ior_session_snapshot(struct ior_session *s, int64_t pid, int64_t tid, const char *comm)
{
	struct ior_snapshot_scope sc = { pid, tid, comm, (uint32_t)getpid() };
	int r;

	if (!s->fds)
		return 0;
	r = ior_snapshot_take(s->fds, &sc, snapshot_tick, s, &s->snap);
	if (!r && !s->probe.task_offsets)
		ior_log(IOR_LOG_WARN, "task_struct's layout is unknown (no kernel BTF): forks are not "
				    "tracked, so descriptors a new process inherits show without a path");
	s->start_ns = ior_mono_ns();
	return r;
}

/* ---- the drain ------------------------------------------------------------ */

size_t ior_session_pollfds(const struct ior_session *s, struct pollfd *pfd, size_t cap)
{
	size_t n = 0;

	for (unsigned i = 0; i < s->nrings && n < cap; i++)
		pfd[n++] = (struct pollfd){ .fd = s->rings[i].fd, .events = POLLIN };
	return n;
}

static void deliver(void *ctx, const void *rec, size_t len)
{
	struct ior_session *s = ctx;
	ior_pair_feed(s->pairer, rec, len);
}

/* One perf sample: its records go into the merge whole or not at all;
 * 1 when the merge is full (flush, then read the sample again). */
int ior_session_push(struct ior_session *s, unsigned src, const void *raw, size_t len)
{
	int r = ior_merge_push_sample(s->merge, src, raw, len);

	if (r == -ENOSPC)
		return s->merge_full = 1;
	if (r == -EBADMSG)
		s->malformed_samples++;
	return 0;
}

struct push_ctx {
	struct ior_session *s;
	unsigned src;
	int copy;
};

/* A sample in the ring is indexed where it is; one wrapping the ring's
 * end (in the reader's scratch) is copied, and so is a ring's that was
 * filling up: the kernel gets its space back at once, not after pairing. */
static int push(void *ctx, const void *raw, size_t len, uint64_t pos, int in_place)
{
	struct push_ctx *c = ctx;
	if (!in_place || c->copy)
		return ior_session_push(c->s, c->src, raw, len);
	int r = ior_merge_push_ref(c->s->merge, c->src, raw, len, pos);
	if (r == -ENOSPC)
		return c->s->merge_full = 1;
	if (r == -EBADMSG)
		c->s->malformed_samples++;
	return 0;
}

/* The merge's flush, then the ring space of what it delivered goes back
 * to the kernel. */
static void flush(struct ior_session *s, uint64_t watermark)
{
	ior_merge_flush(s->merge, watermark, deliver, s);
	for (unsigned i = 0; i < s->nrings; i++)
		ior_ring_release(&s->rings[i], ior_merge_held_pos(s->merge, i));
}

void ior_session_deliver_all(struct ior_session *s)
{
	flush(s, UINT64_MAX);
}

static void drain_rings(struct ior_session *s, uint64_t watermark)
{
	for (unsigned i = 0; i < s->nrings; i++) {
		struct ior_ring *r = &s->rings[i];
		struct push_ctx ctx = { s, i, ior_ring_pending(r) > r->size / RING_COPY_ABOVE };
		for (;;) {
			s->merge_full = 0;
			ior_ring_read(r, push, &ctx);
			if (ctx.copy)
				ior_ring_release(r, ior_merge_held_pos(s->merge, i));
			if (!s->merge_full)
				break;
			size_t held = ior_merge_pending(s->merge);
			flush(s, watermark);
			if (ior_merge_pending(s->merge) * 4 > held * 3) {
				/* mostly records newer than the watermark: give up
				 * their ordering rather than stall the rings */
				s->forced_flushes++;
				ior_session_deliver_all(s);
			}
		}
	}
}

/* Delivers what every ring has caught up with: records older than the
 * watermark. A CPU whose ring was full holds a batch of older records:
 * it is sent once its ring was read, and read before the watermark
 * passes it. */
static void drain(struct ior_session *s, uint64_t watermark)
{
	if (s->canon && s->probe.use_btf) /* name changes up to now, before the records older than now */
		ior_canon_generation(s->canon, ior_session_counter(s, "names_changed"));
	drain_rings(s, watermark);
	for (int n = 0; n < REFLUSH_ROUNDS && ior_session_reflush_full(s); n++)
		drain_rings(s, watermark);
	flush(s, watermark);
}

static int tick_sinks(struct ior_session *s, uint64_t now)
{
	for (unsigned i = 0; i < s->nsinks && !s->sink_error; i++) {
		int r = s->sinks[i].tick ? s->sinks[i].tick(s->sinks[i].ctx, now) : 0;
		if (r < 0)
			s->sink_error = r;
	}
	return s->sink_error;
}

int ior_session_step(struct ior_session *s, uint64_t now)
{
	if (!s->nrings)
		return tick_sinks(s, now);
	ior_session_flush_batches(s);
	drain(s, now - IOR_SESSION_SLACK_NS);
	if (now - s->sums_read_ns >= SUMMARY_NS)
		ior_session_read_summaries(s, now);
	return tick_sinks(s, now);
}

void ior_session_stop(struct ior_session *s)
{
	uint64_t enters_gone = ior_probe_detach(&s->probe);

	if (s->pairer)
		ior_pair_stop_enters(s->pairer, enters_gone);
	s->stop_ns = ior_mono_ns();
	if (!s->nrings)
		return;
	ior_session_flush_batches(s);
	drain(s, s->stop_ns - IOR_SESSION_SLACK_NS);
	ior_session_push_leftovers(s);
	drain(s, UINT64_MAX);
	s->summary_in_flight = ior_session_end_open_streaks(s) + ior_session_async_folded_in_flight(s);
	ior_session_read_summaries(s, s->stop_ns);
	tick_sinks(s, s->stop_ns);
}

size_t ior_session_in_flight(const struct ior_session *s, struct ior_in_flight *out, size_t max)
{
	return s->pairer ? ior_pair_in_flight(s->pairer, out, max) : 0;
}

const struct ior_probe *ior_session_probe(const struct ior_session *s)
{
	return &s->probe;
}

unsigned ior_session_cpus(const struct ior_session *s)
{
	long n = ior_possible_cpus(-1, NULL);
	return s->nrings ? s->nrings : n > 0 ? (unsigned)n : (unsigned)sysconf(_SC_NPROCESSORS_CONF);
}

uint64_t ior_session_started(const struct ior_session *s)
{
	return s->start_ns;
}

void ior_session_free(struct ior_session *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->nrings; i++)
		ior_ring_close(&s->rings[i]);
	ior_pair_free(s->pairer);
	ior_fdtab_free(s->fds);
	ior_canon_free(s->canon);
	ior_merge_free(s->merge);
	ior_probe_close(&s->probe);
	free(s->rings);
	free(s->ring_cpu);
	free(s->ring_full);
	ior_sumtab_free(s->sums);
	free(s);
}
