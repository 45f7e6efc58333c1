/* Hostile recordings through the replay path as ior -ior=FILE -plain and
 * -live consume it: every decoded pair is formatted as a CSV row in each
 * escape mode and added, string by string, to one aggregation per metric
 * with all six fields, and each aggregation is drawn. The formatters are
 * where the flags/syscall tables are indexed by values from the file. */
#include "flame/flame.h"
#include "csv/csv.h"
#include "rec/rec.h"

#include <stdint.h>
#include <stdio.h>

#define NMETRICS 4

static const char *metrics[NMETRICS] = { "count", "duration", "durationToPrev", "bytes" };
static const enum ior_escape escapes[] = { IOR_ESCAPE_AUTO, IOR_ESCAPE_ALWAYS, IOR_ESCAPE_NEVER };

static void draw(struct ior_flame_agg *a, FILE *out)
{
	struct ior_flame_tree *t;
	if (ior_flame_tree_build(a, &t))
		return;
	ior_flame_write_folded(t, out);
	ior_flame_write_svg(t, out);
	ior_flame_write_json(t, out);
	ior_flame_tree_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	struct ior_flame_agg *aggs[NMETRICS] = { 0 };
	char err[256];
	for (int m = 0; m < NMETRICS; m++) {
		struct ior_flame_spec spec;
		if (ior_flame_spec_parse(&spec, "comm,path,tracepoint,pid,tid,flags", metrics[m], err, sizeof err) ||
		    ior_flame_agg_new(&aggs[m], &spec))
			goto out;
		ior_flame_agg_set_limits(aggs[m], 64, 4096); /* the (other) frame too */
	}
	struct ior_rec_reader *r;
	if (ior_rec_reader_open_mem(&r, data, size, err, sizeof err))
		goto out;
	ior_csv_write_header(null);
	struct ior_event_pair p;
	for (unsigned n = 0; ior_rec_read(r, &p) == 1; n++) {
		ior_csv_write_pair(null, &p, escapes[n % 3]);
		for (int m = 0; m < NMETRICS; m++)
			ior_flame_agg_add(aggs[m], &p);
	}
	ior_rec_reader_truncated(r, NULL, NULL);
	ior_rec_reader_close(r);
	for (int m = 0; m < NMETRICS; m++)
		draw(aggs[m], null);
out:
	for (int m = 0; m < NMETRICS; m++)
		ior_flame_agg_free(aggs[m]);
	return 0;
}
