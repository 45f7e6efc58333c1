/* x86_64's register map (bpf/regs.h includes it): where pt_regs keeps a
 * syscall's number and arguments, and which syscalls are 64-bit ones. */
#ifndef IOR_BPF_REGS_X86_64_H
#define IOR_BPF_REGS_X86_64_H

/* struct pt_regs up to cs: a syscall's arguments are di, si, dx, r10, r8,
 * r9, its number orig_ax (ptrace ABI, stable). */
struct pt_regs_x86 {
	__u64 r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di, orig_ax, ip, cs;
};

/* A 64-bit syscall comes from the 64-bit user code segment; a 32-bit
 * (ia32) process uses other syscall numbers, which the per-syscall
 * tracepoints skip too. */
#define USER64_CS 0x33

/* The cs of pt_regs, whose high bytes FRED kernels use for other bits. */
INLINE int user64(__u64 cs)
{
	return (__u16)cs == USER64_CS;
}

/* pt_regs from r10 (the first argument register in its layout) to cs. */
struct regs_tail {
	__u64 r10, r9, r8, ax, cx, dx, si, di, orig_ax, ip, cs;
};

INLINE int read_regs_tail(__u64 regs, struct regs_tail *r)
{
	return bpf_probe_read_kernel(r, sizeof *r,
				     (const void *)(regs + __builtin_offsetof(struct pt_regs_x86, r10)));
}

/* The arguments from anything with pt_regs' field names: a copy
 * (struct regs_tail) or the tp_btf pointer, read in place. */
#define ARGS_OF(r, a)                                                                              \
	do {                                                                                       \
		(a)->v[0] = (r)->di;                                                               \
		(a)->v[1] = (r)->si;                                                               \
		(a)->v[2] = (r)->dx;                                                               \
		(a)->v[3] = (r)->r10;                                                              \
		(a)->v[4] = (r)->r8;                                                               \
		(a)->v[5] = (r)->r9;                                                               \
	} while (0)

/* 0, or -1 for a syscall of a 32-bit process (not traced). */
INLINE int load_args_raw(const struct raw_ctx *ctx, struct args *a)
{
	struct regs_tail r;

	if (read_regs_tail(ctx->regs, &r)) {
		__builtin_memset(a, 0, sizeof *a);
		return 0;
	}
	if (!user64(r.cs))
		return -1;
	ARGS_OF(&r, a);
	return 0;
}

/* The exit's number is orig_ax, as syscall_get_nr() reads it; -1 when
 * pt_regs cannot be read or the process is a 32-bit one. */
INLINE int load_exit_raw(const struct raw_ctx *ctx, __u32 *nr, struct args *a)
{
	struct regs_tail r;

	if (read_regs_tail(ctx->regs, &r) || !user64(r.cs))
		return -1;
	ARGS_OF(&r, a);
	*nr = (__u32)r.orig_ax;
	return 0;
}

/* tp_btf: ctx[0] is the struct pt_regs *, read in place. */
INLINE int load_args_btf(const __u64 *ctx, struct args *a)
{
	const struct pt_regs_x86 *r = (const void *)ctx[0];

	if (!user64(r->cs))
		return -1;
	ARGS_OF(r, a);
	return 0;
}

INLINE __u32 exit_nr_btf(const __u64 *ctx)
{
	return (__u32)((const struct pt_regs_x86 *)ctx[0])->orig_ax;
}

#endif
