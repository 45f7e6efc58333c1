/* The table widget (layout, sort mark, selection and scrolling, hostile
 * cells) and the line editor (UTF-8 editing, bounds, scrolled drawing). */
#include "tui/edit.h"
#include "tui/table.h"
#include "t.h"
#include "vt.h"

static const struct ior_tui_style plain = { 0, 0, 0 }, rev = { IOR_TUI_REVERSE, 0, 0 },
				  bold = { IOR_TUI_BOLD, 0, 0 };

static const struct ior_tui_column cols[] = {
	{ "syscall", 8, 0 },
	{ "count", 6, IOR_TUI_RIGHT },
	{ "file", 0, IOR_TUI_KEEP_END },
};

static const char *cell(void *ctx, size_t row, int col, char *buf, size_t len)
{
	(void)ctx;
	if (col == 0)
		return row == 3 ? "read\x1b[2J" : "read";
	if (col == 1)
		return snprintf(buf, len, "%zu", row * 10), buf;
	return row == 1 ? NULL : "/var/lib/some/long/path/data.db";
}

static struct ior_tui_table table(size_t nrows)
{
	struct ior_tui_table t = { cols, 3, cell, NULL, nrows, 0, 0, 1, 1, 1, bold, plain, rev, 0 };
	return t;
}

TEST(layout_and_header)
{
	struct ior_tui_screen s;
	struct ior_tui_table t = table(5);

	ior_tui_screen_init(&s, 6, 30, 1);
	ior_tui_table_draw(&t, &s, 0, 0, 6, 30);
	/* 8 + 1 + 6 + 1 + 14 (flexible) = 30 */
	CHECK_EQ_STR(vt_row_text(&s, 0), "syscall  count\xe2\x96\xbc file          ");
	CHECK_EQ_STR(vt_row_text(&s, 1), "read          0 \xe2\x80\xa6/path/data.db");
	CHECK_EQ_STR(vt_row_text(&s, 2), "read         10               ");
	CHECK_EQ_STR(vt_row_text(&s, 4), "read?[2J     30 \xe2\x80\xa6/path/data.db");
	CHECK_EQ_INT(ior_tui_cell_at(&s, 0, 0)->attr, IOR_TUI_BOLD);
	CHECK_EQ_INT(ior_tui_cell_at(&s, 1, 20)->attr, IOR_TUI_REVERSE); /* the selected row, whole */
	CHECK_EQ_INT(ior_tui_cell_at(&s, 1, 8)->attr, IOR_TUI_REVERSE);  /* and its gaps */
	CHECK_EQ_INT(ior_tui_cell_at(&s, 2, 20)->attr, 0);
	CHECK_EQ_INT(t.page, 5);

	/* narrower than the fixed columns: cut at the edge, the flexible one keeps 1 */
	ior_tui_screen_clear(&s, plain);
	t.sort_col = 0;
	t.sort_desc = 0;
	ior_tui_table_draw(&t, &s, 0, 0, 3, 12);
	CHECK_EQ_STR(vt_row_text(&s, 0), "syscall\xe2\x96\xb2 cou                  ");
	CHECK_EQ_STR(vt_row_text(&s, 1), "read       0                  ");
	ior_tui_screen_free(&s);

	ior_tui_screen_init(&s, 2, 30, 0); /* ASCII marks */
	ior_tui_table_draw(&t, &s, 0, 0, 2, 30);
	CHECK_EQ_STR(vt_row_text(&s, 0), "syscall^  count file          ");
	ior_tui_screen_free(&s);
}

TEST(selection_scrolls)
{
	struct ior_tui_screen s;
	struct ior_tui_table t = table(100);
	struct ior_tui_key k = { IOR_TUI_KEY_DOWN, 0, "" };

	ior_tui_screen_init(&s, 5, 30, 1);
	ior_tui_table_draw(&t, &s, 0, 0, 5, 30); /* 4 body rows */
	for (int i = 0; i < 5; i++)
		CHECK_EQ_INT(ior_tui_table_key(&t, &k), 1);
	CHECK_EQ_INT(t.selected, 5);
	CHECK_EQ_INT(t.top, 2);
	k.code = IOR_TUI_KEY_PGDN;
	ior_tui_table_key(&t, &k);
	CHECK_EQ_INT(t.selected, 8);
	k.code = IOR_TUI_KEY_END;
	ior_tui_table_key(&t, &k);
	CHECK(t.selected == 99 && t.top == 96);
	ior_tui_table_draw(&t, &s, 0, 0, 5, 30);
	CHECK(!strncmp(vt_row_text(&s, 4), "read        990", 15));
	CHECK_EQ_INT(ior_tui_cell_at(&s, 4, 0)->attr, IOR_TUI_REVERSE);
	k.code = IOR_TUI_KEY_PGUP;
	ior_tui_table_key(&t, &k);
	CHECK(t.selected == 96 && t.top == 96);
	k.code = IOR_TUI_KEY_HOME;
	ior_tui_table_key(&t, &k);
	CHECK(t.selected == 0 && t.top == 0);
	k.code = IOR_TUI_KEY_UP;
	ior_tui_table_key(&t, &k);
	CHECK_EQ_INT(t.selected, 0);
	k.code = 'x';
	CHECK_EQ_INT(ior_tui_table_key(&t, &k), 0);

	/* the rows shrink under the selection */
	t.selected = 99;
	t.top = 96;
	t.nrows = 3;
	ior_tui_table_draw(&t, &s, 0, 0, 5, 30);
	CHECK(t.selected == 2 && t.top == 0);
	CHECK_EQ_STR(vt_row_text(&s, 4), "                              ");
	t.nrows = 0;
	k.code = IOR_TUI_KEY_DOWN;
	ior_tui_table_key(&t, &k);
	CHECK_EQ_INT(t.selected, 0);
	ior_tui_table_draw(&t, &s, 0, 0, 5, 30);
	CHECK_EQ_STR(vt_row_text(&s, 1), "                              ");
	ior_tui_screen_free(&s);
}

static void type(struct ior_tui_edit *e, int code, unsigned mods, const char *text)
{
	struct ior_tui_key k = { code, mods, "" };
	snprintf(k.text, sizeof k.text, "%s", text ? text : "");
	ior_tui_edit_key(e, &k);
}

TEST(edit_keys)
{
	struct ior_tui_edit e;

	ior_tui_edit_set(&e, "ab");
	type(&e, 0xe9, 0, "\xc3\xa9");
	CHECK_EQ_STR(e.text, "ab\xc3\xa9");
	type(&e, IOR_TUI_KEY_LEFT, 0, NULL);
	type(&e, IOR_TUI_KEY_LEFT, 0, NULL);
	CHECK_EQ_INT(e.cursor, 1);
	type(&e, 0x65e5, 0, "\xe6\x97\xa5");
	CHECK_EQ_STR(e.text, "a\xe6\x97\xa5" "b\xc3\xa9");
	type(&e, IOR_TUI_KEY_BACKSPACE, 0, NULL);
	CHECK_EQ_STR(e.text, "ab\xc3\xa9");
	type(&e, IOR_TUI_KEY_END, 0, NULL);
	type(&e, IOR_TUI_KEY_BACKSPACE, 0, NULL);
	CHECK_EQ_STR(e.text, "ab");
	type(&e, IOR_TUI_KEY_HOME, 0, NULL);
	type(&e, IOR_TUI_KEY_DELETE, 0, NULL);
	CHECK_EQ_STR(e.text, "b");
	type(&e, IOR_TUI_KEY_BACKSPACE, 0, NULL); /* at the start: nothing */
	type(&e, IOR_TUI_KEY_RIGHT, 0, NULL);
	type(&e, IOR_TUI_KEY_RIGHT, 0, NULL);
	type(&e, IOR_TUI_KEY_DELETE, 0, NULL);   /* at the end: nothing */
	CHECK(!strcmp(e.text, "b") && e.cursor == 1);

	ior_tui_edit_set(&e, "open /etc/passwd  ");
	type(&e, 'w', IOR_TUI_MOD_CTRL, NULL);
	CHECK_EQ_STR(e.text, "open ");
	type(&e, 'a', IOR_TUI_MOD_CTRL, NULL);
	type(&e, 'k', IOR_TUI_MOD_CTRL, NULL);
	CHECK_EQ_STR(e.text, "");
	ior_tui_edit_set(&e, "xyz");
	type(&e, IOR_TUI_KEY_LEFT, 0, NULL);
	type(&e, 'u', IOR_TUI_MOD_CTRL, NULL);
	CHECK(!strcmp(e.text, "z") && e.cursor == 0);
	type(&e, 'e', IOR_TUI_MOD_CTRL, NULL);
	CHECK_EQ_INT(e.cursor, 1);

	struct ior_tui_key enter = { IOR_TUI_KEY_ENTER, 0, "" }, alt = { 'x', IOR_TUI_MOD_ALT, "" };
	CHECK_EQ_INT(ior_tui_edit_key(&e, &enter), 0);
	CHECK_EQ_INT(ior_tui_edit_key(&e, &alt), 0);
	CHECK_EQ_STR(e.text, "z");
}

TEST(edit_bounds_and_hostile_set)
{
	struct ior_tui_edit e;
	char big[600];

	ior_tui_edit_set(&e, "a\x1b[2J\xff\xe2\x80\xae" "b\x07");
	CHECK_EQ_STR(e.text, "a[2Jb");
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	ior_tui_edit_set(&e, big);
	CHECK_EQ_INT(e.len, IOR_TUI_EDIT_MAX - 1);
	type(&e, 'y', 0, "y");
	CHECK_EQ_INT(e.len, IOR_TUI_EDIT_MAX - 1);
	type(&e, IOR_TUI_KEY_BACKSPACE, 0, NULL);
	type(&e, 0xe9, 0, "\xc3\xa9"); /* two bytes do not fit in one */
	CHECK_EQ_INT(e.len, IOR_TUI_EDIT_MAX - 2);
	type(&e, 'y', 0, "y");
	CHECK_EQ_INT(e.len, IOR_TUI_EDIT_MAX - 1);
	CHECK_EQ_INT(e.text[IOR_TUI_EDIT_MAX - 1], 0);
}

TEST(edit_draw_scrolls)
{
	struct ior_tui_screen s;
	struct ior_tui_edit e;

	ior_tui_screen_init(&s, 1, 12, 1);
	ior_tui_edit_set(&e, "abc");
	ior_tui_edit_draw(&e, &s, 0, 2, 6, plain);
	CHECK_EQ_STR(vt_row_text(&s, 0), "  abc       ");
	CHECK(s.cursor_visible && s.cursor_row == 0 && s.cursor_col == 5);
	ior_tui_edit_set(&e, "abcdefghij");
	ior_tui_edit_draw(&e, &s, 0, 2, 6, plain);
	CHECK_EQ_STR(vt_row_text(&s, 0), "  fghij     ");
	CHECK_EQ_INT(s.cursor_col, 7);
	type(&e, IOR_TUI_KEY_HOME, 0, NULL);
	ior_tui_edit_draw(&e, &s, 0, 2, 6, plain);
	CHECK_EQ_STR(vt_row_text(&s, 0), "  abcdef    ");
	CHECK_EQ_INT(s.cursor_col, 2);
	ior_tui_edit_set(&e, "\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5"); /* 8 columns */
	ior_tui_edit_draw(&e, &s, 0, 2, 6, plain);
	CHECK_EQ_STR(vt_row_text(&s, 0), "  \xe6\x97\xa5\xe6\x97\xa5      ");
	CHECK_EQ_INT(s.cursor_col, 6);
	ior_tui_screen_free(&s);
}

int main(void)
{
	RUN(layout_and_header);
	RUN(selection_scrolls);
	RUN(edit_keys);
	RUN(edit_bounds_and_hostile_set);
	RUN(edit_draw_scrolls);
	return t_done();
}
