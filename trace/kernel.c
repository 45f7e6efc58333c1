/* What the session reads back from bpf.c beyond the rings: the CPUs'
 * batches (sent by running ior_flush on each CPU, or read at stop), the
 * summary map, the streaks still open, the counters. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/loader.h"
#include "trace/session_int.h"

#define FLUSH_TRIES 1000 /* ior_flush retries while a CPU's batch is busy */

/* A counter bpf.c keeps in .bss; 0 when it cannot be read (warned). */
uint64_t ior_session_counter(struct ior_session *s, const char *name)
{
	uint64_t v;

	if (ior_probe_counter(&s->probe, name, &v, s->err, sizeof s->err) < 0)
		ior_log(IOR_LOG_WARN, "%s; statistics may be short", s->err);
	return v;
}

/* ior_flush on cpu: 0 with *busy 0 (sent), 2 (its ring is full: the batch
 * is held), 1 (busy after every try); or -errno. */
static int flush_cpu(struct ior_session *s, int cpu, uint32_t *busy)
{
	int r = 0;

	*busy = 1;
	for (int n = 0; n < FLUSH_TRIES && *busy == 1 && !r; n++)
		r = ior_sys_prog_run_on_cpu(s->probe.flush_fd, cpu, busy);
	return r;
}

/* Sends what each CPU's batch holds to its ring, so a drain that starts
 * afterwards sees every record older than the call. */
void ior_session_flush_batches(struct ior_session *s)
{
	for (unsigned i = 0; i < s->nrings && s->probe.flush_fd >= 0; i++) {
		uint32_t busy;
		int r = flush_cpu(s, s->ring_cpu[i], &busy);
		if (r == -ENXIO) /* went offline: nothing runs there */
			continue;
		if (r < 0 && !s->flush_error) {
			s->flush_error = -r;
			ior_log(IOR_LOG_WARN, "flushing the BPF batch of CPU %d: %s; records wait until "
					    "the batch fills", s->ring_cpu[i], strerror(-r));
		}
		if (!r && busy == 1)
			s->flush_busy++;
		s->ring_full[i] = !r && busy == 2;
	}
}

/* Offers the held batches again now that their rings were read; 1 when
 * any was. */
int ior_session_reflush_full(struct ior_session *s)
{
	int again = 0;

	for (unsigned i = 0; i < s->nrings && s->probe.flush_fd >= 0; i++) {
		uint32_t busy;
		if (!s->ring_full[i])
			continue;
		int r = flush_cpu(s, s->ring_cpu[i], &busy);
		s->ring_full[i] = !r && busy == 2;
		again = 1;
	}
	return again;
}

/* At stop, after detach: what the CPUs' batches still hold, read from the
 * map and merged after the rest of each CPU's records. Nothing when the
 * last ior_flush worked; on kernels where it cannot run (< 5.10) these
 * are the records of each CPU's last partial batch. */
void ior_session_push_leftovers(struct ior_session *s)
{
	int fd = ior_loader_map_fd(s->probe.obj, "batches");
	long ncpu = ior_possible_cpus(-1, NULL); /* the kernel writes this many values */
	size_t stride = (sizeof(struct ior_batch) + 7) & ~(size_t)7;
	uint32_t zero = 0;
	char *all;
	int r;

	if (fd < 0)
		return;
	if (ncpu <= 0) {
		ior_log(IOR_LOG_WARN, "/sys/devices/system/cpu/possible unreadable: records the CPUs' "
				    "batches held at stop are not read (mount sysfs)");
		return;
	}
	all = calloc((size_t)ncpu, stride);
	r = all ? ior_sys_map_lookup_elem(fd, &zero, all) : -ENOMEM;
	if (r) {
		ior_log(IOR_LOG_WARN, "reading the BPF batches at stop: %s; records a CPU had not sent "
				    "yet are missing", strerror(-r));
		free(all);
		return;
	}
	for (unsigned i = 0; i < s->nrings; i++) {
		long at;
		ior_possible_cpus(s->ring_cpu[i], &at);
		if (at < 0 || at >= ncpu)
			continue;
		const struct ior_batch *b = (const void *)(all + (size_t)at * stride);
		uint32_t len = b->len < IOR_BATCH_BYTES ? b->len : IOR_BATCH_BYTES;
		if (len && ior_session_push(s, i, b->data, len)) { /* merge full: deliver, then again */
			ior_session_deliver_all(s);
			ior_session_push(s, i, b->data, len);
		}
	}
	free(all);
}

/* Delivers what the kernel summarized since the last read, as summary
 * rows named by the fd table now. Read only once a ring was ever full. */
void ior_session_read_summaries(struct ior_session *s, uint64_t now)
{
	int fd = ior_loader_map_fd(s->probe.obj, "summary");
	struct ior_sum_key k, next;
	const struct ior_sum_key *prev = NULL;

	s->sums_read_ns = now;
	if (fd < 0 || !ior_session_counter(s, "held_batches"))
		return;
	if (!s->sums && !(s->sums = ior_sumtab_new()))
		return;
	while (!ior_sys_map_get_next_key(fd, prev, &next)) {
		struct ior_sum_val v, d;
		int r;
		k = next;
		prev = &k;
		if (ior_sys_map_lookup_elem(fd, &k, &v))
			continue;
		r = ior_sumtab_delta(s->sums, &k, &v, &d);
		if (r > 0)
			ior_pair_summary(s->pairer, &k, &d, now);
		else if (r < 0)
			s->sums_untracked++;
	}
}

/* At stop: streaks no later record of their thread ended (it made no
 * syscall since), ended here as the kernel would have; returns the
 * summarized enters still open. */
uint64_t ior_session_end_open_streaks(struct ior_session *s)
{
	int fd = ior_loader_map_fd(s->probe.obj, "pending");
	uint32_t tid, next;
	const uint32_t *prev = NULL;
	uint64_t open = 0;

	while (fd >= 0 && !ior_sys_map_get_next_key(fd, prev, &next)) {
		struct ior_pending pe;
		struct ior_rec_streak r = { 0 };
		tid = next;
		prev = &tid;
		if (ior_sys_map_lookup_elem(fd, &tid, &pe))
			continue;
		open += pe.open;
		r.h = (struct ior_rec_head){ .ts = s->stop_ns, .pid = pe.pid, .tid = tid,
					     .kind = IOR_REC_STREAK, .nr = pe.first_nr, .len = sizeof r };
		r.first_enter = pe.first_enter;
		r.last_exit = pe.last_exit;
		r.first_fd = pe.first_fd;
		r.pairs = pe.pairs;
		ior_pair_feed(s->pairer, &r, sizeof r);
	}
	return open;
}

/* Async ops summarized at submission (their CPU's ring was full) and not
 * completed by now: the kernel still holds them (async_reqs); their pairs
 * never come, so they are counted as summarized enters in flight. */
uint64_t ior_session_async_folded_in_flight(struct ior_session *s)
{
	int fd = ior_loader_map_fd(s->probe.obj, "async_reqs");
	struct ior_async_key key, next;
	const struct ior_async_key *prev = NULL;
	uint64_t n = 0;

	while (fd >= 0 && !ior_sys_map_get_next_key(fd, prev, &next)) {
		struct ior_async_start st;
		key = next;
		prev = &key;
		if (!ior_sys_map_lookup_elem(fd, &key, &st))
			n += st.folded;
	}
	return n;
}

/* Records lost on their way to user space: dropped because their CPU's
 * batch was busy (*busy), or because the reserve or the summary maps
 * were full, or summaries user space could not track. */
uint64_t ior_session_lost(struct ior_session *s, uint64_t *busy)
{
	*busy = ior_session_counter(s, "batch_busy_records");
	return *busy + ior_session_counter(s, "reserve_full") + ior_session_counter(s, "summary_full") +
	       s->sums_untracked;
}
