/* stats/report.c: the text tables, their alignment, escaping, (other). */
#include "stats/report.h"
#include "stats/devices.h"
#include "t.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <stdlib.h>

#define S 1000000000ull
#define US 1000ull

static struct ior_event_pair pair(const char *name, uint32_t pid, const char *comm, const char *path,
				  uint64_t enter, uint64_t dur, int64_t ret)
{
	uint16_t sys = (uint16_t)ior_sys_find(name);
	unsigned cls = ior_sys(sys)->cls;
	bool bytes = cls == IOR_SC_READ || cls == IOR_SC_WRITE || cls == IOR_SC_TRANSFER;
	return (struct ior_event_pair){ .enter_ns = enter, .duration_ns = dur, .ret = ret,
					.bytes = bytes && ret > 0 ? (uint64_t)ret : 0, .flags = IOR_FLAGS_UNKNOWN,
					.pid = pid, .tid = pid, .fd = 3, .sys = sys, .comm = comm, .path = path,
					.path2 = "" };
}

static char *report(struct ior_stats *s, enum ior_escape esc, unsigned rows)
{
	struct ior_stats_report_cfg cfg = { .esc = esc, .rows = rows };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f != NULL);
	CHECK_EQ_INT(ior_stats_report(s, f, &cfg), 0);
	fclose(f);
	return buf;
}

/* The line of the table `title` whose fields[col] is `key`, its fields
 * split on spaces into f[0..n); n, or 0 when there is none. */
static int find_row(const char *text, const char *title, int col, const char *key, char f[16][128])
{
	char want[64];
	const char *p = strstr(text, (snprintf(want, sizeof want, "\n%s\n", title), want));

	for (p = p ? p + strlen(want) : NULL; p && *p && *p != '\n';) {
		const char *end = strchr(p, '\n');
		char line[2048];
		int n = 0;
		snprintf(line, sizeof line, "%.*s", (int)(end ? end - p : (long)strlen(p)), p);
		for (char *save, *w = strtok_r(line, " ", &save); w && n < 16; w = strtok_r(NULL, " ", &save))
			snprintf(f[n++], 128, "%s", w);
		if (n > col && !strcmp(f[col], key))
			return n;
		p = end ? end + 1 : NULL;
	}
	return 0;
}

TEST(format_ns)
{
	struct {
		uint64_t ns;
		const char *want, *ascii;
	} cases[] = {
		{ 0, "0ns", "0ns" },
		{ 999, "999ns", "999ns" },
		{ 1000, "1.00µs", "1.00us" },
		{ 1234, "1.23µs", "1.23us" },
		{ 9999, "10.0µs", "10.0us" },
		{ 12345, "12.3µs", "12.3us" },
		{ 999499, "999µs", "999us" },
		{ 999999, "1000µs", "1000us" },
		{ 4560000, "4.56ms", "4.56ms" },
		{ 1230000000, "1.23s", "1.23s" },
		{ 1234 * S, "1234s", "1234s" },
		{ UINT64_MAX, "18446744074s", "18446744074s" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		ior_stats_format_ns(buf, sizeof buf, cases[i].ns, false);
		CHECK_EQ_STR(buf, cases[i].want);
		ior_stats_format_ns(buf, sizeof buf, cases[i].ns, true);
		CHECK_EQ_STR(buf, cases[i].ascii);
	}
}

TEST(tables)
{
	struct ior_stats *s;
	char f[16][128];
	uint64_t t = 10 * S;

	CHECK(ior_stats_new(&s, NULL) == 0);
	for (int i = 0; i < 10; i++) {
		struct ior_event_pair p = pair("read", 42, "cat", "/etc/passwd", t += US, 2 * US, 100);
		ior_stats_add(s, &p);
	}
	struct ior_event_pair p = pair("openat", 42, "cat", "/nope", t += US, 5 * US, -2);
	ior_stats_add(s, &p);
	p = pair("write", 43, "tee", "/dev/null", t += US, 500, 4096);
	ior_stats_add(s, &p);
	char *out = report(s, IOR_ESCAPE_AUTO, 0);

	CHECK(!strncmp(out, "12 pairs in ", 12));
	CHECK(strstr(out, "; 1 errors; 1000 bytes read, 4096 written; 25.5µs in syscalls\n") != NULL);
	CHECK_EQ_INT(find_row(out, "Syscalls", 0, "syscall", f), 13);
	CHECK_EQ_STR(f[6], "%time");
	CHECK_EQ_INT(find_row(out, "Syscalls", 0, "read", f), 13);
	CHECK_EQ_STR(f[1], "10");
	CHECK_EQ_STR(f[2], "0");
	CHECK_EQ_STR(f[3], "1000");
	CHECK_EQ_STR(f[4], "0");
	CHECK_EQ_STR(f[5], "20.0µs");
	CHECK_EQ_STR(f[6], "78.4");
	CHECK_EQ_STR(f[7], "2.00µs");
	CHECK_EQ_STR(f[9], "2.00µs");
	CHECK_EQ_STR(f[12], "2.00µs");
	CHECK_EQ_INT(find_row(out, "Syscalls", 0, "openat", f), 13);
	CHECK_EQ_STR(f[2], "1");
	CHECK_EQ_INT(find_row(out, "Syscalls", 0, "total", f), 13);
	CHECK_EQ_STR(f[1], "12");
	CHECK_EQ_STR(f[4], "4096");
	CHECK_EQ_STR(f[7], "500ns");
	CHECK_EQ_STR(f[12], "5.00µs");
	CHECK_EQ_INT(find_row(out, "Files", 6, "/etc/passwd", f), 7);
	CHECK_EQ_STR(f[0], "10");
	CHECK_EQ_STR(f[2], "1000");
	CHECK_EQ_INT(find_row(out, "Files", 6, "/dev/null", f), 7);
	CHECK_EQ_STR(f[3], "4096");
	CHECK_EQ_INT(find_row(out, "Files", 6, IOR_STATS_OTHER, f), 0); /* nothing left over */
	CHECK_EQ_INT(find_row(out, "Processes", 0, "42", f), 9);
	CHECK_EQ_STR(f[1], "11");
	CHECK_EQ_STR(f[6], "2.27µs");
	CHECK_EQ_STR(f[8], "cat");
	CHECK_EQ_INT(find_row(out, "Processes", 8, "tee", f), 9);

	/* every line of a table as wide as its header (the tail aside) */
	const char *sc = strstr(out, "\nSyscalls\n") + 10;
	size_t head = strcspn(sc, "\n");
	for (const char *l = sc; *l && *l != '\n'; l = strchr(l, '\n') + 1) {
		size_t n = strcspn(l, "\n"), mu = 0;
		for (size_t i = 0; i < n; i++)
			mu += (unsigned char)l[i] == 0xb5;
		if (n - mu != head)
			T_FAIL("line \"%.*s\" is %zu columns wide, the header %zu", (int)n, l, n - mu, head);
	}
	free(out);

	out = report(s, IOR_ESCAPE_ALWAYS, 0);
	CHECK(strstr(out, "µ") == NULL && strstr(out, "20.0us") != NULL);
	free(out);
	ior_stats_free(s);
}

/* Families: the Syscalls rows summed by family, by time, percentiles
 * from the merged histograms. */
TEST(families)
{
	struct ior_stats *s;
	char f[16][128];
	uint64_t t = 10 * S;

	CHECK(ior_stats_new(&s, NULL) == 0);
	for (int i = 0; i < 4; i++) {
		struct ior_event_pair p = pair("read", 42, "db", "/d", t += US, 1 * US, 10);
		ior_stats_add(s, &p);
		p = pair("pwrite64", 42, "db", "/d", t += US, 3 * US, 20);
		ior_stats_add(s, &p);
		p = pair("sendto", 42, "db", "", t += US, 10 * US, 64);
		ior_stats_add(s, &p);
	}
	struct ior_event_pair p = pair("recvfrom", 42, "db", "", t += US, 30 * US, -11);
	ior_stats_add(s, &p);
	char *out = report(s, IOR_ESCAPE_AUTO, 0);

	CHECK_EQ_INT(find_row(out, "Families", 0, "family", f), 13);
	CHECK_EQ_INT(find_row(out, "Families", 0, "FS", f), 13);
	CHECK_EQ_STR(f[1], "8");
	CHECK_EQ_STR(f[3], "40");
	CHECK_EQ_STR(f[4], "80");
	CHECK_EQ_STR(f[5], "16.0µs");
	CHECK_EQ_STR(f[7], "1.00µs");
	CHECK_EQ_STR(f[12], "3.00µs");
	CHECK_EQ_INT(find_row(out, "Families", 0, "Network", f), 13);
	CHECK_EQ_STR(f[1], "5");
	CHECK_EQ_STR(f[2], "1");
	CHECK_EQ_STR(f[4], "256");
	CHECK_EQ_STR(f[5], "70.0µs");
	CHECK_EQ_STR(f[12], "30.0µs");
	/* by time: Network (70 µs) before FS (16 µs) */
	const char *fam = strstr(out, "\nFamilies\n");
	CHECK(fam && strstr(fam, "\nNetwork ") && strstr(fam, "\nFS ") &&
	      strstr(fam, "\nNetwork ") < strstr(fam, "\nFS "));
	CHECK_EQ_INT(find_row(out, "Families", 0, "Polling", f), 0);
	free(out);
	ior_stats_free(s);
}

/* Hostile names stay on their line and print no escape sequence; long
 * paths are escaped whole. */
TEST(escaping)
{
	struct ior_stats *s;
	static char long_path[1200];
	char f[16][128];

	CHECK(ior_stats_new(&s, NULL) == 0);
	struct ior_event_pair p = pair("newstat", 7, "evil\n\x1b[2J", "/tmp/a\nfake 1 2\x1b]0;x\x07", S, 100, 0);
	ior_stats_add(s, &p);
	memset(long_path, 'x', sizeof long_path - 1);
	memcpy(long_path + 250, "\xc3\xa9\xc3\xa9\xc3\xa9", 6); /* é across the 256-byte cut */
	long_path[0] = '/';
	p = pair("newstat", 7, "evil\n\x1b[2J", long_path, S, 50, 0);
	ior_stats_add(s, &p);
	char *out = report(s, IOR_ESCAPE_AUTO, 0);
	CHECK(strchr(out, '\x1b') == NULL && strchr(out, '\x07') == NULL);
	CHECK(strstr(out, "/tmp/a\\x0afake 1 2\\x1b]0;x\\x07\n") != NULL);
	CHECK(strstr(out, "evil\\x0a\\x1b[2J\n") != NULL);
	CHECK_EQ_INT(find_row(out, "Files", 6, long_path, f), 0); /* too long for f: look for it whole */
	CHECK(strstr(out, long_path) != NULL); /* é kept: valid UTF-8, not cut */
	free(out);
	out = report(s, IOR_ESCAPE_ALWAYS, 0);
	CHECK(strstr(out, "xx\\xc3\\xa9\\xc3\\xa9\\xc3\\xa9xx") != NULL);
	free(out);
	ior_stats_free(s);
}

TEST(other_row)
{
	struct ior_stats *s;
	char f[16][128], path[32];

	CHECK(ior_stats_new(&s, NULL) == 0);
	for (unsigned i = 1; i <= 5; i++) {
		snprintf(path, sizeof path, "/f%u", i);
		struct ior_event_pair p = pair("read", 100 + i, "w", path, S, i * US, 10);
		ior_stats_add(s, &p);
	}
	char *out = report(s, IOR_ESCAPE_AUTO, 2);
	CHECK(find_row(out, "Files", 6, "/f5", f) && find_row(out, "Files", 6, "/f4", f));
	CHECK(!find_row(out, "Files", 6, "/f3", f));
	CHECK_EQ_INT(find_row(out, "Files", 6, IOR_STATS_OTHER, f), 7);
	CHECK_EQ_STR(f[0], "3");
	CHECK_EQ_STR(f[2], "30");
	CHECK_EQ_STR(f[4], "6.00µs");
	CHECK_EQ_INT(find_row(out, "Processes", 8, IOR_STATS_OTHER, f), 9);
	CHECK_EQ_STR(f[0], "-");
	CHECK_EQ_STR(f[1], "3");
	/* the syscall table shows every syscall */
	CHECK(find_row(out, "Syscalls", 0, "read", f) && !strcmp(f[1], "5"));
	free(out);
	ior_stats_free(s);
}

TEST(summary_rows_and_empty)
{
	struct ior_stats *s;
	char f[16][128];

	CHECK(ior_stats_new(&s, NULL) == 0);
	char *out = report(s, IOR_ESCAPE_AUTO, 0);
	CHECK_EQ_STR(out, "0 pairs in 0ns; 0 errors; 0 bytes read, 0 written; 0ns in syscalls\n");
	free(out);

	struct ior_event_pair p = pair("pread64", 9, "db", "/d", S, 30 * US, 4096000);
	p.summary = 1, p.pairs = 1000, p.end_ns = 2 * S;
	ior_stats_add(s, &p);
	out = report(s, IOR_ESCAPE_AUTO, 0);
	const char *first = "1000 pairs in 1.00s (1000/s); 0 errors; 4096000 bytes read, 0 written; 30.0µs in syscalls\n";
	if (strncmp(out, first, strlen(first)))
		T_FAIL("first line: %.*s", (int)strcspn(out, "\n"), out);
	CHECK(strstr(out, "1000 of the pairs came in summary rows") != NULL);
	CHECK_EQ_INT(find_row(out, "Syscalls", 0, "pread64", f), 13);
	CHECK_EQ_STR(f[1], "1000");
	CHECK_EQ_STR(f[3], "4096000");
	CHECK_EQ_STR(f[7], "-");  /* min: no pair seen in detail */
	CHECK_EQ_STR(f[8], "30ns"); /* mean: from the sums */
	CHECK_EQ_STR(f[11], "-");
	CHECK_EQ_STR(f[12], "-");
	free(out);
	ior_stats_free(s);
}

TEST(write_error)
{
	struct ior_stats *s;
	struct ior_stats_report_cfg cfg = { .esc = IOR_ESCAPE_AUTO };
	FILE *f = fopen("/dev/full", "w");

	CHECK(ior_stats_new(&s, NULL) == 0);
	struct ior_event_pair p = pair("read", 1, "a", "/f", S, 10, 1);
	ior_stats_add(s, &p);
	if (f) {
		setvbuf(f, NULL, _IONBF, 0);
		CHECK_EQ_INT(ior_stats_report(s, f, &cfg), -EIO);
		fclose(f);
	}
	ior_stats_free(s);
}

/* A flush sequence's data-less write with no submitter (bpf/block.h,
 * kernels before block_io_start): a write request, never issued, out of
 * the histograms and of the processes, as diskstats counts it. */
TEST(device_write_without_submitter)
{
	struct ior_devices d;
	struct ior_block_req w = { .done_ns = 900, .start_ns = 900, .dev = 7u << 20, .op = IOR_BLK_WRITE, .sys = -1,
				   .comm = "", .path = "" };
	struct ior_block_req r = { .done_ns = 2000, .start_ns = 1000, .issue_ns = 1500, .dev = 7u << 20, .bytes = 4096,
				   .op = IOR_BLK_WRITE, .pid = 5, .tid = 5, .comm = "dd", .sys = -1, .path = "" };

	ior_devices_init(&d);
	ior_devices_add(&d, &w);
	ior_devices_add(&d, &r);
	CHECK_EQ_INT(d.n, 1);
	CHECK_EQ_INT(d.rows[0].requests, 2);
	CHECK_EQ_INT(d.rows[0].bytes, 4096);
	CHECK_EQ_INT(d.rows[0].not_issued, 1);
	CHECK_EQ_INT(d.rows[0].device.count, 1);
	CHECK_EQ_INT(d.rows[0].nprocs, 1);
	CHECK_EQ_STR(d.rows[0].procs[0].name, "dd");
	CHECK_EQ_INT(ior_devices_set_name(&d, 7u << 20, "loop0"), 0);
	CHECK_EQ_STR(ior_devices_name(&d, 7u << 20), "loop0");
	CHECK(ior_devices_name(&d, 8u << 20) == NULL);
	ior_devices_free(&d);
}

int main(void)
{
	RUN(device_write_without_submitter);
	RUN(format_ns);
	RUN(tables);
	RUN(families);
	RUN(escaping);
	RUN(other_row);
	RUN(summary_rows_and_empty);
	RUN(write_error);
	return t_done();
}
