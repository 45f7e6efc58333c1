/* The -plain CSV stream, shared by live tracing and recording replay.
 * header: durationToPrevNs,durationNs,comm,pid.tid,name,ret,file
 * Numbers are plain decimal (ret signed). file is, before quoting:
 *   path%(fd,FLAGS)  a syscall on an fd (the new fd for opens/dups that
 *                    succeeded), FLAGS the fd's open flags "O_RDONLY|O_CLOEXEC",
 *                    ",FLAGS" left out when unknown, path empty when unknown
 *   old=>new         rename/link/symlink (symlink: target=>linkpath)
 *   path             a path-only syscall (stat, unlink, failed open, ...)
 *   (empty)          the syscall has no file
 * comm and paths are escaped per enum ior_escape (text/escape.h). Then RFC 4180 quoting (fields with , " CR LF are quoted). */
#ifndef IOR_CSV_CSV_H
#define IOR_CSV_CSV_H

#include <stdio.h>

#include "pair/event_pair.h"
#include "text/escape.h"


/* Bytes a formatted row can take at most: escaping makes a byte at most
 * 4 bytes (\xHH), quoting doubles a '"'; comm, two 4 KiB paths, numbers. */
#define IOR_CSV_ROW_MAX (2 * 4 * (16 + 2 * 4096) + 256)

void ior_csv_write_header(FILE *out);
void ior_csv_write_pair(FILE *out, const struct ior_event_pair *p, enum ior_escape esc);
/* The same row into row[0..IOR_CSV_ROW_MAX), not NUL-terminated; returns
 * its length. For callers that batch rows themselves. */
size_t ior_csv_format_pair(char *row, const struct ior_event_pair *p, enum ior_escape esc);
/* Columns a run may add after file, opt-in (-plainColumns=LIST; the
 * seven above are the original ior's contract), in the order asked:
 *   where   where an io_uring op ran: inline, io-wq or poll (pair/
 *           event_pair.h); empty for syscalls, libaio and recordings
 *           before version 5
 *   device  deviceNs (time any of the pair's block requests was at the
 *           device, at most durationNs), requests, deviceBytes
 *   cache   cachePages, the pages it added to the page cache
 * -plainDevice is device,cache. Numbers are 0 when none or not traced. */
enum ior_csv_extra { IOR_CSV_WHERE, IOR_CSV_DEVICE, IOR_CSV_CACHE, IOR_CSV_NEXTRA };
struct ior_csv_columns {
	unsigned n;
	unsigned char col[IOR_CSV_NEXTRA]; /* enum ior_csv_extra, each at most once */
};

/* Parses LIST ("where,device", "" for none) into *c; -EINVAL with the
 * reason in err when a name is unknown or repeated. */
int ior_csv_columns_parse(const char *list, struct ior_csv_columns *c, char *err, size_t errlen);
/* Whether c asks for column x. */
int ior_csv_columns_has(const struct ior_csv_columns *c, enum ior_csv_extra x);
/* The header with c's columns (c NULL or empty: the seven). */
void ior_csv_write_header_with(FILE *out, const struct ior_csv_columns *c);
/* Appends c's columns to a row formatted above (len bytes, ending in its
 * newline); returns the new length (IOR_CSV_ROW_MAX holds it). */
size_t ior_csv_add_columns(char *row, size_t len, const struct ior_event_pair *p, const struct ior_csv_columns *c);

#endif
