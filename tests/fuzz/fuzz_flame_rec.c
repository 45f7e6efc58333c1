/* Hostile recordings through the whole flame pipeline: the reader, the
 * id-based aggregation, the frame tree and every writer. The last input
 * byte picks the metric, rotates the field order and, with bit 4, bounds
 * the aggregation tightly (the "(other)" frame, strings not kept); bit 5
 * takes the pair's io_uring, block and cache fields (where, device, cache)
 * and the device time instead. */
#include "flame/flame.h"
#include "rec/rec.h"

#include <stdint.h>
#include <stdio.h>

static const char *field_orders[] = {
	"comm,path,tracepoint", "path,flags,pid", "tid,tracepoint,comm,path,flags,pid", "flags",
	"where,device,cache,comm", "device,path", "cache,tracepoint", "tracepoint,where",
};
static const char *metrics[] = { "count", "duration", "durationToPrev", "bytes", "devicetime" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	uint8_t pick = size ? data[size - 1] : 0;
	struct ior_flame_spec spec;
	char err[256];
	unsigned below = pick & 0x20 ? 4 : 0;
	if (ior_flame_spec_parse(&spec, field_orders[below + (pick & 3)], metrics[pick & 0x20 && pick & 4 ? 4 : pick >> 2 & 3],
				 err, sizeof err))
		return 0;
	struct ior_rec_reader *r;
	if (ior_rec_reader_open_mem(&r, data, size, err, sizeof err))
		return 0;
	struct ior_flame_agg *a;
	struct ior_flame_tree *t = NULL;
	if (!ior_flame_agg_new(&a, &spec)) {
		if (pick & 0x10) {
			ior_flame_agg_set_limits(a, 8, 256);
			ior_flame_agg_set_max_frames(a, 40);
		}
		ior_flame_agg_add_recording(a, r);
		if (!ior_flame_tree_build(a, &t)) {
			t->meta.host = ior_rec_reader_info(r)->host;
			ior_flame_write_folded(t, null);
			ior_flame_write_svg(t, null);
			ior_flame_write_json(t, null);
			ior_flame_tree_free(t);
		}
		ior_flame_agg_free(a);
	}
	ior_rec_reader_close(r);
	return 0;
}
