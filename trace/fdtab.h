/* fd -> path table per (pid, fd), plus each process's working directory.
 * Learned from the traced syscalls; an fd or cwd first seen without an
 * open/chdir (it predates the trace) is asked of the resolver once and
 * cached, a failure included. Bounded: at most max_fds fd entries (least
 * recently used evicted) and max_procs processes (when full, every entry is
 * dropped and counted in resets). Pure logic: all /proc access goes through
 * the resolver, so tests inject their own. Not thread-safe: one owner. */
#ifndef IOR_TRACE_FDTAB_H
#define IOR_TRACE_FDTAB_H

#include <stddef.h>
#include <stdint.h>

#define IOR_FD_PATH_MAX 4096

struct ior_fd_resolver {
	/* Path and open flags (O_* incl. O_CLOEXEC) of fd in pid; 0 or -errno. */
	int (*fd)(void *ctx, uint32_t pid, int fd, char *path, size_t len, int64_t *flags);
	/* Working directory of pid; 0 or -errno. */
	int (*cwd)(void *ctx, uint32_t pid, char *path, size_t len);
	void *ctx;
};

struct ior_fdtab_stats {
	uint64_t fds, procs;  /* entries now */
	uint64_t resolved;    /* resolver calls (fd and cwd) */
	uint64_t evicted;     /* fd entries dropped by the LRU bound */
	uint64_t resets;      /* table cleared because max_procs was reached */
};

struct ior_fdtab;

/* NULL on allocation failure. r may be NULL: unknown stays unknown. */
struct ior_fdtab *ior_fdtab_new(unsigned max_fds, unsigned max_procs,
				const struct ior_fd_resolver *r);
void ior_fdtab_free(struct ior_fdtab *t);

/* Path of (pid, fd), "" when unknown; *flags = its open flags or -1. The
 * string stays valid until the next call that modifies the table. */
const char *ior_fdtab_get(struct ior_fdtab *t, uint32_t pid, int fd, int64_t *flags);
/* Remembers an open: path should be absolute. */
void ior_fdtab_set(struct ior_fdtab *t, uint32_t pid, int fd, const char *path, int64_t flags);
/* newfd becomes a copy of oldfd (closing what newfd was); O_CLOEXEC is
 * set on the copy when cloexec, else cleared, as dup/dup2/dup3 do. */
void ior_fdtab_dup(struct ior_fdtab *t, uint32_t pid, int oldfd, int newfd, int cloexec);
/* F_SETFL: only the status flags Linux lets change are taken from flags. */
void ior_fdtab_setfl(struct ior_fdtab *t, uint32_t pid, int fd, int64_t flags);
/* F_SETFD / close_range(CLOSE_RANGE_CLOEXEC). */
void ior_fdtab_set_cloexec(struct ior_fdtab *t, uint32_t pid, int fd, int on);
void ior_fdtab_close(struct ior_fdtab *t, uint32_t pid, int fd);
/* close_range(lo, hi, flags): closes, or with cloexec only marks. */
void ior_fdtab_close_range(struct ior_fdtab *t, uint32_t pid, unsigned lo, unsigned hi, int cloexec);
/* Forgets an fd whose path is not known (next use asks the resolver). */
void ior_fdtab_forget(struct ior_fdtab *t, uint32_t pid, int fd);
/* The process is gone: drops its fds and cwd. */
void ior_fdtab_proc_exit(struct ior_fdtab *t, uint32_t pid);

/* Working directory of pid, "" when unknown. */
const char *ior_fdtab_cwd(struct ior_fdtab *t, uint32_t pid);
void ior_fdtab_set_cwd(struct ior_fdtab *t, uint32_t pid, const char *path);

void ior_fdtab_get_stats(const struct ior_fdtab *t, struct ior_fdtab_stats *s);

/* dst = base + "/" + rel with "." / ".." / "//" folded lexically, or rel
 * alone when it is absolute (or base is empty). Truncates to len - 1. */
void ior_path_join(char *dst, size_t len, const char *base, const char *rel);

#endif
