/* Block requests (block:block_io_start, block_rq_insert, block_rq_issue,
 * block_rq_complete), read at the offsets user space found for this
 * kernel's records. The records carry no request pointer: a request is
 * known by disk, first sector and operation until it completes, then one
 * struct ior_rec_block goes out, charged to the thread that was running
 * when it was first seen. Not filtered by pid or comm: a device's totals
 * are every process's (user space attributes them). These programs fire
 * per request; the syscall programs pay nothing for them. */
#ifndef IOR_BPF_BLOCK_H
#define IOR_BPF_BLOCK_H

#include "bpf/event.h"
#include "bpf/helpers.h"
#include "bpf/maps.h"
#include "bpf/batch.h"
#include "bpf/async.h"
#include "bpf/task.h"
#include "bpf/record.h"

enum blk_point { BLK_START, BLK_INSERT, BLK_ISSUE };

/* The operation letter of an rwbs: a leading F is PREFLUSH, unless the
 * op itself is the flush ("F", "FF"). */
INLINE __u32 blk_op(const char *rwbs)
{
	if (rwbs[0] == 'F' && rwbs[1] && rwbs[1] != 'F')
		return (__u8)rwbs[1];
	return (__u8)rwbs[0];
}

INLINE void blk_read_key(void *ctx, __u32 dev_off, __u32 sector_off, __u32 rwbs_off,
			 struct ior_blk_key *k, char *rwbs)
{
	k->dev = tp_u32(ctx, dev_off);
	k->sector = tp_u64(ctx, sector_off);
	bpf_probe_read_kernel(rwbs, 8, (const char *)ctx + rwbs_off);
	k->op = blk_op(rwbs);
	if (k->op == 'F') /* a flush has no sector: its completion says -1, its issue 0 */
		k->sector = 0;
}

/* A request with PREFLUSH (rwbs "FW...") waits for a flush the flush
 * machinery issues later, often from kblockd: that flush is charged to
 * the latest such request's thread on the device (the machinery merges
 * concurrent ones into one flush). */
INLINE void blk_flush_owner(const struct ior_blk_key *k, const char *rwbs, const struct ior_blk_start *st)
{
	if (rwbs[0] == 'F' && k->op != 'F')
		bpf_map_update_elem(&blk_flush_owners, &k->dev, st, BPF_ANY);
}

/* The thread a flush is charged to, into fresh: its owner's, else the
 * current one's. */
INLINE void blk_submitter(const struct ior_blk_key *k, struct ior_blk_start *fresh, __u64 now)
{
	struct ior_blk_start *owner = k->op == 'F' ? bpf_map_lookup_elem(&blk_flush_owners, &k->dev) : NULL;

	if (owner) {
		fresh->pid_tgid = owner->pid_tgid;
		fresh->start_ns = owner->start_ns;
		__builtin_memcpy(fresh->comm, owner->comm, IOR_COMM_LEN);
		bpf_map_delete_elem(&blk_flush_owners, &k->dev);
		return;
	}
	fresh->pid_tgid = bpf_get_current_pid_tgid();
	fresh->start_ns = now;
	bpf_get_current_comm(fresh->comm, sizeof fresh->comm);
}

INLINE int blk_seen(void *ctx, int point)
{
	struct ior_blk_start fresh = {}, *st;
	struct ior_blk_key k;
	__u64 now = bpf_ktime_get_ns();

	blk_read_key(ctx, blk_dev_off, blk_sector_off, blk_rwbs_off, &k, fresh.rwbs);
	st = bpf_map_lookup_elem(&blk_reqs, &k);
	if (!st) {
		blk_submitter(&k, &fresh, now);
		if (bpf_map_update_elem(&blk_reqs, &k, &fresh, BPF_NOEXIST)) {
			__sync_fetch_and_add(&blk_full, 1);
			return 0;
		}
		if (!(st = bpf_map_lookup_elem(&blk_reqs, &k)))
			return 0;
		blk_flush_owner(&k, fresh.rwbs, &fresh);
	}
	if (point == BLK_INSERT)
		st->insert_ns = now;
	else if (point == BLK_ISSUE)
		st->issue_ns = now; /* a requeued request: its last issue */
	return 0;
}

/* A request merged into another (block_rq_merge) never completes: its
 * entry goes, its bytes complete with the request that took them. */
INLINE int blk_merged(void *ctx)
{
	struct ior_blk_key k;
	char rwbs[8];

	blk_read_key(ctx, blk_dev_off, blk_sector_off, blk_rwbs_off, &k, rwbs);
	bpf_map_delete_elem(&blk_reqs, &k);
	return 0;
}

INLINE void blk_fill(struct ior_rec_block *r, const struct ior_blk_start *st, const struct ior_blk_key *k,
		     __u64 now)
{
	fill_head(&r->h, st->pid_tgid, IOR_REC_BLOCK, 0, sizeof *r);
	r->h.ts = now;
	r->start_ns = st->start_ns;
	r->insert_ns = st->insert_ns;
	r->issue_ns = st->issue_ns;
	r->sector = k->sector;
	r->dev = k->dev;
	r->pad = 0;
	__builtin_memcpy(r->rwbs_start, st->rwbs, 8);
	__builtin_memcpy(r->comm, st->comm, IOR_COMM_LEN);
}

INLINE int blk_complete(void *ctx)
{
	struct ior_blk_start *st;
	struct ior_rec_block *r;
	struct ior_batch *b;
	struct ior_blk_key k;
	char rwbs[8];

	struct ior_blk_start nobody = { 0 };
	struct ior_rec_block alone;

	blk_read_key(ctx, blk_c_dev_off, blk_c_sector_off, blk_c_rwbs_off, &k, rwbs);
	if (!(st = bpf_map_lookup_elem(&blk_reqs, &k))) {
		/* The flush sequence's data-less write (its PREFLUSH flag
		 * cleared by then): before block_io_start (6.5) no tracepoint
		 * starts it (never inserted or issued), yet diskstats counts it
		 * as a write: it goes out with no submitter (the thread now
		 * running only finished the flush) and no latency. With
		 * block_io_start it was started; an unknown 0-sector completion
		 * there is a data write's last one (its flush done), already
		 * counted at its data. */
		if (!blk_no_start || k.op == 'F' || tp_u32(ctx, blk_c_nr_sector_off)) {
			__sync_fetch_and_add(&blk_unstarted, 1);
			return 0;
		}
		nobody.start_ns = bpf_ktime_get_ns();
		__builtin_memcpy(nobody.rwbs, rwbs, 8);
		st = &nobody;
	}
	if ((r = irq_slot(ctx, &b, &alone))) {
		blk_fill(r, st, &k, bpf_ktime_get_ns());
		r->bytes = tp_u32(ctx, blk_c_nr_sector_off) << 9;
		r->error = (__s32)tp_u32(ctx, blk_c_error_off);
		__builtin_memcpy(r->rwbs, rwbs, 8);
		irq_commit(ctx, b, r, sizeof *r);
	}
	bpf_map_delete_elem(&blk_reqs, &k);
	return 0;
}

/* A page-cache fill by a traced thread: one record per folio, batched
 * like the lifecycle records (user space adds them to the thread's open
 * pair). Other processes' fills cost the filters only. */
INLINE int cache_add(void *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct ior_rec_cache *r;
	struct ior_batch *b;
	char comm[IOR_COMM_LEN];

	if (!pid_wanted(pid_tgid))
		return 0;
	if (filter_comm_len) {
		bpf_get_current_comm(comm, sizeof comm);
		if (!comm_wanted(comm))
			return 0;
	}
	if (!(r = lifecycle_slot(ctx, &b)))
		return 0;
	fill_head(&r->h, pid_tgid, IOR_REC_CACHE, 0, sizeof *r);
	r->ino = tp_u64(ctx, cache_ino_off);
	r->index = tp_u64(ctx, cache_index_off);
	r->dev = tp_u32(ctx, cache_dev_off);
	r->pages = 1;
	if (cache_order_off != ~0u) {
		__u8 order = 0;
		bpf_probe_read_kernel(&order, 1, (const char *)ctx + cache_order_off);
		r->pages = 1u << (order & 0x1f);
	}
	batch_commit(b, sizeof *r);
	return 0;
}

#endif
