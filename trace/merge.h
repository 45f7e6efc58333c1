/* Ordered merge of the per-CPU record streams by kernel timestamp.
 * A thread's enter and exit can land on different CPUs, so records are held
 * back until every ring has been drained past them: the caller drains all
 * rings, then flushes with a watermark (the time the drain began minus a
 * small slack), and gets every record up to it in timestamp order. Records
 * are read where they are (ior_merge_push_ref: in the mmap'd ring, given
 * back once delivered) or copied into a fixed arena (the rest); nothing
 * is allocated per record.
 * Not thread-safe: one owner. */
#ifndef IOR_TRACE_MERGE_H
#define IOR_TRACE_MERGE_H

#include <stddef.h>
#include <stdint.h>

struct ior_merge;

typedef void (*ior_merge_cb)(void *ctx, const void *rec, size_t len);

/* nsrc sources (CPUs), arena_bytes of record storage. NULL on failure. */
struct ior_merge *ior_merge_new(unsigned nsrc, size_t arena_bytes);
void ior_merge_free(struct ior_merge *m);

/* Copies a record (starting with struct ior_rec_head) from source src.
 * Each source should be close to timestamp order; small inversions are
 * sorted. 0, -ENOSPC when the arena is full (flush, then push again), or
 * -EINVAL for a record shorter than its head or a bad source. */
int ior_merge_push(struct ior_merge *m, unsigned src, const void *rec, size_t len);

/* Pushes the records of one perf sample (trace/batch.h) from source src,
 * whole or not at all: 0; -ENOSPC, nothing taken (flush, then push it
 * again); -EBADMSG, the records before a malformed one taken; -EINVAL for
 * a bad source. */
int ior_merge_push_sample(struct ior_merge *m, unsigned src, const void *sample, size_t len);

/* Indexes the records of one perf sample in place: the caller keeps its
 * bytes as they are until the next ior_merge_flush returns, and then
 * until ior_merge_held_pos(src) has passed pos (its position in the
 * source's ring): the flush copies the records it keeps into the arena
 * while there is room. 0, -ENOSPC (no room in the index:
 * flush, then push again), -EBADMSG or -EINVAL as ior_merge_push_sample. */
int ior_merge_push_ref(struct ior_merge *m, unsigned src, const void *sample, size_t len, uint64_t pos);

/* The lowest ring position of source src's records held where they were
 * pushed by ior_merge_push_ref, UINT64_MAX when none. */
uint64_t ior_merge_held_pos(const struct ior_merge *m, unsigned src);

/* Delivers every held record with ts <= watermark in timestamp order. The
 * record pointer is 4-byte aligned (a ring's records are: copy fields out
 * with memcpy) and valid during the call only. */
void ior_merge_flush(struct ior_merge *m, uint64_t watermark, ior_merge_cb cb, void *ctx);

/* Records held back now. */
size_t ior_merge_pending(const struct ior_merge *m);
/* Records that arrived after a flush had passed their timestamp (they are
 * delivered at the next flush, out of order). */
uint64_t ior_merge_late(const struct ior_merge *m);

#endif
