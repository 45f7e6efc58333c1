/* The Thrift compact encoder against byte sequences worked out from the
 * protocol's spec (thrift-compact-protocol.md). */
#include "parquet/thrift.h"
#include "t.h"

#include <errno.h>

static struct ior_pq_buf out;
static struct ior_thrift th;

static void begin(void)
{
	out.len = 0;
	ior_thrift_init(&th, &out);
	ior_thrift_struct_begin(&th);
}

static void expect(const uint8_t *want, size_t n, int line)
{
	ior_thrift_struct_end(&th);
	if (ior_thrift_error(&th))
		T_FAIL("error %d (from line %d)", ior_thrift_error(&th), line);
	if (out.len != n || memcmp(out.p, want, n)) {
		T_FAIL("%zu bytes, want %zu (from line %d):", out.len, n, line);
		for (size_t i = 0; i < out.len; i++)
			printf(" %02x", out.p[i]);
		printf("\n");
	}
}
#define EXPECT(...)                                                         \
	do {                                                                \
		static const uint8_t w_[] = { __VA_ARGS__ };                \
		expect(w_, sizeof w_, __LINE__);                            \
	} while (0)

TEST(i32_field_short_header)
{
	begin();
	ior_thrift_field_i32(&th, 1, 1); /* delta 1, type 5; zigzag(1) = 2 */
	ior_thrift_field_i32(&th, 2, -1);
	EXPECT(0x15, 0x02, 0x15, 0x01, 0x00); /* the delta is to the previous field */
}

TEST(long_field_jump_uses_zigzag_id)
{
	begin();
	ior_thrift_field_i64(&th, 1, 300);  /* zigzag 600 = 0xd8 0x04 */
	ior_thrift_field_i64(&th, 20, -1); /* delta 19: type byte, zigzag(20) = 40 */
	EXPECT(0x16, 0xd8, 0x04, 0x06, 0x28, 0x01, 0x00);
}

TEST(bools_in_the_type)
{
	begin();
	ior_thrift_field_bool(&th, 1, true);
	ior_thrift_field_bool(&th, 2, false);
	EXPECT(0x11, 0x12, 0x00);
}

TEST(binary_and_byte)
{
	begin();
	ior_thrift_field_string(&th, 1, "ab");
	ior_thrift_field_byte(&th, 3, 64);
	EXPECT(0x18, 0x02, 'a', 'b', 0x23, 0x40, 0x00);
}

TEST(short_and_long_lists)
{
	begin();
	ior_thrift_field_list(&th, 1, IOR_THRIFT_I32, 3);
	for (int i = 1; i <= 3; i++)
		ior_thrift_i32(&th, i);
	ior_thrift_field_list(&th, 2, IOR_THRIFT_I32, 15); /* 15 and more: size as varint */
	for (int i = 0; i < 15; i++)
		ior_thrift_i32(&th, 0);
	EXPECT(0x19, 0x35, 0x02, 0x04, 0x06, 0x19, 0xf5, 0x0f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	       0x00);
}

TEST(nested_structs_restart_field_ids)
{
	begin();
	ior_thrift_field_struct(&th, 1);
	ior_thrift_field_i32(&th, 1, 0);
	ior_thrift_struct_end(&th);
	ior_thrift_field_i32(&th, 2, 5); /* delta from the outer struct's field 1 */
	ior_thrift_field_list(&th, 3, IOR_THRIFT_STRUCT, 1);
	ior_thrift_struct_begin(&th);
	ior_thrift_field_i32(&th, 4, 1);
	ior_thrift_struct_end(&th);
	EXPECT(0x1c, 0x15, 0x00, 0x00, 0x15, 0x0a, 0x19, 0x1c, 0x45, 0x02, 0x00, 0x00);
}

TEST(misuse_is_an_error)
{
	begin();
	ior_thrift_field_i32(&th, 2, 0);
	ior_thrift_field_i32(&th, 1, 0); /* out of order */
	CHECK(ior_thrift_error(&th) == -EINVAL);
	ior_thrift_init(&th, &out);
	ior_thrift_struct_end(&th); /* nothing open */
	CHECK(ior_thrift_error(&th) == -EINVAL);
}

int main(void)
{
	RUN(i32_field_short_header);
	RUN(long_field_jump_uses_zigzag_id);
	RUN(bools_in_the_type);
	RUN(binary_and_byte);
	RUN(short_and_long_lists);
	RUN(nested_structs_restart_field_ids);
	RUN(misuse_is_an_error);
	ior_pq_buf_free(&out);
	return t_done();
}
