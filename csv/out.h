/* The -plain stream as a sink: rows are formatted straight into one
 * buffer and handed to stdio a few hundred KiB at a time (a row's own
 * fwrite, a lock check and a memcpy, cost a fifth of the row), flushed
 * every second so a reader sees them. Summary rows are not printed (no
 * fabricated row): their count is said on notes once a second. */
#ifndef IOR_CSV_OUT_H
#define IOR_CSV_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "csv/csv.h"
#include "pair/sink.h"

struct ior_csv_out;

/* Writes the header to out, with the columns cols asks for after file
 * (csv/csv.h; NULL: none; copied). NULL on allocation failure. */
struct ior_csv_out *ior_csv_out_new(FILE *out, enum ior_escape esc, FILE *notes, const struct ior_csv_columns *cols);
struct ior_sink ior_csv_out_sink(struct ior_csv_out *c);
/* Flushes; returns 0 or the first write's -errno (-EPIPE: the reader left). */
int ior_csv_out_close(struct ior_csv_out *c);

#endif
