/* A block request as every consumer sees it (pair/sink.h's block()): one
 * completed request, the thread that submitted it and the pair it was
 * charged to. A request is charged to a pair when its thread submitted
 * it while inside that syscall and it completed before the syscall
 * returned (sync reads, O_DIRECT, fsync's writes and flush); the others
 * (writeback by kworkers, the journal's thread, readahead a read did not
 * wait for) are their thread's and their device's only. */
#ifndef IOR_PAIR_BLOCK_H
#define IOR_PAIR_BLOCK_H

#include <stdint.h>

enum ior_blk_op { IOR_BLK_READ, IOR_BLK_WRITE, IOR_BLK_DISCARD, IOR_BLK_FLUSH, IOR_BLK_OTHER, IOR_BLK_NOPS };

/* Request flags, from the kernel's rwbs letters. */
#define IOR_BLK_PREFLUSH 1u /* a flush before it (seen when it started) */
#define IOR_BLK_FUA 2u
#define IOR_BLK_AHEAD 4u /* readahead */
#define IOR_BLK_SYNC 8u
#define IOR_BLK_META 16u

/* Device-time intervals kept per open pair; past it neighbours merge
 * (counted in blk_cover_merged: the device time may then overcount). */
#define IOR_BLK_IV_MAX 4096

struct ior_block_req {
	uint64_t done_ns;   /* completion, CLOCK_MONOTONIC */
	uint64_t start_ns;  /* first seen (submitted) */
	uint64_t insert_ns; /* queued to a scheduler, 0 when not */
	uint64_t issue_ns;  /* sent to the device, 0 when never (a flush
			     * sequence's empty write: not a device request) */
	uint64_t sector;
	uint32_t dev;       /* the whole disk's, kernel encoding: major << 20 | minor */
	uint32_t bytes;     /* completed */
	int32_t error;      /* 0, or -errno */
	uint8_t op;         /* enum ior_blk_op */
	uint8_t flags;      /* IOR_BLK_* */
	uint32_t pid, tid;  /* the submitter; 0 when unknown */
	const char *comm;   /* the submitter's */
	/* The pair it was charged to: its ior_sys() index and its file (""
	 * when none), or sys -1 (not inside a traced syscall). */
	int32_t sys;
	const char *path;
};

/* Queue time (inserted or started -> issued) and device time (issued ->
 * completed) in ns; 0 when the request was never issued. */
static inline uint64_t ior_blk_queue_ns(const struct ior_block_req *r)
{
	return r->issue_ns > r->start_ns ? r->issue_ns - r->start_ns : 0;
}

static inline uint64_t ior_blk_device_ns(const struct ior_block_req *r)
{
	return r->issue_ns && r->done_ns > r->issue_ns ? r->done_ns - r->issue_ns : 0;
}

/* Whether it went to the device: a PREFLUSH write without data is
 * completed by the flush machinery, never issued (diskstats still counts
 * it as a write: so does ior, but not in the latency histograms). */
static inline int ior_blk_issued(const struct ior_block_req *r)
{
	return r->issue_ns != 0;
}

/* "read", "write", "discard", "flush", "other". */
const char *ior_blk_op_name(unsigned op);
/* The op and flags an rwbs spells (NUL-terminated within 8 bytes or not). */
void ior_blk_parse_rwbs(const char rwbs[8], uint8_t *op, uint8_t *flags);

#endif
