/* The records' clock: bpf_ktime_get_ns() is CLOCK_MONOTONIC. One reader
 * for the trace room, so snapshots and drains compare with records. */
#ifndef IOR_PAIR_CLOCK_H
#define IOR_PAIR_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t ior_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CLOCK_REALTIME - CLOCK_MONOTONIC now: turns a record's ts into wall
 * time. */
static inline int64_t ior_realtime_offset_ns(void)
{
	struct timespec rt;
	int64_t mono = (int64_t)ior_mono_ns();

	clock_gettime(CLOCK_REALTIME, &rt);
	return (int64_t)rt.tv_sec * 1000000000ll + rt.tv_nsec - mono;
}

#endif
