#include "pair/norm.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const names[] = { "rate", "total", "share" };

int ior_norm_parse(const char *s, enum ior_norm *n)
{
	for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(s, names[i])) {
			*n = (enum ior_norm)i;
			return 0;
		}
	return -1;
}

const char *ior_norm_name(enum ior_norm n)
{
	return (unsigned)n < sizeof names / sizeof *names ? names[n] : "?";
}

int ior_norm_factor(enum ior_norm n, const struct ior_norm_side *base, const struct ior_norm_side *new_,
		    const char *metric, double *f, char *err, size_t errlen)
{
	*f = 1.0;
	if (n == IOR_NORM_RATE) {
		if (!base->span_ns || !new_->span_ns) {
			const struct ior_norm_side *zero = !base->span_ns ? base : new_;
			snprintf(err, errlen, "%s spans 0 s (%s): a rate needs time; use -normalize=total or share",
				 zero == base ? "BASE" : "NEW",
				 zero->total ? "its pairs share one instant" : "it has no pairs");
			return -EINVAL;
		}
		*f = (double)new_->span_ns / (double)base->span_ns;
	} else if (n == IOR_NORM_SHARE) {
		if (!base->total || !new_->total) {
			snprintf(err, errlen, "%s weighs 0 by %s: shares of nothing do not compare; use -normalize=total",
				 !base->total ? "BASE" : "NEW", metric);
			return -EINVAL;
		}
		*f = (double)new_->total / (double)base->total;
	}
	return 0;
}

uint64_t ior_norm_scale(uint64_t v, double f)
{
	double s = (double)v * f;

	if (!(s >= 0)) /* NaN or negative: a factor is never either */
		return 0;
	return s >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)llround(s);
}
