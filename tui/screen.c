/* The cell buffer and the drawing helpers. Every write goes through
 * set_cell, which keeps the one invariant the renderer relies on: a wide
 * character's two cells are written and erased together. */
#include "screen.h"
#include "utf8.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One character as it will be drawn: its bytes and its columns. */
struct glyph {
	char ch[4];
	int len, width;
};

static const struct glyph space = { " ", 1, 1 };

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static struct ior_tui_cell *at(struct ior_tui_screen *s, int row, int col)
{
	return &s->cells[(size_t)row * (size_t)s->cols + (size_t)col];
}

const struct ior_tui_cell *ior_tui_cell_at(const struct ior_tui_screen *s, int row, int col)
{
	if (row < 0 || row >= s->rows || col < 0 || col >= s->cols)
		return NULL;
	return &s->cells[(size_t)row * (size_t)s->cols + (size_t)col];
}

static void blank(struct ior_tui_cell *c)
{
	memset(c->ch, 0, sizeof c->ch);
	c->ch[0] = ' ';
	c->attr &= (uint8_t)~IOR_TUI_WIDE;
}

static void set_style(struct ior_tui_cell *c, struct ior_tui_style st)
{
	c->attr = st.attr & IOR_TUI_ATTRS;
	c->fg = st.fg;
	c->bg = st.bg;
	c->pad = 0;
}

/* Writes g at row, col; a wide g needs col + 1 on the screen too, else it
 * becomes a space. Whatever wide character it overlaps loses both halves. */
static void set_cell(struct ior_tui_screen *s, int row, int col, const struct glyph *g,
		     struct ior_tui_style st)
{
	struct ior_tui_cell *c;
	int wide = g->width == 2;

	if (row < 0 || row >= s->rows || col >= s->cols || col < -1 || (col == -1 && !wide))
		return;
	if (col == -1 || (wide && col + 1 >= s->cols)) {
		set_cell(s, row, col < 0 ? 0 : col, &space, st);
		return;
	}
	c = at(s, row, col);
	if (!c->ch[0] && col > 0)
		blank(c - 1);
	if ((c->attr & IOR_TUI_WIDE) && !wide)
		blank(c + 1);
	if (wide && (c[1].attr & IOR_TUI_WIDE))
		blank(c + 2);
	set_style(c, st);
	memset(c->ch, 0, sizeof c->ch);
	memcpy(c->ch, g->ch, (size_t)g->len);
	if (wide) {
		c->attr |= IOR_TUI_WIDE;
		set_style(c + 1, st);
		memset(c[1].ch, 0, sizeof c->ch);
	}
}

int ior_tui_screen_init(struct ior_tui_screen *s, int rows, int cols, int utf8)
{
	memset(s, 0, sizeof *s);
	s->utf8 = utf8;
	return ior_tui_screen_resize(s, rows, cols);
}

int ior_tui_screen_resize(struct ior_tui_screen *s, int rows, int cols)
{
	struct ior_tui_cell *cells;

	rows = clampi(rows, 1, IOR_TUI_MAX_ROWS);
	cols = clampi(cols, 1, IOR_TUI_MAX_COLS);
	cells = calloc((size_t)rows * (size_t)cols, sizeof *cells);
	if (!cells)
		return -ENOMEM;
	free(s->cells);
	s->cells = cells;
	s->rows = rows;
	s->cols = cols;
	ior_tui_screen_clear(s, (struct ior_tui_style){ 0, 0, 0 });
	return 0;
}

void ior_tui_screen_free(struct ior_tui_screen *s)
{
	free(s->cells);
	s->cells = NULL;
	s->rows = s->cols = 0;
}

void ior_tui_screen_clear(struct ior_tui_screen *s, struct ior_tui_style st)
{
	size_t n = (size_t)s->rows * (size_t)s->cols;

	for (size_t i = 0; i < n; i++) {
		set_style(&s->cells[i], st);
		blank(&s->cells[i]);
	}
	s->cursor_visible = 0;
}

void ior_tui_screen_swap(struct ior_tui_screen *a, struct ior_tui_screen *b)
{
	struct ior_tui_screen t = *a;
	*a = *b;
	*b = t;
}

void ior_tui_screen_cursor(struct ior_tui_screen *s, int row, int col)
{
	s->cursor_visible = row >= 0 && row < s->rows && col >= 0 && col < s->cols;
	s->cursor_row = row;
	s->cursor_col = col;
}

/* The next glyph of text[*pos..len), advancing *pos: what cannot be drawn
 * as it is becomes '?', one per invalid byte or per character. */
static void next_glyph(int utf8, const char *text, size_t len, size_t *pos, struct glyph *g)
{
	const unsigned char *u = (const unsigned char *)text + *pos;
	uint32_t cp = 0;
	int n = ior_utf8_seq(u, len - *pos, &cp);
	int w = n ? ior_tui_cp_width(cp) : -1;

	*pos += n ? (size_t)n : 1;
	if (w < 0 || (!utf8 && cp >= 0x80)) {
		g->ch[0] = '?', g->len = 1, g->width = 1;
		return;
	}
	memcpy(g->ch, u, (size_t)n);
	g->len = n;
	g->width = w;
}

int ior_tui_text_width(const struct ior_tui_screen *s, const char *text, size_t len)
{
	size_t pos = 0;
	int w = 0;
	struct glyph g;

	while (pos < len && w < (1 << 28)) { /* no int overflow on any string */
		next_glyph(s->utf8, text, len, &pos, &g);
		w += g.width;
	}
	return w;
}

static const struct glyph *ellipsis(const struct ior_tui_screen *s)
{
	static const struct glyph utf8 = { "\xe2\x80\xa6", 3, 1 }, ascii = { "~", 1, 1 };
	return s->utf8 ? &utf8 : &ascii;
}

/* Draws text from pos while it fits in room columns from col; a wide
 * glyph that would not fit ends it. Returns the columns drawn. */
static int draw_run(struct ior_tui_screen *s, int row, int col, int room, struct ior_tui_style st,
		    const char *text, size_t len, size_t pos)
{
	struct glyph g;
	int w = 0;

	while (pos < len && w < room) {
		next_glyph(s->utf8, text, len, &pos, &g);
		if (w + g.width > room)
			break;
		set_cell(s, row, col + w, &g, st);
		w += g.width;
	}
	return w;
}

/* The byte offset from which the last room columns of text start, and in
 * *lead the columns left over before it (a wide glyph cut in two). */
static size_t tail_start(const struct ior_tui_screen *s, const char *text, size_t len, int total,
			 int room, int *lead)
{
	size_t pos = 0;
	int skipped = 0;
	struct glyph g;

	while (pos < len && total - skipped > room) {
		next_glyph(s->utf8, text, len, &pos, &g);
		skipped += g.width;
	}
	*lead = room - (total - skipped);
	return pos;
}

static void pad(struct ior_tui_screen *s, int row, int col, int n, struct ior_tui_style st)
{
	for (int i = 0; i < n; i++)
		set_cell(s, row, col + i, &space, st);
}

/* text is wider than its room: cut, with an ellipsis when asked. */
static int put_cut(struct ior_tui_screen *s, int row, int col, int room, struct ior_tui_style st,
		   int flags, const char *text, size_t len, int total)
{
	int mark = (flags & (IOR_TUI_ELLIPSIS | IOR_TUI_KEEP_END)) != 0;
	int w, lead;
	size_t from;

	if (!(flags & IOR_TUI_KEEP_END)) {
		w = draw_run(s, row, col, room - mark, st, text, len, 0);
		pad(s, row, col + w, room - mark - w, st);
		if (mark)
			set_cell(s, row, col + room - 1, ellipsis(s), st);
		return room;
	}
	set_cell(s, row, col, ellipsis(s), st);
	from = tail_start(s, text, len, total, room - 1, &lead);
	pad(s, row, col + 1, lead, st);
	draw_run(s, row, col + 1 + lead, room - 1 - lead, st, text, len, from);
	return room;
}

int ior_tui_putn(struct ior_tui_screen *s, int row, int col, int width, struct ior_tui_style st,
		 int flags, const char *text, size_t len)
{
	int room = width < 0 ? s->cols - col : width, total, off = 0;

	if (row < 0 || row >= s->rows || room <= 0 || !text)
		return 0;
	total = ior_tui_text_width(s, text, len);
	if (total > room)
		return put_cut(s, row, col, room, st, flags, text, len, total);
	if (flags & IOR_TUI_RIGHT)
		off = room - total;
	else if (flags & IOR_TUI_CENTER)
		off = (room - total) / 2;
	if (flags & IOR_TUI_PAD)
		pad(s, row, col, off, st);
	draw_run(s, row, col + off, total, st, text, len, 0);
	if (flags & IOR_TUI_PAD)
		pad(s, row, col + off + total, room - off - total, st);
	return off + total;
}

int ior_tui_put(struct ior_tui_screen *s, int row, int col, int width, struct ior_tui_style st,
		const char *text)
{
	return ior_tui_putn(s, row, col, width, st, 0, text, text ? strlen(text) : 0);
}

int ior_tui_putf(struct ior_tui_screen *s, int row, int col, int width, struct ior_tui_style st,
		 int flags, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return ior_tui_putn(s, row, col, width, st, flags, buf, strlen(buf));
}

/* The glyph of ch (its first character), a space when ch is NULL or "". */
static void glyph_of(const struct ior_tui_screen *s, const char *ch, struct glyph *g)
{
	size_t pos = 0;

	if (!ch || !*ch)
		ch = " ";
	next_glyph(s->utf8, ch, strlen(ch), &pos, g);
}

void ior_tui_fill(struct ior_tui_screen *s, int row, int col, int height, int width,
		  struct ior_tui_style st, const char *ch)
{
	struct glyph g;

	glyph_of(s, ch, &g);
	for (int r = row; r < row + height; r++)
		for (int c = col; c < col + width; c += g.width)
			set_cell(s, r, c, c + g.width > col + width ? &space : &g, st);
}

/* Box drawing pieces, UTF-8 then ASCII. */
enum { H, V, TL, TR, BL, BR };
static const char *const pieces[2][6] = {
	{ "-", "|", "+", "+", "+", "+" },
	{ "\xe2\x94\x80", "\xe2\x94\x82", "\xe2\x94\x8c", "\xe2\x94\x90", "\xe2\x94\x94", "\xe2\x94\x98" },
};

static const char *piece(const struct ior_tui_screen *s, int which)
{
	return pieces[s->utf8 ? 1 : 0][which];
}

void ior_tui_hline(struct ior_tui_screen *s, int row, int col, int width, struct ior_tui_style st)
{
	ior_tui_fill(s, row, col, 1, width, st, piece(s, H));
}

void ior_tui_vline(struct ior_tui_screen *s, int row, int col, int height, struct ior_tui_style st)
{
	ior_tui_fill(s, row, col, height, 1, st, piece(s, V));
}

void ior_tui_box(struct ior_tui_screen *s, int row, int col, int height, int width,
		 struct ior_tui_style st)
{
	int bottom = row + height - 1, right = col + width - 1;

	if (height < 2 || width < 2)
		return;
	ior_tui_hline(s, row, col + 1, width - 2, st);
	ior_tui_hline(s, bottom, col + 1, width - 2, st);
	ior_tui_vline(s, row + 1, col, height - 2, st);
	ior_tui_vline(s, row + 1, right, height - 2, st);
	ior_tui_fill(s, row, col, 1, 1, st, piece(s, TL));
	ior_tui_fill(s, row, right, 1, 1, st, piece(s, TR));
	ior_tui_fill(s, bottom, col, 1, 1, st, piece(s, BL));
	ior_tui_fill(s, bottom, right, 1, 1, st, piece(s, BR));
}

/* 1..levels for v > 0 against max > 0 (a value above max is the top). */
static int level(double v, double max, int levels)
{
	double r = v / max * levels;
	int l;

	if (!(r < levels))
		return levels;
	l = (int)r;
	if (l < r)
		l++;
	return l < 1 ? 1 : l;
}

int ior_tui_sparkline(struct ior_tui_screen *s, int row, int col, int width,
		      struct ior_tui_style st, const double *vals, size_t n, double max)
{
	static const char ascii[] = ".:-=+*#";
	size_t shown = n < (size_t)(width > 0 ? width : 0) ? n : (size_t)(width > 0 ? width : 0);
	const double *v = shown ? vals + (n - shown) : vals;
	int levels = s->utf8 ? 8 : 7, start = col + width - (int)shown;
	struct glyph g = { "", 0, 1 };

	if (!(max > 0))
		for (size_t i = 0, first = 1; i < shown; i++)
			if (v[i] > 0 && (first || v[i] > max))
				max = v[i], first = 0;
	pad(s, row, col, width - (int)shown, st);
	for (size_t i = 0; i < shown; i++) { /* shown > 0: vals is not NULL */
		int l = v[i] > 0 ? level(v[i], max, levels) : 0;
		if (!l)
			memcpy(g.ch, " ", 2), g.len = 1;
		else if (s->utf8)
			g.len = ior_tui_utf8_encode(0x2580 + (uint32_t)l, g.ch);
		else
			g.ch[0] = ascii[l - 1], g.len = 1;
		set_cell(s, row, start + (int)i, &g, st);
	}
	return (int)shown;
}

int ior_tui_bar(struct ior_tui_screen *s, int row, int col, int width, struct ior_tui_style st,
		double frac)
{
	int per = s->utf8 ? 8 : 1, units, full, part;
	struct glyph g = { "#", 1, 1 };

	if (width <= 0)
		return 0;
	if (!(frac > 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	units = (int)(frac * width * per + 0.5);
	full = units / per;
	part = units % per;
	if (s->utf8)
		g.len = ior_tui_utf8_encode(0x2588, g.ch);
	for (int i = 0; i < full; i++)
		set_cell(s, row, col + i, &g, st);
	if (part) /* U+258F is one eighth, U+2589 seven */
		g.len = ior_tui_utf8_encode(0x2590 - (uint32_t)part, g.ch);
	if (part)
		set_cell(s, row, col + full, &g, st);
	pad(s, row, col + full + (part > 0), width - full - (part > 0), st);
	return full + (part > 0);
}
