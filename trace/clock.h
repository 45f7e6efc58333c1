/* The records' clock: bpf_ktime_get_ns() is CLOCK_MONOTONIC. One reader
 * for the trace room, so snapshots and drains compare with records. */
#ifndef IOR_TRACE_CLOCK_H
#define IOR_TRACE_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t ior_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
