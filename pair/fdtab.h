/* fd -> path table per (pid, fd), plus each process's working directory,
 * following the processes in timestamp order: learned from the traced
 * syscalls, copied to a child at fork, close-on-exec entries dropped at
 * exec, renamed with the files and directories they name, freed at exit.
 * Descriptors that predate the trace come from a snapshot of /proc taken
 * right after attach (ior_fdtab_snapshot), used only once it is certain to
 * still hold: never looked up after the fact, when the number may name
 * another file. What is not known stays "" and ior_fdtab_unknown says why.
 * Bounded: at most max_fds fd entries (least recently used evicted) and
 * max_procs processes (when full, every entry is dropped and counted in
 * resets). Pure logic, no /proc access. Not thread-safe: one owner. */
#ifndef IOR_PAIR_FDTAB_H
#define IOR_PAIR_FDTAB_H

#include <stddef.h>
#include <stdint.h>

#define IOR_FD_PATH_MAX 4096

/* Why a descriptor has no path. */
enum ior_fd_unknown {
	IOR_FD_BEFORE_SNAPSHOT, /* used before ior's snapshot of its process held */
	IOR_FD_NO_BASE,         /* process neither snapshotted nor forked under the trace */
	IOR_FD_NOT_TRACED,      /* not opened by a traced syscall, nor in the snapshot */
	IOR_FD_EVICTED,         /* its process lost entries to the bound */
	IOR_FD_NOT_OPEN,        /* the syscall failed with EBADF (set by pair.c) */
	IOR_FD_NREASONS
};

struct ior_fdtab_stats {
	uint64_t fds, procs;  /* entries now */
	uint64_t evicted;     /* fd entries dropped by the LRU bound */
	uint64_t resets;      /* table cleared because max_procs was reached */
	uint64_t snapshots;   /* process snapshots applied */
	uint64_t forks, execs;
	uint64_t renamed;     /* descriptors and cwds a rename updated */
};

struct ior_fdtab;

/* NULL on allocation failure. */
struct ior_fdtab *ior_fdtab_new(unsigned max_fds, unsigned max_procs);
void ior_fdtab_free(struct ior_fdtab *t);

/* Applies what is due at ts (snapshots, freeing exited processes); call
 * with each record's timestamp, in order, before acting on the record. */
void ior_fdtab_advance(struct ior_fdtab *t, uint64_t ts);

/* Path of (pid, fd), "" when unknown; *flags = its open flags or -1. The
 * string stays valid until the next call that modifies the table. */
const char *ior_fdtab_get(struct ior_fdtab *t, uint32_t pid, int fd, int64_t *flags);
/* The name the last ior_fdtab_get returned and its id, forgotten when
 * the table writes or drops any name: equal ids, equal strings, for the
 * table's life. */
struct ior_fdtab_last {
	const char *path;
	uint64_t id;
};

/* Stays where it is for the table's life. */
const struct ior_fdtab_last *ior_fdtab_last(const struct ior_fdtab *t);

/* path's id when it is the string the last ior_fdtab_get returned (the
 * same pointer), else 0. */
static inline uint64_t ior_fdtab_path_id(const struct ior_fdtab_last *l, const char *path)
{
	return path && path == l->path ? l->id : 0;
}

/* Remembers an open: path should be absolute ("" when not known). */
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

/* The process is gone (its leader's exit record at ts). Its table is freed
 * a second of trace time later unless it exec'd meanwhile: a thread's exec
 * ends the leader first, and that exit looks the same. */
void ior_fdtab_proc_exit(struct ior_fdtab *t, uint32_t pid, uint64_t ts);
/* child (a new process) starts with a copy of parent's table and cwd, or
 * with shares_files (CLONE_FILES) uses parent's table until it execs. */
void ior_fdtab_fork(struct ior_fdtab *t, uint32_t parent, uint32_t child, int shares_files);
/* pid runs a new image: its close-on-exec descriptors are gone. */
void ior_fdtab_exec(struct ior_fdtab *t, uint32_t pid);
/* from was renamed to to (absolute paths) between enter_ns and exit_ns:
 * every descriptor and cwd naming from, or a path under it, follows. */
void ior_fdtab_rename(struct ior_fdtab *t, uint64_t enter_ns, uint64_t exit_ns,
		      const char *from, const char *to);

/* Why (pid, fd) has no path at ts, after ior_fdtab_get returned "". */
enum ior_fd_unknown ior_fdtab_unknown(const struct ior_fdtab *t, uint32_t pid, uint64_t ts);
const char *ior_fd_unknown_name(enum ior_fd_unknown why);

/* One descriptor of a snapshot. */
struct ior_fd_snap {
	int fd;
	int64_t flags; /* open flags as fdinfo has them, -1 when unknown */
	const char *path;
};

/* Registers pid's descriptors and cwd as read from /proc between begin_ns
 * and end_ns (CLOCK_MONOTONIC, the records' clock); copied. Applied once
 * the records reach end_ns, to the descriptors no traced syscall touched
 * since the trace began: one closed, replaced or renamed meanwhile keeps
 * what the trace says. Register before feeding records newer than
 * begin_ns, in increasing end_ns. 0 or -ENOMEM. */
int ior_fdtab_snapshot(struct ior_fdtab *t, uint32_t pid, uint64_t begin_ns, uint64_t end_ns,
		       const char *cwd, const struct ior_fd_snap *fds, size_t n);
/* Snapshots are being taken until ts: a process without one counts its
 * unknown descriptors as IOR_FD_BEFORE_SNAPSHOT before ts. */
void ior_fdtab_snapshot_until(struct ior_fdtab *t, uint64_t ts);

/* Working directory of pid, "" when unknown. */
const char *ior_fdtab_cwd(struct ior_fdtab *t, uint32_t pid);
void ior_fdtab_set_cwd(struct ior_fdtab *t, uint32_t pid, const char *path);

void ior_fdtab_get_stats(const struct ior_fdtab *t, struct ior_fdtab_stats *s);

/* dst = base + "/" + rel with "." / ".." / "//" folded lexically, or rel
 * alone when it is absolute (or base is empty). Truncates to len - 1. */
void ior_path_join(char *dst, size_t len, const char *base, const char *rel);

#endif
