/* A Parquet file writer over a stdio stream: a flat schema of columns
 * (column.h), rows appended one value per column, row groups of at most
 * IOR_PQ_RG_ROWS rows or about IOR_PQ_RG_BYTES of compressed pages, so
 * memory stays flat for any number of rows. The footer (FileMetaData,
 * Thrift compact) holds the schema, the row groups, key-value metadata
 * and column orders. Layout: docs/parquet.md. Single-threaded. */
#ifndef IOR_PARQUET_WRITER_H
#define IOR_PARQUET_WRITER_H

#include "column.h"

#include <stdint.h>
#include <stdio.h>

#define IOR_PQ_RG_ROWS (1u << 20)
#define IOR_PQ_RG_BYTES (64u << 20)
#define IOR_PQ_MAX_COLUMNS 64

struct ior_pq_writer_cfg {
	const struct ior_pq_column_def *cols; /* not copied: must outlive the writer */
	unsigned ncols;      /* <= IOR_PQ_MAX_COLUMNS */
	int level;           /* zstd level */
	uint32_t rg_rows;    /* 0: IOR_PQ_RG_ROWS */
	const char *created_by;
};

struct ior_pq_writer;

/* Writes the leading magic to out (not owned: the caller closes it). */
int ior_pq_writer_new(struct ior_pq_writer **w, FILE *out, const struct ior_pq_writer_cfg *cfg);
/* Column i, to append this row's value to. */
struct ior_pq_column *ior_pq_writer_column(struct ior_pq_writer *w, unsigned i);
/* After one value went to every column: the row is complete. Writes a
 * row group when one is due. 0 or a negative errno (sticky). */
int ior_pq_writer_end_row(struct ior_pq_writer *w);
/* Key-value metadata for the footer (copied; a key set again replaces
 * its value). */
int ior_pq_writer_set_meta(struct ior_pq_writer *w, const char *key, const char *value);
uint64_t ior_pq_writer_rows(const struct ior_pq_writer *w);
/* Writes the last row group and the footer, flushes out. */
int ior_pq_writer_finish(struct ior_pq_writer *w);
void ior_pq_writer_free(struct ior_pq_writer *w);

#endif
