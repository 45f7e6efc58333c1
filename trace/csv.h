/* The -plain CSV stream, shared by live tracing and recording replay.
 * header: durationToPrevNs,durationNs,comm,pid.tid,name,ret,file
 * Numbers are plain decimal (ret signed). file is, before quoting:
 *   path%(fd,FLAGS)  a syscall on an fd (the new fd for opens/dups that
 *                    succeeded), FLAGS the fd's open flags "O_RDONLY|O_CLOEXEC",
 *                    ",FLAGS" left out when unknown, path empty when unknown
 *   old=>new         rename/link/symlink (symlink: target=>linkpath)
 *   path             a path-only syscall (stat, unlink, failed open, ...)
 *   (empty)          the syscall has no file
 * comm and paths are escaped per enum ior_escape: \xHH for control bytes and
 * invalid UTF-8, \uHHHH for C1 controls and bidi overrides, \\ for a
 * backslash. Then RFC 4180 quoting (fields with , " CR LF are quoted). */
#ifndef IOR_TRACE_CSV_H
#define IOR_TRACE_CSV_H

#include <stdio.h>

#include "event_pair.h"

enum ior_escape {
	IOR_ESCAPE_AUTO,   /* escape control bytes and invalid UTF-8 */
	IOR_ESCAPE_ALWAYS, /* also escape every non-ASCII byte */
	IOR_ESCAPE_NEVER,  /* bytes as they are (still CSV-quoted) */
};

/* Bytes a formatted row can take at most: escaping makes a byte at most
 * 4 bytes (\xHH), quoting doubles a '"'; comm, two 4 KiB paths, numbers. */
#define IOR_CSV_ROW_MAX (2 * 4 * (16 + 2 * 4096) + 256)

/* Parses "auto" | "always" | "never"; -1 when unknown. */
int ior_csv_parse_escape(const char *s, enum ior_escape *e);
void ior_csv_write_header(FILE *out);
void ior_csv_write_pair(FILE *out, const struct ior_event_pair *p, enum ior_escape esc);
/* The same row into row[0..IOR_CSV_ROW_MAX), not NUL-terminated; returns
 * its length. For callers that batch rows themselves. */
size_t ior_csv_format_pair(char *row, const struct ior_event_pair *p, enum ior_escape esc);
/* The first 256 bytes of s[0..n) in the notation of esc, into dst
 * (NUL-terminated, cut at len - 1 bytes); returns the length written. */
size_t ior_csv_escape(char *dst, size_t len, const char *s, size_t n, enum ior_escape esc);
/* All of s[0..n) in the notation of esc (no CSV quoting), into dst
 * (not NUL-terminated; cap >= 4 * n holds any string); returns the length
 * written. For writers whose fields are not CSV (parquet/). */
size_t ior_csv_escape_all(char *dst, size_t cap, const char *s, size_t n, enum ior_escape esc);
/* The notation's parts, for other writers of it (flame/text.c): the
 * length of the valid UTF-8 sequence at s (1..4) and its code point, or 0
 * when not well-formed (overlongs, surrogates, > U+10FFFF, truncated);
 * whether a code point is one a terminal acts on or that reorders text
 * (C1 controls, bidi formatting: written \uHHHH). */
int ior_utf8_seq(const unsigned char *s, size_t n, unsigned *cp);
int ior_cp_is_unsafe(unsigned cp);
/* "O_RDONLY|O_CLOEXEC" for open flags; writes at most len bytes. */
void ior_open_flags_str(char *buf, size_t len, long long flags);

#endif
