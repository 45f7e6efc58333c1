/* The frame differ: the bytes that bring a terminal from one screen to the
 * next. It assumes the terminal was put in the state term.c leaves it in
 * (alternate screen, auto-wrap off) and writes only CUP, CUF, SGR, ED and
 * DECTCEM escapes besides the cells' own characters, which screen.c has
 * already made safe. Wherever the terminal might disagree with us on where
 * the cursor is (after a character not every terminal draws one column
 * wide, after the last column) the next cell gets an absolute move. */
#include "screen.h"
#include "utf8.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ior_tui_buf_append(struct ior_tui_buf *b, const void *p, size_t n)
{
	if (b->oom)
		return;
	if (b->cap - b->len < n) {
		size_t cap = b->cap ? b->cap : 4096;
		char *d;
		while (cap - b->len < n)
			cap *= 2;
		d = realloc(b->data, cap);
		if (!d) {
			b->oom = 1;
			return;
		}
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void ior_tui_buf_reset(struct ior_tui_buf *b)
{
	b->len = 0;
	b->oom = 0;
}

void ior_tui_buf_free(struct ior_tui_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

static void puts_buf(struct ior_tui_buf *b, const char *s)
{
	ior_tui_buf_append(b, s, strlen(s));
}

/* What the renderer knows of the terminal while it writes. */
struct term_state {
	struct ior_tui_buf *out;
	int row, col;     /* cursor; row < 0: unknown */
	int sgr_known;
	uint8_t attr, fg, bg;
	int cursor_shown; /* -1: unknown */
};

static void move_to(struct term_state *t, int row, int col)
{
	char esc[32];

	if (t->row == row && t->col == col)
		return;
	if (t->row == row && col > t->col)
		snprintf(esc, sizeof esc, col - t->col == 1 ? "\x1b[C" : "\x1b[%dC", col - t->col);
	else if (row == 0 && col == 0)
		snprintf(esc, sizeof esc, "\x1b[H");
	else
		snprintf(esc, sizeof esc, "\x1b[%d;%dH", row + 1, col + 1);
	puts_buf(t->out, esc);
	t->row = row;
	t->col = col;
}

/* SGR parameter of a color for base 30 (foreground) or 40 (background). */
static int color_param(uint8_t color, int base)
{
	return color <= IOR_TUI_WHITE ? base + color - IOR_TUI_BLACK : base + 60 + color - IOR_TUI_BRIGHT_BLACK;
}

static void set_sgr(struct term_state *t, const struct ior_tui_cell *c)
{
	static const struct { uint8_t bit; const char *p; } attrs[] = {
		{ IOR_TUI_BOLD, ";1" }, { IOR_TUI_DIM, ";2" }, { IOR_TUI_UNDERLINE, ";4" }, { IOR_TUI_REVERSE, ";7" },
	};
	uint8_t attr = c->attr & IOR_TUI_ATTRS;
	char esc[64];
	int n = 0;

	if (t->sgr_known && t->attr == attr && t->fg == c->fg && t->bg == c->bg)
		return;
	n += snprintf(esc + n, sizeof esc - (size_t)n, "\x1b[0");
	for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
		if (attr & attrs[i].bit)
			n += snprintf(esc + n, sizeof esc - (size_t)n, "%s", attrs[i].p);
	if (c->fg != IOR_TUI_DEFAULT && c->fg <= IOR_TUI_BRIGHT_WHITE)
		n += snprintf(esc + n, sizeof esc - (size_t)n, ";%d", color_param(c->fg, 30));
	if (c->bg != IOR_TUI_DEFAULT && c->bg <= IOR_TUI_BRIGHT_WHITE)
		n += snprintf(esc + n, sizeof esc - (size_t)n, ";%d", color_param(c->bg, 40));
	snprintf(esc + n, sizeof esc - (size_t)n, "m");
	puts_buf(t->out, esc);
	t->sgr_known = 1;
	t->attr = attr;
	t->fg = c->fg;
	t->bg = c->bg;
}

static void hide_cursor(struct term_state *t)
{
	if (t->cursor_shown != 0)
		puts_buf(t->out, "\x1b[?25l");
	t->cursor_shown = 0;
}

/* Writes cell c (both halves if wide) at row, col. */
static void draw_cell(struct term_state *t, int cols, int row, int col, const struct ior_tui_cell *c)
{
	size_t len = strnlen(c->ch, sizeof c->ch);
	int wide = (c->attr & IOR_TUI_WIDE) != 0;
	uint32_t cp = ' ';

	hide_cursor(t);
	move_to(t, row, col);
	set_sgr(t, c);
	if (!len || !ior_utf8_seq((const unsigned char *)c->ch, len, &cp))
		ior_tui_buf_append(t->out, "?", 1), cp = '?'; /* not a cell screen.c wrote */
	else
		ior_tui_buf_append(t->out, c->ch, len);
	t->col += wide ? 2 : 1;
	if (t->col >= cols || !ior_tui_cp_sure(cp))
		t->row = -1;
}

static int same(const struct ior_tui_cell *a, const struct ior_tui_cell *b)
{
	return !memcmp(a, b, sizeof *a);
}

static void render_row(struct term_state *t, const struct ior_tui_cell *prev,
		       const struct ior_tui_cell *next, int row, int cols)
{
	static const struct ior_tui_cell blank = { { ' ', 0, 0, 0 }, 0, 0, 0, 0 };

	for (int c = 0; c < cols;) {
		const struct ior_tui_cell *n = &next[c], *p = prev ? &prev[c] : &blank;
		int w = (n->attr & IOR_TUI_WIDE) && c + 1 < cols ? 2 : 1;
		int changed = !same(n, p) || (w == 2 && !same(&n[1], prev ? &p[1] : &blank));
		if (changed)
			draw_cell(t, cols, row, c, n);
		c += w;
	}
}

static int cursor_shown(const struct ior_tui_screen *s)
{
	return s->cursor_visible && s->cursor_row >= 0 && s->cursor_row < s->rows && s->cursor_col >= 0 &&
	       s->cursor_col < s->cols;
}

/* Shows the cursor where next wants it, or hides it. */
static void place_cursor(struct term_state *t, const struct ior_tui_screen *next)
{
	if (!cursor_shown(next)) {
		hide_cursor(t);
		return;
	}
	move_to(t, next->cursor_row, next->cursor_col);
	if (t->cursor_shown != 1)
		puts_buf(t->out, "\x1b[?25h");
	t->cursor_shown = 1;
}

int ior_tui_render(struct ior_tui_buf *out, const struct ior_tui_screen *prev,
		   const struct ior_tui_screen *next)
{
	struct term_state t = { out, -1, -1, 0, 0, 0, 0, -1 };
	int full = !prev || prev->rows != next->rows || prev->cols != next->cols;

	if (full) {
		puts_buf(out, "\x1b[0m\x1b[H\x1b[2J");
		t.sgr_known = 1;
		t.row = t.col = 0;
	} else {
		t.cursor_shown = cursor_shown(prev); /* and there, if shown */
		if (t.cursor_shown)
			t.row = prev->cursor_row, t.col = prev->cursor_col;
	}
	for (int r = 0; r < next->rows; r++) {
		size_t off = (size_t)r * (size_t)next->cols;
		render_row(&t, full ? NULL : prev->cells + off, next->cells + off, r, next->cols);
	}
	place_cursor(&t, next);
	return out->oom ? -ENOMEM : 0;
}
