/* The descriptors and working directories of the processes in scope, read
 * from /proc right after attach and registered with the fd table, which
 * uses them only where the trace since cannot have changed them. */
#ifndef IOR_PAIR_SNAPSHOT_H
#define IOR_PAIR_SNAPSHOT_H

#include <stdint.h>

#include "pair/fdtab.h"

struct ior_snapshot_scope {
	int64_t pid;      /* >= 0: this process only */
	int64_t tid;      /* >= 0: the process of this thread only */
	const char *comm; /* non-empty: processes whose comm contains it */
	uint32_t self;    /* never this one (ior) */
};

struct ior_snapshot_stats {
	uint64_t procs, fds;
	uint64_t failed;  /* processes gone or unreadable meanwhile */
	uint64_t ns;      /* time it took */
};

/* Registers every process in scope; tick(ctx) runs between processes so a
 * long snapshot does not let the perf rings overflow. 0 or -ENOMEM. */
int ior_snapshot_take(struct ior_fdtab *t, const struct ior_snapshot_scope *scope,
		      void (*tick)(void *ctx), void *ctx, struct ior_snapshot_stats *st);

#endif
