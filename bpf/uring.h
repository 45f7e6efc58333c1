/* io_uring's tracepoints, read at the offsets user space found in the
 * kernel's BTF (their records changed across kernels): what a request is
 * when it is taken, and the arguments of ops that take paths or direct
 * descriptors. */
#ifndef IOR_BPF_URING_H
#define IOR_BPF_URING_H

#include "bpf/event.h"
#include "bpf/helpers.h"
#include "bpf/maps.h"
#include "bpf/async.h"

#define IORING_CQE_F_MORE_ 2u

/* A struct filename's name into dst (IOR_PATH_MAX bytes): its length
 * without the NUL, 0 when none; *cut as read_path's. */
INLINE __u32 uring_name(char *dst, __u64 filename, int *cut)
{
	__u64 name = kptr(filename, filename_name_off);
	long n;

	*cut = 0;
	if (!name || (n = bpf_probe_read_kernel_str(dst, IOR_PATH_MAX, (const void *)name)) <= 1)
		return 0;
	*cut = n >= IOR_PATH_MAX;
	return (__u32)(n - 1) & (IOR_PATH_MAX - 1);
}

INLINE __s32 uring_s32(__u64 req, __u32 off, __s32 none)
{
	__s32 v = none;

	if (off != IOR_UOFF_NONE)
		bpf_probe_read_kernel(&v, sizeof v, (const void *)(req + off));
	return v;
}

/* The offsets of an args kind, NULL for none known (the bound is for the
 * verifier: kind comes from a map). */
INLINE const volatile struct ior_uring_args_off *uring_args_of(__u32 kind)
{
	asm volatile("" : "+r"(kind));
	if (kind >= IOR_ASYNC_ARGS_N || !uring_args[kind].on)
		return NULL;
	return &uring_args[kind];
}

/* The op's own arguments, kept in the request since its prep (names were
 * copied into the kernel, struct filename, by then): dirfds, flags,
 * paths and direct slot, at the offsets of its kind (uring_args). */
INLINE void uring_args_read(__u64 req, const volatile struct ior_uring_args_off *a,
			    struct ior_rec_async_submit *r)
{
	__u32 len0, len1, off;
	int cut0, cut1;

	r->dirfd = uring_s32(req, a->dfd, -1);
	r->file_slot = (__u32)uring_s32(req, a->slot, 0);
	if (a->flags != IOR_UOFF_NONE)
		bpf_probe_read_kernel(&r->flags, a->flags_size == 8 ? 8 : 4, (const void *)(req + a->flags));
	if (a->dfd2 != IOR_UOFF_NONE)
		r->fd = uring_s32(req, a->dfd2, -1);
	if (a->name == IOR_UOFF_NONE)
		return;
	len0 = uring_name(r->path, kptr(req, a->name), &cut0);
	r->npaths = 1;
	r->path_len[0] = (__u16)len0;
	r->cut = (__u8)cut0;
	r->h.len = IOR_REC_ASYNC_SUBMIT_BASE + len0;
	if (a->name2 == IOR_UOFF_NONE)
		return;
	off = IOR_PATH1_OFF(len0);
	if (off > IOR_PATH_MAX)
		off = IOR_PATH_MAX;
	len1 = uring_name(r->path + off, kptr(req, a->name2), &cut1);
	r->npaths = 2;
	r->path_len[1] = (__u16)len1;
	r->cut |= (__u8)(cut1 << 1);
	r->h.len = IOR_REC_ASYNC_SUBMIT_BASE + off + len1;
}

/* The owner's tid in the poll thread's name, "iou-sqp-TID": the kernel
 * names the thread after the tid that set the ring up (io_sq_data.task_pid,
 * which later kernels then overwrite with the poll thread's own). 0 when
 * the name is not that. */
INLINE __u32 sqp_tid(const char *comm)
{
	static const char pre[] = "iou-sqp-";
	__u32 tid = 0;

#pragma unroll
	for (int i = 0; i < 8; i++)
		if (comm[i] != pre[i])
			return 0;
#pragma unroll
	for (int i = 8; i < IOR_COMM_LEN; i++) {
		if (comm[i] < '0' || comm[i] > '9')
			return comm[i] ? 0 : tid;
		tid = tid * 10 + (__u32)(comm[i] - '0');
	}
	return 0;
}

/* A ring's SQPOLL thread submits for the ring's owner: the thread that
 * set it up, in the poll thread's own process, named by its process's
 * leader. 1 when the current task is that poll thread. */
INLINE int uring_sq_owner(__u64 ring, struct ior_async_who *who)
{
	char comm[IOR_COMM_LEN];
	__u64 sqd, task;
	__u32 tid;

	if (!uring_sq_on || !(sqd = kptr(ring, uring_ctx_sqd_off)))
		return 0;
	task = bpf_get_current_task();
	if (kptr(sqd, uring_sqd_thread_off) != task)
		return 0;
	bpf_get_current_comm(comm, sizeof comm);
	if (!(tid = sqp_tid(comm)))
		return 0;
	who->pid_tgid = (bpf_get_current_pid_tgid() & ~0xffffffffull) | tid;
	__builtin_memset(who->comm, 0, IOR_COMM_LEN);
	bpf_probe_read_kernel(who->comm, IOR_COMM_LEN, (const void *)(kptr(task, task_leader_off) + task_comm_off));
	return 1;
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
	const volatile struct ior_uring_args_off *a = c->args != IOR_ASYNC_ARGS_FILE ? uring_args_of(c->args) : NULL;
	if (a && a->fd != IOR_UOFF_NONE)
		fd = uring_s32(req, a->fd, -1);
	else if (c->args != IOR_ASYNC_ARGS_CLOSE) /* a close's file is none: unknown without its layout */
		bpf_probe_read_kernel(&fd, sizeof fd, (const void *)(req + uring_fd_off));
	struct ior_async_key k = { req, 0, 0 };
	__u64 ring = tp_u64(ctx, uring_s_ctx_off);
	struct ior_async_who owner;
	int sq = uring_sq_owner(ring, &owner);
	if (!(r = async_submit(ctx, &k, nr, fd, c, &b, sq ? &owner : NULL)) || !b)
		return 0;
	r->sqe_flags = (sqe_flags & (IOR_ASYNC_FIXED | IOR_ASYNC_FORCE)) | (sq ? IOR_ASYNC_SQPOLL : 0);
	r->ring = ring;
	if (a)
		uring_args_read(req, a, r);
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

	if (c && req && (r = async_submit(ctx, &k, nr, -1, c, &b, NULL)) && b)
		batch_commit(b, r->h.len);
	return 0;
}

/* A request punted to io-wq or armed for poll (where it ran). */
INLINE int uring_went(void *ctx, __u32 req_off, __u8 bit)
{
	struct ior_async_key k = { tp_u64(ctx, req_off), 0, 0 };

	if (k.ptr)
		async_went(&k, bit);
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
