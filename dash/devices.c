/* The Devices tab: the statistics' device table (stats/devices.h, the
 * one -summary prints) as a sorted table, one row per device and op;
 * under it, for the selected row, its device-time histogram by powers of
 * two (biolatency's) and the processes and files that waited on it.
 * Device names are the caller's (a recording's) or this host's sysfs;
 * either way drawn as hostile text. Block requests are per device: a
 * picked process does not narrow them. */
#include "dash_int.h"
#include "pair/devname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R IOR_TUI_RIGHT
static const struct ior_tui_column dev_cols[DEV_NCOLS] = {
	{ "device", 12, IOR_TUI_ELLIPSIS }, { "op", 7, 0 }, { "requests", 10, R }, { "bytes", 12, R },
	{ "errors", 6, R }, { "in-syscalls", 11, R }, { "syscall-bytes", 13, R },
	{ "d-min", 7, R }, { "d-p50", 7, R }, { "d-p95", 7, R }, { "d-p99", 7, R }, { "d-max", 7, R },
	{ "q-min", 7, R }, { "q-p50", 7, R }, { "q-p95", 7, R }, { "q-p99", 7, R }, { "q-max", 7, R },
};
#undef R
#define LAT0 7 /* the first latency column: device, then queue */

/* min, p50, p95, p99, max of h into v[0..5). */
static void lat5(const struct ior_hist *h, uint64_t *v)
{
	static const double q[3] = { 50, 95, 99 };

	ior_hist_percentiles(h, q, v + 1, 3);
	v[0] = h->count ? h->min : 0;
	v[4] = h->max;
}

const char *ior_dash_dev_name(struct ior_dash *d, uint32_t dev)
{
	struct dash_devname *c = d->devnames;

	if (d->dev_name)
		return d->dev_name(d->dev_ctx, dev);
	for (unsigned i = 0; i < d->ndevnames; i++)
		if (c[i].dev == dev)
			return c[i].name;
	/* this host's, read once: sysfs is not read at every frame */
	unsigned i = d->ndevnames < DEV_NAMES ? d->ndevnames++ : dev % DEV_NAMES;
	c[i].dev = dev;
	return ior_devname(dev, c[i].name, sizeof c[i].name);
}

static void fill(struct ior_dash *d, struct dash_dev *x, const struct ior_dev_row *r)
{
	x->row = r;
	snprintf(x->name, sizeof x->name, "%s", ior_dash_dev_name(d, r->dev));
	x->v[2] = r->requests, x->v[3] = r->bytes, x->v[4] = r->errors;
	x->v[5] = r->in_pairs, x->v[6] = r->in_pairs_bytes;
	lat5(&r->device, x->v + LAT0);
	lat5(&r->queue, x->v + LAT0 + 5);
}

static int dev_sort_col;
static int dev_sort_asc;

static int cmp_rows(const void *a, const void *b)
{
	const struct dash_dev *x = a, *y = b;
	int c = 0;

	if (dev_sort_col == 0)
		c = strcmp(x->name, y->name);
	else if (dev_sort_col == 1)
		c = (int)x->row->op - (int)y->row->op;
	else if (x->v[dev_sort_col] != y->v[dev_sort_col])
		c = x->v[dev_sort_col] < y->v[dev_sort_col] ? -1 : 1;
	if (!dev_sort_asc)
		c = -c;
	if (!c) /* ties: the summary's order */
		c = x->row->dev != y->row->dev ? (x->row->dev < y->row->dev ? -1 : 1) : (int)x->row->op - (int)y->row->op;
	return c;
}

void ior_dash_devices_select(struct ior_dash *d)
{
	struct ior_devices *t = ior_stats_devices(d->all);

	d->ndevs = 0;
	for (unsigned i = 0; i < t->n && d->ndevs < IOR_DEV_MAX_ROWS; i++)
		if (t->rows[i].requests)
			fill(d, &d->devs[d->ndevs++], &t->rows[i]);
	dev_sort_col = d->dev_sort;
	dev_sort_asc = d->dev_asc;
	qsort(d->devs, d->ndevs, sizeof *d->devs, cmp_rows);
	d->dev_table.nrows = d->ndevs;
	d->dev_table.sort_col = d->dev_sort;
	d->dev_table.sort_desc = !d->dev_asc;
}

static const char *num(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

static const char *dev_cell(void *ctx, size_t row, int col, char *buf, size_t len)
{
	struct ior_dash *d = ctx;
	const struct dash_dev *x = row < d->ndevs ? &d->devs[row] : NULL;

	if (!x || col >= DEV_NCOLS)
		return NULL;
	if (col == 0)
		return x->name;
	if (col == 1)
		return ior_blk_op_name(x->row->op);
	if (col < LAT0)
		return num(buf, len, x->v[col]);
	/* a row of never-issued requests only (a flush sequence's) has no latency */
	return (col < LAT0 + 5 ? x->row->device.count : x->row->queue.count) ? ior_dash_ns(d, buf, len, x->v[col]) : "-";
}

void ior_dash_devices_init(struct ior_dash *d)
{
	d->dev_table = (struct ior_tui_table){ .cols = dev_cols, .ncols = DEV_NCOLS, .cell = dev_cell, .ctx = d,
					       .sort_col = 0, .show_selection = 1, .head = IOR_DASH_HEAD,
					       .body = IOR_DASH_PLAIN, .sel = IOR_DASH_REV };
	d->dev_asc = 1; /* by device, then op: the summary's order */
}

int ior_dash_devices_key(struct ior_dash *d, const struct ior_tui_key *k)
{
	if (d->tab != IOR_DASH_DEVICES)
		return 0;
	if (k->code == '<' || k->code == '>') {
		d->dev_sort = (d->dev_sort + (k->code == '<' ? DEV_NCOLS - 1 : 1)) % DEV_NCOLS;
		d->dev_asc = d->dev_sort < 2; /* names A..Z, numbers most first */
		return 1;
	}
	if (k->code == 'R') {
		d->dev_asc = !d->dev_asc;
		return 1;
	}
	return 0;
}

/* "1µs/2µs/..." of v[0..5), "-" when h is empty. */
static void lat_line(struct ior_dash *d, char *buf, size_t len, const struct ior_hist *h, const uint64_t *v)
{
	char a[5][32];

	if (!h->count) {
		snprintf(buf, len, "-");
		return;
	}
	for (int i = 0; i < 5; i++)
		ior_dash_ns(d, a[i], sizeof a[i], v[i]);
	snprintf(buf, len, "%s/%s/%s/%s/%s", a[0], a[1], a[2], a[3], a[4]);
}

/* The processes or files of a row, most requests first as kept. */
static int draw_who(struct ior_tui_screen *s, int row, int col, int width, int end,
		    const char *title, const struct ior_dev_who *w, unsigned n)
{
	char b[32];

	ior_tui_put(s, row++, col, width - 1, IOR_DASH_HEAD, title);
	for (unsigned i = 0; i <= n && i <= IOR_DEV_TOP && row < end; i++) {
		if (!w[i].requests)
			continue;
		ior_tui_putf(s, row, col, 10, IOR_DASH_PLAIN, IOR_TUI_RIGHT, "%llu", (unsigned long long)w[i].requests);
		ior_tui_putn(s, row, col + 11, 12, IOR_DASH_PLAIN, IOR_TUI_RIGHT, b, strlen(num(b, sizeof b, w[i].bytes)));
		if (w[i].pid)
			ior_tui_putf(s, row, col + 24, width - 25, IOR_DASH_PLAIN, IOR_TUI_ELLIPSIS, "%u %.*s", w[i].pid,
				     (int)strnlen(w[i].name, sizeof w[i].name), w[i].name);
		else
			ior_tui_putn(s, row, col + 24, width - 25, IOR_DASH_PLAIN, IOR_TUI_KEEP_END, w[i].name,
				     strnlen(w[i].name, sizeof w[i].name));
		row++;
	}
	return row;
}

/* The selected row: its latencies, histogram, processes and files. */
static void draw_detail(struct ior_dash *d, struct ior_tui_screen *s, int top, int height, const struct dash_dev *x)
{
	const struct ior_dev_row *r = x->row;
	int wide = s->cols >= 100, w = wide ? s->cols / 2 : s->cols, end = top + height;
	int hh = wide ? height - 2 : (height - 2) / 2;
	char q[200], v[200], title[200];

	lat_line(d, v, sizeof v, &r->device, x->v + LAT0);
	lat_line(d, q, sizeof q, &r->queue, x->v + LAT0 + 5);
	ior_tui_putf(s, top, 0, s->cols, IOR_DASH_BOLD, IOR_TUI_ELLIPSIS, "%s %s: device %s  queue %s (min/p50/p95/p99/max)",
		     x->name, ior_blk_op_name(r->op), v, q);
	snprintf(title, sizeof title, "device time of %s %s", x->name, ior_blk_op_name(r->op));
	ior_dash_draw_hist(d, s, top + 1, 0, w, hh, &r->device, title, "requests");
	int row = wide ? top + 1 : top + 1 + hh, col = wide ? w : 0, cw = wide ? s->cols - w : s->cols;
	row = draw_who(s, row, col, cw, end, "requests      bytes  process", r->procs, r->nprocs);
	if (row < end)
		draw_who(s, row, col, cw, end, "requests      bytes  file", r->files, r->nfiles);
}

void ior_dash_draw_devices(struct ior_dash *d, struct ior_tui_screen *s, int top, int height)
{
	ior_dash_devices_select(d);
	if (!d->ndevs) {
		ior_tui_put(s, top + 1, 2, s->cols - 2, IOR_DASH_PLAIN,
			    "No block requests (yet): none completed, or the trace has none (-noblock, a kernel without the block tracepoints).");
		return;
	}
	if (d->pick_pid >= 0) {
		ior_tui_put(s, top, 0, s->cols, IOR_DASH_BOLD, "every process's requests: a device is not narrowed by a pick");
		top++, height--;
	}
	int th = (int)d->ndevs + 1 < height / 2 ? (int)d->ndevs + 1 : height / 2;
	if (th < 2)
		th = height < 2 ? height : 2;
	ior_tui_table_draw(&d->dev_table, s, top, 0, th, s->cols);
	if (height - th - 1 >= 3)
		draw_detail(d, s, top + th + 1, height - th - 1, &d->devs[d->dev_table.selected]);
}
