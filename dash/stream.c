/* The Stream tab: the ring of the latest pairs seen through a stack of
 * filters (f pushes the cell under the cursor, Backspace pops), paused
 * with space, searched with / n N. */
#include "dash_int.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum { COL_TIME, COL_COMM, COL_PID, COL_SYSCALL, COL_RET, COL_DUR, COL_FILE };

/* The entry of a ring index (0: oldest). */
static const struct stream_entry *entry(const struct ior_dash *d, size_t i)
{
	return ior_dash_stream_at(d, i);
}

/* What a filter compares: the cell's text as drawn (but the file whole). */
static const char *cell_text(const struct ior_dash *d, const struct stream_entry *e, int col, char *buf,
			     size_t len)
{
	switch (col) {
	case COL_COMM: return e->comm;
	case COL_PID: snprintf(buf, len, "%u", e->pid); return buf;
	case COL_SYSCALL: return ior_dash_syscall_name(e->sys);
	case COL_FILE: return e->path;
	default: (void)d; return NULL;
	}
}

static int passes(const struct ior_dash *d, const struct stream_entry *e)
{
	char buf[32];

	if (d->pick_pid >= 0 && e->pid != (uint64_t)d->pick_pid)
		return 0;
	for (int i = 0; i < d->nfilters; i++)
		if (strcmp(cell_text(d, e, d->filters[i].col, buf, sizeof buf), d->filters[i].text))
			return 0;
	return 1;
}

void ior_dash_stream_filter(struct ior_dash *d)
{
	d->nshown = 0;
	for (size_t i = 0; i < d->count; i++)
		if (passes(d, entry(d, i)))
			d->shown[d->nshown++] = (uint32_t)i;
}

static const struct stream_entry *shown_at(const struct ior_dash *d, size_t row)
{
	return row < d->nshown ? entry(d, d->shown[row]) : NULL;
}

const char *ior_dash_stream_cell(void *ctx, size_t row, int col, char *buf, size_t len)
{
	struct ior_dash *d = ctx;
	const struct stream_entry *e = shown_at(d, row);

	if (!e)
		return NULL;
	switch (col) {
	case COL_TIME:
		snprintf(buf, len, "%.6f", (double)(e->enter_ns - d->first_ns) / 1e9);
		return buf;
	case COL_RET: snprintf(buf, len, "%lld", (long long)e->ret); return buf;
	case COL_DUR: return ior_dash_ns(d, buf, len, e->duration_ns);
	default: return cell_text(d, e, col, buf, len);
	}
}

/* ---- search ----------------------------------------------------------- */

void ior_dash_stream_hold(struct ior_dash *d)
{
	d->paused = 1;
	d->follow = 0;
}

int ior_dash_stream_select(struct ior_dash *d, uint32_t tid, uint64_t enter_ns)
{
	ior_dash_stream_filter(d);
	for (size_t j = d->nshown; j-- > 0;) {
		const struct stream_entry *e = shown_at(d, j);
		if (e->tid != tid || e->enter_ns != enter_ns)
			continue;
		d->tab = IOR_DASH_STREAM;
		d->stream_table.selected = j;
		d->follow = 0;
		d->paused = 1;
		return 0;
	}
	return -ENOENT;
}

static int matches(const struct ior_dash *d, size_t row)
{
	const struct stream_entry *e = shown_at(d, row);
	const char *sys = e ? ior_dash_syscall_name(e->sys) : "";

	return e && (!regexec(&d->re, e->comm, 0, NULL, 0) || !regexec(&d->re, sys, 0, NULL, 0) ||
		     !regexec(&d->re, e->path, 0, NULL, 0));
}

/* The next shown pair matching the search, older (dir -1) or newer (+1)
 * than the selection, selected and the stream paused so that it stays. */
static void search(struct ior_dash *d, int dir)
{
	struct ior_tui_table *t = &d->stream_table;
	size_t n, i;

	ior_dash_stream_filter(d);
	n = d->nshown;
	i = t->selected < n ? t->selected : (n ? n - 1 : 0);
	if (!d->have_re || !n)
		return;
	for (size_t step = 1; step <= n; step++) {
		size_t j = (i + n + (size_t)dir * step % n) % n;
		if (matches(d, j)) {
			t->selected = j;
			d->follow = 0;
			d->paused = 1;
			snprintf(d->message, sizeof d->message, "/%.200s: pair %zu of %zu (paused; n older, N newer, space resumes)",
				 d->search.text, j + 1, n);
			return;
		}
	}
	snprintf(d->message, sizeof d->message, "/%.200s: not in the last %zu pairs", d->search.text, n);
}

/* Enter compiles what was typed (POSIX extended regex) and searches from
 * the newest pair; Esc gives up. */
void ior_dash_search_key(struct ior_dash *d, const struct ior_tui_key *k)
{
	char err[128];
	int r;

	if (k->code == IOR_TUI_KEY_ESC) {
		d->editing = 0;
		return;
	}
	if (k->code != IOR_TUI_KEY_ENTER) {
		ior_tui_edit_key(&d->search, k);
		return;
	}
	d->editing = 0;
	if (d->have_re)
		regfree(&d->re);
	d->have_re = 0;
	if ((r = regcomp(&d->re, d->search.text, REG_EXTENDED | REG_NOSUB))) {
		regerror(r, &d->re, err, sizeof err);
		snprintf(d->message, sizeof d->message, "/%.200s: %s", d->search.text, err);
		return;
	}
	d->have_re = 1;
	d->stream_table.selected = SIZE_MAX / 2; /* from the newest */
	search(d, -1);
}

/* ---- filters ---------------------------------------------------------- */

static int filterable(int col)
{
	return col == COL_COMM || col == COL_PID || col == COL_SYSCALL || col == COL_FILE;
}

/* f: the selected pair's cell under the cursor becomes a filter. */
static void push_filter(struct ior_dash *d)
{
	const struct stream_entry *e;
	struct stream_filter *f;
	char buf[32];

	ior_dash_stream_filter(d);
	if (d->follow && d->nshown)
		d->stream_table.selected = d->nshown - 1;
	e = shown_at(d, d->stream_table.selected);
	if (!e || d->nfilters == MAX_FILTERS) {
		snprintf(d->message, sizeof d->message, "f: %s", e ? "at most 8 filters" : "no pair selected");
		return;
	}
	f = &d->filters[d->nfilters++];
	f->col = d->stream_col;
	snprintf(f->text, sizeof f->text, "%s", cell_text(d, e, f->col, buf, sizeof buf));
	d->follow = 1;
}

static void move_col(struct ior_dash *d, int dir)
{
	int c = d->stream_col;

	do
		c = (c + dir + 7) % 7;
	while (!filterable(c));
	d->stream_col = c;
}

int ior_dash_stream_key(struct ior_dash *d, const struct ior_tui_key *k)
{
	if (d->tab != IOR_DASH_STREAM)
		return 0;
	switch (k->code) {
	case '/':
		d->editing = 1;
		ior_tui_edit_set(&d->search, "");
		return 1;
	case 'n':
	case 'N': search(d, k->code == 'n' ? -1 : 1); return 1;
	case ' ':
		d->paused = !d->paused;
		if (!d->paused)
			d->missed = 0;
		return 1;
	case 'f': push_filter(d); return 1;
	case IOR_TUI_KEY_BACKSPACE: d->nfilters -= d->nfilters > 0; return 1;
	case IOR_TUI_KEY_LEFT:
	case IOR_TUI_KEY_RIGHT: move_col(d, k->code == IOR_TUI_KEY_LEFT ? -1 : 1); return 1;
	}
	ior_dash_stream_filter(d);
	d->stream_table.nrows = d->nshown;
	if (d->follow && d->nshown) /* as drawn: the newest */
		d->stream_table.selected = d->nshown - 1;
	if (ior_tui_table_key(&d->stream_table, k)) {
		d->follow = d->stream_table.selected + 1 >= d->stream_table.nrows;
		return 1;
	}
	return 0;
}

/* ---- drawing ---------------------------------------------------------- */

/* "comm=cat > syscall=read": the filters, oldest first. */
static void draw_filters(struct ior_dash *d, struct ior_tui_screen *s, int row)
{
	static const char *const names[] = { "time", "comm", "pid", "syscall", "ret", "dur", "file" };
	int col = ior_tui_put(s, row, 0, s->cols, IOR_DASH_BOLD, "filters: ");

	for (int i = 0; i < d->nfilters; i++) {
		col += ior_tui_putf(s, row, col, s->cols - col, IOR_DASH_PLAIN, 0, "%s%s=", i ? " > " : "",
				    names[d->filters[i].col]);
		col += ior_tui_putn(s, row, col, s->cols - col > 40 ? 40 : s->cols - col, IOR_DASH_PLAIN,
				    d->filters[i].col == COL_FILE ? IOR_TUI_KEEP_END : IOR_TUI_ELLIPSIS,
				    d->filters[i].text, strlen(d->filters[i].text));
	}
	ior_tui_put(s, row, col, s->cols - col, IOR_DASH_PLAIN, "  (Backspace pops)");
}

void ior_dash_stream_titles(struct ior_dash *d, int mark)
{
	static const char *const titles[] = { "time", "comm", "pid", "syscall", "ret", "dur", "file" };
	static const char *const marked[] = { "[time]", "[comm]", "[pid]", "[syscall]", "[ret]", "[dur]", "[file]" };

	for (int c = 0; c < 7; c++)
		d->stream_tcols[c].title = mark && c == d->stream_col ? marked[c] : titles[c];
}

void ior_dash_draw_stream(struct ior_dash *d, struct ior_tui_screen *s, int top, int height)
{
	struct ior_tui_table *t = &d->stream_table;

	ior_dash_stream_titles(d, 1);
	ior_dash_stream_filter(d);
	t->nrows = d->nshown;
	if (d->follow && t->nrows)
		t->selected = t->nrows - 1;
	if (d->paused)
		ior_tui_putf(s, top, 0, s->cols, IOR_DASH_BOLD, 0, "PAUSED (space resumes): %llu pairs since, not shown",
			     (unsigned long long)d->missed);
	else
		ior_tui_putf(s, top, 0, s->cols, IOR_DASH_BOLD, 0, "the last %u pairs (%zu shown), newest last%s",
			     d->count, d->nshown, d->follow ? "" : " (Up/Down scroll, End follows)");
	if (d->nfilters) {
		draw_filters(d, s, ++top);
		height--;
	}
	ior_tui_table_draw(t, s, top + 1, 0, height - 1, s->cols);
}
