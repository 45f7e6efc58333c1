/* The records inside one perf sample (bpf/event.h): one record, or a
 * CPU's batch of them, each 8-byte aligned after the previous one's h.len
 * bytes. The sample comes from the kernel but is parsed as hostile. */
#ifndef IOR_TRACE_BATCH_H
#define IOR_TRACE_BATCH_H

#include <stddef.h>

/* Called per record; the pointer may be unaligned (copy the head out).
 * Non-zero stops the walk. */
typedef int (*ior_batch_cb)(void *ctx, const void *rec, size_t len);

struct ior_batch_walk {
	size_t records; /* delivered */
	int malformed;  /* stopped at a record whose len does not fit */
	int stopped;    /* the callback asked to stop */
};

/* Most records a sample of len bytes can carry (each takes >= 24 bytes). */
size_t ior_batch_max_records(size_t len);

/* Delivers the records of sample[0, len) in order. Trailing bytes shorter
 * than a record head are the kernel's padding. */
struct ior_batch_walk ior_batch_each(const void *sample, size_t len, ior_batch_cb cb, void *ctx);

#endif
