/* Minimal unit test harness. Each TEST is reported as one line
 * "PASS: file:name" or "FAIL: file:name: why"; tests/run counts them.
 *
 *   TEST(parses_header) { CHECK(x == 1); CHECK_EQ_INT(a, b); }
 *   int main(void) { RUN(parses_header); return t_done(); }
 */
#ifndef IOR_TEST_T_H
#define IOR_TEST_T_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int t_failed_total, t_cur_failed;

#define TEST(name) static void name(void)

#define T_FAIL(...)                                                    \
	do {                                                           \
		if (!t_cur_failed)                                     \
			printf("FAIL: %s:%s: ", t_base(__FILE__), t_cur); \
		else                                                   \
			printf("      ");                              \
		printf(__VA_ARGS__);                                   \
		printf(" (line %d)\n", __LINE__);                      \
		t_cur_failed = 1;                                      \
	} while (0)

#define CHECK(cond)                                  \
	do {                                         \
		if (!(cond))                         \
			T_FAIL("CHECK(%s)", #cond);  \
	} while (0)

#define CHECK_EQ_INT(a, b)                                                     \
	do {                                                                   \
		long long t_a = (long long)(a), t_b = (long long)(b);          \
		if (t_a != t_b)                                                \
			T_FAIL("%s == %lld, want %s == %lld", #a, t_a, #b, t_b); \
	} while (0)

#define CHECK_EQ_STR(a, b)                                                   \
	do {                                                                 \
		const char *t_a = (a), *t_b = (b);                           \
		if (!t_a || !t_b || strcmp(t_a, t_b))                        \
			T_FAIL("%s == \"%s\", want \"%s\"", #a, t_a ? t_a : "(null)", \
			       t_b ? t_b : "(null)");                        \
	} while (0)

static const char *t_cur = "";

static inline const char *t_base(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

#define RUN(name)                                                      \
	do {                                                           \
		t_cur = #name;                                         \
		t_cur_failed = 0;                                      \
		fflush(stdout);                                        \
		name();                                                \
		if (!t_cur_failed)                                     \
			printf("PASS: %s:%s\n", t_base(__FILE__), #name); \
		t_failed_total += t_cur_failed;                        \
		fflush(stdout);                                        \
	} while (0)

/* The whole file as a NUL-terminated malloc'd string (len set when not
 * NULL), or NULL when it cannot be read. */
static inline char *t_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0;
	FILE *m;
	int c;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &n);
	while (m && (c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	if (m)
		fclose(m);
	if (len)
		*len = n;
	return buf;
}

static inline int t_done(void)
{
	return t_failed_total ? 1 : 0;
}

#endif
