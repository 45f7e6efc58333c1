/* Async operations (io_uring requests, libaio iocbs): one pair each.
 * The submission is recorded by the submitting thread and remembered in
 * async_reqs by request pointer; the completion, wherever it runs,
 * finds it there and is charged to that thread. While the CPU's ring
 * is full, a foldable op is summarized like a syscall (its summary key's
 * nr is the op's), with atomic adds: completions of one key can run on
 * several CPUs at once. */
#ifndef IOR_BPF_ASYNC_H
#define IOR_BPF_ASYNC_H

#include "bpf/event.h"
#include "bpf/helpers.h"
#include "bpf/maps.h"
#include "bpf/batch.h"
#include "bpf/record.h"
#include "bpf/task.h"

/* The op's conf if it is traced. */
INLINE const struct ior_async_conf *async_traced(__u32 nr)
{
	__u32 i = nr - IOR_NR_URING;
	const struct ior_async_conf *c = bpf_map_lookup_elem(&async_conf, &i);

	return c && c->traced ? c : NULL;
}

/* A field of a classic tracepoint's record at an offset from BTF. */
INLINE __u64 tp_u64(void *ctx, __u32 off)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof v, (const char *)ctx + off);
	return v;
}

INLINE __u32 tp_u32(void *ctx, __u32 off)
{
	__u32 v = 0;

	bpf_probe_read_kernel(&v, sizeof v, (const char *)ctx + off);
	return v;
}

/* Whom an op is charged to when not the current task (io_uring's SQPOLL
 * thread submits for the ring's owner). */
struct ior_async_who {
	__u64 pid_tgid;
	char comm[IOR_COMM_LEN];
};

/* Remembers the op and claims the batch for its submit record: the
 * record's slot, or NULL when none goes out (not wanted, the map is
 * full, the batch busy; or folded: the ring is full and the op may be
 * summarized). *b is the claimed batch when a slot is returned. who:
 * the task charged, NULL for the current one. */
INLINE struct ior_rec_async_submit *async_submit(void *ctx, const struct ior_async_key *key, __u32 nr, __s32 fd,
						 const struct ior_async_conf *c, struct ior_batch **b,
						 const struct ior_async_who *who)
{
	__u64 pid_tgid = who ? who->pid_tgid : bpf_get_current_pid_tgid();
	struct ior_async_start st = { .pid_tgid = pid_tgid, .fd = fd, .nr = (__u16)nr };
	struct ior_rec_async_submit *r;

	if (!pid_wanted(pid_tgid))
		return NULL;
	if (who)
		__builtin_memcpy(st.comm, who->comm, IOR_COMM_LEN);
	else
		bpf_get_current_comm(st.comm, sizeof st.comm);
	if (!comm_wanted(st.comm) || !(*b = batch_get()))
		return NULL;
	if (!batch_claim(ctx, *b)) {
		batch_busy_drop();
		return NULL;
	}
	st.enter_ns = bpf_ktime_get_ns();
	st.folded = (((*b)->held || held_now > 0) && c->fold) || !batch_has_room(*b);
	if (bpf_map_update_elem(&async_reqs, key, &st, BPF_ANY)) {
		__sync_fetch_and_add(&async_full, 1);
		batch_release(*b);
		return NULL;
	}
	if (st.folded) {
		batch_release(*b);
		return NULL;
	}
	r = batch_slot(*b);
	fill_head(&r->h, pid_tgid, IOR_REC_ASYNC_SUBMIT, nr, IOR_REC_ASYNC_SUBMIT_BASE);
	r->h.ts = st.enter_ns;
	r->key = key->ptr;
	r->ring = 0;
	r->fd = fd;
	r->sqe_flags = 0;
	__builtin_memcpy(r->comm, st.comm, IOR_COMM_LEN);
	r->flags = 0;
	r->dirfd = -1;
	r->file_slot = 0;
	r->path_len[0] = r->path_len[1] = 0;
	r->cut = 0;
	r->npaths = 0;
	r->pad = 0;
	return r;
}

/* The op of key went somewhere (IOR_WENT_*) on its way to completion. */
INLINE void async_went(const struct ior_async_key *key, __u8 bit)
{
	struct ior_async_start *st = bpf_map_lookup_elem(&async_reqs, key);

	if (st)
		st->went |= bit; /* one request's steps do not race */
}

/* The pair of a folded op goes into the summary map. */
INLINE void async_summarize(const struct ior_async_start *st, __s64 res, __u64 now,
			    const struct ior_async_conf *c)
{
	struct ior_sum_key k = { st->pid_tgid >> 32, (__u32)st->pid_tgid, st->nr, st->fd };
	struct ior_sum_val *v = bpf_map_lookup_elem(&summary, &k);

	if (!v) {
		struct ior_sum_val fresh = {};
		__builtin_memcpy(fresh.comm, st->comm, IOR_COMM_LEN);
		fresh.first_enter = st->enter_ns;
		bpf_map_update_elem(&summary, &k, &fresh, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&summary, &k);
	}
	if (!v) {
		__sync_fetch_and_add(&summary_full, 1);
		return;
	}
	__sync_fetch_and_add(&v->pairs, 1);
	if (c && c->ret_is_bytes && res > 0)
		__sync_fetch_and_add(&v->bytes, res);
	__sync_fetch_and_add(&v->duration_ns, now > st->enter_ns ? now - st->enter_ns : 0);
	if (res < 0)
		__sync_fetch_and_add(&v->errors, 1);
	v->last_exit = now; /* the latest, give or take a racing CPU */
}

/* The op of key completed with res: a done record for the submitter (or
 * a summary); more: enum ior_async_done (with IOR_ASYNC_DONE_MORE the
 * entry stays, restarted). */
INLINE void async_done(void *ctx, const struct ior_async_key *key, __s64 res, int more)
{
	struct ior_async_start *st = bpf_map_lookup_elem(&async_reqs, key);
	struct ior_rec_async_done *r;
	struct ior_batch *b;
	__u64 now;

	if (!st)
		return;
	now = bpf_ktime_get_ns();
	if (st->folded && more == IOR_ASYNC_DONE_WITHDRAWN) {
		bpf_map_delete_elem(&async_reqs, key); /* no record of it went out */
		return;
	}
	if (st->folded) {
		async_summarize(st, res, now, async_traced(st->nr));
	} else if ((b = batch_get())) {
		if (!batch_claim(ctx, b)) {
			batch_busy_drop();
		} else if (!batch_has_room(b)) {
			reserve_drop(b);
		} else {
			r = batch_slot(b);
			fill_head(&r->h, st->pid_tgid, IOR_REC_ASYNC_DONE, st->nr, sizeof *r);
			r->h.ts = now;
			r->key = key->ptr;
			r->res = res;
			r->more = more;
			r->where = st->nr >= IOR_NR_AIO ? IOR_WHERE_NONE :
				   (st->went & IOR_WENT_WQ) ? IOR_WHERE_WQ :
				   (st->went & IOR_WENT_POLL) ? IOR_WHERE_POLL : IOR_WHERE_INLINE;
			batch_commit(b, sizeof *r);
		}
	}
	if (more == IOR_ASYNC_DONE_MORE)
		st->enter_ns = now;
	else
		bpf_map_delete_elem(&async_reqs, key);
}

#endif
