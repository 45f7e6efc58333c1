/* The CSV formatter against its previous version (csv_ref.inc) on random
 * pairs: numbers at digit boundaries, every escape mode, hostile names
 * (control bytes, quotes, commas, backslashes, valid, invalid, truncated,
 * overlong and unsafe UTF-8, C1 and bidi code points), names longer than
 * the 4096-byte field and comms filling all 16 bytes without a NUL. Rows
 * must be byte-identical, through ior_csv_write_pair and
 * ior_csv_format_pair alike. */
#include "csv_ref.inc"
#include "t.h"

#include <stdlib.h>

#define OUT_MAX (IOR_CSV_ROW_MAX + 64)

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t rnd64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint32_t rnd(uint32_t below)
{
	return (uint32_t)((rnd64() >> 11) % below);
}

static uint64_t number(void)
{
	static const uint64_t edge[] = { 0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 99999,
					 100000, 4294967295ull, 4294967296ull, 999999999999ull,
					 9999999999999999999ull, 10000000000000000000ull, UINT64_MAX };
	switch (rnd(3)) {
	case 0:
		return edge[rnd(sizeof edge / sizeof edge[0])];
	case 1:
		return rnd(100000);
	default:
		return rnd64() >> rnd(64);
	}
}

/* A name of n bytes drawn from pieces a hostile file name can hold. */
static void name(char *s, size_t n)
{
	static const char *const piece[] = {
		"a", "/usr/lib", "x.so", "\"", ",", "\\", "\n", "\r", "\x1b[31m", "\x7f", "\t",
		"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc2\x85", "\xe2\x80\xae",
		"\xe2\x81\xa6", "\xe2\x80\x8f", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
		"\xff", "\xc3", "\xe2\x82", "\xf0\x9f\x98", "\x80", "\xbf", " ", "%(", "=>",
	};
	size_t i = 0;

	while (i < n) {
		const char *p = piece[rnd(sizeof piece / sizeof piece[0])];
		for (; *p && i < n; p++)
			s[i++] = *p;
	}
	s[n] = 0;
}

static size_t name_len(void)
{
	switch (rnd(6)) {
	case 0:
		return 0;
	case 1:
		return 4090 + rnd(20); /* around the 4096-byte field */
	case 2:
		return rnd(600);
	default:
		return rnd(40);
	}
}

struct strings {
	char comm[17], path[4200], path2[4200];
};

static struct ior_event_pair random_pair(struct strings *st)
{
	static const long long flags[] = { IOR_FLAGS_UNKNOWN, O_RDONLY, O_WRONLY | O_CREAT | O_TRUNC,
					   O_RDWR | O_CLOEXEC | O_APPEND, O_PATH, 3, 0x7fffffff, -2 };
	size_t cl = rnd(4) ? rnd(16) : 16;

	name(st->comm, cl); /* 16: no NUL within the 16 bytes read */
	name(st->path, name_len());
	name(st->path2, rnd(3) ? 0 : name_len());
	struct ior_event_pair p = {
		.gap_ns = number(), .duration_ns = number(), .ret = (int64_t)number() * (rnd(2) ? 1 : -1),
		.flags = rnd(3) ? flags[rnd(sizeof flags / sizeof flags[0])] : (int64_t)rnd64(),
		.pid = (uint32_t)number(), .tid = (uint32_t)number(),
		.fd = rnd(3) ? (int32_t)rnd(1000) - 1 : (int32_t)rnd64(),
		.sys = (uint16_t)(rnd(10) ? rnd(ior_nsyscalls) : rnd(2000)),
		.comm = st->comm, .path = st->path, .path2 = rnd(5) ? st->path2 : NULL,
	};
	if (!p.path2 && rnd(2))
		p.path2 = "";
	return p;
}

static size_t through(void (*w)(FILE *, const struct ior_event_pair *, enum ior_escape),
		      const struct ior_event_pair *p, enum ior_escape esc, char *out)
{
	FILE *f = fmemopen(out, OUT_MAX, "w");
	size_t n;

	if (!f)
		return 0;
	w(f, p, esc);
	n = (size_t)ftell(f);
	fclose(f);
	return n;
}

TEST(rows_match_previous_formatter)
{
	static struct strings st;
	static char a[OUT_MAX], b[OUT_MAX], c[IOR_CSV_ROW_MAX];

	for (int i = 0; i < 20000; i++) {
		struct ior_event_pair p = random_pair(&st);
		enum ior_escape esc = (enum ior_escape)rnd(3);
		size_t na = through(ref_csv_write_pair, &p, esc, a);
		size_t nb = through(ior_csv_write_pair, &p, esc, b);
		size_t nc = ior_csv_format_pair(c, &p, esc);
		if (na != nb || memcmp(a, b, na) || nc != na || memcmp(a, c, na)) {
			size_t at = 0;
			while (at < na && at < nb && a[at] == b[at])
				at++;
			T_FAIL("pair %d (escape %d): rows of %zu (previous), %zu and %zu bytes; "
			       "written rows differ from byte %zu", i, (int)esc, na, nb, nc, at);
			return;
		}
	}
}

int main(void)
{
	RUN(rows_match_previous_formatter);
	return t_done();
}
