/* A one-line text editor for filters and searches: UTF-8 text, a cursor,
 * the usual keys, drawn scrolled so the cursor stays in view with the
 * screen's cursor on it. Bounded: the text never exceeds
 * IOR_TUI_EDIT_MAX - 1 bytes; typing beyond is refused. Not thread-safe. */
#ifndef IOR_TUI_EDIT_H
#define IOR_TUI_EDIT_H

#include <stddef.h>

#include "keys.h"
#include "screen.h"

#define IOR_TUI_EDIT_MAX 256

struct ior_tui_edit {
	char text[IOR_TUI_EDIT_MAX]; /* NUL-terminated, valid UTF-8 */
	size_t len;                  /* bytes */
	size_t cursor;               /* a byte offset on a character boundary */
	size_t scroll;               /* the first byte shown */
};

/* Sets the text (cut to fit, invalid UTF-8 and control bytes left out),
 * the cursor at its end. NULL: empty. */
void ior_tui_edit_set(struct ior_tui_edit *e, const char *text);

/* Edits for the key: a typed character is inserted; Backspace, Delete,
 * Left, Right, Home (Ctrl-A), End (Ctrl-E), Ctrl-U (delete to the start),
 * Ctrl-K (to the end), Ctrl-W (the word before the cursor). Returns 1 when
 * the key was one of those (even if it changed nothing), 0 for any other:
 * Enter, Esc and the rest are the caller's. */
int ior_tui_edit_key(struct ior_tui_edit *e, const struct ior_tui_key *k);

/* Draws the text in width columns at row, col (the rest padded in st),
 * scrolled so the cursor is in view, and puts the screen's cursor there. */
void ior_tui_edit_draw(struct ior_tui_edit *e, struct ior_tui_screen *s, int row, int col, int width,
		       struct ior_tui_style st);

#endif
