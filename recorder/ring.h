/* The flight recorder's memory: compressed, self-contained recording
 * frames (rec/rec.h, ior_rec_writer_open_frames), oldest first, bounded
 * by bytes and by time. A frame goes when the next one still covers the
 * window, or when the bytes are over the bound (the newest frame always
 * stays). Not thread-safe. */
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
	struct ior_ring_frame **f; /* f[(head + i) % cap], i < n */
	size_t head, n, cap;
	uint64_t bytes;            /* held: frames and their headers */
	uint64_t max_bytes, window_ns;
	uint64_t dropped_frames, dropped_pairs; /* by the size bound, before the window was full */
};

/* Sizes the ring; 0 or -ENOMEM. */
int ior_frame_ring_init(struct ior_frame_ring *r, uint64_t max_bytes, uint64_t window_ns);
/* Copies a frame in, then trims: 1 when the size bound dropped a frame
 * the window still wanted, 0, or -ENOMEM (nothing held then). */
int ior_frame_ring_push(struct ior_frame_ring *r, const void *data, size_t len, uint64_t first_ns,
			uint64_t last_ns, uint64_t pairs, const struct ior_trace_totals *totals);
/* Drops frames the window no longer needs at now_ns. */
void ior_frame_ring_trim(struct ior_frame_ring *r, uint64_t now_ns);
/* Frame i, 0 the oldest; NULL past the end. */
const struct ior_ring_frame *ior_frame_ring_at(const struct ior_frame_ring *r, size_t i);
/* Time the frames held cover: newest last - oldest first (0 when empty). */
uint64_t ior_frame_ring_covers(const struct ior_frame_ring *r);
void ior_frame_ring_free(struct ior_frame_ring *r);

#endif
