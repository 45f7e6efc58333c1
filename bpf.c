// SPDX-License-Identifier: GPL-2.0
/* ior's kernel side: one generic enter program and one generic exit
 * program, driven by a per-syscall argument table that user space fills
 * (struct ior_sys_conf). Each comes twice: for the per-syscall tracepoints
 * sys_enter_X/sys_exit_X (ior -check) and for the raw tracepoints
 * sys_enter/sys_exit, which the trace command attaches once for all
 * syscalls (see struct raw_ctx). Records go to per-CPU perf rings; see
 * trace/event.h for their layout. Built with clang -target bpf, no libbpf:
 * the few helper and map declarations it needs are spelled out here. */
#include <linux/types.h>
#include <linux/bpf.h>

#include "trace/event.h"

#define SEC(name) __attribute__((section(name), used))
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name
#define INLINE static inline __attribute__((always_inline))

static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)BPF_FUNC_map_lookup_elem;
static long (*bpf_map_update_elem)(void *map, const void *key, const void *value,
				   __u64 flags) = (void *)BPF_FUNC_map_update_elem;
static long (*bpf_map_delete_elem)(void *map, const void *key) = (void *)BPF_FUNC_map_delete_elem;
static __u64 (*bpf_ktime_get_ns)(void) = (void *)BPF_FUNC_ktime_get_ns;
static __u64 (*bpf_get_current_pid_tgid)(void) = (void *)BPF_FUNC_get_current_pid_tgid;
static long (*bpf_get_current_comm)(void *buf, __u32 size) = (void *)BPF_FUNC_get_current_comm;
static long (*bpf_perf_event_output)(void *ctx, void *map, __u64 flags, void *data,
				     __u64 size) = (void *)BPF_FUNC_perf_event_output;
static long (*bpf_probe_read_kernel)(void *dst, __u32 size,
				     const void *src) = (void *)BPF_FUNC_probe_read_kernel;
static long (*bpf_probe_read_user)(void *dst, __u32 size, const void *src) = (void *)BPF_FUNC_probe_read_user;
static long (*bpf_probe_read_user_str)(void *dst, __u32 size,
				       const void *src) = (void *)BPF_FUNC_probe_read_user_str;

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load; .rodata is frozen, so the verifier prunes
 * the filters that are off. */
const volatile __u32 ior_pid = 0;         /* ior itself: never traced */
const volatile __s64 filter_pid = -1;
const volatile __s64 filter_tid = -1;
const volatile __u32 filter_comm_len = 0; /* 0: no comm filter */
const volatile char filter_comm[IOR_COMM_LEN] = {};

/* Counted here because nothing else would tell: path pointers that could
 * not be remembered between enter and exit (path_args full). */
__u64 path_args_full = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 1024); /* CPUs; user space stores one ring fd per CPU */
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, IOR_NR_MAX);
	__type(key, __u32);
	__type(value, struct ior_sys_conf);
} sys_conf SEC(".maps");

struct path_ptrs {
	__u64 ptr[2];
};

/* tid -> path arguments saved at enter, read at exit. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct path_ptrs);
} path_args SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ior_rec_exit);
} exit_scratch SEC(".maps");

/* Syscall tracepoint contexts: common fields, __syscall_nr, then the six
 * arguments (enter) or the return value (exit). Stable since Linux 4.x. */
struct sys_enter_ctx {
	__u64 common;
	__s32 nr;
	__u32 pad;
	__u64 args[6];
};

struct sys_exit_ctx {
	__u64 common;
	__s32 nr;
	__u32 pad;
	__s64 ret;
};

/* Raw tracepoints sys_enter(struct pt_regs *regs, long id) and
 * sys_exit(struct pt_regs *regs, long ret): the same programs attached once
 * for every syscall (trace/cmd.c uses these). Detaching a per-syscall perf
 * tracepoint costs an RCU grace period under a global mutex, 9 s for ior's
 * 220 tracepoints on this machine; two raw attachments detach at once.
 * Syscalls ior does not trace stop at the sys_conf lookup. */
struct raw_ctx {
	__u64 regs; /* struct pt_regs * */
	__s64 arg;  /* enter: syscall number; exit: return value */
};

/* x86_64 struct pt_regs up to orig_ax: a syscall's arguments are di, si,
 * dx, r10, r8, r9, its number orig_ax (ptrace ABI, stable). */
struct pt_regs_x86 {
	__u64 r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di, orig_ax, ip, cs;
};

/* A 64-bit syscall comes from the 64-bit user code segment; a 32-bit
 * (ia32) process uses other syscall numbers, which the per-syscall
 * tracepoints skip too. */
#define USER64_CS 0x33

/* The header of an exit record without paths. */
struct exit_small {
	struct ior_rec_head h;
	__s64 ret;
};

INLINE int pid_wanted(__u64 pid_tgid)
{
	__u32 pid = pid_tgid >> 32, tid = (__u32)pid_tgid;

	if (pid == ior_pid)
		return 0;
	if (filter_pid >= 0 && pid != (__u32)filter_pid)
		return 0;
	if (filter_tid >= 0 && tid != (__u32)filter_tid)
		return 0;
	return 1;
}

/* Substring match of filter_comm in comm (both at most 16 bytes). */
INLINE int comm_wanted(const char *comm)
{
	__u32 n = filter_comm_len;

	if (!n)
		return 1;
	for (__u32 start = 0; start + n <= IOR_COMM_LEN; start++) {
		__u32 i = 0;
		for (; i < n && i < IOR_COMM_LEN; i++) {
			if (start + i >= IOR_COMM_LEN || comm[start + i] != filter_comm[i])
				break;
		}
		if (i == n)
			return 1;
	}
	return 0;
}

/* One program serves syscalls of 0 to 6 arguments, but the kernel refuses
 * to attach a program whose direct ctx reads go past the tracepoint's
 * record (max_ctx_offset). So the arguments are copied with
 * bpf_probe_read_kernel: the record sits in a per-CPU buffer larger than
 * any syscall record, and arguments a syscall lacks are never used. */
struct args {
	__u64 v[6];
};

INLINE void load_args_tp(const struct sys_enter_ctx *ctx, struct args *a)
{
	if (bpf_probe_read_kernel(a, sizeof *a, &ctx->args))
		__builtin_memset(a, 0, sizeof *a);
}

/* 0, or -1 for a syscall of a 32-bit process (not traced). */
INLINE int load_args_raw(const struct raw_ctx *ctx, struct args *a)
{
	struct pt_regs_x86 r;

	if (bpf_probe_read_kernel(&r, sizeof r, (const void *)ctx->regs)) {
		__builtin_memset(a, 0, sizeof *a);
		return 0;
	}
	if (r.cs != USER64_CS)
		return -1;
	a->v[0] = r.di;
	a->v[1] = r.si;
	a->v[2] = r.dx;
	a->v[3] = r.r10;
	a->v[4] = r.r8;
	a->v[5] = r.r9;
	return 0;
}

INLINE __u64 arg(const struct args *a, __u8 i)
{
	return i < 6 ? a->v[i] : 0;
}

INLINE void fill_head(struct ior_rec_head *h, __u64 pid_tgid, __u16 kind, __u32 nr)
{
	h->ts = bpf_ktime_get_ns();
	h->pid = pid_tgid >> 32;
	h->tid = (__u32)pid_tgid;
	h->kind = kind;
	h->nr = (__u16)nr;
	h->pad = 0;
}

INLINE void save_paths(const struct args *a, const struct ior_sys_conf *c, __u32 tid)
{
	struct path_ptrs p = {};

	p.ptr[0] = arg(a, c->path_arg[0]);
	if (c->path_arg[1] != IOR_ARG_NONE)
		p.ptr[1] = arg(a, c->path_arg[1]);
	if (bpf_map_update_elem(&path_args, &tid, &p, BPF_ANY))
		__sync_fetch_and_add(&path_args_full, 1);
}

/* raw: ctx is a struct raw_ctx, else a struct sys_enter_ctx (a constant
 * after inlining, so each program keeps only its own branch). */
INLINE int do_enter(void *ctx, __u32 nr, int raw)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct ior_sys_conf *c;
	struct ior_rec_enter r;
	struct args a;

	if (!pid_wanted(pid_tgid))
		return 0;
	c = bpf_map_lookup_elem(&sys_conf, &nr);
	if (!c || !c->traced)
		return 0;
	bpf_get_current_comm(r.comm, sizeof r.comm);
	if (!comm_wanted(r.comm))
		return 0;
	fill_head(&r.h, pid_tgid, IOR_REC_ENTER, nr);
	if (raw) {
		if (load_args_raw(ctx, &a))
			return 0;
	} else {
		load_args_tp(ctx, &a);
	}
	r.fd = c->fd_arg == IOR_ARG_NONE ? -1 : (__s64)(__s32)arg(&a, c->fd_arg);
	r.flags = 0;
	if (c->flags_arg != IOR_ARG_NONE) {
		r.flags = arg(&a, c->flags_arg);
		if (c->flags_is_open_how &&
		    bpf_probe_read_user(&r.flags, sizeof r.flags, (void *)r.flags))
			r.flags = 0;
	}
	r.aux = c->aux_arg == IOR_ARG_NONE ? 0 : arg(&a, c->aux_arg);
	if (c->path_arg[0] != IOR_ARG_NONE)
		save_paths(&a, c, (__u32)pid_tgid);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &r, sizeof r);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter")
int ior_enter(struct sys_enter_ctx *ctx)
{
	return do_enter(ctx, ctx->nr, 0);
}

SEC("raw_tracepoint/sys_enter")
int ior_raw_enter(struct raw_ctx *ctx)
{
	return do_enter(ctx, (__u32)ctx->arg, 1);
}

INLINE __u32 read_path(char *dst, __u64 ptr)
{
	long n;

	if (!ptr)
		return 0;
	n = bpf_probe_read_user_str(dst, IOR_PATH_MAX, (const void *)ptr);
	return n > 0 ? (__u32)(n - 1) : 0;
}

/* Exit of a syscall that takes paths: read them now that the kernel has
 * faulted the pages in, and send them with the exit. */
INLINE void output_exit_paths(void *ctx, __u64 pid_tgid, __u32 nr, __s64 ret)
{
	__u32 zero = 0, tid = (__u32)pid_tgid, len0, len1 = 0;
	struct ior_rec_exit *r = bpf_map_lookup_elem(&exit_scratch, &zero);
	struct path_ptrs *p = bpf_map_lookup_elem(&path_args, &tid);
	__u64 size;

	if (!r)
		return;
	fill_head(&r->h, pid_tgid, IOR_REC_EXIT, nr);
	r->ret = ret;
	r->pad = 0;
	if (!p) {
		r->npaths = 0;
		r->path_len[0] = r->path_len[1] = 0;
		bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, r, IOR_REC_EXIT_BASE);
		return;
	}
	len0 = read_path(r->paths, p->ptr[0]);
	r->npaths = 1;
	size = IOR_REC_EXIT_BASE + len0;
	if (p->ptr[1]) {
		len1 = read_path(r->paths + IOR_PATH_MAX, p->ptr[1]);
		r->npaths = 2;
		size = IOR_REC_EXIT_BASE + IOR_PATH_MAX + len1;
	}
	r->path_len[0] = (__u16)len0;
	r->path_len[1] = (__u16)len1;
	bpf_map_delete_elem(&path_args, &tid);
	if (size > sizeof(*r))
		size = sizeof(*r);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, r, size);
}

INLINE int do_exit(void *ctx, __u32 nr, __s64 ret)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct ior_sys_conf *c;
	struct exit_small r;

	if (!pid_wanted(pid_tgid))
		return 0;
	c = bpf_map_lookup_elem(&sys_conf, &nr);
	if (!c || !c->traced)
		return 0;
	if (filter_comm_len) {
		char comm[IOR_COMM_LEN];
		bpf_get_current_comm(comm, sizeof comm);
		if (!comm_wanted(comm))
			return 0;
	}
	if (c->path_arg[0] != IOR_ARG_NONE) {
		output_exit_paths(ctx, pid_tgid, nr, ret);
		return 0;
	}
	fill_head(&r.h, pid_tgid, IOR_REC_EXIT, nr);
	r.ret = ret;
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &r, sizeof r);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit")
int ior_exit(struct sys_exit_ctx *ctx)
{
	return do_exit(ctx, ctx->nr, ctx->ret);
}

/* The syscall number at exit is regs->orig_ax, as syscall_get_nr() reads
 * it; the pid filter runs first so other processes skip the read. */
SEC("raw_tracepoint/sys_exit")
int ior_raw_exit(struct raw_ctx *ctx)
{
	struct {
		__u64 orig_ax, ip, cs;
	} r;

	if (!pid_wanted(bpf_get_current_pid_tgid()))
		return 0;
	if (bpf_probe_read_kernel(&r, sizeof r,
				  (const void *)(ctx->regs + __builtin_offsetof(struct pt_regs_x86, orig_ax))))
		return 0;
	if (r.cs != USER64_CS)
		return 0;
	return do_exit(ctx, (__u32)r.orig_ax, ctx->arg);
}

/* Thread and process exits let user space free per-tid and per-pid state
 * (and know a tid can be reused). */
INLINE int do_task_exit(void *ctx)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	struct ior_rec_head h;
	__u16 kind = (pid_tgid >> 32) == (__u32)pid_tgid ? IOR_REC_PROC_EXIT : IOR_REC_THREAD_EXIT;

	if (!pid_wanted(pid_tgid))
		return 0;
	fill_head(&h, pid_tgid, kind, 0);
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &h, sizeof h);
	return 0;
}

SEC("tracepoint/sched/sched_process_exit")
int ior_task_exit(void *ctx)
{
	return do_task_exit(ctx);
}

SEC("raw_tracepoint/sched_process_exit")
int ior_raw_task_exit(void *ctx)
{
	return do_task_exit(ctx);
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
