// SPDX-License-Identifier: GPL-2.0
/* ior's kernel side: one generic enter program and one generic exit
 * program, driven by a per-syscall argument table that user space fills
 * (struct ior_sys_conf). Each comes three times: for the per-syscall
 * tracepoints sys_enter_X/sys_exit_X (ior -check), and for the tracepoints
 * sys_enter/sys_exit, which the trace command attaches once for all
 * syscalls: as tp_btf programs where the kernel has BTF (enum src), else as
 * raw tracepoint programs (struct raw_ctx). Records go to per-CPU perf
 * rings; the tp_btf and raw programs batch them per CPU first (struct
 * ior_batch). See bpf/event.h for the layouts. Built with clang -target
 * bpf, no libbpf: the few helper and map declarations it needs are spelled
 * out in bpf/helpers.h.
 *
 * Here are the programs and the bodies they share; bpf/ has the parts they
 * are made of, one header each, included once (all static, inlined): the
 * object's data (maps.h), contexts and arguments (regs.h), the current
 * task and the filters (task.h), paths and file identity (paths.h), the
 * records (record.h), the CPU's batch (batch.h) and the summaries kept
 * while a ring is full (summary.h). */
#include "bpf/event.h"
#include "bpf/helpers.h"
#include "bpf/maps.h"
#include "bpf/regs.h"
#include "bpf/task.h"
#include "bpf/paths.h"
#include "bpf/record.h"
#include "bpf/batch.h"
#include "bpf/summary.h"
#include "bpf/net.h"
#include "bpf/wait.h"
#include "bpf/async.h"
#include "bpf/uring.h"
#include "bpf/aio.h"
#include "bpf/uring_files.h"
#include "bpf/block.h"

/* ---- syscall enter ---------------------------------------------------- */

/* The per-syscall tracepoint programs' enter: sent alone. */
INLINE int enter_alone(void *ctx, __u64 pid_tgid, __u32 nr, const struct ior_sys_conf *c,
		       const __u64 *comm)
{
	struct ior_rec_enter r;
	struct args a;

	if (!comm_wanted((const char *)comm))
		return 0;
	load_args_tp(ctx, &a);
	__u32 len = fill_enter(&r, pid_tgid, nr, c, &a, comm);
	if (len == sizeof r && c->wait > IOR_WAIT_MS) /* aux was filled */
		fill_wait(&r, c);
	if (c->path_arg[0] != IOR_ARG_NONE)
		save_paths(&a, c, (__u32)pid_tgid);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &r, len == sizeof r ? sizeof r : IOR_REC_ENTER_BASE);
	return 0;
}

/* Appends the enter to the CPU's batch; a full ring (held batch) folds a
 * foldable syscall into the summaries instead. A thread ending a streak
 * sends its struct ior_rec_streak first. */
INLINE int enter_batched(void *ctx, __u64 pid_tgid, __u32 nr, const struct ior_sys_conf *c,
			 const struct args *a, const __u64 *comm)
{
	struct ior_batch *b = batch_get();
	struct ior_pending *pe;

	if (!b)
		return 0;
	if (!batch_claim(ctx, b)) {
		if (comm_wanted((const char *)comm))
			batch_busy_drop();
		return 0;
	}
	if (!comm_wanted_memo(b, comm)) {
		batch_release(b);
		return 0;
	}
	pe = pending_get((__u32)pid_tgid);
	if (b->held && c->fold) {
		summarize_enter(pe, pid_tgid, nr, c->fd_arg == IOR_ARG_NONE ? -1 : (__s32)arg(a, c->fd_arg),
				comm);
		batch_release(b);
		return 0;
	}
	if (pe)
		streak_end(b, pe, pid_tgid);
	if (!batch_has_room(b)) {
		reserve_drop(b);
		return 0;
	}
	__u32 len = fill_enter(batch_slot(b), pid_tgid, nr, c, a, comm);
	if (len == sizeof(struct ior_rec_enter) && c->wait > IOR_WAIT_MS)
		fill_wait(batch_slot(b), c);
	b->enter_tid = (__u32)pid_tgid;
	b->enter_nr = nr;
	batch_commit(b, len);
	return 0;
}

/* The syscall table decides first: a syscall no one traces (most of a
 * busy host's) costs one array load, not a helper call for the task. */
INLINE int do_enter(void *ctx, __u32 nr, int src)
{
	struct ior_sys_conf *c = bpf_map_lookup_elem(&sys_conf, &nr);
	const char *task = NULL;
	__u64 pid_tgid;
	struct args a;
	__u64 comm[IOR_COMM_LEN / 8];

	if (!c || !c->traced)
		return 0;
	pid_tgid = current_pid_tgid(src, &task);
	if (!pid_wanted(pid_tgid))
		return 0;
	current_comm(src, task, comm);
	if (src == SRC_TP)
		return enter_alone(ctx, pid_tgid, nr, c, comm);
	if (src == SRC_BTF ? load_args_btf(ctx, &a) : load_args_raw(ctx, &a))
		return 0;
	return enter_batched(ctx, pid_tgid, nr, c, &a, comm);
}

SEC("tracepoint/syscalls/sys_enter")
int ior_enter(struct sys_enter_ctx *ctx)
{
	return do_enter(ctx, ctx->nr, SRC_TP);
}

SEC("raw_tracepoint/sys_enter")
int ior_raw_enter(struct raw_ctx *ctx)
{
	return do_enter(ctx, (__u32)ctx->arg, SRC_RAW);
}

/* sys_enter(struct pt_regs *regs, long id), typed by the kernel's BTF.
 * trace/probe.c prefers these and falls back to the raw programs. */
SEC("tp_btf/sys_enter")
int ior_btf_enter(__u64 *ctx)
{
	return do_enter(ctx, (__u32)ctx[1], SRC_BTF);
}

/* ---- syscall exit ----------------------------------------------------- */

/* The exit's comm verdict: yes for the exit of the enter this CPU recorded
 * last (consumed here), else the filter on the current comm. */
INLINE int exit_wanted(struct ior_batch *b, __u32 tid, __u32 nr, int src, const char *task)
{
	__u64 comm[IOR_COMM_LEN / 8];

	if (!filter_comm_len)
		return 1;
	if (b->enter_tid == tid && b->enter_nr == nr) {
		b->enter_tid = 0;
		return 1;
	}
	current_comm(src, task, comm);
	return comm_wanted_memo(b, comm);
}

/* The per-syscall tracepoint programs' exit: sent alone. */
INLINE void exit_alone(void *ctx, __u64 pid_tgid, __u32 nr, __s64 ret, const struct path_ptrs *p,
			int ident)
{
	__u32 zero = 0;
	struct ior_rec_exit *r;

	if (filter_comm_len) {
		char comm[IOR_COMM_LEN];
		bpf_get_current_comm(comm, sizeof comm);
		if (!comm_wanted(comm))
			return;
	}
	r = bpf_map_lookup_elem(&exit_scratch, &zero);
	if (r)
		bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, r,
				      fill_exit(r, pid_tgid, nr, ret, p, ident, NULL));
}

INLINE void exit_batched(void *ctx, __u64 pid_tgid, __u32 nr, __s64 ret, const struct path_ptrs *p,
			 const struct ior_sys_conf *c, const struct args *a, int src, const char *task)
{
	struct ior_batch *b = batch_get();
	__u32 tid = (__u32)pid_tgid;
	struct ior_pending *pe;

	if (!b)
		return;
	if (!batch_claim(ctx, b)) {
		__u64 comm[IOR_COMM_LEN / 8];
		current_comm(src, task, comm);
		if (comm_wanted((const char *)comm))
			batch_busy_drop();
		return;
	}
	pe = pending_get(tid);
	if (pe && pe->open && pe->nr == (__u16)nr) {
		summarize_exit(pe, pid_tgid, ret, c);
		batch_release(b);
		return;
	}
	if (!exit_wanted(b, tid, nr, src, task)) {
		batch_release(b);
		return;
	}
	if (!batch_has_room(b)) {
		reserve_drop(b);
		return;
	}
	__u32 len = fill_exit(batch_slot(b), pid_tgid, nr, ret, p, c->ret_is_fd, task);
	if (c->net)
		len = fill_net(batch_slot(b), len, a, c, ret);
	batch_commit(b, len);
}

/* The syscall's entry in the table, if it is traced. */
INLINE const struct ior_sys_conf *traced_conf(__u32 nr)
{
	const struct ior_sys_conf *c = bpf_map_lookup_elem(&sys_conf, &nr);

	return c && c->traced ? c : NULL;
}

/* a: the syscall's arguments (batching programs), NULL for SRC_TP; c: its
 * traced_conf. */
INLINE int do_exit(void *ctx, __u64 pid_tgid, __u32 nr, __s64 ret, const struct args *a,
		   int src, const char *task, const struct ior_sys_conf *c)
{
	__u32 tid = (__u32)pid_tgid;
	struct path_ptrs *p = NULL, regs_paths;

	if (c->path_arg[0] != IOR_ARG_NONE)
		p = a ? exit_paths(a, c, &regs_paths) : bpf_map_lookup_elem(&path_args, &tid);
	if (src != SRC_TP)
		exit_batched(ctx, pid_tgid, nr, ret, p, c, a, src, task);
	else
		exit_alone(ctx, pid_tgid, nr, ret, p, c->ret_is_fd);
	if (p && !a)
		bpf_map_delete_elem(&path_args, &tid);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit")
int ior_exit(struct sys_exit_ctx *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	const struct ior_sys_conf *c;

	if (!pid_wanted(pid_tgid) || !(c = traced_conf(ctx->nr)))
		return 0;
	return do_exit(ctx, pid_tgid, ctx->nr, ctx->ret, NULL, SRC_TP, NULL, c);
}

/* The exit's syscall number and arguments come from pt_regs
 * (load_exit_raw, per arch); the pid filter runs first so other processes
 * skip the read. */
SEC("raw_tracepoint/sys_exit")
int ior_raw_exit(struct raw_ctx *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	const struct ior_sys_conf *c;
	struct args a;
	__u32 nr;

	if (!pid_wanted(pid_tgid) || load_exit_raw(ctx, &nr, &a) || !(c = traced_conf(nr)))
		return 0;
	return do_exit(ctx, pid_tgid, nr, ctx->arg, &a, SRC_RAW, NULL, c);
}

/* The arch's rename, link and symlink syscalls (their *at forms too), as
 * user space set name_changers from the syscall table. */
INLINE int changes_names(__u32 nr)
{
	int hit = 0;

#pragma unroll
	for (int i = 0; i < IOR_NAME_CHANGERS_MAX; i++)
		hit |= nr == name_changers[i];
	return hit;
}

/* sys_exit(struct pt_regs *regs, long ret), typed by the kernel's BTF.
 * The number is in pt_regs: the table decides before the task is read. */
SEC("tp_btf/sys_exit")
int ior_btf_exit(__u64 *ctx)
{
	const struct ior_sys_conf *c;
	const char *task = NULL;
	__u32 nr = exit_nr_btf(ctx);
	__u64 pid_tgid;
	struct args a;

	if ((__s64)ctx[1] == 0 && changes_names(nr))
		__sync_fetch_and_add(&names_changed, 1);
	if (!(c = traced_conf(nr)))
		return 0;
	pid_tgid = current_pid_tgid(SRC_BTF, &task);
	if (!pid_wanted(pid_tgid) || load_args_btf(ctx, &a))
		return 0;
	return do_exit(ctx, pid_tgid, nr, (__s64)ctx[1], &a, SRC_BTF, task, c);
}

/* ---- tasks ------------------------------------------------------------ */

/* Thread and process exits let user space free per-tid and per-pid state
 * (and know a tid can be reused). */
INLINE int do_task_exit(void *ctx, int raw)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct ior_rec_head alone, *h = &alone;
	__u16 kind = (pid_tgid >> 32) == (__u32)pid_tgid ? IOR_REC_PROC_EXIT : IOR_REC_THREAD_EXIT;
	struct ior_batch *b = NULL;
	struct ior_pending *pe;

	if (!pid_wanted(pid_tgid))
		return 0;
	if (raw) {
		if (!(b = batch_get()))
			return 0;
		if (!batch_claim(ctx, b)) {
			batch_busy_drop();
			return 0;
		}
		if (b->enter_tid == (__u32)pid_tgid) /* the tid may be reused */
			b->enter_tid = 0;
		if ((pe = pending_get((__u32)pid_tgid)))
			streak_end(b, pe, pid_tgid);
		if (!batch_has_room(b)) {
			reserve_drop(b);
			return 0;
		}
		h = batch_slot(b);
	}
	fill_head(h, pid_tgid, kind, 0, sizeof *h);
	if (b)
		batch_commit(b, sizeof *h);
	else
		bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, h, sizeof *h);
	return 0;
}

/* A new process of a followed one is followed too (a thread shares its
 * process's entry). */
INLINE void follow_child(__u32 pid)
{
	__u32 one = 1;

	if (bpf_map_update_elem(&followed, &pid, &one, BPF_ANY))
		__sync_fetch_and_add(&follow_full, 1);
}

/* sched_process_fork(struct task_struct *parent, struct task_struct *child),
 * in the parent before the child can run: the child's first record comes
 * after this one, and -follow adds the child to "followed" before it can
 * make a syscall. Attached only when task_struct's offsets are known. */
SEC("raw_tracepoint/sched_process_fork")
int ior_raw_fork(__u64 *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	const char *child = (const char *)ctx[1];
	__u32 cpid = 0, ctid = 0;
	struct ior_rec_fork *r;
	struct ior_batch *b;

	if (!pid_wanted(pid_tgid))
		return 0;
	bpf_probe_read_kernel(&cpid, sizeof cpid, child + task_tgid_off);
	bpf_probe_read_kernel(&ctid, sizeof ctid, child + task_pid_off);
	if (follow_on && cpid == ctid && cpid)
		follow_child(cpid);
	if (!pid_wanted((__u64)cpid << 32 | ctid))
		return 0;
	if (!(r = lifecycle_slot(ctx, &b)))
		return 0;
	fill_head(&r->h, pid_tgid, IOR_REC_FORK, 0, sizeof *r);
	r->child_pid = cpid;
	r->child_tid = ctid;
	r->shares_files = 0;
	r->pad = 0;
	if (ident_on) { /* the files offsets are known */
		__u64 mine = kptr(bpf_get_current_task(), task_files_off);
		r->shares_files = mine && mine == kptr((__u64)child, task_files_off);
	}
	batch_commit(b, sizeof *r);
	return 0;
}

/* sched_process_exec: the new image runs; its close-on-exec fds are gone. */
SEC("raw_tracepoint/sched_process_exec")
int ior_raw_exec(void *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct ior_rec_head *h;
	struct ior_batch *b;

	if (!pid_wanted(pid_tgid) || !(h = lifecycle_slot(ctx, &b)))
		return 0;
	fill_head(h, pid_tgid, IOR_REC_EXEC, 0, sizeof *h);
	batch_commit(b, sizeof *h);
	return 0;
}

/* A followed process leaves "followed" when its last thread exits (after
 * that thread's last record), so the set stays bounded and empties when
 * the tree is gone. do_exit() counts the thread out of signal->live
 * before this tracepoint: the last one reads 0, whichever thread it is
 * (a leader may exit before the others). Following implies the offsets. */
INLINE void follow_exit(void)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__s32 live = 1;
	__u64 sig;

	if (!follow_on || !bpf_map_lookup_elem(&followed, &pid))
		return;
	sig = kptr(bpf_get_current_task(), task_signal_off);
	if (sig)
		bpf_probe_read_kernel(&live, sizeof live, (const void *)(sig + signal_live_off));
	if (live <= 0)
		bpf_map_delete_elem(&followed, &pid);
}

SEC("tracepoint/sched/sched_process_exit")
int ior_task_exit(void *ctx)
{
	do_task_exit(ctx, 0);
	follow_exit();
	return 0;
}

SEC("raw_tracepoint/sched_process_exit")
int ior_raw_task_exit(void *ctx)
{
	do_task_exit(ctx, 1);
	follow_exit();
	return 0;
}

/* ---- async operations ------------------------------------------------- */

/* io_uring: a request taken (io_uring_submit_sqe before Linux 6.4, the
 * same program: trace/uring.c picks the tracepoint) and completed. */
SEC("tracepoint/io_uring/io_uring_submit_req")
int ior_uring_submit(void *ctx)
{
	return uring_on ? uring_submit(ctx) : 0;
}

SEC("tracepoint/io_uring/io_uring_complete")
int ior_uring_complete(void *ctx)
{
	return uring_on ? uring_complete(ctx) : 0;
}

SEC("tracepoint/io_uring/io_uring_req_failed")
int ior_uring_failed(void *ctx)
{
	return uring_on ? uring_failed(ctx) : 0;
}

/* Where a request ran: punted to an io-wq worker, or armed for poll. */
SEC("tracepoint/io_uring/io_uring_queue_async_work")
int ior_uring_wq(void *ctx)
{
	return uring_on ? uring_went(ctx, uring_w_req_off, IOR_WENT_WQ) : 0;
}

SEC("tracepoint/io_uring/io_uring_poll_arm")
int ior_uring_poll(void *ctx)
{
	return uring_on ? uring_went(ctx, uring_p_req_off, IOR_WENT_POLL) : 0;
}

/* io_uring's registered files: io_uring_register's own tracepoints. */
SEC("tracepoint/syscalls/sys_enter_io_uring_register")
int ior_uring_register(struct sys_enter_ctx *ctx)
{
	return uring_register(ctx);
}

SEC("tracepoint/syscalls/sys_exit_io_uring_register")
int ior_uring_register_exit(struct sys_exit_ctx *ctx)
{
	return uring_register_exit(ctx);
}

/* libaio: on the per-syscall tracepoints of its four syscalls. */
SEC("tracepoint/syscalls/sys_enter_io_submit")
int ior_aio_submit(struct sys_enter_ctx *ctx)
{
	return aio_submit(ctx);
}

SEC("tracepoint/syscalls/sys_exit_io_submit")
int ior_aio_submit_exit(struct sys_exit_ctx *ctx)
{
	return aio_submit_exit(ctx);
}

/* io_getevents and io_pgetevents: the same arguments up to events */
SEC("tracepoint/syscalls/sys_enter_io_getevents")
int ior_aio_getevents(struct sys_enter_ctx *ctx)
{
	return aio_getevents(ctx);
}

SEC("tracepoint/syscalls/sys_exit_io_getevents")
int ior_aio_getevents_exit(struct sys_exit_ctx *ctx)
{
	return aio_getevents_exit(ctx);
}

/* ---- block requests ---------------------------------------------------- */

/* block_io_start (6.5+) runs in the submitter's context for every
 * accounted request; insert and issue catch the others (and give the
 * queue and device times). trace/probe.c attaches those this kernel has. */
SEC("tracepoint/block/block_io_start")
int ior_blk_start(void *ctx)
{
	return block_on ? blk_seen(ctx, BLK_START) : 0;
}

SEC("tracepoint/block/block_rq_insert")
int ior_blk_insert(void *ctx)
{
	return block_on ? blk_seen(ctx, BLK_INSERT) : 0;
}

SEC("tracepoint/block/block_rq_issue")
int ior_blk_issue(void *ctx)
{
	return block_on ? blk_seen(ctx, BLK_ISSUE) : 0;
}

SEC("tracepoint/block/block_rq_merge")
int ior_blk_merge(void *ctx)
{
	return block_on ? blk_merged(ctx) : 0;
}

SEC("tracepoint/block/block_rq_complete")
int ior_blk_complete(void *ctx)
{
	return block_on ? blk_complete(ctx) : 0;
}

/* The page cache: folios a traced thread added (a read's misses). */
SEC("tracepoint/filemap/mm_filemap_add_to_page_cache")
int ior_cache_add(void *ctx)
{
	return cache_on ? cache_add(ctx) : 0;
}

/* ---- flush and the bench's empty programs ----------------------------- */

/* Run by user space on each CPU (BPF_PROG_TEST_RUN with
 * BPF_F_TEST_RUN_ON_CPU, in an IPI there) before it reads the rings, so
 * records wait in a batch for at most one read interval. Returns 1 when
 * the batch is held by the program the IPI interrupted (try again), 2
 * when the ring is still full (drain it, then flush again). */
SEC("raw_tracepoint/ior_flush")
int ior_flush(void *ctx)
{
	struct ior_batch *b = batch_get();
	int full = 0;

	if (!b)
		return 0;
	if (*(volatile __u32 *)&b->busy)
		return 1;
	*(volatile __u32 *)&b->busy = 1;
	asm volatile("" ::: "memory");
	if (batch_send(ctx, b)) {
		full = 2;
		if (!b->held) {
			batch_hold(b);
		} else {
			__sync_fetch_and_add(&resend_refused, 1);
		}
		b->retry_ns = bpf_ktime_get_ns() + RESEND_NS;
	}
	batch_release(b);
	return full;
}

/* make bench: the attach-mechanism floor every BPF tracer pays. */
SEC("tracepoint/syscalls/empty")
int ior_empty(void *ctx)
{
	(void)ctx;
	return 0;
}

SEC("raw_tracepoint/empty")
int ior_raw_empty(void *ctx)
{
	(void)ctx;
	return 0;
}
