/* A strict model of the terminal tui/render.c draws on: the escapes it may
 * use (CUP, CUF, ED 2, SGR, DECTCEM, DECAWM, the alternate screen) and
 * UTF-8 text, with xterm's rules for wide characters (writing over either
 * half of one erases the other) and auto-wrap off. Anything else (another
 * escape, a control byte, invalid UTF-8, a character the toolkit must not
 * draw) is an error: that is the check that hostile text never reaches the
 * terminal raw. Shared by the unit tests and the screen fuzzer. */
#ifndef IOR_TEST_VT_H
#define IOR_TEST_VT_H

#include "tui/screen.h"
#include "tui/utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vt_cell {
	char ch[5];   /* "" for the right half of a wide character */
	int wide;
	uint8_t attr, fg, bg;
};

struct vt {
	int rows, cols, row, col;
	uint8_t attr, fg, bg;
	int cursor_visible;
	struct vt_cell *cells;
	char err[160]; /* the first error, "" when none */
};

static inline void vt_error(struct vt *v, const char *what, size_t at)
{
	if (!v->err[0])
		snprintf(v->err, sizeof v->err, "%s at byte %zu", what, at);
}

static inline void vt_blank(struct vt_cell *c)
{
	memset(c, 0, sizeof *c);
	c->ch[0] = ' ';
}

static inline void vt_erase(struct vt *v)
{
	for (int i = 0; i < v->rows * v->cols; i++)
		vt_blank(&v->cells[i]);
}

static inline void vt_init(struct vt *v, int rows, int cols)
{
	memset(v, 0, sizeof *v);
	v->rows = rows;
	v->cols = cols;
	v->cells = calloc((size_t)rows * (size_t)cols, sizeof *v->cells);
	vt_erase(v);
	v->cursor_visible = 1;
}

static inline void vt_free(struct vt *v)
{
	free(v->cells);
	v->cells = NULL;
}

static inline struct vt_cell *vt_at(struct vt *v, int row, int col)
{
	return &v->cells[row * v->cols + col];
}

/* Writing at col: a wide character there or around it loses both halves. */
static inline void vt_unwide(struct vt *v, int col)
{
	struct vt_cell *c = vt_at(v, v->row, col);
	if (!c->ch[0] && col > 0)
		vt_blank(c - 1), vt_blank(c);
	else if (c->wide && col + 1 < v->cols)
		vt_blank(c + 1), vt_blank(c);
}

static inline void vt_put(struct vt *v, const unsigned char *s, int len, int width, size_t at)
{
	struct vt_cell *c;

	if (v->col + width > v->cols) {
		vt_error(v, "wide character in the last column", at);
		return;
	}
	vt_unwide(v, v->col);
	if (width == 2)
		vt_unwide(v, v->col + 1);
	c = vt_at(v, v->row, v->col);
	memset(c, 0, sizeof *c);
	memcpy(c->ch, s, (size_t)len);
	c->wide = width == 2;
	c->attr = v->attr, c->fg = v->fg, c->bg = v->bg;
	if (width == 2) {
		memset(c + 1, 0, sizeof *c);
		c[1].attr = v->attr, c[1].fg = v->fg, c[1].bg = v->bg;
	}
	v->col += width;
	if (v->col >= v->cols) /* auto-wrap off: the cursor stays in the last column */
		v->col = v->cols - 1;
}

static inline void vt_sgr(struct vt *v, const int *p, int n, size_t at)
{
	if (n == 0)
		v->attr = v->fg = v->bg = 0;
	for (int i = 0; i < n; i++) {
		int x = p[i];
		if (x == 0)
			v->attr = v->fg = v->bg = 0;
		else if (x == 1 || x == 2 || x == 4 || x == 7)
			v->attr |= x == 1 ? IOR_TUI_BOLD : x == 2 ? IOR_TUI_DIM : x == 4 ? IOR_TUI_UNDERLINE : IOR_TUI_REVERSE;
		else if (x >= 30 && x <= 37)
			v->fg = (uint8_t)(IOR_TUI_BLACK + x - 30);
		else if (x >= 90 && x <= 97)
			v->fg = (uint8_t)(IOR_TUI_BRIGHT_BLACK + x - 90);
		else if (x >= 40 && x <= 47)
			v->bg = (uint8_t)(IOR_TUI_BLACK + x - 40);
		else if (x >= 100 && x <= 107)
			v->bg = (uint8_t)(IOR_TUI_BRIGHT_BLACK + x - 100);
		else
			vt_error(v, "unknown SGR", at);
	}
}

static inline void vt_csi(struct vt *v, int priv, const int *p, int n, char f, size_t at)
{
	if (priv) {
		if (n != 1 || (f != 'h' && f != 'l') || (p[0] != 25 && p[0] != 7 && p[0] != 1049))
			vt_error(v, "unknown private mode", at);
		else if (p[0] == 25)
			v->cursor_visible = f == 'h';
		return;
	}
	if (f == 'H' && n <= 2) {
		int r = n > 0 && p[0] ? p[0] : 1, c = n > 1 && p[1] ? p[1] : 1;
		if (r > v->rows || c > v->cols)
			vt_error(v, "cursor moved off the screen", at);
		v->row = (r > v->rows ? v->rows : r) - 1;
		v->col = (c > v->cols ? v->cols : c) - 1;
	} else if (f == 'C' && n <= 1) {
		v->col += n && p[0] ? p[0] : 1;
		if (v->col >= v->cols)
			vt_error(v, "cursor moved off the screen", at), v->col = v->cols - 1;
	} else if (f == 'J' && n == 1 && p[0] == 2) {
		vt_erase(v);
	} else if (f == 'm') {
		vt_sgr(v, p, n, at);
	} else {
		vt_error(v, "unknown escape", at);
	}
}

/* Parses one CSI at s[i] == ESC; returns the bytes it took. */
static inline size_t vt_escape(struct vt *v, const unsigned char *s, size_t n, size_t i)
{
	int p[16], np = 0, priv = 0, have = 0;
	size_t j = i + 1;

	if (j >= n || s[j] != '[') {
		vt_error(v, "ESC not starting a CSI", i);
		return 1;
	}
	j++;
	if (j < n && s[j] == '?')
		priv = 1, j++;
	for (; j < n; j++) {
		if (s[j] >= '0' && s[j] <= '9') {
			if (!have && np < 16)
				p[np++] = 0;
			have = 1;
			if (p[np - 1] < 100000)
				p[np - 1] = p[np - 1] * 10 + (s[j] - '0');
		} else if (s[j] == ';') {
			if (!have && np < 16)
				p[np++] = 0;
			have = 0;
		} else if (s[j] >= 0x40 && s[j] <= 0x7e) {
			vt_csi(v, priv, p, np, (char)s[j], i);
			return j + 1 - i;
		} else {
			vt_error(v, "bad byte in CSI", j);
			return j + 1 - i;
		}
	}
	vt_error(v, "CSI cut short", i);
	return n - i;
}

static inline void vt_feed(struct vt *v, const void *data, size_t n)
{
	const unsigned char *s = data;

	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int len, w;
		if (s[i] == 0x1b) {
			i += vt_escape(v, s, n, i);
			continue;
		}
		len = ior_utf8_seq(s + i, n - i, &cp);
		w = len ? ior_tui_cp_width(cp) : -1;
		if (!len || w < 0) {
			vt_error(v, len ? "undrawable character" : "invalid UTF-8 or control byte", i);
			i++;
			continue;
		}
		vt_put(v, s + i, len, w, i);
		i += (size_t)len;
	}
}

/* Row r of screen s as text: every cell's character, the right halves of
 * wide ones left out. A static buffer. */
static inline const char *vt_row_text(const struct ior_tui_screen *s, int r)
{
	static char buf[4 * IOR_TUI_MAX_COLS + 1];
	size_t n = 0;

	for (int c = 0; c < s->cols; c++) {
		const struct ior_tui_cell *cell = ior_tui_cell_at(s, r, c);
		size_t len = strnlen(cell->ch, 4);
		memcpy(buf + n, cell->ch, len);
		n += len;
	}
	buf[n] = '\0';
	return buf;
}

/* "" when v shows s exactly (characters, attributes, the cursor), else
 * the first difference, in why. */
static inline const char *vt_differs(struct vt *v, const struct ior_tui_screen *s, char *why, size_t len)
{
	if (v->err[0])
		return snprintf(why, len, "terminal: %s", v->err), why;
	for (int r = 0; r < s->rows; r++)
		for (int c = 0; c < s->cols; c++) {
			const struct ior_tui_cell *want = ior_tui_cell_at(s, r, c);
			struct vt_cell *got = vt_at(v, r, c);
			int cont = !want->ch[0];
			if (strncmp(got->ch, want->ch, 4) || (cont ? 0 : got->wide != !!(want->attr & IOR_TUI_WIDE)) ||
			    (!cont && (got->attr != (want->attr & IOR_TUI_ATTRS) || got->fg != want->fg ||
				       got->bg != want->bg)))
				return snprintf(why, len, "cell %d,%d: \"%s\"/%x/%d/%d, want \"%.4s\"/%x/%d/%d", r, c,
						got->ch, got->attr, got->fg, got->bg, want->ch, want->attr, want->fg,
						want->bg), why;
		}
	if (!!v->cursor_visible != !!s->cursor_visible)
		return snprintf(why, len, "cursor visible %d, want %d", v->cursor_visible, s->cursor_visible), why;
	if (s->cursor_visible && (v->row != s->cursor_row || v->col != s->cursor_col))
		return snprintf(why, len, "cursor at %d,%d, want %d,%d", v->row, v->col, s->cursor_row,
				s->cursor_col), why;
	return "";
}

#endif
