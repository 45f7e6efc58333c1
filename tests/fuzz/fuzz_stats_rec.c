/* Hostile recordings through ior summary: the reader, the statistics with
 * small tables (so they fold), every table sorted by every column, the
 * rates and the report in each escape mode. Aborts when a table's rows and
 * (other) do not add up to the totals. */
#include "stats/report.h"
#include "rec/rec.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static struct ior_stats_row rows[8];

static void check_table(struct ior_stats *s, enum ior_stats_table t, const struct ior_stats_totals *tot)
{
	struct ior_stats_row other;

	for (int col = 0; col < IOR_STATS_NCOLS; col++) {
		int n = ior_stats_select(s, t, (enum ior_stats_col)col, col & 1, rows, 8, &other);
		uint64_t pairs = other.sums.pairs, time = other.sums.time_ns;
		if (n < 0)
			return; /* out of memory */
		for (int i = 0; i < n; i++)
			pairs += rows[i].sums.pairs, time += rows[i].sums.time_ns;
		/* files leave out pairs without a path: at most the totals */
		if (t == IOR_STATS_FILES ? pairs > tot->sums.pairs : pairs != tot->sums.pairs || time != tot->sums.time_ns)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum ior_escape escapes[] = { IOR_ESCAPE_AUTO, IOR_ESCAPE_ALWAYS, IOR_ESCAPE_NEVER };
	struct ior_stats_cfg cfg = { .max_files = 4, .max_processes = 2, .max_threads = 3, .max_path_bytes = 64 };
	struct ior_stats_second sec[IOR_STATS_SECONDS];
	struct ior_stats_totals tot;
	struct ior_stats_rates rates;
	struct ior_rec_reader *r;
	struct ior_event_pair p;
	struct ior_stats *s;
	static FILE *null;
	char err[256];

	if (!null)
		null = fopen("/dev/null", "w");
	if (ior_rec_reader_open_mem(&r, data, size, err, sizeof err))
		return 0;
	if (!ior_stats_new(&s, &cfg)) {
		while (ior_rec_read(r, &p) == 1)
			ior_stats_add(s, &p);
		ior_stats_totals(s, &tot);
		for (int t = 0; t < IOR_STATS_NTABLES; t++)
			check_table(s, (enum ior_stats_table)t, &tot);
		ior_stats_series(s, sec, IOR_STATS_SECONDS);
		ior_stats_rates(s, 60, &rates);
		for (int e = 0; e < 3; e++) {
			struct ior_stats_report_cfg rc = { .esc = escapes[e], .rows = (unsigned)e };
			ior_stats_report(s, null, &rc);
		}
		ior_stats_free(s);
	}
	ior_rec_reader_close(r);
	return 0;
}
