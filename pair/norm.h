/* How two runs' values compare (ior diff, -live -baseline, the
 * dashboard's -baseline): BASE's values are multiplied by one factor into
 * NEW's units, chosen by the normalization:
 *   rate   per second of each run's span (the default: runs of different
 *          lengths compare): NEW's span / BASE's span
 *   total  as recorded: 1
 *   share  as fractions of each total: NEW's total / BASE's total
 * One place for it, so the graph, the tables and the dashboard agree. */
#ifndef IOR_PAIR_NORM_H
#define IOR_PAIR_NORM_H

#include <stddef.h>
#include <stdint.h>

enum ior_norm {
	IOR_NORM_RATE,
	IOR_NORM_TOTAL,
	IOR_NORM_SHARE,
};

/* Parses "rate" | "total" | "share"; -1 when unknown. */
int ior_norm_parse(const char *s, enum ior_norm *n);
const char *ior_norm_name(enum ior_norm n);

/* What each run measured: its span (last exit - first enter) and its
 * total by the metric compared (time, pairs, bytes). */
struct ior_norm_side {
	uint64_t span_ns, total;
};

/* BASE's factor into NEW's units into *f; -EINVAL with why in err (a
 * span of 0 s for rate, a total of 0 for share, naming the run and what
 * to use instead); metric names the total ("time", "pairs"). */
int ior_norm_factor(enum ior_norm n, const struct ior_norm_side *base, const struct ior_norm_side *new_,
		    const char *metric, double *f, char *err, size_t errlen);

/* v * f rounded, saturating at UINT64_MAX (never a NaN or a wrap). */
uint64_t ior_norm_scale(uint64_t v, double f);

#endif
