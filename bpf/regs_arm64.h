/* arm64's register map (bpf/regs.h includes it): where pt_regs keeps a
 * syscall's number and arguments, and which syscalls are 64-bit ones. */
#ifndef IOR_BPF_REGS_ARM64_H
#define IOR_BPF_REGS_ARM64_H

/* struct pt_regs up to syscallno (user_pt_regs, then orig_x0, stable since
 * 4.x). Arguments are x0..x5, but x0 becomes the return value: the kernel
 * keeps argument 0 in orig_x0 (syscall_get_arguments reads it there). */
struct pt_regs_arm64 {
	__u64 regs[31];
	__u64 sp, pc, pstate;
	__u64 orig_x0;
	__s32 syscallno;
	__u32 unused;
};

/* pstate of a 32-bit (compat) task, whose syscalls have other numbers
 * and which the per-syscall tracepoints skip too. */
#define PSR_MODE32_BIT 0x10

struct regs_tail {
	__u64 pstate, orig_x0;
	__s32 syscallno;
	__u32 unused;
};

/* Two reads, x1..x5 then pstate..syscallno: one would cost 288 bytes of
 * stack. -1 when either fails. */
INLINE int read_regs(__u64 regs, struct args *a, struct regs_tail *t)
{
	if (bpf_probe_read_kernel(&a->v[1], 5 * sizeof(__u64),
				  (const void *)(regs + __builtin_offsetof(struct pt_regs_arm64, regs[1]))))
		return -1;
	if (bpf_probe_read_kernel(t, sizeof *t,
				  (const void *)(regs + __builtin_offsetof(struct pt_regs_arm64, pstate))))
		return -1;
	a->v[0] = t->orig_x0;
	return 0;
}

/* 0, or -1 for a syscall of a 32-bit process (not traced). */
INLINE int load_args_raw(const struct raw_ctx *ctx, struct args *a)
{
	struct regs_tail t;

	if (read_regs(ctx->regs, a, &t)) {
		__builtin_memset(a, 0, sizeof *a);
		return 0;
	}
	return t.pstate & PSR_MODE32_BIT ? -1 : 0;
}

/* The exit's number is syscallno, as syscall_get_nr() reads it; -1 when
 * pt_regs cannot be read or the process is a 32-bit one. */
INLINE int load_exit_raw(const struct raw_ctx *ctx, __u32 *nr, struct args *a)
{
	struct regs_tail t;

	if (read_regs(ctx->regs, a, &t) || (t.pstate & PSR_MODE32_BIT))
		return -1;
	*nr = (__u32)t.syscallno;
	return 0;
}

/* tp_btf: ctx[0] is the struct pt_regs *, read in place. */
INLINE int load_args_btf(const __u64 *ctx, struct args *a)
{
	const struct pt_regs_arm64 *r = (const void *)ctx[0];

	if (r->pstate & PSR_MODE32_BIT)
		return -1;
	a->v[0] = r->orig_x0;
	a->v[1] = r->regs[1];
	a->v[2] = r->regs[2];
	a->v[3] = r->regs[3];
	a->v[4] = r->regs[4];
	a->v[5] = r->regs[5];
	return 0;
}

INLINE __u32 exit_nr_btf(const __u64 *ctx)
{
	return (__u32)((const struct pt_regs_arm64 *)ctx[0])->syscallno;
}

#endif
