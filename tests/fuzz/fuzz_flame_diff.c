/* Two hostile recordings diffed: the input is BASE then NEW, split at a
 * point its first two bytes give; the last byte picks the metric, the
 * fields and the normalization. Every tree is merged and written as
 * folded stacks and SVG; refusals (a zero span, a zero total) must come
 * with a message. */
#include "flame/diff.h"
#include "flame/flame.h"
#include "rec/rec.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const char *fields[] = { "comm,path,tracepoint", "tracepoint", "path,pid", "flags,comm" };
static const char *metrics[] = { "count", "duration", "durationToPrev", "bytes" };

static struct ior_flame_tree *tree_of(const uint8_t *data, size_t size, const struct ior_flame_spec *spec)
{
	struct ior_rec_reader *r;
	struct ior_flame_agg *a;
	struct ior_flame_tree *t = NULL;
	char err[256];

	if (ior_rec_reader_open_mem(&r, data, size, err, sizeof err))
		return NULL;
	if (!ior_flame_agg_new(&a, spec)) {
		ior_flame_agg_add_recording(a, r);
		if (ior_flame_tree_build(a, &t))
			t = NULL;
		ior_flame_agg_free(a);
	}
	ior_rec_reader_close(r);
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct ior_flame_spec spec;
	char err[256];

	if (!null)
		null = fopen("/dev/null", "w");
	if (size < 3)
		return 0;
	uint8_t pick = data[size - 1];
	size_t cut = 2 + ((size_t)data[0] << 8 | data[1]) % (size - 2);
	if (ior_flame_spec_parse(&spec, fields[pick & 3], metrics[pick >> 2 & 3], err, sizeof err))
		return 0;
	struct ior_flame_tree *b = tree_of(data + 2, cut - 2, &spec), *n = tree_of(data + cut, size - cut - 1, &spec);
	if (b && n) {
		struct ior_flame_tree *d = NULL;
		err[0] = 0;
		int rc = ior_flame_diff(b, n, (enum ior_norm)(pick >> 4 & 3) % 3, "base", "new", &d, err,
					sizeof err);
		if (rc && !err[0])
			abort(); /* a refusal says why */
		if (d) {
			ior_flame_write_folded(d, null);
			ior_flame_write_svg(d, null);
			ior_flame_tree_free(d);
		}
	}
	ior_flame_tree_free(b);
	ior_flame_tree_free(n);
	return 0;
}
