/* stats/hist.c: percentiles against the exact nearest-rank values of known
 * distributions, bucket edges, merge, iteration. */
#include "stats/hist.h"
#include "t.h"

#include <stdlib.h>

static const double QS[] = { 0, 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 100 };
#define NQ (sizeof QS / sizeof QS[0])

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Nearest rank over sorted v[0..n). */
static uint64_t exact(const uint64_t *v, size_t n, double q)
{
	double r = q / 100.0 * (double)n;
	size_t k = (size_t)r;
	if ((double)k < r)
		k++;
	return v[(k ? k : 1) - 1];
}

static uint64_t rnd(void)
{
	static uint64_t x = 0x9e3779b97f4a7c15ull;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

/* Every q: the histogram's answer is >= the exact one and above it by at
 * most 1/128 of it; the distribution's count, min, max and mean agree. */
static void check_against(const char *what, uint64_t *v, size_t n)
{
	struct ior_hist h;
	uint64_t got[NQ], sum = 0;

	ior_hist_init(&h);
	for (size_t i = 0; i < n; i++) {
		CHECK(ior_hist_add(&h, v[i], 1) == 0);
		sum = sum + v[i] < sum ? UINT64_MAX : sum + v[i];
	}
	qsort(v, n, sizeof *v, cmp_u64);
	ior_hist_percentiles(&h, QS, got, NQ);
	for (unsigned i = 0; i < NQ; i++) {
		uint64_t want = exact(v, n, QS[i]), one = ior_hist_percentile(&h, QS[i]);
		if (got[i] < want || got[i] - want > want / 128 || one != got[i])
			T_FAIL("%s: p%g = %" PRIu64 " (alone %" PRIu64 "), exact %" PRIu64, what, QS[i], got[i], one, want);
	}
	CHECK_EQ_INT(h.count, n);
	CHECK(h.min == v[0]);
	CHECK(h.max == v[n - 1]);
	CHECK(h.sum == sum);
	CHECK(ior_hist_mean(&h) == (sum == UINT64_MAX ? UINT64_MAX / n : sum / n));
	ior_hist_free(&h);
}

TEST(uniform)
{
	static uint64_t v[100000];
	for (size_t i = 0; i < 100000; i++)
		v[i] = i + 1;
	check_against("1..100000", v, 100000);
	for (size_t i = 0; i < 100000; i++)
		v[i] = 1000 + rnd() % 10000000;
	check_against("random 1 µs..10 ms", v, 100000);
}

/* Latency-like: most fast, a long tail over many powers of two. */
TEST(exponential_ish)
{
	static uint64_t v[50000];
	for (size_t i = 0; i < 50000; i++) {
		unsigned e = 0;
		while (e < 40 && (rnd() & 1))
			e++;
		v[i] = (200ull << e) + rnd() % (200ull << e);
	}
	check_against("exponential-ish", v, 50000);
}

TEST(constant_and_single_are_exact)
{
	static uint64_t v[1000];
	struct ior_hist h;

	for (size_t i = 0; i < 1000; i++)
		v[i] = 123456789;
	check_against("constant", v, 1000);
	ior_hist_init(&h);
	ior_hist_add(&h, 123456789, 1000);
	for (unsigned i = 0; i < NQ; i++)
		CHECK(ior_hist_percentile(&h, QS[i]) == 123456789);
	ior_hist_free(&h);

	v[0] = 987654321;
	check_against("single", v, 1);
	ior_hist_init(&h);
	ior_hist_add(&h, 987654321, 1);
	CHECK(ior_hist_percentile(&h, 50) == 987654321);
	CHECK(ior_hist_percentile(&h, 99) == 987654321);
	CHECK(ior_hist_mean(&h) == 987654321);
	ior_hist_free(&h);
}

TEST(zero_and_empty)
{
	struct ior_hist h;
	uint64_t v[3] = { 0, 0, 0 };

	ior_hist_init(&h);
	CHECK(ior_hist_percentile(&h, 50) == 0);
	CHECK(ior_hist_mean(&h) == 0);
	CHECK(h.count == 0 && h.min == UINT64_MAX && h.max == 0);
	ior_hist_add(&h, 0, 5);
	CHECK(ior_hist_percentile(&h, 99) == 0);
	CHECK(h.count == 5 && h.min == 0 && h.max == 0);
	ior_hist_add(&h, 7, 0); /* count 0: nothing */
	CHECK(h.count == 5 && h.max == 0);
	ior_hist_free(&h);
	check_against("zeros", v, 3);
}

TEST(huge_values)
{
	static uint64_t v[4000];
	for (size_t i = 0; i < 4000; i++)
		v[i] = UINT64_MAX - rnd() % (1ull << 60);
	v[0] = UINT64_MAX;
	v[1] = UINT64_MAX - 1;
	v[2] = 1ull << 63;
	check_against("near UINT64_MAX", v, 4000);

	struct ior_hist h;
	ior_hist_init(&h);
	ior_hist_add(&h, UINT64_MAX, 3);
	CHECK(h.sum == UINT64_MAX); /* saturated */
	CHECK(ior_hist_percentile(&h, 50) == UINT64_MAX);
	struct ior_hist_bucket b = ior_hist_bucket_of(&h, UINT64_MAX);
	CHECK(b.hi == UINT64_MAX && b.lo == UINT64_MAX - ((1ull << 56) - 1) && b.count == 3);
	ior_hist_free(&h);
}

/* Below 256 a bucket per value; from 2^e on, 128 buckets of 2^(e-7). */
TEST(bucket_edges)
{
	struct ior_hist h;
	struct {
		uint64_t v, lo, hi;
	} cases[] = {
		{ 0, 0, 0 },
		{ 1, 1, 1 },
		{ 127, 127, 127 },
		{ 128, 128, 128 },
		{ 255, 255, 255 },
		{ 256, 256, 257 },
		{ 257, 256, 257 },
		{ 258, 258, 259 },
		{ 511, 510, 511 },
		{ 512, 512, 515 },
		{ 1000000, 999424, 1003519 },
		{ 1ull << 40, 1ull << 40, (1ull << 40) + (1ull << 33) - 1 },
		{ (1ull << 40) - 1, (1ull << 40) - (1ull << 32), (1ull << 40) - 1 },
		{ 1ull << 63, 1ull << 63, (1ull << 63) + (1ull << 56) - 1 },
	};

	ior_hist_init(&h);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct ior_hist_bucket b = ior_hist_bucket_of(&h, cases[i].v);
		if (b.lo != cases[i].lo || b.hi != cases[i].hi)
			T_FAIL("bucket of %" PRIu64 ": [%" PRIu64 ", %" PRIu64 "], want [%" PRIu64 ", %" PRIu64 "]",
			       cases[i].v, b.lo, b.hi, cases[i].lo, cases[i].hi);
		/* at most 1/128 of its lower edge wide */
		CHECK(b.hi - b.lo <= b.lo / 128);
	}
	/* every edge: a bucket ends where the next begins */
	for (unsigned e = 0; e < 64; e++) {
		uint64_t v = 1ull << e;
		struct ior_hist_bucket a = ior_hist_bucket_of(&h, v - 1), b = ior_hist_bucket_of(&h, v);
		CHECK(a.hi + 1 == b.lo);
		CHECK(b.lo == v);
	}
	ior_hist_free(&h);
}

TEST(merge_equals_adding_both)
{
	struct ior_hist a, b, both;
	uint32_t ia = 0, ib = 0;
	struct ior_hist_bucket x, y;

	ior_hist_init(&a), ior_hist_init(&b), ior_hist_init(&both);
	for (int i = 0; i < 20000; i++) {
		uint64_t v = rnd() >> (rnd() % 64);
		CHECK(ior_hist_add(i % 3 ? &a : &b, v, 1 + i % 2) == 0);
		CHECK(ior_hist_add(&both, v, 1 + i % 2) == 0);
	}
	CHECK(ior_hist_merge(&a, &b) == 0);
	CHECK(a.count == both.count && a.min == both.min && a.max == both.max && a.sum == both.sum);
	while (ior_hist_next(&both, &ib, &y)) {
		if (!ior_hist_next(&a, &ia, &x) || x.lo != y.lo || x.hi != y.hi || x.count != y.count) {
			T_FAIL("merged bucket differs at [%" PRIu64 ", %" PRIu64 "]", y.lo, y.hi);
			break;
		}
	}
	CHECK(!ior_hist_next(&a, &ia, &x));
	for (unsigned i = 0; i < NQ; i++)
		CHECK(ior_hist_percentile(&a, QS[i]) == ior_hist_percentile(&both, QS[i]));
	/* merging an empty one changes nothing; into an empty one copies */
	ior_hist_clear(&b);
	CHECK(ior_hist_merge(&a, &b) == 0 && a.count == both.count && a.min == both.min);
	CHECK(ior_hist_merge(&b, &both) == 0 && b.count == both.count && b.min == both.min &&
	      b.max == both.max);
	ior_hist_free(&a), ior_hist_free(&b), ior_hist_free(&both);
}

TEST(iteration_and_log2)
{
	struct ior_hist h;
	struct ior_hist_bucket b;
	uint64_t l2[65], total = 0, n = 0;
	uint32_t it = 0;

	ior_hist_init(&h);
	ior_hist_add(&h, 0, 2);
	ior_hist_add(&h, 3, 1);
	ior_hist_add(&h, 1000, 4);
	ior_hist_add(&h, 1001, 1); /* same bucket as 1000 */
	ior_hist_add(&h, 1ull << 50, 1);
	ior_hist_add(&h, UINT64_MAX, 1);
	uint64_t want[][3] = { { 0, 0, 2 }, { 3, 3, 1 }, { 1000, 1003, 5 },
			       { 1ull << 50, (1ull << 50) + (1ull << 43) - 1, 1 },
			       { UINT64_MAX - ((1ull << 56) - 1), UINT64_MAX, 1 } };
	while (ior_hist_next(&h, &it, &b)) {
		if (n < 5 && (b.lo != want[n][0] || b.hi != want[n][1] || b.count != want[n][2]))
			T_FAIL("bucket %" PRIu64 ": [%" PRIu64 ", %" PRIu64 "] x %" PRIu64, n, b.lo, b.hi, b.count);
		n++;
	}
	CHECK_EQ_INT(n, 5);
	CHECK(!ior_hist_next(&h, &it, &b)); /* stays at the end */
	ior_hist_log2(&h, l2);
	CHECK(l2[0] == 2 && l2[2] == 1 && l2[10] == 5 && l2[51] == 1 && l2[64] == 1);
	for (int i = 0; i < 65; i++)
		total += l2[i];
	CHECK(total == h.count);
	ior_hist_clear(&h);
	it = 0;
	CHECK(!ior_hist_next(&h, &it, &b) && h.count == 0);
	ior_hist_free(&h);
}

int main(void)
{
	RUN(uniform);
	RUN(exponential_ish);
	RUN(constant_and_single_are_exact);
	RUN(zero_and_empty);
	RUN(huge_values);
	RUN(bucket_edges);
	RUN(merge_equals_adding_both);
	RUN(iteration_and_log2);
	return t_done();
}
