/* Per-tid pairing. The tid table is open addressing with backward-shift
 * deletion; it grows by doubling (allocation only then), and thread exit
 * records remove entries so a reused tid starts fresh. Records are copied
 * into local structs because ring records are only 4-byte aligned. */
#include "pair/internal.h"
#include "pair/net.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t hash_tid(uint32_t tid)
{
	return (uint32_t)(((uint64_t)tid * 0x9e3779b97f4a7c15ull) >> 32);
}

struct ior_pairer *ior_pair_new(const struct ior_pair_cfg *cfg)
{
	struct ior_pairer *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	p->cfg = *cfg;
	p->fd_last = cfg->fds ? ior_fdtab_last(cfg->fds) : NULL;
	p->mask = 1023;
	p->tids = calloc(p->mask + 1, sizeof *p->tids);
	if (!p->tids)
		return free(p), NULL;
	ior_pair_net_init(p);
	return p;
}

void ior_pair_free(struct ior_pairer *p)
{
	if (!p)
		return;
	ior_pair_async_free(p);
	ior_pair_block_free(p);
	free(p->tids);
	free(p);
}

static struct tid_st *tid_find(struct ior_pairer *p, uint32_t tid)
{
	for (uint32_t i = hash_tid(tid) & p->mask;; i = (i + 1) & p->mask) {
		if (!p->tids[i].used)
			return NULL;
		if (p->tids[i].tid == tid)
			return &p->tids[i];
	}
}

struct tid_st *tid_lookup(struct ior_pairer *p, uint32_t tid)
{
	return tid_find(p, tid);
}

static struct tid_st *tid_insert_slot(struct tid_st *tab, uint32_t mask, uint32_t tid)
{
	uint32_t i = hash_tid(tid) & mask;

	while (tab[i].used)
		i = (i + 1) & mask;
	return &tab[i];
}

/* Doubles the table; on allocation failure keeps the old one (still has
 * room: it grows at half full). */
static void tid_grow(struct ior_pairer *p)
{
	uint32_t mask = p->mask * 2 + 1;
	struct tid_st *tab = calloc((size_t)mask + 1, sizeof *tab);

	if (!tab)
		return;
	for (uint32_t i = 0; i <= p->mask; i++)
		if (p->tids[i].used)
			*tid_insert_slot(tab, mask, p->tids[i].tid) = p->tids[i];
	free(p->tids);
	p->tids = tab;
	p->mask = mask;
}

static struct tid_st *tid_get(struct ior_pairer *p, uint32_t tid)
{
	struct tid_st *s = tid_find(p, tid);

	if (s)
		return s;
	if ((p->count + 1) * 2 > p->mask + 1)
		tid_grow(p);
	if ((p->count + 1) * 4 > (p->mask + 1) * 3)
		return NULL; /* could not grow: drop rather than fill up */
	s = tid_insert_slot(p->tids, p->mask, tid);
	memset(s, 0, sizeof *s);
	s->used = 1;
	s->tid = tid;
	p->count++;
	return s;
}

static void tid_delete(struct ior_pairer *p, uint32_t tid)
{
	struct tid_st *s = tid_find(p, tid);
	uint32_t i, j;

	if (!s)
		return;
	if (s->open)
		p->st.enters_at_thread_exit++;
	if (p->nacc)
		ior_pair_block_forget(p, tid);
	i = j = (uint32_t)(s - p->tids);
	memset(s, 0, sizeof *s);
	p->count--;
	for (;;) {
		j = (j + 1) & p->mask;
		if (!p->tids[j].used)
			return;
		uint32_t home = hash_tid(p->tids[j].tid) & p->mask;
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			p->tids[i] = p->tids[j];
			memset(&p->tids[j], 0, sizeof p->tids[j]);
			i = j;
		}
	}
}

/* the first 7 bytes in memory of a little- or big-endian word */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define IOR_LOW7_BYTES 0xffffffffffffff00ull
#else
#define IOR_LOW7_BYTES 0x00ffffffffffffffull
#endif

/* kept (NUL-terminated) against a record's 16 bytes, whose last is not
 * read: storing a NUL there and loading the word back stalled the store
 * forwarding, 5% of ior's CPU (perf annotate) */
static inline int same_comm(const char kept[16], const char rec[16])
{
	uint64_t k0, k1, r0, r1;

	memcpy(&k0, kept, 8), memcpy(&k1, kept + 8, 8);
	memcpy(&r0, rec, 8), memcpy(&r1, rec + 8, 8);
	return k0 == r0 && ((k1 ^ r1) & IOR_LOW7_BYTES) == 0;
}

static void on_enter(struct ior_pairer *p, const void *rec, size_t len)
{
	struct ior_rec_enter e;
	struct tid_st *s;

	if (len < IOR_REC_ENTER_BASE) {
		p->st.bad_records++;
		return;
	}
	/* two constant sizes: a variable one compiles to rep movs, slow here */
	if (len >= sizeof e) {
		memcpy(&e, rec, sizeof e);
	} else {
		memcpy(&e, rec, IOR_REC_ENTER_BASE);
		e.flags = e.aux = 0;
	}
	s = tid_get(p, e.h.tid);
	if (!s) {
		p->st.bad_records++;
		return;
	}
	if (s->open)
		p->st.t.overwritten_enters++;
	s->open = 1;
	s->pid = e.h.pid;
	s->nr = e.h.nr;
	s->enter_ts = e.h.ts;
	s->fd = e.fd;
	s->flags = e.flags;
	s->aux = e.aux;
	s->cache_pages = 0;
	/* a thread's comm seldom changes: its id tells sinks it did not */
	if (!s->comm_id || !same_comm(s->comm, e.comm)) {
		memcpy(s->comm, e.comm, sizeof s->comm);
		s->comm[sizeof s->comm - 1] = 0;
		s->comm_id = ++p->comm_ids;
	}
}

static inline int path_wanted(const struct ior_pairer *p, const struct ior_event_pair *e)
{
	const char *f = p->cfg.path_filter;

	return !f || !f[0] || strstr(e->path, f) || strstr(e->path2, f);
}

/* A pair on an fd without a path: counted with the reason. */
static void count_unattributed(struct ior_pairer *p, const struct ior_event_pair *e, uint64_t ts)
{
	enum ior_fd_unknown why;

	if (e->fd < 0 || e->path[0])
		return;
	why = e->ret == -EBADF ? IOR_FD_NOT_OPEN : ior_fdtab_unknown(p->cfg.fds, e->pid, ts);
	p->st.unattributed++;
	p->st.unattributed_why[why]++;
}

/* ior_pair_deliver's body, inlined into the exit's path (every pair) */
static inline void deliver(struct ior_pairer *p, const struct ior_syscall *s, struct tid_st *t,
			   struct ior_event_pair *e, uint64_t ts, int chain)
{
	if (p->cfg.visible && !p->cfg.visible[e->sys]) {
		ior_pair_update_fds(p, s, t, e);
		return;
	}
	if (chain) {
		t->has_prev = 1;
		t->last_exit = ts;
	}
	p->st.t.pairs_seen++;
	if (path_wanted(p, e)) {
		p->st.t.pairs++;
		count_unattributed(p, e, ts);
		e->path_id = p->fd_last ? ior_fdtab_path_id(p->fd_last, e->path) : 0;
		p->cfg.sink(p->cfg.sink_ctx, e);
	}
	ior_pair_update_fds(p, s, t, e);
}

static const struct ior_event_pair blank_pair = { .flags = IOR_FLAGS_UNKNOWN, .fd = -1, .path = "", .path2 = "" };

static void on_exit_rec(struct ior_pairer *p, const char *rec, size_t len)
{
	struct exit_base x = { 0 };
	struct ior_event_pair e;
	const struct ior_syscall *s;
	struct tid_st *t;

	if (len < sizeof x.h + sizeof x.ret) {
		p->st.bad_records++;
		return;
	}
	_Static_assert(sizeof x == offsetof(struct ior_rec_exit, paths), "exit_base matches struct ior_rec_exit");
	/* two constant sizes: a variable one compiles to rep movs, slow here */
	if (len >= IOR_REC_EXIT_BASE)
		memcpy(&x, rec, IOR_REC_EXIT_BASE);
	else
		memcpy(&x, rec, sizeof x.h + sizeof x.ret);
	t = tid_find(p, x.h.tid);
	if (!t || !t->open) {
		if (p->enters_stopped && x.h.ts >= p->enters_stopped)
			p->st.exits_after_stop++;
		else
			p->st.t.unpaired_exits++;
		ior_pair_learn_unpaired_open(p, &x, rec, len);
		return;
	}
	t->open = 0;
	if (t->nr != x.h.nr) {
		p->st.mismatched_exits++;
		return;
	}
	s = ior_syscall_by_nr(x.h.nr);
	if (!s) {
		p->st.bad_records++;
		return;
	}
	const char *raw0 = ior_pair_exit_path(p, &x, rec, len, 0), *raw1 = ior_pair_exit_path(p, &x, rec, len, 1);
	ior_pair_read_ident(p, &x, rec, len);
	p->has_net = x.ident == IOR_EXIT_NET && !ior_net_read(rec, len, &p->net);
	/* from a template, not a compound literal: that zeroes the 176 bytes
	 * with rep stos, 8% of ior's CPU on this AMD host (perf annotate) */
	memcpy(&e, &blank_pair, sizeof e);
	e.enter_ns = t->enter_ts;
	e.duration_ns = x.h.ts > t->enter_ts ? x.h.ts - t->enter_ts : 0;
	e.gap_ns = t->has_prev && t->enter_ts > t->last_exit ? t->enter_ts - t->last_exit : 0;
	e.ret = x.ret;
	e.pid = t->pid;
	e.tid = t->tid;
	e.sys = (uint16_t)ior_syscall_index(s);
	e.comm = t->comm;
	e.comm_id = t->comm_id;
	if ((s->cls == IOR_SC_READ || s->cls == IOR_SC_WRITE || s->cls == IOR_SC_TRANSFER) && x.ret > 0)
		e.bytes = (uint64_t)x.ret;
	if (p->nacc)
		ior_pair_block_exit(p, t, &e);
	e.cache_pages = t->cache_pages;
	ior_pair_name_files(p, s, t, &e, raw0, raw1);
	if (p->has_net || s->family == IOR_FAM_Polling || s == p->mmsg[0] || s == p->mmsg[1])
		ior_pair_name_net(p, s, t, &e);
	deliver(p, s, t, &e, x.h.ts, 1);
}

void ior_pair_deliver(struct ior_pairer *p, const struct ior_syscall *s, struct tid_st *t,
		      struct ior_event_pair *e, uint64_t ts, int chain)
{
	deliver(p, s, t, e, ts, chain);
}

/* Delivers a summary row (or a gap correction, at ts) for key, named as
 * the fd table has it now. */
static void summary_row(struct ior_pairer *p, const struct ior_sum_key *k,
			const struct ior_sum_val *v, const char *comm, uint64_t ts)
{
	const struct ior_syscall *s = ior_syscall_by_nr(k->nr);
	struct ior_event_pair e;

	if (!s || k->nr > UINT16_MAX) {
		p->st.bad_records++;
		return;
	}
	e = (struct ior_event_pair){
		.enter_ns = v->pairs ? v->first_enter : ts,
		.end_ns = v->pairs ? v->last_exit : ts,
		.duration_ns = v->duration_ns,
		.gap_ns = v->gap_ns,
		.bytes = v->bytes,
		.flags = IOR_FLAGS_UNKNOWN,
		.pid = k->pid,
		.tid = k->tid,
		.fd = k->fd,
		.sys = (uint16_t)ior_syscall_index(s),
		.comm = comm,
		.path = "",
		.path2 = "",
		.summary = 1,
		.pairs = v->pairs,
	};
	if (p->cfg.visible && !p->cfg.visible[e.sys])
		return;
	if (k->fd >= 0 && s->fd_arg != IOR_ARG_NONE && !s->fd_is_dirfd2)
		e.path = ior_fdtab_get(p->cfg.fds, e.pid, k->fd, &e.flags);
	p->st.t.pairs_seen += v->pairs;
	if (!path_wanted(p, &e))
		return;
	p->st.t.pairs += v->pairs;
	p->st.t.summarized += v->pairs;
	p->cfg.sink(p->cfg.sink_ctx, &e);
}

void ior_pair_summary(struct ior_pairer *p, const struct ior_sum_key *k, const struct ior_sum_val *v,
		      uint64_t ts)
{
	char comm[IOR_COMM_LEN];

	memcpy(comm, v->comm, sizeof comm);
	comm[sizeof comm - 1] = 0;
	summary_row(p, k, v, comm, ts);
}

/* A streak of the thread's pairs went into the summaries. Its first pair's
 * gap starts at the thread's last delivered exit, known only here; the
 * next pair's gap starts at the streak's last exit. */
static void on_streak(struct ior_pairer *p, const void *rec, size_t len)
{
	struct ior_rec_streak r;
	struct tid_st *t;

	if (len < sizeof r) {
		p->st.bad_records++;
		return;
	}
	memcpy(&r, rec, sizeof r);
	t = tid_get(p, r.h.tid);
	if (!t) {
		p->st.bad_records++;
		return;
	}
	/* an enter still open lost its exit to a full reserve: the kernel
	 * counted that record in reserve_full */
	t->open = 0;
	if (t->has_prev && r.first_enter > t->last_exit) {
		struct ior_sum_key k = { r.h.pid, r.h.tid, r.h.nr, r.first_fd };
		struct ior_sum_val v = { .gap_ns = r.first_enter - t->last_exit };
		summary_row(p, &k, &v, t->comm, r.first_enter);
	}
	if (r.last_exit) {
		t->has_prev = 1;
		t->last_exit = r.last_exit;
	}
}

void ior_pair_stop_enters(struct ior_pairer *p, uint64_t ts)
{
	p->enters_stopped = ts;
}

static void on_fork(struct ior_pairer *p, const void *rec, size_t len)
{
	struct ior_rec_fork f;

	if (len < sizeof f) {
		p->st.bad_records++;
		return;
	}
	memcpy(&f, rec, sizeof f);
	if (f.child_pid != f.h.pid)
		ior_fdtab_fork(p->cfg.fds, f.h.pid, f.child_pid, f.shares_files == 1);
}

void ior_pair_feed(struct ior_pairer *p, const void *rec, size_t len)
{
	struct ior_rec_head h;

	if (len < sizeof h) {
		p->st.bad_records++;
		return;
	}
	memcpy(&h, rec, sizeof h);
	ior_fdtab_advance(p->cfg.fds, h.ts);
	switch (h.kind) {
	case IOR_REC_ENTER:
		on_enter(p, rec, len);
		break;
	case IOR_REC_EXIT:
		on_exit_rec(p, rec, len);
		break;
	case IOR_REC_PROC_EXIT:
		tid_delete(p, h.tid);
		ior_fdtab_proc_exit(p->cfg.fds, h.pid, h.ts);
		ior_pair_async_proc_exit(p, h.pid);
		break;
	case IOR_REC_FORK:
		on_fork(p, rec, len);
		break;
	case IOR_REC_EXEC:
		ior_fdtab_exec(p->cfg.fds, h.pid);
		break;
	case IOR_REC_THREAD_EXIT:
		tid_delete(p, h.tid);
		break;
	case IOR_REC_STREAK:
		on_streak(p, rec, len);
		break;
	case IOR_REC_ASYNC_SUBMIT:
		ior_pair_async_submit(p, rec, len);
		break;
	case IOR_REC_ASYNC_DONE:
		ior_pair_async_done(p, rec, len);
		break;
	case IOR_REC_URING_FILES:
		ior_pair_uring_files(p, rec, len);
		break;
	case IOR_REC_BLOCK:
		ior_pair_block(p, rec, len);
		break;
	case IOR_REC_CACHE:
		ior_pair_cache(p, rec, len);
		break;
	default:
		p->st.bad_records++;
	}
}

static int open_and_visible(const struct ior_pairer *p, const struct tid_st *t)
{
	const struct ior_syscall *s;

	if (!t->used || !t->open || !(s = ior_syscall_by_nr(t->nr)))
		return 0;
	return !p->cfg.visible || p->cfg.visible[ior_syscall_index(s)];
}

void ior_pair_close_gone(struct ior_pairer *p, int (*alive)(void *ctx, uint32_t pid, uint32_t tid),
			 void *ctx)
{
	for (uint32_t i = 0; i <= p->mask; i++) {
		struct tid_st *t = &p->tids[i];
		if (open_and_visible(p, t) && !alive(ctx, t->pid, t->tid)) {
			t->open = 0;
			p->st.enters_at_thread_exit++;
		}
	}
	ior_pair_async_close_gone(p, alive, ctx);
}

void ior_pair_get_stats(const struct ior_pairer *p, struct ior_pair_stats *s)
{
	*s = p->st;
	s->t.in_flight = 0;
	for (uint32_t i = 0; i <= p->mask; i++)
		s->t.in_flight += open_and_visible(p, &p->tids[i]);
	s->async_in_flight = ior_pair_async_in_flight(p);
	s->t.in_flight += s->async_in_flight;
	s->threads = p->count;
}

static int by_enter(const void *a, const void *b)
{
	const struct ior_in_flight *x = a, *y = b;
	return x->enter_ns < y->enter_ns ? -1 : x->enter_ns > y->enter_ns;
}

/* Appends the async ops in flight to *all (n so far, *cap allocated). */
static size_t in_flight_async(const struct ior_pairer *p, struct ior_in_flight **all, size_t n, size_t *cap)
{
	size_t want = n + (size_t)ior_pair_async_in_flight(p);

	if (want == n) /* none: *all may still be NULL */
		return n;
	if (want > *cap) {
		struct ior_in_flight *a = realloc(*all, want * sizeof *a);
		if (!a)
			return n;
		*all = a;
		*cap = want;
	}
	return n + ior_pair_async_list(p, *all + n, want - n);
}

size_t ior_pair_in_flight(const struct ior_pairer *p, struct ior_in_flight *out, size_t max)
{
	struct ior_in_flight *all = NULL;
	size_t n = 0, cap = 0;

	for (uint32_t i = 0; i <= p->mask; i++) {
		const struct tid_st *t = &p->tids[i];
		if (!open_and_visible(p, t))
			continue;
		const struct ior_syscall *s = ior_syscall_by_nr(t->nr);
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			struct ior_in_flight *a = realloc(all, cap * sizeof *a);
			if (!a)
				break;
			all = a;
		}
		int fd = s->fd_arg != IOR_ARG_NONE && !s->fd_is_dirfd2 && t->fd >= 0 && t->fd <= INT32_MAX
				 ? (int)t->fd : -1;
		int64_t flags;
		all[n] = (struct ior_in_flight){ t->enter_ts, t->pid, t->tid, (uint16_t)ior_syscall_index(s),
						 { 0 }, fd, fd >= 0 ? ior_fdtab_get(p->cfg.fds, t->pid, fd, &flags) : "" };
		memcpy(all[n].comm, t->comm, sizeof all[n].comm);
		n++;
	}
	n = in_flight_async(p, &all, n, &cap);
	if (n) {
		qsort(all, n, sizeof *all, by_enter);
		memcpy(out, all, (n < max ? n : max) * sizeof *out);
	}
	free(all);
	return n;
}
