/* The flight recorder's memory: compressed, self-contained recording
 * frames (rec/rec.h, ior_rec_writer_open_frames), oldest first, bounded
 * by bytes and by time. The frames and their headers live in one buffer
 * of the bound's size, allocated once and used as a ring: what the ring
 * holds never costs more than that buffer, whatever the allocator does
 * (frames malloc'd and freed one by one left the heap up to a frame over
 * the bound, and let the allocator keep what they freed). A frame goes
 * when the next one still covers the window, or to make room for a new
 * one (the newest frame always stays). Not thread-safe. */
#ifndef IOR_RECORDER_RING_H
#define IOR_RECORDER_RING_H

#include <stddef.h>
#include <stdint.h>

#include "pair/event_pair.h"

struct ior_ring_frame {
	uint64_t first_ns, last_ns; /* enter times of its first and last pairs */
	uint64_t pairs;
	struct ior_trace_totals totals; /* the session's when it was cut */
	size_t len;
	unsigned char data[];
};

struct ior_frame_ring {
	unsigned char *buf;        /* cap bytes: frames at 8-aligned offsets */
	size_t cap;
	size_t head, tail;         /* the oldest frame; where the next goes */
	size_t end;                /* wrapped: frames run [head, end) then [0, tail) */
	size_t newest;             /* offset of the newest frame (n > 0) */
	int wrapped;
	size_t n;
	uint64_t bytes;            /* held: frames and their headers, as placed */
	uint64_t window_ns;
	uint64_t dropped_frames, dropped_pairs; /* to make room, before the window was full */
};

/* The bytes a frame of len takes in the ring (header, alignment). */
size_t ior_frame_ring_cost(size_t len);
/* Allocates the ring's cap bytes; 0 or -ENOMEM. */
int ior_frame_ring_init(struct ior_frame_ring *r, size_t cap, uint64_t window_ns);
/* Drops the oldest frames until it fits, copies it in, then trims by
 * time: 1 when a frame the window still wanted was dropped for room, 0,
 * or -E2BIG when one frame is more than the ring (nothing changed). */
int ior_frame_ring_push(struct ior_frame_ring *r, const void *data, size_t len, uint64_t first_ns,
			uint64_t last_ns, uint64_t pairs, const struct ior_trace_totals *totals);
/* Drops frames the window no longer needs at now_ns. */
void ior_frame_ring_trim(struct ior_frame_ring *r, uint64_t now_ns);
/* The oldest frame, the one after f, the newest: NULL when none. */
const struct ior_ring_frame *ior_frame_ring_oldest(const struct ior_frame_ring *r);
const struct ior_ring_frame *ior_frame_ring_next(const struct ior_frame_ring *r, const struct ior_ring_frame *f);
const struct ior_ring_frame *ior_frame_ring_newest(const struct ior_frame_ring *r);
/* Time the frames held cover: newest last - oldest first (0 when empty). */
uint64_t ior_frame_ring_covers(const struct ior_frame_ring *r);
void ior_frame_ring_free(struct ior_frame_ring *r);

#endif
