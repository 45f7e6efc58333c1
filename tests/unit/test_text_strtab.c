/* The string table: interning, finding, appending, clearing. */
#include "t.h"
#include "text/strtab.h"

#include <stdio.h>
#include <stdlib.h>

TEST(ids_are_dense_in_order_of_first_use)
{
	struct ior_strtab t;
	CHECK_EQ_INT(ior_strtab_init(&t), 0);
	CHECK_EQ_INT(ior_strtab_intern(&t, "", 0), 0);
	CHECK_EQ_INT(ior_strtab_intern(&t, "read", 4), 1);
	CHECK_EQ_INT(ior_strtab_intern(&t, "write", 5), 2);
	CHECK_EQ_INT(ior_strtab_intern(&t, "read", 4), 1);
	CHECK_EQ_INT(ior_strtab_intern(&t, "readv", 4), 1); /* n bytes, not the NUL */
	CHECK_EQ_INT(t.n, 3);
	CHECK_EQ_STR(ior_strtab_get(&t, 0), "");
	CHECK_EQ_STR(ior_strtab_get(&t, 2), "write");
	CHECK_EQ_INT(ior_strtab_len(&t, 0), 0);
	CHECK_EQ_INT(ior_strtab_len(&t, 2), 5);
	ior_strtab_free(&t);
}

/* Prefixes and extensions of a stored string are other strings, whichever
 * comes first (a shorter stored string must not be read past its end). */
TEST(prefixes_and_extensions_are_distinct)
{
	static const char *s[] = { "/tmp/a", "/tmp/ab", "/tmp/", "/tmp/abcdefgh", "/tmp/abcdefg" };
	struct ior_strtab t;
	CHECK_EQ_INT(ior_strtab_init(&t), 0);
	for (unsigned i = 0; i < 5; i++)
		CHECK_EQ_INT(ior_strtab_intern(&t, s[i], strlen(s[i])), i);
	for (unsigned i = 0; i < 5; i++) {
		CHECK_EQ_INT(ior_strtab_find(&t, s[i], strlen(s[i])), i);
		CHECK(ior_strtab_is(&t, i, s[i], strlen(s[i])));
	}
	CHECK_EQ_INT(ior_strtab_find(&t, "/tmp/abc", 8), UINT32_MAX);
	CHECK_EQ_INT(t.n, 5); /* find adds nothing */
	ior_strtab_free(&t);
}

/* Word-at-a-time compares: every length up to three words, differing in
 * any one byte. */
TEST(same_bytes_sees_every_byte)
{
	char a[32], b[32];
	for (size_t n = 0; n <= 24; n++)
		for (size_t i = 0; i < n; i++) {
			memset(a, 'x', sizeof a);
			memset(b, 'x', sizeof b);
			CHECK(ior_strtab_same_bytes(a, b, n));
			b[i] = 'y';
			if (ior_strtab_same_bytes(a, b, n))
				T_FAIL("length %zu, byte %zu differs, compared equal", n, i);
			b[n] = 'z'; /* beyond n: not compared */
			b[i] = 'x';
			CHECK(ior_strtab_same_bytes(a, b, n));
		}
}

/* Growth past the first arena, id array and index keeps every id. */
TEST(grows_and_keeps_every_id)
{
	struct ior_strtab t;
	char buf[64];
	CHECK_EQ_INT(ior_strtab_init(&t), 0);
	for (unsigned i = 0; i < 20000; i++) {
		int n = snprintf(buf, sizeof buf, "/some/longer/directory/file-%u", i);
		CHECK_EQ_INT(ior_strtab_intern(&t, buf, (size_t)n), i);
	}
	for (unsigned i = 0; i < 20000; i += 97) {
		int n = snprintf(buf, sizeof buf, "/some/longer/directory/file-%u", i);
		CHECK_EQ_INT(ior_strtab_find(&t, buf, (size_t)n), i);
		CHECK_EQ_STR(ior_strtab_get(&t, i), buf);
	}
	ior_strtab_free(&t);
}

TEST(clear_forgets_and_starts_at_zero)
{
	struct ior_strtab t;
	CHECK_EQ_INT(ior_strtab_init(&t), 0);
	ior_strtab_intern(&t, "a", 1);
	ior_strtab_intern(&t, "b", 1);
	ior_strtab_clear(&t);
	CHECK_EQ_INT(t.n, 0);
	CHECK_EQ_INT(ior_strtab_find(&t, "a", 1), UINT32_MAX);
	CHECK_EQ_INT(ior_strtab_intern(&t, "b", 1), 0);
	CHECK_EQ_STR(ior_strtab_get(&t, 0), "b");
	ior_strtab_free(&t);
}

/* Append takes ids as given, a repeated string too. */
TEST(append_adds_every_string)
{
	struct ior_strtab t;
	CHECK_EQ_INT(ior_strtab_init(&t), 0);
	CHECK_EQ_INT(ior_strtab_append(&t, "", 0), 0);
	CHECK_EQ_INT(ior_strtab_append(&t, "x", 1), 1);
	CHECK_EQ_INT(ior_strtab_append(&t, "x", 1), 2);
	CHECK_EQ_STR(ior_strtab_get(&t, 2), "x");
	CHECK_EQ_INT(ior_strtab_len(&t, 1), 1);
	ior_strtab_free(&t);
}

int main(void)
{
	RUN(ids_are_dense_in_order_of_first_use);
	RUN(prefixes_and_extensions_are_distinct);
	RUN(same_bytes_sees_every_byte);
	RUN(grows_and_keeps_every_id);
	RUN(clear_forgets_and_starts_at_zero);
	RUN(append_adds_every_string);
	return t_done();
}
