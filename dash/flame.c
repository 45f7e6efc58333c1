/* The Flame tab: the flamegraph of the trace (flame/'s aggregate and
 * frame tree) as an icicle of screen cells, the root on top. The tree is
 * rebuilt at most once a second while the tab is shown (a build costs up
 * to tens of ms at the aggregate's bounds). `o` and `m` need a new
 * aggregate: a recording is replayed into it; live it starts from the
 * Stream's ring.
 * The cursor and the zoom are frame paths, so they survive rebuilds. */
#include "dash_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define BUILD_NS 1000000000ull

static const char *const orders[] = {
	"comm,path,tracepoint", "tracepoint,comm,path", "path,tracepoint,comm", "comm,tracepoint,path",
	"tracepoint,path,comm", "path,comm,tracepoint", "pid,comm,tracepoint",
};
#define NORDERS (int)(sizeof orders / sizeof orders[0])

static void replay_add(void *ctx, const struct ior_event_pair *p)
{
	struct ior_dash *d = ctx;

	ior_flame_agg_add(d->flame.agg, p);
}

/* A fresh aggregate for the current order, metric and pick; live, it
 * counts from now unless it is the first. */
static int new_agg(struct ior_dash *d, int first)
{
	struct dash_flame *f = &d->flame;
	enum ior_flame_metric m = f->spec.metric;
	char err[128];
	int r;

	ior_flame_agg_free(f->agg);
	ior_flame_tree_free(f->tree);
	f->agg = NULL;
	f->tree = NULL;
	if ((r = ior_flame_spec_parse(&f->spec, orders[f->order], ior_flame_metric_name(m), err, sizeof err)) < 0)
		return f->err = r;
	f->spec.pid = d->pick_pid;
	if ((r = ior_flame_agg_new(&f->agg, &f->spec)) < 0)
		return f->err = r;
	ior_flame_agg_set_bounds(f->agg);
	f->late = !d->replay && !first;
	if (d->replay)
		d->replay(d->replay_ctx, replay_add, d);
	else if (f->late)
		ior_dash_ring_replay(d, replay_add, d);
	f->seeded = f->late ? ior_flame_agg_pairs(f->agg) : 0;
	return f->err = 0;
}

int ior_dash_flame_init(struct ior_dash *d)
{
	snprintf(d->flame.sel_path, sizeof d->flame.sel_path, "all");
	snprintf(d->flame.zoom_path, sizeof d->flame.zoom_path, "all");
	d->flame.spec.metric = IOR_METRIC_COUNT;
	return new_agg(d, 1);
}

void ior_dash_flame_free(struct ior_dash *d)
{
	ior_flame_agg_free(d->flame.agg);
	ior_flame_tree_free(d->flame.tree);
}

void ior_dash_flame_add(struct ior_dash *d, const struct ior_event_pair *p)
{
	if (d->flame.agg)
		ior_flame_agg_add(d->flame.agg, p); /* past its bounds: "(other)" */
}

void ior_dash_flame_reset(struct ior_dash *d)
{
	new_agg(d, 0);
}

/* ---- frame paths -------------------------------------------------------- */

static const struct ior_flame_node *node(const struct dash_flame *f, uint32_t n)
{
	return &f->tree->nodes[n];
}

static uint32_t child_named(const struct dash_flame *f, uint32_t n, const char *name, size_t len)
{
	for (uint32_t i = 0; i < node(f, n)->nchild; i++) {
		uint32_t c = f->tree->kids[node(f, n)->child0 + i];
		const char *cn = ior_flame_node_name(f->tree, c);
		if (strlen(cn) == len && !memcmp(cn, name, len))
			return c;
	}
	return UINT32_MAX;
}

/* The deepest node along "all;a;b" (names never hold ';': flame/flame.h). */
static uint32_t resolve(const struct dash_flame *f, const char *path)
{
	uint32_t n = 0, c;
	const char *p = strchr(path, ';');

	while (p) {
		const char *end = strchr(p + 1, ';');
		size_t len = end ? (size_t)(end - p - 1) : strlen(p + 1);
		if ((c = child_named(f, n, p + 1, len)) == UINT32_MAX)
			break;
		n = c;
		p = end;
	}
	return n;
}

static void path_of(const struct dash_flame *f, uint32_t n, char *buf, size_t len)
{
	uint32_t chain[256], k = 0;
	size_t o = 0;

	for (; n && k < 256; n = node(f, n)->parent)
		chain[k++] = n;
	o = (size_t)snprintf(buf, len, "all");
	while (k-- && o < len)
		o += (size_t)snprintf(buf + o, len - o, ";%s", ior_flame_node_name(f->tree, chain[k]));
}

/* The tree again when due; the cursor and zoom found in it. */
static void build(struct ior_dash *d)
{
	struct dash_flame *f = &d->flame;
	uint64_t pairs = f->agg ? ior_flame_agg_pairs(f->agg) : 0;
	int r;

	if (!f->agg || (f->tree && (pairs == f->built_pairs || d->now_ns - f->built_ns < BUILD_NS)))
		return;
	ior_flame_tree_free(f->tree);
	f->tree = NULL;
	if ((r = ior_flame_tree_build(f->agg, &f->tree)) < 0) {
		f->err = r;
		return;
	}
	f->built_pairs = pairs;
	f->built_ns = d->now_ns;
	f->zoom = resolve(f, f->zoom_path);
	f->sel = resolve(f, f->sel_path);
}

/* ---- keys ---------------------------------------------------------------- */

static int is_under(const struct dash_flame *f, uint32_t n, uint32_t top)
{
	for (; n != top; n = node(f, n)->parent)
		if (!n)
			return 0;
	return 1;
}

static uint32_t widest_child(const struct dash_flame *f, uint32_t n)
{
	uint32_t best = n;

	for (uint32_t i = 0; i < node(f, n)->nchild; i++) {
		uint32_t c = f->tree->kids[node(f, n)->child0 + i];
		if (best == n || node(f, c)->value > node(f, best)->value)
			best = c;
	}
	return best;
}

/* The sibling dir (-1, +1) away in name order, as drawn. */
static uint32_t sibling(const struct dash_flame *f, uint32_t n, int dir)
{
	const struct ior_flame_node *p = node(f, node(f, n)->parent);
	uint32_t i = 0;

	while (i < p->nchild && f->tree->kids[p->child0 + i] != n)
		i++;
	if ((dir < 0 && i == 0) || (dir > 0 && i + 1 >= p->nchild))
		return n;
	return f->tree->kids[p->child0 + i + (uint32_t)dir];
}

static int move(struct dash_flame *f, int code)
{
	switch (code) {
	case IOR_TUI_KEY_UP: f->sel = f->sel == f->zoom ? f->sel : node(f, f->sel)->parent; break;
	case IOR_TUI_KEY_DOWN: f->sel = widest_child(f, f->sel); break;
	case IOR_TUI_KEY_LEFT:
	case IOR_TUI_KEY_RIGHT: f->sel = f->sel == f->zoom ? f->sel : sibling(f, f->sel, code == IOR_TUI_KEY_LEFT ? -1 : 1); break;
	case IOR_TUI_KEY_ENTER: f->zoom = f->sel; break;
	case IOR_TUI_KEY_BACKSPACE: f->zoom = node(f, f->zoom)->parent; break;
	case IOR_TUI_KEY_HOME: f->zoom = f->sel = 0; break;
	default: return 0;
	}
	if (!is_under(f, f->sel, f->zoom))
		f->sel = f->zoom;
	path_of(f, f->zoom, f->zoom_path, sizeof f->zoom_path);
	path_of(f, f->sel, f->sel_path, sizeof f->sel_path);
	return 1;
}

int ior_dash_flame_key(struct ior_dash *d, const struct ior_tui_key *k)
{
	struct dash_flame *f = &d->flame;

	if (d->tab != IOR_DASH_FLAME)
		return 0;
	if (k->code == 'o' || k->code == 'm') {
		if (k->code == 'o') {
			f->order = (f->order + 1) % NORDERS;
			snprintf(f->sel_path, sizeof f->sel_path, "all");
			snprintf(f->zoom_path, sizeof f->zoom_path, "all");
		} else
			f->spec.metric = (enum ior_flame_metric)((f->spec.metric + 1) % 4);
		new_agg(d, 0);
		return 1;
	}
	return f->tree && move(f, k->code);
}

/* ---- drawing ------------------------------------------------------------- */

struct icicle {
	struct ior_dash *d;
	struct ior_tui_screen *s;
	int top, height;
	uint32_t depth0; /* the zoom's depth, drawn on row top */
};

static struct ior_tui_style frame_style(const struct dash_flame *f, uint32_t n, uint32_t i)
{
	static const uint8_t warm[] = { IOR_TUI_RED, IOR_TUI_YELLOW, IOR_TUI_MAGENTA };

	if (n == f->sel)
		return IOR_DASH_REV;
	return (struct ior_tui_style){ 0, IOR_TUI_BLACK, warm[(node(f, n)->depth + i) % 3] };
}

/* Frame n in columns [x, x + w) of its row, its children below it. */
static void draw_node(struct icicle *ic, uint32_t n, uint32_t i, double x, double w)
{
	const struct dash_flame *f = &ic->d->flame;
	const struct ior_flame_node *nd = node(f, n);
	int row = ic->top + (int)(nd->depth - ic->depth0), c0 = (int)(x + 0.5), c1 = (int)(x + w + 0.5);
	const char *name = ior_flame_node_name(f->tree, n);
	double cx = x;

	if (row >= ic->top + ic->height || c1 - c0 < 1)
		return;
	ior_tui_fill(ic->s, row, c0, 1, c1 - c0 - (c1 - c0 > 1), frame_style(f, n, i), " ");
	ior_tui_putn(ic->s, row, c0, c1 - c0 - 1, frame_style(f, n, i), IOR_TUI_ELLIPSIS, name, strlen(name));
	for (uint32_t k = 0; k < nd->nchild && nd->value; k++) {
		uint32_t c = f->tree->kids[nd->child0 + k];
		double cw = w * (double)node(f, c)->value / (double)nd->value;
		draw_node(ic, c, k, cx, cw);
		cx += cw;
	}
}

static void draw_status(struct ior_dash *d, struct ior_tui_screen *s, int row)
{
	const struct dash_flame *f = &d->flame;
	const struct ior_flame_node *sel = node(f, f->sel);
	double all = (double)node(f, 0)->value, zoom = (double)node(f, f->zoom)->value;
	char v[64], path[NAME_MAX_BYTES];

	path_of(f, f->sel, path, sizeof path); /* not sel_path: it may name a frame not there (yet) */
	ior_flame_format_value(v, sizeof v, f->spec.metric, sel->value);
	ior_tui_putf(s, row, 0, s->cols, IOR_DASH_BOLD, IOR_TUI_KEEP_END, "%s  %s  %.1f%% of all, %.1f%% of the zoom",
		     path, v, all > 0 ? 100.0 * (double)sel->value / all : 0.0,
		     zoom > 0 ? 100.0 * (double)sel->value / zoom : 0.0);
}

static void draw_head(struct ior_dash *d, struct ior_tui_screen *s, int row)
{
	const struct dash_flame *f = &d->flame;
	char late[96] = "";

	if (f->late)
		snprintf(late, sizeof late, "; from the Stream's last %llu pairs on", (unsigned long long)f->seeded);
	ior_tui_putf(s, row, 0, s->cols, IOR_DASH_PLAIN, IOR_TUI_ELLIPSIS, "by %s, %s (o order, m metric)%s%s",
		     orders[f->order], ior_flame_metric_name(f->spec.metric), late,
		     f->zoom ? "; zoomed: Backspace out" : "");
}

void ior_dash_draw_flame(struct ior_dash *d, struct ior_tui_screen *s, int top, int height)
{
	struct dash_flame *f = &d->flame;

	build(d);
	draw_head(d, s, top);
	if (!f->tree || f->err) {
		ior_tui_putf(s, top + 1, 0, s->cols, IOR_DASH_BOLD, 0, "no flamegraph: %s",
			     f->err ? strerror(-f->err) : "no pairs yet");
		return;
	}
	draw_status(d, s, top + 1);
	if (!node(f, 0)->value) {
		ior_tui_put(s, top + 3, 2, s->cols - 2, IOR_DASH_PLAIN, "no pairs yet");
		return;
	}
	struct icicle ic = { d, s, top + 2, height - 2, node(f, f->zoom)->depth };
	draw_node(&ic, f->zoom, 0, 0, (double)s->cols);
}
