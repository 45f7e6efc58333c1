/* Async operations: each submission is kept by (request pointer, pid)
 * until its completion makes it a pair. They overlap on one thread, so
 * they neither use nor move the thread's gap chain (gap_ns 0). The
 * table is open addressing with backward-shift deletion, grown by
 * doubling; an open op's path is its own allocation. */
#include "pair/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IORING_OP_CLOSE_ 19 /* include/uapi/linux/io_uring.h */

static uint32_t hash_key(uint64_t key, uint32_t pid)
{
	return (uint32_t)(((key ^ ((uint64_t)pid << 40)) * 0x9e3779b97f4a7c15ull) >> 32);
}

static struct async_op *op_find(const struct ior_pairer *p, uint64_t key, uint32_t pid)
{
	if (!p->ops)
		return NULL;
	for (uint32_t i = hash_key(key, pid) & p->ops_mask;; i = (i + 1) & p->ops_mask) {
		struct async_op *o = &p->ops[i];
		if (!o->used)
			return NULL;
		if (o->key == key && o->pid == pid)
			return o;
	}
}

static struct async_op *op_slot(struct async_op *tab, uint32_t mask, uint64_t key, uint32_t pid)
{
	uint32_t i = hash_key(key, pid) & mask;

	while (tab[i].used)
		i = (i + 1) & mask;
	return &tab[i];
}

static int ops_grow(struct ior_pairer *p)
{
	uint32_t mask = p->ops ? p->ops_mask * 2 + 1 : 255;
	struct async_op *tab = calloc((size_t)mask + 1, sizeof *tab);

	if (!tab)
		return -1;
	for (uint32_t i = 0; p->ops && i <= p->ops_mask; i++)
		if (p->ops[i].used)
			*op_slot(tab, mask, p->ops[i].key, p->ops[i].pid) = p->ops[i];
	free(p->ops);
	p->ops = tab;
	p->ops_mask = mask;
	return 0;
}

static void op_delete(struct ior_pairer *p, struct async_op *o)
{
	uint32_t i = (uint32_t)(o - p->ops), j = i;

	free(o->path[0]);
	free(o->path[1]);
	memset(o, 0, sizeof *o);
	p->nops--;
	for (;;) {
		j = (j + 1) & p->ops_mask;
		if (!p->ops[j].used)
			return;
		uint32_t home = hash_key(p->ops[j].key, p->ops[j].pid) & p->ops_mask;
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			p->ops[i] = p->ops[j];
			memset(&p->ops[j], 0, sizeof p->ops[j]);
			i = j;
		}
	}
}

static void ring_clear(struct uring_files *r)
{
	for (uint32_t i = 0; i < r->n; i++)
		free(r->slot[i]);
	free(r->slot);
	free(r->flags);
	r->slot = NULL;
	r->flags = NULL;
	r->n = 0;
}

void ior_pair_async_free(struct ior_pairer *p)
{
	for (uint32_t i = 0; p->ops && i <= p->ops_mask; i++) {
		free(p->ops[i].path[0]);
		free(p->ops[i].path[1]);
	}
	free(p->ops);
	p->ops = NULL;
	p->nops = 0;
	for (uint32_t i = 0; i < p->nrings; i++)
		ring_clear(&p->rings[i]);
	free(p->rings);
	p->rings = NULL;
	p->nrings = 0;
}

static struct uring_files *ring_find(const struct ior_pairer *p, uint32_t pid, uint64_t ring)
{
	for (uint32_t i = 0; i < p->nrings; i++)
		if (p->rings[i].pid == pid && p->rings[i].ring == ring)
			return &p->rings[i];
	return NULL;
}

static struct uring_files *ring_get(struct ior_pairer *p, uint32_t pid, uint64_t ring)
{
	struct uring_files *r = ring_find(p, pid, ring), *a;

	if (r || !(a = realloc(p->rings, (p->nrings + 1) * sizeof *a)))
		return r;
	p->rings = a;
	r = &p->rings[p->nrings++];
	*r = (struct uring_files){ .pid = pid, .ring = ring };
	return r;
}

/* The table holds n slots (both arrays grown); 0 or -ENOMEM. */
static int ring_grow(struct uring_files *r, uint32_t n)
{
	char **a = realloc(r->slot, n * sizeof *a);
	int64_t *f;

	if (!a)
		return -ENOMEM;
	r->slot = a;
	if (!(f = realloc(r->flags, n * sizeof *f)))
		return -ENOMEM;
	r->flags = f;
	memset(a + r->n, 0, (n - r->n) * sizeof *a);
	for (uint32_t i = r->n; i < n; i++)
		f[i] = IOR_FLAGS_UNKNOWN;
	r->n = n;
	return 0;
}

/* Slot i gets path and its open flags now ("": empty); the table grows
 * to hold it. */
static void ring_set_path(struct ior_pairer *p, struct uring_files *r, uint32_t i, const char *path, int64_t flags)
{
	if (i >= IOR_URING_SLOTS_MAX) {
		p->st.uring_slots_cut++;
		return;
	}
	if (i >= r->n && ring_grow(r, i + 1 > 2 * r->n ? i + 1 : 2 * r->n))
		return;
	free(r->slot[i]);
	r->slot[i] = path[0] ? strdup(path) : NULL;
	r->flags[i] = path[0] ? flags : IOR_FLAGS_UNKNOWN;
}

/* Slot i gets fd's file now (fd < 0: empty). */
static void ring_set(struct ior_pairer *p, struct uring_files *r, uint32_t i, int32_t fd)
{
	int64_t flags = IOR_FLAGS_UNKNOWN;
	const char *path = fd >= 0 ? ior_fdtab_get(p->cfg.fds, r->pid, fd, &flags) : "";

	ring_set_path(p, r, i, path, flags);
}

void ior_pair_uring_files(struct ior_pairer *p, const char *rec, size_t len)
{
	struct ior_rec_uring_files u;
	struct uring_files *r;
	int32_t fds[IOR_URING_FILES_MAX];

	if (len < IOR_REC_URING_FILES_BASE) {
		p->st.bad_records++;
		return;
	}
	memcpy(&u, rec, IOR_REC_URING_FILES_BASE);
	if (u.nfds > IOR_URING_FILES_MAX || len < IOR_REC_URING_FILES_BASE + u.nfds * sizeof(int32_t)) {
		p->st.bad_records++;
		return;
	}
	memcpy(fds, rec + IOR_REC_URING_FILES_BASE, u.nfds * sizeof(int32_t));
	if (!(r = ring_get(p, u.h.pid, u.ring)))
		return;
	if (u.op != IOR_URING_FILES_UPDATE)
		ring_clear(r);
	for (uint32_t i = 0; i < u.nfds; i++)
		if (fds[i] != -2) /* IORING_REGISTER_FILES_SKIP: left as it was */
			ring_set(p, r, (u.op == IOR_URING_FILES_UPDATE ? u.offset : 0) + i, fds[i]);
}

void ior_pair_async_proc_exit(struct ior_pairer *p, uint32_t pid)
{
	for (uint32_t i = 0; i < p->nrings;) {
		if (p->rings[i].pid != pid) {
			i++;
			continue;
		}
		ring_clear(&p->rings[i]);
		p->rings[i] = p->rings[--p->nrings];
	}
}

/* The path of a fixed file's slot, or NULL; *flags its open flags. */
static const char *fixed_path(const struct ior_pairer *p, const struct async_op *o, int64_t *flags)
{
	const struct uring_files *r = ring_find(p, o->pid, o->ring);
	int in = r && o->fd >= 0 && (uint32_t)o->fd < r->n;

	if (flags)
		*flags = in ? r->flags[o->fd] : IOR_FLAGS_UNKNOWN;
	return in ? r->slot[o->fd] : NULL;
}

/* Path i of a submission (an op that takes paths), bounded by the
 * record: placed as an exit record's are (bpf/event.h). NULL when none. */
static char *submit_path(const struct ior_rec_async_submit *r, const char *rec, size_t len, int i)
{
	size_t len0 = r->path_len[0] < IOR_PATH_MAX ? r->path_len[0] : IOR_PATH_MAX - 1;
	size_t off = IOR_REC_ASYNC_SUBMIT_BASE + (i ? IOR_PATH1_OFF(len0) : 0), n = r->path_len[i];
	char *path;

	if (r->npaths <= i || len <= off || !n)
		return NULL;
	if (n > len - off)
		n = len - off;
	if (n > IOR_PATH_MAX - 1)
		n = IOR_PATH_MAX - 1;
	if (!(path = malloc(n + 1)))
		return NULL;
	memcpy(path, rec + off, n);
	path[n] = 0;
	return path;
}

void ior_pair_async_submit(struct ior_pairer *p, const char *rec, size_t len)
{
	struct ior_rec_async_submit r;
	struct async_op *o;

	if (len < IOR_REC_ASYNC_SUBMIT_BASE) {
		p->st.bad_records++;
		return;
	}
	memcpy(&r, rec, IOR_REC_ASYNC_SUBMIT_BASE); /* a ring's records are 4-byte aligned */
	if (!ior_syscall_by_nr(r.h.nr)) {
		p->st.bad_records++;
		return;
	}
	if ((o = op_find(p, r.key, r.h.pid))) { /* its completion was lost */
		p->st.t.overwritten_enters++;
		op_delete(p, o);
	}
	if ((!p->ops || (p->nops + 1) * 2 > p->ops_mask + 1) && ops_grow(p) && !p->ops) {
		p->st.bad_records++;
		return;
	}
	o = op_slot(p->ops, p->ops_mask, r.key, r.h.pid);
	*o = (struct async_op){ .used = 1, .key = r.key, .ring = r.ring, .pid = r.h.pid, .tid = r.h.tid, .nr = r.h.nr,
				.enter_ts = r.h.ts, .fd = r.fd, .sqe_flags = r.sqe_flags, .flags = r.flags,
				.dirfd = r.dirfd, .file_slot = r.file_slot,
				.path = { submit_path(&r, rec, len, 0), submit_path(&r, rec, len, 1) } };
	memcpy(o->comm, r.comm, sizeof o->comm);
	o->comm[sizeof o->comm - 1] = 0;
	p->nops++;
}

/* The thread state the file naming reads, made of the submission. */
static struct tid_st op_thread(const struct async_op *o)
{
	int no_fd = (o->sqe_flags & IOR_ASYNC_FIXED) || (o->file_slot && o->nr == IOR_NR_URING + IORING_OP_CLOSE_);
	struct tid_st t = { .tid = o->tid, .pid = o->pid, .used = 1, .nr = o->nr,
			    .enter_ts = o->enter_ts, .fd = no_fd ? -1 : o->fd,
			    .flags = o->flags, .aux = (uint64_t)(int64_t)o->dirfd };

	memcpy(t.comm, o->comm, sizeof t.comm);
	return t;
}

/* The fixed-file slot a direct descriptor op acts on: an open or accept
 * into slot file_slot - 1, or the one the kernel picked (its result). */
static int64_t direct_slot(const struct async_op *o, int64_t res)
{
	if (o->file_slot == IOR_URING_SLOT_ALLOC)
		return res;
	return res < 0 ? res : (int64_t)o->file_slot - 1;
}

/* An open or accept into the ring's fixed-file table (no fd: the fd
 * table is untouched); the pair names the file the slot now holds. */
static void direct_open(struct ior_pairer *p, const struct ior_syscall *s, const struct async_op *o,
			struct tid_st *t, struct ior_event_pair *e)
{
	struct uring_files *r;
	int64_t slot = direct_slot(o, e->ret);
	int64_t ret = e->ret;

	e->ret = -1; /* names the path without entering an fd */
	ior_pair_name_files(p, s, t, e, o->path[0] ? o->path[0] : "", "");
	e->ret = ret;
	e->fd = -1;
	if (s->fd_kind != IOR_FD_PATH) { /* a socket or a connection: named by its kind */
		int64_t fl;
		const char *listener = s->fd_kind == IOR_FD_ACCEPT ? ior_fdtab_get(p->cfg.fds, e->pid, o->fd, &fl) : NULL;
		e->path = ior_syscall_fd_name(s->fd_kind, t->flags, t->aux, listener, p->path[0], sizeof p->path[0]);
	}
	if (slot >= 0 && slot <= UINT32_MAX && (r = ring_get(p, o->pid, o->ring)))
		ring_set_path(p, r, (uint32_t)slot, e->path, e->flags);
}

/* A fixed file installed as a new fd of the submitter's process (its
 * slot is the sqe's fd): the fd table gets the slot's file, O_CLOEXEC
 * unless the op said IORING_FIXED_FD_NO_CLOEXEC; the pair shows the new
 * fd, as an open does. */
static void fixed_install(struct ior_pairer *p, const struct async_op *o, struct ior_event_pair *e)
{
	int64_t fl;

	if (e->ret < 0 || e->ret > INT32_MAX || !(o->sqe_flags & IOR_ASYNC_FIXED))
		return;
	if (!fixed_path(p, o, &fl))
		fl = IOR_FLAGS_UNKNOWN;
	if (fl != IOR_FLAGS_UNKNOWN)
		fl = (fl & ~(int64_t)O_CLOEXEC) | (int64_t)(o->flags & O_CLOEXEC);
	ior_fdtab_set(p->cfg.fds, e->pid, (int)e->ret, e->path, fl);
	e->fd = (int32_t)e->ret;
	e->path = ior_fdtab_get(p->cfg.fds, e->pid, e->fd, &e->flags);
}

/* A close of a direct descriptor: its slot, named, emptied. */
static void direct_close(struct ior_pairer *p, const struct async_op *o, struct ior_event_pair *e)
{
	struct uring_files *r = ring_find(p, o->pid, o->ring);
	uint32_t i = o->file_slot - 1;

	if (r && i < r->n && r->slot[i]) {
		snprintf(p->path[0], sizeof p->path[0], "%s", r->slot[i]);
		e->path = p->path[0];
		if (e->ret == 0)
			ring_set_path(p, r, i, "", IOR_FLAGS_UNKNOWN);
	} else {
		p->st.async_fixed++;
	}
}

static void deliver(struct ior_pairer *p, const struct async_op *o, const struct ior_rec_async_done *d)
{
	const struct ior_syscall *s = ior_syscall_by_nr(o->nr);
	struct tid_st t = op_thread(o);
	struct ior_event_pair e = {
		.enter_ns = o->enter_ts,
		.duration_ns = d->h.ts > o->enter_ts ? d->h.ts - o->enter_ts : 0,
		.ret = d->res,
		.flags = IOR_FLAGS_UNKNOWN,
		.pid = o->pid,
		.tid = o->tid,
		.fd = -1,
		.sys = (uint16_t)ior_syscall_index(s),
		.comm = t.comm,
		.path = "",
		.path2 = "",
		.where = d->where <= IOR_WHERE_POLL ? (uint8_t)d->where : IOR_WHERE_NONE,
	};

	if ((s->cls == IOR_SC_READ || s->cls == IOR_SC_WRITE || s->cls == IOR_SC_TRANSFER) && d->res > 0)
		e.bytes = (uint64_t)d->res;
	p->has_ident = 0;
	p->leaf[0] = 0;
	if (o->file_slot && s->cls == IOR_SC_OPEN) {
		direct_open(p, s, o, &t, &e);
	} else {
		ior_pair_name_files(p, s, &t, &e, o->path[0] ? o->path[0] : "", o->path[1] ? o->path[1] : "");
		if (o->file_slot && s->cls == IOR_SC_CLOSE)
			direct_close(p, o, &e);
	}
	if ((o->sqe_flags & IOR_ASYNC_FIXED) && s->fd_arg != IOR_ARG_NONE) {
		const char *fixed = fixed_path(p, o, NULL); /* shown without an fd: a slot is none */
		if (fixed)
			e.path = fixed;
		else
			p->st.async_fixed++;
	}
	if (s->async_args == IOR_ASYNC_ARGS_INSTALL)
		fixed_install(p, o, &e);
	ior_pair_deliver(p, s, &t, &e, d->h.ts, 0);
}

void ior_pair_async_done(struct ior_pairer *p, const char *rec, size_t len)
{
	struct ior_rec_async_done d;
	struct async_op *o;

	if (len < sizeof d) {
		p->st.bad_records++;
		return;
	}
	memcpy(&d, rec, sizeof d);
	o = op_find(p, d.key, d.h.pid);
	if (!o || o->nr != d.h.nr) {
		if (p->enters_stopped && d.h.ts >= p->enters_stopped)
			p->st.exits_after_stop++;
		else
			p->st.t.unpaired_exits++;
		return;
	}
	if (d.more != IOR_ASYNC_DONE_WITHDRAWN) /* else io_submit refused it: no op */
		deliver(p, o, &d);
	if (d.more == IOR_ASYNC_DONE_MORE) /* a multishot op: its next result is timed from this one */
		o->enter_ts = d.h.ts;
	else
		op_delete(p, o);
}

static int op_visible(const struct ior_pairer *p, const struct async_op *o)
{
	const struct ior_syscall *s = ior_syscall_by_nr(o->nr);

	return s && (!p->cfg.visible || p->cfg.visible[ior_syscall_index(s)]);
}

uint64_t ior_pair_async_in_flight(const struct ior_pairer *p)
{
	uint64_t n = 0;

	for (uint32_t i = 0; p->ops && i <= p->ops_mask; i++)
		n += p->ops[i].used && op_visible(p, &p->ops[i]);
	return n;
}

/* Ops of processes gone (their completions were lost) are closed. */
void ior_pair_async_close_gone(struct ior_pairer *p, int (*alive)(void *ctx, uint32_t pid, uint32_t tid),
			       void *ctx)
{
	for (uint32_t i = 0; p->ops && i <= p->ops_mask; i++) {
		struct async_op *o = &p->ops[i];
		if (o->used && op_visible(p, o) && !alive(ctx, o->pid, o->tid)) {
			p->st.enters_at_thread_exit++;
			op_delete(p, o);
			i--; /* a later entry may have shifted into this slot */
		}
	}
}

/* What an op in flight without an fd acts on: its registered file (a
 * slot), else its first path as it was given (made absolute at its
 * completion). */
static const char *op_file(const struct ior_pairer *p, const struct async_op *o)
{
	const char *fixed = (o->sqe_flags & IOR_ASYNC_FIXED) ? fixed_path(p, o, NULL) : NULL;

	if (fixed)
		return fixed;
	return o->path[0] ? o->path[0] : "";
}

size_t ior_pair_async_list(const struct ior_pairer *p, struct ior_in_flight *out, size_t max)
{
	size_t n = 0;

	for (uint32_t i = 0; p->ops && i <= p->ops_mask && n < max; i++) {
		const struct async_op *o = &p->ops[i];
		if (!o->used || !op_visible(p, o))
			continue;
		const struct ior_syscall *s = ior_syscall_by_nr(o->nr);
		int fd = s->fd_arg != IOR_ARG_NONE && !s->fd_is_dirfd2 && !(o->sqe_flags & IOR_ASYNC_FIXED) &&
			 !(o->file_slot && s->cls == IOR_SC_CLOSE) && o->fd >= 0 ? o->fd : -1;
		int64_t flags;
		const char *path = fd >= 0 ? ior_fdtab_get(p->cfg.fds, o->pid, fd, &flags) : op_file(p, o);
		out[n] = (struct ior_in_flight){ o->enter_ts, o->pid, o->tid, (uint16_t)ior_syscall_index(s),
						 { 0 }, fd, path };
		memcpy(out[n].comm, o->comm, sizeof out[n].comm);
		n++;
	}
	return n;
}
