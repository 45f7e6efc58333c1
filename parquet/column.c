/* Column chunks: values into pages, pages into zstd, chunks into the
 * file. Data pages are version 1 (every reader takes them): definition
 * levels (optional columns only) as a 4-byte length and the RLE hybrid,
 * then the values; the whole page compressed. */
#include "column.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

enum { PAGE_DATA = 0, PAGE_DICTIONARY = 2 };
enum { ENC_PLAIN = 0, ENC_RLE = 3, ENC_RLE_DICTIONARY = 8 };
enum { CODEC_ZSTD = 6 };

int ior_pq_column_init(struct ior_pq_column *c, const struct ior_pq_column_def *def, int level)
{
	memset(c, 0, sizeof *c);
	c->def = *def;
	c->level = level;
	c->zctx = ZSTD_createCCtx();
	c->idx = malloc(IOR_PQ_PAGE_ROWS * sizeof *c->idx);
	c->defs = malloc(IOR_PQ_PAGE_ROWS * sizeof *c->defs);
	c->bools = malloc(IOR_PQ_PAGE_ROWS);
	if (!c->zctx || !c->idx || !c->defs || !c->bools) {
		ior_pq_column_free(c);
		return -ENOMEM;
	}
	return 0;
}

void ior_pq_column_free(struct ior_pq_column *c)
{
	ZSTD_freeCCtx(c->zctx);
	free(c->idx);
	free(c->defs);
	free(c->bools);
	free(c->ids);
	ior_pq_buf_free(&c->values);
	ior_pq_buf_free(&c->chunk);
	ior_pq_buf_free(&c->smin);
	ior_pq_buf_free(&c->smax);
	ior_pq_buf_free(&c->scratch);
	ior_pq_buf_free(&c->page_out);
	ior_pq_buf_free(&c->zbuf);
	ior_pq_dict_free(&c->dict);
	memset(c, 0, sizeof *c);
}

/* Byte order, as Parquet orders BYTE_ARRAY (unsigned, shorter first on a tie). */
static int cmp_bytes(const void *a, size_t an, const void *b, size_t bn)
{
	int r = memcmp(a, b, an < bn ? an : bn);
	return r ? r : (an > bn) - (an < bn);
}

static void set_buf(struct ior_pq_buf *b, const void *s, size_t n)
{
	b->len = 0;
	ior_pq_buf_put(b, s, n);
}

static void str_minmax(struct ior_pq_column *c, const char *v, size_t n)
{
	if (!c->has_minmax || cmp_bytes(v, n, c->smin.p, c->smin.len) < 0)
		set_buf(&c->smin, v, n);
	if (!c->has_minmax || cmp_bytes(v, n, c->smax.p, c->smax.len) > 0)
		set_buf(&c->smax, v, n);
	c->has_minmax = true;
}

/* What the file holds for s: the column's transform, in c->scratch. */
static const char *transform(struct ior_pq_column *c, const char *s, size_t n, size_t *vn)
{
	if (!c->def.xform) {
		*vn = n;
		return s;
	}
	c->scratch.len = 0;
	if (ior_pq_buf_reserve(&c->scratch, 4 * n + 8)) {
		*vn = 0;
		return "";
	}
	*vn = c->def.xform((char *)c->scratch.p, c->scratch.cap, s, n);
	return (const char *)c->scratch.p;
}

static void str_plain(struct ior_pq_column *c, const char *s, size_t n)
{
	size_t vn;
	const char *v = transform(c, s, n, &vn);

	str_minmax(c, v, vn);
	ior_pq_plain_bytes(&c->values, v, (uint32_t)vn);
	c->page_plain = true;
	ior_pq_column_row(c, false);
}

/* The dictionary index of s (added when new), or -1 after falling back
 * to PLAIN (s written) or failing. */
static int64_t dict_index(struct ior_pq_column *c, const char *s, size_t n)
{
	uint64_t h = ior_pq_hash(s, n);
	int64_t i = ior_pq_dict_find(&c->dict, s, n, h);
	if (i < 0) {
		size_t vn;
		const char *v = transform(c, s, n, &vn);
		if (c->dict.values.len + vn + 4 > IOR_PQ_DICT_MAX_BYTES && c->dict.n) {
			/* too many distinct strings for a dictionary to pay */
			ior_pq_column_flush_page(c);
			c->dict_off = true;
			str_plain(c, s, n);
			return -1;
		}
		if ((i = ior_pq_dict_add(&c->dict, s, n, h, v, (uint32_t)vn)) < 0) {
			c->err = (int)i;
			return -1;
		}
		str_minmax(c, v, vn);
	}
	return i;
}

static void dict_value(struct ior_pq_column *c, uint32_t i)
{
	c->idx[c->nonnull] = i;
	ior_pq_column_row(c, false);
}

void ior_pq_column_str(struct ior_pq_column *c, const char *s, size_t n)
{
	if (n > UINT32_MAX / 8) {
		c->err = -E2BIG;
		return;
	}
	if (c->dict_off)
		return str_plain(c, s, n);
	int64_t i = dict_index(c, s, n);
	if (i >= 0)
		dict_value(c, (uint32_t)i);
}

static int grow_ids(struct ior_pq_column *c, uint32_t id)
{
	uint32_t n = c->nids ? c->nids : 1024;

	while (n <= id)
		n *= 2;
	int32_t *ids = realloc(c->ids, n * sizeof *ids);
	if (!ids)
		return -ENOMEM;
	memset(ids + c->nids, 0, (n - c->nids) * sizeof *ids);
	c->ids = ids;
	c->nids = n;
	return 0;
}

void ior_pq_column_str_id_new(struct ior_pq_column *c, uint32_t id, const char *s, size_t n)
{
	if (n == IOR_PQ_STRLEN)
		n = strlen(s);
	if (c->dict_off || id >= IOR_PQ_MAX_IDS || n > UINT32_MAX / 8)
		return ior_pq_column_str(c, s, n);
	int64_t i = dict_index(c, s, n);
	if (i < 0)
		return;
	if (id < c->nids || !grow_ids(c, id))
		c->ids[id] = (int32_t)i + 1;
	dict_value(c, (uint32_t)i);
}

void ior_pq_column_forget_ids(struct ior_pq_column *c)
{
	if (c->ids)
		memset(c->ids, 0, c->nids * sizeof *c->ids);
}

/* The page's values section and its encoding. */
static int page_values(struct ior_pq_column *c, struct ior_pq_buf *out)
{
	if (c->def.type == IOR_PQ_BOOLEAN) {
		ior_pq_plain_bools(out, c->bools, c->nonnull);
		return ENC_PLAIN;
	}
	if (c->def.type != IOR_PQ_BYTE_ARRAY || c->page_plain || !c->nonnull) {
		ior_pq_buf_put(out, c->values.p, c->values.len);
		return ENC_PLAIN;
	}
	unsigned w = ior_pq_bit_width(c->dict.n - 1);
	ior_pq_buf_byte(out, (uint8_t)w);
	ior_pq_rle_hybrid(out, c->idx, c->nonnull, w);
	return ENC_RLE_DICTIONARY;
}

/* Compresses raw into c->zbuf; 0 or -EIO. */
static int compress(struct ior_pq_column *c, const struct ior_pq_buf *raw)
{
	size_t bound = ZSTD_compressBound(raw->len);

	c->zbuf.len = 0;
	if (ior_pq_buf_reserve(&c->zbuf, bound))
		return -ENOMEM;
	size_t z = ZSTD_compressCCtx(c->zctx, c->zbuf.p, bound, raw->p, raw->len, c->level);
	if (ZSTD_isError(z))
		return -EIO;
	c->zbuf.len = z;
	return 0;
}

/* PageHeader with its type-specific header (field 5 data, 7 dictionary). */
static void page_header(struct ior_pq_buf *out, int type, size_t raw, size_t stored, uint32_t nvalues,
			int encoding)
{
	struct ior_thrift t;

	ior_thrift_init(&t, out);
	ior_thrift_struct_begin(&t);
	ior_thrift_field_i32(&t, 1, type);
	ior_thrift_field_i32(&t, 2, (int32_t)raw);
	ior_thrift_field_i32(&t, 3, (int32_t)stored);
	ior_thrift_field_struct(&t, type == PAGE_DATA ? 5 : 7);
	ior_thrift_field_i32(&t, 1, (int32_t)nvalues);
	ior_thrift_field_i32(&t, 2, encoding);
	if (type == PAGE_DATA) {
		ior_thrift_field_i32(&t, 3, ENC_RLE);
		ior_thrift_field_i32(&t, 4, ENC_RLE);
	}
	ior_thrift_struct_end(&t);
	ior_thrift_struct_end(&t);
}

/* The page before compression: definition levels (optional columns),
 * then the values. A required column's PLAIN values are the page as they
 * are: compressed from where they were appended, not copied. */
static const struct ior_pq_buf *page_bytes(struct ior_pq_column *c, int *enc)
{
	struct ior_pq_buf *out = &c->page_out;

	if (!c->def.optional && c->def.type != IOR_PQ_BOOLEAN && (c->def.type != IOR_PQ_BYTE_ARRAY || c->page_plain)) {
		*enc = ENC_PLAIN;
		return &c->values;
	}
	out->len = 0;
	if (c->def.optional) {
		ior_pq_buf_le32(out, 0);
		size_t start = out->len;
		ior_pq_rle_hybrid(out, c->defs, c->rows, 1);
		if (!out->err) {
			uint32_t n = (uint32_t)(out->len - start);
			memcpy(out->p + start - 4, &n, 4);
		}
	}
	*enc = page_values(c, out);
	return out;
}

int ior_pq_column_flush_page(struct ior_pq_column *c)
{
	int enc;

	if (c->err || !c->rows)
		return c->err;
	const struct ior_pq_buf *out = page_bytes(c, &enc);
	int r = out->err ? out->err : compress(c, out);
	if (r)
		return c->err = r;
	size_t hstart = c->chunk.len;
	page_header(&c->chunk, PAGE_DATA, out->len, c->zbuf.len, c->rows, enc);
	c->chunk_raw += c->chunk.len - hstart + out->len;
	ior_pq_buf_put(&c->chunk, c->zbuf.p, c->zbuf.len);
	c->chunk_values += c->rows;
	c->used_dict |= enc == ENC_RLE_DICTIONARY;
	c->used_plain |= enc == ENC_PLAIN;
	c->rows = c->nonnull = 0;
	c->values.len = 0;
	c->page_plain = false;
	return c->err = c->chunk.err;
}

uint64_t ior_pq_column_chunk_bytes(const struct ior_pq_column *c)
{
	return c->chunk.len + c->dict.values.len + c->values.len;
}

static void stat_value(struct ior_thrift *t, int16_t id, const struct ior_pq_column *c, int64_t v,
		       const struct ior_pq_buf *s)
{
	if (c->def.type == IOR_PQ_BYTE_ARRAY)
		ior_thrift_field_binary(t, id, s->p, s->len);
	else
		ior_thrift_field_binary(t, id, &v, c->def.type == IOR_PQ_INT64 ? 8 : c->def.type == IOR_PQ_INT32 ? 4 : 1);
}

/* ColumnChunk { 2: file_offset, 3: ColumnMetaData }. */
static void chunk_meta(struct ior_pq_column *c, struct ior_thrift *t, uint64_t off, uint64_t data_off,
		       uint64_t raw, uint64_t stored)
{
	int encs[3], n = 0;

	if (c->def.optional || c->used_dict)
		encs[n++] = ENC_RLE;
	if (c->used_plain || c->used_dict) /* the dictionary page is PLAIN */
		encs[n++] = ENC_PLAIN;
	if (c->used_dict)
		encs[n++] = ENC_RLE_DICTIONARY;
	ior_thrift_struct_begin(t);
	ior_thrift_field_i64(t, 2, (int64_t)off);
	ior_thrift_field_struct(t, 3);
	ior_thrift_field_i32(t, 1, c->def.type);
	ior_thrift_field_list(t, 2, IOR_THRIFT_I32, (uint32_t)n);
	for (int i = 0; i < n; i++)
		ior_thrift_i32(t, encs[i]);
	ior_thrift_field_list(t, 3, IOR_THRIFT_BINARY, 1);
	ior_thrift_binary(t, c->def.name, strlen(c->def.name));
	ior_thrift_field_i32(t, 4, CODEC_ZSTD);
	ior_thrift_field_i64(t, 5, (int64_t)c->chunk_values);
	ior_thrift_field_i64(t, 6, (int64_t)raw);
	ior_thrift_field_i64(t, 7, (int64_t)stored);
	ior_thrift_field_i64(t, 9, (int64_t)data_off);
	if (c->used_dict)
		ior_thrift_field_i64(t, 11, (int64_t)off);
	ior_thrift_field_struct(t, 12);
	ior_thrift_field_i64(t, 3, (int64_t)c->chunk_nulls);
	if (c->has_minmax) {
		stat_value(t, 5, c, c->max, &c->smax);
		stat_value(t, 6, c, c->min, &c->smin);
	}
	ior_thrift_struct_end(t);
	ior_thrift_struct_end(t);
	ior_thrift_struct_end(t);
}

static void reset_chunk(struct ior_pq_column *c)
{
	c->chunk.len = 0;
	ior_pq_dict_reset(&c->dict);
	ior_pq_column_forget_ids(c);
	c->dict_off = c->used_dict = c->used_plain = c->has_minmax = false;
	c->chunk_values = c->chunk_nulls = c->chunk_raw = 0;
}

int ior_pq_column_write_chunk(struct ior_pq_column *c, uint64_t off,
			      int (*put)(void *ctx, const void *p, size_t n), void *ctx,
			      struct ior_thrift *t, uint64_t *raw, uint64_t *stored)
{
	struct ior_pq_buf *hdr = &c->page_out;
	uint64_t dict_raw = 0, dict_stored = 0;
	int r = ior_pq_column_flush_page(c);

	hdr->len = 0;
	if (!r && c->used_dict) {
		r = compress(c, &c->dict.values);
		page_header(hdr, PAGE_DICTIONARY, c->dict.values.len, c->zbuf.len, c->dict.n, ENC_PLAIN);
		r = r ? r : hdr->err;
		if (!r)
			r = put(ctx, hdr->p, hdr->len);
		if (!r)
			r = put(ctx, c->zbuf.p, c->zbuf.len);
		dict_raw = hdr->len + c->dict.values.len;
		dict_stored = hdr->len + c->zbuf.len;
	}
	if (!r)
		r = put(ctx, c->chunk.p, c->chunk.len);
	if (r)
		return c->err = r;
	chunk_meta(c, t, off, off + dict_stored, dict_raw + c->chunk_raw, dict_stored + c->chunk.len);
	*raw += dict_raw + c->chunk_raw;
	*stored += dict_stored + c->chunk.len;
	reset_chunk(c);
	return 0;
}
