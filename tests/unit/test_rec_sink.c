/* A recording as a sink: every pair written, frames on ticks, the first
 * error kept; it stops the trace unless keep_going; no writer, no write. */
#include "t.h"
#include "rec/sink.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#define SEC 1000000000ull

static struct ior_event_pair pair_at(uint64_t i)
{
	struct ior_event_pair p = { .enter_ns = SEC + i * 1000, .duration_ns = 500, .flags = IOR_FLAGS_UNKNOWN,
				    .pid = 7, .tid = 7, .fd = 3, .comm = "wl", .path = "/tmp/a-file-with-a-longer-name",
				    .path2 = "", .ret = 4096, .bytes = 4096 };
	p.sys = (uint16_t)ior_sys_find("read");
	return p;
}

static char path[256];

static struct ior_rec_writer *writer(void)
{
	struct ior_rec_writer *w = NULL;
	char err[256];

	snprintf(path, sizeof path, "%s/ior-rec-sink-%d.ior.zst", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (int)getpid());
	CHECK_EQ_INT(ior_rec_writer_open(&w, path, NULL, err, sizeof err), 0);
	return w;
}

static uint64_t pairs_in(const char *file)
{
	struct ior_rec_reader *r;
	struct ior_event_pair p;
	char err[256];
	uint64_t n = 0;

	if (ior_rec_reader_open(&r, file, err, sizeof err))
		return UINT64_MAX;
	while (ior_rec_read(r, &p) == 1)
		n++;
	ior_rec_reader_close(r);
	return n;
}

TEST(writes_every_pair)
{
	struct ior_rec_sink s = { .w = writer() };
	struct ior_sink k = ior_rec_sink(&s);
	char err[256];

	for (uint64_t i = 0; i < 300; i++) {
		struct ior_event_pair p = pair_at(i);
		k.pair(k.ctx, &p);
	}
	CHECK_EQ_INT(k.tick(k.ctx, 10 * SEC), 0);
	CHECK_EQ_INT(ior_rec_writer_close(s.w, NULL, err, sizeof err), 0);
	CHECK_EQ_INT(s.error, 0);
	CHECK_EQ_INT(pairs_in(path), 300);
	unlink(path);
}

TEST(no_writer_writes_nothing)
{
	struct ior_rec_sink s = { 0 };
	struct ior_sink k = ior_rec_sink(&s);
	struct ior_event_pair p = pair_at(0);

	k.pair(k.ctx, &p);
	CHECK_EQ_INT(k.tick(k.ctx, 10 * SEC), 0);
	CHECK_EQ_INT(s.error, 0);
}

/* A full file system (RLIMIT_FSIZE stands in for ENOSPC): the error is
 * kept, nothing more is written, and the tick says so unless keep_going. */
static void fill_until_error(bool keep_going)
{
	struct ior_rec_sink s = { .w = writer(), .keep_going = keep_going };
	struct ior_sink k = ior_rec_sink(&s);
	struct rlimit old, lim;
	char err[256];
	int tick = 0;

	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 4096;
	CHECK_EQ_INT(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (uint64_t i = 0; i < 200000 && !s.error; i++) {
		struct ior_event_pair p = pair_at(i);
		k.pair(k.ctx, &p);
		if (i % 1000 == 999)
			tick = k.tick(k.ctx, (i + 1) * SEC);
	}
	setrlimit(RLIMIT_FSIZE, &old);
	CHECK_EQ_INT(s.error, EFBIG);
	CHECK_EQ_INT(tick, keep_going ? 0 : -EFBIG);
	uint64_t written = ior_rec_writer_pairs(s.w);
	struct ior_event_pair p = pair_at(0);
	k.pair(k.ctx, &p);
	CHECK_EQ_INT(ior_rec_writer_pairs(s.w), written);
	CHECK(ior_rec_writer_close(s.w, NULL, err, sizeof err) < 0);
	unlink(path);
}

TEST(error_stops_the_trace)
{
	fill_until_error(false);
}

TEST(error_kept_when_keep_going)
{
	fill_until_error(true);
}

int main(void)
{
	RUN(writes_every_pair);
	RUN(no_writer_writes_nothing);
	RUN(error_stops_the_trace);
	RUN(error_kept_when_keep_going);
	return t_done();
}
