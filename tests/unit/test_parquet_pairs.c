/* Pairs into a Parquet file: the frame (magic, footer length), what the
 * footer says (schema names, row count, metadata, statistics of escaped
 * strings), row groups of bounded size, and the file's name only once
 * it is complete. DuckDB reads the files in tests/integration/parquet.sh. */
#include "bpf/event.h"
#include "parquet/pairs.h"
#include "parquet/sink.h"
#include "parquet/writer.h"
#include "syscalls/syscalls.h"
#include "t.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

static const struct ior_pq_info info = {
	.host = "h1", .boot_id = "b00t", .kernel = "6.1", .ior_version = "0.1.0", .cmdline = "ior -comm x",
	.start_realtime_ns = 1000000000000, .start_monotonic_ns = 1000,
};

static struct ior_event_pair pair(const char *path)
{
	return (struct ior_event_pair){
		.enter_ns = 2000, .duration_ns = 10, .ret = -2, .flags = IOR_FLAGS_UNKNOWN, .pid = 1, .tid = 2,
		.fd = -1, .sys = (uint16_t)ior_sys_find("openat"),
		.comm = "c", .path = path, .path2 = "",
	};
}

static int has(const char *buf, size_t len, const char *s)
{
	return memmem(buf, len, s, strlen(s)) != NULL;
}

/* Writes n pairs (path i % distinct) to memory; the file's bytes. */
static char *write_mem(int n, int distinct, size_t *len, uint64_t *rows)
{
	char *buf = NULL, err[256], path[64];
	FILE *f = open_memstream(&buf, len);
	struct ior_pq_pairs *pp;
	CHECK(!ior_pq_pairs_new(&pp, f, &info));
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, i % distinct ? "/p/%d" : "/tmp/a\nb\xff\"", i % distinct);
		struct ior_event_pair p = pair(path);
		p.where = i == 1 ? IOR_WHERE_WQ : i == 2 ? IOR_WHERE_POLL : 0; /* io_uring ops */
		CHECK(!ior_pq_pairs_add(pp, &p));
	}
	struct ior_trace_totals t = { .pairs = 7, .lost = 3 };
	*rows = ior_pq_pairs_rows(pp);
	CHECK(!ior_pq_pairs_close(pp, &t, err, sizeof err));
	fclose(f);
	return buf;
}

TEST(frame_and_footer)
{
	size_t len;
	uint64_t rows;
	char *b = write_mem(3, 2, &len, &rows);
	CHECK_EQ_INT(rows, 3);
	CHECK(len > 12 && !memcmp(b, "PAR1", 4) && !memcmp(b + len - 4, "PAR1", 4));
	uint32_t flen;
	memcpy(&flen, b + len - 8, 4);
	CHECK(flen < len - 12);
	const char *ft = b + len - 8 - flen;
	const char *names[] = { "time_ns", "host", "boot_id", "comm", "pid", "tid", "syscall", "family", "fd",
				"ret", "bytes", "file", "file2", "flags", "is_error", "errno_name", "duration_ns",
				"gap_ns", "pairs", "timeout_ns", "where", "device_ns", "block_requests", "block_bytes",
				"cache_pages", "ior.kernel", "ior.lost", "ior.cmdline", "ior version 0.1.0" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!has(ft, flen, names[i]))
			T_FAIL("footer lacks \"%s\"", names[i]);
	/* the statistics hold the file column's extremes, escaped as the CSV does */
	CHECK(has(ft, flen, "/tmp/a\\x0ab\\xff\""));
	CHECK(has(ft, flen, "ENOENT"));
	CHECK(!has(ft, flen, "/tmp/a\nb"));
	CHECK(has(ft, flen, "io-wq") && has(ft, flen, "poll")); /* where's extremes */
	free(b);
}

static size_t count(const char *buf, size_t len, const char *s)
{
	size_t n = 0;
	for (const char *p = buf; (p = memmem(p, len - (size_t)(p - buf), s, strlen(s))); p++)
		n++;
	return n;
}

TEST(row_groups_are_bounded)
{
	static const struct ior_pq_column_def col = { "rowgroupcol", IOR_PQ_INT64, IOR_PQ_LOGICAL_NONE, false, NULL };
	struct ior_pq_writer_cfg cfg = { &col, 1, 1, 10, NULL };
	struct ior_pq_writer *w;
	char *b = NULL;
	size_t len;
	FILE *f = open_memstream(&b, &len);
	CHECK(!ior_pq_writer_new(&w, f, &cfg));
	for (int i = 0; i < 25; i++) {
		ior_pq_column_i64(ior_pq_writer_column(w, 0), i);
		CHECK(!ior_pq_writer_end_row(w));
	}
	CHECK(!ior_pq_writer_finish(w));
	ior_pq_writer_free(w);
	fclose(f);
	uint32_t flen;
	memcpy(&flen, b + len - 8, 4);
	/* the name once in the schema, then in each row group's column chunk: 10 + 10 + 5 rows */
	CHECK_EQ_INT(count(b + len - 8 - flen, flen, "rowgroupcol"), 4);
	free(b);
}

TEST(file_appears_only_when_complete)
{
	char dir[] = "/tmp/ior-pq-XXXXXX", path[64], tmp[80], err[256];
	struct ior_pq_pairs *pp;
	CHECK(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/out.parquet", dir);
	snprintf(tmp, sizeof tmp, "%s" IOR_PQ_TMP_SUFFIX, path);
	CHECK(!ior_pq_pairs_open(&pp, path, &info, err, sizeof err));
	struct ior_event_pair p = pair("/x");
	CHECK(!ior_pq_pairs_add(pp, &p));
	CHECK(access(path, F_OK) && !access(tmp, F_OK));
	ior_pq_pairs_abort(pp);
	CHECK(access(path, F_OK) && access(tmp, F_OK));
	CHECK(!ior_pq_pairs_open(&pp, path, &info, err, sizeof err));
	CHECK(!ior_pq_pairs_add(pp, &p));
	CHECK(!ior_pq_pairs_close(pp, NULL, err, sizeof err));
	CHECK(!access(path, F_OK) && access(tmp, F_OK));
	unlink(path);
	CHECK(ior_pq_pairs_open(&pp, "/nonexistent/dir/x.parquet", &info, err, sizeof err) == -ENOENT);
	CHECK(strstr(err, "/nonexistent/dir/x.parquet.tmp: cannot create: "));
	rmdir(dir);
}

/* The sink adds a row per pair; after the first failure it adds none and
 * its tick says why. */
TEST(sink_rows_and_sticky_error)
{
	char *buf = NULL, err[256];
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	struct ior_pq_sink s = { 0 };
	struct ior_sink k = ior_pq_sink(&s);
	struct ior_event_pair p = pair("/x");

	CHECK(!ior_pq_pairs_new(&s.pp, f, &info));
	for (int i = 0; i < 4; i++)
		k.pair(k.ctx, &p);
	CHECK_EQ_INT(k.tick(k.ctx, 1), 0);
	CHECK_EQ_INT(ior_pq_pairs_rows(s.pp), 4);
	s.error = -ENOSPC; /* as a failed add leaves it */
	k.pair(k.ctx, &p);
	CHECK_EQ_INT(ior_pq_pairs_rows(s.pp), 4);
	CHECK_EQ_INT(k.tick(k.ctx, 2), -ENOSPC);
	CHECK(!ior_pq_pairs_close(s.pp, NULL, err, sizeof err));
	fclose(f);
	free(buf);
}

int main(void)
{
	RUN(sink_rows_and_sticky_error);
	RUN(frame_and_footer);
	RUN(row_groups_are_bounded);
	RUN(file_appears_only_when_complete);
	return t_done();
}
