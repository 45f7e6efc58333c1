#include "trace/kfields.h"

#include <errno.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/loader.h"
#include "bpf/event.h"
#include "trace/features.h"
#include "trace/tpformat.h"

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

/* bpf_rdonly_cast (6.2) and struct file's id: the tp_btf programs then
 * read an open's identity with plain loads. Optional. */
static void set_file_btf(struct ior_bpf_obj *obj)
{
	uint32_t file_id;
	char why[256];

	if (ior_loader_kernel_type_id(obj, "func", "bpf_rdonly_cast", &file_id, why, sizeof why) ||
	    ior_loader_kernel_type_id(obj, "struct", "file", &file_id, why, sizeof why) ||
	    ior_loader_set_global(obj, "file_btf_id", &file_id, sizeof file_id, why, sizeof why)) {
		ior_feature_set(IOR_FEAT_FILE_TYPED, false, why);
		return;
	}
	ior_feature_set(IOR_FEAT_FILE_TYPED, true, "bpf_rdonly_cast");
}

int ior_kfields_set_ident(struct ior_bpf_obj *obj, char *why, size_t whylen)
{
	uint32_t on = 1;

	if (!set_all(obj, ident_fields, sizeof ident_fields / sizeof ident_fields[0], why, whylen) ||
	    ior_loader_set_global(obj, "ident_on", &on, sizeof on, why, whylen))
		return 0;
	set_inline_name(obj);
	set_file_btf(obj);
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
	{ IOR_ASYNC_ARGS_SOCKET, "io_socket", "domain", NULL, NULL, NULL, "type", "file_slot", NULL },
	/* Linux 6.8+: the slot is the sqe's fd, the request's cqe.fd */
	{ IOR_ASYNC_ARGS_INSTALL, "io_fixed_install", NULL, NULL, NULL, NULL, "o_flags", NULL, NULL },
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

/* ---- block requests ----------------------------------------------------- */

/* A field of a classic tracepoint's record: from the kernel's BTF (its
 * trace_event_raw_ struct, under one of the names it had), else from the
 * tracepoint's tracefs format file (kernels without BTF). */
struct tp_layout {
	const char *cat, *tp;       /* events/CAT/TP/format */
	const char *const *btf;     /* NULL-ended struct names */
	char *format;               /* read once, owned */
	size_t format_len;
};

static int read_format(struct tp_layout *l, char *why, size_t whylen)
{
	char path[256], err[128];
	const char *root = ior_loader_tracefs(&(bool){ false }, err, sizeof err);
	FILE *f;

	if (!root)
		return snprintf(why, whylen, "tracefs: %s", err), -ENOENT;
	snprintf(path, sizeof path, "%s/events/%s/%s/format", root, l->cat, l->tp);
	if (!(f = fopen(path, "re")))
		return snprintf(why, whylen, "%s: %s", path, strerror(errno)), -errno;
	l->format = malloc(65536);
	l->format_len = l->format ? fread(l->format, 1, 65536, f) : 0;
	fclose(f);
	return l->format ? 0 : -ENOMEM;
}

static int tp_field(struct ior_bpf_obj *obj, struct tp_layout *l, const char *field, uint32_t *off,
		    uint32_t *size, char *why, size_t whylen)
{
	for (const char *const *t = l->btf; *t; t++)
		if (!ior_loader_kernel_member(obj, *t, field, off, size, why, whylen))
			return 0;
	if (!l->format && read_format(l, why, whylen))
		return -ENOENT;
	if (ior_tpformat_field(l->format, l->format_len, field, off, size))
		return snprintf(why, whylen, "%s:%s has no field '%s'", l->cat, l->tp, field), -ENOENT;
	return 0;
}

struct blk_field {
	const char *field, *global;
	uint32_t size; /* at least this many bytes (rwbs: 8 read of 8 or 10) */
	bool exact;
};

static int set_layout(struct ior_bpf_obj *obj, struct tp_layout *l, const struct blk_field *f, size_t n,
		      char *why, size_t whylen)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t off, size;
		if (tp_field(obj, l, f[i].field, &off, &size, why, whylen))
			return 0;
		if (f[i].exact ? size != f[i].size : size < f[i].size) {
			snprintf(why, whylen, "%s:%s: %s is %u bytes, ior reads %u", l->cat, l->tp, f[i].field, size,
				 f[i].size);
			return 0;
		}
		if (ior_loader_set_global(obj, f[i].global, &off, sizeof off, why, whylen))
			return 0;
	}
	return 1;
}

int ior_kfields_set_block(struct ior_bpf_obj *obj, char *why, size_t whylen)
{
	static const char *const rq_types[] = { "trace_event_raw_block_rq", NULL };
	/* block_rq_completion since Linux 5.17 (block_rq_error shares it) */
	static const char *const c_types[] = { "trace_event_raw_block_rq_completion",
					       "trace_event_raw_block_rq_complete", NULL };
	static const struct blk_field rq[] = {
		{ "dev", "blk_dev_off", 4, true }, { "sector", "blk_sector_off", 8, true },
		{ "rwbs", "blk_rwbs_off", 8, false },
	};
	static const struct blk_field c[] = {
		{ "dev", "blk_c_dev_off", 4, true }, { "sector", "blk_c_sector_off", 8, true },
		{ "nr_sector", "blk_c_nr_sector_off", 4, true }, { "error", "blk_c_error_off", 4, true },
		{ "rwbs", "blk_c_rwbs_off", 8, false },
	};
	struct tp_layout lrq = { "block", "block_rq_issue", rq_types, NULL, 0 };
	struct tp_layout lc = { "block", "block_rq_complete", c_types, NULL, 0 };
	uint32_t on = 1;
	int ok = set_layout(obj, &lrq, rq, sizeof rq / sizeof *rq, why, whylen) &&
		 set_layout(obj, &lc, c, sizeof c / sizeof *c, why, whylen) &&
		 !ior_loader_set_global(obj, "block_on", &on, sizeof on, why, whylen);

	free(lrq.format);
	free(lc.format);
	return ok;
}

int ior_kfields_set_cache(struct ior_bpf_obj *obj, char *why, size_t whylen)
{
	static const char *const types[] = { "trace_event_raw_mm_filemap_op_page_cache", NULL };
	static const struct blk_field f[] = {
		{ "i_ino", "cache_ino_off", 8, true }, { "index", "cache_index_off", 8, true },
		{ "s_dev", "cache_dev_off", 4, true },
	};
	struct tp_layout l = { "filemap", "mm_filemap_add_to_page_cache", types, NULL, 0 };
	uint32_t on = 1, off, size;
	char ignored[128];
	int ok = set_layout(obj, &l, f, sizeof f / sizeof *f, why, whylen);

	/* order: folios of several pages (Linux 6.5+); else a page each */
	if (ok && !tp_field(obj, &l, "order", &off, &size, ignored, sizeof ignored) && size == 1)
		ok = !ior_loader_set_global(obj, "cache_order_off", &off, sizeof off, why, whylen);
	ok = ok && !ior_loader_set_global(obj, "cache_on", &on, sizeof on, why, whylen);
	free(l.format);
	return ok;
}
