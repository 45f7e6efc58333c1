/* Where a program finds its syscall: the three tracepoint contexts it may
 * be attached with (enum src), and reading the syscall's arguments from
 * them. The arch's pt_regs layout and its 64-bit check are in
 * regs_ARCH.h, chosen by __TARGET_ARCH_ARCH. */
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

/* The three program families share one body; src is a constant after
 * inlining, so each program keeps only its own branches. */
enum src {
	SRC_TP,  /* per-syscall tracepoints: struct sys_enter_ctx / sys_exit_ctx */
	SRC_RAW, /* raw tracepoints: struct raw_ctx, helpers for the task */
	SRC_BTF, /* tp_btf: the same arguments typed by the kernel's BTF, read
		  * directly; a helper call costs ~35 ns here, a load ~1 */
};

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

/* The arch's register map: load_args_raw and load_args_btf (enter),
 * load_exit_raw and exit_nr_btf (exit). Adding an arch is one more. */
#if defined(__TARGET_ARCH_x86)
#include "bpf/regs_x86_64.h"
#elif defined(__TARGET_ARCH_arm64)
#include "bpf/regs_arm64.h"
#else
#error "define __TARGET_ARCH_x86 or __TARGET_ARCH_arm64 (the GNUmakefile does)"
#endif

INLINE __u64 arg(const struct args *a, __u8 i)
{
	return i < 6 ? a->v[i] : 0;
}

#endif
