/* Fuzzes the screen with hostile text and the differ with any sequence of
 * frames. The input is a program: a header (rows, cols, UTF-8 or ASCII),
 * then operations (put with any flags and width, fill, lines, box,
 * sparkline, bar, cursor, clear, render). Every render is played on the
 * strict terminal model of tests/unit/vt.h, which must then show the
 * screen exactly, having seen no escape it does not know, no control byte
 * and no character the toolkit must not draw. */
#include "tests/unit/vt.h"
#include "tui/screen.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct input {
	const uint8_t *p;
	size_t n;
};

static unsigned take(struct input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static void render(struct ior_tui_screen *shown, struct ior_tui_screen *next, struct vt *v,
		   struct ior_tui_buf *b, int full)
{
	char why[256];

	ior_tui_buf_reset(b);
	if (ior_tui_render(b, full ? NULL : shown, next))
		abort();
	vt_feed(v, b->data, b->len);
	if (*vt_differs(v, next, why, sizeof why))
		abort();
	memcpy(shown->cells, next->cells, sizeof *next->cells * (size_t)(next->rows * next->cols));
	shown->cursor_visible = next->cursor_visible;
	shown->cursor_row = next->cursor_row;
	shown->cursor_col = next->cursor_col;
}

static void op(struct ior_tui_screen *s, struct input *in)
{
	unsigned kind = take(in) % 10;
	int row = (int)take(in) % (s->rows + 2) - 1, col = (int)take(in) % (s->cols + 4) - 2;
	int w = (int)take(in) % (s->cols + 3) - 1;
	struct ior_tui_style st = { (uint8_t)take(in), (uint8_t)(take(in) % 17), (uint8_t)(take(in) % 17) };
	int flags = (int)take(in);
	unsigned extra = take(in);
	size_t len = take(in) % 24;
	double vals[24];

	if (len > in->n)
		len = in->n;
	switch (kind) {
	case 0: case 1: case 2:
		ior_tui_putn(s, row, col, w, st, flags, (const char *)in->p, len);
		break;
	case 3: {
		char ch[5] = { 0 };
		memcpy(ch, in->p, len < 4 ? len : 4);
		ior_tui_fill(s, row, col, w / 3, w, st, ch);
		break;
	}
	case 4: ior_tui_hline(s, row, col, w, st); break;
	case 5: ior_tui_vline(s, row, col, w, st); break;
	case 6: ior_tui_box(s, row, col, w / 2, w, st); break;
	case 7:
		for (size_t i = 0; i < len; i++)
			vals[i] = (double)in->p[i] - 64;
		ior_tui_sparkline(s, row, col, w, st, vals, len, (double)(extra % 100));
		break;
	case 8: ior_tui_bar(s, row, col, w, st, (double)extra / 200); break;
	default: ior_tui_screen_cursor(s, row, col); break;
	}
	in->p += len;
	in->n -= len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct ior_tui_screen shown, next;
	struct ior_tui_buf b = { 0 };
	struct vt v;
	int rows = (int)take(&in) % 6 + 1, cols = (int)take(&in) % 16 + 1, utf8 = take(&in) & 1;

	if (ior_tui_screen_init(&shown, rows, cols, utf8) || ior_tui_screen_init(&next, rows, cols, utf8))
		abort();
	vt_init(&v, rows, cols);
	render(&shown, &next, &v, &b, 1);
	while (in.n) {
		unsigned what = take(&in);
		if (what < 8)
			render(&shown, &next, &v, &b, what == 0);
		else if (what < 12)
			ior_tui_screen_clear(&next, (struct ior_tui_style){ (uint8_t)what, 0, (uint8_t)(what % 3) });
		else
			op(&next, &in);
	}
	render(&shown, &next, &v, &b, 0);
	vt_free(&v);
	ior_tui_buf_free(&b);
	ior_tui_screen_free(&shown);
	ior_tui_screen_free(&next);
	return 0;
}
