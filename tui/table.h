/* A table of columns drawn into a screen: a header with the sort column
 * marked, rows whose text a callback gives, one selected row kept in view
 * as it moves. The table owns no rows: the caller says how many there are
 * and hands out each cell's text when it is drawn, so a table of a million
 * rows costs what the rows on the screen cost. Not thread-safe. */
#ifndef IOR_TUI_TABLE_H
#define IOR_TUI_TABLE_H

#include <stddef.h>

#include "keys.h"
#include "screen.h"

struct ior_tui_column {
	const char *title;
	int width;  /* columns; 0: flexible, sharing what the fixed ones leave */
	int flags;  /* ior_tui_putn's: IOR_TUI_RIGHT for numbers, IOR_TUI_KEEP_END
		     * for paths, IOR_TUI_ELLIPSIS; padding is added */
};

#define IOR_TUI_CELL_MAX 512 /* bytes of one cell's text, NUL included */

struct ior_tui_table {
	const struct ior_tui_column *cols;
	int ncols;
	/* The text of row's column col: written into buf (len bytes) or
	 * returned as a string of the caller's; NULL is an empty cell. The text
	 * may be hostile: the screen draws what it cannot show as '?'. */
	const char *(*cell)(void *ctx, size_t row, int col, char *buf, size_t len);
	void *ctx;
	size_t nrows;
	size_t selected;     /* kept below nrows by draw and key */
	size_t top;          /* the first row shown; draw keeps selected in view */
	int sort_col;        /* the column marked as the sort key; -1: none */
	int sort_desc;       /* the mark points down: largest first */
	int show_selection;  /* 0: no row is highlighted (a plain listing) */
	struct ior_tui_style head, body, sel;
	int page;            /* body rows at the last draw (for PgUp and PgDn) */
};

/* Draws t in the rectangle: one header row, then the rows from top. Fixed
 * columns get their width, flexible ones share the rest (at least 1 each);
 * one column of space between columns; what does not fit is cut at the
 * right edge. Scrolls top so that selected is shown. */
void ior_tui_table_draw(struct ior_tui_table *t, struct ior_tui_screen *s, int row, int col,
			int height, int width);

/* Moves the selection for Up, Down, PgUp, PgDn, Home, End; returns 1 when
 * the key was one of them, 0 otherwise (the caller's key). */
int ior_tui_table_key(struct ior_tui_table *t, const struct ior_tui_key *k);

#endif
