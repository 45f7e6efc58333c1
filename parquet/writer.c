/* The file: "PAR1", row groups (each column's chunk: dictionary page,
 * data pages), FileMetaData, its 4-byte length, "PAR1". Row groups are
 * described as they are written (their RowGroup structs kept, encoded,
 * in rgs) so the footer is the schema, those bytes and the metadata. */
#include "writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BYTES_CHECK_ROWS 4096 /* the row group's size is looked at this often */

struct kv {
	char *key, *value;
};

struct ior_pq_writer {
	FILE *out;
	uint64_t off;
	struct ior_pq_writer_cfg cfg;
	struct ior_pq_column cols[IOR_PQ_MAX_COLUMNS];
	uint32_t rg_rows;
	uint64_t rows;
	struct ior_pq_buf rgs;  /* encoded RowGroup structs */
	uint32_t nrgs;
	struct kv *kv;
	unsigned nkv;
	char *created_by;
	int err;
};

static int put(void *ctx, const void *p, size_t n)
{
	struct ior_pq_writer *w = ctx;

	if (n && fwrite(p, 1, n, w->out) != n)
		return errno ? -errno : -EIO;
	w->off += n;
	return 0;
}

int ior_pq_writer_new(struct ior_pq_writer **wp, FILE *out, const struct ior_pq_writer_cfg *cfg)
{
	struct ior_pq_writer *w;
	int r = 0;

	if (cfg->ncols > IOR_PQ_MAX_COLUMNS || !cfg->ncols)
		return -EINVAL;
	if (!(w = calloc(1, sizeof *w)))
		return -ENOMEM;
	w->out = out;
	w->cfg = *cfg;
	if (cfg->created_by && !(w->created_by = strdup(cfg->created_by)))
		r = -ENOMEM;
	if (!w->cfg.rg_rows)
		w->cfg.rg_rows = IOR_PQ_RG_ROWS;
	for (unsigned i = 0; i < cfg->ncols && !r; i++)
		r = ior_pq_column_init(&w->cols[i], &cfg->cols[i], cfg->level);
	if (!r)
		r = put(w, "PAR1", 4);
	if (r) {
		ior_pq_writer_free(w);
		return r;
	}
	*wp = w;
	return 0;
}

struct ior_pq_column *ior_pq_writer_column(struct ior_pq_writer *w, unsigned i)
{
	return &w->cols[i];
}

/* RowGroup { 1: columns, 2: total_byte_size, 3: num_rows, 5: file_offset,
 * 6: total_compressed_size }. */
static int write_row_group(struct ior_pq_writer *w)
{
	struct ior_thrift t;
	uint64_t start = w->off, raw = 0, stored = 0;
	int r = 0;

	if (!w->rg_rows)
		return 0;
	ior_thrift_init(&t, &w->rgs);
	ior_thrift_struct_begin(&t);
	ior_thrift_field_list(&t, 1, IOR_THRIFT_STRUCT, w->cfg.ncols);
	for (unsigned i = 0; i < w->cfg.ncols && !r; i++)
		r = ior_pq_column_write_chunk(&w->cols[i], w->off, put, w, &t, &raw, &stored);
	ior_thrift_field_i64(&t, 2, (int64_t)raw);
	ior_thrift_field_i64(&t, 3, w->rg_rows);
	ior_thrift_field_i64(&t, 5, (int64_t)start);
	ior_thrift_field_i64(&t, 6, (int64_t)stored);
	ior_thrift_struct_end(&t);
	if (!r)
		r = ior_thrift_error(&t);
	w->nrgs++;
	w->rg_rows = 0;
	return r;
}

static bool row_group_full(struct ior_pq_writer *w)
{
	uint64_t bytes = 0;

	if (w->rg_rows >= w->cfg.rg_rows)
		return true;
	if (w->rg_rows % BYTES_CHECK_ROWS)
		return false;
	for (unsigned i = 0; i < w->cfg.ncols; i++)
		bytes += ior_pq_column_chunk_bytes(&w->cols[i]);
	return bytes >= IOR_PQ_RG_BYTES;
}

int ior_pq_writer_end_row(struct ior_pq_writer *w)
{
	if (w->err)
		return w->err;
	w->rows++;
	w->rg_rows++;
	if (!row_group_full(w))
		return 0;
	for (unsigned i = 0; i < w->cfg.ncols && !w->err; i++)
		w->err = w->cols[i].err;
	if (!w->err)
		w->err = write_row_group(w);
	return w->err;
}

int ior_pq_writer_set_meta(struct ior_pq_writer *w, const char *key, const char *value)
{
	char *v = strdup(value);
	if (!v)
		return -ENOMEM;
	for (unsigned i = 0; i < w->nkv; i++) {
		if (!strcmp(w->kv[i].key, key)) {
			free(w->kv[i].value);
			w->kv[i].value = v;
			return 0;
		}
	}
	struct kv *kv = realloc(w->kv, (w->nkv + 1) * sizeof *kv);
	char *k = strdup(key);
	if (kv)
		w->kv = kv;
	if (!kv || !k) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	w->kv[w->nkv++] = (struct kv){ k, v };
	return 0;
}

uint64_t ior_pq_writer_rows(const struct ior_pq_writer *w)
{
	return w->rows;
}

/* LogicalType union: 1 STRING {}, 8 TIMESTAMP { 1: isAdjustedToUTC,
 * 2: TimeUnit { 3: NANOS {} } }. */
static void logical_type(struct ior_thrift *t, enum ior_pq_logical l)
{
	ior_thrift_field_struct(t, 10);
	if (l == IOR_PQ_LOGICAL_STRING) {
		ior_thrift_field_struct(t, 1);
		ior_thrift_struct_end(t);
	} else {
		ior_thrift_field_struct(t, 8);
		ior_thrift_field_bool(t, 1, true);
		ior_thrift_field_struct(t, 2);
		ior_thrift_field_struct(t, 3);
		ior_thrift_struct_end(t);
		ior_thrift_struct_end(t);
		ior_thrift_struct_end(t);
	}
	ior_thrift_struct_end(t);
}

/* SchemaElement list: the root, then { 1: type, 3: repetition, 4: name,
 * 6: converted_type, 10: logicalType } per column. */
static void schema(struct ior_pq_writer *w, struct ior_thrift *t)
{
	ior_thrift_field_list(t, 2, IOR_THRIFT_STRUCT, w->cfg.ncols + 1);
	ior_thrift_struct_begin(t);
	ior_thrift_field_string(t, 4, "schema");
	ior_thrift_field_i32(t, 5, (int32_t)w->cfg.ncols);
	ior_thrift_struct_end(t);
	for (unsigned i = 0; i < w->cfg.ncols; i++) {
		const struct ior_pq_column_def *d = &w->cfg.cols[i];
		ior_thrift_struct_begin(t);
		ior_thrift_field_i32(t, 1, d->type);
		ior_thrift_field_i32(t, 3, d->optional ? 1 : 0);
		ior_thrift_field_string(t, 4, d->name);
		if (d->logical == IOR_PQ_LOGICAL_STRING)
			ior_thrift_field_i32(t, 6, 0); /* UTF8, for older readers */
		if (d->logical != IOR_PQ_LOGICAL_NONE)
			logical_type(t, d->logical);
		ior_thrift_struct_end(t);
	}
}

static void footer(struct ior_pq_writer *w, struct ior_thrift *t)
{
	ior_thrift_struct_begin(t);
	ior_thrift_field_i32(t, 1, 1);
	schema(w, t);
	ior_thrift_field_i64(t, 3, (int64_t)w->rows);
	ior_thrift_field_list(t, 4, IOR_THRIFT_STRUCT, w->nrgs);
	ior_pq_buf_put(t->out, w->rgs.p, w->rgs.len);
	if (w->nkv) {
		ior_thrift_field_list(t, 5, IOR_THRIFT_STRUCT, w->nkv);
		for (unsigned i = 0; i < w->nkv; i++) {
			ior_thrift_struct_begin(t);
			ior_thrift_field_string(t, 1, w->kv[i].key);
			ior_thrift_field_string(t, 2, w->kv[i].value);
			ior_thrift_struct_end(t);
		}
	}
	if (w->created_by)
		ior_thrift_field_string(t, 6, w->created_by);
	/* TYPE_ORDER for every column: min_value/max_value are to be trusted */
	ior_thrift_field_list(t, 7, IOR_THRIFT_STRUCT, w->cfg.ncols);
	for (unsigned i = 0; i < w->cfg.ncols; i++) {
		ior_thrift_struct_begin(t);
		ior_thrift_field_struct(t, 1);
		ior_thrift_struct_end(t);
		ior_thrift_struct_end(t);
	}
	ior_thrift_struct_end(t);
}

int ior_pq_writer_finish(struct ior_pq_writer *w)
{
	struct ior_pq_buf fb = { 0 };
	struct ior_thrift t;
	int r = w->err;

	for (unsigned i = 0; i < w->cfg.ncols && !r; i++)
		r = w->cols[i].err;
	if (!r)
		r = write_row_group(w);
	if (!r) {
		ior_thrift_init(&t, &fb);
		footer(w, &t);
		ior_pq_buf_le32(&fb, (uint32_t)fb.len);
		ior_pq_buf_put(&fb, "PAR1", 4);
		r = ior_thrift_error(&t);
	}
	if (!r)
		r = put(w, fb.p, fb.len);
	if (!r && fflush(w->out))
		r = errno ? -errno : -EIO;
	ior_pq_buf_free(&fb);
	return w->err = r;
}

void ior_pq_writer_free(struct ior_pq_writer *w)
{
	if (!w)
		return;
	for (unsigned i = 0; i < w->cfg.ncols; i++)
		ior_pq_column_free(&w->cols[i]);
	for (unsigned i = 0; i < w->nkv; i++) {
		free(w->kv[i].key);
		free(w->kv[i].value);
	}
	free(w->kv);
	free(w->created_by);
	ior_pq_buf_free(&w->rgs);
	free(w);
}
