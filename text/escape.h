/* The escape notation of every text ior shows a person (CSV, reports,
 * SVG and JSON labels, the dashboard, Parquet strings): names come from the
 * traced system and are attacker-controlled.
 *   \xHH    control bytes and invalid UTF-8 (every non-ASCII byte with
 *           IOR_ESCAPE_ALWAYS)
 *   \uHHHH  C1 controls and bidi formatting (what a terminal acts on or
 *           what reorders text)
 *   \\      the backslash, so the notation stays unambiguous
 * Pure; no allocation. */
#ifndef IOR_TEXT_ESCAPE_H
#define IOR_TEXT_ESCAPE_H

#include <stddef.h>

#include "text/buf.h"

enum ior_escape {
	IOR_ESCAPE_AUTO,   /* escape control bytes and invalid UTF-8 */
	IOR_ESCAPE_ALWAYS, /* also escape every non-ASCII byte */
	IOR_ESCAPE_NEVER,  /* bytes as they are (still CSV-quoted) */
};

/* Parses "auto" | "always" | "never"; -1 when unknown. */
int ior_escape_parse(const char *s, enum ior_escape *e);

/* 1 for a byte ior_escape_put stops at: not printable ASCII (NUL
 * included), or a byte escaping or quoting acts on. */
extern const unsigned char ior_escape_stop[256];

/* The byte s[i] < max that stopped ior_escape_put's run, in its notation
 * into b; returns the index past what it took, or max when it was the
 * NUL that ends the string (nul_ends). */
size_t ior_escape_byte(struct ior_text_buf *b, const char *s, size_t i, size_t max, int nul_ends, enum ior_escape esc);

/* Appends s[0..max) to b, or with nul_ends only up to its NUL, escaped.
 * '"' and ',' set b->special (and '"' is doubled while b->quoting), as do
 * CR and LF under IOR_ESCAPE_NEVER: the CSV writer quotes such fields.
 * Inline: every CSV row runs it twice, mostly over printable ASCII, which
 * is copied in runs here; anything else goes to ior_escape_byte. The NUL
 * stops a run like a byte to escape, so the string is measured in the
 * same pass; four bytes a step, each read only after the one before it
 * was no stop (so never past the NUL). */
static inline void ior_escape_put(struct ior_text_buf *b, const char *s, size_t max, int nul_ends,
				  enum ior_escape esc)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < max;) {
		size_t run = i;
		while (max - run >= 4 && !ior_escape_stop[u[run]] && !ior_escape_stop[u[run + 1]] &&
		       !ior_escape_stop[u[run + 2]] && !ior_escape_stop[u[run + 3]])
			run += 4;
		while (run < max && !ior_escape_stop[u[run]])
			run++;
		if (run > i) { /* printable ASCII: as is */
			ior_text_put(b, s + i, run - i);
			i = run;
			continue;
		}
		if (!u[i] && nul_ends) /* the common end: no call */
			return;
		i = ior_escape_byte(b, s, i, max, nul_ends, esc);
	}
}
/* The first 256 bytes of s[0..n), escaped, into dst (NUL-terminated, cut
 * at len - 1 bytes); returns the length written. */
size_t ior_escape_str(char *dst, size_t len, const char *s, size_t n, enum ior_escape esc);
/* All of s[0..n), escaped, into dst (not NUL-terminated; cap >= 4 * n
 * holds any string); returns the length written. */
size_t ior_escape_all(char *dst, size_t cap, const char *s, size_t n, enum ior_escape esc);

/* s[0..n), up to a NUL, escaped as IOR_ESCAPE_AUTO and byte also as
 * \xHH (a separator the name must not hold: ';' in folded stacks), into
 * dst: at most cap - 1 bytes and a NUL, never cutting an escape or a
 * character; returns the length written. */
size_t ior_escape_name(char *dst, size_t cap, const char *s, size_t n, unsigned char also);

/* The length of the well-formed UTF-8 sequence at s[0..n) (1..4: ASCII
 * is 1) and its code point, or 0 when it is none (overlongs, surrogates,
 * > U+10FFFF, stray continuation bytes, cut by n, n = 0). The one strict
 * decoder: the escape notation and the terminal toolkit use it. */
int ior_utf8_seq(const unsigned char *s, size_t n, unsigned *cp);
/* 1 for a code point a terminal acts on or that reorders text (C1
 * controls, bidi formatting): written \uHHHH. */
int ior_cp_is_unsafe(unsigned cp);

#endif
