/* Naming a pair's files: the paths its exit carried, made absolute
 * against the thread's cwd or dirfd, canonical when the file's identity
 * allows; the fd table's entries for opens, dups, fcntl, closes and
 * renames. */
#include "pair/internal.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ends a path the kernel could not read whole (the syscall failed with
 * ENAMETOOLONG, most likely): the row says so. */
#define CUT_MARK "...(cut)"

/* Copies path i of an exit record into p->raw[i], bounded by the record's
 * real size and its own length field; a cut path ends in CUT_MARK. */
const char *ior_pair_exit_path(struct ior_pairer *p, const struct exit_base *x,
			     const char *rec, size_t len, int i)
{
	size_t len0 = x->path_len[0] < IOR_PATH_MAX ? x->path_len[0] : IOR_PATH_MAX - 1;
	size_t off = IOR_REC_EXIT_BASE + (i ? IOR_PATH1_OFF(len0) : 0), n = x->path_len[i];

	p->raw[i][0] = 0;
	if (x->npaths <= i || len <= off)
		return p->raw[i];
	if (n > len - off)
		n = len - off;
	if (n > IOR_PATH_MAX - 1)
		n = IOR_PATH_MAX - 1;
	memcpy(p->raw[i], rec + off, n);
	p->raw[i][n] = 0;
	if (x->cut & (1u << i)) {
		size_t keep = n < IOR_PATH_MAX - sizeof CUT_MARK ? n : IOR_PATH_MAX - sizeof CUT_MARK;
		memcpy(p->raw[i] + keep, CUT_MARK, sizeof CUT_MARK);
		p->st.paths_cut++;
	}
	return p->raw[i];
}

/* rel made absolute against dirfd (AT_FDCWD: the cwd) into out; rel itself
 * when absolute, empty, or the base is unknown. */
static const char *absolute(struct ior_pairer *p, uint32_t pid, int dirfd,
			    const char *rel, char *out)
{
	const char *base;
	int64_t fl;

	if (!rel[0] || rel[0] == '/')
		return rel;
	base = dirfd == AT_FDCWD ? ior_fdtab_cwd(p->cfg.fds, pid) :
				    ior_fdtab_get(p->cfg.fds, pid, dirfd, &fl);
	if (base[0] != '/')
		return rel;
	ior_path_join(out, IOR_FD_PATH_MAX, base, rel);
	return out;
}

/* Paths of a syscall that takes them (stat, unlink, rename, open, ...). */
static void resolve_paths(struct ior_pairer *p, const struct ior_syscall *s,
			  const struct tid_st *t, struct ior_event_pair *e,
			  const char *raw0, const char *raw1)
{
	int dirfd = s->aux_is_dirfd ? (int)(int32_t)t->aux : AT_FDCWD;

	if (s->memfd) {
		snprintf(p->path[0], sizeof p->path[0], "/memfd:%s", raw0);
		e->path = p->path[0];
		return;
	}
	if (s->link_target) { /* the target is content, not a path */
		e->path = raw0;
		e->path2 = absolute(p, e->pid, s->aux_is_dirfd || s->aux_arg == IOR_ARG_NONE ?
					     AT_FDCWD : (int)(int32_t)t->aux, raw1, p->path[1]);
		return;
	}
	if (s->aux_is_dirfd && !raw0[0] && dirfd >= 0 && (t->flags & AT_EMPTY_PATH) &&
	    s->cls == IOR_SC_OTHER) { /* fstatat(fd, "", AT_EMPTY_PATH): acts on fd */
		e->fd = dirfd;
		e->path = ior_fdtab_get(p->cfg.fds, e->pid, dirfd, &e->flags);
		return;
	}
	e->path = absolute(p, e->pid, dirfd, raw0, p->path[0]);
	if (s->path_arg[1] != IOR_ARG_NONE)
		e->path2 = absolute(p, e->pid, s->fd_is_dirfd2 ? (int)(int32_t)t->fd : AT_FDCWD, raw1,
				    p->path[1]);
}

static int64_t open_flags(const struct ior_syscall *s, const struct tid_st *t)
{
	/* SOCK_, EFD_, EPOLL_, TFD_, SFD_, IN_CLOEXEC and _NONBLOCK are the
	 * O_ values on Linux; the rest of those arguments is no open flag */
	if (s->fd_kind != IOR_FD_PATH)
		return s->flags_arg == IOR_ARG_NONE ? IOR_FLAGS_UNKNOWN :
		       O_RDWR | (int64_t)(t->flags & (O_CLOEXEC | O_NONBLOCK));
	if (s->open_flags)
		return s->open_flags;
	if (s->memfd)
		return O_RDWR | ((t->flags & MFD_CLOEXEC) ? O_CLOEXEC : 0);
	return s->flags_arg == IOR_ARG_NONE ? IOR_FLAGS_UNKNOWN : (int64_t)(t->flags & 0xffffffffu);
}

/* The identity an open's exit carries after path 0, bounded by the record. */
void ior_pair_read_ident(struct ior_pairer *p, const struct exit_base *x, const char *rec, size_t len)
{
	size_t off = IOR_IDENT_OFF((size_t)x->path_len[0]);

	p->has_ident = x->ident == 1 && x->npaths == 1 && x->path_len[0] < IOR_PATH_MAX &&
		       off + sizeof p->ident <= len;
	p->leaf[0] = 0;
	if (!p->has_ident)
		return;
	memcpy(&p->ident, rec + off, sizeof p->ident);
	off += sizeof p->ident;
	if (p->ident.leaf_len <= IOR_LEAF_MAX && p->ident.leaf_len <= len - off) {
		memcpy(p->leaf, rec + off, p->ident.leaf_len);
		p->leaf[p->ident.leaf_len] = 0;
	}
}

/* The name the kernel gives the opened file, when it can be verified. */
static const char *canonical(struct ior_pairer *p, const char *path)
{
	const char *c;

	if (!p->has_ident || !p->cfg.canon || path[0] != '/')
		return path;
	c = p->cfg.canon(p->cfg.canon_ctx, path, p->ident.dev, p->ident.ino, p->leaf);
	return c ? c : path;
}

static void do_open(struct ior_pairer *p, const struct ior_syscall *s,
		    const struct tid_st *t, struct ior_event_pair *e)
{
	e->flags = open_flags(s, t);
	if (e->ret < 0 || e->ret > 0x7fffffff)
		return;
	e->fd = (int32_t)e->ret;
	if (s->fd_kind != IOR_FD_PATH) { /* a socket, an epoll, ...: named by its kind */
		const char *listener = s->fd_kind == IOR_FD_ACCEPT ?
			ior_fdtab_get(p->cfg.fds, e->pid, (int)(int32_t)t->fd, &(int64_t){ 0 }) : NULL;
		e->path = ior_syscall_fd_name(s->fd_kind, t->flags, t->aux, listener, p->path[0],
					      sizeof p->path[0]);
	}
	/* open_by_handle_at names no path: the fd is known to be unknown */
	ior_fdtab_set(p->cfg.fds, e->pid, e->fd, canonical(p, e->path), e->flags);
	e->path = ior_fdtab_get(p->cfg.fds, e->pid, e->fd, &e->flags);
}

/* dup/dup2/dup3 and fcntl F_DUPFD*: the new fd (ret) becomes a copy; the
 * pair shows the fd acted on, the one copied. */
static void do_dup(struct ior_pairer *p, struct ior_event_pair *e, int oldfd, int cloexec)
{
	if (e->ret >= 0 && e->ret <= 0x7fffffff)
		ior_fdtab_dup(p->cfg.fds, e->pid, oldfd, (int)e->ret, cloexec);
	e->fd = oldfd;
	e->path = ior_fdtab_get(p->cfg.fds, e->pid, oldfd, &e->flags);
}

static void do_fcntl(struct ior_pairer *p, const struct tid_st *t, struct ior_event_pair *e)
{
	int fd = (int)(int32_t)t->fd, cmd = (int)(int32_t)t->aux;

	if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) {
		do_dup(p, e, fd, cmd == F_DUPFD_CLOEXEC);
		return;
	}
	if (e->ret == 0 && cmd == F_SETFL)
		ior_fdtab_setfl(p->cfg.fds, e->pid, fd, (int64_t)t->flags);
	if (e->ret == 0 && cmd == F_SETFD)
		ior_fdtab_set_cloexec(p->cfg.fds, e->pid, fd, (int)(t->flags & FD_CLOEXEC));
	e->fd = fd;
	e->path = ior_fdtab_get(p->cfg.fds, e->pid, fd, &e->flags);
}

/* Fills e's file from the syscall's class; table updates that must wait
 * until the pair is delivered (close) are left to ior_pair_update_fds(). */
void ior_pair_name_files(struct ior_pairer *p, const struct ior_syscall *s,
			 const struct tid_st *t, struct ior_event_pair *e,
			 const char *raw0, const char *raw1)
{
	int fd = (int)(int32_t)t->fd;

	if (s->path_arg[0] != IOR_ARG_NONE)
		resolve_paths(p, s, t, e, raw0, raw1);
	switch (s->cls) {
	case IOR_SC_OPEN:
		do_open(p, s, t, e);
		return;
	case IOR_SC_DUP:
		/* dup3 has a flags argument, dup and dup2 do not */
		do_dup(p, e, fd, s->flags_arg != IOR_ARG_NONE && (t->flags & O_CLOEXEC));
		return;
	case IOR_SC_FCNTL:
		do_fcntl(p, t, e);
		return;
	case IOR_SC_CLOSE_RANGE:
		return; /* a range, not one file */
	default:
		break;
	}
	if (s->fd_arg != IOR_ARG_NONE && !s->fd_is_dirfd2 && fd >= 0) {
		e->fd = fd;
		e->path = ior_fdtab_get(p->cfg.fds, e->pid, fd, &e->flags);
	}
	if (e->ret == 0 && s->sets_cwd && e->path[0] == '/')
		ior_fdtab_set_cwd(p->cfg.fds, e->pid, e->path);
}

/* Open descriptors follow a rename; RENAME_EXCHANGE swaps the two names
 * (through a name no path can have). */
static void do_rename(struct ior_pairer *p, const struct ior_syscall *s,
		      const struct tid_st *t, const struct ior_event_pair *e)
{
	uint64_t end = e->enter_ns + e->duration_ns;
	static const char swap[] = "/\x01ior-rename-exchange";

	if (s->flags_arg != IOR_ARG_NONE && (t->flags & RENAME_EXCHANGE_)) {
		ior_fdtab_rename(p->cfg.fds, e->enter_ns, end, e->path, swap);
		ior_fdtab_rename(p->cfg.fds, e->enter_ns, end, e->path2, e->path);
		ior_fdtab_rename(p->cfg.fds, e->enter_ns, end, swap, e->path2);
		return;
	}
	ior_fdtab_rename(p->cfg.fds, e->enter_ns, end, e->path, e->path2);
}

void ior_pair_update_fds(struct ior_pairer *p, const struct ior_syscall *s,
		       const struct tid_st *t, const struct ior_event_pair *e)
{
	if (s->cls == IOR_SC_CLOSE && e->ret != -EBADF /* was not open */)
		ior_fdtab_close(p->cfg.fds, e->pid, (int)(int32_t)t->fd);
	if (s->cls == IOR_SC_CLOSE_RANGE && e->ret == 0)
		ior_fdtab_close_range(p->cfg.fds, e->pid, (uint32_t)t->fd, (uint32_t)t->aux,
				      (t->flags & CLOSE_RANGE_CLOEXEC_) != 0);
	if (s->renames && e->ret == 0)
		do_rename(p, s, t, e);
}

/* An open whose enter came before ior attached (it blocked across it):
 * no pair, but its exit carries the path, so the fd's later syscalls are
 * attributed right. A relative path of an *at open has an unknown base:
 * the fd is known to be unknown. */
void ior_pair_learn_unpaired_open(struct ior_pairer *p, const struct exit_base *x,
				const char *rec, size_t len)
{
	const struct ior_syscall *s = ior_syscall_by_nr(x->h.nr);
	const char *path;

	if (!s || s->cls != IOR_SC_OPEN || x->ret < 0 || x->ret > 0x7fffffff || !x->npaths)
		return;
	path = ior_pair_exit_path(p, x, rec, len, 0);
	if (path[0] != '/')
		path = s->aux_is_dirfd ? "" : absolute(p, x->h.pid, AT_FDCWD, path, p->path[0]);
	ior_pair_read_ident(p, x, rec, len);
	ior_fdtab_set(p->cfg.fds, x->h.pid, (int)x->ret, path[0] == '/' ? canonical(p, path) : "",
		      IOR_FLAGS_UNKNOWN);
}

