/* Where pairs go: a run registers sinks; the session (trace/session.h)
 * hands every pair to each of them in timestamp order and never names
 * them. Each sink is exported by the room whose data it is: csv/out.h
 * (-plain), rec/sink.h (recordings), parquet/sink.h, stats/stats.h,
 * flame/live.h (-live), dash/dash.h. cmd/trace.c opens them from its
 * outputs table before the trace and closes them after it. */
#ifndef IOR_PAIR_SINK_H
#define IOR_PAIR_SINK_H

#include <stdint.h>

#include "pair/block.h"
#include "pair/event_pair.h"

struct ior_sink {
	/* One pair, or one summary row (p->summary); p lives for the call. */
	void (*pair)(void *ctx, const struct ior_event_pair *p);
	/* After each drain and at stop, with the monotonic time: time to
	 * flush, render or say something. -errno stops the trace (the
	 * sink's owner says why when it closes it). NULL: nothing to do. */
	int (*tick)(void *ctx, uint64_t now_ns);
	void *ctx;
	/* Each completed block request (pair/block.h), in time order with
	 * the pairs; r lives for the call. NULL: not wanted. */
	void (*block)(void *ctx, const struct ior_block_req *r);
};

#define IOR_MAX_SINKS 8

#endif
