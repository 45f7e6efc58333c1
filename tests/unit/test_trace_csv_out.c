/* The -plain sink: the header, rows flushed once a second (not per row),
 * summary rows counted on the notes stream instead of printed, and a
 * failed write stopping the trace with its errno. */
#include "trace/csv_out.h"
#include "trace/syscalls.h"
#include "t.h"

#include <errno.h>
#include <stdlib.h>

static struct ior_event_pair read_pair(void)
{
	return (struct ior_event_pair){
		.gap_ns = 5, .duration_ns = 7, .ret = 4, .bytes = 4, .flags = IOR_FLAGS_UNKNOWN,
		.pid = 10, .tid = 11, .fd = 3, .sys = (uint16_t)ior_syscall_index(ior_syscall_by_name("read")),
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

TEST(rows_reach_the_stream_at_the_second_tick_and_close)
{
	char *buf = NULL, *notes = NULL;
	size_t len = 0, nlen = 0;
	FILE *out = open_memstream(&buf, &len), *nf = open_memstream(&notes, &nlen);
	struct ior_csv_out *c = ior_csv_out_new(out, IOR_ESCAPE_AUTO, nf);
	struct ior_sink s = ior_csv_out_sink(c);
	struct ior_event_pair p = read_pair();

	for (int i = 0; i < 3; i++)
		s.pair(s.ctx, &p);
	CHECK_EQ_INT(s.tick(s.ctx, 1000), 0);
	fflush(out);
	CHECK_EQ_INT(lines(buf, len), 1); /* the header: the rows wait in the sink */
	CHECK_EQ_INT(s.tick(s.ctx, 1000 + 1000000000ull), 0);
	CHECK_EQ_INT(lines(buf, len), 4);
	const char *last = "5,7,cat,10.11,read,4,/a%(3)\n";
	CHECK(len >= strlen(last) && !strcmp(buf + len - strlen(last), last));
	s.pair(s.ctx, &p);
	CHECK_EQ_INT(ior_csv_out_close(c), 0);
	CHECK_EQ_INT(lines(buf, len), 5);
	fclose(nf);
	CHECK_EQ_INT(nlen, 0);
	fclose(out);
	free(buf);
	free(notes);
}

TEST(summary_rows_are_said_not_printed)
{
	char *buf = NULL, *notes = NULL;
	size_t len = 0, nlen = 0;
	FILE *out = open_memstream(&buf, &len), *nf = open_memstream(&notes, &nlen);
	struct ior_csv_out *c = ior_csv_out_new(out, IOR_ESCAPE_AUTO, nf);
	struct ior_sink s = ior_csv_out_sink(c);
	struct ior_event_pair p = read_pair();

	p.summary = 1;
	p.pairs = 1234;
	s.pair(s.ctx, &p);
	s.pair(s.ctx, &p);
	CHECK_EQ_INT(s.tick(s.ctx, 1), 0);
	fflush(nf);
	CHECK(notes && strstr(notes, "ior: 2468 pairs summarized, not printed"));
	CHECK_EQ_INT(ior_csv_out_close(c), 0);
	CHECK_EQ_INT(lines(buf, len), 1); /* the header only */
	fclose(nf);
	fclose(out);
	free(buf);
	free(notes);
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
	c = ior_csv_out_new(full, IOR_ESCAPE_AUTO, stderr);
	s = ior_csv_out_sink(c);
	s.pair(s.ctx, &p);
	CHECK_EQ_INT(s.tick(s.ctx, 2000000000ull), 0); /* the first tick starts the clock */
	CHECK_EQ_INT(s.tick(s.ctx, 4000000000ull), -ENOSPC);
	CHECK_EQ_INT(ior_csv_out_close(c), -ENOSPC);
	fclose(full);
}

int main(void)
{
	RUN(rows_reach_the_stream_at_the_second_tick_and_close);
	RUN(summary_rows_are_said_not_printed);
	RUN(a_failed_write_stops_with_its_errno);
	return t_done();
}
