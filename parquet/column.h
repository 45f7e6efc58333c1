/* One column of a Parquet file being written: values in, zstd-compressed
 * pages out. A column buffers its current page (raw) and the compressed
 * pages of the current row group's chunk; the writer (writer.h) writes
 * the chunk at each row group's end. Strings are dictionary-encoded
 * (RLE_DICTIONARY) until the chunk's dictionary passes
 * IOR_PQ_DICT_MAX_BYTES, then PLAIN for the rest of the chunk.
 * Errors (-ENOMEM, compression) are sticky in err. Not thread-safe. */
#ifndef IOR_PARQUET_COLUMN_H
#define IOR_PARQUET_COLUMN_H

#include "buf.h"
#include "encode.h"
#include "thrift.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#define IOR_PQ_PAGE_ROWS 65536            /* a page holds at most this many values */
#define IOR_PQ_PAGE_BYTES (1u << 20)      /* ... and about this many raw bytes */
#define IOR_PQ_DICT_MAX_BYTES (8u << 20)  /* a larger dictionary: PLAIN for the chunk's rest */

/* Parquet's physical types (parquet.thrift Type) that ior writes. */
enum ior_pq_type {
	IOR_PQ_BOOLEAN = 0,
	IOR_PQ_INT32 = 1,
	IOR_PQ_INT64 = 2,
	IOR_PQ_BYTE_ARRAY = 6,
};

enum ior_pq_logical {
	IOR_PQ_LOGICAL_NONE,
	IOR_PQ_LOGICAL_STRING,       /* BYTE_ARRAY, UTF-8 */
	IOR_PQ_LOGICAL_TIMESTAMP_NS, /* INT64, UTC */
};

/* Strings into what the file holds for them (escaped); returns the
 * length written to dst (at most cap, cap >= 4 * n). */
typedef size_t (*ior_pq_xform)(char *dst, size_t cap, const char *s, size_t n);

struct ior_pq_column_def {
	const char *name;
	enum ior_pq_type type;
	enum ior_pq_logical logical;
	bool optional; /* has definition levels; null allowed */
	ior_pq_xform xform; /* strings only; NULL: as they are */
};

struct ior_pq_column {
	struct ior_pq_column_def def;
	int level; /* zstd level */
	void *zctx; /* ZSTD_CCtx, owned */
	/* the page being filled */
	struct ior_pq_buf values;   /* PLAIN values */
	uint32_t *idx;              /* dictionary indices (strings, dictionary on) */
	uint32_t *defs;             /* definition levels */
	uint8_t *bools;
	uint32_t rows, nonnull;     /* of the page */
	bool page_plain;            /* the page's strings are PLAIN */
	/* the chunk (this row group) */
	struct ior_pq_buf chunk;    /* page headers + compressed pages */
	struct ior_pq_dict dict;
	bool dict_off;              /* the chunk fell back to PLAIN */
	bool used_dict, used_plain;
	uint64_t chunk_values, chunk_nulls, chunk_raw; /* raw: uncompressed page bytes + headers */
	bool has_minmax;
	int64_t min, max;             /* numbers, booleans */
	struct ior_pq_buf smin, smax; /* strings */
	int32_t *ids;      /* caller's id -> dictionary index + 1 (0: not known) */
	uint32_t nids;
	struct ior_pq_buf scratch, page_out, zbuf;
	int err;
};

int ior_pq_column_init(struct ior_pq_column *c, const struct ior_pq_column_def *def, int level);
void ior_pq_column_free(struct ior_pq_column *c);

/* Ends the current page (when it has values); 0 or the sticky error. */
int ior_pq_column_flush_page(struct ior_pq_column *c);

/* One value each (inline: a row is 19 of them, at millions of rows a
 * second). A null goes only to optional columns. */
static inline void ior_pq_column_row(struct ior_pq_column *c, bool null)
{
	if (c->def.optional)
		c->defs[c->rows] = !null;
	c->rows++;
	c->nonnull += !null;
	if (c->rows >= IOR_PQ_PAGE_ROWS || c->values.len >= IOR_PQ_PAGE_BYTES)
		ior_pq_column_flush_page(c);
}

static inline void ior_pq_column_null(struct ior_pq_column *c)
{
	if (!c->def.optional) {
		c->err = -EINVAL; /* a bug of the caller's */
		return;
	}
	c->chunk_nulls++;
	ior_pq_column_row(c, true);
}

static inline void ior_pq_column_minmax(struct ior_pq_column *c, int64_t v)
{
	if (!c->has_minmax) {
		c->min = c->max = v;
		c->has_minmax = true;
	} else if (v < c->min) {
		c->min = v;
	} else if (v > c->max) {
		c->max = v;
	}
}

static inline void ior_pq_column_i64(struct ior_pq_column *c, int64_t v)
{
	ior_pq_column_minmax(c, v);
	ior_pq_plain_i64(&c->values, v);
	ior_pq_column_row(c, false);
}

static inline void ior_pq_column_i32(struct ior_pq_column *c, int32_t v)
{
	ior_pq_column_minmax(c, v);
	ior_pq_plain_i32(&c->values, v);
	ior_pq_column_row(c, false);
}

static inline void ior_pq_column_bool(struct ior_pq_column *c, bool v)
{
	ior_pq_column_minmax(c, v);
	c->bools[c->nonnull] = v;
	ior_pq_column_row(c, false);
}

void ior_pq_column_str(struct ior_pq_column *c, const char *s, size_t n);
/* The same for a string the caller names by an id (< IOR_PQ_MAX_IDS,
 * one string per id until ior_pq_column_forget_ids): an id seen before
 * skips hashing and comparing. */
#define IOR_PQ_MAX_IDS (1u << 22)
#define IOR_PQ_STRLEN SIZE_MAX /* n for a NUL-terminated s, measured only when needed */
void ior_pq_column_str_id_new(struct ior_pq_column *c, uint32_t id, const char *s, size_t n);
static inline void ior_pq_column_str_id(struct ior_pq_column *c, uint32_t id, const char *s, size_t n)
{
	if (c->dict_off || id >= c->nids || !c->ids[id])
		return ior_pq_column_str_id_new(c, id, s, n);
	c->idx[c->nonnull] = (uint32_t)c->ids[id] - 1;
	ior_pq_column_row(c, false);
}
void ior_pq_column_forget_ids(struct ior_pq_column *c);

/* Bytes the chunk holds so far (pages compressed). */
uint64_t ior_pq_column_chunk_bytes(const struct ior_pq_column *c);

/* Writes the chunk (dictionary page, data pages) through put at file
 * offset off, appends its ColumnChunk to t, and resets the chunk. *raw
 * and *stored add its uncompressed and written sizes. */
int ior_pq_column_write_chunk(struct ior_pq_column *c, uint64_t off,
			      int (*put)(void *ctx, const void *p, size_t n), void *ctx,
			      struct ior_thrift *t, uint64_t *raw, uint64_t *stored);

#endif
