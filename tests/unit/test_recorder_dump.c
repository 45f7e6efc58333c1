/* The flight recorder end to end on synthetic pairs: the ring's bounds,
 * dumps that hold the window before and -after after and name their
 * trigger, cooldowns, -max-dumps, and a dump that cannot be written. */
#include "log/log.h"
#include "pair/clock.h"
#include "rec/rec.h"
#include "recorder/recorder.h"
#include "recorder/ring.h"
#include "syscalls/syscalls.h"
#include "t.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MS 1000000ull
#define S 1000000000ull

static char tmpdir[] = "/tmp/ior-test-recorder.XXXXXX";
static char said[4096];

static void keep_log(void *ctx, enum ior_log_level level, const char *msg)
{
	(void)ctx;
	(void)level;
	size_t n = strlen(said);
	snprintf(said + n, sizeof said - n, "%s\n", msg);
}

static uint16_t sys_of(const char *name)
{
	return (uint16_t)ior_syscall_index(ior_syscall_by_name(name));
}

static struct ior_event_pair pair(uint64_t enter, uint64_t dur, const char *sys, int64_t ret)
{
	return (struct ior_event_pair){ .enter_ns = enter, .duration_ns = dur, .ret = ret, .sys = sys_of(sys),
					.comm = "db", .path = "/data/f", .path2 = "", .pid = 7, .tid = 7, .fd = 3,
					.flags = IOR_FLAGS_UNKNOWN };
}

/* Files in dir ending in -trigger*.ior.zst; the last one's name in last. */
static int dumps_in(const char *dir, char *last, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (strstr(e->d_name, "-trigger") && strstr(e->d_name, IOR_RECORDING_SUFFIX) &&
		    !strstr(e->d_name, ".tmp")) {
			n++;
			snprintf(last, len, "%s/%s", dir, e->d_name);
		}
	if (d)
		closedir(d);
	return n;
}

static void empty_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[600];

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
			unlink(p);
		}
	if (d)
		closedir(d);
}

struct feed {
	struct ior_sink sink;
	uint64_t t;    /* the next pair's enter */
	uint64_t fed;
};

/* Reads every ms for ms milliseconds, a tick every 50 ms. */
static void run_for(struct feed *f, uint64_t ms)
{
	for (uint64_t i = 0; i < ms; i++) {
		struct ior_event_pair p = pair(f->t, 20000, "read", 1);
		f->sink.pair(f->sink.ctx, &p);
		f->fed++;
		f->t += MS;
		if (f->t / MS % 50 == 0)
			f->sink.tick(f->sink.ctx, f->t);
	}
}

static struct ior_recorder *recorder(const char *expr, uint64_t window, uint64_t after, unsigned max_dumps,
				     struct ior_trigger *trig, const char *dir)
{
	char err[256];
	struct ior_recorder_cfg c = { .window_ns = window, .max_bytes = IOR_RECORDER_MIN_BYTES, .after_ns = after,
				      .max_dumps = max_dumps, .triggers = trig, .ntriggers = expr ? 1 : 0,
				      .dir = dir, .host = "h", .name = "t" };
	struct ior_recorder *r;

	if (expr && ior_trigger_parse(trig, expr, err, sizeof err))
		T_FAIL("%s: %s", expr, err);
	if (ior_recorder_new(&r, &c, err, sizeof err))
		T_FAIL("ior_recorder_new: %s", err);
	return r;
}

TEST(dump_holds_before_and_after)
{
	struct ior_trigger trig;
	struct ior_recorder *r = recorder("read>300ms", 2 * S, 500 * MS, 0, &trig, tmpdir);
	struct feed f = { ior_recorder_sink(r), ior_mono_ns(), 0 };
	char path[600], err[256];

	run_for(&f, 5000);
	uint64_t fired_enter = f.t;
	struct ior_event_pair slow = pair(f.t, 400 * MS, "read", 1);
	f.sink.pair(f.sink.ctx, &slow);
	f.t += 400 * MS;
	run_for(&f, 1000);
	CHECK_EQ_INT(dumps_in(tmpdir, path, sizeof path), 1);
	CHECK(strstr(said, "wrote "));
	CHECK(strstr(said, "read>300ms: read of /data/f by db (pid 7, tid 7) took 400.0 ms"));

	struct ior_rec_reader *rd;
	struct ior_event_pair p;
	uint64_t first = UINT64_MAX, last = 0, n = 0;
	int rc;
	CHECK_EQ_INT(ior_rec_reader_open(&rd, path, err, sizeof err), 0);
	while ((rc = ior_rec_read(rd, &p)) == 1) {
		first = p.enter_ns < first ? p.enter_ns : first;
		last = p.enter_ns > last ? p.enter_ns : last;
		n++;
	}
	CHECK_EQ_INT(rc, 0);
	CHECK(!ior_rec_reader_truncated(rd, NULL, NULL));
	const struct ior_rec_trigger *t = ior_rec_reader_trigger(rd);
	CHECK(t != NULL);
	if (t) {
		CHECK_EQ_STR(t->expr, "read>300ms");
		CHECK_EQ_INT(t->kind, IOR_REC_TRIGGER_PAIR);
		CHECK_EQ_INT(t->pair.enter_ns, fired_enter);
		CHECK_EQ_INT(t->pair.duration_ns, 400 * MS);
		CHECK_EQ_STR(t->pair.path, "/data/f");
		CHECK_EQ_STR(ior_sys(t->pair.sys)->name, "read");
		CHECK_EQ_INT(t->fired_ns, fired_enter + 400 * MS);
	}
	/* the window before (2 s, within a frame of 125 ms), the -after after */
	uint64_t fired = fired_enter + 400 * MS;
	CHECK(first <= fired - 2 * S + 125 * MS);
	CHECK(first >= fired - 2 * S - 250 * MS);
	CHECK(last >= fired + 500 * MS);
	CHECK_EQ_INT(ior_rec_reader_totals(rd)->pairs, n);
	ior_rec_reader_close(rd);
	CHECK_EQ_INT(ior_recorder_close(r), 0);
	ior_recorder_free(r);
	empty_dir(tmpdir);
}

TEST(a_storm_makes_one_dump)
{
	struct ior_trigger trig;
	struct ior_recorder *r = recorder("fsync>3ms", 2 * S, 100 * MS, 0, &trig, tmpdir);
	struct feed f = { ior_recorder_sink(r), ior_mono_ns(), 0 };
	char path[600];

	run_for(&f, 500);
	for (int i = 0; i < 1000; i++) { /* 1000 slow fsyncs in 1.5 s, within the 2 s cooldown */
		struct ior_event_pair p = pair(f.t, 4 * MS, "fsync", 0);
		f.sink.pair(f.sink.ctx, &p);
		f.t += 3 * MS / 2; /* overlapping: as several threads would make them */
		if (i % 20 == 0)
			f.sink.tick(f.sink.ctx, f.t);
	}
	ior_recorder_close(r);
	CHECK_EQ_INT(dumps_in(tmpdir, path, sizeof path), 1);
	ior_recorder_free(r);
	empty_dir(tmpdir);

	/* no cooldown: -max-dumps 2 stops at two and says so once */
	said[0] = 0;
	r = recorder("fsync>3ms,cooldown=1ms", 2 * S, 100 * MS, 2, &trig, tmpdir);
	f = (struct feed){ ior_recorder_sink(r), ior_mono_ns(), 0 };
	for (int i = 0; i < 1000; i++) {
		struct ior_event_pair p = pair(f.t, 4 * MS, "fsync", 0);
		f.sink.pair(f.sink.ctx, &p);
		f.t += 10 * MS;
		f.sink.tick(f.sink.ctx, f.t);
	}
	ior_recorder_close(r);
	CHECK_EQ_INT(dumps_in(tmpdir, path, sizeof path), 2);
	CHECK(strstr(said, "-max-dumps 2 reached"));
	CHECK(!strstr(strstr(said, "-max-dumps 2 reached") + 1, "-max-dumps 2 reached"));
	CHECK_EQ_INT(ior_recorder_dump_now(r, "SIGUSR1"), -EDQUOT);
	ior_recorder_free(r);
	empty_dir(tmpdir);
}

TEST(size_bound_drops_the_oldest_and_says_once)
{
	struct ior_trigger trig;
	struct ior_recorder *r = recorder(NULL, 3600 * S, 0, 0, &trig, tmpdir);
	struct ior_sink sink = ior_recorder_sink(r);
	struct ior_recorder_state st;
	uint64_t t = ior_mono_ns();
	char comm[16];

	said[0] = 0;
	/* distinct paths compress badly: ~40 MB of pairs through a 4 MiB bound */
	for (uint64_t i = 0; i < 1000000; i++) {
		char path[64];
		snprintf(path, sizeof path, "/data/%016llx/%llu", (unsigned long long)(i * 0x9e3779b97f4a7c15ull),
			 (unsigned long long)i);
		snprintf(comm, sizeof comm, "c%llu", (unsigned long long)(i % 1000));
		struct ior_event_pair p = pair(t, 1000 + i % 977, "read", (int64_t)(i % 4096));
		p.path = path;
		p.comm = comm;
		p.tid = (uint32_t)(i % 5000);
		sink.pair(sink.ctx, &p);
		t += 1000;
		if (i % 1000 == 0)
			sink.tick(sink.ctx, t);
	}
	ior_recorder_state(r, &st);
	CHECK(st.bytes <= IOR_RECORDER_MIN_BYTES);
	CHECK(st.bytes > IOR_RECORDER_MIN_BYTES / 2);
	CHECK(st.dropped_pairs > 0);
	CHECK(st.covers_ns < 1000000 * 1000ull);
	CHECK(strstr(said, "hold the last"));
	CHECK(!strstr(strstr(said, "hold the last") + 1, "hold the last"));
	/* a dump now holds what the ring holds */
	CHECK_EQ_INT(ior_recorder_dump_now(r, "SIGUSR1"), 0);
	CHECK_EQ_INT(ior_recorder_dump_now(r, "SIGUSR1"), -EBUSY);
	CHECK_EQ_INT(ior_recorder_close(r), 0);
	char path[600], err[256];
	CHECK_EQ_INT(dumps_in(tmpdir, path, sizeof path), 1);
	struct ior_rec_reader *rd;
	struct ior_event_pair p;
	uint64_t n = 0;
	CHECK_EQ_INT(ior_rec_reader_open(&rd, path, err, sizeof err), 0);
	while (ior_rec_read(rd, &p) == 1)
		n++;
	CHECK(n > 0);
	ior_recorder_state(r, &st); /* the dump's cut may have dropped more */
	CHECK_EQ_INT(n, 1000000 - st.dropped_pairs); /* every pair the ring held, none twice */
	CHECK_EQ_INT(ior_rec_reader_trigger(rd)->kind, IOR_REC_TRIGGER_NONE);
	CHECK_EQ_STR(ior_rec_reader_trigger(rd)->expr, "SIGUSR1");
	ior_rec_reader_close(rd);
	ior_recorder_free(r);
	empty_dir(tmpdir);
}

TEST(a_failed_dump_is_said_and_the_recorder_goes_on)
{
	struct ior_trigger trig;
	char sub[300], path[600];

	snprintf(sub, sizeof sub, "%s/sub", tmpdir);
	mkdir(sub, 0700);
	struct ior_recorder *r = recorder("openat:errno=ENOENT", 2 * S, 100 * MS, 0, &trig, sub);
	struct feed f = { ior_recorder_sink(r), ior_mono_ns(), 0 };

	said[0] = 0;
	run_for(&f, 300);
	rmdir(sub); /* the directory is gone */
	struct ior_event_pair p = pair(f.t, 10000, "openat", -ENOENT);
	f.sink.pair(f.sink.ctx, &p);
	run_for(&f, 300);
	CHECK(strstr(said, "dump for openat:errno=ENOENT not written"));
	CHECK(strstr(said, "the recorder goes on"));
	CHECK(!strchr(strchr(said, '\n') + 1, '\n')); /* one line */
	mkdir(sub, 0700);
	CHECK_EQ_INT(ior_recorder_dump_now(r, "key"), 0);
	run_for(&f, 500);
	CHECK_EQ_INT(dumps_in(sub, path, sizeof path), 1);
	struct ior_recorder_state st;
	ior_recorder_state(r, &st);
	CHECK_EQ_INT(st.dumps, 1);
	CHECK_EQ_INT(st.failed, 1);
	ior_recorder_free(r);
	empty_dir(sub);
	rmdir(sub);
}

TEST(ring_keeps_the_window)
{
	struct ior_frame_ring ring;
	unsigned char data[100] = { 0 };

	CHECK_EQ_INT(ior_frame_ring_init(&ring, 1 << 20, 10 * S), 0);
	for (uint64_t i = 0; i < 200; i++) /* a frame a second */
		CHECK_EQ_INT(ior_frame_ring_push(&ring, data, sizeof data, i * S, i * S + S - 1, 5, NULL), 0);
	/* newest starts at 199 s: the frames from 189 s cover the 10 s */
	CHECK_EQ_INT(ring.n, 11);
	CHECK_EQ_INT(ior_frame_ring_oldest(&ring)->first_ns, 189 * S);
	CHECK_EQ_INT(ior_frame_ring_covers(&ring), 11 * S - 1);
	ior_frame_ring_trim(&ring, 1000 * S); /* the newest always stays */
	CHECK_EQ_INT(ring.n, 1);
	ior_frame_ring_free(&ring);
}

/* Frames of odd sizes through a small ring, wrapping many times: every
 * frame held is intact, oldest to newest in order, within the buffer. */
TEST(ring_wraps_within_its_buffer)
{
	struct ior_frame_ring ring;
	unsigned char data[5000];
	uint64_t next_dropped = 0, held_first = 0;

	CHECK_EQ_INT(ior_frame_ring_init(&ring, 20000, 3600 * S), 0);
	for (uint64_t i = 0; i < 5000; i++) {
		size_t len = 1 + (size_t)(i * 7919 % 4999);
		memset(data, (int)(i & 0xff), len);
		int rc = ior_frame_ring_push(&ring, data, len, i * S, i * S + 1, i, NULL);
		CHECK(rc == 0 || rc == 1);
		CHECK(ring.bytes <= ring.cap);
		CHECK(ring.tail <= ring.cap);
		uint64_t k = 0, prev = 0, sum = 0;
		for (const struct ior_ring_frame *f = ior_frame_ring_oldest(&ring); f; f = ior_frame_ring_next(&ring, f)) {
			CHECK((const unsigned char *)f >= ring.buf && f->data + f->len <= ring.buf + ring.cap);
			CHECK(k == 0 || f->first_ns == prev + S); /* consecutive, none lost in the middle */
			CHECK_EQ_INT(f->len, 1 + (size_t)(f->pairs * 7919 % 4999));
			CHECK(f->data[0] == (unsigned char)(f->pairs & 0xff) && f->data[f->len - 1] == f->data[0]);
			prev = f->first_ns;
			sum += ior_frame_ring_cost(f->len);
			k++;
		}
		CHECK_EQ_INT(k, ring.n);
		CHECK_EQ_INT(sum, ring.bytes);
		CHECK_EQ_INT(ior_frame_ring_newest(&ring)->pairs, i);
		held_first = ior_frame_ring_oldest(&ring)->pairs;
		next_dropped = ring.dropped_frames;
		CHECK_EQ_INT(next_dropped, held_first); /* every frame before the oldest went for room */
	}
	unsigned char big[20000] = { 0 };
	CHECK_EQ_INT(ior_frame_ring_push(&ring, big, sizeof big, 1, 2, 1, NULL), -E2BIG);
	ior_frame_ring_free(&ring);
}

/* RssAnon of this process, in bytes; 0 when unknown. */
static uint64_t rss_anon(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long kb = 0;

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "RssAnon: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb * 1024;
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#else
#define UNDER_ASAN 0
#endif

/* Page rounding of the recorder's few allocations (each of its buffers is
 * one mapping or block) and the allocator's headers; the stack a dump
 * uses (its names, the header's command line: ~70 KiB) comes on top. */
#define ALLOC_SLACK (160u << 10)

/* In a child, so that no memory an earlier test freed is reused unseen:
 * the process's anonymous memory grows by at most -recorder-size while
 * pairs that compress badly go through the recorder flat out and slowly,
 * with dumps; exits 0, or 1 with what it saw on stderr. */
static int bounded_child(uint64_t max_bytes)
{
	struct ior_trigger trig;
	struct ior_recorder_cfg c = { .window_ns = 3600 * S, .max_bytes = max_bytes, .after_ns = 50 * MS,
				      .triggers = &trig, .dir = tmpdir, .host = "h", .name = "rss" };
	char err[256], path[4200], comm[16];
	struct ior_recorder *r;
	uint64_t t = ior_mono_ns(), before = rss_anon(), peak = before;

	if (ior_recorder_new(&r, &c, err, sizeof err))
		return fprintf(stderr, "ior_recorder_new: %s\n", err), 1;
	struct ior_sink sink = ior_recorder_sink(r);
	for (uint64_t i = 0; i < 1500000; i++) {
		size_t n = 8 + (size_t)(i * 2654435761u % 300);
		for (size_t k = 0; k < n; k++)
			path[k] = (char)('a' + (i * 31 + k * 7) % 26);
		path[n] = 0;
		snprintf(comm, sizeof comm, "c%llu", (unsigned long long)(i % 5000));
		struct ior_event_pair p = pair(t, 1000 + i % 977, "read", (int64_t)(i % 4096));
		p.path = path;
		p.comm = comm;
		p.tid = (uint32_t)(i % 6000);
		sink.pair(sink.ctx, &p);
		t += i < 1000000 ? 1000 : 100000; /* flat out, then slowly */
		if (i % 500 == 0)
			sink.tick(sink.ctx, t);
		if (i % 250000 == 0)
			ior_recorder_dump_now(r, "SIGUSR1");
		if (i % 10000 == 0) {
			uint64_t now = rss_anon();
			peak = now > peak ? now : peak;
		}
	}
	ior_recorder_close(r);
	uint64_t now = rss_anon();
	peak = now > peak ? now : peak;
	struct ior_recorder_state st;
	ior_recorder_state(r, &st);
	ior_recorder_free(r);
	if (st.dumps < 2 || st.dropped_pairs == 0 || st.bytes > max_bytes)
		return fprintf(stderr, "%u dumps, %llu dropped, %llu bytes\n", st.dumps,
			       (unsigned long long)st.dropped_pairs, (unsigned long long)st.bytes), 1;
	if (peak - before > max_bytes + ALLOC_SLACK)
		return fprintf(stderr, "RssAnon grew %llu KiB, more than -recorder-size %llu KiB + %u KiB\n",
			       (unsigned long long)(peak - before) >> 10, (unsigned long long)max_bytes >> 10,
			       ALLOC_SLACK >> 10), 1;
	fprintf(stderr, "      RssAnon grew %llu KiB for -recorder-size %llu KiB\n",
		(unsigned long long)(peak - before) >> 10, (unsigned long long)max_bytes >> 10);
	return 0;
}

/* The memory the kernel counts (not the recorder's own accounting) stays
 * under -recorder-size, at the smallest size and a larger one. Under
 * ASan the process's memory is the sanitizer's: the plain and musl runs
 * check it. */
TEST(memory_bound_holds)
{
	if (UNDER_ASAN || !rss_anon())
		return;
	for (uint64_t mib = 4; mib <= 12; mib += 8) {
		fflush(NULL);
		pid_t pid = fork();
		if (pid == 0)
			_exit(bounded_child(mib << 20));
		int status = 0;
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		empty_dir(tmpdir);
	}
}

struct frames_seen {
	uint64_t frames, pairs;
	size_t max_len;
};

static int count_frame(void *ctx, const void *data, size_t len, uint64_t first_ns, uint64_t last_ns, uint64_t pairs)
{
	struct frames_seen *f = ctx;

	(void)data;
	(void)first_ns;
	(void)last_ns;
	f->frames++;
	f->pairs += pairs;
	f->max_len = len > f->max_len ? len : f->max_len;
	return 0;
}

/* The encoder's memory is what it took when it opened, whatever it is
 * given: long distinct paths and comms from thousands of threads at
 * full rate (fast level) and slowly (full level), and a dump's header
 * and trailer between its frames. */
TEST(frames_writer_never_grows)
{
	struct ior_rec_writer *w;
	struct frames_seen seen = { 0 };
	char path[4200], comm[16];
	const void *data;
	size_t len;

	CHECK_EQ_INT(ior_rec_writer_open_frames(&w, count_frame, &seen, S), 0);
	size_t mem = ior_rec_writer_memory(w);
	CHECK(mem < (3u << 20)); /* leaves a 4 MiB recorder room for frames */
	uint64_t t = S;
	for (uint64_t i = 0; i < 300000; i++) {
		size_t n = 1 + (size_t)(i * 2654435761u % 4100);
		for (size_t k = 0; k < n; k++)
			path[k] = (char)('a' + (i + k * 7) % 26);
		path[n] = 0;
		snprintf(comm, sizeof comm, "c%llu", (unsigned long long)i);
		struct ior_event_pair p = pair(t, 1000, "read", 1);
		p.path = i % 3 ? path : "/f";
		p.comm = comm;
		p.tid = (uint32_t)(i * 7919);
		CHECK_EQ_INT(ior_rec_write(w, &p), 0);
		t += i < 150000 ? 100 : 10 * MS;
		if (i % 1000 == 0)
			CHECK_EQ_INT(ior_rec_tick(w, t), 0);
		if (i % 50000 == 0) {
			CHECK_EQ_INT(ior_rec_write(w, &p), 0); /* a frame being filled */
			CHECK_EQ_INT(ior_rec_writer_header(w, NULL, &data, &len), -EBUSY);
			CHECK_EQ_INT(ior_rec_writer_cut(w), 0);
			CHECK_EQ_INT(ior_rec_writer_header(w, NULL, &data, &len), 0);
			CHECK_EQ_INT(ior_rec_writer_trailer(w, NULL, NULL, &data, &len), 0);
		}
		CHECK_EQ_INT(ior_rec_writer_memory(w), mem);
	}
	CHECK_EQ_INT(ior_rec_writer_cut(w), 0);
	CHECK_EQ_INT(seen.pairs, 300000 + 6);
	CHECK(seen.frames > 300);
	CHECK(ior_frame_ring_cost(seen.max_len) < (1u << 20)); /* MIN_RING in recorder.c */
	ior_rec_writer_free(w);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	ior_log_set(keep_log, NULL, NULL);
	RUN(dump_holds_before_and_after);
	RUN(a_storm_makes_one_dump);
	RUN(size_bound_drops_the_oldest_and_says_once);
	RUN(a_failed_dump_is_said_and_the_recorder_goes_on);
	RUN(ring_keeps_the_window);
	RUN(ring_wraps_within_its_buffer);
	RUN(frames_writer_never_grows);
	RUN(memory_bound_holds);
	rmdir(tmpdir);
	return t_done();
}
