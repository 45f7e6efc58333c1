/* What the summary map gained since the last read, per key. */
#include "trace/summary.h"
#include "t.h"

static struct ior_sum_val val(uint64_t pairs, uint64_t bytes, uint64_t dur, uint64_t gap)
{
	struct ior_sum_val v = { pairs, bytes, dur, gap, 0, 10, 20 + pairs, "prog" };
	return v;
}

TEST(deltas_per_key)
{
	struct ior_sumtab *t = ior_sumtab_new();
	struct ior_sum_key a = { 1, 1, 0, 3 }, b = { 1, 2, 0, 3 };
	struct ior_sum_val now = val(5, 50, 500, 40), d;
	CHECK_EQ_INT(ior_sumtab_delta(t, &a, &now, &d), 1);
	CHECK(d.pairs == 5 && d.bytes == 50 && d.duration_ns == 500 && d.gap_ns == 40);
	CHECK(d.first_enter == 10 && d.last_exit == 25);
	CHECK_EQ_INT(ior_sumtab_delta(t, &a, &now, &d), 0);
	CHECK(d.pairs == 0 && d.bytes == 0);
	now = val(8, 80, 900, 41);
	CHECK_EQ_INT(ior_sumtab_delta(t, &a, &now, &d), 1);
	CHECK(d.pairs == 3 && d.bytes == 30 && d.duration_ns == 400 && d.gap_ns == 1 && d.last_exit == 28);
	now = val(1, 0, 1, 0);
	CHECK_EQ_INT(ior_sumtab_delta(t, &b, &now, &d), 1);
	CHECK_EQ_INT(d.pairs, 1);
	CHECK_EQ_INT(ior_sumtab_keys(t), 2);
	ior_sumtab_free(t);
}

/* Many keys: the table grows and every key keeps its own totals. */
TEST(grows_and_keeps_every_key)
{
	struct ior_sumtab *t = ior_sumtab_new();
	struct ior_sum_val d;
	uint64_t total = 0;
	for (int round = 1; round <= 3; round++)
		for (uint32_t i = 0; i < 20000; i++) {
			struct ior_sum_key k = { i / 7, i, i % 300, (int32_t)(i % 5) - 1 };
			struct ior_sum_val now = val((uint64_t)round * (i + 1), 0, 0, 0);
			CHECK(ior_sumtab_delta(t, &k, &now, &d) == 1);
			total += d.pairs;
		}
	CHECK_EQ_INT(ior_sumtab_keys(t), 20000);
	CHECK_EQ_INT(total, 3ull * 20000 * 20001 / 2);
	ior_sumtab_free(t);
}

/* A value that went down (a reused key after the kernel deleted it) gains
 * nothing rather than wrapping around. */
TEST(never_negative)
{
	struct ior_sumtab *t = ior_sumtab_new();
	struct ior_sum_key a = { 1, 1, 0, 3 };
	struct ior_sum_val now = val(5, 50, 500, 40), d;
	ior_sumtab_delta(t, &a, &now, &d);
	now = val(2, 20, 100, 1);
	CHECK_EQ_INT(ior_sumtab_delta(t, &a, &now, &d), 0);
	CHECK(d.pairs == 0 && d.bytes == 0 && d.duration_ns == 0 && d.gap_ns == 0);
	ior_sumtab_free(t);
}

int main(void)
{
	RUN(deltas_per_key);
	RUN(grows_and_keeps_every_key);
	RUN(never_negative);
	return t_done();
}
