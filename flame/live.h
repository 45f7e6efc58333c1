/* The live flamegraph of ior -live: pairs are aggregated in memory as they
 * are paired (the same aggregation as -ior=FILE, bounded by
 * IOR_FLAME_LIVE_MAX_KEYS / _MAX_STRING_BYTES and IOR_FLAME_MAX_FRAMES
 * with an "(other)" frame beyond), and the SVG is regenerated from the aggregate at most once per
 * interval, and only when pairs arrived since the last one: a tree build
 * and an SVG write cost tens of milliseconds at the key bound, taken on
 * the trace thread, so this keeps them to a small, bounded share of it.
 *
 * Single-threaded; nothing here prints. */
#ifndef IOR_FLAME_LIVE_H
#define IOR_FLAME_LIVE_H

#include <stddef.h>
#include <stdint.h>

#include "flame/flame.h"
#include "pair/sink.h"

#define IOR_FLAME_LIVE_MAX_KEYS IOR_FLAME_MAX_KEYS
#define IOR_FLAME_LIVE_MAX_STRING_BYTES IOR_FLAME_MAX_STRING_BYTES

struct ior_flame_live_cfg {
	struct ior_flame_spec spec;
	const char *host;           /* shown in the SVG; copied; may be NULL */
	int64_t realtime_offset_ns; /* CLOCK_REALTIME - CLOCK_MONOTONIC; 0: unknown */
	uint64_t interval_ns;       /* least time between two renders */
	uint32_t max_keys;          /* 0: IOR_FLAME_LIVE_MAX_KEYS */
	/* -baseline: the SVG is the diff of the live aggregate (NEW) against
	 * this tree (BASE, the caller's, same spec; flame/diff.h), normalized
	 * by norm; until the two compare (a live span of 0 s, a total of 0),
	 * the live graph alone. NULL: none. */
	const struct ior_flame_tree *baseline;
	const char *baseline_name;
	enum ior_norm norm;
	size_t max_string_bytes;    /* 0: IOR_FLAME_LIVE_MAX_STRING_BYTES */
};

struct ior_flame_live;

int ior_flame_live_new(struct ior_flame_live **l, const struct ior_flame_live_cfg *cfg);
/* One pair; -ENOMEM when it could not be counted. */
int ior_flame_live_add(struct ior_flame_live *l, const struct ior_event_pair *p);
/* A sink adding every pair; what it could not count is
 * ior_flame_live_failed's. */
struct ior_sink ior_flame_live_sink(struct ior_flame_live *l);
uint64_t ior_flame_live_failed(const struct ior_flame_live *l);
/* Renders the SVG when due: on the first call, then when interval_ns has
 * passed since the last render and pairs were added since. Returns 1 when
 * a new SVG is ready (ior_flame_live_svg), 0 when not due, or a negative
 * errno (the old SVG stays; the next try waits for the interval). */
int ior_flame_live_tick(struct ior_flame_live *l, uint64_t now_ns);
/* The last rendered SVG (NULL before the first), owned by l. */
const char *ior_flame_live_svg(const struct ior_flame_live *l, size_t *len);
const struct ior_flame_agg *ior_flame_live_agg(const struct ior_flame_live *l);
/* With a baseline: why the last SVG was not a diff ("" when it was). */
const char *ior_flame_live_diff_error(const struct ior_flame_live *l);
void ior_flame_live_free(struct ior_flame_live *l);

#endif
