/* The fd table through process lifecycles: fork copies, exec drops the
 * close-on-exec descriptors, exit frees (after a grace period), renames
 * follow the files, and /proc snapshots fill in what predates the trace
 * once the records have caught up with them. */
#include "pair/fdtab_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static void update_due(struct ior_fdtab *t)
{
	uint64_t d = t->snaps ? t->snaps->end : UINT64_MAX;

	if (t->dying_n) {
		uint64_t ts = t->dying[t->dying_head].ts;
		d = min_u64(d, ts > UINT64_MAX - EXIT_GRACE_NS ? UINT64_MAX : ts + EXIT_GRACE_NS);
	}
	t->next_due = d;
}

void ior_fdtab_snaps_free_(struct ior_fdtab *t)
{
	while (t->snaps) {
		struct snap *s = t->snaps;
		t->snaps = s->next;
		free(s);
	}
}

/* ---- snapshots ------------------------------------------------------------ */

static size_t snap_size(const struct ior_fd_snap *fds, size_t n, const char *cwd)
{
	size_t size = sizeof(struct snap) + n * sizeof(struct snap_fd) + strlen(cwd) + 1;

	for (size_t i = 0; i < n; i++)
		size += strnlen(fds[i].path, IOR_FD_PATH_MAX - 1) + 1;
	return size;
}

static char *copy_str(char **at, const char *s)
{
	size_t n = strnlen(s, IOR_FD_PATH_MAX - 1);
	char *d = *at;

	memcpy(d, s, n);
	d[n] = 0;
	*at += n + 1;
	return d;
}

static void snap_insert(struct ior_fdtab *t, struct snap *s)
{
	struct snap **at = &t->snaps;

	while (*at && (*at)->end <= s->end)
		at = &(*at)->next;
	s->next = *at;
	*at = s;
	update_due(t);
}

int ior_fdtab_snapshot(struct ior_fdtab *t, uint32_t pid, uint64_t begin_ns, uint64_t end_ns,
		       const char *cwd, const struct ior_fd_snap *fds, size_t n)
{
	struct snap *s = calloc(1, snap_size(fds, n, cwd ? cwd : ""));
	char *str;

	if (!s)
		return -ENOMEM;
	s->begin = begin_ns;
	s->end = end_ns;
	s->n = n;
	str = (char *)(s->e + n);
	s->cwd = copy_str(&str, cwd ? cwd : "");
	for (size_t i = 0; i < n; i++)
		s->e[i] = (struct snap_fd){ fds[i].fd, fds[i].flags, copy_str(&str, fds[i].path) };
	uint32_t p = ior_fdtab_proc_get_(t, ior_fdtab_owner_(t, pid));
	if (t->procs[p].snap) /* a newer read of the same table */
		t->procs[p].snap->dead = 1;
	s->pid = t->procs[p].pid;
	t->procs[p].snap = s;
	t->procs[p].base = BASE_PENDING;
	snap_insert(t, s);
	return 0;
}

void ior_fdtab_snapshot_until(struct ior_fdtab *t, uint64_t ts)
{
	t->snapshot_until = ts;
}

void ior_fdtab_snap_forget_(struct ior_fdtab *t, uint32_t p, unsigned lo, unsigned hi)
{
	struct snap *s = t->procs[p].snap;

	for (size_t i = 0; s && i < s->n; i++)
		if ((unsigned)s->e[i].fd >= lo && (unsigned)s->e[i].fd <= hi)
			s->e[i].path = NULL;
}

/* Fills in the descriptors the trace did not touch; exec'd meanwhile, the
 * close-on-exec ones are gone. */
static void snap_apply(struct ior_fdtab *t, struct snap *s)
{
	uint32_t p = ior_fdtab_proc_find_(t, s->pid);

	if (s->dead || p == NIL || t->procs[p].snap != s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		const struct snap_fd *x = &s->e[i];
		if (!x->path || ior_fdtab_fd_find_(t, s->pid, x->fd) != NIL)
			continue;
		if (t->procs[p].execd && (x->flags < 0 || (x->flags & O_CLOEXEC)))
			continue;
		ior_fdtab_set(t, s->pid, x->fd, x->path, x->flags);
		p = ior_fdtab_proc_find_(t, s->pid); /* an eviction may have moved it */
		if (p == NIL)
			return;
	}
	if (!t->procs[p].cwd_known && s->cwd[0])
		ior_fdtab_set_cwd(t, s->pid, s->cwd);
	t->procs[p].snap = NULL;
	t->procs[p].base = BASE_FULL;
	t->st.snapshots++;
}

/* ---- exits ---------------------------------------------------------------- */

static int dying_push(struct ior_fdtab *t, uint32_t pid, uint64_t ts)
{
	if (t->dying_n == t->dying_cap) {
		size_t cap = t->dying_cap ? 2 * t->dying_cap : 64;
		struct dying *d = malloc(cap * sizeof *d);
		if (!d)
			return -ENOMEM;
		for (size_t i = 0; i < t->dying_n; i++)
			d[i] = t->dying[(t->dying_head + i) % t->dying_cap];
		free(t->dying);
		t->dying = d;
		t->dying_cap = cap;
		t->dying_head = 0;
	}
	t->dying[(t->dying_head + t->dying_n) % t->dying_cap] = (struct dying){ pid, ts };
	t->dying_n++;
	return 0;
}

/* Frees the oldest exited process if it is still the one that exited. */
static void dying_pop(struct ior_fdtab *t)
{
	struct dying d = t->dying[t->dying_head];
	uint32_t p = ior_fdtab_proc_find_(t, d.pid);

	t->dying_head = (t->dying_head + 1) % t->dying_cap;
	t->dying_n--;
	if (p != NIL && t->procs[p].exited && t->procs[p].exited_ns == d.ts && !t->procs[p].sharers)
		ior_fdtab_proc_free_(t, p); /* with sharers: freed with the last of them */
}

void ior_fdtab_reap_(struct ior_fdtab *t)
{
	while (t->dying_n)
		dying_pop(t);
	update_due(t);
}

void ior_fdtab_proc_exit(struct ior_fdtab *t, uint32_t pid, uint64_t ts)
{
	uint32_t p = ior_fdtab_proc_find_(t, pid);

	if (p == NIL)
		return;
	if (dying_push(t, pid, ts)) { /* no memory to wait: free now */
		ior_fdtab_proc_free_(t, p);
		return;
	}
	t->procs[p].exited = 1;
	t->procs[p].exited_ns = ts;
	update_due(t);
}

/* Apart from ior_fdtab_advance, which runs for every record: inlined, its
 * register saves ran before the early return (21 instructions a record). */
static __attribute__((noinline)) void advance_due(struct ior_fdtab *t, uint64_t ts)
{
	while (t->snaps && t->snaps->end <= ts) {
		struct snap *s = t->snaps;
		t->snaps = s->next;
		snap_apply(t, s);
		free(s);
	}
	while (t->dying_n && t->dying[t->dying_head].ts + EXIT_GRACE_NS <= ts)
		dying_pop(t);
	update_due(t);
}

void ior_fdtab_advance(struct ior_fdtab *t, uint64_t ts)
{
	t->now = ts;
	if (ts >= t->next_due)
		advance_due(t, ts);
}

/* ---- fork and exec -------------------------------------------------------- */

static uint8_t inherited_base(uint8_t parent)
{
	if (parent == BASE_FULL)
		return BASE_FULL;
	return parent == BASE_NONE ? BASE_NONE : BASE_PARENT_PENDING;
}

/* A child's slot, emptied: a pid seen before belonged to a process that
 * is gone. A snapshot registered after this fork is the child's own. */
static uint32_t fresh_child(struct ior_fdtab *t, uint32_t child)
{
	uint32_t c = ior_fdtab_proc_find_(t, child);
	struct snap *own = NULL;

	if (c != NIL) {
		struct snap *s = t->procs[c].snap;
		if (s && !s->dead && s->begin >= t->now) {
			own = s;
			t->procs[c].snap = NULL;
		}
		ior_fdtab_proc_free_(t, c);
	}
	c = ior_fdtab_proc_get_(t, child);
	if (own) {
		t->procs[c].snap = own;
		t->procs[c].base = BASE_PENDING;
	}
	return c;
}

/* child uses parent's table from now on (CLONE_FILES without a thread). */
static void share(struct ior_fdtab *t, uint32_t parent, uint32_t child)
{
	uint32_t owner = ior_fdtab_owner_(t, parent), p, c;

	ior_fdtab_proc_get_(t, owner);
	c = ior_fdtab_proc_find_(t, child);
	p = ior_fdtab_proc_find_(t, owner);
	if (c == NIL || p == NIL)
		return;
	t->procs[c].owner = owner;
	t->procs[p].sharers++;
	t->naliases++;
	if (t->procs[p].cwd_known && t->procs[p].cwd)
		ior_fdtab_set_cwd(t, child, t->procs[p].cwd);
}

/* Copies parent's table into child's (a fresh slot). */
static void copy_table(struct ior_fdtab *t, uint32_t parent, uint32_t child)
{
	uint32_t c, p, n = 0, e;

	p = ior_fdtab_proc_find_(t, parent);
	if (p == NIL)
		return;
	for (e = t->procs[p].fds; e != NIL; e = t->fds[e].pid_next)
		n++;
	ior_fdtab_evict_for_(t, n); /* no eviction while copying */
	p = ior_fdtab_proc_find_(t, parent);
	c = ior_fdtab_proc_find_(t, child);
	if (p == NIL || c == NIL)
		return;
	for (e = t->procs[p].fds; e != NIL; e = t->fds[e].pid_next) {
		int64_t fl;
		const char *path = ior_fdtab_get(t, parent, t->fds[e].fd, &fl); /* in use: touched */
		ior_fdtab_set(t, child, t->fds[e].fd, path, fl);
	}
	if (t->procs[c].base != BASE_PENDING)
		t->procs[c].base = inherited_base(t->procs[p].base);
	t->procs[c].evicted = t->procs[p].evicted;
}

void ior_fdtab_fork(struct ior_fdtab *t, uint32_t parent, uint32_t child, int shares_files)
{
	uint32_t p, c;

	if (parent == child)
		return;
	t->st.forks++;
	fresh_child(t, child);
	if (shares_files) {
		share(t, parent, child);
		return;
	}
	copy_table(t, ior_fdtab_owner_(t, parent), child);
	p = ior_fdtab_proc_find_(t, parent); /* the cwd is the parent's own */
	c = ior_fdtab_proc_find_(t, child);
	if (p != NIL && c != NIL && t->procs[p].cwd_known && t->procs[p].cwd)
		ior_fdtab_set_cwd(t, child, t->procs[p].cwd);
}

static int gone_at_exec(int64_t flags)
{
	return flags < 0 || (flags & O_CLOEXEC); /* unknown flags: maybe gone */
}

void ior_fdtab_exec(struct ior_fdtab *t, uint32_t pid)
{
	uint32_t p = ior_fdtab_proc_find_(t, pid), e, next;

	t->st.execs++;
	if (p == NIL)
		return;
	t->procs[p].exited = 0; /* a thread's exec: the leader's exit was not the end */
	if (t->procs[p].owner) { /* exec unshares the table: a private copy */
		uint32_t owner = t->procs[p].owner;
		ior_fdtab_unshare_(t, p);
		copy_table(t, owner, pid);
		p = ior_fdtab_proc_find_(t, pid);
		if (p == NIL)
			return;
	}
	if (t->procs[p].base == BASE_PENDING)
		t->procs[p].execd = 1;
	for (e = t->procs[p].fds; e != NIL; e = next) {
		next = t->fds[e].pid_next;
		if (gone_at_exec(t->fds[e].flags))
			ior_fdtab_fd_remove_(t, e);
	}
}

/* ---- renames -------------------------------------------------------------- */

/* The new name of path when it is from or lies under it, else NULL. */
static const char *renamed(struct ior_fdtab *t, const char *path, const char *from, size_t n,
			   const char *to)
{
	if (!path || strncmp(path, from, n) || (path[n] && path[n] != '/'))
		return NULL;
	size_t m = strnlen(to, IOR_FD_PATH_MAX - 1), rest = strlen(path + n);
	if (m + rest >= sizeof t->scratch)
		rest = sizeof t->scratch - 1 - m;
	memcpy(t->scratch, to, m);
	memmove(t->scratch + m, path + n, rest);
	t->scratch[m + rest] = 0;
	return t->scratch;
}

/* A snapshot read while the rename ran cannot tell which name it saw. */
static void rename_in_snaps(struct ior_fdtab *t, uint64_t enter_ns, uint64_t exit_ns,
			    const char *from, size_t n, const char *to)
{
	for (struct snap *s = t->snaps; s; s = s->next) {
		if (s->begin > exit_ns || s->end < enter_ns)
			continue;
		for (size_t i = 0; i < s->n; i++)
			if (renamed(t, s->e[i].path, from, n, to))
				s->e[i].path = NULL;
	}
}

void ior_fdtab_rename(struct ior_fdtab *t, uint64_t enter_ns, uint64_t exit_ns,
		      const char *from, const char *to)
{
	size_t n = strlen(from);
	const char *p;

	if (from[0] != '/' || to[0] != '/' || !strcmp(from, to))
		return;
	while (n > 1 && from[n - 1] == '/')
		n--;
	for (uint32_t e = t->lru_head; e != NIL; e = t->fds[e].lru_next) {
		if ((p = renamed(t, t->fds[e].path, from, n, to))) {
			ior_fdtab_set_str_(&t->fds[e].path, &t->fds[e].cap, p);
			t->fds[e].id = ++t->ids;
			t->last.path = NULL;
			t->st.renamed++;
		}
	}
	for (uint32_t i = 0; i <= t->proc_mask; i++) {
		struct proc_ent *x = &t->procs[i];
		if (x->used && x->cwd_known && (p = renamed(t, x->cwd, from, n, to))) {
			ior_fdtab_set_str_(&x->cwd, &x->cwd_cap, p);
			t->st.renamed++;
		}
	}
	rename_in_snaps(t, enter_ns, exit_ns, from, n, to);
}

/* ---- what is not known ---------------------------------------------------- */

enum ior_fd_unknown ior_fdtab_unknown(const struct ior_fdtab *t, uint32_t pid, uint64_t ts)
{
	uint32_t p = ior_fdtab_proc_find_(t, ior_fdtab_owner_(t, pid));
	uint8_t base = p == NIL ? BASE_NONE : t->procs[p].base;

	if (base == BASE_PENDING || base == BASE_PARENT_PENDING)
		return IOR_FD_BEFORE_SNAPSHOT;
	if (base == BASE_NONE)
		return ts < t->snapshot_until ? IOR_FD_BEFORE_SNAPSHOT : IOR_FD_NO_BASE;
	return t->procs[p].evicted ? IOR_FD_EVICTED : IOR_FD_NOT_TRACED;
}

const char *ior_fd_unknown_name(enum ior_fd_unknown why)
{
	static const char *const names[IOR_FD_NREASONS] = {
		[IOR_FD_BEFORE_SNAPSHOT] = "used before ior's snapshot of the process",
		[IOR_FD_NO_BASE] = "process not snapshotted nor forked under the trace",
		[IOR_FD_NOT_TRACED] = "not opened by a traced syscall",
		[IOR_FD_EVICTED] = "dropped by the fd table's bound",
		[IOR_FD_NOT_OPEN] = "not open (EBADF)",
	};
	return (unsigned)why < IOR_FD_NREASONS ? names[why] : "?";
}
