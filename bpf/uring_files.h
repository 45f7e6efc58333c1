/* A ring's registered (fixed) files, so ops on them are named: the file
 * table changes io_uring_register makes, read at its exit when it
 * succeeded, with the ring it made them to (the ring fd's file leads to
 * the struct io_ring_ctx its submissions carry). On the per-syscall
 * tracepoints of io_uring_register only. */
#ifndef IOR_BPF_URING_FILES_H
#define IOR_BPF_URING_FILES_H

#include "bpf/event.h"
#include "bpf/helpers.h"
#include "bpf/maps.h"
#include "bpf/regs.h"
#include "bpf/batch.h"
#include "bpf/record.h"
#include "bpf/task.h"
#include "bpf/net.h"

/* include/uapi/linux/io_uring.h */
#define IORING_REGISTER_FILES_ 2
#define IORING_UNREGISTER_FILES_ 3
#define IORING_REGISTER_FILES_UPDATE_ 6
#define IORING_REGISTER_FILES2_ 13
#define IORING_REGISTER_FILES_UPDATE2_ 14
#define IORING_REGISTER_USE_REGISTERED_RING_ (1u << 31)
#define IORING_RSRC_REGISTER_SPARSE_ 1u

/* io_uring_register(fd, opcode, arg, nr_args) */
INLINE int uring_register(struct sys_enter_ctx *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), op = (__u32)ctx->args[1];
	struct uring_reg r = { (__s64)(__s32)ctx->args[0], op, ctx->args[2], ctx->args[3] };

	if (!uring_files_on || !pid_wanted(bpf_get_current_pid_tgid()))
		return 0;
	if (op != IORING_REGISTER_FILES_ && op != IORING_UNREGISTER_FILES_ && op != IORING_REGISTER_FILES_UPDATE_ &&
	    op != IORING_REGISTER_FILES2_ && op != IORING_REGISTER_FILES_UPDATE2_)
		return 0; /* not the files, or a registered ring's index (USE_REGISTERED_RING) */
	if (bpf_map_update_elem(&uring_regs, &tid, &r, BPF_ANY))
		__sync_fetch_and_add(&uring_files_unread, 1);
	return 0;
}

/* Where the call's fds are and which slots they go to. 0: none to read. */
INLINE int uring_files_args(const struct uring_reg *g, struct ior_rec_uring_files *r, __u64 *fds, __u64 *n)
{
	struct { __u32 offset, resv; __u64 data, tags; __u32 nr, resv2; } u2 = {};
	struct { __u32 nr, flags; __u64 resv2, data, tags; } r2 = {};
	struct { __u32 offset, resv; __u64 fds; } u1 = {};

	r->offset = 0;
	*fds = g->arg;
	*n = g->nr;
	switch (g->opcode) {
	case IORING_REGISTER_FILES_:
		r->op = IOR_URING_FILES_SET;
		return 1;
	case IORING_UNREGISTER_FILES_:
		r->op = IOR_URING_FILES_CLEAR;
		*n = 0;
		return 1;
	case IORING_REGISTER_FILES_UPDATE_:
		bpf_probe_read_user(&u1, sizeof u1, (const void *)g->arg);
		r->op = IOR_URING_FILES_UPDATE;
		r->offset = u1.offset;
		*fds = u1.fds;
		return 1;
	case IORING_REGISTER_FILES2_:
		bpf_probe_read_user(&r2, sizeof r2, (const void *)g->arg);
		r->op = IOR_URING_FILES_SET;
		*fds = r2.data;
		*n = (r2.flags & IORING_RSRC_REGISTER_SPARSE_) ? 0 : r2.nr;
		return 1;
	case IORING_REGISTER_FILES_UPDATE2_:
		bpf_probe_read_user(&u2, sizeof u2, (const void *)g->arg);
		r->op = IOR_URING_FILES_UPDATE;
		r->offset = u2.offset;
		*fds = u2.data;
		*n = u2.nr;
		return 1;
	}
	return 0;
}

INLINE int uring_register_exit(struct sys_exit_ctx *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid(), fds, n;
	__u32 tid = (__u32)pid_tgid;
	struct uring_reg *g = bpf_map_lookup_elem(&uring_regs, &tid), reg;
	struct ior_rec_uring_files *r;
	struct ior_batch *b;

	if (!g)
		return 0;
	reg = *g;
	bpf_map_delete_elem(&uring_regs, &tid);
	if (ctx->ret < 0 || !(r = lifecycle_slot(ctx, &b)))
		return 0;
	if (!uring_files_args(&reg, r, &fds, &n)) {
		batch_release(b);
		return 0;
	}
	if (reg.opcode == IORING_REGISTER_FILES_UPDATE_ && ctx->ret < n)
		n = ctx->ret; /* the slots it updated */
	__u32 k = n < IOR_URING_FILES_MAX ? (__u32)n : IOR_URING_FILES_MAX;
	if (n > IOR_URING_FILES_MAX)
		__sync_fetch_and_add(&uring_files_unread, n - IOR_URING_FILES_MAX);
	r->ring = kptr(fd_file(reg.fd), uring_file_ctx_off);
	r->nfds = k;
	r->unread = n > k ? (__u32)(n - k) : 0;
	if (k && bpf_probe_read_user(r->fds, k * sizeof(__s32), (const void *)fds))
		r->nfds = 0;
	fill_head(&r->h, pid_tgid, IOR_REC_URING_FILES, 0, IOR_REC_URING_FILES_BASE + r->nfds * sizeof(__s32));
	batch_commit(b, r->h.len);
	return 0;
}

#endif
