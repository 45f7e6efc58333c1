/* Pairing: kernel records (bpf/event.h) in timestamp order in, event
 * pairs (pair/event_pair.h) out. Keeps one state per tid (the open enter,
 * the previous exit), resolves files through the fd table, applies the
 * user-space -path filter, and counts everything it cannot pair.
 * Owned by one thread; no locks. */
#ifndef IOR_PAIR_PAIR_H
#define IOR_PAIR_PAIR_H

#include "bpf/event.h"
#include "pair/event_pair.h"
#include "pair/block.h"
#include "pair/fdtab.h"

#include <stddef.h>
#include <stdint.h>

/* Registered-file slots kept per ring (io_uring allows more; ops on
 * slots past these are shown without a file, and counted). */
#define IOR_URING_SLOTS_MAX 65536

struct ior_pair_stats {
	struct ior_trace_totals t;
	uint64_t mismatched_exits; /* exit of another syscall than the open enter (records lost between) */
	uint64_t enters_at_thread_exit; /* a thread exited with an enter open */
	uint64_t bad_records;      /* too short or of an unknown kind/syscall */
	uint64_t threads;          /* tids with state now */
	uint64_t exits_after_stop; /* exits without enter of syscalls begun after ior_pair_stop_enters */
	uint64_t unattributed;     /* delivered pairs on an fd whose path is not known */
	uint64_t unattributed_why[IOR_FD_NREASONS];
	uint64_t paths_cut;        /* paths longer than IOR_PATH_MAX - 1 bytes, shown cut */
	uint64_t mmsg_unread;      /* sendmmsg/recvmmsg messages past IOR_MMSG_MAX: bytes not counted */
	uint64_t async_fixed;      /* io_uring ops on registered (fixed) files not named */
	uint64_t uring_slots_cut;  /* registered-file slots past IOR_URING_SLOTS_MAX: not kept */
	uint64_t blk_requests;     /* block requests completed (pair/block.h) */
	uint64_t blk_in_pairs;     /* of them, charged to a pair */
	uint64_t blk_cover_merged; /* a pair's device-time intervals past IOR_BLK_IV_MAX merged (may overcount) */
	uint64_t cache_pages;      /* page-cache pages traced threads added */
	uint64_t cache_outside;    /* of them, outside a syscall (page faults of mmaps) */
	uint64_t async_in_flight;  /* of t.in_flight: async ops (io_uring, libaio) not completed */
};

/* An enter still open: what a hung syscall looks like. */
struct ior_in_flight {
	uint64_t enter_ns;
	uint32_t pid, tid;
	uint16_t sys; /* index into ior_syscalls[] */
	char comm[16];
	int32_t fd;       /* the fd it acts on, -1 when none */
	const char *path; /* that fd's path now ("" when unknown; a path
			   * argument is read at exit only; an async op's
			   * registered file or path, without an fd); valid
			   * until the next feed */
};

struct ior_pair_cfg {
	struct ior_fdtab *fds;  /* required; not owned */
	const char *path_filter; /* substring of path or path2; NULL or "": all */
	ior_pair_sink sink;
	void *sink_ctx;
	/* visible[ior_syscall_index(s)]: 0 for syscalls traced only to keep
	 * the fd table right (opens, dups, closes the user did not select):
	 * they update it but are neither delivered, counted, in flight, nor a
	 * "previous pair" for durationToPrevNs. NULL: all visible. */
	const unsigned char *visible;
	/* The canonical name of an opened file's path when it still leads to
	 * (kdev, ino), else NULL (pair/canon.h); leaf: the file's own name,
	 * "" when not known. NULL: paths as opened. */
	const char *(*canon)(void *ctx, const char *path, uint32_t kdev, uint64_t ino, const char *leaf);
	void *canon_ctx;
	/* Every completed block request, with sink_ctx; NULL: none wanted
	 * (pairs still carry their device time). */
	void (*block)(void *ctx, const struct ior_block_req *r);
};

struct ior_pairer;

/* NULL on allocation failure. */
struct ior_pairer *ior_pair_new(const struct ior_pair_cfg *cfg);
void ior_pair_free(struct ior_pairer *p);

/* One record as the kernel wrote it, len its size in the ring (may include
 * padding). Records must come in timestamp order; a record of a thread
 * arriving before its predecessor is paired as best it can and counted. */
void ior_pair_feed(struct ior_pairer *p, const void *rec, size_t len);

/* Pairs the kernel summarized (bpf/event.h): v holds what was added to
 * key since the last call, delivered as one summary row at ts. */
void ior_pair_summary(struct ior_pairer *p, const struct ior_sum_key *k, const struct ior_sum_val *v,
		      uint64_t ts);

/* Tells that enters stopped being recorded at ts (the enter program was
 * detached first): an exit without enter after it is a syscall that began
 * after the trace, counted apart from unpaired exits. */
void ior_pair_stop_enters(struct ior_pairer *p, uint64_t ts);

/* At stop: the open enters of threads alive() says are gone (their exit
 * records were lost) are closed and counted in enters_at_thread_exit,
 * never reported as still running. */
void ior_pair_close_gone(struct ior_pairer *p, int (*alive)(void *ctx, uint32_t pid, uint32_t tid),
			 void *ctx);

/* Counts so far; in_flight = enters open now. */
void ior_pair_get_stats(const struct ior_pairer *p, struct ior_pair_stats *s);

/* Fills out[] with up to max open enters, oldest first; returns how many
 * there are in total. */
size_t ior_pair_in_flight(const struct ior_pairer *p, struct ior_in_flight *out, size_t max);

#endif
