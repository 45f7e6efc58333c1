/* The fd table's insides, shared by fdtab.c (entries, lookups) and
 * fdtab_life.c (fork, exec, exit, rename, snapshots). Not a public API. */
#ifndef IOR_PAIR_FDTAB_INTERNAL_H
#define IOR_PAIR_FDTAB_INTERNAL_H

#include "pair/fdtab.h"

#define NIL 0xffffffffu
#define EXIT_GRACE_NS 1000000000ull /* an exited process's table lives on this long */

struct fd_ent {
	uint32_t pid;
	int32_t fd;
	int64_t flags;
	char *path;
	uint32_t cap;
	uint32_t lru_prev, lru_next;
	uint32_t pid_prev, pid_next;
	uint32_t proc;  /* index in procs[] */
	uint64_t id;    /* path's id (ior_fdtab_path_id): new at every write of path */
};

/* What a process's table knows beyond the traced syscalls. */
enum proc_base {
	BASE_NONE,           /* nothing: unknown descriptors stay unknown */
	BASE_PENDING,        /* its snapshot is registered, not yet applied */
	BASE_PARENT_PENDING, /* forked from a process whose snapshot was pending */
	BASE_FULL,           /* snapshot applied, or forked from a full table */
};

struct snap_fd {
	int fd;
	int64_t flags;
	char *path; /* NULL: dropped (a rename made it ambiguous) */
};

struct snap {
	struct snap *next;
	uint32_t pid;
	uint8_t dead; /* its process was freed first */
	uint64_t begin, end;
	char *cwd;
	size_t n;
	struct snap_fd e[];
};

struct proc_ent {
	uint32_t pid;
	uint32_t fds; /* head of this process's fd list */
	char *cwd;
	uint32_t cwd_cap;
	uint8_t cwd_known;
	uint8_t used;
	uint8_t base;    /* enum proc_base */
	uint8_t evicted; /* lost an entry to the bound */
	uint8_t execd;   /* exec'd while its snapshot was pending */
	uint8_t exited;
	uint64_t exited_ns;
	struct snap *snap; /* pending */
	uint32_t owner;    /* not 0: uses this process's fds (CLONE_FILES) */
	uint32_t sharers;  /* processes whose owner this is */
};

struct dying {
	uint32_t pid;
	uint64_t ts;
};

struct ior_fdtab {
	struct fd_ent *fds;
	uint32_t max_fds, nfds, free_head;
	uint32_t lru_head, lru_tail; /* head: most recently used */
	uint32_t *fd_slots;          /* index + 1, 0 = empty */
	uint32_t last_get;           /* entry ior_fdtab_get found last, NIL when removed */
	uint32_t fd_mask;
	struct proc_ent *procs;      /* open addressing, keyed by pid */
	uint32_t proc_mask, nprocs, max_procs;
	struct snap *snaps;          /* pending, by end */
	struct dying *dying;         /* exited processes, oldest first (a ring) */
	size_t dying_head, dying_n, dying_cap;
	uint64_t now, next_due, snapshot_until;
	uint32_t naliases;           /* processes sharing another's fds: 0 skips the lookup */
	uint64_t ids;                /* the last fd_ent.id given */
	struct ior_fdtab_last last;  /* ior_fdtab_get's last answer */
	struct ior_fdtab_stats st;
	char scratch[IOR_FD_PATH_MAX];
};

/* The process whose fd table pid uses: itself, or the one it shares with. */
static inline uint32_t ior_fdtab_owner_(const struct ior_fdtab *t, uint32_t pid);

/* fdtab.c */
uint32_t ior_fdtab_proc_find_(const struct ior_fdtab *t, uint32_t pid);
uint32_t ior_fdtab_proc_get_(struct ior_fdtab *t, uint32_t pid);
void ior_fdtab_proc_free_(struct ior_fdtab *t, uint32_t p);
uint32_t ior_fdtab_fd_find_(const struct ior_fdtab *t, uint32_t pid, int fd);
void ior_fdtab_fd_remove_(struct ior_fdtab *t, uint32_t e);
void ior_fdtab_evict_for_(struct ior_fdtab *t, uint32_t n);
void ior_fdtab_set_str_(char **buf, uint32_t *cap, const char *s);
/* Process slot p stops sharing its owner's table. */
void ior_fdtab_unshare_(struct ior_fdtab *t, uint32_t p);
/* fdtab_life.c */
/* fds lo..hi were closed: the pending snapshot of process slot p must not
 * bring them back. */
void ior_fdtab_snap_forget_(struct ior_fdtab *t, uint32_t p, unsigned lo, unsigned hi);
void ior_fdtab_snaps_free_(struct ior_fdtab *t);
void ior_fdtab_reap_(struct ior_fdtab *t); /* frees every exited process now */

uint32_t ior_fdtab_owner_slow_(const struct ior_fdtab *t, uint32_t pid);

static inline uint32_t ior_fdtab_owner_(const struct ior_fdtab *t, uint32_t pid)
{
	return t->naliases ? ior_fdtab_owner_slow_(t, pid) : pid;
}

#endif
