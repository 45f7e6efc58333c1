/* Comma-separated lists: blanks trimmed, empty entries skipped. */
#include "t.h"
#include "text/list.h"

/* The list's entries joined by '|', into out. */
static const char *entries(const char *list, char *out, size_t len)
{
	const char *p = list, *item;
	size_t n, o = 0;

	out[0] = 0;
	while (ior_list_next(&p, &item, &n) && o + n + 2 < len) {
		if (o)
			out[o++] = '|';
		memcpy(out + o, item, n);
		o += n;
		out[o] = 0;
	}
	return out;
}

TEST(trims_and_skips)
{
	char b[128];

	CHECK_EQ_STR(entries("comm,path", b, sizeof b), "comm|path");
	CHECK_EQ_STR(entries("comm, path", b, sizeof b), "comm|path");
	CHECK_EQ_STR(entries(" FS ,\tNetwork ", b, sizeof b), "FS|Network");
	CHECK_EQ_STR(entries("a,,b,", b, sizeof b), "a|b");
	CHECK_EQ_STR(entries(" , ,", b, sizeof b), "");
	CHECK_EQ_STR(entries("", b, sizeof b), "");
	CHECK_EQ_STR(entries("one two,x", b, sizeof b), "one two|x");
}

int main(void)
{
	RUN(trims_and_skips);
	return t_done();
}
