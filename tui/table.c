/* The table widget: layout, scrolling, drawing, selection keys. */
#include "table.h"

#include <stdio.h>
#include <string.h>

#define MAX_COLS 64 /* columns laid out; more are not drawn */

/* Column widths for a table width wide: fixed ones as asked, flexible ones
 * share what is left after them and the one-column gaps. */
static int layout(const struct ior_tui_table *t, int width, int w[MAX_COLS])
{
	int n = t->ncols < MAX_COLS ? t->ncols : MAX_COLS, fixed = 0, flex = 0, left;

	for (int c = 0; c < n; c++) {
		if (t->cols[c].width > 0)
			fixed += t->cols[c].width;
		else
			flex++;
	}
	left = width - fixed - (n > 0 ? n - 1 : 0);
	for (int c = 0, f = 0; c < n; c++) {
		if (t->cols[c].width > 0) {
			w[c] = t->cols[c].width;
			continue;
		}
		w[c] = flex ? left / flex + (f++ < left % flex) : 0;
		if (w[c] < 1)
			w[c] = 1;
	}
	return n;
}

static void keep_in_view(struct ior_tui_table *t, int page)
{
	size_t p = page > 0 ? (size_t)page : 1;

	if (t->nrows == 0) {
		t->selected = t->top = 0;
		return;
	}
	if (t->selected >= t->nrows)
		t->selected = t->nrows - 1;
	if (t->top + p > t->nrows) /* no blank rows below while there are rows above */
		t->top = t->nrows > p ? t->nrows - p : 0;
	if (t->selected < t->top)
		t->top = t->selected;
	if (t->selected >= t->top + p)
		t->top = t->selected - p + 1;
}

/* Draws one line: each column's text, the gaps, the rest of the width. */
static void draw_line(const struct ior_tui_table *t, struct ior_tui_screen *s, int row, int col,
		      int width, const int *w, int n, struct ior_tui_style st, size_t r, int head)
{
	static const char *const marks[2][2] = { { "^", "v" }, { "\xe2\x96\xb2", "\xe2\x96\xbc" } };
	char buf[IOR_TUI_CELL_MAX];
	int x = 0;

	ior_tui_fill(s, row, col, 1, width, st, " ");
	for (int c = 0; c < n && x < width; c++) {
		const char *text;
		int room = w[c] < width - x ? w[c] : width - x;
		if (head && c == t->sort_col)
			snprintf(buf, sizeof buf, "%s%s", t->cols[c].title ? t->cols[c].title : "",
				 marks[s->utf8 ? 1 : 0][t->sort_desc ? 1 : 0]);
		if (head)
			text = c == t->sort_col ? buf : t->cols[c].title;
		else
			text = t->cell ? t->cell(t->ctx, r, c, buf, sizeof buf) : NULL;
		if (text)
			ior_tui_putn(s, row, col + x, room, st, t->cols[c].flags | IOR_TUI_PAD, text,
				     strnlen(text, IOR_TUI_CELL_MAX));
		x += w[c] + 1;
	}
}

void ior_tui_table_draw(struct ior_tui_table *t, struct ior_tui_screen *s, int row, int col,
			int height, int width)
{
	int w[MAX_COLS], n;

	if (height <= 0 || width <= 0)
		return;
	n = layout(t, width, w);
	t->page = height - 1 > 0 ? height - 1 : 0;
	keep_in_view(t, t->page);
	draw_line(t, s, row, col, width, w, n, t->head, 0, 1);
	for (int i = 0; i < t->page; i++) {
		size_t r = t->top + (size_t)i;
		int sel = t->show_selection && r == t->selected;
		if (r >= t->nrows) {
			ior_tui_fill(s, row + 1 + i, col, 1, width, t->body, " ");
			continue;
		}
		draw_line(t, s, row + 1 + i, col, width, w, n, sel ? t->sel : t->body, r, 0);
	}
}

int ior_tui_table_key(struct ior_tui_table *t, const struct ior_tui_key *k)
{
	size_t page = t->page > 1 ? (size_t)t->page - 1 : 1, last = t->nrows ? t->nrows - 1 : 0;

	if (t->selected > last) /* the rows shrank since the last draw */
		t->selected = last;
	switch (k->code) {
	case IOR_TUI_KEY_UP: t->selected = t->selected ? t->selected - 1 : 0; break;
	case IOR_TUI_KEY_DOWN: t->selected = t->selected < last ? t->selected + 1 : last; break;
	case IOR_TUI_KEY_PGUP: t->selected = t->selected > page ? t->selected - page : 0; break;
	case IOR_TUI_KEY_PGDN: t->selected = last - t->selected > page ? t->selected + page : last; break;
	case IOR_TUI_KEY_HOME: t->selected = 0; break;
	case IOR_TUI_KEY_END: t->selected = last; break;
	default: return 0;
	}
	keep_in_view(t, t->page);
	return 1;
}
