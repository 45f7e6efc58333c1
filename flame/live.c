/* The live flamegraph: an aggregation plus a rate-limited SVG render
 * (see live.h for why the render is rate-limited). */
#include "flame/diff.h"
#include "flame/live.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ior_flame_live {
	struct ior_flame_agg *agg;
	char *host;
	int64_t realtime_offset_ns;
	uint64_t interval_ns;
	bool tried;                /* a render was attempted */
	uint64_t last_try_ns;
	uint64_t rendered_pairs;   /* pairs aggregated at the last try */
	char *svg;
	size_t len;
	const struct ior_flame_tree *baseline;
	char *baseline_name;
	enum ior_norm norm;
	char diff_err[256];
	uint64_t failed;           /* pairs the sink could not count (no memory) */
};

int ior_flame_live_new(struct ior_flame_live **lp, const struct ior_flame_live_cfg *cfg)
{
	struct ior_flame_live *l = calloc(1, sizeof *l);
	*lp = NULL;
	if (!l)
		return -ENOMEM;
	int rc = ior_flame_agg_new(&l->agg, &cfg->spec);
	if (!rc && cfg->host && !(l->host = strdup(cfg->host)))
		rc = -ENOMEM;
	if (!rc && cfg->baseline && !(l->baseline_name = strdup(cfg->baseline_name ? cfg->baseline_name : "baseline")))
		rc = -ENOMEM;
	l->baseline = cfg->baseline;
	l->norm = cfg->norm;
	if (rc) {
		ior_flame_live_free(l);
		return rc;
	}
	ior_flame_agg_set_limits(l->agg, cfg->max_keys ? cfg->max_keys : IOR_FLAME_LIVE_MAX_KEYS,
				 cfg->max_string_bytes ? cfg->max_string_bytes : IOR_FLAME_LIVE_MAX_STRING_BYTES);
	ior_flame_agg_set_max_frames(l->agg, IOR_FLAME_MAX_FRAMES);
	l->realtime_offset_ns = cfg->realtime_offset_ns;
	l->interval_ns = cfg->interval_ns;
	*lp = l;
	return 0;
}

int ior_flame_live_add(struct ior_flame_live *l, const struct ior_event_pair *p)
{
	return ior_flame_agg_add(l->agg, p);
}

static void sink_pair(void *ctx, const struct ior_event_pair *p)
{
	struct ior_flame_live *l = ctx;

	if (ior_flame_agg_add(l->agg, p) < 0)
		l->failed++;
}

struct ior_sink ior_flame_live_sink(struct ior_flame_live *l)
{
	return (struct ior_sink){ sink_pair, NULL, l, NULL };
}

uint64_t ior_flame_live_failed(const struct ior_flame_live *l)
{
	return l->failed;
}

static uint64_t to_realtime(const struct ior_flame_live *l, uint64_t mono)
{
	if (!l->realtime_offset_ns || !mono)
		return 0;
	int64_t r = (int64_t)mono + l->realtime_offset_ns;
	return r > 0 ? (uint64_t)r : 0;
}

/* With a baseline, the diff of t against it in place of t. */
static struct ior_flame_tree *against_baseline(struct ior_flame_live *l, struct ior_flame_tree *t)
{
	struct ior_flame_tree *d = NULL;

	l->diff_err[0] = 0;
	if (!l->baseline || ior_flame_diff(l->baseline, t, l->norm, l->baseline_name, "live", &d, l->diff_err,
					   sizeof l->diff_err))
		return t;
	d->meta.host = t->meta.host;
	d->meta.first_realtime_ns = t->meta.first_realtime_ns;
	d->meta.last_realtime_ns = t->meta.last_realtime_ns;
	ior_flame_tree_free(t);
	return d;
}

static int render(struct ior_flame_live *l)
{
	struct ior_flame_tree *t;
	int rc = ior_flame_tree_build(l->agg, &t);
	if (rc)
		return rc;
	uint64_t first, last;
	ior_flame_agg_span(l->agg, &first, &last);
	t->meta.host = l->host;
	t->meta.first_realtime_ns = to_realtime(l, first);
	t->meta.last_realtime_ns = to_realtime(l, last);
	t = against_baseline(l, t);
	char *body = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&body, &len);
	rc = m ? ior_flame_write_svg(t, m) : -ENOMEM;
	if (m && fclose(m) && !rc)
		rc = -ENOMEM;
	ior_flame_tree_free(t);
	if (rc) {
		free(body);
		return rc;
	}
	free(l->svg);
	l->svg = body;
	l->len = len;
	return 0;
}

int ior_flame_live_tick(struct ior_flame_live *l, uint64_t now_ns)
{
	uint64_t pairs = ior_flame_agg_pairs(l->agg);
	if (l->tried && (pairs == l->rendered_pairs || now_ns - l->last_try_ns < l->interval_ns))
		return 0;
	l->tried = true;
	l->last_try_ns = now_ns;
	l->rendered_pairs = pairs;
	int rc = render(l);
	return rc ? rc : 1;
}

const char *ior_flame_live_svg(const struct ior_flame_live *l, size_t *len)
{
	*len = l->svg ? l->len : 0;
	return l->svg;
}

const char *ior_flame_live_diff_error(const struct ior_flame_live *l)
{
	return l->diff_err;
}

const struct ior_flame_agg *ior_flame_live_agg(const struct ior_flame_live *l)
{
	return l->agg;
}

void ior_flame_live_free(struct ior_flame_live *l)
{
	if (!l)
		return;
	ior_flame_agg_free(l->agg);
	free(l->host);
	free(l->baseline_name);
	free(l->svg);
	free(l);
}
