/* The device table's files beside a pairs file: their names, the frame,
 * the footer's schema and metadata, device names escaped, the latency
 * histogram's rows (one per non-empty bucket), and nothing but PATH.tmp
 * removed on the way. DuckDB reads them in tests/integration/parquet_devices.sh. */
#include "parquet/devices.h"
#include "t.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct ior_pq_info info = { .host = "h1", .kernel = "6.1", .ior_version = "0.1.0", .source = "r.ior.zst" };

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	if ((b = malloc(*len + 1)) && fread(b, 1, *len, f) != *len) {
		free(b);
		b = NULL;
	}
	fclose(f);
	return b;
}

static int has(const char *buf, size_t len, const char *s)
{
	return memmem(buf, len, s, strlen(s)) != NULL;
}

/* The footer of a complete file; NULL when the frame is wrong. */
static const char *footer(const char *b, size_t len, uint32_t *flen)
{
	if (len < 12 || memcmp(b, "PAR1", 4) || memcmp(b + len - 4, "PAR1", 4))
		return NULL;
	memcpy(flen, b + len - 8, 4);
	return *flen < len - 12 ? b + len - 8 - *flen : NULL;
}

TEST(paths)
{
	char d[64], h[64];
	CHECK_EQ_INT(ior_pq_devices_paths("/x/run.parquet", d, h, sizeof d), 0);
	CHECK_EQ_STR(d, "/x/run.devices.parquet");
	CHECK_EQ_STR(h, "/x/run.device_hist.parquet");
	CHECK_EQ_INT(ior_pq_devices_paths("out", d, h, sizeof d), 0);
	CHECK_EQ_STR(d, "out.devices.parquet");
	CHECK_EQ_STR(h, "out.device_hist.parquet");
	CHECK_EQ_INT(ior_pq_devices_paths("a-rather-long-name.parquet", d, h, 20), -ENAMETOOLONG);
}

TEST(files_schema_and_rows)
{
	char dir[] = "/tmp/ior-pqd-XXXXXX", dp[96], hp[96], err[256];
	struct ior_pq_dev_row r[2] = {
		{ .device = "loop\n7", .major = 7, .minor = 3, .op = "read", .requests = 5, .bytes = 20480,
		  .in_syscalls = 5, .syscall_bytes = 20480, .issued = true, .queue_lat = { 1, 2, 3, 4, 5 },
		  .device_lat = { 1000, 2000, 3000, 4000, 5000 }, .device_sum_ns = 15000 },
		{ .device = "vda", .major = 254, .minor = 0, .op = "flush", .requests = 1, .not_issued = 1 },
	};
	r[0].queue_log2[0] = 5;     /* 5 zeros */
	r[0].device_log2[10] = 2;   /* [512, 1024) */
	r[0].device_log2[13] = 3;   /* [4096, 8192) */
	r[0].device_log2[64] = 0;
	CHECK(mkdtemp(dir));
	snprintf(dp, sizeof dp, "%s/d.devices.parquet", dir);
	snprintf(hp, sizeof hp, "%s/d.device_hist.parquet", dir);
	CHECK_EQ_INT(ior_pq_devices_write(dp, hp, &info, r, 2, err, sizeof err), 0);
	size_t len;
	uint32_t flen;
	char *b = slurp(dp, &len);
	const char *ft = b ? footer(b, len, &flen) : NULL;
	CHECK(ft != NULL);
	const char *names[] = { "host", "device", "major", "minor", "op", "requests", "bytes", "errors", "in_syscalls",
				"syscall_bytes", "not_issued", "queue_min_ns", "queue_p99_ns", "device_min_ns",
				"device_p50_ns", "device_p95_ns", "device_max_ns", "device_sum_ns", "ior.table",
				"devices", "ior.source", "r.ior.zst", "ior version 0.1.0" };
	for (size_t i = 0; ft && i < sizeof names / sizeof *names; i++)
		if (!has(ft, flen, names[i]))
			T_FAIL("devices footer lacks \"%s\"", names[i]);
	CHECK(ft && has(ft, flen, "loop\\x0a7") && !has(ft, flen, "loop\n7")); /* the statistics, escaped */
	free(b);
	b = slurp(hp, &len);
	ft = b ? footer(b, len, &flen) : NULL;
	CHECK(ft != NULL);
	const char *hn[] = { "latency", "lo_ns", "hi_ns", "requests", "device_hist" };
	for (size_t i = 0; ft && i < sizeof hn / sizeof *hn; i++)
		if (!has(ft, flen, hn[i]))
			T_FAIL("device_hist footer lacks \"%s\"", hn[i]);
	/* num_rows, field 3 of FileMetaData (i64, zigzag): 3 buckets -> 0x06 */
	CHECK(ft && has(ft, flen, "\x16\x06"));
	free(b);
	char tmp[128];
	snprintf(tmp, sizeof tmp, "%s.tmp", dp);
	CHECK(access(tmp, F_OK) != 0);
	unlink(dp);
	unlink(hp);
	rmdir(dir);
}

TEST(empty_table)
{
	char dir[] = "/tmp/ior-pqd-XXXXXX", dp[96], hp[96], err[256];
	struct stat st;
	CHECK(mkdtemp(dir));
	snprintf(dp, sizeof dp, "%s/e.devices.parquet", dir);
	snprintf(hp, sizeof hp, "%s/e.device_hist.parquet", dir);
	CHECK_EQ_INT(ior_pq_devices_write(dp, hp, &info, NULL, 0, err, sizeof err), 0);
	CHECK(!stat(dp, &st) && st.st_size > 12 && (st.st_mode & 0777) == 0600);
	CHECK(!stat(hp, &st) && st.st_size > 12);
	unlink(dp);
	unlink(hp);
	rmdir(dir);
}

TEST(unwritable_says_which)
{
	char err[256] = "";
	CHECK(ior_pq_devices_write("/nonexistent-dir/x.devices.parquet", "/nonexistent-dir/x.device_hist.parquet",
				   &info, NULL, 0, err, sizeof err) < 0);
	CHECK(strstr(err, "/nonexistent-dir/x.devices.parquet") != NULL);
}

int main(void)
{
	RUN(paths);
	RUN(files_schema_and_rows);
	RUN(empty_table);
	RUN(unwritable_says_which);
	return t_done();
}
