/* UTF-8 as the terminal toolkit needs it: the number of columns a
 * character takes, decided conservatively (strict decoding is
 * text/escape.h's ior_utf8_seq). Pure: any thread. */
#ifndef IOR_TUI_UTF8_H
#define IOR_TUI_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include "text/escape.h"

/* The expected length of a sequence led by byte c: 1..4, or 0 when c
 * cannot start one. */
int ior_tui_utf8_lead_len(unsigned char c);

/* Columns cp takes on a terminal: 1, 2 (East Asian wide and fullwidth), or
 * -1 when it must not be drawn as it is: C0 and C1 controls, DEL,
 * combining marks, zero-width and format characters (the bidirectional
 * overrides and isolates among them), line and paragraph separators, and
 * the emoji and symbols whose width terminals disagree on. The toolkit
 * draws a -1 character as '?'. */
int ior_tui_cp_width(uint32_t cp);

/* 1 when every terminal that speaks UTF-8 draws cp in exactly one column
 * (ASCII, Latin, box drawing, block elements), so a renderer can trust
 * the cursor position after it; 0 when it had better move the cursor
 * explicitly after drawing it. */
int ior_tui_cp_sure(uint32_t cp);

/* Writes cp as UTF-8 into out (room for 4); returns the length. cp must be
 * a Unicode scalar value. */
int ior_tui_utf8_encode(uint32_t cp, char *out);

#endif
