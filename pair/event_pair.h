/* An event pair: one completed syscall (enter + exit of one thread), the
 * unit every consumer sees (-plain CSV, recordings, flamegraphs). */
#ifndef IOR_PAIR_EVENT_PAIR_H
#define IOR_PAIR_EVENT_PAIR_H

#include <stddef.h>
#include <stdint.h>

#define IOR_FLAGS_UNKNOWN (-1LL)

struct ior_event_pair {
	uint64_t enter_ns;    /* CLOCK_MONOTONIC ns of the enter */
	uint64_t duration_ns; /* exit - enter, same thread */
	uint64_t gap_ns;      /* durationToPrevNs: enter - previous exit of this tid; 0 for its first pair */
	int64_t ret;          /* the syscall's return value */
	uint64_t bytes;       /* positive ret of read/write/transfer syscalls, else 0 */
	int64_t flags;        /* open flags of the file, IOR_FLAGS_UNKNOWN when not known */
	uint32_t pid, tid;
	int32_t fd;           /* fd acted on (the new fd for opens), -1 when none */
	uint16_t sys;         /* an ior_sys() index (syscalls/syscalls.h) */
	const char *comm;     /* NUL-terminated, at most 15 bytes */
	const char *path;     /* "" when the syscall has no file */
	const char *path2;    /* second path (rename, link, symlink), else "" */
	/* A summary row (summary = 1) is not one event: it stands for `pairs`
	 * pairs whose events the kernel could not deliver (its ring was full)
	 * and folded per thread, syscall and fd. duration_ns, gap_ns and bytes
	 * are their sums, enter_ns the first enter and end_ns the latest exit
	 * of the key's summarized pairs (not only these), path the fd's when
	 * they were collected, ret 0 and flags unknown. pairs = 0: a
	 * correction of gap_ns only (a streak's first gap, known later). */
	uint8_t summary;
	/* A wait's timeout argument (poll, select, epoll_wait, ...: has_timeout
	 * = 1): timeout_ns, or -1 when it may wait for ever. */
	uint8_t has_timeout;
	uint64_t pairs;
	uint64_t end_ns;
	int64_t timeout_ns;
	/* Where an io_uring op ran (bpf/event.h enum ior_async_where: 1
	 * inline, 2 an io-wq worker, 3 armed for poll); 0 for syscalls,
	 * libaio, summary rows, and recordings before version 5. */
	uint8_t where;
	/* Block requests its thread submitted inside it that completed
	 * before it returned (pair/block.h): how many, their bytes, and the
	 * time any of them was at the device (overlaps once; at most
	 * duration_ns). 0 when none or not traced (-noblock, summaries). */
	uint32_t blk_requests;
	uint64_t blk_bytes;
	uint64_t device_ns;
	uint32_t blk_dev;     /* the device of its last request (major << 20 | minor), 0 none */
	/* Pages its thread added to the page cache while inside it
	 * (filemap:mm_filemap_add_to_page_cache: a folio counts its pages):
	 * a read's misses and the readahead it started. 0 when none or not
	 * traced. */
	uint64_t cache_pages;
	/* Names comm as it is now: two pairs with the same nonzero comm_id
	 * have the same comm, so a sink may skip comparing the bytes. 0
	 * when not known (compare). Not recorded. */
	uint64_t comm_id;
	/* The same for path: nonzero when path is an fd table's name, new
	 * whenever that name changes. */
	uint64_t path_id;
};

enum ior_cache_kind { IOR_CACHE_NONE, IOR_CACHE_HIT, IOR_CACHE_PARTIAL, IOR_CACHE_MISS };

/* A read that returned bytes: a hit when it added no page, a miss when it
 * added at least the 4 KiB pages its bytes take, else partial; NONE for
 * a pair that read nothing (is_read: the caller knows its class). */
static inline enum ior_cache_kind ior_pair_cache_kind(const struct ior_event_pair *p, int is_read)
{
	if (!is_read || !p->bytes || p->summary)
		return IOR_CACHE_NONE;
	if (!p->cache_pages)
		return IOR_CACHE_HIT;
	return p->cache_pages >= (p->bytes + 4095) / 4096 ? IOR_CACHE_MISS : IOR_CACHE_PARTIAL;
}

/* The name of a pair's where ("inline", "io-wq", "poll"), NULL for 0 or
 * a value no kernel sends. */
static inline const char *ior_pair_where_name(uint8_t where)
{
	static const char *const names[] = { NULL, "inline", "io-wq", "poll" };
	return where < sizeof names / sizeof *names ? names[where] : NULL;
}

/* What a pair or summary row weighs when counting pairs. */
static inline uint64_t ior_pair_count(const struct ior_event_pair *p)
{
	return p->summary ? p->pairs : 1;
}

/* What a trace counted; a recording's trailer carries it too. */
struct ior_trace_totals {
	uint64_t pairs;              /* pairs delivered after filters */
	uint64_t pairs_seen;         /* pairs completed before user-space filters */
	uint64_t lost;               /* perf records the kernel dropped */
	uint64_t unpaired_exits;     /* exits whose enter was never seen */
	uint64_t overwritten_enters; /* enters replaced by a newer enter of the same tid */
	uint64_t in_flight;          /* enters still open when tracing stopped */
	uint64_t summarized;         /* of pairs: those delivered as summaries (detail dropped) */
};

/* Consumers receive pairs through a callback; pointers inside the pair are
 * valid only during the call. */
typedef void (*ior_pair_sink)(void *ctx, const struct ior_event_pair *pair);

#endif
