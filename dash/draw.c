/* The dashboard's frame: a title line, the tab bar, the current tab, a
 * line of keys, and the help over it when asked. Every text from the
 * traced system goes through the screen's put (drawn '?' when hostile). */
#include "dash_int.h"
#include "stats/report.h"
#include "text/escape.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct ior_tui_style IOR_DASH_PLAIN = { 0, 0, 0 }, IOR_DASH_BOLD = { IOR_TUI_BOLD, 0, 0 },
			  IOR_DASH_REV = { IOR_TUI_REVERSE, 0, 0 },
			  IOR_DASH_HEAD = { IOR_TUI_BOLD | IOR_TUI_UNDERLINE, 0, 0 };
#define PLAIN IOR_DASH_PLAIN
#define BOLD IOR_DASH_BOLD
#define REV IOR_DASH_REV
#define HEAD IOR_DASH_HEAD

static const char *const tab_names[IOR_DASH_NTABS] = {
	"Overview", "Syscalls", "Files", "Processes", "In flight", "Latency", "Stream", "Flame", "Devices",
};
/* Below 90 columns (the bar in full): these fit 80. */
static const char *const short_names[IOR_DASH_NTABS] = {
	"Over", "Syscalls", "Files", "Procs", "Flight", "Latency", "Stream", "Flame", "Devices",
};

#define R IOR_TUI_RIGHT
static const struct dash_col syscall_cols[] = {
	{ { "syscall", 15, IOR_TUI_ELLIPSIS }, IOR_STATS_BY_NAME, V_NAME },
	{ { "calls", 9, R }, IOR_STATS_BY_PAIRS, V_PAIRS },
	{ { "rate/s", 8, R }, IOR_STATS_BY_PAIRS, V_RATE },
	{ { "errors", 7, R }, IOR_STATS_BY_ERRORS, V_ERRORS },
	{ { "bytes", 11, R }, IOR_STATS_BY_BYTES, V_BYTES },
	{ { "time", 8, R }, IOR_STATS_BY_TIME, V_TIME },
	{ { "min", 7, R }, IOR_STATS_BY_MIN, V_MIN },
	{ { "mean", 7, R }, IOR_STATS_BY_MEAN, V_MEAN },
	{ { "p50", 7, R }, IOR_STATS_BY_P50, V_P50 },
	{ { "p95", 7, R }, IOR_STATS_BY_P95, V_P95 },
	{ { "p99", 7, R }, IOR_STATS_BY_P99, V_P99 },
	{ { "max", 7, R }, IOR_STATS_BY_MAX, V_MAX },
};
static const struct dash_col file_cols[] = {
	{ { "file", 0, IOR_TUI_KEEP_END }, IOR_STATS_BY_NAME, V_NAME },
	{ { "accesses", 9, R }, IOR_STATS_BY_PAIRS, V_PAIRS },
	{ { "read", 11, R }, IOR_STATS_BY_READ, V_READ },
	{ { "written", 11, R }, IOR_STATS_BY_WRITTEN, V_WRITTEN },
	{ { "errors", 7, R }, IOR_STATS_BY_ERRORS, V_ERRORS },
	{ { "time", 8, R }, IOR_STATS_BY_TIME, V_TIME },
	{ { "max", 8, R }, IOR_STATS_BY_MAX, V_MAX },
};
/* Processes: these without tid. */
static const struct dash_col thread_cols[] = {
	{ { "pid", 7, R }, IOR_STATS_BY_PID, V_PID },
	{ { "tid", 7, R }, IOR_STATS_BY_TID, V_TID },
	{ { "comm", 15, 0 }, IOR_STATS_BY_COMM, V_COMM },
	{ { "syscalls", 9, R }, IOR_STATS_BY_PAIRS, V_PAIRS },
	{ { "errors", 6, R }, IOR_STATS_BY_ERRORS, V_ERRORS },
	{ { "read", 10, R }, IOR_STATS_BY_READ, V_READ },
	{ { "written", 10, R }, IOR_STATS_BY_WRITTEN, V_WRITTEN },
	{ { "time", 8, R }, IOR_STATS_BY_TIME, V_TIME },
	{ { "mean", 8, R }, IOR_STATS_BY_MEAN, V_MEAN },
};
/* -baseline: the change columns after each table's own (titles set as
 * drawn: "Δ" needs UTF-8). */
static const struct dash_col syscall_delta[] = {
	{ { "dtime", 9, R }, IOR_STATS_BY_TIME, V_DTIME },
	{ { "drate/s", 9, R }, IOR_STATS_BY_PAIRS, V_DRATE },
	{ { "dp99", 8, R }, IOR_STATS_BY_P99, V_DP99 },
};
static const struct dash_col file_delta[] = {
	{ { "dtime", 9, R }, IOR_STATS_BY_TIME, V_DTIME },
	{ { "drate/s", 9, R }, IOR_STATS_BY_PAIRS, V_DRATE },
	{ { "dmax", 8, R }, IOR_STATS_BY_MAX, V_DMAX },
};
static const struct dash_col thread_delta[] = {
	{ { "dtime", 9, R }, IOR_STATS_BY_TIME, V_DTIME },
	{ { "drate/s", 9, R }, IOR_STATS_BY_PAIRS, V_DRATE },
	{ { "dmean", 8, R }, IOR_STATS_BY_MEAN, V_DMEAN },
};
static const struct ior_tui_column flight_cols[] = {
	{ "age", 8, R }, { "pid", 7, R }, { "tid", 7, R }, { "comm", 15, 0 },
	{ "syscall/op", 14, 0 }, { "fd", 5, R }, { "file", 0, IOR_TUI_KEEP_END },
};
static const struct ior_tui_column stream_cols[] = {
	{ "time", 10, R }, { "comm", 15, 0 }, { "pid", 7, R }, { "syscall", 11, 0 },
	{ "ret", 7, R }, { "dur", 7, R }, { "file", 0, IOR_TUI_KEEP_END },
};
static const struct ior_tui_column pick_cols[] = {
	{ "pid", 7, R }, { "comm", 15, 0 }, { "pairs", 10, R }, { "time", 8, R },
};
#undef R
#define N(a) (int)(sizeof a / sizeof a[0])

static const char *view_cell(void *ctx, size_t row, int col, char *buf, size_t len);
static const char *flight_cell(void *ctx, size_t row, int col, char *buf, size_t len);
static const char *pick_cell(void *ctx, size_t row, int col, char *buf, size_t len);

static void table_init(struct ior_tui_table *t, const struct ior_tui_column *cols, int n,
		       const char *(*cell)(void *, size_t, int, char *, size_t), void *ctx)
{
	*t = (struct ior_tui_table){ .cols = cols, .ncols = n, .cell = cell, .ctx = ctx, .sort_col = -1,
				     .show_selection = 1, .head = HEAD, .body = PLAIN, .sel = REV };
}

/* A view of cols[0..n) but the column skip (-1: none), sorted by
 * cols[sort], then (with a baseline) the 3 change columns delta[]. */
static void view_init(struct ior_dash *d, struct dash_view *v, const struct dash_col *cols, int n, int skip,
		      int sort, const struct dash_col *delta)
{
	size_t selected = v->table.selected;

	v->ncols = 0;
	for (int i = 0; i < n + (d->base ? 3 : 0) && v->ncols < N(v->cols); i++)
		if (i != skip) {
			v->cols[v->ncols] = i < n ? cols[i] : delta[i - n];
			v->tcols[v->ncols] = v->cols[v->ncols].col;
			v->ncols++;
		}
	v->sort = sort > skip && skip >= 0 ? sort - 1 : sort;
	v->ascending = 0;
	table_init(&v->table, v->tcols, v->ncols, view_cell, d);
	v->table.selected = selected;
}

/* The tables and their default sort: time, most first. */
void ior_dash_views_init(struct ior_dash *d)
{
	if (!d->views[IOR_DASH_SYSCALLS].ncols) {
		view_init(d, &d->views[IOR_DASH_SYSCALLS], syscall_cols, N(syscall_cols), -1, 5, syscall_delta);
		view_init(d, &d->views[IOR_DASH_FILES], file_cols, N(file_cols), -1, 5, file_delta);
		table_init(&d->flight_table, flight_cols, N(flight_cols), flight_cell, d);
		memcpy(d->stream_tcols, stream_cols, sizeof stream_cols);
		table_init(&d->stream_table, d->stream_tcols, N(stream_cols), ior_dash_stream_cell, d);
		table_init(&d->pick_table, pick_cols, N(pick_cols), pick_cell, d);
	}
	view_init(d, &d->views[IOR_DASH_PROCESSES], thread_cols, N(thread_cols), d->threads ? -1 : 1, 7, thread_delta);
}

/* ---- cells ---------------------------------------------------------------- */

static const char *num(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

const char *ior_dash_ns(const struct ior_dash *d, char *buf, size_t len, uint64_t v)
{
	if (d->raw)
		return num(buf, len, v);
	ior_stats_format_ns(buf, len, v, d->ascii);
	return buf;
}
#define ns ior_dash_ns

/* Exact while it fits a table's 10 columns: totals a person compares. */
static const char *bytes(const struct ior_dash *d, char *buf, size_t len, uint64_t v)
{
	if (v < 10000000000ull || d->raw)
		return num(buf, len, v);
	ior_dash_format_bytes(buf, len, (double)v);
	return buf;
}

const char *ior_dash_syscall_name(unsigned sys)
{
	return ior_sys(sys)->name;
}

/* A percentile: "-" when not known (no pair seen in detail, or (other)). */
static const char *pct(const struct ior_dash *d, const struct ior_stats_row *r, uint64_t v, char *buf,
		       size_t len)
{
	return r->hist ? ns(d, buf, len, v) : "-";
}

static const char *row_value(const struct ior_dash *d, const struct ior_stats_row *r, enum dash_value v,
			     char *buf, size_t len)
{
	const struct ior_stats_sums *s = &r->sums;

	switch (v) {
	case V_NAME: return r->name;
	case V_PID: return strcmp(r->name, IOR_STATS_OTHER) ? num(buf, len, r->pid) : IOR_STATS_OTHER;
	case V_TID: return strcmp(r->name, IOR_STATS_OTHER) ? num(buf, len, r->tid) : "";
	case V_COMM: return r->comm;
	case V_PAIRS: return num(buf, len, s->pairs);
	case V_RATE:
		snprintf(buf, len, "%.1f", d->span_s > 0 ? (double)s->pairs / d->span_s : 0.0);
		return buf;
	case V_ERRORS: return num(buf, len, s->errors);
	case V_BYTES: return bytes(d, buf, len, s->bytes_read + s->bytes_written);
	case V_READ: return bytes(d, buf, len, s->bytes_read);
	case V_WRITTEN: return bytes(d, buf, len, s->bytes_written);
	case V_TIME: return ns(d, buf, len, s->time_ns);
	case V_MIN: return pct(d, r, r->min_ns, buf, len);
	case V_MEAN: return s->pairs ? ns(d, buf, len, r->mean_ns) : "-";
	case V_P50: return pct(d, r, r->p50_ns, buf, len);
	case V_P95: return pct(d, r, r->p95_ns, buf, len);
	case V_P99: return pct(d, r, r->p99_ns, buf, len);
	case V_MAX: return s->max_ns ? ns(d, buf, len, s->max_ns) : "-";
	case V_DTIME:
	case V_DRATE:
	case V_DP99:
	case V_DMAX:
	case V_DMEAN: return ior_dash_base_cell(d, r, v, buf, len);
	}
	return "";
}

static const char *view_cell(void *ctx, size_t row, int col, char *buf, size_t len)
{
	struct ior_dash *d = ctx;
	const struct dash_view *v = &d->views[d->tab];

	if (row >= d->nrows || col >= v->ncols)
		return NULL;
	return row_value(d, &d->rows[row], v->cols[col].v, buf, len);
}

static const char *flight_cell(void *ctx, size_t row, int col, char *buf, size_t len)
{
	struct ior_dash *d = ctx;
	const struct ior_in_flight *f = row < d->nflight ? &d->flight[row] : NULL;

	if (!f)
		return NULL;
	switch (col) {
	case 0: return ns(d, buf, len, d->now_ns > f->enter_ns ? d->now_ns - f->enter_ns : 0);
	case 1: return num(buf, len, f->pid);
	case 2: return num(buf, len, f->tid);
	case 3: return f->comm;
	case 4: return ior_dash_syscall_name(f->sys);
	case 5: return f->fd < 0 ? "-" : (snprintf(buf, len, "%d", (int)f->fd), buf);
	default: return f->path;
	}
}

static const char *pick_cell(void *ctx, size_t row, int col, char *buf, size_t len)
{
	struct ior_dash *d = ctx;
	const struct ior_stats_row *r = row < d->npick ? &d->pick_rows[row] : NULL;

	if (!r)
		return NULL;
	switch (col) {
	case 0: return row_value(d, r, V_PID, buf, len);
	case 1: return r->comm;
	case 2: return num(buf, len, r->sums.pairs);
	default: return ns(d, buf, len, r->sums.time_ns);
	}
}

/* ---- the sorted tables ------------------------------------------------------ */

static enum ior_stats_table stats_table(const struct ior_dash *d)
{
	if (d->tab == IOR_DASH_SYSCALLS)
		return IOR_STATS_SYSCALLS;
	if (d->tab == IOR_DASH_FILES)
		return IOR_STATS_FILES;
	return d->threads ? IOR_STATS_THREADS : IOR_STATS_PROCESSES;
}

/* Processes: every process's rows, the picked one's only after a pick
 * (exact: that table is kept from the start). */
static void keep_picked(struct ior_dash *d)
{
	unsigned kept = 0;

	for (unsigned i = 0; i < d->nrows; i++)
		if (d->rows[i].pid == (uint64_t)d->pick_pid && strcmp(d->rows[i].name, IOR_STATS_OTHER))
			d->rows[kept++] = d->rows[i];
	d->nrows = kept;
}

/* The rows of the current tab's table, (other) last when it holds pairs. */
int ior_dash_select_rows(struct ior_dash *d, struct dash_view *v)
{
	struct ior_stats *st = d->tab == IOR_DASH_PROCESSES ? d->all : d->stats;
	struct ior_stats_row other;
	struct ior_stats_totals t;
	int n;

	ior_stats_totals(st, &t);
	/* live: per second since the first pair; a recording: of its span */
	uint64_t end = d->in_flight && d->now_ns > t.last_ns ? d->now_ns : t.last_ns;
	d->span_s = end > t.first_ns ? (double)(end - t.first_ns) / 1e9 : 0;
	ior_dash_base_frame(d); /* an export may come before a frame */
	n = ior_stats_select(st, stats_table(d), v->cols[v->sort].by, v->ascending, d->rows, MAX_ROWS, &other);
	d->nrows = 0;
	if (n < 0)
		return n;
	d->nrows = (unsigned)n;
	if (other.sums.pairs)
		d->rows[d->nrows++] = other;
	if (st == d->all && d->pick_pid >= 0)
		keep_picked(d);
	if (d->tab == IOR_DASH_FILES && d->dirs)
		ior_dash_group_rows(d, v, d->nrows);
	if (v->cols[v->sort].v >= V_DTIME)
		return ior_dash_base_sort(d, v);
	return 0;
}

/* The row under the cursor is what the Latency tab will show. */
static void want_latency(struct ior_dash *d, const struct ior_stats_row *sel)
{
	struct lat_target *w = &d->lat_want;
	size_t n = sel ? strlen(sel->name) : 0;

	w->kind = LAT_ALL;
	w->name[0] = 0;
	if (!sel || !strcmp(sel->name, IOR_STATS_OTHER))
		return;
	if (d->tab == IOR_DASH_SYSCALLS)
		w->kind = LAT_SYSCALL, w->key = sel->key;
	else if (d->tab == IOR_DASH_PROCESSES)
		w->kind = d->threads ? LAT_TID : LAT_PID, w->key = d->threads ? sel->tid : sel->pid;
	else if (n < sizeof w->name) {
		w->kind = d->dirs && n && sel->name[n - 1] == '/' ? LAT_DIR : LAT_FILE;
		memcpy(w->name, sel->name, n + 1);
	}
}

void ior_dash_want_latency(struct ior_dash *d)
{
	struct dash_view *v = &d->views[d->tab];

	if ((d->tab == IOR_DASH_SYSCALLS || d->tab == IOR_DASH_FILES || d->tab == IOR_DASH_PROCESSES) &&
	    !ior_dash_select_rows(d, v))
		want_latency(d, v->table.selected < d->nrows ? &d->rows[v->table.selected] : NULL);
}

static const char *delta_title(enum dash_value v, int ascii)
{
	static const char *const utf8[] = { "Δtime", "Δrate/s", "Δp99", "Δmax", "Δmean" };
	static const char *const plain[] = { "dtime", "drate/s", "dp99", "dmax", "dmean" };

	return (ascii ? plain : utf8)[v - V_DTIME];
}

static int draw_view(struct ior_dash *d, struct ior_tui_screen *s, int top, int height)
{
	struct dash_view *v = &d->views[d->tab];
	int r = ior_dash_select_rows(d, v);

	v->table.nrows = d->nrows;
	for (int i = 0; i < v->ncols; i++) /* a change column says so with a delta */
		if (v->cols[i].v >= V_DTIME)
			v->tcols[i].title = delta_title(v->cols[i].v, d->ascii);
	v->table.sort_col = v->sort;
	v->table.sort_desc = !v->ascending;
	if (d->tab == IOR_DASH_FILES && d->dirs) {
		if (d->dirs == 2)
			ior_tui_put(s, top, 0, s->cols, BOLD, "by mount point (Enter opens one as a directory)");
		else
			ior_tui_putf(s, top, 0, s->cols, BOLD, IOR_TUI_KEEP_END, "by directory: %s", d->prefix);
		top++, height--;
	}
	ior_tui_table_draw(&v->table, s, top, 0, height, s->cols);
	want_latency(d, d->nrows ? &d->rows[v->table.selected] : NULL);
	if (r < 0)
		ior_tui_put(s, top + 1, 0, s->cols, BOLD, "out of memory selecting the rows");
	return r;
}

/* ---- Overview ------------------------------------------------------------- */

static void overview_numbers(struct ior_dash *d, struct ior_tui_screen *s, int row,
			     const struct ior_stats_totals *t)
{
	struct ior_stats_rates r;
	char rd[32], wr[32], trd[32], twr[32];

	ior_stats_rates(d->stats, 10, &r);
	ior_dash_format_bytes(rd, sizeof rd, r.bytes_read);
	ior_dash_format_bytes(wr, sizeof wr, r.bytes_written);
	ior_tui_putf(s, row, 0, s->cols, BOLD, 0, "pairs/s %.1f   read/s %s   written/s %s   errors/s %.1f   (last 10 s)",
		     r.pairs, rd, wr, r.errors);
	ior_dash_format_bytes(trd, sizeof trd, (double)t->sums.bytes_read);
	ior_dash_format_bytes(twr, sizeof twr, (double)t->sums.bytes_written);
	ior_tui_putf(s, row + 1, 0, s->cols, PLAIN, 0,
		     "total %llu pairs, %llu errors, read %s, written %s; lost %llu, summarized %llu, unpaired %llu",
		     (unsigned long long)t->sums.pairs, (unsigned long long)t->sums.errors, trd, twr,
		     (unsigned long long)d->losses.lost, (unsigned long long)t->sums.summarized,
		     (unsigned long long)d->losses.unpaired);
}

static double second_value(const struct ior_stats_second *x, int which)
{
	switch (which) {
	case 0: return (double)x->pairs;
	case 1: return (double)x->bytes_read;
	case 2: return (double)x->bytes_written;
	default: return (double)x->errors;
	}
}

/* One sparkline per rate over the last seconds (one cell a second). */
static void overview_sparks(struct ior_dash *d, struct ior_tui_screen *s, int row)
{
	static const char *const label[] = { "pairs/s", "read/s", "written/s", "errors/s" };
	struct ior_stats_second sec[IOR_STATS_SECONDS];
	double v[IOR_STATS_SECONDS];
	int width = s->cols - 24;
	unsigned n = ior_stats_series(d->stats, sec, width > 0 ? (unsigned)(width < IOR_STATS_SECONDS ? width : IOR_STATS_SECONDS) : 0);
	char peak[32];

	for (int w = 0; w < 4 && width > 0; w++) {
		double max = 0;
		for (unsigned i = 0; i < n; i++)
			if ((v[i] = second_value(&sec[i], w)) > max)
				max = v[i];
		if (w == 0 || w == 3)
			snprintf(peak, sizeof peak, "%.0f", max);
		else
			ior_dash_format_bytes(peak, sizeof peak, max);
		ior_tui_put(s, row + w, 0, 10, PLAIN, label[w]);
		ior_tui_sparkline(s, row + w, 10, width, PLAIN, v, n, 0);
		ior_tui_putf(s, row + w, 11 + width, 13, PLAIN, 0, "max %s", peak);
	}
}

/* The first rows of a table by time, in a column of the overview. */
static void overview_top(struct ior_dash *d, struct ior_tui_screen *s, int row, int col, int width, int height,
			 enum ior_stats_table table, const char *title)
{
	struct ior_stats_row rows[64], other;
	int max = height - 1 < 64 ? height - 1 : 64;
	int n = max > 0 ? ior_stats_select(d->stats, table, IOR_STATS_BY_TIME, false, rows, (unsigned)max, &other) : 0;
	char t[32];

	ior_tui_put(s, row, col, width - 1, HEAD, title);
	for (int i = 0; i < n; i++) {
		const struct ior_stats_row *r = &rows[i];
		ior_tui_putn(s, row + 1 + i, col + width - 10, 9, PLAIN, IOR_TUI_RIGHT, t,
			     strlen(ns(d, t, sizeof t, r->sums.time_ns)));
		if (table == IOR_STATS_PROCESSES)
			ior_tui_putf(s, row + 1 + i, col, width - 11, PLAIN, IOR_TUI_ELLIPSIS, "%u %s", r->pid, r->comm);
		else
			ior_tui_putn(s, row + 1 + i, col, width - 11, PLAIN,
				     table == IOR_STATS_FILES ? IOR_TUI_KEEP_END : IOR_TUI_ELLIPSIS, r->name,
				     strlen(r->name));
	}
}

static void draw_overview(struct ior_dash *d, struct ior_tui_screen *s, int top, int height)
{
	struct ior_stats_totals t;
	int w = s->cols / 3, below = top + 7;

	ior_stats_totals(d->stats, &t);
	overview_numbers(d, s, top, &t);
	overview_sparks(d, s, top + 2);
	if (below >= top + height)
		return;
	overview_top(d, s, below, 0, w, top + height - below, IOR_STATS_SYSCALLS, "Syscalls by time");
	overview_top(d, s, below, w, w, top + height - below, IOR_STATS_FILES, "Files by time");
	overview_top(d, s, below, 2 * w, s->cols - 2 * w, top + height - below, IOR_STATS_PROCESSES,
		     "Processes by time");
}

/* ---- In flight, Stream ---------------------------------------------------- */

static void keep_picked_flight(struct ior_dash *d)
{
	size_t kept = 0;

	for (size_t i = 0; i < d->nflight; i++)
		if (d->flight[i].pid == (uint64_t)d->pick_pid)
			d->flight[kept++] = d->flight[i];
	d->nflight = d->flight_total = kept;
}

static void draw_in_flight(struct ior_dash *d, struct ior_tui_screen *s, int top, int height)
{
	if (!d->in_flight) {
		ior_tui_put(s, top + 1, 2, s->cols - 2, PLAIN,
			    "A recording has nothing in flight: syscalls in flight are shown while tracing.");
		return;
	}
	d->flight_total = d->in_flight(d->ctx, d->flight, MAX_IN_FLIGHT);
	d->nflight = d->flight_total < MAX_IN_FLIGHT ? d->flight_total : MAX_IN_FLIGHT;
	if (d->pick_pid >= 0)
		keep_picked_flight(d);
	d->flight_table.nrows = d->nflight;
	size_t ops = 0;
	for (size_t i = 0; i < d->nflight; i++)
		ops += ior_syscall_async(ior_sys(d->flight[i].sys)) != 0;
	if (ops)
		ior_tui_putf(s, top, 0, s->cols, BOLD, 0,
			     "%zu syscalls entered and not returned, %zu async ops submitted and not completed, oldest first",
			     d->nflight - ops, ops);
	else
		ior_tui_putf(s, top, 0, s->cols, BOLD, 0, "%zu syscalls entered and not returned, oldest first",
			     d->flight_total);
	ior_tui_table_draw(&d->flight_table, s, top + 1, 0, height - 1, s->cols);
}

/* ---- frame ------------------------------------------------------------------ */

static const char *const help_lines[] = {
	"1..9 Tab Shift-Tab   switch tabs",
	"Up Down PgUp PgDn    move the selection / scroll",
	"Home End             first / last row",
	"< >  R               sort by the column left / right; reverse",
	"t                    Processes: per thread / per process",
	"d                    Files: by directory, by mount, off;",
	"                     Enter opens, Backspace up",
	"space                Stream: pause / resume",
	"/  n  N              Stream: search (regex), older, newer",
	"Left Right f Bksp    Stream: column; filter on its cell; pop",
	"arrows Enter Bksp    Flame: move; zoom in; zoom out",
	"o  m                 Flame: field order; metric",
	"p  Esc               pick a process (type to filter); all again",
	"r                    start / stop a recording (.ior.zst)",
	"D                    dump the flight recorder now (-recorder)",
	"e                    export this table as CSV (current dir)",
	"?  Esc               this help / close it",
	"q  Ctrl-C            quit",
	"",
	"Latency shows what is selected in Syscalls, Files or Processes;",
	"Devices the selected device's latency histogram and who waited.",
	"-baseline: the d columns are the change against the recording.",
	"Live, a pick, o, m and a file's latency start from the Stream.",
};

static void draw_help(struct ior_tui_screen *s)
{
	int n = N(help_lines), h = n + 4, w = 68, r0 = (s->rows - h) / 2, c0 = (s->cols - w) / 2;

	r0 = r0 < 0 ? 0 : r0;
	c0 = c0 < 0 ? 0 : c0;
	ior_tui_fill(s, r0, c0, h, w, PLAIN, " ");
	ior_tui_box(s, r0, c0, h, w, BOLD);
	ior_tui_put(s, r0 + 1, c0 + 2, w - 4, BOLD, "Keys");
	for (int i = 0; i < n; i++)
		ior_tui_put(s, r0 + 3 + i, c0 + 2, w - 4, PLAIN, help_lines[i]);
}

static void draw_title(struct ior_dash *d, struct ior_tui_screen *s)
{
	struct ior_stats_totals t;
	char el[32], pick[128], rec[480] = "", base[512];

	ior_stats_totals(d->stats, &t);
	ns(d, el, sizeof el, t.last_ns > t.first_ns ? t.last_ns - t.first_ns : 0);
	ior_dash_pick_label(d, pick, sizeof pick);
	ior_dash_base_label(d, base, sizeof base);
	if (d->rec_file[0])
		snprintf(rec, sizeof rec, "  REC %s (%llu pairs)", d->rec_file, (unsigned long long)d->rec_pairs);
	if (d->recorder[0])
		snprintf(rec + strlen(rec), sizeof rec - strlen(rec), "  %s", d->recorder);
	ior_tui_putf(s, 0, 0, s->cols, REV, IOR_TUI_PAD | IOR_TUI_ELLIPSIS, "ior  %s  %s%s%s%s  %llu pairs in %s%s",
		     d->title, d->state, rec, pick[0] ? "  " : "", pick, (unsigned long long)t.sums.pairs, el, base);
}

/* Columns of the bar from tab first to tab last, in names. */
static int bar_width(const char *const *names, int first, int last)
{
	int w = 0;

	for (int i = first; i <= last; i++)
		w += (int)strlen(names[i]) + 2 + (i > first);
	return w;
}

/* Full names when they fit, else the short ones; narrower still, the bar
 * starts late enough to show the current tab. */
static void draw_tabs(struct ior_dash *d, struct ior_tui_screen *s)
{
	const char *const *names = bar_width(tab_names, 0, IOR_DASH_NTABS - 1) <= s->cols ? tab_names : short_names;
	int col = 0, first = 0;

	while (first < (int)d->tab && bar_width(names, first, (int)d->tab) > s->cols)
		first++;
	for (int i = first; i < IOR_DASH_NTABS; i++) {
		char label[32];
		snprintf(label, sizeof label, "%d %s", i + 1, names[i]);
		col += ior_tui_put(s, 1, col, -1, i == (int)d->tab ? REV : PLAIN, label) + 1;
	}
}

static const char *footer(const struct ior_dash *d)
{
	switch (d->tab) {
	case IOR_DASH_SYSCALLS:
	case IOR_DASH_FILES:
		if (d->dirs)
			return "? help  q quit  Enter open  Backspace up  d grouping  < > sort  R reverse  e export";
		return "? help  q quit  Up/Down select  < > sort  R reverse  d by directory  p pick  e export";
	case IOR_DASH_PROCESSES: return "? help  q quit  < > sort column  R reverse  t threads  p pick  e export";
	case IOR_DASH_STREAM:
		return "? help  q quit  space pause  Left/Right column  f filter  Bksp pop  / search  e export";
	case IOR_DASH_FLAME: return "? help  q quit  arrows move  Enter zoom  Bksp out  o order  m metric  p pick";
	case IOR_DASH_DEVICES: return "? help  q quit  Up/Down select  < > sort  R reverse  e export";
	default: return "? help  q quit  1-9 or Tab: tabs  p pick a process  r record";
	}
}

int ior_dash_draw(struct ior_dash *d, struct ior_tui_screen *s)
{
	int top = 2, height = s->rows - 3, r = 0;

	ior_tui_screen_clear(s, PLAIN);
	d->ascii = !s->utf8;
	ior_dash_base_frame(d);
	draw_title(d, s);
	draw_tabs(d, s);
	if (height > 0) {
		switch (d->tab) {
		case IOR_DASH_OVERVIEW: draw_overview(d, s, top, height); break;
		case IOR_DASH_IN_FLIGHT: draw_in_flight(d, s, top, height); break;
		case IOR_DASH_LATENCY: ior_dash_draw_latency(d, s, top, height); break;
		case IOR_DASH_STREAM: ior_dash_draw_stream(d, s, top, height); break;
		case IOR_DASH_FLAME: ior_dash_draw_flame(d, s, top, height); break;
		case IOR_DASH_DEVICES: ior_dash_draw_devices(d, s, top, height); break;
		default: r = draw_view(d, s, top, height); break;
		}
	}
	if (d->editing && d->tab == IOR_DASH_STREAM) {
		ior_tui_put(s, s->rows - 1, 0, 1, BOLD, "/");
		ior_tui_edit_draw(&d->search, s, s->rows - 1, 1, s->cols - 1, PLAIN);
	} else if (d->message[0])
		ior_tui_put(s, s->rows - 1, 0, s->cols, BOLD, d->message);
	else
		ior_tui_put(s, s->rows - 1, 0, s->cols, PLAIN, footer(d));
	if (d->picking)
		ior_dash_draw_picker(d, s);
	if (d->help)
		draw_help(s);
	return r;
}
