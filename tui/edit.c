/* The line editor. The text is kept valid UTF-8 (it only ever receives
 * characters the key decoder or ior_tui_edit_set checked), so moving by
 * characters is stepping over continuation bytes. */
#include "edit.h"
#include "utf8.h"

#include <string.h>

static size_t prev_char(const struct ior_tui_edit *e, size_t i)
{
	if (i == 0)
		return 0;
	for (i--; i > 0 && (e->text[i] & 0xc0) == 0x80; i--)
		;
	return i;
}

static size_t next_char(const struct ior_tui_edit *e, size_t i)
{
	if (i >= e->len)
		return e->len;
	for (i++; i < e->len && (e->text[i] & 0xc0) == 0x80; i++)
		;
	return i;
}

/* Removes text[from..to) and leaves the cursor at from. */
static void cut(struct ior_tui_edit *e, size_t from, size_t to)
{
	memmove(e->text + from, e->text + to, e->len - to + 1);
	e->len -= to - from;
	e->cursor = from;
}

static void insert(struct ior_tui_edit *e, const char *s, size_t n)
{
	if (e->len + n >= sizeof e->text)
		return;
	memmove(e->text + e->cursor + n, e->text + e->cursor, e->len - e->cursor + 1);
	memcpy(e->text + e->cursor, s, n);
	e->len += n;
	e->cursor += n;
}

void ior_tui_edit_set(struct ior_tui_edit *e, const char *text)
{
	size_t n = text ? strlen(text) : 0;

	memset(e, 0, sizeof *e);
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int len = ior_utf8_seq((const unsigned char *)text + i, n - i, &cp);
		if (len && ior_tui_cp_width(cp) > 0)
			insert(e, text + i, (size_t)len);
		i += len ? (size_t)len : 1;
	}
}

/* The start of the word before the cursor (spaces before it included). */
static size_t word_start(const struct ior_tui_edit *e)
{
	size_t i = e->cursor;

	while (i > 0 && e->text[prev_char(e, i)] == ' ')
		i = prev_char(e, i);
	while (i > 0 && e->text[prev_char(e, i)] != ' ')
		i = prev_char(e, i);
	return i;
}

/* Ctrl-A, E, U, K, W; 0 for any other letter. */
static int ctrl_key(struct ior_tui_edit *e, int letter)
{
	switch (letter) {
	case 'a': e->cursor = 0; break;
	case 'e': e->cursor = e->len; break;
	case 'u': cut(e, 0, e->cursor); break;
	case 'k': cut(e, e->cursor, e->len); break;
	case 'w': cut(e, word_start(e), e->cursor); break;
	default: return 0;
	}
	return 1;
}

int ior_tui_edit_key(struct ior_tui_edit *e, const struct ior_tui_key *k)
{
	if (k->text[0]) {
		insert(e, k->text, strnlen(k->text, sizeof k->text));
		return 1;
	}
	if (k->mods == IOR_TUI_MOD_CTRL && k->code >= 'a' && k->code <= 'z')
		return ctrl_key(e, k->code);
	switch (k->code) {
	case IOR_TUI_KEY_BACKSPACE: cut(e, prev_char(e, e->cursor), e->cursor); break;
	case IOR_TUI_KEY_DELETE: cut(e, e->cursor, next_char(e, e->cursor)); break;
	case IOR_TUI_KEY_LEFT: e->cursor = prev_char(e, e->cursor); break;
	case IOR_TUI_KEY_RIGHT: e->cursor = next_char(e, e->cursor); break;
	case IOR_TUI_KEY_HOME: e->cursor = 0; break;
	case IOR_TUI_KEY_END: e->cursor = e->len; break;
	default: return 0;
	}
	return 1;
}

void ior_tui_edit_draw(struct ior_tui_edit *e, struct ior_tui_screen *s, int row, int col, int width,
		       struct ior_tui_style st)
{
	int room = width - 1; /* the cursor may sit after the last character */

	if (width <= 0)
		return;
	if (e->scroll > e->cursor || ior_tui_text_width(s, e->text, e->len) <= room)
		e->scroll = 0;
	while (e->scroll < e->cursor && ior_tui_text_width(s, e->text + e->scroll, e->cursor - e->scroll) > room)
		e->scroll = next_char(e, e->scroll);
	ior_tui_putn(s, row, col, width, st, IOR_TUI_PAD, e->text + e->scroll, e->len - e->scroll);
	ior_tui_screen_cursor(s, row, col + ior_tui_text_width(s, e->text + e->scroll, e->cursor - e->scroll));
}
