/* Filling the records of bpf/event.h in place: in a batch slot, a
 * per-CPU scratch buffer or on the stack. */
#ifndef IOR_BPF_RECORD_H
#define IOR_BPF_RECORD_H

#include "bpf/event.h"
#include "bpf/helpers.h"
#include "bpf/maps.h"
#include "bpf/paths.h"
#include "bpf/regs.h"

/* Every record's head; len is the record's, in bytes. */
INLINE void fill_head(struct ior_rec_head *h, __u64 pid_tgid, __u16 kind, __u32 nr, __u32 len)
{
	h->ts = bpf_ktime_get_ns();
	h->pid = pid_tgid >> 32;
	h->tid = (__u32)pid_tgid;
	h->kind = kind;
	h->nr = (__u16)nr;
	h->len = len;
}

/* Returns the record's length: flags and aux only when the syscall has one. */
INLINE __u32 fill_enter(struct ior_rec_enter *r, __u64 pid_tgid, __u32 nr, const struct ior_sys_conf *c,
			const struct args *a, const __u64 *comm)
{
	__u32 len = c->flags_arg == IOR_ARG_NONE && c->aux_arg == IOR_ARG_NONE ? IOR_REC_ENTER_BASE :
										      sizeof *r;

	fill_head(&r->h, pid_tgid, IOR_REC_ENTER, nr, len);
	__builtin_memcpy(r->comm, comm, IOR_COMM_LEN);
	r->fd = c->fd_arg == IOR_ARG_NONE ? -1 : (__s64)(__s32)arg(a, c->fd_arg);
	if (len == IOR_REC_ENTER_BASE)
		return len;
	r->flags = 0;
	if (c->flags_arg != IOR_ARG_NONE) {
		r->flags = arg(a, c->flags_arg);
		if (c->flags_is_open_how &&
		    bpf_probe_read_user(&r->flags, sizeof r->flags, (void *)r->flags))
			r->flags = 0;
	}
	r->aux = c->aux_arg == IOR_ARG_NONE ? 0 : arg(a, c->aux_arg);
	return len;
}

/* Fills an exit record and returns its length. With p (the syscall takes
 * paths), the paths are read now that the kernel has faulted their pages
 * in, and the record is cut after the last one. An open that returned an
 * fd (ident) gets the file's identity after its path; task as for
 * file_ident. */
INLINE __u32 fill_exit(struct ior_rec_exit *r, __u64 pid_tgid, __u32 nr, __s64 ret,
		       const struct path_ptrs *p, int ident, const char *task)
{
	__u32 len0 = 0, len1 = 0, size = IOR_REC_EXIT_SHORT;
	int cut0 = 0, cut1 = 0;

	fill_head(&r->h, pid_tgid, IOR_REC_EXIT, nr, 0);
	r->ret = ret;
	r->npaths = 0;
	r->cut = 0;
	r->ident = 0;
	if (p) {
		len0 = read_path(r->paths, p->ptr[0], &cut0);
		if (len0 > IOR_PATH_MAX - 1) /* for the verifier: read_path's bound */
			len0 = IOR_PATH_MAX - 1;
		r->npaths = 1;
		size = IOR_REC_EXIT_BASE + len0;
		__u32 off = IOR_PATH1_OFF(len0); /* the identity's or path 1's place */
		if (off > IOR_PATH_MAX)
			off = IOR_PATH_MAX;
		if (ident_on && ident && ret >= 0 && !p->ptr[1]) {
			struct ior_file_ident *id = (struct ior_file_ident *)(r->paths + off);
			if (!file_ident(ret, id, r->paths + off + sizeof *id, task)) {
				r->ident = 1;
				size = IOR_REC_EXIT_BASE + off + sizeof *id + id->leaf_len;
			}
		}
		if (p->ptr[1]) {
			len1 = read_path(r->paths + off, p->ptr[1], &cut1);
			r->npaths = 2;
			size = IOR_REC_EXIT_BASE + off + len1;
		}
	}
	r->cut = (__u8)(cut0 | cut1 << 1);
	r->path_len[0] = (__u16)len0;
	r->path_len[1] = (__u16)len1;
	if (size > sizeof(*r))
		size = sizeof(*r);
	r->h.len = size;
	return size;
}

#endif
