/* Parquet's encodings against byte sequences from the spec
 * (parquet-format Encodings.md) or worked out by hand from it: the
 * RLE/bit-packed hybrid, PLAIN numbers, booleans and byte arrays, the
 * dictionary, and a column's pages (definition levels only where the
 * column is optional, dictionary indices, the fallback to PLAIN). */
#include "parquet/column.h"
#include "parquet/encode.h"
#include "t.h"

#include <zstd.h>

static struct ior_pq_buf out;

static void expect(const struct ior_pq_buf *b, const uint8_t *want, size_t n, int line)
{
	if (b->err || b->len != n || memcmp(b->p, want, n)) {
		T_FAIL("%zu bytes, want %zu (from line %d):", b->len, n, line);
		for (size_t i = 0; i < b->len; i++)
			printf(" %02x", b->p[i]);
		printf("\n");
	}
}
#define EXPECT(b, ...)                                              \
	do {                                                        \
		static const uint8_t w_[] = { __VA_ARGS__ };        \
		expect(b, w_, sizeof w_, __LINE__);                 \
	} while (0)

TEST(bit_widths)
{
	CHECK_EQ_INT(ior_pq_bit_width(0), 1);
	CHECK_EQ_INT(ior_pq_bit_width(1), 1);
	CHECK_EQ_INT(ior_pq_bit_width(2), 2);
	CHECK_EQ_INT(ior_pq_bit_width(255), 8);
	CHECK_EQ_INT(ior_pq_bit_width(256), 9);
	CHECK_EQ_INT(ior_pq_bit_width(UINT32_MAX), 32);
}

TEST(rle_run)
{
	uint32_t v[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	out.len = 0;
	ior_pq_rle_hybrid(&out, v, 8, 1);
	EXPECT(&out, 0x10, 0x01); /* header 8 << 1, the value in one byte */
	uint32_t w[300];
	for (int i = 0; i < 300; i++)
		w[i] = 1000;
	out.len = 0;
	ior_pq_rle_hybrid(&out, w, 300, 10); /* varint header, value in two bytes */
	EXPECT(&out, 0xd8, 0x04, 0xe8, 0x03);
}

TEST(bit_packed_spec_example)
{
	uint32_t v[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	out.len = 0;
	ior_pq_rle_hybrid(&out, v, 8, 3);
	EXPECT(&out, 0x03, 0x88, 0xc6, 0xfa); /* Encodings.md's bit-packing example */
}

TEST(literals_borrow_from_a_run_to_fill_a_group)
{
	uint32_t v[21] = { 1 };
	for (int i = 1; i < 21; i++)
		v[i] = 2;
	out.len = 0;
	ior_pq_rle_hybrid(&out, v, 21, 2);
	/* one group: 1 and seven 2s; then an RLE run of the other 13 */
	EXPECT(&out, 0x03, 0xa9, 0xaa, 0x1a, 0x02);
}

TEST(last_group_padded)
{
	uint32_t v[3] = { 1, 0, 1 };
	out.len = 0;
	ior_pq_rle_hybrid(&out, v, 3, 1);
	EXPECT(&out, 0x03, 0x05);
}

TEST(long_literals_split_in_63_group_runs)
{
	uint32_t v[1000];
	for (int i = 0; i < 1000; i++)
		v[i] = i & 1;
	out.len = 0;
	ior_pq_rle_hybrid(&out, v, 1000, 1);
	/* 504 values: header 63 << 1 | 1 and 63 bytes; the 496 left: 62 groups */
	CHECK_EQ_INT(out.len, 1 + 63 + 1 + 62);
	CHECK_EQ_INT(out.p[0], 0x7f);
	CHECK_EQ_INT(out.p[1], 0xaa);
	CHECK_EQ_INT(out.p[64], 62 << 1 | 1);
}

TEST(plain_values)
{
	uint8_t bools[9] = { 1, 0, 1, 1, 0, 0, 0, 0, 1 };
	out.len = 0;
	ior_pq_plain_bools(&out, bools, 9);
	ior_pq_plain_i32(&out, 7);
	ior_pq_plain_i64(&out, -2);
	ior_pq_plain_bytes(&out, "abc", 3);
	EXPECT(&out, 0x0d, 0x01, 7, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 3, 0, 0, 0, 'a', 'b',
	       'c');
}

TEST(dictionary)
{
	struct ior_pq_dict d = { 0 };
	const char *keys[] = { "a", "bb", "a\xff" };
	for (int i = 0; i < 3; i++)
		CHECK_EQ_INT(ior_pq_dict_add(&d, keys[i], strlen(keys[i]), ior_pq_hash(keys[i], strlen(keys[i])),
					     i == 2 ? "a\\xff" : keys[i], i == 2 ? 5 : (uint32_t)strlen(keys[i])),
			     i);
	CHECK_EQ_INT(ior_pq_dict_find(&d, "bb", 2, ior_pq_hash("bb", 2)), 1);
	CHECK_EQ_INT(ior_pq_dict_find(&d, "b", 1, ior_pq_hash("b", 1)), -1);
	EXPECT(&d.values, 1, 0, 0, 0, 'a', 2, 0, 0, 0, 'b', 'b', 5, 0, 0, 0, 'a', '\\', 'x', 'f', 'f');
	for (int i = 0; i < 1000; i++) { /* grows and rehashes */
		char k[16];
		snprintf(k, sizeof k, "k%d", i);
		ior_pq_dict_add(&d, k, strlen(k), ior_pq_hash(k, strlen(k)), k, (uint32_t)strlen(k));
	}
	CHECK_EQ_INT(ior_pq_dict_find(&d, "k999", 4, ior_pq_hash("k999", 4)), 1002);
	CHECK_EQ_INT(ior_pq_dict_find(&d, "a\xff", 2, ior_pq_hash("a\xff", 2)), 2);
	ior_pq_dict_free(&d);
}

/* The last page a column wrote, decompressed. */
static void last_page(struct ior_pq_column *c, struct ior_pq_buf *raw)
{
	raw->len = 0;
	ior_pq_buf_reserve(raw, 2 * IOR_PQ_PAGE_BYTES);
	size_t n = ZSTD_decompress(raw->p, raw->cap, c->zbuf.p, c->zbuf.len);
	raw->len = ZSTD_isError(n) ? 0 : n;
}

TEST(optional_page_has_definition_levels)
{
	struct ior_pq_column c;
	struct ior_pq_column_def d = { "x", IOR_PQ_INT32, IOR_PQ_LOGICAL_NONE, true, NULL };
	struct ior_pq_buf raw = { 0 };
	CHECK(!ior_pq_column_init(&c, &d, 1));
	ior_pq_column_i32(&c, 5);
	ior_pq_column_null(&c);
	ior_pq_column_i32(&c, 7);
	CHECK(!ior_pq_column_flush_page(&c));
	last_page(&c, &raw);
	/* 4-byte length, levels 1 0 1 bit-packed, then only the two values */
	EXPECT(&raw, 2, 0, 0, 0, 0x03, 0x05, 5, 0, 0, 0, 7, 0, 0, 0);
	CHECK_EQ_INT(c.chunk_nulls, 1);
	CHECK_EQ_INT(c.min, 5);
	CHECK_EQ_INT(c.max, 7);
	ior_pq_column_free(&c);
	ior_pq_buf_free(&raw);
}

TEST(required_page_has_none)
{
	struct ior_pq_column c;
	struct ior_pq_column_def d = { "x", IOR_PQ_INT64, IOR_PQ_LOGICAL_NONE, false, NULL };
	struct ior_pq_buf raw = { 0 };
	CHECK(!ior_pq_column_init(&c, &d, 1));
	ior_pq_column_i64(&c, 1);
	CHECK(!ior_pq_column_flush_page(&c));
	last_page(&c, &raw);
	EXPECT(&raw, 1, 0, 0, 0, 0, 0, 0, 0);
	CHECK_EQ_INT(c.min, 1);
	ior_pq_column_free(&c);
	ior_pq_buf_free(&raw);
}

TEST(string_page_holds_dictionary_indices)
{
	struct ior_pq_column c;
	struct ior_pq_column_def d = { "s", IOR_PQ_BYTE_ARRAY, IOR_PQ_LOGICAL_STRING, false, NULL };
	struct ior_pq_buf raw = { 0 };
	const char *v[] = { "b", "a", "b", "c" };
	CHECK(!ior_pq_column_init(&c, &d, 1));
	for (int i = 0; i < 4; i++)
		ior_pq_column_str_id(&c, (uint32_t)v[i][0], v[i], 1);
	CHECK(!ior_pq_column_flush_page(&c));
	last_page(&c, &raw);
	/* bit width 2, indices 0 1 0 2 bit-packed */
	EXPECT(&raw, 0x02, 0x03, 0x84, 0x00);
	EXPECT(&c.dict.values, 1, 0, 0, 0, 'b', 1, 0, 0, 0, 'a', 1, 0, 0, 0, 'c');
	EXPECT(&c.smin, 'a');
	EXPECT(&c.smax, 'c');
	CHECK(c.used_dict && !c.used_plain);
	ior_pq_column_free(&c);
	ior_pq_buf_free(&raw);
}

TEST(large_dictionary_falls_back_to_plain)
{
	static char s[4096];
	struct ior_pq_column c;
	struct ior_pq_column_def d = { "s", IOR_PQ_BYTE_ARRAY, IOR_PQ_LOGICAL_STRING, false, NULL };
	CHECK(!ior_pq_column_init(&c, &d, 1));
	memset(s, 'x', sizeof s);
	int n = IOR_PQ_DICT_MAX_BYTES / sizeof s + 10;
	for (int i = 0; i < n; i++) {
		snprintf(s, 16, "%08d", i);
		ior_pq_column_str(&c, s, sizeof s);
	}
	CHECK(c.dict_off);
	CHECK(c.dict.values.len <= IOR_PQ_DICT_MAX_BYTES);
	CHECK_EQ_INT(c.chunk_values + c.rows, n);
	CHECK(!ior_pq_column_flush_page(&c));
	CHECK(c.used_dict && c.used_plain);
	CHECK(c.smax.len == sizeof s && !memcmp(c.smax.p, "00002057", 8));
	ior_pq_column_free(&c);
}

int main(void)
{
	RUN(bit_widths);
	RUN(rle_run);
	RUN(bit_packed_spec_example);
	RUN(literals_borrow_from_a_run_to_fill_a_group);
	RUN(last_group_padded);
	RUN(long_literals_split_in_63_group_runs);
	RUN(plain_values);
	RUN(dictionary);
	RUN(optional_page_has_definition_levels);
	RUN(required_page_has_none);
	RUN(string_page_holds_dictionary_indices);
	RUN(large_dictionary_falls_back_to_plain);
	ior_pq_buf_free(&out);
	return t_done();
}
