/* A syscall's paths and, for an open, the file it opened: the path
 * pointers from its arguments (remembered from enter to exit where the
 * exit context has no arguments), the strings read at exit, and the
 * file's identity read from the task's fd table. */
#ifndef IOR_BPF_PATHS_H
#define IOR_BPF_PATHS_H

#include "trace/event.h"
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

/* The device, inode and leaf name of the file fd names in the current
 * task (an open just returned it): current->files->fdt->fd[fd], its
 * f_inode and f_path.dentry->d_name. leaf has IOR_LEAF_MAX bytes. */
INLINE int file_ident(__s64 fd, struct ior_file_ident *id, char *leaf)
{
	__u64 fdt = kptr(kptr(bpf_get_current_task(), task_files_off), files_fdt_off);
	__u64 file, inode, sb, name;
	__u32 max = 0;
	long n;

	if (!fdt || bpf_probe_read_kernel(&max, sizeof max, (const void *)(fdt + fdt_max_fds_off)) ||
	    fd < 0 || fd >= max)
		return -1;
	file = kptr(kptr(fdt, fdt_fd_off), (__u32)fd * 8);
	inode = kptr(file, file_inode_off);
	sb = kptr(inode, inode_sb_off);
	if (!sb || bpf_probe_read_kernel(&id->ino, sizeof id->ino, (const void *)(inode + inode_ino_off)) ||
	    bpf_probe_read_kernel(&id->dev, sizeof id->dev, (const void *)(sb + sb_dev_off)))
		return -1;
	name = kptr(kptr(file, file_path_off + path_dentry_off), dentry_name_off + qstr_name_off);
	n = name ? bpf_probe_read_kernel_str(leaf, IOR_LEAF_MAX, (const void *)name) : 0;
	id->leaf_len = n > 1 ? (__u16)(n - 1) : 0;
	id->pad = 0;
	return 0;
}

#endif
