/* The recorder's ring of frames (ring.h): frames back to back in one
 * buffer; one that does not fit before the buffer's end starts again at
 * its beginning, the rest of the end left unused until the frames before
 * it go. */
#include "recorder/ring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

size_t ior_frame_ring_cost(size_t len)
{
	return (sizeof(struct ior_ring_frame) + len + 7) & ~(size_t)7;
}

int ior_frame_ring_init(struct ior_frame_ring *r, size_t cap, uint64_t window_ns)
{
	memset(r, 0, sizeof *r);
	r->cap = cap & ~(size_t)7;
	r->window_ns = window_ns;
	r->buf = malloc(r->cap ? r->cap : 8);
	return r->buf ? 0 : -ENOMEM;
}

static struct ior_ring_frame *frame_at(const struct ior_frame_ring *r, size_t off)
{
	return (struct ior_ring_frame *)(void *)(r->buf + off);
}

const struct ior_ring_frame *ior_frame_ring_oldest(const struct ior_frame_ring *r)
{
	return r->n ? frame_at(r, r->head) : NULL;
}

const struct ior_ring_frame *ior_frame_ring_newest(const struct ior_frame_ring *r)
{
	return r->n ? frame_at(r, r->newest) : NULL;
}

const struct ior_ring_frame *ior_frame_ring_next(const struct ior_frame_ring *r, const struct ior_ring_frame *f)
{
	size_t off = (size_t)((const unsigned char *)f - r->buf);

	if (off == r->newest)
		return NULL;
	off += ior_frame_ring_cost(f->len);
	if (r->wrapped && off == r->end)
		off = 0;
	return frame_at(r, off);
}

static void drop_oldest(struct ior_frame_ring *r)
{
	size_t cost = ior_frame_ring_cost(frame_at(r, r->head)->len);

	r->bytes -= cost;
	r->head += cost;
	if (--r->n == 0) {
		r->head = r->tail = r->end = 0;
		r->wrapped = 0;
	} else if (r->wrapped && r->head == r->end) {
		r->head = 0;
		r->wrapped = 0;
	}
}

void ior_frame_ring_trim(struct ior_frame_ring *r, uint64_t now_ns)
{
	uint64_t from = now_ns > r->window_ns ? now_ns - r->window_ns : 0;

	/* the oldest goes when the next one alone starts early enough */
	while (r->n >= 2 && ior_frame_ring_next(r, ior_frame_ring_oldest(r))->first_ns <= from)
		drop_oldest(r);
}

/* Where a frame of cost bytes goes now, or -1 when it does not fit. */
static long long place(struct ior_frame_ring *r, size_t cost)
{
	if (r->wrapped)
		return r->head - r->tail >= cost ? (long long)r->tail : -1;
	if (r->cap - r->tail >= cost)
		return (long long)r->tail;
	if (r->n && r->head >= cost) { /* the end cannot take it: wrap */
		r->end = r->tail;
		r->wrapped = 1;
		r->tail = 0;
		return 0;
	}
	return -1;
}

int ior_frame_ring_push(struct ior_frame_ring *r, const void *data, size_t len, uint64_t first_ns,
			uint64_t last_ns, uint64_t pairs, const struct ior_trace_totals *totals)
{
	size_t cost = ior_frame_ring_cost(len);
	long long at;
	int said = 0;

	if (cost > r->cap)
		return -E2BIG;
	ior_frame_ring_trim(r, first_ns); /* what the window lets go before this frame */
	while ((at = place(r, cost)) < 0) {
		if (r->n == 0) /* not wrapped, empty: tail 0, cost fits */
			return -E2BIG;
		r->dropped_frames++;
		r->dropped_pairs += frame_at(r, r->head)->pairs;
		drop_oldest(r);
		said = 1;
	}
	struct ior_ring_frame *f = frame_at(r, (size_t)at);
	*f = (struct ior_ring_frame){ .first_ns = first_ns, .last_ns = last_ns, .pairs = pairs, .len = len };
	if (totals)
		f->totals = *totals;
	memcpy(f->data, data, len);
	r->newest = (size_t)at;
	r->tail = (size_t)at + cost;
	r->n++;
	r->bytes += cost;
	ior_frame_ring_trim(r, last_ns);
	return said;
}

uint64_t ior_frame_ring_covers(const struct ior_frame_ring *r)
{
	if (!r->n)
		return 0;
	uint64_t a = ior_frame_ring_oldest(r)->first_ns, b = ior_frame_ring_newest(r)->last_ns;
	return b > a ? b - a : 0;
}

void ior_frame_ring_free(struct ior_frame_ring *r)
{
	free(r->buf);
	memset(r, 0, sizeof *r);
}
