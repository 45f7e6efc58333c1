/* Where a program finds its syscall: the three tracepoint contexts it may
 * be attached with (enum src), and reading the syscall's arguments from
 * them. x86_64 only: the pt_regs layout and the 64-bit check. */
#ifndef IOR_BPF_REGS_H
#define IOR_BPF_REGS_H

#include "bpf/helpers.h"

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
 * for every syscall (trace/probe.c attaches these). Detaching a per-syscall perf
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

/* The three program families share one body; src is a constant after
 * inlining, so each program keeps only its own branches. */
enum src {
	SRC_TP,  /* per-syscall tracepoints: struct sys_enter_ctx / sys_exit_ctx */
	SRC_RAW, /* raw tracepoints: struct raw_ctx, helpers for the task */
	SRC_BTF, /* tp_btf: the same arguments typed by the kernel's BTF, read
		  * directly; a helper call costs ~35 ns here, a load ~1 */
};

/* The cs of pt_regs, whose high bytes FRED kernels use for other bits. */
INLINE int user64(__u64 cs)
{
	return (__u16)cs == USER64_CS;
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

/* 0, or -1 for a syscall of a 32-bit process (not traced). Reads pt_regs
 * from r10 (the first argument register in its layout) to cs. */
INLINE int load_args_raw(const struct raw_ctx *ctx, struct args *a)
{
	struct {
		__u64 r10, r9, r8, ax, cx, dx, si, di, orig_ax, ip, cs;
	} r;

	if (bpf_probe_read_kernel(&r, sizeof r,
				  (const void *)(ctx->regs + __builtin_offsetof(struct pt_regs_x86, r10)))) {
		__builtin_memset(a, 0, sizeof *a);
		return 0;
	}
	if (!user64(r.cs))
		return -1;
	a->v[0] = r.di;
	a->v[1] = r.si;
	a->v[2] = r.dx;
	a->v[3] = r.r10;
	a->v[4] = r.r8;
	a->v[5] = r.r9;
	return 0;
}

/* tp_btf: ctx[0] is the struct pt_regs *, read in place. */
INLINE int load_args_btf(const __u64 *ctx, struct args *a)
{
	const struct pt_regs_x86 *r = (const void *)ctx[0];

	if (!user64(r->cs))
		return -1;
	a->v[0] = r->di;
	a->v[1] = r->si;
	a->v[2] = r->dx;
	a->v[3] = r->r10;
	a->v[4] = r->r8;
	a->v[5] = r->r9;
	return 0;
}

INLINE __u64 arg(const struct args *a, __u8 i)
{
	return i < 6 ? a->v[i] : 0;
}

#endif
