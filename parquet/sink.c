#include "parquet/sink.h"

static void sink_pair(void *ctx, const struct ior_event_pair *p)
{
	struct ior_pq_sink *s = ctx;

	if (!s->error)
		s->error = ior_pq_pairs_add(s->pp, p);
}

static int sink_tick(void *ctx, uint64_t now)
{
	struct ior_pq_sink *s = ctx;

	(void)now;
	return s->error;
}

static void sink_block(void *ctx, const struct ior_block_req *r)
{
	struct ior_pq_sink *s = ctx;

	if (s->block)
		s->block(s->block_ctx, r);
}

struct ior_sink ior_pq_sink(struct ior_pq_sink *s)
{
	return (struct ior_sink){ sink_pair, sink_tick, s, sink_block };
}
