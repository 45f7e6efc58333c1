/* While a CPU's batch is held (its ring full), the pairs of foldable
 * syscalls are summarized instead of recorded: per thread, a streak in
 * the pending map while it lasts, then one struct ior_rec_streak; per
 * pid, tid, syscall and fd, totals in the summary map (bpf/event.h). */
#ifndef IOR_BPF_SUMMARY_H
#define IOR_BPF_SUMMARY_H

#include "bpf/event.h"
#include "bpf/helpers.h"
#include "bpf/maps.h"
#include "bpf/batch.h"
#include "bpf/record.h"

/* tid's streak in progress, if any; no lookup while there is none. */
INLINE struct ior_pending *pending_get(__u32 tid)
{
	if (!*(volatile __u64 *)&pending_n)
		return NULL;
	return bpf_map_lookup_elem(&pending, &tid);
}

/* Ends tid's streak: a struct ior_rec_streak goes into the claimed batch
 * (room permitting) before the thread's next record. */
INLINE void streak_end(struct ior_batch *b, struct ior_pending *pe, __u64 pid_tgid)
{
	__u32 tid = (__u32)pid_tgid;

	if (batch_has_room(b)) {
		struct ior_rec_streak *r = batch_slot(b);
		fill_head(&r->h, pid_tgid, IOR_REC_STREAK, pe->first_nr, sizeof *r);
		r->first_enter = pe->first_enter;
		r->last_exit = pe->last_exit;
		r->first_fd = pe->first_fd;
		r->pairs = pe->pairs;
		batch_append(b, sizeof *r);
	} else {
		__sync_fetch_and_add(&reserve_full, 1);
	}
	if (!bpf_map_delete_elem(&pending, &tid))
		__sync_fetch_and_add(&pending_n, -1);
}

/* An enter on a CPU whose ring is full: remembered for its exit. */
INLINE void summarize_enter(struct ior_pending *pe, __u64 pid_tgid, __u32 nr, __s64 fd,
			    const __u64 *comm)
{
	__u32 tid = (__u32)pid_tgid;
	__u64 now = bpf_ktime_get_ns();

	if (!pe) {
		struct ior_pending fresh = {};
		fresh.first_enter = now;
		fresh.first_nr = (__u16)nr;
		fresh.first_fd = (__s32)fd;
		fresh.pid = pid_tgid >> 32;
		if (bpf_map_update_elem(&pending, &tid, &fresh, BPF_NOEXIST)) {
			__sync_fetch_and_add(&summary_full, 1);
			return;
		}
		__sync_fetch_and_add(&pending_n, 1);
		if (!(pe = bpf_map_lookup_elem(&pending, &tid)))
			return;
	}
	pe->open = 1;
	pe->enter_ns = now;
	pe->gap_ns = pe->last_exit && now > pe->last_exit ? now - pe->last_exit : 0;
	pe->nr = (__u16)nr;
	pe->fd = (__s32)fd;
	__builtin_memcpy(pe->comm, comm, IOR_COMM_LEN);
}

/* The exit of a summarized enter: the pair goes into the summary map. */
INLINE void summarize_exit(struct ior_pending *pe, __u64 pid_tgid, __s64 ret,
			   const struct ior_sys_conf *c)
{
	__u64 now = bpf_ktime_get_ns();
	struct ior_sum_key k = { pid_tgid >> 32, (__u32)pid_tgid, pe->nr, pe->fd };
	struct ior_sum_val *v = bpf_map_lookup_elem(&summary, &k);

	pe->open = 0;
	if (!v) {
		struct ior_sum_val fresh = {};
		__builtin_memcpy(fresh.comm, pe->comm, IOR_COMM_LEN);
		fresh.first_enter = pe->enter_ns;
		bpf_map_update_elem(&summary, &k, &fresh, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&summary, &k);
	}
	if (!v) {
		__sync_fetch_and_add(&summary_full, 1);
		return;
	}
	v->pairs++;
	if (c->ret_is_bytes && ret > 0)
		v->bytes += ret;
	v->duration_ns += now > pe->enter_ns ? now - pe->enter_ns : 0;
	v->gap_ns += pe->gap_ns;
	if (ret < 0)
		v->errors++;
	v->last_exit = now;
	pe->last_exit = now;
	pe->pairs++;
}

#endif
