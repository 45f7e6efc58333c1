/* A syscall's paths and, for an open, the file it opened: the path
 * pointers from its arguments (remembered from enter to exit where the
 * exit context has no arguments), the strings read at exit, and the
 * file's identity read from the task's fd table. */
#ifndef IOR_BPF_PATHS_H
#define IOR_BPF_PATHS_H

#include "bpf/event.h"
#include "bpf/helpers.h"
#include "bpf/maps.h"
#include "bpf/regs.h"

/* At enter, for the per-syscall tracepoint programs' exit (path_args). */
INLINE void save_paths(const struct args *a, const struct ior_sys_conf *c, __u32 tid)
{
	struct path_ptrs p = {};

	p.ptr[0] = arg(a, c->path_arg[0]);
	if (c->path_arg[1] != IOR_ARG_NONE)
		p.ptr[1] = arg(a, c->path_arg[1]);
	if (bpf_map_update_elem(&path_args, &tid, &p, BPF_ANY))
		__sync_fetch_and_add(&path_args_full, 1);
}

/* The path pointers of a syscall at its exit, from its arguments. */
INLINE struct path_ptrs *exit_paths(const struct args *a, const struct ior_sys_conf *c,
				    struct path_ptrs *p)
{
	p->ptr[0] = arg(a, c->path_arg[0]);
	p->ptr[1] = c->path_arg[1] != IOR_ARG_NONE ? arg(a, c->path_arg[1]) : 0;
	return p;
}

/* The string at user address ptr into dst (IOR_PATH_MAX bytes): its
 * length without the NUL (at most IOR_PATH_MAX - 1), 0 when there is
 * none. *cut: 1 when the string goes on past what dst holds, which a
 * full dst alone cannot tell from a path of exactly that length. */
INLINE __u32 read_path(char *dst, __u64 ptr, int *cut)
{
	char next = 0;
	long n;

	*cut = 0;
	if (!ptr)
		return 0;
	n = bpf_probe_read_user_str(dst, IOR_PATH_MAX, (const void *)ptr);
	if (n <= 0)
		return 0;
	if (n >= IOR_PATH_MAX) {
		n = IOR_PATH_MAX;
		*cut = !bpf_probe_read_user(&next, 1, (const void *)(ptr + IOR_PATH_MAX - 1)) && next;
	}
	return (__u32)(n - 1);
}

/* Reads a kernel pointer at base + off; 0 when it cannot. */
INLINE __u64 kptr(__u64 base, __u32 off)
{
	__u64 v = 0;

	if (!base || bpf_probe_read_kernel(&v, sizeof v, (const void *)(base + off)))
		return 0;
	return v;
}

/* Two pointer-sized fields of one kernel object at base: in one read when
 * they are close, since each bpf_probe_read_kernel costs ~30 ns here (a
 * helper call and a fault-safe copy), most of an open's identity. The
 * offsets are .rodata constants, so the verifier sees fixed stack slots. */
#define KSPAN_MAX 64
INLINE int kread2(__u64 base, __u32 off_a, __u32 off_b, __u64 *a, __u64 *b)
{
	__u32 lo = off_a < off_b ? off_a : off_b, hi = off_a < off_b ? off_b : off_a;
	__u64 span[KSPAN_MAX / 8];

	*a = *b = 0;
	if (!base)
		return -1;
	if (hi - lo > KSPAN_MAX - 8 || (off_a | off_b) & 7)
		return bpf_probe_read_kernel(a, 8, (const void *)(base + off_a)) ||
		       bpf_probe_read_kernel(b, 8, (const void *)(base + off_b));
	if (bpf_probe_read_kernel(span, hi - lo + 8, (const void *)(base + lo)))
		return -1;
	*a = span[((off_a - lo) / 8) & (KSPAN_MAX / 8 - 1)];
	*b = span[((off_b - lo) / 8) & (KSPAN_MAX / 8 - 1)];
	return 0;
}

/* The current task's fdtable: its max_fds and fd array. tp_btf programs
 * (task set) load them directly through the task's BTF type, which the
 * verifier turns into plain loads; the others read them with helpers. */
INLINE int current_fds(const char *task, __u32 *max, __u64 *fd_array)
{
	__u64 fdt, max64 = 0;

	if (task) {
		const char *files = *(const char *const *)(task + task_files_off);
		const char *t = files ? *(const char *const *)(files + files_fdt_off) : 0;
		if (!t)
			return -1;
		*max = *(const __u32 *)(t + fdt_max_fds_off);
		*fd_array = *(const __u64 *)(t + fdt_fd_off);
		return 0;
	}
	fdt = kptr(kptr(bpf_get_current_task(), task_files_off), files_fdt_off);
	if (kread2(fdt, fdt_max_fds_off & ~7u, fdt_fd_off, &max64, fd_array))
		return -1;
	*max = (__u32)(max64 >> (fdt_max_fds_off & 7) * 8);
	return 0;
}

/* Bytes before the first NUL of a little-endian word, 8 when none: the
 * lowest byte the zero-byte test flags is exact (borrows only flag bytes
 * above a real zero), and the multiply turns its position into a count. */
INLINE __u32 nul_at(__u64 v)
{
	__u64 m = (v - 0x0101010101010101ull) & ~v & 0x8080808080808080ull;

	if (!m)
		return 8;
	return (__u32)((((m & -m) >> 7) * 0x0001020304050607ull) >> 56);
}

/* A short name in the dentry's inline buffer (span holds it, from word
 * w0): copied to leaf up to its NUL, the rest of its last word zeroed
 * (stale bytes of an older name never leave the kernel). Its length, or
 * -1 when no NUL was found. */
INLINE int inline_leaf(const __u64 *span, __u32 w0, char *leaf)
{
#pragma unroll
	for (__u32 w = 0; w < IOR_INAME_MAX / 8; w++) {
		if (w >= dentry_iname_len / 8)
			break;
		__u64 v = span[(w0 + w) & (KSPAN_MAX / 8 - 1)];
		__u32 k = nul_at(v);
		if (k < 8) {
			*(__u64 *)(leaf + w * 8) = k ? v & ((1ull << (k * 8)) - 1) : 0;
			return (int)(w * 8 + k);
		}
		*(__u64 *)(leaf + w * 8) = v;
	}
	return -1;
}

/* The leaf name of dentry into leaf (IOR_LEAF_MAX bytes), its length. A
 * short name lives in the dentry (dentry_iname_off): one read brings the
 * name's pointer and the name; a longer one takes a second read. */
INLINE __u16 leaf_name(__u64 dentry, char *leaf)
{
	__u32 lo = dentry_name_off + qstr_name_off, io = dentry_iname_off;
	__u64 span[KSPAN_MAX / 8], name = 0;
	long n;

	if (!dentry)
		return 0;
	if (dentry_iname_len >= 8 && io > lo && !((io - lo) & 7) && io + dentry_iname_len - lo <= KSPAN_MAX &&
	    !bpf_probe_read_kernel(span, io + dentry_iname_len - lo, (const void *)(dentry + lo))) {
		name = span[0];
		if (name == dentry + io) {
			n = inline_leaf(span, (io - lo) / 8, leaf);
			if (n >= 0)
				return (__u16)n;
		}
	} else {
		name = kptr(dentry, lo);
	}
	n = name ? bpf_probe_read_kernel_str(leaf, IOR_LEAF_MAX, (const void *)name) : 0;
	return n > 1 ? (__u16)(n - 1) : 0;
}

/* leaf_name through a typed dentry (bpf_rdonly_cast's): the inline name
 * a word at a time, plain loads. */
INLINE __u16 leaf_name_typed(const char *dentry, char *leaf)
{
	const char *name, *in, *at;
	long n;

	if (!dentry)
		return 0;
	name = *(const char *const *)(dentry + dentry_name_off + qstr_name_off);
	in = dentry + dentry_iname_off;
	/* compared through an opaque copy: equal to in, clang would load
	 * through name, which the verifier types a scalar before 6.13 */
	at = in;
	asm volatile("" : "+r"(at));
	if (dentry_iname_len >= 8 && name == at) {
#pragma unroll
		for (__u32 w = 0; w < IOR_INAME_MAX / 8; w++) {
			if (w >= dentry_iname_len / 8)
				break;
			__u64 v = *(const __u64 *)(in + w * 8);
			__u32 k = nul_at(v);
			if (k < 8) {
				*(__u64 *)(leaf + w * 8) = k ? v & ((1ull << (k * 8)) - 1) : 0;
				return (__u16)(w * 8 + k);
			}
			*(__u64 *)(leaf + w * 8) = v;
		}
	}
	n = name ? bpf_probe_read_kernel_str(leaf, IOR_LEAF_MAX, name) : 0;
	return n > 1 ? (__u16)(n - 1) : 0;
}

/* file_ident's part after the fd array: struct file's fields as plain
 * loads on bpf_rdonly_cast's typed pointer (a faulting one reads 0). */
INLINE int file_ident_typed(__u64 file_addr, struct ior_file_ident *id, char *leaf)
{
	const char *file = bpf_rdonly_cast((const void *)file_addr, file_btf_id), *inode, *sb;

	if (!file || !(inode = *(const char *const *)(file + file_inode_off)) ||
	    !(sb = *(const char *const *)(inode + inode_sb_off)))
		return -1;
	id->dev = *(const __u32 *)(sb + sb_dev_off);
	id->ino = *(const __u64 *)(inode + inode_ino_off);
	id->leaf_len = leaf_name_typed(*(const char *const *)(file + file_path_off + path_dentry_off), leaf);
	id->pad = 0;
	return 0;
}

/* The device, inode and leaf name of the file fd names in the current
 * task (an open just returned it): current->files->fdt->fd[fd], its
 * f_inode and f_path.dentry->d_name. leaf has IOR_LEAF_MAX bytes. task:
 * the current task for tp_btf programs, else NULL. */
INLINE int file_ident(__s64 fd, struct ior_file_ident *id, char *leaf, const char *task)
{
	__u64 fd_array = 0, file, inode, dentry, sb, ino;
	__u32 max = 0;

	if (current_fds(task, &max, &fd_array) || fd < 0 || fd >= max)
		return -1;
	file = kptr(fd_array, (__u32)fd * 8);
	if (task && file_btf_id)
		return file_ident_typed(file, id, leaf);
	if (kread2(file, file_inode_off, file_path_off + path_dentry_off, &inode, &dentry) ||
	    kread2(inode, inode_sb_off, inode_ino_off, &sb, &ino) || !sb ||
	    bpf_probe_read_kernel(&id->dev, sizeof id->dev, (const void *)(sb + sb_dev_off)))
		return -1;
	id->ino = ino;
	id->leaf_len = leaf_name(dentry, leaf);
	id->pad = 0;
	return 0;
}

#endif
