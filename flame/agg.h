/* What the frame tree reads from an aggregation (flame/agg.c, read by
 * flame/tree.c). Internal to flame/. */
#ifndef IOR_FLAME_AGG_H
#define IOR_FLAME_AGG_H

#include "flame.h"

/* What a key sums: the metric, and beside it the pairs' durationNs and
 * device time (for the share of the device a frame shows, whatever the
 * metric). */
struct ior_flame_sums {
	uint64_t value, time_ns, device_ns;
};

/* Calls fn for every distinct key with its sums, in no particular
 * order: key[i] is the key word of the spec's field i (field.h; a text
 * field's word is an id for ior_flame_agg_string). Stops at the first
 * nonzero return of fn and returns it. */
int ior_flame_agg_each(const struct ior_flame_agg *a,
		       int (*fn)(void *ctx, const uint64_t *key, const struct ior_flame_sums *sums), void *ctx);
const char *ior_flame_agg_string(const struct ior_flame_agg *a, uint64_t id);
const struct ior_flame_spec *ior_flame_agg_spec(const struct ior_flame_agg *a);
/* The sums of the pairs counted in IOR_FLAME_OTHER. */
struct ior_flame_sums ior_flame_agg_other_sums(const struct ior_flame_agg *a);

static inline uint64_t ior_flame_sat_add(uint64_t a, uint64_t b)
{
	uint64_t s = a + b;
	return s < a ? UINT64_MAX : s;
}

#endif
