/* libaio (the io_submit family): an iocb is taken at io_submit's enter
 * and completes at the io_getevents/io_pgetevents exit that returned its
 * event (io_event.obj is the iocb's address). These programs sit on the
 * per-syscall tracepoints of those four syscalls only, so the generic
 * syscall programs pay nothing for them. Their record layout is the one
 * every kernel gives syscall tracepoints (struct sys_enter_ctx). */
#ifndef IOR_BPF_AIO_H
#define IOR_BPF_AIO_H

#include "bpf/event.h"
#include "bpf/helpers.h"
#include "bpf/maps.h"
#include "bpf/regs.h"
#include "bpf/async.h"

/* struct iocb (include/uapi/linux/aio_abi.h), little-endian */
struct aio_iocb {
	__u64 data;
	__u32 key, rw_flags;
	__u16 opcode;
	__s16 reqprio;
	__u32 fildes;
	__u64 buf, nbytes;
	__s64 offset;
};

struct aio_event {
	__u64 data, obj;
	__s64 res, res2;
};

INLINE void aio_save(__u64 ptr, __u64 n)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct aio_call c = { ptr, n };

	if (bpf_map_update_elem(&aio_calls, &tid, &c, BPF_ANY))
		__sync_fetch_and_add(&aio_unread, n);
}

INLINE int aio_take(struct aio_call *out)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct aio_call *c = bpf_map_lookup_elem(&aio_calls, &tid);

	if (!c)
		return 0;
	*out = *c;
	bpf_map_delete_elem(&aio_calls, &tid);
	return 1;
}

INLINE void aio_submit_one(void *ctx, __u64 iocb)
{
	struct ior_async_key k = { iocb, bpf_get_current_pid_tgid() >> 32, 0 };
	const struct ior_async_conf *c;
	struct ior_rec_async_submit *r;
	struct ior_batch *b = NULL;
	struct aio_iocb cb;
	__u32 nr;

	if (!iocb || bpf_probe_read_user(&cb, sizeof cb, (const void *)iocb))
		return;
	nr = IOR_NR_AIO + (cb.opcode < IOR_AIO_OPS ? cb.opcode : IOR_AIO_OPS - 1);
	if (!(c = async_traced(nr)))
		return;
	if ((r = async_submit(ctx, &k, nr, (__s32)cb.fildes, c, &b, NULL)) && b)
		batch_commit(b, r->h.len);
}

/* io_submit(ctx_id, nr, iocbpp) */
INLINE int aio_submit(struct sys_enter_ctx *ctx)
{
	__u64 n = ctx->args[1], iocbpp = ctx->args[2];

	if (!pid_wanted(bpf_get_current_pid_tgid()) || (__s64)n <= 0)
		return 0;
	for (__u32 i = 0; i < IOR_AIO_BATCH_MAX && i < n; i++) {
		__u64 iocb = 0;
		bpf_probe_read_user(&iocb, sizeof iocb, (const void *)(iocbpp + 8 * i));
		aio_submit_one(ctx, iocb);
	}
	if (n > IOR_AIO_BATCH_MAX)
		__sync_fetch_and_add(&aio_unread, n - IOR_AIO_BATCH_MAX);
	aio_save(iocbpp, n);
	return 0;
}

/* An iocb io_submit did not take (it returned fewer than nr). */
INLINE void aio_withdraw(void *ctx, __u64 iocbpp, __u32 i)
{
	struct ior_async_key k = { 0, bpf_get_current_pid_tgid() >> 32, 0 };

	bpf_probe_read_user(&k.ptr, sizeof k.ptr, (const void *)(iocbpp + 8 * i));
	if (k.ptr)
		async_done(ctx, &k, 0, IOR_ASYNC_DONE_WITHDRAWN);
}

INLINE int aio_submit_exit(struct sys_exit_ctx *ctx)
{
	struct aio_call c;
	__u32 first = ctx->ret > 0 ? (__u32)ctx->ret : 0;

	if (!aio_take(&c))
		return 0;
	for (__u32 i = 0; i < IOR_AIO_BATCH_MAX && i < c.n; i++)
		if (i >= first)
			aio_withdraw(ctx, c.ptr, i);
	return 0;
}

/* io_getevents / io_pgetevents(ctx_id, min_nr, nr, events, ...) */
INLINE int aio_getevents(struct sys_enter_ctx *ctx)
{
	if (pid_wanted(bpf_get_current_pid_tgid()))
		aio_save(ctx->args[3], ctx->args[2]);
	return 0;
}

INLINE int aio_getevents_exit(struct sys_exit_ctx *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct aio_call c;

	if (!aio_take(&c) || ctx->ret <= 0)
		return 0;
	for (__u32 i = 0; i < IOR_AIO_BATCH_MAX && i < (__u64)ctx->ret; i++) {
		struct aio_event ev = {};
		bpf_probe_read_user(&ev, sizeof ev, (const void *)(c.ptr + sizeof ev * i));
		struct ior_async_key k = { ev.obj, pid, 0 };
		if (ev.obj)
			async_done(ctx, &k, ev.res, IOR_ASYNC_DONE_LAST);
	}
	if (ctx->ret > IOR_AIO_BATCH_MAX)
		__sync_fetch_and_add(&aio_unread, ctx->ret - IOR_AIO_BATCH_MAX);
	return 0;
}

#endif
