/* A log-linear histogram of uint64 values (ns), HDR-style: values below
 * 256 have a bucket each; above, every power of two [2^e, 2^(e+1)) is cut
 * into 128 equal buckets, so a bucket is at most 1/128 (0.78%) of its lower
 * edge wide. 58 rows of 128 buckets cover 0 .. UINT64_MAX; a row's
 * counters (1 KiB) are allocated when a value first lands in it, so a
 * histogram of latencies spanning a microsecond to a second takes ~20 KiB.
 *
 * Percentiles are nearest-rank: percentile(q) is the smallest recorded
 * value v with at least q% of the values <= v. The histogram reports the
 * upper edge of v's bucket (the largest value that falls into it), kept
 * within [min, max]: never below the exact answer, and above it by less
 * than 1/128 of it (0.78%). A constant, a single value, min (q = 0) and
 * max (q = 100) are exact.
 *
 * Not thread-safe. */
#ifndef IOR_STATS_HIST_H
#define IOR_STATS_HIST_H

#include <stdbool.h>
#include <stdint.h>

#define IOR_HIST_SUB_BITS 7
#define IOR_HIST_SUB (1u << IOR_HIST_SUB_BITS) /* buckets per row */
#define IOR_HIST_ROWS 58                        /* row 0: [0,128); row k: [128 << (k-1), 128 << k) */

struct ior_hist {
	uint64_t count, min, max; /* min = UINT64_MAX when empty */
	uint64_t sum;             /* saturates at UINT64_MAX (584 years of ns) */
	uint64_t *row[IOR_HIST_ROWS];
};

/* One bucket: values lo..hi (inclusive) seen count times. */
struct ior_hist_bucket {
	uint64_t lo, hi, count;
};

void ior_hist_init(struct ior_hist *h);
void ior_hist_free(struct ior_hist *h); /* then empty, as after init */
void ior_hist_clear(struct ior_hist *h); /* empty; keeps the rows' memory */
/* Records v count times. 0, or -ENOMEM (nothing recorded). */
int ior_hist_add(struct ior_hist *h, uint64_t v, uint64_t count);
/* Adds src's values to dst: the same as adding them one by one.
 * 0, or -ENOMEM (dst then holds part of src). */
int ior_hist_merge(struct ior_hist *dst, const struct ior_hist *src);

/* 0 when empty; the mean rounded down. */
uint64_t ior_hist_mean(const struct ior_hist *h);
/* q in [0, 100]; 0 when empty. See the top for the rounding. */
uint64_t ior_hist_percentile(const struct ior_hist *h, double q);
/* n percentiles in one walk: q[] ascending. */
void ior_hist_percentiles(const struct ior_hist *h, const double *q, uint64_t *out, unsigned n);

/* The bucket v falls into (its count: how many values it holds). */
struct ior_hist_bucket ior_hist_bucket_of(const struct ior_hist *h, uint64_t v);
/* Non-empty buckets in increasing order: start with *it = 0; true and b
 * filled while there is one. */
bool ior_hist_next(const struct ior_hist *h, uint32_t *it, struct ior_hist_bucket *b);
/* Counts per power of two, for drawing: out[0] the zeros, out[i] (1 <= i
 * <= 64) the values in [2^(i-1), 2^i). Exact (bucket edges fall on powers
 * of two). */
void ior_hist_log2(const struct ior_hist *h, uint64_t out[65]);

#endif
