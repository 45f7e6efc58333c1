/* A CPU's batch of records (the batches map; bpf/maps.h says why they are
 * batched): claimed by one program at a time, appended to in place, sent
 * to the CPU's perf ring when the next record might not fit, and held,
 * not dropped, while the ring is full. */
#ifndef IOR_BPF_BATCH_H
#define IOR_BPF_BATCH_H

#include "bpf/event.h"
#include "bpf/helpers.h"
#include "bpf/maps.h"

/* 0 when the ring took the batch (now empty); else the batch stays. */
INLINE long batch_send(void *ctx, struct ior_batch *b)
{
	__u32 len = b->len;
	long r = 0;

	if (len > IOR_BATCH_BYTES)
		len = IOR_BATCH_BYTES;
	if (len)
		r = bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, b->data, len);
	if (r)
		return r;
	if (b->held)
		__sync_fetch_and_add(&held_now, -1);
	b->len = 0;
	b->nrec = 0;
	b->held = 0;
	return 0;
}

INLINE void batch_hold(struct ior_batch *b)
{
	b->held = 1;
	__sync_fetch_and_add(&held_batches, 1);
	__sync_fetch_and_add(&held_now, 1);
}

INLINE struct ior_batch *batch_get(void)
{
	__u32 zero = 0;
	return bpf_map_lookup_elem(&batches, &zero);
}

/* A held batch is offered again this often (each refusal costs a failed
 * perf output); ior_flush offers it after every drain too. */
#define RESEND_NS 100000

/* Sends the batch when full; a ring without room keeps it (held) and
 * the CPU summarizes until a resend is taken: nothing in it is lost. */
INLINE void batch_make_room(void *ctx, struct ior_batch *b)
{
	if (b->held) {
		__u64 now = bpf_ktime_get_ns();
		if (now < b->retry_ns)
			return;
		if (batch_send(ctx, b)) {
			__sync_fetch_and_add(&resend_refused, 1);
			b->retry_ns = now + RESEND_NS;
		}
		return;
	}
	if (b->len >= IOR_BATCH_FILL && batch_send(ctx, b)) {
		batch_hold(b);
		b->retry_ns = bpf_ktime_get_ns() + RESEND_NS;
	}
}

/* Claims the CPU's batch and makes room when it is full.
 * 0 when another program holds it: the one this program interrupted.
 * Only programs on this CPU touch its batch, and the only one that can
 * interrupt another is ior_flush (an IPI; syscall tracepoints run their
 * programs with preemption off), which runs to completion: so a plain
 * test and set suffices. A lock cmpxchg cost ~10% of a program here. */
INLINE int batch_claim(void *ctx, struct ior_batch *b)
{
	if (*(volatile __u32 *)&b->busy)
		return 0;
	*(volatile __u32 *)&b->busy = 1;
	asm volatile("" ::: "memory");
	batch_make_room(ctx, b);
	return 1;
}

/* Room for one more record of any size: always unless held and the
 * reserve is used up. */
INLINE int batch_has_room(const struct ior_batch *b)
{
	return b->len <= IOR_BATCH_BYTES - IOR_REC_MAX;
}

/* A wanted record the busy batch could not take. */
INLINE void batch_busy_drop(void)
{
	__sync_fetch_and_add(&batch_busy_records, 1);
}

/* Where the claimed batch's next record goes (the bound is for the
 * verifier: callers checked batch_has_room). */
INLINE void *batch_slot(struct ior_batch *b)
{
	__u32 off = b->len;

	if (off > IOR_BATCH_BYTES - IOR_REC_MAX)
		off = 0;
	return b->data + off;
}

INLINE void batch_release(struct ior_batch *b)
{
	asm volatile("" ::: "memory");
	*(volatile __u32 *)&b->busy = 0;
}

/* Appends the record written at batch_slot (len bytes, 8-byte aligned
 * stride), keeping the batch claimed. */
INLINE void batch_append(struct ior_batch *b, __u32 len)
{
	b->len += (len + 7) & ~7u;
	b->nrec++;
}

/* Appends and releases. */
INLINE void batch_commit(struct ior_batch *b, __u32 len)
{
	batch_append(b, len);
	batch_release(b);
}

/* A record the held batch had no room for. */
INLINE void reserve_drop(struct ior_batch *b)
{
	__sync_fetch_and_add(&reserve_full, 1);
	batch_release(b);
}

/* The slot of a rare record (process lifecycle, registered files) in the
 * claimed batch, or NULL (busy or no room: counted). Batched like the
 * exits, and written with helpers, for every program family. */
INLINE void *lifecycle_slot(void *ctx, struct ior_batch **b)
{
	if (!(*b = batch_get()))
		return NULL;
	if (!batch_claim(ctx, *b)) {
		batch_busy_drop();
		return NULL;
	}
	if (!batch_has_room(*b)) {
		reserve_drop(*b);
		return NULL;
	}
	return batch_slot(*b);
}

/* The slot of a record from a program that can interrupt another on its
 * CPU (a block request completes in interrupt context, often while a
 * syscall's program holds the batch): with the batch busy it goes to the
 * ring alone, from alone (the merge orders each ring by time, and the
 * batch it overtook is older); NULL when the batch has no room. */
INLINE void *irq_slot(void *ctx, struct ior_batch **b, void *alone)
{
	if (!(*b = batch_get()))
		return NULL;
	if (!batch_claim(ctx, *b)) {
		*b = NULL;
		return alone;
	}
	if (!batch_has_room(*b)) {
		reserve_drop(*b);
		return NULL;
	}
	return batch_slot(*b);
}

/* Commits irq_slot's record: into the batch, or alone to the ring (lost,
 * and counted, only when the ring is full). */
INLINE void irq_commit(void *ctx, struct ior_batch *b, void *rec, __u32 len)
{
	if (b)
		batch_commit(b, len);
	else if (bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, rec, len))
		batch_busy_drop();
}

#endif
