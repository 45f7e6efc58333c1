/* The recorder's ring of frames (ring.h). */
#include "recorder/ring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ior_frame_ring_init(struct ior_frame_ring *r, uint64_t max_bytes, uint64_t window_ns)
{
	memset(r, 0, sizeof *r);
	r->max_bytes = max_bytes;
	r->window_ns = window_ns;
	r->cap = 64;
	r->f = calloc(r->cap, sizeof *r->f);
	return r->f ? 0 : -ENOMEM;
}

static uint64_t cost(const struct ior_ring_frame *f)
{
	return sizeof *f + f->len;
}

static void drop_oldest(struct ior_frame_ring *r)
{
	struct ior_ring_frame *f = r->f[r->head];

	r->bytes -= cost(f);
	free(f);
	r->f[r->head] = NULL;
	r->head = (r->head + 1) % r->cap;
	r->n--;
}

const struct ior_ring_frame *ior_frame_ring_at(const struct ior_frame_ring *r, size_t i)
{
	return i < r->n ? r->f[(r->head + i) % r->cap] : NULL;
}

/* A bigger array, the frames unwrapped to its start. */
static int grow(struct ior_frame_ring *r)
{
	size_t cap = r->cap * 2;
	struct ior_ring_frame **f = calloc(cap, sizeof *f);

	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < r->n; i++)
		f[i] = r->f[(r->head + i) % r->cap];
	free(r->f);
	r->f = f;
	r->cap = cap;
	r->head = 0;
	return 0;
}

void ior_frame_ring_trim(struct ior_frame_ring *r, uint64_t now_ns)
{
	uint64_t from = now_ns > r->window_ns ? now_ns - r->window_ns : 0;

	/* the oldest goes when the next one alone starts early enough */
	while (r->n >= 2 && ior_frame_ring_at(r, 1)->first_ns <= from)
		drop_oldest(r);
}

int ior_frame_ring_push(struct ior_frame_ring *r, const void *data, size_t len, uint64_t first_ns,
			uint64_t last_ns, uint64_t pairs, const struct ior_trace_totals *totals)
{
	struct ior_ring_frame *f = malloc(sizeof *f + len);
	int said = 0;

	if (!f || (r->n == r->cap && grow(r))) {
		free(f);
		return -ENOMEM;
	}
	*f = (struct ior_ring_frame){ .first_ns = first_ns, .last_ns = last_ns, .pairs = pairs, .len = len };
	if (totals)
		f->totals = *totals;
	memcpy(f->data, data, len);
	r->f[(r->head + r->n) % r->cap] = f;
	r->n++;
	r->bytes += cost(f);
	ior_frame_ring_trim(r, last_ns);
	while (r->n >= 2 && r->bytes > r->max_bytes) {
		r->dropped_frames++;
		r->dropped_pairs += r->f[r->head]->pairs;
		drop_oldest(r);
		said = 1;
	}
	return said;
}

uint64_t ior_frame_ring_covers(const struct ior_frame_ring *r)
{
	if (!r->n)
		return 0;
	uint64_t a = ior_frame_ring_at(r, 0)->first_ns, b = ior_frame_ring_at(r, r->n - 1)->last_ns;
	return b > a ? b - a : 0;
}

void ior_frame_ring_free(struct ior_frame_ring *r)
{
	while (r->n)
		drop_oldest(r);
	free(r->f);
	r->f = NULL;
}
