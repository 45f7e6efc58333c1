/* Bringing bpf.c up: one attach table for the tracer and ior -check. */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "loader/loader.h"
#include "pair/clock.h"
#include "bpf/event.h"
#include "trace/features.h"
#include "trace/kfields.h"
#include "syscalls/roles.h"
#include "trace/probe.h"
#include "log/log.h"
#include "syscalls/select.h"
#include "syscalls/syscalls.h"

/* Where a run attaches, in order: exits before enters. A row's btf
 * program runs when the kernel's BTF allows, else its raw twin. */
struct attach_point {
	const char *btf, *raw, *tp;
	bool needs_task_offsets; /* reads task_struct fields at their BTF offsets */
};

static const struct attach_point tracing[] = {
	{ "ior_btf_exit", "ior_raw_exit", "sys_exit", false },
	{ "ior_btf_enter", "ior_raw_enter", "sys_enter", false },
	{ NULL, "ior_raw_task_exit", "sched_process_exit", false }, /* frees per-thread state */
	{ NULL, "ior_raw_exec", "sched_process_exec", false },
	{ NULL, "ior_raw_fork", "sched_process_fork", true },
};
static const struct attach_point empty[] = {
	{ NULL, "ior_raw_empty", "sys_exit", false },
	{ NULL, "ior_raw_empty", "sys_enter", false },
};
#define FLUSH_PROG "ior_flush" /* run on a CPU to send its batch, never attached */
/* io_uring's programs, on classic tracepoints (their records' layouts
 * come from BTF: trace/kfields.c); the submit one is an enter. */
#define URING_SUBMIT "ior_uring_submit"
#define URING_COMPLETE "ior_uring_complete"
#define URING_FAILED "ior_uring_failed" /* a request refused before submission */
/* where a request ran: punted to io-wq, armed for poll */
#define URING_WQ "ior_uring_wq"
#define URING_POLL "ior_uring_poll"
/* registered files: io_uring_register's own tracepoints, exit first */
#define URING_REG_EXIT "ior_uring_register_exit"
#define URING_REG "ior_uring_register"

/* libaio's programs on the per-syscall tracepoints of its syscalls,
 * exits before enters; io_pgetevents shares io_getevents' programs. */
static const struct { const char *prog, *tp; bool optional; } aio_points[] = {
	{ "ior_aio_submit_exit", "sys_exit_io_submit", false },
	{ "ior_aio_getevents_exit", "sys_exit_io_getevents", false },
	{ "ior_aio_getevents_exit", "sys_exit_io_pgetevents", true },
	{ "ior_aio_getevents", "sys_enter_io_getevents", false },
	{ "ior_aio_getevents", "sys_enter_io_pgetevents", true },
	{ "ior_aio_submit", "sys_enter_io_submit", false },
};
#define AIO_POINTS (sizeof aio_points / sizeof aio_points[0])

/* Block requests on the block tracepoints (their layouts from BTF or
 * tracefs: trace/kfields.c), completions first; block_io_start is 6.5+. */
static const struct { const char *prog, *tp; bool optional; } blk_points[] = {
	{ "ior_blk_complete", "block_rq_complete", false },
	{ "ior_blk_issue", "block_rq_issue", false },
	{ "ior_blk_insert", "block_rq_insert", false },
	{ "ior_blk_start", "block_io_start", true },
	{ "ior_blk_merge", "block_rq_merge", true }, /* a merged request never completes */
};
#define BLK_POINTS (sizeof blk_points / sizeof blk_points[0])
#define CACHE_PROG "ior_cache_add" /* filemap:mm_filemap_add_to_page_cache */

static bool blk_point_used(const struct ior_probe *p, unsigned i)
{
	if (!blk_points[i].optional)
		return true;
	return !strcmp(blk_points[i].tp, "block_io_start") ? p->blk_start : p->blk_merge;
}

_Static_assert(sizeof tracing / sizeof *tracing + 7 + AIO_POINTS + BLK_POINTS + 1 <= IOR_PROBE_MAX_ATTACH,
	       "tp_fds holds them, io_uring's, libaio's and the block layer's");

/* What tracing does without a feature, said once (log/log.h). */
#define warn(c, ...) ((void)(c), ior_log(IOR_LOG_WARN, __VA_ARGS__))

static const struct attach_point *table(const struct ior_probe *p, unsigned *n)
{
	*n = p->empty ? sizeof empty / sizeof *empty : sizeof tracing / sizeof *tracing;
	return p->empty ? empty : tracing;
}

static const char *prog_of(const struct ior_probe *p, const struct attach_point *a)
{
	return a->btf && p->use_btf ? a->btf : a->raw;
}

static bool row_used(const struct ior_probe *p, const struct attach_point *a)
{
	return !a->needs_task_offsets || p->task_offsets;
}

unsigned ior_probe_programs(const struct ior_probe *p, const char **names, unsigned max)
{
	unsigned n, k = 0;
	const struct attach_point *t = table(p, &n);

	for (unsigned i = 0; i < n; i++) {
		bool dup = false;
		for (unsigned j = 0; j < k; j++)
			dup |= !strcmp(names[j], prog_of(p, &t[i]));
		if (row_used(p, &t[i]) && !dup && k < max)
			names[k++] = prog_of(p, &t[i]);
	}
	if (!p->empty && k < max)
		names[k++] = FLUSH_PROG;
	if (p->uring_tp && k + 2 <= max) {
		names[k++] = URING_COMPLETE;
		names[k++] = URING_SUBMIT;
	}
	if (p->uring_failed && k < max)
		names[k++] = URING_FAILED;
	if (p->uring_where && k + 2 <= max) {
		names[k++] = URING_WQ;
		names[k++] = URING_POLL;
	}
	if (p->uring_files && k + 2 <= max) {
		names[k++] = URING_REG_EXIT;
		names[k++] = URING_REG;
	}
	for (unsigned i = 0; p->aio && i < AIO_POINTS && k < max; i++)
		if (!i || strcmp(aio_points[i].prog, aio_points[i - 1].prog))
			names[k++] = aio_points[i].prog;
	for (unsigned i = 0; p->block && i < BLK_POINTS && k < max; i++)
		if (blk_point_used(p, i))
			names[k++] = blk_points[i].prog;
	if (p->cache && k < max)
		names[k++] = CACHE_PROG;
	return k;
}

/* bpf.c counts successes of these in names_changed, before any filter. */
static int set_name_changers(struct ior_probe *p, char *err, size_t errlen)
{
	uint32_t nrs[IOR_NAME_CHANGERS_MAX];
	unsigned n = 0;

	memset(nrs, 0xff, sizeof nrs);
	for (unsigned i = 0; i < ior_nsyscalls && n < IOR_NAME_CHANGERS_MAX; i++)
		if (ior_syscall_changes_names(&ior_syscalls[i]))
			nrs[n++] = ior_syscalls[i].nr;
	return ior_loader_set_global(p->obj, "name_changers", nrs, sizeof nrs, err, errlen);
}

static int set_filters(struct ior_probe *p, const struct ior_probe_cfg *c, char *err, size_t errlen)
{
	uint32_t self = (uint32_t)getpid(), comm_len = (uint32_t)strlen(c->comm);
	int64_t pid = c->pid, tid = c->tid;
	char comm[IOR_COMM_LEN] = { 0 };
	int r;

	if (comm_len >= IOR_COMM_LEN)
		return snprintf(err, errlen, "-comm \"%s\": longer than 15 bytes", c->comm), -EINVAL;
	memcpy(comm, c->comm, comm_len);
	r = ior_loader_set_global(p->obj, "ior_pid", &self, sizeof self, err, errlen);
	if (!r)
		r = ior_loader_set_global(p->obj, "filter_pid", &pid, sizeof pid, err, errlen);
	if (!r)
		r = ior_loader_set_global(p->obj, "filter_tid", &tid, sizeof tid, err, errlen);
	if (!r)
		r = ior_loader_set_global(p->obj, "filter_comm_len", &comm_len, sizeof comm_len, err, errlen);
	if (!r)
		r = ior_loader_set_global(p->obj, "filter_comm", comm, sizeof comm, err, errlen);
	if (!r)
		r = ior_loader_set_global(p->obj, "follow_on", &(uint32_t){ c->follow }, 4, err, errlen);
	if (!r)
		r = set_name_changers(p, err, errlen);
	return r;
}

/* The kernel offsets the tp_btf and fork programs read at. */
static void set_offsets(struct ior_probe *p, const struct ior_probe_cfg *c)
{
	char why[256];
	bool sk;

	ior_feature_set(IOR_FEAT_KERNEL_BTF, !ior_loader_kernel_btf(p->obj, why, sizeof why), why);
	p->use_btf = p->task_offsets = ior_kfields_set(p->obj, why, sizeof why);
	ior_feature_set(IOR_FEAT_TASK_LAYOUT, p->task_offsets, p->task_offsets ? NULL : why);
	if (!p->use_btf) {
		warn(c, "%s; tracing with raw tracepoints (slower)", why);
		ior_feature_set(IOR_FEAT_FILE_IDENT, false, "read by the tp_btf programs");
		ior_feature_set(IOR_FEAT_DENTRY_NAME, false, "read by the tp_btf programs");
		ior_feature_set(IOR_FEAT_FILE_TYPED, false, "read by the tp_btf programs");
		ior_feature_set(IOR_FEAT_SOCK_ADDR, false, "read by the tp_btf programs");
		return;
	}
	p->file_idents = ior_kfields_set_ident(p->obj, why, sizeof why);
	ior_feature_set(IOR_FEAT_FILE_IDENT, p->file_idents, p->file_idents ? NULL : why);
	if (!p->file_idents) {
		warn(c, "%s; fds are named by the path their open used (symlinks not resolved)", why);
		ior_feature_set(IOR_FEAT_DENTRY_NAME, false, "read with a file's identity");
		ior_feature_set(IOR_FEAT_FILE_TYPED, false, "read with a file's identity");
		ior_feature_set(IOR_FEAT_SOCK_ADDR, false, "read through a file's identity");
		return;
	}
	sk = ior_kfields_set_sk(p->obj, why, sizeof why);
	ior_feature_set(IOR_FEAT_SOCK_ADDR, sk, sk ? NULL : why);
	if (!sk)
		warn(c, "%s; sockets are named without their local address", why);
}

/* BPF_PROG_TEST_RUN on a CPU sends a batch before a drain (5.14); once,
 * on the CPU ior runs on (its batch is empty: nothing is sent). */
static void probe_test_run(const struct ior_probe *p)
{
	uint32_t busy;
	int cpu = sched_getcpu();
	int r = p->flush_fd < 0 ? -ENOENT : ior_sys_prog_run_on_cpu(p->flush_fd, cpu < 0 ? 0 : cpu, &busy);

	ior_feature_set(IOR_FEAT_TEST_RUN, !r, r ? strerror(-r) : NULL);
}

/* Whether the run traces any async op of kind k (selected, or kept for
 * the fd table). */
static bool wants_async(const struct ior_probe_cfg *c, int k)
{
	for (unsigned i = 0; i < ior_nsyscalls; i++)
		if (ior_syscall_async(&ior_syscalls[i]) == k &&
		    (c->sel[i] || ior_syscall_keeps_fds(&ior_syscalls[i])))
			return true;
	return false;
}

static void unselect_async(const struct ior_probe_cfg *c, int k)
{
	for (unsigned i = 0; i < ior_nsyscalls; i++)
		if (ior_syscall_async(&ior_syscalls[i]) == k)
			c->sel[i] = 0;
}

/* Fixed files are named where io_uring_register's tracepoints exist and
 * a ring fd leads to its ring (the ident offsets); else they are shown
 * without a file, and one warning says why. */
static void setup_uring_files(struct ior_probe *p, const struct ior_probe_cfg *c)
{
	char why[256] = "the kernel's BTF lacks the way from an fd to its file";

	if (p->file_idents && ior_kfields_set_uring_files(p->obj, why, sizeof why) &&
	    ior_loader_tracepoint_id("syscalls", "sys_enter_io_uring_register", why, sizeof why) >= 0 &&
	    ior_loader_tracepoint_id("syscalls", "sys_exit_io_uring_register", why, sizeof why) >= 0) {
		p->uring_files = true;
		return;
	}
	warn(c, "io_uring registered files: %s; ops on them are shown without a file", why);
}

/* Requests refused before submission are pairs too where the kernel has
 * io_uring_req_failed (5.17+); else they are missed, and one warning says so. */
static void setup_uring_failed(struct ior_probe *p, const struct ior_probe_cfg *c)
{
	char why[256];

	if (ior_kfields_set_uring_failed(p->obj, why, sizeof why) &&
	    ior_loader_tracepoint_id("io_uring", "io_uring_req_failed", why, sizeof why) >= 0) {
		p->uring_failed = true;
		return;
	}
	warn(c, "io_uring requests refused before submission: %s; they are not traced", why);
}

/* Where requests ran (io-wq, poll) is known where those tracepoints
 * exist with a request pointer; else ops are shown as inline, and one
 * warning says so. */
static void setup_uring_where(struct ior_probe *p, const struct ior_probe_cfg *c)
{
	char why[256];

	if (ior_kfields_set_uring_where(p->obj, why, sizeof why) &&
	    ior_loader_tracepoint_id("io_uring", "io_uring_queue_async_work", why, sizeof why) >= 0 &&
	    ior_loader_tracepoint_id("io_uring", "io_uring_poll_arm", why, sizeof why) >= 0) {
		p->uring_where = true;
		return;
	}
	warn(c, "io_uring: where requests ran (io-wq, poll): %s; ops are shown as run inline", why);
}

/* io_uring is traced where its tracepoints exist and their records and
 * requests are understood (the kernel's BTF); else everything else is,
 * and one warning says why. */
static void setup_uring(struct ior_probe *p, const struct ior_probe_cfg *c)
{
	char why[256];
	const char *tp = NULL;

	if (!wants_async(c, IOR_ASYNC_URING))
		return;
	if (!p->use_btf)
		snprintf(why, sizeof why, "needs the kernel's BTF");
	else if (ior_kfields_set_uring(p->obj, &tp, why, sizeof why) &&
		 ior_loader_tracepoint_id("io_uring", tp, why, sizeof why) >= 0 &&
		 ior_loader_tracepoint_id("io_uring", "io_uring_complete", why, sizeof why) >= 0) {
		p->uring_tp = tp;
		setup_uring_files(p, c);
		setup_uring_failed(p, c);
		setup_uring_where(p, c);
		return;
	}
	unselect_async(c, IOR_ASYNC_URING);
	warn(c, "io_uring: %s; io_uring operations are not traced", why);
}

/* libaio is traced where its syscalls have tracepoints (no BTF needed). */
static void setup_aio(struct ior_probe *p, const struct ior_probe_cfg *c)
{
	char why[256] = "";

	if (!wants_async(c, IOR_ASYNC_AIO))
		return;
	p->aio = true;
	for (unsigned i = 0; i < AIO_POINTS && p->aio; i++)
		if (!aio_points[i].optional && ior_loader_tracepoint_id("syscalls", aio_points[i].tp, why, sizeof why) < 0)
			p->aio = false;
	if (p->aio)
		return;
	unselect_async(c, IOR_ASYNC_AIO);
	warn(c, "libaio: %s; libaio operations are not traced", why);
}

/* Block requests are traced where the block tracepoints exist and their
 * records are understood (BTF or tracefs; no BTF needed); else one
 * warning says why and the syscalls are traced without them. */
static void setup_block(struct ior_probe *p, const struct ior_probe_cfg *c)
{
	char why[256] = "";

	if (c->no_block) {
		ior_feature_set(IOR_FEAT_BLOCK, false, "-noblock");
		ior_feature_set(IOR_FEAT_PAGE_CACHE, false, "-noblock");
		return;
	}
	p->block = ior_kfields_set_block(p->obj, why, sizeof why);
	for (unsigned i = 0; i < BLK_POINTS && p->block; i++)
		if (!blk_points[i].optional && ior_loader_tracepoint_id("block", blk_points[i].tp, why, sizeof why) < 0)
			p->block = false;
	p->blk_start = p->block && ior_loader_tracepoint_id("block", "block_io_start", (char[64]){ 0 }, 64) >= 0;
	p->blk_merge = p->block && ior_loader_tracepoint_id("block", "block_rq_merge", (char[64]){ 0 }, 64) >= 0;
	uint32_t no_start = p->block && !p->blk_start;
	if (no_start && ior_loader_set_global(p->obj, "blk_no_start", &no_start, sizeof no_start, why, sizeof why))
		p->block = false;
	ior_feature_set(IOR_FEAT_BLOCK, p->block,
			p->block ? (p->blk_start ? "block_io_start, block_rq_insert, _issue, _complete"
						 : "block_rq_insert, _issue, _complete")
				 : why);
	if (!p->block)
		warn(c, "block requests: %s; pairs are shown without device time", why);
	p->cache = ior_kfields_set_cache(p->obj, why, sizeof why) &&
		   ior_loader_tracepoint_id("filemap", "mm_filemap_add_to_page_cache", why, sizeof why) >= 0;
	ior_feature_set(IOR_FEAT_PAGE_CACHE, p->cache, p->cache ? "filemap:mm_filemap_add_to_page_cache" : why);
	if (!p->cache)
		warn(c, "page cache: %s; reads are shown without their cache misses", why);
}

/* The tp_btf programs the kernel refused (the loader's warning says why)
 * give way to their raw twins, all of them: one mode per run. */
static int fall_back_to_raw(struct ior_probe *p, bool verbose, char *err, size_t errlen)
{
	unsigned n;
	const struct attach_point *t = table(p, &n);
	bool all = true;
	int r = 0;

	for (unsigned i = 0; i < n; i++)
		all &= !t[i].btf || ior_loader_prog_fd(p->obj, t[i].btf) >= 0;
	if (!p->use_btf || all)
		return 0;
	p->use_btf = false;
	for (unsigned i = 0; i < n && !r; i++)
		if (t[i].btf)
			r = ior_loader_load_prog(p->obj, t[i].raw, verbose, err, errlen);
	return r;
}

/* Clears selected syscalls whose tracepoints this kernel lacks, so
 * sys_conf and the count tell the truth; one warning names those the
 * user named (a family's newest members are just not here yet). */
static void drop_missing(struct ior_probe *p, const struct ior_probe_cfg *c)
{
	char missing[2048] = "", tp[96], why[256];

	p->nattached = p->nasync = 0;
	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		if (!c->sel[i])
			continue;
		if (ior_syscall_async(&ior_syscalls[i])) { /* setup_uring() and setup_aio() decided */
			p->nasync++;
			continue;
		}
		snprintf(tp, sizeof tp, "sys_enter_%s", ior_syscalls[i].name);
		int r = ior_loader_tracepoint_id("syscalls", tp, why, sizeof why);
		if (r >= 0) {
			p->nattached++;
			continue;
		}
		if (r != -ENOENT) { /* no tracefs: cannot tell, trace them all */
			warn(c, "cannot check which syscalls this kernel has: %s", why);
			p->nattached = 0;
			for (unsigned j = 0; j < ior_nsyscalls; j++)
				p->nattached += c->sel[j] && !ior_syscall_async(&ior_syscalls[j]);
			return;
		}
		if (c->sel[i] != IOR_SEL_NAMED) {
			c->sel[i] = 0;
			continue;
		}
		c->sel[i] = 0;
		size_t n = strlen(missing);
		snprintf(missing + n, sizeof missing - n, "%s%s", n ? ", " : "", ior_syscalls[i].name);
	}
	if (missing[0])
		warn(c, "tracepoints missing on this kernel, not traced: %s", missing);
}

static struct ior_sys_conf sys_conf_of(const struct ior_syscall *s, bool selected)
{
	struct ior_sys_conf c = {
		.traced = 1, .fd_arg = s->fd_arg, .flags_arg = s->flags_arg,
		.aux_arg = s->aux_arg, .path_arg = { s->path_arg[0], s->path_arg[1] },
		.flags_is_open_how = s->flags_is_open_how, .ret_is_fd = s->cls == IOR_SC_OPEN,
		/* what changes the fd table is never summarized: later pairs
		 * are named by it */
		.fold = selected && !ior_syscall_keeps_fds(s),
		.ret_is_bytes = s->cls == IOR_SC_READ || s->cls == IOR_SC_WRITE || s->cls == IOR_SC_TRANSFER,
	};
	ior_roles_conf(s, &c);
	return c;
}

static int fill_sys_conf(struct ior_probe *p, const unsigned char *sel, char *err, size_t errlen)
{
	int fd = ior_loader_map_fd(p->obj, "sys_conf");

	if (fd < 0)
		return snprintf(err, errlen, "map 'sys_conf': not in the BPF object: %s", strerror(-fd)), fd;
	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		const struct ior_syscall *s = &ior_syscalls[i];
		struct ior_sys_conf c = sys_conf_of(s, sel[i]);
		uint32_t key = s->nr;
		if ((!sel[i] && !ior_syscall_keeps_fds(s)) || ior_syscall_async(s))
			continue;
		int r = ior_sys_map_update_elem(fd, &key, &c, 0);
		if (r < 0)
			return snprintf(err, errlen, "map 'sys_conf': update of %s: %s", s->name, strerror(-r)), r;
	}
	return 0;
}

/* async_conf: the ops traced (selected, or kept for the fd table). */
static int fill_async_conf(struct ior_probe *p, const unsigned char *sel, char *err, size_t errlen)
{
	int fd;

	if (!p->uring_tp && !p->aio) /* no program reads it: the map was not made */
		return 0;
	if ((fd = ior_loader_map_fd(p->obj, "async_conf")) < 0)
		return snprintf(err, errlen, "map 'async_conf': not in the BPF object: %s", strerror(-fd)), fd;
	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		const struct ior_syscall *s = &ior_syscalls[i];
		int k = ior_syscall_async(s);
		if (!k || (k == IOR_ASYNC_URING && !p->uring_tp) || (k == IOR_ASYNC_AIO && !p->aio) ||
		    (!sel[i] && !ior_syscall_keeps_fds(s)))
			continue;
		struct ior_async_conf c = {
			.traced = 1, .fold = sel[i] && !ior_syscall_keeps_fds(s),
			.ret_is_bytes = s->cls == IOR_SC_READ || s->cls == IOR_SC_WRITE || s->cls == IOR_SC_TRANSFER,
			.args = s->async_args,
		};
		uint32_t key = s->nr - IOR_NR_URING;
		int r = ior_sys_map_update_elem(fd, &key, &c, 0);
		if (r < 0)
			return snprintf(err, errlen, "map 'async_conf': update of %s: %s", s->name, strerror(-r)), r;
	}
	return 0;
}

int ior_probe_load(struct ior_probe *p, const struct ior_probe_cfg *c, char *err, size_t errlen)
{
	const char *names[IOR_PROBE_MAX_ATTACH + 4] = { 0 };
	struct ior_load_opts lo = { .verbose = c->verbose, .progs = names };
	int r;

	memset(p, 0, sizeof *p);
	p->flush_fd = p->enter_fd = p->submit_fd = p->failed_fd = p->aio_submit_fd = -1;
	p->empty = c->empty;
	p->detached = c->detached;
	r = ior_loader_open(c->object, c->object_size, &p->obj, err, errlen);
	if (!r)
		r = set_filters(p, c, err, errlen);
	if (r)
		return r;
	if (!c->empty)
		set_offsets(p, c);
	if (!c->empty) {
		setup_uring(p, c);
		setup_aio(p, c);
		setup_block(p, c);
	}
	if (c->follow && !p->task_offsets)
		return snprintf(err, errlen, "following new processes needs task_struct's layout from the "
					     "kernel's BTF (/sys/kernel/btf/vmlinux), which is unavailable"), -ENOTSUP;
	ior_probe_programs(p, names, IOR_PROBE_MAX_ATTACH + 3);
	r = ior_loader_load(p->obj, &lo, err, errlen);
	bool wanted_btf = p->use_btf;
	if (!r)
		r = fall_back_to_raw(p, c->verbose, err, errlen);
	if (!r && !c->empty)
		ior_feature_set(IOR_FEAT_TP_BTF, p->use_btf,
				p->use_btf ? NULL : wanted_btf ? "the kernel refused them (see the warning)"
							       : "they need the kernel's BTF");
	if (r)
		return r;
	drop_missing(p, c);
	if (!p->nattached && !p->nasync)
		return snprintf(err, errlen, "none of the selected syscalls has a tracepoint on this kernel"), -ENOENT;
	if (c->empty)
		return 0;
	p->flush_fd = ior_loader_prog_fd(p->obj, FLUSH_PROG);
	probe_test_run(p);
	r = fill_sys_conf(p, c->sel, err, errlen);
	return r ? r : fill_async_conf(p, c->sel, err, errlen);
}

static int attach_uring_files(struct ior_probe *p, char *err, size_t errlen)
{
	const char *prog[2] = { URING_REG_EXIT, URING_REG };
	const char *tp[2] = { "sys_exit_io_uring_register", "sys_enter_io_uring_register" };

	for (int i = 0; i < 2; i++) {
		int fd = ior_loader_prog_fd(p->obj, prog[i]);
		if (fd < 0)
			return snprintf(err, errlen, "prog '%s': not loaded", prog[i]), fd;
		fd = ior_loader_attach_tracepoint(fd, "syscalls", tp[i], err, errlen);
		if (fd < 0)
			return fd;
		p->tp_fds[p->ntp++] = fd;
	}
	return 0;
}

/* Completions before submissions, like exits before enters. */
static int attach_uring(struct ior_probe *p, char *err, size_t errlen)
{
	const char *prog[3] = { URING_COMPLETE, URING_SUBMIT, URING_FAILED };
	const char *tp[3] = { "io_uring_complete", p->uring_tp, "io_uring_req_failed" };

	for (int i = 0; i < 2 + p->uring_failed; i++) {
		int fd = ior_loader_prog_fd(p->obj, prog[i]);
		if (fd < 0)
			return snprintf(err, errlen, "prog '%s': not loaded", prog[i]), fd;
		fd = ior_loader_attach_tracepoint(fd, "io_uring", tp[i], err, errlen);
		if (fd < 0)
			return fd;
		if (i == 1)
			p->submit_fd = fd;
		if (i == 2)
			p->failed_fd = fd;
		p->tp_fds[p->ntp++] = fd;
	}
	for (int i = 0; p->uring_where && i < 2; i++) { /* after the submit: they find its request */
		const char *wprog = i ? URING_POLL : URING_WQ, *wtp = i ? "io_uring_poll_arm" : "io_uring_queue_async_work";
		int fd = ior_loader_prog_fd(p->obj, wprog);
		if (fd < 0)
			return snprintf(err, errlen, "prog '%s': not loaded", wprog), fd;
		if ((fd = ior_loader_attach_tracepoint(fd, "io_uring", wtp, err, errlen)) < 0)
			return fd;
		p->tp_fds[p->ntp++] = fd;
	}
	return p->uring_files ? attach_uring_files(p, err, errlen) : 0;
}

/* The last one, io_submit's enter, counts as an enter at detach. */
static int attach_aio(struct ior_probe *p, char *err, size_t errlen)
{
	for (unsigned i = 0; i < AIO_POINTS; i++) {
		int fd = ior_loader_prog_fd(p->obj, aio_points[i].prog);
		if (fd < 0)
			return snprintf(err, errlen, "prog '%s': not loaded", aio_points[i].prog), fd;
		fd = ior_loader_attach_tracepoint(fd, "syscalls", aio_points[i].tp, err, errlen);
		if (fd == -ENOENT && aio_points[i].optional)
			continue;
		if (fd < 0)
			return fd;
		if (i == AIO_POINTS - 1)
			p->aio_submit_fd = fd;
		p->tp_fds[p->ntp++] = fd;
	}
	return 0;
}

/* Completion first; the points that start a request count as enters at
 * detach, so requests in progress still complete into the trace. */
static int attach_block(struct ior_probe *p, char *err, size_t errlen)
{
	for (unsigned i = 0; i < BLK_POINTS; i++) {
		if (!blk_point_used(p, i))
			continue;
		int fd = ior_loader_prog_fd(p->obj, blk_points[i].prog);
		if (fd < 0)
			return snprintf(err, errlen, "prog '%s': not loaded", blk_points[i].prog), fd;
		fd = ior_loader_attach_tracepoint(fd, "block", blk_points[i].tp, err, errlen);
		if (fd < 0)
			return fd;
		if (i && i < 4 && p->nblk_enter < 3) /* issue, insert, start: they begin requests */
			p->blk_enter_fds[p->nblk_enter++] = fd;
		p->tp_fds[p->ntp++] = fd;
	}
	return 0;
}

static int attach_cache(struct ior_probe *p, char *err, size_t errlen)
{
	int fd = ior_loader_prog_fd(p->obj, CACHE_PROG);

	if (fd < 0)
		return snprintf(err, errlen, "prog '%s': not loaded", CACHE_PROG), fd;
	fd = ior_loader_attach_tracepoint(fd, "filemap", "mm_filemap_add_to_page_cache", err, errlen);
	if (fd < 0)
		return fd;
	p->tp_fds[p->ntp++] = fd;
	return 0;
}

int ior_probe_attach(struct ior_probe *p, char *err, size_t errlen)
{
	unsigned n;
	const struct attach_point *t = table(p, &n);

	for (unsigned i = 0; i < n; i++) {
		const char *name = prog_of(p, &t[i]);
		int prog = ior_loader_prog_fd(p->obj, name), fd;
		if (!row_used(p, &t[i]) || (p->detached && !strncmp(t[i].tp, "sys_", 4)))
			continue;
		if (prog < 0)
			return snprintf(err, errlen, "prog '%s': not loaded", name), prog;
		/* a tp_btf program names its tracepoint itself */
		fd = ior_loader_attach_raw_tracepoint(prog, name == t[i].btf ? NULL : t[i].tp, err, errlen);
		if (fd < 0)
			return fd;
		if (!strcmp(t[i].tp, "sys_enter"))
			p->enter_fd = fd;
		p->tp_fds[p->ntp++] = fd;
	}
	if (p->detached)
		return 0;
	int r = p->uring_tp ? attach_uring(p, err, errlen) : 0;
	if (!r && p->aio)
		r = attach_aio(p, err, errlen);
	if (!r && p->block)
		r = attach_block(p, err, errlen);
	return !r && p->cache ? attach_cache(p, err, errlen) : r;
}

static bool is_enter(const struct ior_probe *p, int fd)
{
	for (unsigned i = 0; i < p->nblk_enter; i++)
		if (fd == p->blk_enter_fds[i])
			return true;
	return fd == p->enter_fd || fd == p->submit_fd || fd == p->failed_fd || fd == p->aio_submit_fd;
}

uint64_t ior_probe_detach(struct ior_probe *p)
{
	uint64_t enters_gone;

	for (unsigned i = 0; i < p->ntp; i++)
		if (is_enter(p, p->tp_fds[i]))
			close(p->tp_fds[i]);
	enters_gone = ior_mono_ns();
	for (unsigned i = 0; i < p->ntp; i++)
		if (!is_enter(p, p->tp_fds[i]))
			close(p->tp_fds[i]);
	p->ntp = p->nblk_enter = 0;
	p->enter_fd = p->submit_fd = p->failed_fd = p->aio_submit_fd = -1;
	return enters_gone;
}

void ior_probe_close(struct ior_probe *p)
{
	ior_probe_detach(p);
	ior_loader_close(p->obj);
	memset(p, 0, sizeof *p);
	p->flush_fd = p->enter_fd = p->submit_fd = p->failed_fd = p->aio_submit_fd = -1;
}

int ior_probe_counter(const struct ior_probe *p, const char *name, uint64_t *v, char *err, size_t errlen)
{
	*v = 0;
	return ior_loader_read_global(p->obj, name, v, sizeof *v, err, errlen);
}
