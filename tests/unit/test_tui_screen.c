/* The cell buffer, its drawing helpers and the frame differ. The differ's
 * output is played on the strict terminal model of vt.h, which must then
 * show the next screen exactly; hostile text must come out as '?'. */
#include "tui/screen.h"
#include "tui/utf8.h"
#include "t.h"
#include "vt.h"

#include <math.h>
#include <stdlib.h>

static const struct ior_tui_style plain = { 0, 0, 0 };

/* Row r as text without its trailing spaces. */
static const char *row_trim(const struct ior_tui_screen *s, int r)
{
	char *t = (char *)vt_row_text(s, r);
	size_t n = strlen(t);

	while (n && t[n - 1] == ' ')
		t[--n] = '\0';
	return t;
}

/* Row r from column 0 to width, as text. */
static const char *put_row(int utf8, int width, int flags, const char *text)
{
	static struct ior_tui_screen s;
	ior_tui_screen_init(&s, 1, width, utf8);
	ior_tui_putn(&s, 0, 0, width, plain, flags, text, strlen(text));
	const char *r = vt_row_text(&s, 0);
	ior_tui_screen_free(&s);
	return r;
}

/* Plays prev's full redraw and then the diff to next on a model terminal;
 * "" when it then shows next exactly. */
static const char *play(const struct ior_tui_screen *prev, const struct ior_tui_screen *next, size_t *diff_len)
{
	static char why[256];
	struct ior_tui_buf b = { 0 };
	struct vt v;
	const char *r;

	vt_init(&v, next->rows, next->cols);
	if (prev) {
		ior_tui_render(&b, NULL, prev);
		vt_feed(&v, b.data, b.len);
		ior_tui_buf_reset(&b);
	}
	ior_tui_render(&b, prev, next);
	if (diff_len)
		*diff_len = b.len;
	vt_feed(&v, b.data, b.len);
	r = vt_differs(&v, next, why, sizeof why);
	vt_free(&v);
	ior_tui_buf_free(&b);
	return r;
}

TEST(clip_ascii_and_utf8)
{
	CHECK_EQ_STR(put_row(1, 5, 0, "h\xc3\xa9llo w\xc3\xb6rld"), "h\xc3\xa9llo");
	CHECK_EQ_STR(put_row(1, 5, IOR_TUI_ELLIPSIS, "h\xc3\xa9llo w\xc3\xb6rld"), "h\xc3\xa9ll\xe2\x80\xa6");
	CHECK_EQ_STR(put_row(0, 5, IOR_TUI_ELLIPSIS, "h\xc3\xa9llo w\xc3\xb6rld"), "h?ll~");
	CHECK_EQ_STR(put_row(1, 10, IOR_TUI_KEEP_END, "/very/long/path/file.txt"), "\xe2\x80\xa6/file.txt");
	CHECK_EQ_STR(put_row(0, 10, IOR_TUI_KEEP_END, "/very/long/path/file.txt"), "~/file.txt");
	CHECK_EQ_STR(put_row(1, 8, IOR_TUI_RIGHT, "42"), "      42");
	CHECK_EQ_STR(put_row(1, 8, IOR_TUI_CENTER, "ab"), "   ab   ");
	CHECK_EQ_STR(put_row(1, 3, IOR_TUI_ELLIPSIS, "abc"), "abc");
	CHECK_EQ_STR(put_row(1, 1, IOR_TUI_ELLIPSIS, "abc"), "\xe2\x80\xa6");
	CHECK_EQ_STR(put_row(1, 1, IOR_TUI_KEEP_END, "abc"), "\xe2\x80\xa6");
}

TEST(clip_wide)
{
	const char *jp = "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"; /* 日本語: 6 columns */
	CHECK_EQ_STR(put_row(1, 6, 0, jp), jp);
	CHECK_EQ_STR(put_row(1, 5, 0, jp), "\xe6\x97\xa5\xe6\x9c\xac ");
	CHECK_EQ_STR(put_row(1, 5, IOR_TUI_ELLIPSIS, jp), "\xe6\x97\xa5\xe6\x9c\xac\xe2\x80\xa6");
	CHECK_EQ_STR(put_row(1, 4, IOR_TUI_ELLIPSIS, jp), "\xe6\x97\xa5 \xe2\x80\xa6");
	CHECK_EQ_STR(put_row(1, 4, IOR_TUI_KEEP_END, jp), "\xe2\x80\xa6 \xe8\xaa\x9e");
	CHECK_EQ_STR(put_row(0, 4, 0, jp), "??? ");

	struct ior_tui_screen s;
	ior_tui_screen_init(&s, 1, 4, 1);
	CHECK_EQ_INT(ior_tui_text_width(&s, jp, strlen(jp)), 6);
	ior_tui_put(&s, 0, 0, -1, plain, "\xe6\x97\xa5"); /* cols 0-1 */
	ior_tui_put(&s, 0, 1, -1, plain, "x");           /* over its right half */
	CHECK_EQ_STR(vt_row_text(&s, 0), " x  ");
	ior_tui_put(&s, 0, 2, -1, plain, "\xe6\x97\xa5"); /* cols 2-3 */
	ior_tui_put(&s, 0, 2, -1, plain, "y");           /* over its left half */
	CHECK_EQ_STR(vt_row_text(&s, 0), " xy ");
	ior_tui_put(&s, 0, 3, -1, plain, "\xe6\x97\xa5"); /* no room on the screen */
	CHECK_EQ_STR(vt_row_text(&s, 0), " xy ");
	ior_tui_put(&s, 0, -1, -1, plain, "\xe6\x97\xa5z"); /* half off the left edge */
	CHECK_EQ_STR(vt_row_text(&s, 0), " zy ");
	ior_tui_screen_free(&s);
}

TEST(hostile_text_becomes_question_marks)
{
	static const struct {
		const char *in;
		size_t len;
		const char *want;
	} cases[] = {
		{ "a\x1b[31mb", 0, "a?[31mb" },
		{ "\x07\x08\t\r\n\x7f", 0, "??????" },
		{ "a\0b", 3, "a?b" },
		{ "\x9b" "2J", 0, "?2J" },                 /* a raw C1 CSI byte */
		{ "\xc2\x9b" "2J", 0, "?2J" },             /* U+009B, the C1 CSI */
		{ "\xe2\x80\xae" "evil", 0, "?evil" },     /* RLO */
		{ "\xe2\x81\xa6x\xe2\x81\xa9", 0, "?x?" }, /* LRI .. PDI */
		{ "\xe2\x80\x8b\xe2\x80\x8d\xef\xbb\xbf", 0, "???" }, /* ZWSP ZWJ BOM */
		{ "e\xcc\x81", 0, "e?" },                 /* a combining accent */
		{ "\xc0\xaf", 0, "??" },                  /* overlong '/' */
		{ "\xed\xa0\x80", 0, "???" },              /* a surrogate */
		{ "\xf4\x90\x80\x80", 0, "????" },          /* above U+10FFFF */
		{ "\xe2\x82", 0, "??" },                   /* cut short */
		{ "\xf0\x9f\x98\x80", 0, "?" },            /* an emoji: width in doubt */
		{ "\xe2\x80\xa8", 0, "?" },                /* line separator */
	};
	struct ior_tui_screen s, blank;

	ior_tui_screen_init(&s, (int)(sizeof cases / sizeof cases[0]), 12, 1);
	ior_tui_screen_init(&blank, s.rows, s.cols, 1);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t len = cases[i].len ? cases[i].len : strlen(cases[i].in);
		char want[32];
		ior_tui_putn(&s, (int)i, 0, -1, plain, IOR_TUI_PAD, cases[i].in, len);
		snprintf(want, sizeof want, "%-12s", cases[i].want);
		if (strcmp(vt_row_text(&s, (int)i), want))
			T_FAIL("case %zu: \"%s\", want \"%s\"", i, vt_row_text(&s, (int)i), want);
	}
	/* the model terminal rejects any escape or byte it does not know */
	CHECK_EQ_STR(play(NULL, &s, NULL), "");
	CHECK_EQ_STR(play(&blank, &s, NULL), "");
	ior_tui_screen_free(&s);
	ior_tui_screen_free(&blank);
}

TEST(ascii_screen_never_emits_high_bytes)
{
	struct ior_tui_screen s;
	struct ior_tui_buf b = { 0 };
	double v[] = { 1, 2, 3 };

	ior_tui_screen_init(&s, 4, 20, 0);
	ior_tui_put(&s, 0, 0, -1, plain, "caf\xc3\xa9 \xe6\x97\xa5 \xc2\x9b");
	ior_tui_box(&s, 1, 0, 3, 6, plain);
	ior_tui_sparkline(&s, 1, 8, 3, plain, v, 3, 0);
	ior_tui_bar(&s, 2, 8, 5, plain, 0.5);
	ior_tui_render(&b, NULL, &s);
	for (size_t i = 0; i < b.len; i++)
		if ((unsigned char)b.data[i] >= 0x80)
			T_FAIL("byte 0x%02x at %zu", (unsigned char)b.data[i], i);
	CHECK_EQ_STR(row_trim(&s, 0), "caf? ? ?");
	CHECK_EQ_STR(row_trim(&s, 1), "+----+  -+#");
	CHECK_EQ_STR(row_trim(&s, 2), "|    |  ###");
	CHECK_EQ_STR(row_trim(&s, 3), "+----+");
	ior_tui_buf_free(&b);
	ior_tui_screen_free(&s);
}

TEST(lines_and_box_utf8)
{
	struct ior_tui_screen s;
	ior_tui_screen_init(&s, 3, 4, 1);
	ior_tui_box(&s, 0, 0, 3, 4, plain);
	CHECK_EQ_STR(vt_row_text(&s, 0), "\xe2\x94\x8c\xe2\x94\x80\xe2\x94\x80\xe2\x94\x90");
	CHECK_EQ_STR(vt_row_text(&s, 1), "\xe2\x94\x82  \xe2\x94\x82");
	CHECK_EQ_STR(vt_row_text(&s, 2), "\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80\xe2\x94\x98");
	ior_tui_hline(&s, 1, 1, 2, plain);
	CHECK_EQ_STR(vt_row_text(&s, 1), "\xe2\x94\x82\xe2\x94\x80\xe2\x94\x80\xe2\x94\x82");
	ior_tui_fill(&s, 0, 0, 3, 4, plain, "\xe6\x97\xa5"); /* wide fill */
	CHECK_EQ_STR(vt_row_text(&s, 2), "\xe6\x97\xa5\xe6\x97\xa5");
	ior_tui_fill(&s, 0, 0, 3, 3, plain, "\xe6\x97\xa5"); /* an odd width ends in a space */
	CHECK_EQ_STR(vt_row_text(&s, 2), "\xe6\x97\xa5  "); /* which erased the wide one it cut */
	ior_tui_screen_free(&s);
}

TEST(sparkline)
{
	struct ior_tui_screen s;
	double v[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
	double odd[] = { NAN, -1, INFINITY, 0.001 };

	ior_tui_screen_init(&s, 1, 12, 1);
	CHECK_EQ_INT(ior_tui_sparkline(&s, 0, 0, 12, plain, v, 9, 8), 9);
	CHECK_EQ_STR(vt_row_text(&s, 0), "    \xe2\x96\x81\xe2\x96\x82\xe2\x96\x83\xe2\x96\x84\xe2\x96\x85\xe2\x96\x86\xe2\x96\x87\xe2\x96\x88");
	ior_tui_sparkline(&s, 0, 0, 3, plain, v, 9, 0); /* the last 3, scaled to 8 */
	CHECK_EQ_STR(vt_row_text(&s, 0), "\xe2\x96\x86\xe2\x96\x87\xe2\x96\x88 \xe2\x96\x81\xe2\x96\x82\xe2\x96\x83\xe2\x96\x84\xe2\x96\x85\xe2\x96\x86\xe2\x96\x87\xe2\x96\x88");
	ior_tui_screen_free(&s);

	ior_tui_screen_init(&s, 1, 9, 0);
	ior_tui_sparkline(&s, 0, 0, 9, plain, v, 9, 8);
	CHECK_EQ_STR(vt_row_text(&s, 0), " .:-=+*##");
	ior_tui_sparkline(&s, 0, 0, 9, plain, v, 9, 4); /* above max: the top */
	CHECK_EQ_STR(vt_row_text(&s, 0), " :=*#####");
	ior_tui_sparkline(&s, 0, 0, 4, plain, odd, 4, 0); /* autoscaled to +inf */
	CHECK_EQ_STR(vt_row_text(&s, 0), "  #.#####");
	ior_tui_sparkline(&s, 0, 0, 4, plain, NULL, 0, 0);
	CHECK_EQ_STR(vt_row_text(&s, 0), "    #####");
	ior_tui_screen_free(&s);
}

TEST(bar)
{
	struct ior_tui_screen s;

	ior_tui_screen_init(&s, 1, 10, 1);
	CHECK_EQ_INT(ior_tui_bar(&s, 0, 0, 10, plain, 0.5), 5);
	CHECK_EQ_STR(vt_row_text(&s, 0), "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88     ");
	CHECK_EQ_INT(ior_tui_bar(&s, 0, 0, 10, plain, 0.55), 6); /* 44 eighths: 5 and a half */
	CHECK_EQ_STR(vt_row_text(&s, 0), "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x8c    ");
	CHECK_EQ_INT(ior_tui_bar(&s, 0, 0, 10, plain, 0.0125), 1); /* one eighth */
	CHECK_EQ_STR(vt_row_text(&s, 0), "\xe2\x96\x8f         ");
	CHECK_EQ_INT(ior_tui_bar(&s, 0, 0, 10, plain, 7), 10);
	CHECK_EQ_INT(ior_tui_bar(&s, 0, 0, 10, plain, NAN), 0);
	CHECK_EQ_STR(vt_row_text(&s, 0), "          ");
	ior_tui_screen_free(&s);

	ior_tui_screen_init(&s, 1, 10, 0);
	CHECK_EQ_INT(ior_tui_bar(&s, 0, 0, 10, plain, 0.55), 6);
	CHECK_EQ_STR(vt_row_text(&s, 0), "######    ");
	ior_tui_screen_free(&s);
}

/* A deterministic generator (xorshift) for the random frames. */
static uint32_t rnd_state = 2463534242u;
static uint32_t rnd(uint32_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state % n;
}

/* Draws a few random things on s: text of every kind, styles, lines. */
static void scribble(struct ior_tui_screen *s, int n)
{
	static const char *const texts[] = {
		"hello", "\xe6\x97\xa5\xe6\x9c\xac", "caf\xc3\xa9", "\x1b[2J", "\xe2\x80\xae", "a\xe6\x97\xa5" "b",
		"\xc3\xa9\xc3\xa9\xc3\xa9", " ", "\xff\xfe", "\xe2\x96\x88", "\xea\xb0\x80\xea\xb0\x81",
	};
	for (int i = 0; i < n; i++) {
		struct ior_tui_style st = { (uint8_t)rnd(16), (uint8_t)rnd(17), (uint8_t)rnd(17) };
		int r = (int)rnd((uint32_t)s->rows), c = (int)rnd((uint32_t)s->cols + 2) - 1;
		const char *t = texts[rnd(sizeof texts / sizeof texts[0])];
		switch (rnd(5)) {
		case 0: ior_tui_hline(s, r, c, (int)rnd(10), st); break;
		case 1: ior_tui_fill(s, r, c, 2, 3, st, t); break;
		default: ior_tui_putn(s, r, c, (int)rnd(12) - 1, st, (int)rnd(32), t, strlen(t)); break;
		}
	}
	if (rnd(3) == 0)
		ior_tui_screen_cursor(s, (int)rnd((uint32_t)s->rows), (int)rnd((uint32_t)s->cols));
}

TEST(random_frames_diff_exactly)
{
	struct ior_tui_screen shown, next;
	struct ior_tui_buf b = { 0 };
	struct vt v;
	char why[256];

	for (int utf8 = 0; utf8 < 2; utf8++) {
		ior_tui_screen_init(&shown, 7, 13, utf8);
		ior_tui_screen_init(&next, 7, 13, utf8);
		vt_init(&v, 7, 13);
		ior_tui_render(&b, NULL, &shown);
		for (int frame = 0; frame < 3000 && !t_cur_failed; frame++) {
			memcpy(next.cells, shown.cells, sizeof *next.cells * (size_t)(7 * 13));
			next.cursor_visible = 0;
			if (rnd(8) == 0)
				ior_tui_screen_clear(&next, plain);
			scribble(&next, (int)rnd(6));
			ior_tui_render(&b, rnd(50) ? &shown : NULL, &next);
			vt_feed(&v, b.data, b.len);
			ior_tui_buf_reset(&b);
			if (*vt_differs(&v, &next, why, sizeof why))
				T_FAIL("utf8 %d frame %d: %s", utf8, frame, why);
			ior_tui_screen_swap(&shown, &next);
		}
		vt_free(&v);
		ior_tui_screen_free(&shown);
		ior_tui_screen_free(&next);
	}
	ior_tui_buf_free(&b);
}

TEST(unchanged_frame_writes_nothing)
{
	struct ior_tui_screen a, b;
	struct ior_tui_buf out = { 0 };

	ior_tui_screen_init(&a, 5, 20, 1);
	ior_tui_screen_init(&b, 5, 20, 1);
	for (int i = 0; i < 2; i++) {
		struct ior_tui_screen *s = i ? &b : &a;
		ior_tui_put(s, 1, 2, -1, (struct ior_tui_style){ IOR_TUI_BOLD, IOR_TUI_RED, 0 }, "same \xe6\x97\xa5");
		ior_tui_screen_cursor(s, 3, 4);
	}
	ior_tui_render(&out, &a, &b);
	CHECK_EQ_INT(out.len, 0);
	ior_tui_screen_cursor(&b, 3, 5); /* only the cursor moves */
	ior_tui_render(&out, &a, &b);
	CHECK(out.len == 3 && !memcmp(out.data, "\x1b[C", 3)); /* one column right */
	ior_tui_buf_free(&out);
	ior_tui_screen_free(&a);
	ior_tui_screen_free(&b);
}

TEST(small_change_small_output)
{
	struct ior_tui_screen a, b;
	struct ior_tui_buf out = { 0 };
	size_t len;

	ior_tui_screen_init(&a, 24, 80, 1);
	ior_tui_screen_init(&b, 24, 80, 1);
	for (int r = 0; r < 24; r++) {
		ior_tui_putf(&a, r, 0, -1, plain, 0, "row %d of a table with some text", r);
		ior_tui_putf(&b, r, 0, -1, plain, 0, "row %d of a table with some text", r);
	}
	ior_tui_put(&b, 10, 7, -1, plain, "X");
	CHECK_EQ_STR(play(&a, &b, &len), "");
	ior_tui_render(&out, &a, &b);
	CHECK_EQ_INT(out.len, len);
	CHECK(out.len > 0 && out.len <= 16); /* hide the cursor, move, attributes, 'X' */
	CHECK(memmem(out.data, out.len, "\x1b[11;8H", 7) != NULL);
	ior_tui_buf_free(&out);
	ior_tui_screen_free(&a);
	ior_tui_screen_free(&b);
}

TEST(resize_redraws_everything)
{
	struct ior_tui_screen a, b;
	struct ior_tui_buf out = { 0 };

	ior_tui_screen_init(&a, 24, 80, 1);
	ior_tui_screen_init(&b, 24, 80, 1);
	ior_tui_put(&a, 0, 0, -1, plain, "title");
	ior_tui_put(&b, 0, 0, -1, plain, "title");
	CHECK_EQ_INT(ior_tui_screen_resize(&b, 30, 100), 0);
	CHECK(b.rows == 30 && b.cols == 100 && strspn(vt_row_text(&b, 0), " ") == 100);
	ior_tui_put(&b, 0, 0, -1, plain, "title");
	ior_tui_put(&b, 29, 90, -1, plain, "corner");
	ior_tui_render(&out, &a, &b);
	CHECK(out.len > 11 && !memcmp(out.data, "\x1b[0m\x1b[H\x1b[2J", 11));
	CHECK_EQ_STR(play(&a, &b, NULL), "");
	/* and on request: prev NULL */
	ior_tui_buf_reset(&out);
	ior_tui_render(&out, NULL, &b);
	CHECK(out.len > 11 && !memcmp(out.data, "\x1b[0m\x1b[H\x1b[2J", 11));
	/* sizes are clipped */
	CHECK_EQ_INT(ior_tui_screen_resize(&b, 0, 100000), 0);
	CHECK(b.rows == 1 && b.cols == IOR_TUI_MAX_COLS);
	ior_tui_buf_free(&out);
	ior_tui_screen_free(&a);
	ior_tui_screen_free(&b);
}

TEST(styles_and_cursor)
{
	struct ior_tui_screen a, b;

	ior_tui_screen_init(&a, 3, 10, 1);
	ior_tui_screen_init(&b, 3, 10, 1);
	ior_tui_put(&b, 0, 0, -1, (struct ior_tui_style){ IOR_TUI_BOLD | IOR_TUI_UNDERLINE, IOR_TUI_BRIGHT_CYAN, IOR_TUI_BLUE }, "ab");
	ior_tui_put(&b, 1, 0, -1, (struct ior_tui_style){ IOR_TUI_REVERSE | IOR_TUI_DIM, IOR_TUI_BLACK, IOR_TUI_BRIGHT_WHITE }, "cd");
	ior_tui_screen_cursor(&b, 2, 9);
	CHECK_EQ_STR(play(&a, &b, NULL), "");
	CHECK_EQ_STR(play(NULL, &b, NULL), "");
	ior_tui_screen_cursor(&a, 1, 1);
	CHECK_EQ_STR(play(&a, &b, NULL), "");
	ior_tui_screen_cursor(&b, -1, 0);
	CHECK(!b.cursor_visible);
	CHECK_EQ_STR(play(&a, &b, NULL), "");
	ior_tui_screen_free(&a);
	ior_tui_screen_free(&b);
}

int main(void)
{
	RUN(clip_ascii_and_utf8);
	RUN(clip_wide);
	RUN(hostile_text_becomes_question_marks);
	RUN(ascii_screen_never_emits_high_bytes);
	RUN(lines_and_box_utf8);
	RUN(sparkline);
	RUN(bar);
	RUN(random_frames_diff_exactly);
	RUN(unchanged_frame_writes_nothing);
	RUN(small_change_small_output);
	RUN(resize_redraws_everything);
	RUN(styles_and_cursor);
	return t_done();
}
