/* A screen in memory and the escapes that bring a terminal to it.
 *
 * A screen is rows x cols cells; each holds one character and its style.
 * Drawing only changes cells; ior_tui_render compares the screen the
 * terminal shows with the next one and appends the bytes that turn one
 * into the other: cursor moves, SGR attribute changes and the text of the
 * cells that changed (everything after a resize or when asked).
 *
 * Text given to the drawing functions may come from the traced system and
 * is treated as hostile: control bytes (ESC included), invalid UTF-8, C1
 * controls, bidirectional overrides, zero-width and other characters whose
 * width is in doubt become '?', one per byte or character, so nothing but
 * the renderer's own escapes ever reaches the terminal. On an ASCII
 * screen (utf8 0) every non-ASCII character becomes '?' too, and lines,
 * sparklines and bars are drawn from ASCII.
 *
 * Coordinates are 0-based; anything outside the screen is clipped, so
 * callers may draw without checking bounds. A wide (two-column) character
 * that does not fit its room is drawn as a space. Not thread-safe: one
 * screen, one thread. */
#ifndef IOR_TUI_SCREEN_H
#define IOR_TUI_SCREEN_H

#include <stddef.h>
#include <stdint.h>

/* A screen is at most this large; a terminal reporting more is clipped. */
#define IOR_TUI_MAX_ROWS 512
#define IOR_TUI_MAX_COLS 1024

/* Attributes, or'ed. */
#define IOR_TUI_BOLD 0x01
#define IOR_TUI_DIM 0x02
#define IOR_TUI_UNDERLINE 0x04
#define IOR_TUI_REVERSE 0x08
#define IOR_TUI_ATTRS 0x0f
#define IOR_TUI_WIDE 0x80 /* in a cell: the left half of a wide character */

/* Colors: the terminal's default, or one of 16 (8..15 are the bright ones). */
enum ior_tui_color {
	IOR_TUI_DEFAULT = 0,
	IOR_TUI_BLACK = 1,
	IOR_TUI_RED,
	IOR_TUI_GREEN,
	IOR_TUI_YELLOW,
	IOR_TUI_BLUE,
	IOR_TUI_MAGENTA,
	IOR_TUI_CYAN,
	IOR_TUI_WHITE,
	IOR_TUI_BRIGHT_BLACK,
	IOR_TUI_BRIGHT_RED,
	IOR_TUI_BRIGHT_GREEN,
	IOR_TUI_BRIGHT_YELLOW,
	IOR_TUI_BRIGHT_BLUE,
	IOR_TUI_BRIGHT_MAGENTA,
	IOR_TUI_BRIGHT_CYAN,
	IOR_TUI_BRIGHT_WHITE,
};

struct ior_tui_style {
	uint8_t attr; /* IOR_TUI_BOLD ... */
	uint8_t fg, bg; /* enum ior_tui_color */
};

/* One cell. ch holds the UTF-8 of one printable character, unused bytes 0;
 * the right half of a wide character has ch[0] == 0 and follows a cell
 * whose attr has IOR_TUI_WIDE. */
struct ior_tui_cell {
	char ch[4];
	uint8_t attr, fg, bg, pad;
};

struct ior_tui_screen {
	int rows, cols;
	int utf8;            /* 1: draw UTF-8; 0: ASCII only */
	int cursor_row, cursor_col;
	int cursor_visible;  /* 0 by default; the line editor sets it */
	struct ior_tui_cell *cells; /* rows * cols, row after row */
};

/* A growable byte buffer for the renderer's output. Zero-initialize it;
 * ior_tui_buf_free releases it. */
struct ior_tui_buf {
	char *data;
	size_t len, cap;
	int oom; /* an append failed: the contents are incomplete */
};

/* Sizes s (clipped to 1..IOR_TUI_MAX_*) and blanks it. 0 or -ENOMEM. */
int ior_tui_screen_init(struct ior_tui_screen *s, int rows, int cols, int utf8);
/* New size, every cell blank, cursor hidden. 0 or -ENOMEM (s unchanged). */
int ior_tui_screen_resize(struct ior_tui_screen *s, int rows, int cols);
void ior_tui_screen_free(struct ior_tui_screen *s);
/* Every cell a space in st; the cursor hidden. */
void ior_tui_screen_clear(struct ior_tui_screen *s, struct ior_tui_style st);
/* Exchanges two screens (after rendering next, it becomes the shown one). */
void ior_tui_screen_swap(struct ior_tui_screen *a, struct ior_tui_screen *b);
/* The cell at row, col, or NULL outside the screen. */
const struct ior_tui_cell *ior_tui_cell_at(const struct ior_tui_screen *s, int row, int col);
/* Shows the cursor at row, col after the next render (hidden: row < 0). */
void ior_tui_screen_cursor(struct ior_tui_screen *s, int row, int col);

/* How put places text in its room of width columns. */
#define IOR_TUI_LEFT 0
#define IOR_TUI_RIGHT 1     /* aligned to the room's right edge */
#define IOR_TUI_CENTER 2
#define IOR_TUI_ELLIPSIS 4  /* text cut short ends in '…' ('~' in ASCII) */
#define IOR_TUI_KEEP_END 8  /* cut the start instead, '…' first: for paths */
#define IOR_TUI_PAD 16      /* fill the rest of the room with spaces in st */

/* Draws text[0..len) at row, col in at most width columns (< 0: to the
 * right edge), placed per flags; hostile bytes are drawn as '?' (see the
 * top). Returns the columns drawn. */
int ior_tui_putn(struct ior_tui_screen *s, int row, int col, int width, struct ior_tui_style st,
		 int flags, const char *text, size_t len);
/* ior_tui_putn of a NUL-terminated string, left-aligned, not padded. */
int ior_tui_put(struct ior_tui_screen *s, int row, int col, int width, struct ior_tui_style st,
		const char *text);
/* printf, then ior_tui_putn(flags); the formatted text is cut at 1 KiB. */
int ior_tui_putf(struct ior_tui_screen *s, int row, int col, int width, struct ior_tui_style st,
		 int flags, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* Columns ior_tui_putn would take for all of text[0..len) on s. */
int ior_tui_text_width(const struct ior_tui_screen *s, const char *text, size_t len);

/* Fills a rectangle with ch (one character, NUL-terminated; NULL or "" is
 * a space). */
void ior_tui_fill(struct ior_tui_screen *s, int row, int col, int height, int width,
		  struct ior_tui_style st, const char *ch);
/* Lines of box drawing characters ('-' and '|' in ASCII). */
void ior_tui_hline(struct ior_tui_screen *s, int row, int col, int width, struct ior_tui_style st);
void ior_tui_vline(struct ior_tui_screen *s, int row, int col, int height, struct ior_tui_style st);
/* A frame around the rectangle (corners '+' in ASCII); the inside is left. */
void ior_tui_box(struct ior_tui_screen *s, int row, int col, int height, int width,
		 struct ior_tui_style st);

/* The last min(n, width) values as a sparkline ending at col + width - 1
 * (older values to the left, blank before the first): each cell one of
 * "▁▂▃▄▅▆▇█" (ASCII ".:-=+*#") scaled to max, or to the largest value drawn
 * when max <= 0. A zero, negative or NaN value is a space; any positive
 * value shows at least the lowest mark. Returns the cells drawn. */
int ior_tui_sparkline(struct ior_tui_screen *s, int row, int col, int width,
		      struct ior_tui_style st, const double *vals, size_t n, double max);
/* A bar of frac (clamped to 0..1) of width columns, in eighths of a cell
 * with UTF-8 ("▏▎▍▌▋▊▉█"), whole '#' cells in ASCII; the rest of the width
 * is spaces. Returns the cells covered by the bar. */
int ior_tui_bar(struct ior_tui_screen *s, int row, int col, int width, struct ior_tui_style st,
		double frac);

/* Appends to out the bytes that change a terminal showing prev into one
 * showing next; prev NULL or of another size: a full redraw (attributes
 * reset, screen erased, every non-blank cell drawn, cursor set). An
 * unchanged frame appends nothing. Returns 0, or -ENOMEM (out->oom set). */
int ior_tui_render(struct ior_tui_buf *out, const struct ior_tui_screen *prev,
		   const struct ior_tui_screen *next);

void ior_tui_buf_append(struct ior_tui_buf *b, const void *p, size_t n);
void ior_tui_buf_reset(struct ior_tui_buf *b); /* empty, keeps the memory */
void ior_tui_buf_free(struct ior_tui_buf *b);

#endif
