#include "rec/sink.h"

static void sink_pair(void *ctx, const struct ior_event_pair *p)
{
	struct ior_rec_sink *s = ctx;
	int r = s->w && !s->error ? ior_rec_write(s->w, p) : 0;

	if (r < 0)
		s->error = -r;
}

static int sink_tick(void *ctx, uint64_t now)
{
	struct ior_rec_sink *s = ctx;
	int r = s->w && !s->error ? ior_rec_tick(s->w, now) : 0;

	if (r < 0)
		s->error = -r;
	return s->keep_going ? 0 : -s->error;
}

static void sink_block(void *ctx, const struct ior_block_req *b)
{
	struct ior_rec_sink *s = ctx;
	int r = s->w && !s->error ? ior_rec_write_block(s->w, b) : 0;

	if (r < 0)
		s->error = -r;
}

struct ior_sink ior_rec_sink(struct ior_rec_sink *s)
{
	return (struct ior_sink){ sink_pair, sink_tick, s, sink_block };
}
