/* Two open-addressing tables (linear probing, backward-shift deletion, no
 * tombstones): fds keyed by (pid, fd) and processes keyed by pid. Each
 * process heads a list of its fds so process exit, fork and close_range do
 * not scan the whole table; all fds sit on one LRU list for the bound. Path
 * strings are per-entry buffers reused and only grown, so steady state
 * allocates nothing. Process lifecycle and snapshots: fdtab_life.c. */
#include "pair/fdtab_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 16;
	while (p < n)
		p <<= 1;
	return p;
}

static uint32_t hash32(uint64_t k)
{
	k *= 0x9e3779b97f4a7c15ull;
	return (uint32_t)(k >> 32);
}

static uint64_t fd_key(uint32_t pid, int fd)
{
	return (uint64_t)pid << 32 | (uint32_t)fd;
}

struct ior_fdtab *ior_fdtab_new(unsigned max_fds, unsigned max_procs)
{
	struct ior_fdtab *t = calloc(1, sizeof *t);

	if (!t || !max_fds || !max_procs)
		return free(t), NULL;
	t->max_fds = max_fds;
	t->max_procs = max_procs;
	t->fd_mask = pow2_at_least(2 * max_fds) - 1;
	t->proc_mask = pow2_at_least(2 * max_procs) - 1;
	t->fds = calloc(max_fds, sizeof *t->fds);
	t->fd_slots = calloc((size_t)t->fd_mask + 1, sizeof *t->fd_slots);
	t->procs = calloc((size_t)t->proc_mask + 1, sizeof *t->procs);
	if (!t->fds || !t->fd_slots || !t->procs) {
		ior_fdtab_free(t);
		return NULL;
	}
	for (uint32_t i = 0; i < max_fds; i++)
		t->fds[i].lru_next = i + 1 < max_fds ? i + 1 : NIL; /* free list */
	t->free_head = 0;
	t->lru_head = t->lru_tail = NIL;
	t->last_get = NIL;
	t->next_due = UINT64_MAX;
	return t;
}

void ior_fdtab_free(struct ior_fdtab *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; t->fds && i < t->max_fds; i++)
		free(t->fds[i].path);
	for (uint32_t i = 0; t->procs && i <= t->proc_mask; i++)
		free(t->procs[i].cwd);
	ior_fdtab_snaps_free_(t);
	free(t->dying);
	free(t->fds);
	free(t->fd_slots);
	free(t->procs);
	free(t);
}

/* Stores s in a reusable buffer; keeps the old buffer when allocation fails
 * (the path is then truncated rather than lost). */
void ior_fdtab_set_str_(char **buf, uint32_t *cap, const char *s)
{
	size_t n = strnlen(s, IOR_FD_PATH_MAX - 1);

	if (n + 1 > *cap) {
		uint32_t c = pow2_at_least((uint32_t)n + 1);
		char *p = realloc(*buf, c);
		if (p)
			*buf = p, *cap = c;
	}
	if (!*cap)
		return;
	if (n + 1 > *cap)
		n = *cap - 1;
	memcpy(*buf, s, n);
	(*buf)[n] = 0;
}

/* ---- processes ----------------------------------------------------------- */

uint32_t ior_fdtab_proc_find_(const struct ior_fdtab *t, uint32_t pid)
{
	for (uint32_t i = hash32(pid) & t->proc_mask;; i = (i + 1) & t->proc_mask) {
		if (!t->procs[i].used)
			return NIL;
		if (t->procs[i].pid == pid)
			return i;
	}
}

static void proc_slot_moved(struct ior_fdtab *t, uint32_t from, uint32_t to)
{
	for (uint32_t e = t->procs[to].fds; e != NIL; e = t->fds[e].pid_next)
		t->fds[e].proc = to;
	(void)from;
}

static void proc_delete_slot(struct ior_fdtab *t, uint32_t i)
{
	uint32_t j = i;

	free(t->procs[i].cwd);
	memset(&t->procs[i], 0, sizeof t->procs[i]);
	t->nprocs--;
	for (;;) {
		j = (j + 1) & t->proc_mask;
		if (!t->procs[j].used)
			return;
		uint32_t home = hash32(t->procs[j].pid) & t->proc_mask;
		/* move j back to i unless its home lies cyclically in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			t->procs[i] = t->procs[j];
			memset(&t->procs[j], 0, sizeof t->procs[j]);
			proc_slot_moved(t, j, i);
			i = j;
		}
	}
}

static void clear_all(struct ior_fdtab *t);

uint32_t ior_fdtab_proc_get_(struct ior_fdtab *t, uint32_t pid)
{
	uint32_t i = ior_fdtab_proc_find_(t, pid);

	if (i != NIL)
		return i;
	if (t->nprocs >= t->max_procs)
		ior_fdtab_reap_(t); /* exited ones first */
	if (t->nprocs >= t->max_procs) {
		clear_all(t);
		t->st.resets++;
	}
	for (i = hash32(pid) & t->proc_mask; t->procs[i].used; i = (i + 1) & t->proc_mask)
		;
	t->procs[i].used = 1;
	t->procs[i].pid = pid;
	t->procs[i].fds = NIL;
	t->nprocs++;
	return i;
}

/* ---- fd entries ---------------------------------------------------------- */

static uint32_t *fd_slot_find(struct ior_fdtab *t, uint64_t key)
{
	for (uint32_t i = hash32(key) & t->fd_mask;; i = (i + 1) & t->fd_mask) {
		uint32_t v = t->fd_slots[i];
		if (!v)
			return &t->fd_slots[i];
		const struct fd_ent *e = &t->fds[v - 1];
		if (fd_key(e->pid, e->fd) == key)
			return &t->fd_slots[i];
	}
}

static void fd_slot_delete(struct ior_fdtab *t, uint32_t *slot)
{
	uint32_t i = (uint32_t)(slot - t->fd_slots), j = i;

	t->fd_slots[i] = 0;
	for (;;) {
		j = (j + 1) & t->fd_mask;
		uint32_t v = t->fd_slots[j];
		if (!v)
			return;
		const struct fd_ent *e = &t->fds[v - 1];
		uint32_t home = hash32(fd_key(e->pid, e->fd)) & t->fd_mask;
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			t->fd_slots[i] = v;
			t->fd_slots[j] = 0;
			i = j;
		}
	}
}

static void lru_unlink(struct ior_fdtab *t, uint32_t e)
{
	struct fd_ent *x = &t->fds[e];

	if (x->lru_prev != NIL)
		t->fds[x->lru_prev].lru_next = x->lru_next;
	else
		t->lru_head = x->lru_next;
	if (x->lru_next != NIL)
		t->fds[x->lru_next].lru_prev = x->lru_prev;
	else
		t->lru_tail = x->lru_prev;
}

static void lru_push_front(struct ior_fdtab *t, uint32_t e)
{
	t->fds[e].lru_prev = NIL;
	t->fds[e].lru_next = t->lru_head;
	if (t->lru_head != NIL)
		t->fds[t->lru_head].lru_prev = e;
	t->lru_head = e;
	if (t->lru_tail == NIL)
		t->lru_tail = e;
}

static void touch(struct ior_fdtab *t, uint32_t e)
{
	if (t->lru_head == e)
		return;
	lru_unlink(t, e);
	lru_push_front(t, e);
}

static void pid_unlink(struct ior_fdtab *t, uint32_t e)
{
	struct fd_ent *x = &t->fds[e];

	if (x->pid_prev != NIL)
		t->fds[x->pid_prev].pid_next = x->pid_next;
	else
		t->procs[x->proc].fds = x->pid_next;
	if (x->pid_next != NIL)
		t->fds[x->pid_next].pid_prev = x->pid_prev;
}

void ior_fdtab_fd_remove_(struct ior_fdtab *t, uint32_t e)
{
	struct fd_ent *x = &t->fds[e];

	fd_slot_delete(t, fd_slot_find(t, fd_key(x->pid, x->fd)));
	lru_unlink(t, e);
	pid_unlink(t, e);
	x->lru_next = t->free_head; /* path buffer kept for reuse */
	t->free_head = e;
	if (t->last_get == e)
		t->last_get = NIL;
	t->last.path = NULL;
	t->nfds--;
}

/* Every process goes; their pending snapshots with them. */
static void clear_all(struct ior_fdtab *t)
{
	while (t->lru_head != NIL)
		ior_fdtab_fd_remove_(t, t->lru_head);
	for (uint32_t i = 0; i <= t->proc_mask; i++) {
		if (t->procs[i].snap)
			t->procs[i].snap->dead = 1;
		free(t->procs[i].cwd);
		memset(&t->procs[i], 0, sizeof t->procs[i]);
	}
	t->nprocs = 0;
	t->naliases = 0;
}

/* Frees process slot p and its fds (its pending snapshot is dropped). */
uint32_t ior_fdtab_owner_slow_(const struct ior_fdtab *t, uint32_t pid)
{
	uint32_t p = ior_fdtab_proc_find_(t, pid);

	return p != NIL && t->procs[p].owner ? t->procs[p].owner : pid;
}

/* A sharer goes: its owner may have been waiting for it to be freed. */
void ior_fdtab_unshare_(struct ior_fdtab *t, uint32_t p)
{
	uint32_t o = ior_fdtab_proc_find_(t, t->procs[p].owner);

	t->procs[p].owner = 0;
	t->naliases--;
	if (o != NIL && t->procs[o].sharers)
		t->procs[o].sharers--;
}

/* An owner goes while shared (its exit was lost): the sharers lose it. */
static void orphan_sharers(struct ior_fdtab *t, uint32_t pid)
{
	for (uint32_t i = 0; i <= t->proc_mask; i++)
		if (t->procs[i].used && t->procs[i].owner == pid) {
			t->procs[i].owner = 0;
			t->procs[i].base = BASE_NONE;
			t->naliases--;
		}
}

void ior_fdtab_proc_free_(struct ior_fdtab *t, uint32_t p)
{
	uint32_t pid = t->procs[p].pid;

	if (t->procs[p].owner) {
		uint32_t owner = t->procs[p].owner, o;
		ior_fdtab_unshare_(t, p);
		o = ior_fdtab_proc_find_(t, owner);
		if (o != NIL && t->procs[o].exited && !t->procs[o].sharers)
			ior_fdtab_proc_free_(t, o); /* it waited for its last sharer */
		p = ior_fdtab_proc_find_(t, pid);
		if (p == NIL)
			return;
	}
	if (t->procs[p].sharers) {
		orphan_sharers(t, pid);
		p = ior_fdtab_proc_find_(t, pid);
	}
	while (t->procs[p].fds != NIL)
		ior_fdtab_fd_remove_(t, t->procs[p].fds);
	if (t->procs[p].snap)
		t->procs[p].snap->dead = 1;
	proc_delete_slot(t, p);
}

/* Drops least recently used entries until n more fit. */
void ior_fdtab_evict_for_(struct ior_fdtab *t, uint32_t n)
{
	while (t->nfds && t->nfds + n > t->max_fds) {
		uint32_t e = t->lru_tail;
		t->procs[t->fds[e].proc].evicted = 1;
		ior_fdtab_fd_remove_(t, e);
		t->st.evicted++;
	}
}

uint32_t ior_fdtab_fd_find_(const struct ior_fdtab *t, uint32_t pid, int fd)
{
	uint32_t v = *fd_slot_find((struct ior_fdtab *)t, fd_key(pid, fd));
	return v ? v - 1 : NIL;
}

/* The entry for (pid, fd), created empty (flags -1, path "") if missing. */
static uint32_t fd_get(struct ior_fdtab *t, uint32_t pid, int fd)
{
	uint32_t e = ior_fdtab_fd_find_(t, pid, fd), p;

	if (e != NIL) {
		touch(t, e);
		return e;
	}
	ior_fdtab_evict_for_(t, 1);
	p = ior_fdtab_proc_get_(t, pid); /* may reset the table: take a free entry after */
	e = t->free_head;
	t->free_head = t->fds[e].lru_next;
	struct fd_ent *x = &t->fds[e];
	x->pid = pid;
	x->fd = fd;
	x->flags = -1;
	x->proc = p;
	if (x->path)
		x->path[0] = 0;
	x->id = ++t->ids;
	t->last.path = NULL;
	*fd_slot_find(t, fd_key(pid, fd)) = e + 1;
	lru_push_front(t, e);
	x->pid_prev = NIL;
	x->pid_next = t->procs[p].fds;
	if (x->pid_next != NIL)
		t->fds[x->pid_next].pid_prev = e;
	t->procs[p].fds = e;
	t->nfds++;
	return e;
}

/* Most lookups repeat the one before (a loop on one fd): the entry found
 * last is checked before the hash. Entries keep their index until removed,
 * and removal forgets it. */
const char *ior_fdtab_get(struct ior_fdtab *t, uint32_t caller, int fd, int64_t *flags)
{
	uint32_t pid = ior_fdtab_owner_(t, caller), e = t->last_get;

	*flags = -1;
	if (fd < 0)
		return "";
	if (e == NIL || t->fds[e].pid != pid || t->fds[e].fd != fd)
		e = ior_fdtab_fd_find_(t, pid, fd);
	if (e == NIL)
		return "";
	t->last_get = e;
	touch(t, e);
	*flags = t->fds[e].flags;
	t->last = (struct ior_fdtab_last){ t->fds[e].path, t->fds[e].id };
	return t->fds[e].path ? t->fds[e].path : "";
}

void ior_fdtab_set(struct ior_fdtab *t, uint32_t caller, int fd, const char *path, int64_t flags)
{
	uint32_t pid = ior_fdtab_owner_(t, caller);
	uint32_t e;

	if (fd < 0)
		return;
	e = fd_get(t, pid, fd);
	t->fds[e].flags = flags;
	ior_fdtab_set_str_(&t->fds[e].path, &t->fds[e].cap, path);
	t->fds[e].id = ++t->ids;
	t->last.path = NULL;
}

const struct ior_fdtab_last *ior_fdtab_last(const struct ior_fdtab *t)
{
	return &t->last;
}

void ior_fdtab_dup(struct ior_fdtab *t, uint32_t caller, int oldfd, int newfd, int cloexec)
{
	uint32_t pid = ior_fdtab_owner_(t, caller);
	int64_t flags;
	const char *p;

	if (oldfd == newfd || newfd < 0)
		return;
	p = ior_fdtab_get(t, pid, oldfd, &flags);
	/* copy out: setting newfd may evict oldfd's entry and reuse its buffer */
	size_t n = strnlen(p, sizeof t->scratch - 1);
	memmove(t->scratch, p, n);
	t->scratch[n] = 0;
	if (flags >= 0)
		flags = cloexec ? flags | O_CLOEXEC : flags & ~(int64_t)O_CLOEXEC;
	ior_fdtab_set(t, pid, newfd, t->scratch, flags);
}

void ior_fdtab_setfl(struct ior_fdtab *t, uint32_t caller, int fd, int64_t flags)
{
	uint32_t pid = ior_fdtab_owner_(t, caller);
	const int64_t changeable = O_APPEND | O_ASYNC | O_DIRECT | O_NOATIME | O_NONBLOCK;
	int64_t old;

	ior_fdtab_get(t, pid, fd, &old);
	uint32_t e = fd < 0 ? NIL : ior_fdtab_fd_find_(t, pid, fd);
	if (e != NIL && old >= 0)
		t->fds[e].flags = (old & ~changeable) | (flags & changeable);
}

void ior_fdtab_set_cloexec(struct ior_fdtab *t, uint32_t caller, int fd, int on)
{
	uint32_t pid = ior_fdtab_owner_(t, caller);
	uint32_t e = fd < 0 ? NIL : ior_fdtab_fd_find_(t, pid, fd);

	if (e == NIL || t->fds[e].flags < 0)
		return;
	if (on)
		t->fds[e].flags |= O_CLOEXEC;
	else
		t->fds[e].flags &= ~(int64_t)O_CLOEXEC;
}

void ior_fdtab_close(struct ior_fdtab *t, uint32_t caller, int fd)
{
	uint32_t pid = ior_fdtab_owner_(t, caller);
	uint32_t e = fd < 0 ? NIL : ior_fdtab_fd_find_(t, pid, fd), p;

	if (e != NIL)
		ior_fdtab_fd_remove_(t, e);
	if (fd >= 0 && (p = ior_fdtab_proc_find_(t, pid)) != NIL)
		ior_fdtab_snap_forget_(t, p, (unsigned)fd, (unsigned)fd);
}

void ior_fdtab_close_range(struct ior_fdtab *t, uint32_t caller, unsigned lo, unsigned hi, int cloexec)
{
	uint32_t pid = ior_fdtab_owner_(t, caller);
	uint32_t p = ior_fdtab_proc_find_(t, pid), e, next;

	if (p == NIL || lo > hi)
		return;
	for (e = t->procs[p].fds; e != NIL; e = next) {
		struct fd_ent *x = &t->fds[e];
		next = x->pid_next;
		if ((unsigned)x->fd < lo || (unsigned)x->fd > hi)
			continue;
		if (cloexec)
			ior_fdtab_set_cloexec(t, pid, x->fd, 1);
		else
			ior_fdtab_fd_remove_(t, e);
	}
	if (!cloexec)
		ior_fdtab_snap_forget_(t, p, lo, hi);
}

const char *ior_fdtab_cwd(struct ior_fdtab *t, uint32_t pid)
{
	uint32_t p = ior_fdtab_proc_find_(t, pid);

	if (p == NIL || !t->procs[p].cwd_known || !t->procs[p].cwd)
		return "";
	return t->procs[p].cwd;
}

void ior_fdtab_set_cwd(struct ior_fdtab *t, uint32_t pid, const char *path)
{
	struct proc_ent *x = &t->procs[ior_fdtab_proc_get_(t, pid)];

	ior_fdtab_set_str_(&x->cwd, &x->cwd_cap, path);
	x->cwd_known = 1;
}

void ior_fdtab_get_stats(const struct ior_fdtab *t, struct ior_fdtab_stats *s)
{
	*s = t->st;
	s->fds = t->nfds;
	s->procs = t->nprocs;
}

/* ---- paths --------------------------------------------------------------- */

/* Appends component c (length n) to dst (length *len), folding . and .. */
static void push_component(char *dst, size_t cap, size_t *len, const char *c, size_t n)
{
	if (n == 0 || (n == 1 && c[0] == '.'))
		return;
	if (n == 2 && c[0] == '.' && c[1] == '.') {
		while (*len > 1 && dst[*len - 1] != '/')
			(*len)--;
		if (*len > 1)
			(*len)--; /* drop the slash too, except the root's */
		return;
	}
	if (*len > 1 || (*len == 1 && dst[0] != '/')) {
		if (*len + 1 < cap)
			dst[(*len)++] = '/';
	}
	if (n > cap - 1 - *len)
		n = cap - 1 - *len;
	memcpy(dst + *len, c, n);
	*len += n;
}

static void push_path(char *dst, size_t cap, size_t *len, const char *p)
{
	while (*p) {
		const char *s = strchr(p, '/');
		size_t n = s ? (size_t)(s - p) : strlen(p);
		push_component(dst, cap, len, p, n);
		p += n;
		while (*p == '/')
			p++;
	}
}

void ior_path_join(char *dst, size_t cap, const char *base, const char *rel)
{
	size_t len = 0;

	if (!cap)
		return;
	if (rel[0] != '/' && base[0]) {
		if (base[0] == '/' && cap > 1)
			dst[len++] = '/';
		push_path(dst, cap, &len, base);
	} else if (rel[0] == '/' && cap > 1) {
		dst[len++] = '/';
	}
	push_path(dst, cap, &len, rel);
	dst[len] = 0;
}
