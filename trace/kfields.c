#include "trace/kfields.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "loader/loader.h"
#include "bpf/event.h"
#include "trace/features.h"

struct kfield {
	const char *type, *member, *global;
	uint32_t size;
};

static const struct kfield fields[] = {
	{ "task_struct", "pid", "task_pid_off", 4 },   /* the thread id */
	{ "task_struct", "tgid", "task_tgid_off", 4 }, /* the process id */
	{ "task_struct", "comm", "task_comm_off", IOR_COMM_LEN },
	/* threads still alive in the process: -follow forgets it at 0 */
	{ "task_struct", "signal", "task_signal_off", 8 },
	{ "signal_struct", "live", "signal_live_off", 4 },
};

/* The way from the current task to an fd's file and its inode: the
 * identity (device, inode) of a file an open returned, so user space can
 * verify the canonical name it gives the fd. */
static const struct kfield ident_fields[] = {
	{ "task_struct", "files", "task_files_off", 8 },
	{ "files_struct", "fdt", "files_fdt_off", 8 },
	{ "fdtable", "max_fds", "fdt_max_fds_off", 4 },
	{ "fdtable", "fd", "fdt_fd_off", 8 },
	{ "file", "f_inode", "file_inode_off", 8 },
	{ "inode", "i_ino", "inode_ino_off", 8 },
	{ "inode", "i_sb", "inode_sb_off", 8 },
	{ "super_block", "s_dev", "sb_dev_off", 4 },
	{ "file", "f_path", "file_path_off", 16 },
	{ "path", "dentry", "path_dentry_off", 8 },
	{ "dentry", "d_name", "dentry_name_off", 16 },
	{ "qstr", "name", "qstr_name_off", 8 },
};

static int set_all(struct ior_bpf_obj *obj, const struct kfield *f, size_t n, char *why, size_t whylen)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t off, size;
		int r = ior_loader_kernel_member(obj, f[i].type, f[i].member, &off, &size,
						 why, whylen);
		if (!r && size != f[i].size) {
			snprintf(why, whylen, "kernel BTF: %s.%s is %u bytes, ior reads %u",
				 f[i].type, f[i].member, size, f[i].size);
			return 0;
		}
		if (!r)
			r = ior_loader_set_global(obj, f[i].global, &off, sizeof off, why, whylen);
		if (r)
			return 0;
	}
	return 1;
}

int ior_kfields_set(struct ior_bpf_obj *obj, char *why, size_t whylen)
{
	return set_all(obj, fields, sizeof fields / sizeof fields[0], why, whylen);
}

/* A dentry's inline name, where a short name lives: the kernel side reads
 * it with the name's pointer, one read less per open. Optional. */
static void set_inline_name(struct ior_bpf_obj *obj)
{
	static const char *const members[] = { "d_shortname", "d_iname" }; /* >= 6.14, before */
	char why[256];

	for (size_t i = 0; i < sizeof members / sizeof members[0]; i++) {
		uint32_t off, size;
		if (ior_loader_kernel_member(obj, "dentry", members[i], &off, &size, why, sizeof why) ||
		    size > IOR_INAME_MAX)
			continue;
		if (!ior_loader_set_global(obj, "dentry_iname_off", &off, sizeof off, why, sizeof why) &&
		    !ior_loader_set_global(obj, "dentry_iname_len", &size, sizeof size, why, sizeof why))
			ior_feature_set(IOR_FEAT_DENTRY_NAME, true, members[i]);
		return;
	}
	ior_feature_set(IOR_FEAT_DENTRY_NAME, false, "struct dentry has neither d_shortname nor d_iname");
}

int ior_kfields_set_ident(struct ior_bpf_obj *obj, char *why, size_t whylen)
{
	uint32_t on = 1;

	if (!set_all(obj, ident_fields, sizeof ident_fields / sizeof ident_fields[0], why, whylen) ||
	    ior_loader_set_global(obj, "ident_on", &on, sizeof on, why, whylen))
		return 0;
	set_inline_name(obj);
	return 1;
}

/* From an fd's file to its socket's addresses (struct sock_common), for
 * the endpoints of sockets connected, bound or accepted under the trace. */
static const struct kfield sk_fields[] = {
	{ "file", "private_data", "file_private_off", 8 },
	{ "socket", "sk", "socket_sk_off", 8 },
	{ "sock_common", "skc_family", "skc_family_off", 2 },
	{ "sock_common", "skc_num", "skc_num_off", 2 },
	{ "sock_common", "skc_dport", "skc_dport_off", 2 },
	{ "sock_common", "skc_rcv_saddr", "skc_rcv_saddr_off", 4 },
	{ "sock_common", "skc_daddr", "skc_daddr_off", 4 },
	{ "sock_common", "skc_v6_rcv_saddr", "skc_v6_rcv_saddr_off", 16 },
	{ "sock_common", "skc_v6_daddr", "skc_v6_daddr_off", 16 },
};

int ior_kfields_set_sk(struct ior_bpf_obj *obj, char *why, size_t whylen)
{
	uint32_t on = 1;

	return set_all(obj, sk_fields, sizeof sk_fields / sizeof sk_fields[0], why, whylen) &&
	       !ior_loader_set_global(obj, "sk_on", &on, sizeof on, why, whylen);
}

/* io_uring's tracepoint records and requests. Records: req is in both
 * since Linux 5.19 (before, requests cannot be matched: not traced);
 * submit_sqe became submit_req in 6.4; flags grew to 64 bits (the bits
 * read are in the low word, little-endian). */
static const struct kfield uring_fields[] = {
	{ "trace_event_raw_io_uring_complete", "req", "uring_c_req_off", 8 },
	{ "trace_event_raw_io_uring_complete", "res", "uring_c_res_off", 4 },
	{ "trace_event_raw_io_uring_complete", "cflags", "uring_c_cflags_off", 4 },
};

static int set_one(struct ior_bpf_obj *obj, const char *type, const char *member, const char *global,
		   uint32_t add, char *why, size_t whylen)
{
	uint32_t off, size;
	int r = ior_loader_kernel_member(obj, type, member, &off, &size, why, whylen);

	off += add;
	if (!r)
		r = ior_loader_set_global(obj, global, &off, sizeof off, why, whylen);
	return r;
}

/* The submit record's fields, in whichever of its two names this kernel
 * has; the tracepoint's name goes to *tp. */
static int set_uring_submit(struct ior_bpf_obj *obj, const char **tp, char *why, size_t whylen)
{
	static const char *const names[] = { "io_uring_submit_req", "io_uring_submit_sqe" };
	char type[96];

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(type, sizeof type, "trace_event_raw_%s", names[i]);
		if (set_one(obj, type, "req", "uring_s_req_off", 0, why, whylen))
			continue;
		if (set_one(obj, type, "opcode", "uring_s_op_off", 0, why, whylen) ||
		    set_one(obj, type, "ctx", "uring_s_ctx_off", 0, why, whylen) ||
		    set_one(obj, type, "flags", "uring_s_flags_off", 0, why, whylen))
			return 0;
		*tp = names[i];
		return 1;
	}
	snprintf(why, whylen, "kernel BTF: no io_uring submit tracepoint with a request pointer "
			      "(Linux 5.19 or later has one)");
	return 0;
}

/* The ops' own arguments, at the start of the request's command data
 * (Linux 6.0+): struct io_open, io_rename, ... per enum ior_async_args
 * (bpf/maps.h struct ior_uring_args_off). An op whose struct this kernel
 * lacks carries no path, dirfd or direct slot (files it names stay
 * unknown). */
static const struct uring_arg {
	unsigned kind;
	const char *type, *dfd, *name, *dfd2, *name2, *flags, *slot, *fd;
} uring_arg_rows[] = {
	{ IOR_ASYNC_ARGS_OPEN, "io_open", "dfd", "filename", NULL, NULL, "how", "file_slot", NULL },
	{ IOR_ASYNC_ARGS_CLOSE, "io_close", NULL, NULL, NULL, NULL, NULL, "file_slot", "fd" },
	{ IOR_ASYNC_ARGS_STATX, "io_statx", "dfd", "filename", NULL, NULL, "flags", NULL, NULL },
	{ IOR_ASYNC_ARGS_UNLINK, "io_unlink", "dfd", "filename", NULL, NULL, "flags", NULL, NULL },
	{ IOR_ASYNC_ARGS_MKDIR, "io_mkdir", "dfd", "filename", NULL, NULL, NULL, NULL, NULL },
	{ IOR_ASYNC_ARGS_RENAME, "io_rename", "old_dfd", "oldpath", "new_dfd", "newpath", "flags", NULL, NULL },
	{ IOR_ASYNC_ARGS_LINK, "io_link", "old_dfd", "oldpath", "new_dfd", "newpath", "flags", NULL, NULL },
	/* symlinkat's target is oldpath, the link newpath relative to new_dfd */
	{ IOR_ASYNC_ARGS_SYMLINK, "io_link", "new_dfd", "oldpath", NULL, "newpath", NULL, NULL, NULL },
	{ IOR_ASYNC_ARGS_ACCEPT, "io_accept", NULL, NULL, NULL, NULL, NULL, "file_slot", NULL },
	{ IOR_ASYNC_ARGS_SOCKET, "io_socket", NULL, NULL, NULL, NULL, NULL, "file_slot", NULL },
};

/* Member m of type at cmd + its offset into *off (IOR_UOFF_NONE for no
 * m); *size its size. 0 on success. */
static int uring_member(struct ior_bpf_obj *obj, const char *type, const char *m, uint32_t cmd, uint32_t *off,
			uint32_t *size)
{
	char why[256];

	*off = IOR_UOFF_NONE;
	*size = 0;
	if (!m)
		return 0;
	if (ior_loader_kernel_member(obj, type, m, off, size, why, sizeof why))
		return -1;
	*off += cmd;
	return 0;
}

static int uring_arg_offsets(struct ior_bpf_obj *obj, const struct uring_arg *r, uint32_t cmd,
			     struct ior_uring_args_off *a)
{
	uint32_t sz, fsz;

	if (uring_member(obj, r->type, r->dfd, cmd, &a->dfd, &sz) ||
	    uring_member(obj, r->type, r->name, cmd, &a->name, &sz) ||
	    uring_member(obj, r->type, r->dfd2, cmd, &a->dfd2, &sz) ||
	    uring_member(obj, r->type, r->name2, cmd, &a->name2, &sz) ||
	    uring_member(obj, r->type, r->flags, cmd, &a->flags, &fsz) ||
	    uring_member(obj, r->type, r->slot, cmd, &a->slot, &sz) ||
	    uring_member(obj, r->type, r->fd, cmd, &a->fd, &sz))
		return -1;
	a->flags_size = fsz == 4 ? 4 : 8; /* an open's struct open_how starts with its u64 flags */
	a->on = 1;
	return 0;
}

static void set_uring_args(struct ior_bpf_obj *obj)
{
	struct ior_uring_args_off a[IOR_ASYNC_ARGS_N];
	uint32_t cmd, size;
	char why[256];

	memset(a, 0, sizeof a);
	if (ior_loader_kernel_member(obj, "io_kiocb", "cmd", &cmd, &size, why, sizeof why) ||
	    set_one(obj, "filename", "name", "filename_name_off", 0, why, sizeof why))
		return;
	for (size_t i = 0; i < sizeof uring_arg_rows / sizeof uring_arg_rows[0]; i++)
		if (uring_arg_offsets(obj, &uring_arg_rows[i], cmd, &a[uring_arg_rows[i].kind]))
			memset(&a[uring_arg_rows[i].kind], 0, sizeof a[0]);
	ior_loader_set_global(obj, "uring_args", a, sizeof a, why, sizeof why);
}

/* SQPOLL rings: the poll thread and the ring's owner (bpf/uring.h
 * uring_sq_owner); without them its ops are charged to the poll thread. */
static const struct kfield uring_sq_fields[] = {
	{ "io_ring_ctx", "sq_data", "uring_ctx_sqd_off", 8 },
	{ "io_sq_data", "thread", "uring_sqd_thread_off", 8 },
	{ "task_struct", "group_leader", "task_leader_off", 8 },
};

static void set_uring_sq(struct ior_bpf_obj *obj)
{
	uint32_t on = 1;
	char why[256];

	if (set_all(obj, uring_sq_fields, sizeof uring_sq_fields / sizeof uring_sq_fields[0], why, sizeof why))
		ior_loader_set_global(obj, "uring_sq_on", &on, sizeof on, why, sizeof why);
}

int ior_kfields_set_uring(struct ior_bpf_obj *obj, const char **submit_tp, char *why, size_t whylen)
{
	uint32_t cqe, on = 1;

	if (!set_uring_submit(obj, submit_tp, why, whylen) ||
	    !set_all(obj, uring_fields, sizeof uring_fields / sizeof uring_fields[0], why, whylen))
		return 0;
	if (ior_loader_kernel_member(obj, "io_kiocb", "cqe", &cqe, &(uint32_t){ 0 }, why, whylen) ||
	    set_one(obj, "io_cqe", "fd", "uring_fd_off", cqe, why, whylen) ||
	    ior_loader_set_global(obj, "uring_on", &on, sizeof on, why, whylen))
		return 0;
	set_uring_args(obj);
	set_uring_sq(obj);
	return 1;
}

int ior_kfields_set_uring_files(struct ior_bpf_obj *obj, char *why, size_t whylen)
{
	uint32_t on = 1;

	return !set_one(obj, "file", "private_data", "uring_file_ctx_off", 0, why, whylen) &&
	       !ior_loader_set_global(obj, "uring_files_on", &on, sizeof on, why, whylen);
}

int ior_kfields_set_uring_where(struct ior_bpf_obj *obj, char *why, size_t whylen)
{
	return !set_one(obj, "trace_event_raw_io_uring_queue_async_work", "req", "uring_w_req_off", 0, why, whylen) &&
	       !set_one(obj, "trace_event_raw_io_uring_poll_arm", "req", "uring_p_req_off", 0, why, whylen);
}

int ior_kfields_set_uring_failed(struct ior_bpf_obj *obj, char *why, size_t whylen)
{
	return !set_one(obj, "trace_event_raw_io_uring_req_failed", "req", "uring_f_req_off", 0, why, whylen) &&
	       !set_one(obj, "trace_event_raw_io_uring_req_failed", "opcode", "uring_f_op_off", 0, why, whylen);
}
