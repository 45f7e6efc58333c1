/* Parquet rows as a sink (pair/sink.h) while tracing: every pair a row;
 * the first failed write stops the trace at the next tick and is kept
 * for the owner to report. */
#ifndef IOR_PARQUET_SINK_H
#define IOR_PARQUET_SINK_H

#include "pair/sink.h"
#include "parquet/pairs.h"

struct ior_pq_sink {
	struct ior_pq_pairs *pp;
	int error; /* negative errno of the first failed add, 0: none */
	/* Each block request, for the device table (parquet/devices.h) the
	 * owner keeps; NULL: not wanted. */
	void (*block)(void *ctx, const struct ior_block_req *r);
	void *block_ctx;
};

/* s stays the caller's and must outlive the session it is added to. */
struct ior_sink ior_pq_sink(struct ior_pq_sink *s);

#endif
