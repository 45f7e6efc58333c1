/* Recording writer/reader: round trips, truncation at every byte, corrupt
 * and hostile input, and the size of a tight read loop. */
#include "t.h"
#include "rec/rec.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zstd.h>

static char tmpdir[] = "/tmp/ior-test-rec-XXXXXX";

static uint64_t rng_state;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static char *tmp_path(const char *name)
{
	static char buf[256];
	snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
	return buf;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc(n ? (size_t)n : 1);
	*len = fread(b, 1, (size_t)n, f);
	fclose(f);
	return b;
}

/* A pair plus storage for its strings. */
struct spair {
	struct ior_event_pair p;
	char comm[16], path[5000], path2[300];
};

static const char *odd_strings[] = {
	"/etc/hosts", "/var/lib/data/file.bin", "relative/file", "", "a;b\nc",
	"\xff\xfe invalid utf8", "</text><script>alert(1)</script>", "pipe:[1234]",
	"/tmp/with \"quotes\" & amp", "\t\x01\x7f", "/",
};

static void random_string(char *dst, size_t cap, int long_ok)
{
	uint64_t k = rnd() % 16;
	if (k < 11) {
		snprintf(dst, cap, "%s", odd_strings[k]);
		return;
	}
	size_t n = long_ok && k == 15 ? 4090 + rnd() % 10 : rnd() % (cap > 300 ? 300 : cap - 1);
	if (n >= cap)
		n = cap - 1;
	for (size_t i = 0; i < n; i++)
		dst[i] = (char)(1 + rnd() % 255);
	dst[n] = 0;
}

/* A summary row keeps comm, path, pid, tid, fd, sys and enter_ns. */
static void make_summary(struct ior_event_pair *p)
{
	p->summary = 1;
	p->has_timeout = 0;
	p->timeout_ns = 0;
	p->where = 0;
	p->blk_requests = p->blk_dev = 0;
	p->blk_bytes = p->device_ns = p->cache_pages = 0;
	p->pairs = rnd() % 4 == 0 ? 0 : rnd() % 100000;
	uint64_t span = rnd() % 1000000000;
	p->end_ns = p->enter_ns > UINT64_MAX - span ? UINT64_MAX : p->enter_ns + span;
	p->bytes = rnd() % 2 ? rnd() >> 8 : 0;
	p->duration_ns = rnd() >> 4;
	p->gap_ns = rnd() >> 4;
	p->ret = 0;
	p->flags = IOR_FLAGS_UNKNOWN;
	p->path2 = "";
}

static void gen_stream(struct spair *v, size_t n, unsigned ntids)
{
	uint64_t clock = 1000000 + rnd() % 1000;
	uint64_t last_exit[64] = { 0 };
	for (size_t i = 0; i < n; i++) {
		struct spair *s = &v[i];
		memset(&s->p, 0, sizeof s->p);
		unsigned t = (unsigned)(rnd() % ntids);
		bool repeat = i > 0 && rnd() % 4 != 0;
		if (repeat) {
			*s = v[i - 1];
		} else {
			random_string(s->comm, sizeof s->comm, 0);
			random_string(s->path, sizeof s->path, 1);
			random_string(s->path2, sizeof s->path2, 0);
			s->p.sys = (uint16_t)(rnd() % ior_nsyscalls);
			s->p.ret = (int64_t)(rnd() % 3 == 0 ? -(int64_t)(rnd() % 140) : (int64_t)(rnd() % 100000));
			s->p.fd = rnd() % 8 == 0 ? -1 : (int32_t)(rnd() % 1000);
			s->p.flags = rnd() % 3 == 0 ? IOR_FLAGS_UNKNOWN : (int64_t)(rnd() % 0x100000);
			uint64_t b = rnd() % 4;
			s->p.bytes = b == 0 ? 0 : b == 1 && s->p.ret > 0 ? (uint64_t)s->p.ret : rnd();
			s->p.pid = (uint32_t)(rnd() % 5 == 0 ? rnd() : 1000 + t);
		}
		s->p.tid = rnd() % 50 == 0 ? (uint32_t)rnd() : 1000 + t;
		clock += rnd() % 5000;
		s->p.enter_ns = rnd() % 100 == 0 ? rnd() : clock;
		s->p.duration_ns = rnd() % 100 == 0 ? rnd() : rnd() % 100000;
		uint64_t slot = s->p.tid % 64;
		s->p.gap_ns = rnd() % 10 == 0 ? rnd() : s->p.enter_ns - last_exit[slot];
		last_exit[slot] = s->p.enter_ns + s->p.duration_ns;
		s->p.comm = s->comm;
		s->p.path = s->path;
		s->p.path2 = s->path2;
		s->p.summary = 0;
		s->p.has_timeout = rnd() % 8 == 0;
		s->p.timeout_ns = s->p.has_timeout ? (rnd() % 3 == 0 ? -1 : (int64_t)(rnd() >> 2)) : 0;
		s->p.where = rnd() % 3 == 0 ? (uint8_t)(rnd() % 4) : 0;
		if (rnd() % 4 == 0) { /* block requests inside it (version 6) */
			s->p.blk_requests = 1 + (uint32_t)(rnd() % 1000);
			s->p.blk_bytes = rnd() >> (rnd() % 64);
			s->p.device_ns = rnd() % 2 ? rnd() >> 8 : 0;
			s->p.blk_dev = (uint32_t)rnd();
		}
		s->p.cache_pages = rnd() % 4 == 0 ? rnd() >> (rnd() % 64) : 0;
		if (rnd() % 10 == 0)
			make_summary(&s->p);
	}
}

static bool same_pair(const struct ior_event_pair *a, const struct ior_event_pair *b)
{
	size_t n = strlen(b->path) > 4096 ? 4096 : strlen(b->path) + 1;
	return a->enter_ns == b->enter_ns && a->duration_ns == b->duration_ns &&
	       a->gap_ns == b->gap_ns && a->ret == b->ret && a->bytes == b->bytes &&
	       a->flags == b->flags && a->pid == b->pid && a->tid == b->tid && a->fd == b->fd &&
	       a->sys == b->sys && !strcmp(a->comm, b->comm) && !strncmp(a->path, b->path, n) &&
	       !strcmp(a->path2, b->path2) && a->summary == b->summary &&
	       a->has_timeout == b->has_timeout && a->timeout_ns == b->timeout_ns && a->where == b->where &&
	       a->blk_requests == b->blk_requests && a->blk_bytes == b->blk_bytes &&
	       a->device_ns == b->device_ns && a->blk_dev == b->blk_dev && a->cache_pages == b->cache_pages &&
	       (!a->summary || (a->pairs == b->pairs && a->end_ns == b->end_ns));
}

static const struct ior_rec_info test_info = {
	.host = "testhost", .kernel = "6.18.0-test", .cmdline = "-flamegraph -name t",
	.start_realtime_ns = 1764672000000000000ull, .start_monotonic_ns = 1000000,
};

/* Writes v, ticking every `every` pairs; returns frame ends and pair counts. */
static int write_stream(const char *path, const struct spair *v, size_t n, size_t every,
			uint64_t *frame_end, uint64_t *frame_pairs, size_t *nframes)
{
	struct ior_rec_writer *w;
	char err[256];
	int rc = ior_rec_writer_open(&w, path, &test_info, err, sizeof err);
	if (rc) {
		printf("open: %s\n", err);
		return rc;
	}
	size_t nf = 0;
	uint64_t now = 1ull << 40;
	if (frame_end) {
		frame_end[nf] = ior_rec_writer_bytes(w);
		frame_pairs[nf++] = 0;
	}
	for (size_t i = 0; i < n; i++) {
		if ((rc = ior_rec_write(w, &v[i].p)))
			return rc;
		if (every && (i + 1) % every == 0) {
			now += 2000000000ull;
			if ((rc = ior_rec_tick(w, now)))
				return rc;
			if (frame_end) {
				frame_end[nf] = ior_rec_writer_bytes(w);
				frame_pairs[nf++] = i + 1;
			}
		}
	}
	struct ior_trace_totals t = { n, n + 7, 3, 2, 1, 4, 5 };
	rc = ior_rec_writer_close(w, &t, err, sizeof err);
	if (rc)
		printf("close: %s\n", err);
	if (nframes)
		*nframes = nf;
	return rc;
}

TEST(round_trip_random_streams)
{
	enum { N = 3000 };
	struct spair *v = malloc(N * sizeof *v);
	for (uint64_t seed = 1; seed <= 40; seed++) {
		rng_state = seed * 0x9E3779B97F4A7C15ull;
		size_t n = 1 + rnd() % N;
		unsigned ntids = 1 + (unsigned)(rnd() % 60);
		gen_stream(v, n, ntids);
		const char *path = tmp_path("rt.ior.zst");
		CHECK_EQ_INT(write_stream(path, v, n, 1 + rnd() % 500, NULL, NULL, NULL), 0);
		struct ior_rec_reader *r;
		char err[256];
		CHECK_EQ_INT(ior_rec_reader_open(&r, path, err, sizeof err), 0);
		if (!r)
			break;
		const struct ior_rec_info *info = ior_rec_reader_info(r);
		CHECK_EQ_STR(info->host, "testhost");
		CHECK_EQ_STR(info->kernel, "6.18.0-test");
		CHECK_EQ_STR(info->cmdline, "-flamegraph -name t");
		CHECK_EQ_INT(info->version, IOR_RECORDING_VERSION);
		CHECK(info->start_realtime_ns == test_info.start_realtime_ns);
		CHECK(info->start_monotonic_ns == test_info.start_monotonic_ns);
		struct ior_event_pair p;
		memset(&p, 0xa5, sizeof p); /* a caller's stale pair: the reader sets every field */
		size_t i = 0;
		int rc;
		while ((rc = ior_rec_read(r, &p)) == 1) {
			if (p.comm_id || p.path_id) {
				T_FAIL("seed %llu: pair %zu has comm_id %llu, path_id %llu: no live fd names it",
				       (unsigned long long)seed, i, (unsigned long long)p.comm_id,
				       (unsigned long long)p.path_id);
				break;
			}
			if (i >= n || !same_pair(&p, &v[i].p)) {
				T_FAIL("seed %llu: pair %zu differs", (unsigned long long)seed, i);
				break;
			}
			i++;
		}
		CHECK_EQ_INT(rc, 0);
		CHECK_EQ_INT(i, n);
		CHECK(!ior_rec_reader_truncated(r, NULL, NULL));
		const struct ior_trace_totals *t = ior_rec_reader_totals(r);
		CHECK(t && t->pairs == n && t->pairs_seen == n + 7 && t->lost == 3 &&
		      t->unpaired_exits == 2 && t->overwritten_enters == 1 && t->in_flight == 4 &&
		      t->summarized == 5);
		ior_rec_reader_close(r);
		if (t_cur_failed)
			break;
	}
	free(v);
}

/* The writer measures strings a word at a time and reuses a thread's
 * previous string when the bytes match: strings at every alignment that
 * differ from the previous one only in their last byte, or are a prefix
 * or an extension of it, must read back exactly (cut to 4096 bytes). */
TEST(strings_at_every_alignment_and_length)
{
	static const size_t lens[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31,
				       4095, 4096, 4097, 4103 };
	enum { NL = sizeof lens / sizeof lens[0], N = 8 * NL * 3 };
	static char buf[N][4200 + 8];
	struct ior_event_pair *v = calloc(N, sizeof *v);
	size_t n = 0;

	for (size_t a = 0; a < 8; a++)
		for (size_t l = 0; l < NL; l++)
			for (int variant = 0; variant < 3; variant++, n++) {
				char *s = buf[n] + a;
				size_t len = lens[l] + (variant == 2); /* an extension of the previous */
				memset(s, 'p', len);
				if (variant == 1 && len) /* the previous but its last byte */
					s[len - 1] = 'q';
				s[len] = 0;
				v[n] = (struct ior_event_pair){ .enter_ns = 1000 * n, .pid = 1, .tid = 1,
								.fd = 3, .flags = IOR_FLAGS_UNKNOWN,
								.comm = s + (len > 15 ? len - 15 : 0),
								.path = s, .path2 = len & 1 ? s : "" };
			}
	struct ior_rec_writer *w;
	char err[256];
	const char *path = tmp_path("align.ior.zst");
	CHECK_EQ_INT(ior_rec_writer_open(&w, path, &test_info, err, sizeof err), 0);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_INT(ior_rec_write(w, &v[i]), 0);
	CHECK_EQ_INT(ior_rec_writer_close(w, NULL, err, sizeof err), 0);
	struct ior_rec_reader *r;
	CHECK_EQ_INT(ior_rec_reader_open(&r, path, err, sizeof err), 0);
	struct ior_event_pair p;
	size_t i = 0;
	while (r && ior_rec_read(r, &p) == 1 && i < n) {
		size_t want = strlen(v[i].path) < 4096 ? strlen(v[i].path) : 4096;
		if (strlen(p.path) != want || strncmp(p.path, v[i].path, want) ||
		    strcmp(p.comm, v[i].comm) || strlen(p.path2) != (v[i].path2[0] ? want : 0)) {
			T_FAIL("pair %zu: path of %zu bytes read back as %zu", i, want, strlen(p.path));
			break;
		}
		i++;
	}
	CHECK_EQ_INT(i, n);
	if (r)
		ior_rec_reader_close(r);
	free(v);
}

TEST(zstd_tool_accepts_the_file)
{
	struct spair v[100];
	rng_state = 99;
	gen_stream(v, 100, 3);
	const char *path = tmp_path("tool.ior.zst");
	CHECK_EQ_INT(write_stream(path, v, 100, 30, NULL, NULL, NULL), 0);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "zstd -q -t %s 2>/dev/null", path);
	int rc = system(cmd);
	if (rc == 127 * 256)
		T_FAIL("zstd not installed (scripts/deps.sh test installs it)");
	else
		CHECK_EQ_INT(rc, 0);
}

/* Reads everything; returns pairs read, rc in *rc. */
static size_t read_all_mem(const uint8_t *b, size_t len, const struct spair *v, size_t n,
			   int *open_rc, int *rc, bool *mismatch, struct ior_rec_reader **keep)
{
	struct ior_rec_reader *r;
	char err[256];
	*mismatch = false;
	*open_rc = ior_rec_reader_open_mem(&r, b, len, err, sizeof err);
	*rc = 0;
	if (*open_rc)
		return 0;
	struct ior_event_pair p;
	size_t i = 0;
	while ((*rc = ior_rec_read(r, &p)) == 1) {
		if (i >= n || !same_pair(&p, &v[i].p))
			*mismatch = true;
		i++;
	}
	if (keep)
		*keep = r;
	else
		ior_rec_reader_close(r);
	return i;
}

TEST(truncated_at_every_byte)
{
	enum { N = 60 };
	struct spair v[N];
	uint64_t fend[N + 2], fpairs[N + 2];
	size_t nf;
	rng_state = 7;
	gen_stream(v, N, 4);
	const char *path = tmp_path("trunc.ior.zst");
	CHECK_EQ_INT(write_stream(path, v, N, 7, fend, fpairs, &nf), 0);
	size_t len;
	uint8_t *all = slurp(path, &len);
	for (size_t cut = 0; cut <= len && !t_cur_failed; cut++) {
		uint8_t *b = malloc(cut ? cut : 1);
		memcpy(b, all, cut);
		int orc, rc;
		bool mismatch;
		struct ior_rec_reader *r = NULL;
		size_t got = read_all_mem(b, cut, v, N, &orc, &rc, &mismatch, &r);
		if (cut < fend[0]) {
			CHECK(orc < 0);
		} else {
			size_t want = 0;
			uint64_t want_end = 0;
			for (size_t f = 0; f < nf; f++)
				if (fend[f] <= cut) {
					want = fpairs[f];
					want_end = fend[f];
				}
			uint64_t tp, tend;
			bool trunc = ior_rec_reader_truncated(r, &tp, &tend);
			CHECK_EQ_INT(orc, 0);
			CHECK_EQ_INT(rc, 0);
			CHECK(!mismatch);
			if (cut == len) {
				CHECK_EQ_INT(got, N);
				CHECK(!trunc);
			} else {
				CHECK(trunc);
				CHECK_EQ_INT(got, want);
				CHECK_EQ_INT(tp, want);
				CHECK_EQ_INT(tend, want_end);
			}
			if (t_cur_failed)
				printf("      at cut %zu of %zu\n", cut, len);
		}
		ior_rec_reader_close(r);
		free(b);
	}
	free(all);
}

TEST(zero_filled_tail_reads_as_truncated)
{
	struct spair v[20];
	rng_state = 5;
	gen_stream(v, 20, 2);
	uint64_t fend[4], fpairs[4];
	size_t nf;
	const char *path = tmp_path("zero.ior.zst");
	CHECK_EQ_INT(write_stream(path, v, 20, 10, fend, fpairs, &nf), 0);
	size_t len;
	uint8_t *all = slurp(path, &len);
	uint8_t *b = calloc(1, fend[1] + 4096);
	memcpy(b, all, fend[1]);
	int orc, rc;
	bool mismatch;
	struct ior_rec_reader *r = NULL;
	size_t got = read_all_mem(b, fend[1] + 4096, v, 20, &orc, &rc, &mismatch, &r);
	CHECK_EQ_INT(orc, 0);
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(got, 10);
	CHECK(r && ior_rec_reader_truncated(r, NULL, NULL));
	ior_rec_reader_close(r);
	free(b);
	free(all);
}

/* Bytes after the trailer: every pair reads, and the reader counts them. */
TEST(trailing_bytes_are_counted)
{
	struct spair v[20];
	rng_state = 6;
	gen_stream(v, 20, 2);
	uint64_t fend[4], fpairs[4];
	size_t nf, len;
	const char *path = tmp_path("tail.ior.zst");
	CHECK_EQ_INT(write_stream(path, v, 20, 10, fend, fpairs, &nf), 0);
	uint8_t *all = slurp(path, &len);
	uint8_t *b = malloc(len + 5);
	memcpy(b, all, len);
	memcpy(b + len, "junk!", 5);
	for (size_t extra = 0; extra <= 5; extra += 5) {
		int orc, rc;
		bool mismatch;
		struct ior_rec_reader *r = NULL;
		size_t got = read_all_mem(b, len + extra, v, 20, &orc, &rc, &mismatch, &r);
		CHECK_EQ_INT(orc, 0);
		CHECK_EQ_INT(rc, 0);
		CHECK_EQ_INT(got, 20);
		CHECK(!mismatch);
		CHECK(r && !ior_rec_reader_truncated(r, NULL, NULL));
		CHECK_EQ_INT(r ? ior_rec_reader_trailing(r) : 99, extra);
		ior_rec_reader_close(r);
	}
	free(b);
	free(all);
}

TEST(corrupt_bytes_never_yield_wrong_pairs)
{
	enum { N = 40 };
	struct spair v[N];
	rng_state = 11;
	gen_stream(v, N, 3);
	const char *path = tmp_path("corrupt.ior.zst");
	uint64_t fend[N + 2], fpairs[N + 2];
	size_t nf;
	CHECK_EQ_INT(write_stream(path, v, N, 13, fend, fpairs, &nf), 0);
	size_t len;
	uint8_t *all = slurp(path, &len);
	int errors = 0;
	for (size_t at = 0; at < len; at++) {
		uint8_t *b = malloc(len);
		memcpy(b, all, len);
		b[at] ^= (uint8_t)(1 + at % 255);
		int orc, rc;
		bool mismatch;
		read_all_mem(b, len, v, N, &orc, &rc, &mismatch, NULL);
		if (mismatch)
			T_FAIL("flipping byte %zu delivered a wrong pair", at);
		errors += orc < 0 || rc < 0;
		free(b);
	}
	/* Nearly every flip is caught by zstd's checksum or the decoder. */
	CHECK(errors > (int)len * 9 / 10);
	free(all);
}

/* Raw record streams for hostile-input tests. */
static size_t raw_header(uint8_t *b, unsigned version, unsigned nsys)
{
	size_t n = 0;
	memcpy(b, "IORREC\r\n", 8);
	n = 8;
	b[n++] = (uint8_t)version;
	b[n++] = 1, b[n++] = 'h';
	b[n++] = 1, b[n++] = 'k';
	b[n++] = 0;
	b[n++] = 5, b[n++] = 6;
	/* names, not this arch's table: the bytes are the same on every arch */
	static const char *const names[] = { "read", "write", "open", "close" };
	b[n++] = (uint8_t)nsys;
	for (unsigned i = 0; i < nsys; i++) {
		const char *s = names[i % 4];
		b[n++] = (uint8_t)strlen(s);
		memcpy(b + n, s, strlen(s));
		n += strlen(s);
	}
	return n;
}

/* Compresses raw as one frame and reads it to the end; returns rc of the
 * last read (or open). last (may be NULL): the last pair's syscall name;
 * unknown (may be NULL): ior_rec_reader_unknown's names. */
static int read_raw_names(const uint8_t *raw, size_t n, char *err, size_t errlen, char *last, char *unknown)
{
	uint8_t z[4096];
	size_t zn = ZSTD_compress(z, sizeof z, raw, n, 3);
	if (ZSTD_isError(zn))
		return 1000;
	struct ior_rec_reader *r;
	int rc = ior_rec_reader_open_mem(&r, z, zn, err, errlen);
	if (rc)
		return rc;
	struct ior_event_pair p;
	while ((rc = ior_rec_read(r, &p)) == 1)
		if (last)
			snprintf(last, 300, "%s/%s", ior_sys(p.sys)->name, ior_family_name(ior_sys(p.sys)->family));
	snprintf(err, errlen, "%s", ior_rec_reader_error(r));
	if (unknown) {
		const char *names;
		unsigned k = ior_rec_reader_unknown(r, &names);
		snprintf(unknown, 300, "%u:%s", k, names);
	}
	ior_rec_reader_close(r);
	return rc;
}

static int read_raw(const uint8_t *raw, size_t n, char *err, size_t errlen)
{
	return read_raw_names(raw, n, err, errlen, NULL, NULL);
}

/* The first pair of a raw stream; 1 read, else the reader's rc. */
static int read_raw_first(const uint8_t *raw, size_t n, struct ior_event_pair *p)
{
	uint8_t z[4096];
	char err[256];
	size_t zn = ZSTD_compress(z, sizeof z, raw, n, 3);
	if (ZSTD_isError(zn))
		return 1000;
	struct ior_rec_reader *r;
	int rc = ior_rec_reader_open_mem(&r, z, zn, err, sizeof err);
	if (rc)
		return rc;
	rc = ior_rec_read(r, p);
	ior_rec_reader_close(r);
	return rc;
}

/* Versions 5 and 6 read back what they carry: 5 a MORE byte with where
 * only, 6 where, the device fields and cache pages in one MORE byte. */
TEST(more_byte_versions_5_and_6)
{
	uint8_t raw[512];
	struct ior_event_pair p;
	size_t n = raw_header(raw, 5, 3);
	/* pair: MORE where=3 (poll), tid 5, gap 1, dur 2 */
	memcpy(raw + n, "\xc1\x03\x05\x01\x02", 5);
	CHECK_EQ_INT(read_raw_first(raw, n + 5, &p), 1);
	CHECK_EQ_STR(ior_pair_where_name(p.where), "poll");
	CHECK_EQ_INT(p.tid, 5);
	CHECK_EQ_INT(p.duration_ns, 2);
	CHECK_EQ_INT(p.blk_requests, 0);
	CHECK_EQ_INT(p.cache_pages, 0);
	n = raw_header(raw, 6, 3);
	/* pair: EXT 0, MORE where=2 (io-wq) + device + cache; tid 5; requests 2,
	 * bytes 8192, device 300 ns, dev 7:9; pages 3; gap 1, dur 400 */
	memcpy(raw + n, "\xd1\x00\x0e\x05\x02\x80\x40\xac\x02\x89\x80\xc0\x03\x03\x01\x90\x03", 17);
	CHECK_EQ_INT(read_raw_first(raw, n + 17, &p), 1);
	CHECK_EQ_STR(ior_pair_where_name(p.where), "io-wq");
	CHECK_EQ_INT(p.blk_requests, 2);
	CHECK_EQ_INT(p.blk_bytes, 8192);
	CHECK_EQ_INT(p.device_ns, 300);
	CHECK_EQ_INT(p.blk_dev, 7u << 20 | 9);
	CHECK_EQ_INT(p.cache_pages, 3);
	CHECK_EQ_INT(p.gap_ns, 1);
	CHECK_EQ_INT(p.duration_ns, 400);
}

/* A name no ior table knows (a newer kernel's) reads as that name, family
 * Misc, and the reader lists it once; x86_64's open reads on any arch. */
TEST(unknown_syscall_reads_under_its_name)
{
	uint8_t raw[512];
	char err[256], last[300] = "", unknown[300] = "";
	size_t n;

	n = raw_header(raw, 1, 2); /* ends with count 2, "read", "write" */
	raw[n - 12] = 3;
	memcpy(raw + n, "\x05" "bogus", 6);
	n += 6;
	/* two pairs of tid 5 on syscall 2, then the end */
	memcpy(raw + n, "\x83\x05\x02\x00\x00\x83\x05\x02\x00\x00\x02\x02\x02\x00\x00\x00\x00", 17);
	CHECK_EQ_INT(read_raw_names(raw, n + 17, err, sizeof err, last, unknown), 0);
	CHECK_EQ_STR(last, "bogus/Misc");
	CHECK_EQ_STR(unknown, "1:bogus");
	/* unused: not listed */
	memcpy(raw + n, "\x83\x05\x01\x00\x00\x02\x01\x01\x00\x00\x00\x00", 12);
	CHECK_EQ_INT(read_raw_names(raw, n + 12, err, sizeof err, last, unknown), 0);
	CHECK_EQ_STR(last, "write/FS");
	CHECK_EQ_STR(unknown, "0:");

	/* its name holds a terminal escape: it reads escaped */
	n = raw_header(raw, 1, 2);
	raw[n - 12] = 3;
	memcpy(raw + n, "\x05" "\x1b]0;x", 6);
	n += 6;
	memcpy(raw + n, "\x83\x05\x02\x00\x00", 5);
	CHECK_EQ_INT(read_raw_names(raw, n + 5, err, sizeof err, last, unknown), 0);
	CHECK_EQ_STR(last, "\\x1b]0;x/Misc");
	CHECK_EQ_STR(unknown, "1:\\x1b]0;x");

	/* another arch's name: its own family, not unknown */
	n = raw_header(raw, 1, 3); /* "read", "write", "open" */
	memcpy(raw + n, "\x83\x05\x02\x00\x00", 5);
	CHECK_EQ_INT(read_raw_names(raw, n + 5, err, sizeof err, last, unknown), 0);
	CHECK_EQ_STR(last, "open/FS");
	CHECK_EQ_STR(unknown, "0:");

	/* an empty name is no name */
	n = raw_header(raw, 1, 2);
	raw[n - 12] = 3;
	raw[n++] = 0;
	CHECK(read_raw(raw, n, err, sizeof err) < 0);
	CHECK(strstr(err, "corrupt header: syscall name 2"));
}

TEST(hostile_input_is_an_error)
{
	uint8_t raw[512];
	char err[256];
	size_t n;

	n = raw_header(raw, 7, 3); /* the first version this ior does not know */
	CHECK(read_raw(raw, n, err, sizeof err) < 0);
	CHECK(strstr(err, "version 7"));
	CHECK(strstr(err, "versions 1 to 6"));

	/* a trigger: version 4 only (expr "x", fired 9, kind NONE), then END */
	static const uint8_t trig[] = { 0x05, 1, 'x', 9, 0, 0x02, 0, 0, 0, 0, 0, 0, 0 };
	n = raw_header(raw, 4, 3);
	memcpy(raw + n, trig, sizeof trig);
	CHECK_EQ_INT(read_raw(raw, n + sizeof trig, err, sizeof err), 0);
	n = raw_header(raw, 3, 3);
	memcpy(raw + n, trig, sizeof trig);
	CHECK(read_raw(raw, n + sizeof trig, err, sizeof err) < 0);
	n = raw_header(raw, 4, 3);
	memcpy(raw + n, trig, sizeof trig);
	raw[n + 4] = 3; /* no such kind */
	CHECK(read_raw(raw, n + sizeof trig, err, sizeof err) < 0);
	n = raw_header(raw, 4, 3);
	memcpy(raw + n, trig, sizeof trig);
	raw[n + 4] = 1; /* a pair's kind, without its pair */
	CHECK(read_raw(raw, n + sizeof trig, err, sizeof err) < 0);
	/* version 6: the MORE byte's device (0x04: requests 2, bytes 3, time 4,
	 * dev 7) and cache (0x08: pages 9) bits, block requests and device
	 * names; every field checked */
	static const struct {
		int version;
		const char *rec;
		size_t len;
		int ok;
	} v6[] = {
		{ 6, "\xd1\x00\x04\x05\x02\x03\x04\x07\x00\x00", 10, 1 },
		{ 5, "\xd1\x00\x04\x05\x02\x03\x04\x07\x00\x00", 10, 0 }, /* device bit before 6 */
		{ 6, "\xd1\x00\x10\x05\x02\x03\x04\x07\x00\x00", 10, 0 }, /* a bit 6 does not define */
		{ 6, "\xd1\x00\x40\x05\x02\x03\x04\x07\x00\x00", 10, 0 }, /* another */
		{ 6, "\xd1\x00\x84\x05\x02\x03\x04\x07\x00\x00", 10, 0 }, /* MORE_NEXT: reserved */
		{ 6, "\xc1\x04\x05\x02\x03\x04\x07\x00\x00", 9, 1 },      /* MORE without EXT */
		{ 6, "\xc1\x06\x05\x02\x03\x04\x07\x00\x00", 9, 1 },      /* and where io-wq */
		{ 6, "\xc1\x02\x05\x00\x00", 5, 1 },                      /* where alone */
		{ 6, "\xd1\x00\x0c\x05\x02\x03\x04\x07\x09\x00\x00", 11, 1 }, /* and cache pages 9 */
		{ 6, "\xc1\x08\x05\x09\x00\x00", 6, 1 },                  /* cache pages alone */
		{ 5, "\xc1\x08\x05\x09\x00\x00", 6, 0 },                  /* cache bit before 6 */
		{ 6, "\xd1\x00\x04\x05\x02\x03", 6, 0 },                  /* cut */
		{ 6, "\xd1\x00\x04\x05\x02\x03\x04\x07\x00", 9, 0 },      /* cut before the duration */
		{ 6, "\xc1\x04\x05\xff\xff\xff\xff\x7f\x03\x04\x07\x00\x00", 13, 0 }, /* requests > 32 bits */
		/* tid 5 pid 5 comm 0 done 100 start 10 issue 5 insert 0 dev 7 sector 8
		 * bytes 4096 error 0 op read flags 0 sys 1 path 0 */
		{ 6, "\x06\x05\x05\x00\x64\x0a\x05\x00\x07\x08\x80\x20\x00\x00\x00\x02\x00", 17, 1 },
		{ 5, "\x06\x05\x05\x00\x64\x0a\x05\x00\x07\x08\x80\x20\x00\x00\x00\x02\x00", 17, 0 },
		{ 4, "\x06\x05\x05\x00\x64\x0a\x05\x00\x07\x08\x80\x20\x00\x00\x00\x02\x00", 17, 0 },
		{ 6, "\x06\x05\x05\x00\x64\x0a\x05\x00\x07\x08\x80\x20\x00\x09\x00\x02\x00", 17, 0 }, /* op */
		{ 6, "\x06\x05\x05\x00\x64\x0a\x05\x00\x07\x08\x80\x20\x02\x00\x00\x02\x00", 17, 0 }, /* error > 0 */
		{ 6, "\x06\x05\x05\x00\x64\x70\x05\x00\x07\x08\x80\x20\x00\x00\x00\x02\x00", 17, 0 }, /* start > done */
		{ 6, "\x06\x05\x05\x00\x64\x0a\x05\x00\x07\x08\x80\x20\x00\x00\x00\xfe\x7f\x00", 18, 0 }, /* sys */
		{ 6, "\x06\x05\x05\x00\x64\x0a\x05\x00\x07\x08\x80\x20\x00\x00\x00\x01\x00", 17, 1 }, /* sys -1 */
		{ 6, "\x06\x05\x05\x00\x64\x0a\x05\x00\x07\x08\x80\x20\x00\x00\x00\x02", 16, 0 }, /* cut */
		{ 6, "\x07\x07\x00", 3, 1 },
		{ 6, "\x07\x07\x05", 3, 0 }, /* string id */
		{ 5, "\x07\x07\x00", 3, 0 },
	};
	for (size_t i = 0; i < sizeof v6 / sizeof v6[0]; i++) {
		n = raw_header(raw, v6[i].version, 3);
		memcpy(raw + n, v6[i].rec, v6[i].len);
		int rc = read_raw(raw, n + v6[i].len, err, sizeof err);
		if (v6[i].ok)
			CHECK_EQ_INT(rc, 0);
		else
			CHECK(rc < 0);
		if (t_cur_failed) {
			printf("      version 6 case %zu: %s\n", i, err);
			break;
		}
	}
	/* where an io_uring op ran: version 5 on (pair: MORE where=2, tid 5, gap 0, dur 0) */
	n = raw_header(raw, 5, 3);
	memcpy(raw + n, "\xc1\x02\x05\x00\x00", 5);
	CHECK_EQ_INT(read_raw(raw, n + 5, err, sizeof err), 0);
	n = raw_header(raw, 4, 3);
	memcpy(raw + n, "\xc1\x02\x05\x00\x00", 5);
	CHECK(read_raw(raw, n + 5, err, sizeof err) < 0);
	n = raw_header(raw, 5, 3);
	memcpy(raw + n, "\xc1\x84\x05\x00\x00", 5); /* MORE bits it does not define */
	CHECK(read_raw(raw, n + 5, err, sizeof err) < 0);
	n = raw_header(raw, 5, 3);
	memcpy(raw + n, "\xc1", 1); /* cut before the MORE byte */
	CHECK(read_raw(raw, n + 1, err, sizeof err) < 0);

	/* a wait's timeout: version 3 only (pair: tid 5, timeout 50, gap 0, dur 0) */
	n = raw_header(raw, 3, 3);
	memcpy(raw + n, "\xa1\x05\x64\x00\x00", 5);
	CHECK_EQ_INT(read_raw(raw, n + 5, err, sizeof err), 0);
	n = raw_header(raw, 2, 3);
	memcpy(raw + n, "\xa1\x05\x64\x00\x00", 5);
	CHECK(read_raw(raw, n + 5, err, sizeof err) < 0);
	n = raw_header(raw, 3, 3);
	memcpy(raw + n, "\xa1\x05\x64\x00", 4); /* cut */
	CHECK(read_raw(raw, n + 4, err, sizeof err) < 0);
	n = raw_header(raw, 3, 3);
	memcpy(raw + n, "\xc1\x05\x00\x00", 4); /* 0x40 still reserved */
	CHECK(read_raw(raw, n + 4, err, sizeof err) < 0);
	n = raw_header(raw, 0, 3);
	CHECK(read_raw(raw, n, err, sizeof err) < 0);

	/* summary rows: version 2 only, every field checked */
	static const struct {
		int version;
		const char *rec;
		size_t len;
		int ok;
	} sums[] = {
		/* tid 5 pid 5 sys 1 fd 3 comm 0 path 0 t 9 span 1 pairs 2 bytes 0 dur 4 gap 0 */
		{ 2, "\x04\x05\x05\x01\x06\x00\x00\x09\x01\x02\x00\x04\x00", 13, 1 },
		{ 1, "\x04\x05\x05\x01\x06\x00\x00\x09\x01\x02\x00\x04\x00", 13, 0 },
		{ 2, "\x04\x05\x05\x09\x06\x00\x00\x09\x01\x02\x00\x04\x00", 13, 0 }, /* sys */
		{ 2, "\x04\x05\x05\x01\x06\x07\x00\x09\x01\x02\x00\x04\x00", 13, 0 }, /* comm id */
		{ 2, "\x04\x05\x05\x01\xff\xff\xff\xff\x3f\x00\x00\x09\x01\x02\x00\x04\x00", 17, 0 }, /* fd */
		{ 2, "\x04\x05\x05\x01\x06\x00\x00\x09\x01\x02\x00\x04", 12, 0 }, /* cut */
	};
	for (size_t i = 0; i < sizeof sums / sizeof sums[0]; i++) {
		n = raw_header(raw, sums[i].version, 3);
		memcpy(raw + n, sums[i].rec, sums[i].len);
		int rc = read_raw(raw, n + sums[i].len, err, sizeof err);
		if (sums[i].ok)
			CHECK_EQ_INT(rc, 0);
		else
			CHECK(rc < 0);
		if (t_cur_failed)
			printf("      summary case %zu: %s\n", i, err);
	}

	n = raw_header(raw, 1, 3);
	raw[0] = 'X';
	CHECK(read_raw(raw, n, err, sizeof err) < 0);
	CHECK(strstr(err, "not an ior recording"));

	/* huge string length */
	n = raw_header(raw, 1, 3);
	memcpy(raw + n, "\x01\xff\xff\xff\xff\x0f", 6);
	CHECK(read_raw(raw, n + 6, err, sizeof err) < 0);
	CHECK(strstr(err, "corrupt"));

	/* string id out of range */
	n = raw_header(raw, 1, 3);
	memcpy(raw + n, "\x91\x08\x01\x05\x00\x00", 6); /* pair: tid 5, ext path=5 */
	CHECK(read_raw(raw, n + 6, err, sizeof err) < 0);

	/* syscall index beyond the table */
	n = raw_header(raw, 1, 3);
	memcpy(raw + n, "\x83\x05\x09\x00\x00", 5);
	CHECK(read_raw(raw, n + 5, err, sizeof err) < 0);

	/* a valid pair, then a partial record at the frame's end */
	n = raw_header(raw, 1, 3);
	memcpy(raw + n, "\x83\x05\x01\x00\x00\x83", 6);
	CHECK(read_raw(raw, n + 6, err, sizeof err) < 0);

	/* reserved bits */
	n = raw_header(raw, 1, 3);
	memcpy(raw + n, "\xa0\x00\x00", 3);
	CHECK(read_raw(raw, n + 3, err, sizeof err) < 0);

	/* unknown op */
	n = raw_header(raw, 1, 3);
	raw[n] = 0x42;
	CHECK(read_raw(raw, n + 1, err, sizeof err) < 0);

	/* NUL inside a string */
	n = raw_header(raw, 1, 3);
	memcpy(raw + n, "\x01\x02" "a\0", 4);
	CHECK(read_raw(raw, n + 4, err, sizeof err) < 0);

	/* well-formed: one pair then a clean end */
	n = raw_header(raw, 1, 3);
	memcpy(raw + n, "\x83\x05\x01\x00\x00\x02\x01\x01\x00\x00\x00\x00", 12);
	CHECK_EQ_INT(read_raw(raw, n + 12, err, sizeof err), 0);

	struct ior_rec_reader *r;
	CHECK(ior_rec_reader_open_mem(&r, "", 0, err, sizeof err) < 0);
	CHECK(ior_rec_reader_open_mem(&r, "hello world, not zstd", 21, err, sizeof err) < 0);
	CHECK(ior_rec_reader_open(&r, tmp_path("missing"), err, sizeof err) == -ENOENT);
	CHECK(strstr(err, "missing") && strstr(err, "No such file"));
}

/* What a define hook was given: value i is the i-th string defined. */
struct defined {
	char *s[4096];
	uint32_t n;
	int bad_len;
};

static int keep_defined(void *ctx, const char *s, size_t n, uint32_t *value)
{
	struct defined *d = ctx;
	if (d->n == sizeof d->s / sizeof d->s[0])
		return -ENOSPC;
	d->bad_len |= strlen(s) != n;
	d->s[d->n] = strdup(s);
	*value = d->n++;
	return 0;
}

static void forget_defined(struct defined *d)
{
	for (uint32_t i = 0; i < d->n; i++)
		free(d->s[i]);
	d->n = 0;
}

/* With a define hook the reader keeps no strings: each id's value names
 * the string the file gave it, from the first pair or after some were
 * read (the strings held so far are handed over first). */
TEST(define_hook_gets_every_string)
{
	enum { N = 600 };
	struct spair *v = malloc(N * sizeof *v);
	static struct defined d;
	rng_state = 99;
	gen_stream(v, N, 7);
	const char *path = tmp_path("define.ior.zst");
	CHECK_EQ_INT(write_stream(path, v, N, 50, NULL, NULL, NULL), 0);
	for (size_t start = 0; start < 3; start++) {
		struct ior_rec_reader *r;
		char err[256];
		struct ior_event_pair p;
		struct ior_rec_ids ids;
		size_t i = 0;
		int rc;
		CHECK_EQ_INT(ior_rec_reader_open(&r, path, err, sizeof err), 0);
		for (; i < start && ior_rec_read(r, &p) == 1; i++)
			;
		CHECK_EQ_INT(ior_rec_reader_map_strings(r, keep_defined, &d), 0);
		CHECK_EQ_INT(ior_rec_reader_map_strings(r, keep_defined, &d), 0);
		CHECK_EQ_INT(ior_rec_reader_map_strings(r, keep_defined, NULL), -EINVAL);
		while ((rc = ior_rec_read_ids(r, &p, &ids)) == 1 && i < N) {
			const struct ior_event_pair *w = &v[i].p;
			size_t plen = strlen(w->path) > 4096 ? 4096 : strlen(w->path) + 1;
			if (p.comm || p.path || p.path2 || ids.comm >= d.n || ids.path >= d.n ||
			    ids.path2 >= d.n || strcmp(d.s[ids.comm], w->comm) ||
			    strncmp(d.s[ids.path], w->path, plen) || strcmp(d.s[ids.path2], w->path2) ||
			    p.enter_ns != w->enter_ns || p.tid != w->tid) {
				T_FAIL("start %zu: pair %zu differs", start, i);
				break;
			}
			i++;
		}
		CHECK_EQ_INT(rc, 0);
		CHECK_EQ_INT(i, N);
		CHECK(!d.bad_len);
		CHECK(!ior_rec_reader_string(r, 0));
		ior_rec_reader_close(r);
		forget_defined(&d);
	}
	free(v);
}

/* A reset starts the ids anew: the hook hears "" and each string again. */
TEST(define_hook_follows_resets)
{
	static struct defined d;
	uint8_t raw[512], z[1024];
	char err[256];
	size_t n = raw_header(raw, 2, 3);
	/* "cat", "/a"; pair tid 5 read comm 1 path 2; reset; "/b"; pair path 1 */
	static const uint8_t recs[] = {
		0x01, 3, 'c', 'a', 't', 0x01, 2, '/', 'a',
		0x93, 0x0a, 5, 1, 1, 2, 0, 0,
		0x03, 0x01, 2, '/', 'b',
		0x93, 0x08, 5, 1, 1, 0, 0,
		0x02, 1, 1, 0, 0, 0, 0, 0,
	};
	memcpy(raw + n, recs, sizeof recs);
	size_t zn = ZSTD_compress(z, sizeof z, raw, n + sizeof recs, 3);
	struct ior_rec_reader *r;
	struct ior_event_pair p;
	struct ior_rec_ids ids;
	CHECK(!ZSTD_isError(zn));
	CHECK_EQ_INT(ior_rec_reader_open_mem(&r, z, zn, err, sizeof err), 0);
	if (!r)
		return;
	CHECK_EQ_INT(ior_rec_reader_map_strings(r, keep_defined, &d), 0);
	CHECK_EQ_INT(ior_rec_read_ids(r, &p, &ids), 1);
	uint32_t gen = ids.gen;
	CHECK(ids.comm < d.n && ids.path < d.n && !strcmp(d.s[ids.comm], "cat") && !strcmp(d.s[ids.path], "/a"));
	CHECK_EQ_INT(ior_rec_read_ids(r, &p, &ids), 1);
	CHECK(ids.gen != gen);
	CHECK(ids.comm < d.n && ids.path < d.n && !strcmp(d.s[ids.comm], "") && !strcmp(d.s[ids.path], "/b"));
	CHECK_EQ_INT(ior_rec_read_ids(r, &p, &ids), 0);
	CHECK_EQ_INT(d.n, 5); /* "", "cat", "/a", then "", "/b" after the reset */
	CHECK_EQ_INT(ior_rec_reader_nstrings(r), 2);
	ior_rec_reader_close(r);
	forget_defined(&d);
}

TEST(read_loop_costs_at_most_6_bytes_per_pair)
{
	enum { N = 200000 };
	const char *path = tmp_path("loop.ior.zst");
	struct ior_rec_writer *w;
	char err[256];
	CHECK_EQ_INT(ior_rec_writer_open(&w, path, &test_info, err, sizeof err), 0);
	rng_state = 42;
	struct ior_event_pair p = {
		.pid = 4242, .tid = 4243, .fd = 3, .sys = 0, .ret = 65536, .bytes = 65536,
		.flags = 0x80000, .comm = "dd", .path = "/var/lib/data/big.bin", .path2 = "",
	};
	uint64_t t = 5000000000ull, now = 0;
	for (int i = 0; i < N; i++) {
		p.gap_ns = i ? 300 + rnd() % 128 : 0;
		p.enter_ns = t + p.gap_ns;
		p.duration_ns = 2000 + rnd() % 512;
		t = p.enter_ns + p.duration_ns;
		CHECK_EQ_INT(ior_rec_write(w, &p), 0);
		if (i % 20000 == 0)
			ior_rec_tick(w, now += 1000000001ull);
	}
	CHECK_EQ_INT(ior_rec_writer_close(w, NULL, err, sizeof err), 0);
	struct stat st;
	CHECK_EQ_INT(stat(path, &st), 0);
	double per = (double)st.st_size / N;
	printf("      read loop: %.2f bytes/pair (%lld bytes for %d pairs)\n", per,
	       (long long)st.st_size, N);
	CHECK(per <= 6.0);
}

/* Frames that fill 1 MiB within their second take zstd's fast mode, the
 * next tick's frame too, then level 3 again: every pair reads back, and
 * the read loop stays within 6 bytes a pair. */
TEST(fast_frames_round_trip)
{
	enum { N = 700000 };
	const char *path = tmp_path("fast.ior.zst");
	struct ior_rec_writer *w;
	char err[256];
	struct ior_event_pair p = {
		.pid = 4242, .tid = 4243, .fd = 3, .sys = 0, .ret = 4096, .bytes = 4096,
		.flags = 0x80000, .comm = "iorbench", .path = "/dev/shm/iorbench-1-0.data", .path2 = "",
	};
	uint64_t t = 5000000000ull, now = 0, gaps = 0;

	CHECK_EQ_INT(ior_rec_writer_open(&w, path, &test_info, err, sizeof err), 0);
	rng_state = 7;
	for (int i = 0; i < N; i++) {
		p.gap_ns = i ? 500 + rnd() % 128 : 0;
		p.enter_ns = t + p.gap_ns;
		p.duration_ns = 500 + rnd() % 64;
		t = p.enter_ns + p.duration_ns;
		gaps += p.gap_ns;
		CHECK_EQ_INT(ior_rec_write(w, &p), 0);
		if (i % 300000 == 299999 || (i > 600000 && i % 1000 == 0)) /* then slow */
			ior_rec_tick(w, now += 1000000001ull);
	}
	CHECK_EQ_INT(ior_rec_writer_close(w, NULL, err, sizeof err), 0);
	struct ior_rec_reader *r;
	CHECK_EQ_INT(ior_rec_reader_open(&r, path, err, sizeof err), 0);
	struct ior_event_pair q;
	uint64_t n = 0, got = 0, last = 0;
	int rc;
	while (r && (rc = ior_rec_read(r, &q)) == 1) {
		n++;
		got += q.gap_ns;
		last = q.enter_ns + q.duration_ns;
		if (strcmp(q.path, p.path) || q.bytes != 4096)
			break;
	}
	CHECK_EQ_INT(n, N);
	CHECK(got == gaps && last == t);
	if (r)
		ior_rec_reader_close(r);
	struct stat st;
	CHECK_EQ_INT(stat(path, &st), 0);
	printf("      fast frames: %.2f bytes/pair\n", (double)st.st_size / N);
	CHECK((double)st.st_size / N <= 6.0);
}

TEST(header_defaults)
{
	struct ior_rec_writer *w;
	char err[256];
	const char *path = tmp_path("defaults.ior.zst");
	struct timespec before;
	clock_gettime(CLOCK_REALTIME, &before);
	CHECK_EQ_INT(ior_rec_writer_open(&w, path, NULL, err, sizeof err), 0);
	CHECK_EQ_INT(ior_rec_writer_close(w, NULL, err, sizeof err), 0);
	struct ior_rec_reader *r;
	CHECK_EQ_INT(ior_rec_reader_open(&r, path, err, sizeof err), 0);
	if (!r)
		return;
	const struct ior_rec_info *info = ior_rec_reader_info(r);
	struct utsname u;
	CHECK_EQ_INT(uname(&u), 0);
	CHECK_EQ_STR(info->host, u.nodename);
	CHECK_EQ_STR(info->kernel, u.release);
	CHECK(strstr(info->cmdline, "test_rec_codec"));
	CHECK(info->start_realtime_ns / 1000000000u >= (uint64_t)before.tv_sec);
	CHECK(info->start_monotonic_ns > 0);
	struct ior_event_pair p;
	CHECK_EQ_INT(ior_rec_read(r, &p), 0);
	CHECK(!ior_rec_reader_truncated(r, NULL, NULL));
	CHECK(ior_rec_reader_totals(r) && ior_rec_reader_totals(r)->pairs == 0);
	ior_rec_reader_close(r);
}

TEST(default_name)
{
	char buf[256];
	time_t t = 1764672000; /* 2025-12-02 10:40:00 UTC */
	setenv("TZ", "UTC", 1);
	tzset();
	CHECK_EQ_INT(ior_rec_default_name(buf, sizeof buf, "web1", "nightly", t), 0);
	CHECK_EQ_STR(buf, "web1-nightly-2025-12-02_10:40:00.ior.zst");
	CHECK_EQ_INT(ior_rec_default_name(buf, sizeof buf, "a/b", "x\ny", t), 0);
	CHECK_EQ_STR(buf, "a_b-x_y-2025-12-02_10:40:00.ior.zst");
	CHECK_EQ_INT(ior_rec_default_name(buf, 20, "web1", "nightly", t), -ENAMETOOLONG);
}

/* A header that cannot be written (RLIMIT_FSIZE of 1 byte stands in for
 * a full disk) fails the open, names the file, and leaves neither the
 * recording nor its PATH.tmp. */
TEST(write_errors_are_sticky)
{
	const char *path = tmp_path("nohead.ior.zst");
	char tmp[PATH_MAX], err[256] = "";
	struct ior_rec_writer *w;
	struct rlimit old, lim;
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 1;
	setrlimit(RLIMIT_FSIZE, &lim);
	int rc = ior_rec_writer_open(&w, path, &test_info, err, sizeof err);
	setrlimit(RLIMIT_FSIZE, &old);
	CHECK_EQ_INT(rc, -EFBIG);
	CHECK(strstr(err, path) && strstr(err, strerror(EFBIG)));
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	CHECK(access(path, F_OK) && access(tmp, F_OK));
}

/* A FIFO (or device) at the path is refused, never replaced by the
 * rename: a FIFO of the test's own stands in for /dev/full. */
TEST(fifo_path_refused)
{
	const char *path = tmp_path("fifo.ior.zst");
	struct ior_rec_writer *w;
	char err[256] = "";
	struct stat st;
	unlink(path);
	if (mkfifo(path, 0600)) {
		T_FAIL("mkfifo %s: %s", path, strerror(errno));
		return;
	}
	CHECK_EQ_INT(ior_rec_writer_open(&w, path, &test_info, err, sizeof err), -EEXIST);
	CHECK(strstr(err, "not a regular file") != NULL);
	CHECK(!lstat(path, &st) && S_ISFIFO(st.st_mode));
	unlink(path);
}

/* A disk that fills up mid-recording (RLIMIT_FSIZE stands in for ENOSPC):
 * the error sticks, and the file reads back up to its last whole frame. */
TEST(full_disk_mid_recording)
{
	enum { N = 400 };
	static struct spair v[N];
	rng_state = 123;
	gen_stream(v, N, 3);
	const char *path = tmp_path("full.ior.zst");
	struct ior_rec_writer *w;
	char err[256];
	struct rlimit old, lim;
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	CHECK_EQ_INT(ior_rec_writer_open(&w, path, &test_info, err, sizeof err), 0);
	lim = old;
	lim.rlim_cur = 6000;
	CHECK_EQ_INT(setrlimit(RLIMIT_FSIZE, &lim), 0);
	uint64_t now = 1ull << 40;
	int rc = 0;
	size_t i, flushed = 0;
	for (i = 0; i < N && !rc; i++) {
		rc = ior_rec_write(w, &v[i].p);
		if (!rc && i % 10 == 9) {
			rc = ior_rec_tick(w, now += 2000000000ull);
			if (!rc)
				flushed = i + 1;
		}
	}
	CHECK_EQ_INT(rc, -EFBIG);
	CHECK_EQ_INT(ior_rec_write(w, &v[0].p), -EFBIG);
	CHECK_EQ_INT(ior_rec_tick(w, now + 5000000000ull), -EFBIG);
	CHECK(ior_rec_writer_close(w, NULL, err, sizeof err) == -EFBIG);
	CHECK(strstr(err, "full.ior.zst") != NULL);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);

	struct ior_rec_reader *r;
	CHECK_EQ_INT(ior_rec_reader_open(&r, path, err, sizeof err), 0);
	if (!r)
		return;
	struct ior_event_pair p;
	size_t got = 0;
	while ((rc = ior_rec_read(r, &p)) == 1) {
		if (!same_pair(&p, &v[got].p))
			T_FAIL("pair %zu differs", got);
		got++;
	}
	CHECK_EQ_INT(rc, 0);
	CHECK(ior_rec_reader_truncated(r, NULL, NULL));
	CHECK(flushed > 0);
	CHECK_EQ_INT(got, flushed);
	ior_rec_reader_close(r);
}

/* Async pairs (uring:OP) overlap the syscalls of their thread: they
 * begin before the previous pair's exit and have no gap. They read back
 * exactly, and so do the syscalls' gaps around them. */
TEST(async_pairs_round_trip)
{
	static struct spair v[6];
	unsigned rd = ior_syscall_index(ior_syscall_by_name("read"));
	unsigned ur = ior_syscall_index(ior_syscall_by_name("uring:read"));
	unsigned ue = ior_syscall_index(ior_syscall_by_name("io_uring_enter"));
	/* enter, duration, gap, sys, ret */
	static const uint64_t t[6][5] = {
		{ 1000, 100, 0, 0, 10 },   { 1300, 50, 0, 1, 1 },	{ 1310, 400, 0, 2, 4096 },
		{ 1320, 20, 0, 2, 4096 },  { 1400, 30, 50, 1, 1 },	{ 1900, 10, 470, 0, 0 },
	};
	unsigned sys[3] = { rd, ue, ur };
	memset(v, 0, sizeof v);
	for (int i = 0; i < 6; i++) {
		struct ior_event_pair *p = &v[i].p;
		p->enter_ns = t[i][0];
		p->duration_ns = t[i][1];
		p->gap_ns = t[i][2];
		p->sys = (uint16_t)sys[t[i][3]];
		p->ret = (int64_t)t[i][4];
		p->bytes = t[i][3] != 1 ? t[i][4] : 0;
		p->flags = IOR_FLAGS_UNKNOWN;
		p->pid = p->tid = 42;
		p->fd = t[i][3] == 1 ? 3 : 4;
		strcpy(v[i].comm, "db");
		strcpy(v[i].path, t[i][3] == 1 ? "anon_inode:[io_uring]" : "/data/f");
		p->comm = v[i].comm;
		p->path = v[i].path;
		p->path2 = "";
	}
	const char *path = tmp_path("async.ior.zst");
	CHECK_EQ_INT(write_stream(path, v, 6, 0, NULL, NULL, NULL), 0);
	struct ior_rec_reader *r;
	char err[256];
	CHECK_EQ_INT(ior_rec_reader_open(&r, path, err, sizeof err), 0);
	if (!r)
		return;
	struct ior_event_pair p;
	size_t i = 0;
	while (ior_rec_read(r, &p) == 1 && i < 6) {
		if (!same_pair(&p, &v[i].p))
			T_FAIL("pair %zu differs", i);
		i++;
	}
	CHECK_EQ_INT(i, 6);
	ior_rec_reader_close(r);
}

struct blocks_got {
	struct ior_block_req b[4];
	char comm[4][16], path[4][32], dev[32];
	int n;
};

static int got_block(void *ctx, const struct ior_block_req *b)
{
	struct blocks_got *g = ctx;
	if (g->n < 4) {
		g->b[g->n] = *b;
		snprintf(g->comm[g->n], 16, "%s", b->comm);
		snprintf(g->path[g->n], 32, "%s", b->path);
		g->n++;
	}
	return 0;
}

static int got_devname(void *ctx, uint32_t dev, const char *name)
{
	struct blocks_got *g = ctx;
	snprintf(g->dev, sizeof g->dev, "%u=%s", dev, name);
	return 0;
}

/* A pair's device fields and block requests come back as written; a
 * reader without hooks skips the requests. */
TEST(block_requests_round_trip)
{
	const char *path = tmp_path("blk.ior.zst");
	struct ior_rec_writer *w;
	struct ior_rec_reader *r;
	struct ior_event_pair p = { .enter_ns = 1000, .duration_ns = 500, .ret = 4096, .bytes = 4096,
				    .flags = IOR_FLAGS_UNKNOWN, .pid = 5, .tid = 5, .fd = 3,
				    .sys = (uint16_t)ior_syscall_index(ior_syscall_by_name("pread64")),
				    .comm = "dd", .path = "/dev/loop9", .path2 = "",
				    .blk_requests = 1, .blk_bytes = 4096, .device_ns = 300, .blk_dev = 7u << 20 | 9,
				    .cache_pages = 2, .where = 2 /* io-wq */ };
	struct ior_block_req b = { 1400, 1050, 1060, 1100, 64, 7u << 20 | 9, 4096, 0, IOR_BLK_READ, IOR_BLK_SYNC,
				   5, 5, "dd", p.sys, "/dev/loop9" };
	struct ior_block_req k = { 2000, 1900, 0, 0, 0, 7u << 20 | 9, 0, -5, IOR_BLK_WRITE, IOR_BLK_PREFLUSH,
				   77, 77, "kworker/0:1", -1, "" };
	struct blocks_got g = { 0 };
	char err[256];

	CHECK_EQ_INT(ior_rec_writer_open(&w, path, &test_info, err, sizeof err), 0);
	CHECK_EQ_INT(ior_rec_write_block(w, &b), 0);
	CHECK_EQ_INT(ior_rec_write(w, &p), 0);
	CHECK_EQ_INT(ior_rec_write_block(w, &k), 0);
	p.enter_ns = 3000;
	p.blk_requests = 0, p.blk_bytes = 0, p.device_ns = 0, p.blk_dev = 0, p.cache_pages = 0;
	CHECK_EQ_INT(ior_rec_write(w, &p), 0);
	CHECK_EQ_INT(ior_rec_writer_close(w, NULL, err, sizeof err), 0);
	for (int hooks = 0; hooks < 2; hooks++) {
		CHECK_EQ_INT(ior_rec_reader_open(&r, path, err, sizeof err), 0);
		if (hooks)
			ior_rec_reader_block_hooks(r, &(struct ior_rec_block_hooks){ got_block, got_devname, &g });
		struct ior_event_pair q;
		CHECK_EQ_INT(ior_rec_read(r, &q), 1);
		CHECK_EQ_INT(q.blk_requests, 1);
		CHECK_EQ_INT(q.blk_bytes, 4096);
		CHECK_EQ_INT(q.device_ns, 300);
		CHECK_EQ_INT(q.blk_dev, 7u << 20 | 9);
		CHECK_EQ_INT(q.cache_pages, 2);
		CHECK_EQ_INT(q.where, 2);
		CHECK_EQ_INT(ior_rec_read(r, &q), 1);
		CHECK_EQ_INT(q.blk_requests, 0);
		CHECK_EQ_INT(q.device_ns, 0);
		CHECK_EQ_INT(ior_rec_read(r, &q), 0);
		ior_rec_reader_close(r);
	}
	CHECK_EQ_INT(g.n, 2);
	CHECK(!memcmp(&g.b[0], &b, offsetof(struct ior_block_req, pid)));
	CHECK_EQ_INT(g.b[0].sys, b.sys);
	CHECK_EQ_STR(g.comm[0], "dd");
	CHECK_EQ_STR(g.path[0], "/dev/loop9");
	CHECK_EQ_INT(g.b[1].error, -5);
	CHECK_EQ_INT(g.b[1].issue_ns, 0);
	CHECK_EQ_INT(g.b[1].sys, -1);
	CHECK_EQ_INT(g.b[1].tid, 77);
	CHECK_EQ_STR(g.comm[1], "kworker/0:1");
	CHECK(!strncmp(g.dev, "7340041=", 8)); /* 7:9, named as this host names it */
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(round_trip_random_streams);
	RUN(async_pairs_round_trip);
	RUN(strings_at_every_alignment_and_length);
	RUN(zstd_tool_accepts_the_file);
	RUN(truncated_at_every_byte);
	RUN(zero_filled_tail_reads_as_truncated);
	RUN(trailing_bytes_are_counted);
	RUN(corrupt_bytes_never_yield_wrong_pairs);
	RUN(hostile_input_is_an_error);
	RUN(more_byte_versions_5_and_6);
	RUN(block_requests_round_trip);
	RUN(unknown_syscall_reads_under_its_name);
	RUN(define_hook_gets_every_string);
	RUN(define_hook_follows_resets);
	RUN(read_loop_costs_at_most_6_bytes_per_pair);
	RUN(fast_frames_round_trip);
	RUN(header_defaults);
	RUN(default_name);
	RUN(write_errors_are_sticky);
	RUN(fifo_path_refused);
	RUN(full_disk_mid_recording);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	if (system(cmd))
		return 1;
	return t_done();
}
