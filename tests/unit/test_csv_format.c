#include "csv/csv.h"
#include "syscalls/open_flags.h"
#include "syscalls/syscalls.h"
#include "t.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char out[8192];

static const char *row(const struct ior_event_pair *p, enum ior_escape esc)
{
	FILE *f = fmemopen(out, sizeof out, "w");
	ior_csv_write_pair(f, p, esc);
	fclose(f);
	return out;
}

static struct ior_event_pair pair(const char *name, const char *comm, const char *path, int fd, long long flags)
{
	struct ior_event_pair p = {
		.gap_ns = 10074, .duration_ns = 14126, .ret = 3, .flags = flags,
		.pid = 158022, .tid = 158023, .fd = fd,
		.sys = (uint16_t)ior_sys_find(name), /* any arch's name */
		.comm = comm, .path = path, .path2 = "",
	};
	return p;
}

TEST(header_and_plain_row)
{
	FILE *f = fmemopen(out, sizeof out, "w");
	ior_csv_write_header(f);
	fclose(f);
	CHECK_EQ_STR(out, "durationToPrevNs,durationNs,comm,pid.tid,name,ret,file\n");
	struct ior_event_pair p = pair("openat", "cat", "/etc/hosts", 3, O_RDONLY | O_CLOEXEC);
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_AUTO),
		     "10074,14126,cat,158022.158023,openat,3,\"/etc/hosts%(3,O_RDONLY|O_CLOEXEC)\"\n");
}

TEST(file_column_forms)
{
	struct ior_event_pair p = pair("newfstatat", "ls", "/tmp", -1, IOR_FLAGS_UNKNOWN);
	p.ret = -2;
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_AUTO), "10074,14126,ls,158022.158023,newfstatat,-2,/tmp\n");
	p = pair("rename", "mv", "/a", -1, IOR_FLAGS_UNKNOWN);
	p.path2 = "/b";
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_AUTO), "10074,14126,mv,158022.158023,rename,3,/a=>/b\n");
	p = pair("sync", "sync", "", -1, IOR_FLAGS_UNKNOWN);
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_AUTO), "10074,14126,sync,158022.158023,sync,3,\n");
	p = pair("read", "x", "", 7, IOR_FLAGS_UNKNOWN);
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_AUTO), "10074,14126,x,158022.158023,read,3,%(7)\n");
}

TEST(numbers_at_digit_boundaries)
{
	struct ior_event_pair p = pair("read", "x", "", -1, IOR_FLAGS_UNKNOWN);
	p.gap_ns = 0;
	p.duration_ns = UINT64_MAX;
	p.pid = 9;
	p.tid = 10;
	p.ret = -100;
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_AUTO), "0,18446744073709551615,x,9.10,read,-100,\n");
	p.gap_ns = 99;
	p.duration_ns = 1000000007;
	p.pid = 100;
	p.tid = 4294967295u;
	p.ret = INT64_MIN;
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_AUTO),
		     "99,1000000007,x,100.4294967295,read,-9223372036854775808,\n");
}

/* The length comes first (from the bit length): every power of ten and
 * its neighbours, against printf. */
TEST(every_digit_count)
{
	struct ior_event_pair p = pair("read", "x", "", -1, IOR_FLAGS_UNKNOWN);
	char want[128];

	for (uint64_t t = 1;; t *= 10) {
		uint64_t vs[] = { t - 1, t, t + 1 };
		for (int i = 0; i < 3; i++) {
			p.gap_ns = vs[i];
			p.duration_ns = vs[i] | 1;
			p.ret = -(int64_t)(vs[i] >> 1);
			snprintf(want, sizeof want, "%llu,%llu,x,158022.158023,read,%lld,\n",
				 (unsigned long long)vs[i], (unsigned long long)(vs[i] | 1), (long long)p.ret);
			CHECK_EQ_STR(row(&p, IOR_ESCAPE_AUTO), want);
		}
		if (t > UINT64_MAX / 10)
			break;
	}
}

TEST(quoting)
{
	struct ior_event_pair p = pair("unlink", "we\"ird,c", "/tmp/a,b\"c\nd", -1, IOR_FLAGS_UNKNOWN);
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_NEVER),
		     "10074,14126,\"we\"\"ird,c\",158022.158023,unlink,3,\"/tmp/a,b\"\"c\nd\"\n");
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_AUTO),
		     "10074,14126,\"we\"\"ird,c\",158022.158023,unlink,3,\"/tmp/a,b\"\"c\\x0ad\"\n");
	/* with flags the column is quoted as it is written: the same doubling */
	p = pair("openat", "q", "/tmp/a,b\"c\nd\"", 4, O_RDONLY);
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_NEVER),
		     "10074,14126,q,158022.158023,openat,3,\"/tmp/a,b\"\"c\nd\"\"%(4,O_RDONLY)\"\n");
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_AUTO),
		     "10074,14126,q,158022.158023,openat,3,\"/tmp/a,b\"\"c\\x0ad\"\"%(4,O_RDONLY)\"\n");
}

TEST(escaping_modes)
{
	/* ESC, valid UTF-8 (e-acute), an invalid byte, RLO, a C1 control, a backslash */
	struct ior_event_pair p = pair("unlink", "a\x1b[0m", "/t/caf\xc3\xa9\xff\xe2\x80\xae\xc2\x9b\\", -1, IOR_FLAGS_UNKNOWN);
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_AUTO),
		     "10074,14126,a\\x1b[0m,158022.158023,unlink,3,/t/caf\xc3\xa9\\xff\\u202e\\u009b\\\\\n");
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_ALWAYS),
		     "10074,14126,a\\x1b[0m,158022.158023,unlink,3,/t/caf\\xc3\\xa9\\xff\\xe2\\x80\\xae\\xc2\\x9b\\\\\n");
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_NEVER),
		     "10074,14126,a\x1b[0m,158022.158023,unlink,3,/t/caf\xc3\xa9\xff\xe2\x80\xae\xc2\x9b\\\n");
	/* overlong, surrogate, truncated sequences are invalid */
	p.path = "\xc0\xaf\xed\xa0\x80\xe2\x82";
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_AUTO),
		     "10074,14126,a\\x1b[0m,158022.158023,unlink,3,\\xc0\\xaf\\xed\\xa0\\x80\\xe2\\x82\n");
	enum ior_escape e;
	CHECK_EQ_INT(ior_escape_parse("always", &e), 0);
	CHECK_EQ_INT(e, IOR_ESCAPE_ALWAYS);
	CHECK_EQ_INT(ior_escape_parse("sometimes", &e), -1);
}

TEST(flags_strings)
{
	char b[128];

	ior_open_flags_str(b, sizeof b, O_RDONLY);
	CHECK_EQ_STR(b, "O_RDONLY");
	ior_open_flags_str(b, sizeof b, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC);
	CHECK_EQ_STR(b, "O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC");
	ior_open_flags_str(b, sizeof b, O_RDWR | O_SYNC | O_APPEND);
	CHECK_EQ_STR(b, "O_RDWR|O_SYNC|O_APPEND");
	ior_open_flags_str(b, sizeof b, O_RDWR | O_TMPFILE);
	CHECK_EQ_STR(b, "O_RDWR|O_TMPFILE");
	ior_open_flags_str(b, sizeof b, O_RDONLY | O_DIRECTORY | 0x40000000);
	CHECK_EQ_STR(b, "O_RDONLY|O_DIRECTORY|0x40000000");
	ior_open_flags_str(b, 6, O_WRONLY | O_CREAT);
	CHECK_EQ_STR(b, "O_WRO");
}

/* musl's O_ACCMODE holds O_PATH: the access mode is the kernel's two bits. */
TEST(o_path_flags)
{
	char b[128];

	ior_open_flags_str(b, sizeof b, O_PATH);
	CHECK_EQ_STR(b, "O_RDONLY|O_PATH");
	ior_open_flags_str(b, sizeof b, O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK_EQ_STR(b, "O_RDONLY|O_DIRECTORY|O_CLOEXEC|O_PATH");
	ior_open_flags_str(b, sizeof b, 3 | O_PATH);
	CHECK_EQ_STR(b, "O_ACCMODE|O_PATH");
}

/* Flags come from the kernel or a file: any 64-bit value renders, bounded. */
TEST(any_flags_value_renders)
{
	char b[32];
	static const long long values[] = { -1, INT64_MIN, INT64_MAX, 0x7fffffff, 0xffffffffLL };

	for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
		ior_open_flags_str(b, sizeof b, values[i]);
		CHECK(strlen(b) < sizeof b);
		CHECK(!strncmp(b, "O_", 2));
	}
	for (int bit = 0; bit < 64; bit++) {
		ior_open_flags_str(b, sizeof b, (long long)(1ULL << bit));
		CHECK(b[0] == 'O');
	}
}

/* A row of any size comes out whole (open_memstream: no size limit here). */
static char *big_row(const struct ior_event_pair *p, enum ior_escape esc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ior_csv_write_pair(f, p, esc);
	fclose(f);
	return buf;
}

static char *repeat(const char *unit, size_t n)
{
	size_t u = strlen(unit);
	char *s = malloc(u * n + 1);
	for (size_t i = 0; i < n; i++)
		memcpy(s + i * u, unit, u);
	s[u * n] = 0;
	return s;
}

TEST(long_paths_do_not_overflow)
{
	/* the writer takes a path's first 4096 bytes (PATH_MAX): pairs carry no
	 * longer ones */
	char *big = repeat("\x01", 4999), *want_path = repeat("\\x01", 4096);
	struct ior_event_pair p = pair("unlink", "c", big, -1, IOR_FLAGS_UNKNOWN);
	char *got = big_row(&p, IOR_ESCAPE_AUTO);
	char *want = malloc(strlen(want_path) + 64);
	sprintf(want, "10074,14126,c,158022.158023,unlink,3,%s\n", want_path);
	CHECK(got && !strcmp(got, want)); /* every byte escaped, no overflow */
	p.path = "ok";
	CHECK_EQ_STR(row(&p, IOR_ESCAPE_AUTO), "10074,14126,c,158022.158023,unlink,3,ok\n");
	free(got);
	free(want);
	free(want_path);
	free(big);
}

TEST(escape_helper)
{
	char b[16];

	CHECK_EQ_INT(ior_escape_str(b, sizeof b, "a\x1b\xff", 3, IOR_ESCAPE_AUTO), 9);
	CHECK_EQ_STR(b, "a\\x1b\\xff");
	CHECK_EQ_INT(ior_escape_str(b, 4, "abcdef", 6, IOR_ESCAPE_AUTO), 3);
	CHECK_EQ_STR(b, "abc");
}

TEST(longest_quoted_fields_fit_the_row)
{
	char *big = repeat(",", 4999), *cut = repeat(",", 4096);
	struct ior_event_pair p = pair("rename", "c", big, -1, IOR_FLAGS_UNKNOWN);
	p.path2 = big;
	char *got = big_row(&p, IOR_ESCAPE_NEVER);
	char *want = malloc(2 * 4999 + 64);
	sprintf(want, "10074,14126,c,158022.158023,rename,3,\"%s=>%s\"\n", cut, cut);
	CHECK(got && !strcmp(got, want)); /* both paths (4096 bytes each), quoted once */
	free(cut);
	free(got);
	free(want);
	free(big);
}

/* Rows whose comm and path carry ids (the pairing stage's comm_id and
 * path_id) reuse the escaped bytes of the last row with the same id: in
 * any order of ids, modes and quoting (flags known or not), every row
 * equals the one formatted without ids. */
static const char *id_comms[] = { "cat", "a,b", "q\"x", "t\x01z", "\xc3\xa9t\xe9" };
static const char *id_paths[] = { "/etc/hosts", "/tmp/a,b", "/tmp/\"q\"", "/tmp/\n\r", "/x/\xff\xfe",
				  "/tmp/caf\xc3\xa9" };
static const enum ior_escape id_modes[] = { IOR_ESCAPE_AUTO, IOR_ESCAPE_ALWAYS, IOR_ESCAPE_NEVER };

static struct ior_event_pair id_pair(unsigned k)
{
	unsigned c = k % 5, pth = k / 5 % 6, fl = k / 30;
	return pair("read", id_comms[c], id_paths[pth], 3, fl ? O_RDONLY : IOR_FLAGS_UNKNOWN);
}

TEST(ids_reuse_escaped_fields_exactly)
{
	enum { NK = 5 * 6 * 2 };
	static char want[NK][3][512];
	unsigned x = 12345;

	for (unsigned k = 0; k < NK; k++)
		for (unsigned m = 0; m < 3; m++) {
			struct ior_event_pair p = id_pair(k);
			const char *r = row(&p, id_modes[m]);
			CHECK(strlen(r) < sizeof want[k][m]);
			memcpy(want[k][m], r, strlen(r) + 1 < sizeof want[k][m] ? strlen(r) + 1 : 0);
		}
	for (int i = 0; i < 5000; i++) {
		x = x * 1103515245u + 12345u;
		unsigned k = (x >> 8) % NK, m = (x >> 20) % 3;
		struct ior_event_pair p = id_pair(k);
		static const uint64_t comm_ids[] = { 1, 9, 17, 2, 10 }, path_ids[] = { 1, 9, 3, 11, 19, 4 };
		p.comm_id = comm_ids[k % 5]; /* ids that share the cache's slots, and ids that do not */
		p.path_id = path_ids[k / 5 % 6];
		CHECK_EQ_STR(row(&p, id_modes[m]), want[k][m]);
		if (t_cur_failed)
			break;
	}
}

int main(void)
{
	RUN(escape_helper);
	RUN(longest_quoted_fields_fit_the_row);
	RUN(header_and_plain_row);
	RUN(file_column_forms);
	RUN(numbers_at_digit_boundaries);
	RUN(every_digit_count);
	RUN(quoting);
	RUN(escaping_modes);
	RUN(flags_strings);
	RUN(o_path_flags);
	RUN(any_flags_value_renders);
	RUN(long_paths_do_not_overflow);
	RUN(ids_reuse_escaped_fields_exactly);
	return t_done();
}

