/* The one normalization of diffs: factors, their refusals, the scale. */
#include "t.h"
#include "pair/norm.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

TEST(names_round_trip)
{
	enum ior_norm n;

	CHECK(!ior_norm_parse("rate", &n) && n == IOR_NORM_RATE);
	CHECK(!ior_norm_parse("total", &n) && n == IOR_NORM_TOTAL);
	CHECK(!ior_norm_parse("share", &n) && n == IOR_NORM_SHARE);
	CHECK_EQ_INT(ior_norm_parse("Rate", &n), -1);
	CHECK_EQ_INT(ior_norm_parse("", &n), -1);
	CHECK_EQ_STR(ior_norm_name(IOR_NORM_SHARE), "share");
	CHECK_EQ_STR(ior_norm_name((enum ior_norm)7), "?");
}

TEST(factors)
{
	struct ior_norm_side b = { 10000000000ull, 400 }, n = { 20000000000ull, 100 };
	char err[200] = "";
	double f = 0;

	CHECK(!ior_norm_factor(IOR_NORM_RATE, &b, &n, "time", &f, err, sizeof err) && f == 2.0);
	CHECK(!ior_norm_factor(IOR_NORM_TOTAL, &b, &n, "time", &f, err, sizeof err) && f == 1.0);
	CHECK(!ior_norm_factor(IOR_NORM_SHARE, &b, &n, "time", &f, err, sizeof err) && f == 0.25);
}

TEST(refusals_say_why)
{
	struct ior_norm_side none = { 0, 0 }, instant = { 0, 5 }, some = { 1000, 5 }, empty = { 1000, 0 };
	char err[200];
	double f;

	CHECK_EQ_INT(ior_norm_factor(IOR_NORM_RATE, &none, &some, "time", &f, err, sizeof err), -EINVAL);
	CHECK_EQ_STR(err, "BASE spans 0 s (it has no pairs): a rate needs time; use -normalize=total or share");
	CHECK_EQ_INT(ior_norm_factor(IOR_NORM_RATE, &some, &instant, "time", &f, err, sizeof err), -EINVAL);
	CHECK(strstr(err, "NEW spans 0 s (its pairs share one instant)"));
	CHECK_EQ_INT(ior_norm_factor(IOR_NORM_SHARE, &some, &empty, "bytes", &f, err, sizeof err), -EINVAL);
	CHECK_EQ_STR(err, "NEW weighs 0 by bytes: shares of nothing do not compare; use -normalize=total");
	CHECK(!ior_norm_factor(IOR_NORM_TOTAL, &none, &none, "time", &f, err, sizeof err) && f == 1.0);
}

TEST(scale_rounds_and_saturates)
{
	CHECK(ior_norm_scale(3, 0.5) == 2); /* llround: halves away from zero */
	CHECK(ior_norm_scale(10, 1.0) == 10);
	CHECK(ior_norm_scale(UINT64_MAX, 2.0) == UINT64_MAX);
	CHECK(ior_norm_scale(UINT64_MAX, 1.0) == UINT64_MAX);
	CHECK(ior_norm_scale(7, NAN) == 0);
	CHECK(ior_norm_scale(7, -1.0) == 0);
}

int main(void)
{
	RUN(names_round_trip);
	RUN(factors);
	RUN(refusals_say_why);
	RUN(scale_rounds_and_saturates);
	return t_done();
}
