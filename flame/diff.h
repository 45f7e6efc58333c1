/* Differential flame graphs: BASE (a good day) against NEW (the incident).
 * The two trees of the same -fields and -count are merged frame by frame
 * (children are sorted by name in both, so one pass); the result is an
 * ordinary tree whose widths are NEW's, with each frame's BASE value and
 * self beside it (tree->base), scaled into NEW's units by the
 * normalization, so the two compare:
 *   rate   per second of each recording's span (the default: captures of
 *          different lengths compare)
 *   total  as recorded
 *   share  as fractions of each total
 * Frames only in BASE have width 0 in NEW: they stay in the tree (the
 * folded diff and the SVG's "gone" legend show them). */
#ifndef IOR_FLAME_DIFF_H
#define IOR_FLAME_DIFF_H

#include <stddef.h>

#include "flame/flame.h"

/* The merged tree of base and new (same spec), into *out; names say which
 * file is which (copied). -EINVAL with why in err when the normalization
 * cannot be done (a span of 0 s for rate, a total of 0 for share), or
 * -ENOMEM. */
int ior_flame_diff(const struct ior_flame_tree *base, const struct ior_flame_tree *new_,
		   enum ior_norm norm, const char *base_name, const char *new_name,
		   struct ior_flame_tree **out, char *err, size_t errlen);

/* Change of a frame in percent of its BASE value; for a frame new in NEW
 * (base 0) +100 when it has a value. */
double ior_flame_diff_pct(uint64_t base, uint64_t new_);

#endif
