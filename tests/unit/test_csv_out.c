/* The -plain sink: the header, rows flushed once a second (not per row),
 * summary rows counted on the notes stream instead of printed, and a
 * failed write stopping the trace with its errno. */
#include "csv/out.h"
#include "syscalls/syscalls.h"
#include "t.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static struct ior_event_pair read_pair(void)
{
	return (struct ior_event_pair){
		.gap_ns = 5, .duration_ns = 7, .ret = 4, .bytes = 4, .flags = IOR_FLAGS_UNKNOWN,
		.pid = 10, .tid = 11, .fd = 3, .sys = (uint16_t)ior_sys_find("read"),
		.comm = "cat", .path = "/a", .path2 = "",
	};
}

static size_t lines(const char *s, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n';
	return k;
}

/* A sink writing to memory: the stream in buf, the notes in notes. */
struct fixture {
	char *buf, *notes;
	size_t len, nlen;
	FILE *out, *nf;
	struct ior_csv_out *c;
	struct ior_sink s;
};

static void fixture_open(struct fixture *f)
{
	memset(f, 0, sizeof *f);
	f->out = open_memstream(&f->buf, &f->len);
	f->nf = open_memstream(&f->notes, &f->nlen);
	f->c = ior_csv_out_new(f->out, IOR_ESCAPE_AUTO, f->nf, NULL);
	f->s = ior_csv_out_sink(f->c);
}

static void fixture_free(struct fixture *f)
{
	fclose(f->nf);
	fclose(f->out);
	free(f->buf);
	free(f->notes);
}

TEST(rows_reach_the_stream_at_the_second_tick_and_close)
{
	const char *last = "5,7,cat,10.11,read,4,/a%(3)\n";
	struct fixture f;
	struct ior_event_pair p = read_pair();

	fixture_open(&f);
	for (int i = 0; i < 3; i++)
		f.s.pair(f.s.ctx, &p);
	CHECK_EQ_INT(f.s.tick(f.s.ctx, 1000), 0);
	fflush(f.out);
	CHECK_EQ_INT(lines(f.buf, f.len), 1); /* the header: the rows wait in the sink */
	CHECK_EQ_INT(f.s.tick(f.s.ctx, 1000 + 1000000000ull), 0);
	CHECK_EQ_INT(lines(f.buf, f.len), 4);
	CHECK(f.len >= strlen(last) && !strcmp(f.buf + f.len - strlen(last), last));
	f.s.pair(f.s.ctx, &p);
	CHECK_EQ_INT(ior_csv_out_close(f.c), 0);
	CHECK_EQ_INT(lines(f.buf, f.len), 5);
	fflush(f.nf);
	CHECK_EQ_INT(f.nlen, 0);
	fixture_free(&f);
}

TEST(summary_rows_are_said_not_printed)
{
	struct fixture f;
	struct ior_event_pair p = read_pair();

	fixture_open(&f);
	p.summary = 1;
	p.pairs = 1234;
	f.s.pair(f.s.ctx, &p);
	f.s.pair(f.s.ctx, &p);
	CHECK_EQ_INT(f.s.tick(f.s.ctx, 1), 0);
	fflush(f.nf);
	CHECK(f.notes && strstr(f.notes, "ior: 2468 pairs summarized, not printed"));
	CHECK_EQ_INT(ior_csv_out_close(f.c), 0);
	CHECK_EQ_INT(lines(f.buf, f.len), 1); /* the header only */
	fixture_free(&f);
}

TEST(a_failed_write_stops_with_its_errno)
{
	FILE *full = fopen("/dev/full", "w");
	struct ior_csv_out *c;
	struct ior_sink s;
	struct ior_event_pair p = read_pair();

	CHECK(full != NULL);
	if (!full)
		return;
	setvbuf(full, NULL, _IONBF, 0);
	c = ior_csv_out_new(full, IOR_ESCAPE_AUTO, stderr, NULL);
	s = ior_csv_out_sink(c);
	s.pair(s.ctx, &p);
	CHECK_EQ_INT(s.tick(s.ctx, 2000000000ull), 0); /* the first tick starts the clock */
	CHECK_EQ_INT(s.tick(s.ctx, 4000000000ull), -ENOSPC);
	CHECK_EQ_INT(ior_csv_out_close(c), -ENOSPC);
	fclose(full);
}

/* -plainDevice (device,cache): the four columns after file, in the
 * header and rows. */
TEST(device_columns_follow_the_file)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct ior_csv_columns cols;
	CHECK_EQ_INT(ior_csv_columns_parse("device,cache", &cols, (char[64]){ 0 }, 64), 0);
	struct ior_csv_out *c = ior_csv_out_new(out, IOR_ESCAPE_AUTO, stderr, &cols);
	struct ior_sink s = ior_csv_out_sink(c);
	struct ior_event_pair p = read_pair();

	p.blk_requests = 2, p.blk_bytes = 8192, p.device_ns = 6, p.cache_pages = 3;
	s.pair(s.ctx, &p);
	p.path = "a,b"; /* a quoted file still ends before the columns */
	p.fd = -1;
	p.blk_requests = 0, p.blk_bytes = 0, p.device_ns = 0, p.cache_pages = 0;
	s.pair(s.ctx, &p);
	CHECK_EQ_INT(ior_csv_out_close(c), 0);
	fclose(out);
	CHECK_EQ_STR(buf, "durationToPrevNs,durationNs,comm,pid.tid,name,ret,file,deviceNs,requests,deviceBytes,cachePages\n"
			  "5,7,cat,10.11,read,4,/a%(3),6,2,8192,3\n"
			  "5,7,cat,10.11,read,4,\"a,b\",0,0,0,0\n");
	free(buf);
}

/* -plainColumns=where,cache: in the order asked; where empty for a
 * syscall, the op's place for io_uring's. */
TEST(where_column_in_the_order_asked)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct ior_csv_columns cols;
	CHECK_EQ_INT(ior_csv_columns_parse("cache,where", &cols, (char[64]){ 0 }, 64), 0);
	struct ior_csv_out *c = ior_csv_out_new(out, IOR_ESCAPE_AUTO, stderr, &cols);
	struct ior_sink s = ior_csv_out_sink(c);
	struct ior_event_pair p = read_pair();

	s.pair(s.ctx, &p);
	p.sys = (uint16_t)ior_sys_find("uring:read");
	p.where = 2, p.cache_pages = 1;
	s.pair(s.ctx, &p);
	p.where = 3, p.cache_pages = 0;
	s.pair(s.ctx, &p);
	p.where = 9; /* no kernel sends it: empty, never a guess */
	s.pair(s.ctx, &p);
	CHECK_EQ_INT(ior_csv_out_close(c), 0);
	fclose(out);
	CHECK_EQ_STR(buf, "durationToPrevNs,durationNs,comm,pid.tid,name,ret,file,cachePages,where\n"
			  "5,7,cat,10.11,read,4,/a%(3),0,\n"
			  "5,7,cat,10.11,uring:read,4,/a%(3),1,io-wq\n"
			  "5,7,cat,10.11,uring:read,4,/a%(3),0,poll\n"
			  "5,7,cat,10.11,uring:read,4,/a%(3),0,\n");
	free(buf);
}

/* The list: known names once each, "" none; an error names the culprit. */
TEST(columns_parse)
{
	struct ior_csv_columns c;
	char err[128];

	CHECK_EQ_INT(ior_csv_columns_parse("", &c, err, sizeof err), 0);
	CHECK_EQ_INT((int)c.n, 0);
	CHECK_EQ_INT(ior_csv_columns_parse(NULL, &c, err, sizeof err), 0);
	CHECK_EQ_INT((int)c.n, 0);
	CHECK_EQ_INT(ior_csv_columns_parse("where,device,cache", &c, err, sizeof err), 0);
	CHECK_EQ_INT((int)c.n, 3);
	CHECK(ior_csv_columns_has(&c, IOR_CSV_WHERE) && ior_csv_columns_has(&c, IOR_CSV_CACHE));
	CHECK_EQ_INT(ior_csv_columns_parse("where,", &c, err, sizeof err), 0);
	CHECK_EQ_INT((int)c.n, 1);
	CHECK_EQ_INT(ior_csv_columns_parse("where,wher", &c, err, sizeof err), -EINVAL);
	CHECK(strstr(err, "no column 'wher'") != NULL);
	CHECK_EQ_INT(ior_csv_columns_parse("cache,cache", &c, err, sizeof err), -EINVAL);
	CHECK(strstr(err, "a second column 'cache'") != NULL);
	CHECK_EQ_INT(ior_csv_columns_parse(",where", &c, err, sizeof err), -EINVAL);
	CHECK(strstr(err, "no column ''") != NULL);
	CHECK(!ior_csv_columns_has(NULL, IOR_CSV_WHERE));
}

int main(void)
{
	RUN(rows_reach_the_stream_at_the_second_tick_and_close);
	RUN(summary_rows_are_said_not_printed);
	RUN(a_failed_write_stops_with_its_errno);
	RUN(device_columns_follow_the_file);
	RUN(where_column_in_the_order_asked);
	RUN(columns_parse);
	return t_done();
}
