/* What the frame tree reads from an aggregation (flame/agg.c, read by
 * flame/tree.c). Internal to flame/. */
#ifndef IOR_FLAME_AGG_H
#define IOR_FLAME_AGG_H

#include "flame.h"

/* Calls fn for every distinct key with its metric sum, in no particular
 * order: key[i] is the key word of the spec's field i (field.h; a text
 * field's word is an id for ior_flame_agg_string). Stops at the first
 * nonzero return of fn and returns it. */
int ior_flame_agg_each(const struct ior_flame_agg *a,
		       int (*fn)(void *ctx, const uint64_t *key, uint64_t value), void *ctx);
const char *ior_flame_agg_string(const struct ior_flame_agg *a, uint64_t id);
const struct ior_flame_spec *ior_flame_agg_spec(const struct ior_flame_agg *a);
/* The sum of the pairs counted in IOR_FLAME_OTHER. */
uint64_t ior_flame_agg_other_value(const struct ior_flame_agg *a);

static inline uint64_t ior_flame_sat_add(uint64_t a, uint64_t b)
{
	uint64_t s = a + b;
	return s < a ? UINT64_MAX : s;
}

#endif
