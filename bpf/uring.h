/* io_uring's tracepoints, read at the offsets user space found in the
 * kernel's BTF (their records changed across kernels): what a request is
 * when it is taken, and the open op's dirfd, flags and path. */
#ifndef IOR_BPF_URING_H
#define IOR_BPF_URING_H

#include "bpf/event.h"
#include "bpf/helpers.h"
#include "bpf/maps.h"
#include "bpf/async.h"

#define IORING_CQE_F_MORE_ 2u

/* The open op's struct io_open, kept in the request since its prep:
 * the name was copied into the kernel (struct filename) by then. */
INLINE void uring_open_args(__u64 req, struct ior_rec_async_submit *r)
{
	__s32 dfd = -1;
	__u64 name;
	long n;

	if (!uring_open_on)
		return;
	bpf_probe_read_kernel(&dfd, sizeof dfd, (const void *)(req + uring_open_dfd_off));
	bpf_probe_read_kernel(&r->flags, sizeof r->flags, (const void *)(req + uring_open_how_off));
	r->dirfd = dfd;
	name = kptr(kptr(req, uring_open_name_off), filename_name_off);
	if (!name)
		return;
	n = bpf_probe_read_kernel_str(r->path, IOR_PATH_MAX, (const void *)name);
	if (n <= 1)
		return;
	r->path_len = (__u16)(n - 1);
	r->cut = n >= IOR_PATH_MAX;
	r->h.len = IOR_REC_ASYNC_SUBMIT_BASE + (__u32)(n - 1);
}

INLINE int uring_submit(void *ctx)
{
	__u64 req = tp_u64(ctx, uring_s_req_off);
	__u32 op = tp_u32(ctx, uring_s_op_off) & 0xff, sqe_flags = tp_u32(ctx, uring_s_flags_off);
	__u32 nr = IOR_NR_URING + (op < IOR_URING_OPS ? op : IOR_URING_OPS - 1);
	const struct ior_async_conf *c = async_traced(nr);
	struct ior_rec_async_submit *r;
	struct ior_batch *b = NULL;
	__s32 fd = -1;

	if (!c || !req)
		return 0;
	if (c->args != IOR_ASYNC_ARGS_CLOSE)
		bpf_probe_read_kernel(&fd, sizeof fd, (const void *)(req + uring_fd_off));
	else if (uring_open_on) /* the command data's layout is known */
		bpf_probe_read_kernel(&fd, sizeof fd, (const void *)(req + uring_close_fd_off));
	struct ior_async_key k = { req, 0, 0 };
	if (!(r = async_submit(ctx, &k, nr, fd, c, &b)) || !b)
		return 0;
	r->sqe_flags = sqe_flags & (IOR_ASYNC_FIXED | IOR_ASYNC_FORCE);
	r->ring = tp_u64(ctx, uring_s_ctx_off);
	if (c->args == IOR_ASYNC_ARGS_OPEN)
		uring_open_args(req, r);
	batch_commit(b, r->h.len);
	return 0;
}

/* A request that failed before it was submitted (a bad opcode, flags or
 * fixed file: io_uring_req_failed) still completes with its error: it is
 * taken here instead, without a file. */
INLINE int uring_failed(void *ctx)
{
	__u64 req = tp_u64(ctx, uring_f_req_off);
	__u32 op = tp_u32(ctx, uring_f_op_off) & 0xff;
	__u32 nr = IOR_NR_URING + (op < IOR_URING_OPS ? op : IOR_URING_OPS - 1);
	const struct ior_async_conf *c = async_traced(nr);
	struct ior_async_key k = { req, 0, 0 };
	struct ior_rec_async_submit *r;
	struct ior_batch *b = NULL;

	if (c && req && (r = async_submit(ctx, &k, nr, -1, c, &b)) && b)
		batch_commit(b, r->h.len);
	return 0;
}

INLINE int uring_complete(void *ctx)
{
	__u64 req = tp_u64(ctx, uring_c_req_off);
	__s32 res = (__s32)tp_u32(ctx, uring_c_res_off);
	__u32 cflags = tp_u32(ctx, uring_c_cflags_off);

	struct ior_async_key k = { req, 0, 0 };
	if (req)
		async_done(ctx, &k, res, (cflags & IORING_CQE_F_MORE_) ? IOR_ASYNC_DONE_MORE : IOR_ASYNC_DONE_LAST);
	return 0;
}

#endif
