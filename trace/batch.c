#include "trace/batch.h"
#include "bpf/event.h"

#include <string.h>

size_t ior_batch_max_records(size_t len)
{
	return len / sizeof(struct ior_rec_head);
}

struct ior_batch_walk ior_batch_each(const void *sample, size_t len, ior_batch_cb cb, void *ctx)
{
	const char *p = sample;
	struct ior_batch_walk w = { 0, 0, 0 };
	size_t off = 0;

	while (len - off >= sizeof(struct ior_rec_head)) {
		struct ior_rec_head h;
		memcpy(&h, p + off, sizeof h);
		if (h.len < sizeof h || h.len > len - off) {
			w.malformed = 1;
			break;
		}
		if (cb(ctx, p + off, h.len)) {
			w.stopped = 1;
			break;
		}
		w.records++;
		off += ((size_t)h.len + 7) & ~(size_t)7;
		if (off > len)
			break;
	}
	return w;
}
