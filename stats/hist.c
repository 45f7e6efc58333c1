#include "hist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define ROW_BYTES (IOR_HIST_SUB * sizeof(uint64_t))

/* Row k >= 1 holds [128 << (k-1), 128 << k) in buckets 1 << (k-1) wide. */
static inline unsigned row_of(uint64_t v)
{
	return v < IOR_HIST_SUB ? 0 : (unsigned)(63 - __builtin_clzll(v)) - (IOR_HIST_SUB_BITS - 1);
}

static inline unsigned shift_of(unsigned row)
{
	return row ? row - 1 : 0;
}

static inline uint64_t row_lo(unsigned row)
{
	return row ? (uint64_t)IOR_HIST_SUB << (row - 1) : 0;
}

static inline unsigned sub_of(uint64_t v, unsigned row)
{
	return (unsigned)((v - row_lo(row)) >> shift_of(row));
}

static struct ior_hist_bucket bucket(unsigned row, unsigned sub, uint64_t count)
{
	uint64_t lo = row_lo(row) + ((uint64_t)sub << shift_of(row));
	/* the last bucket ends at UINT64_MAX: lo + width - 1 does not overflow */
	return (struct ior_hist_bucket){ lo, lo + ((1ull << shift_of(row)) - 1), count };
}

void ior_hist_init(struct ior_hist *h)
{
	memset(h, 0, sizeof *h);
	h->min = UINT64_MAX;
}

void ior_hist_free(struct ior_hist *h)
{
	for (unsigned r = 0; r < IOR_HIST_ROWS; r++)
		free(h->row[r]);
	ior_hist_init(h);
}

void ior_hist_clear(struct ior_hist *h)
{
	for (unsigned r = 0; r < IOR_HIST_ROWS; r++)
		if (h->row[r])
			memset(h->row[r], 0, ROW_BYTES);
	h->count = h->max = h->sum = 0;
	h->min = UINT64_MAX;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

int ior_hist_add(struct ior_hist *h, uint64_t v, uint64_t count)
{
	unsigned r = row_of(v);

	if (!count)
		return 0;
	if (!h->row[r] && !(h->row[r] = calloc(IOR_HIST_SUB, sizeof(uint64_t))))
		return -ENOMEM;
	h->row[r][sub_of(v, r)] += count;
	h->count += count;
	h->sum = sat_add(h->sum, sat_mul(v, count));
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	return 0;
}

int ior_hist_merge(struct ior_hist *dst, const struct ior_hist *src)
{
	for (unsigned r = 0; r < IOR_HIST_ROWS; r++) {
		if (!src->row[r])
			continue;
		if (!dst->row[r] && !(dst->row[r] = calloc(IOR_HIST_SUB, sizeof(uint64_t))))
			return -ENOMEM;
		for (unsigned s = 0; s < IOR_HIST_SUB; s++)
			dst->row[r][s] += src->row[r][s];
	}
	dst->count += src->count;
	dst->sum = sat_add(dst->sum, src->sum);
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	return 0;
}

uint64_t ior_hist_mean(const struct ior_hist *h)
{
	return h->count ? h->sum / h->count : 0;
}

/* Nearest rank of q% of n: ceil(q * n / 100), at least 1. */
static uint64_t rank_of(double q, uint64_t n)
{
	double r = q / 100.0 * (double)n;
	uint64_t k = r >= (double)n ? n : (uint64_t)r;

	if ((double)k < r)
		k++;
	return k ? k : 1;
}

static uint64_t clamp(const struct ior_hist *h, uint64_t v)
{
	return v < h->min ? h->min : v > h->max ? h->max : v;
}

void ior_hist_percentiles(const struct ior_hist *h, const double *q, uint64_t *out, unsigned n)
{
	uint64_t seen = 0;
	unsigned i = 0;

	for (unsigned r = 0; r < IOR_HIST_ROWS && i < n && h->count; r++) {
		if (!h->row[r])
			continue;
		for (unsigned s = 0; s < IOR_HIST_SUB && i < n; s++) {
			seen += h->row[r][s];
			for (uint64_t k; i < n && seen >= (k = rank_of(q[i], h->count)); i++)
				out[i] = k == 1 ? h->min : clamp(h, bucket(r, s, 0).hi);
		}
	}
	for (; i < n; i++) /* empty, or q beyond 100 */
		out[i] = h->count ? h->max : 0;
}

uint64_t ior_hist_percentile(const struct ior_hist *h, double q)
{
	uint64_t v;

	ior_hist_percentiles(h, &q, &v, 1);
	return v;
}

struct ior_hist_bucket ior_hist_bucket_of(const struct ior_hist *h, uint64_t v)
{
	unsigned r = row_of(v), s = sub_of(v, r);

	return bucket(r, s, h->row[r] ? h->row[r][s] : 0);
}

bool ior_hist_next(const struct ior_hist *h, uint32_t *it, struct ior_hist_bucket *b)
{
	for (uint32_t i = *it; i < IOR_HIST_ROWS * IOR_HIST_SUB; i++) {
		unsigned r = i / IOR_HIST_SUB, s = i % IOR_HIST_SUB;
		if (!h->row[r]) {
			i = (r + 1) * IOR_HIST_SUB - 1;
			continue;
		}
		if (h->row[r][s]) {
			*b = bucket(r, s, h->row[r][s]);
			*it = i + 1;
			return true;
		}
	}
	*it = IOR_HIST_ROWS * IOR_HIST_SUB;
	return false;
}

void ior_hist_log2(const struct ior_hist *h, uint64_t out[65])
{
	struct ior_hist_bucket b;
	uint32_t it = 0;

	memset(out, 0, 65 * sizeof *out);
	while (ior_hist_next(h, &it, &b))
		out[b.lo ? 64 - __builtin_clzll(b.lo) : 0] += b.count;
}
