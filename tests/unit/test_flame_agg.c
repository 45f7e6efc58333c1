/* Aggregation and folded/JSON output against golden files in
 * tests/unit/golden/ (regenerate with IOR_UPDATE_GOLDEN=1 and review the
 * diff). The same pairs go through the slow path (ior_flame_agg_add) and
 * through a recording (the fast path on string ids): both must agree. */
#include "t.h"
#include "flame_util.h"
#include "flame/field.h"
#include "flame/flame.h"
#include "rec/rec.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define GOLDEN "tests/unit/golden/"

static char tmpdir[] = "/tmp/ior-test-flame-XXXXXX";

static uint16_t sys(const char *name)
{
	return (uint16_t)ior_sys_find(name);
}

/* enter, dur, gap, ret, bytes, flags, pid, tid, fd, sys, comm, path, path2 */
#define P(e, d, g, r, b, f, pid, tid, fd, s, c, p, p2) \
	{ e, d, g, r, b, f, pid, tid, fd, 0, c, p, p2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

static struct ior_event_pair pairs[] = {
	P(1000, 1000, 0, 3, 0, 0x80000, 10, 10, 3, 0, "cat", "/etc/hosts", ""),
	P(2500, 2000, 500, 100, 100, 0x80000, 10, 10, 3, 0, "cat", "/etc/hosts", ""),
	P(4600, 300, 100, 0, 0, 0x80000, 10, 10, 3, 0, "cat", "/etc/hosts", ""),
	P(4950, 200, 50, 0, 0, 0x80000, 10, 10, 3, 0, "cat", "/etc/hosts", ""),
	P(6000, 5000, 1000, 512, 512, 0x401, 20, 21, 5, 0, "nginx", "/var/log/nginx/access.log", ""),
	P(13000, 4000, 2000, 256, 256, 0x401, 20, 21, 5, 0, "nginx", "/var/log/nginx/access.log", ""),
	P(7000, 100000, 0, 0, 0, IOR_FLAGS_UNKNOWN, 20, 22, -1, 0, "nginx", "", ""),
	P(8000, 700, 0, 4, 0, 0x42, 30, 30, 4, 0, "evil;comm", "rel/a;b\nc", ""),
	P(9000, 100, 0, 0, 0, IOR_FLAGS_UNKNOWN, 40, 40, -1, 0, "x", "/", ""),
	P(9500, 900, 0, 0, 0, IOR_FLAGS_UNKNOWN, 40, 40, -1, 0, "x", "//a//", "/b"),
	P(9900, 50, 0, 0, 0, IOR_FLAGS_UNKNOWN, 40, 41, -1, 0, "x", "/tmp/\xff\xfe", ""),
	P(10000, 60, 0, 0, 0, IOR_FLAGS_UNKNOWN, 40, 41, -1, 0, "", "/tmp/\xff\xfe", ""),
	P(14000, 3000, 0, 64, 64, 0x80002, 20, 21, 6, 0, "nginx", "socket:tcp", ""),
	P(18000, 9000, 1000, 1, 0, 0x80002, 20, 21, 7, 0, "nginx", "anon_inode:[eventpoll]", ""),
};
/* names every arch has: a recording holds its writer's arch's */
static const char *pair_sys[] = {
	"openat", "read", "read", "close", "write", "write", "sync", "openat", "newfstatat", "renameat2",
	"newfstatat", "newfstatat", "sendto", "epoll_pwait",
};
#define NPAIRS (sizeof pairs / sizeof pairs[0])

static void init_pairs(void)
{
	for (size_t i = 0; i < NPAIRS; i++)
		pairs[i].sys = sys(pair_sys[i]);
	pairs[NPAIRS - 1].has_timeout = 1; /* the epoll_pwait: 30 ms */
	pairs[NPAIRS - 1].timeout_ns = 30000000;
	pairs[1].where = 2; /* as io_uring ops: io-wq, poll, inline */
	pairs[2].where = 3;
	pairs[3].where = 1;
}

/* Compares text with the golden file (or rewrites it when asked). */
static void check_golden(const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, GOLDEN "%s", name);
	if (getenv("IOR_UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "wb");
		CHECK(f && fputs(text, f) >= 0 && !fclose(f));
		return;
	}
	char *want = t_read_file(path, NULL);
	if (!want) {
		T_FAIL("missing golden file %s (run from the repository root)", path);
		return;
	}
	if (strcmp(want, text))
		T_FAIL("%s differs:\n--- got\n%s--- want\n%s", name, text, want);
	free(want);
}

static struct ior_flame_tree *tree_slow(const char *fields, const char *metric)
{
	struct ior_flame_spec spec;
	char err[256];
	struct ior_flame_agg *a;
	struct ior_flame_tree *t = NULL;
	if (ior_flame_spec_parse(&spec, fields, metric, err, sizeof err)) {
		T_FAIL("spec: %s", err);
		return NULL;
	}
	CHECK_EQ_INT(ior_flame_agg_new(&a, &spec), 0);
	CHECK_EQ_INT(ior_flame_agg_set_host(a, "golden"), 0); /* the recording's host */
	for (size_t i = 0; i < NPAIRS; i++)
		CHECK_EQ_INT(ior_flame_agg_add(a, &pairs[i]), 0);
	CHECK_EQ_INT(ior_flame_tree_build(a, &t), 0);
	ior_flame_agg_free(a);
	return t;
}

static const char *rec_path(void)
{
	static char buf[256];
	snprintf(buf, sizeof buf, "%s/pairs.ior.zst", tmpdir);
	return buf;
}

static void write_recording(void)
{
	struct ior_rec_writer *w;
	char err[256];
	struct ior_rec_info info = { .host = "golden", .kernel = "6.18", .cmdline = "",
				     .start_realtime_ns = 1764672000000000000ull, .start_monotonic_ns = 1000 };
	CHECK_EQ_INT(ior_rec_writer_open(&w, rec_path(), &info, err, sizeof err), 0);
	for (size_t i = 0; i < NPAIRS; i++)
		CHECK_EQ_INT(ior_rec_write(w, &pairs[i]), 0);
	CHECK_EQ_INT(ior_rec_writer_close(w, NULL, err, sizeof err), 0);
}

/* -fields host: each recording's pairs under its host, merged by name */
TEST(host_field_merges_recordings)
{
	struct ior_flame_spec spec;
	struct ior_flame_agg *a;
	struct ior_flame_tree *t = NULL;
	struct ior_rec_reader *r;
	char err[256];
	CHECK(!ior_flame_spec_parse(&spec, "host,comm", "count", err, sizeof err));
	CHECK_EQ_INT(ior_flame_agg_new(&a, &spec), 0);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ_INT(ior_rec_reader_open(&r, rec_path(), err, sizeof err), 0);
		CHECK_EQ_INT(ior_flame_agg_add_recording(a, r), 0);
		ior_rec_reader_close(r);
	}
	CHECK_EQ_INT(ior_flame_agg_set_host(a, "other"), 0);
	CHECK_EQ_INT(ior_flame_agg_add(a, &pairs[0]), 0);
	CHECK_EQ_INT(ior_flame_tree_build(a, &t), 0);
	char *text = folded(t);
	CHECK(strstr(text, "golden;") && strstr(text, "\nother;"));
	CHECK_EQ_INT(ior_flame_agg_pairs(a), 2 * NPAIRS + 1);
	free(text);
	ior_flame_tree_free(t);
	ior_flame_agg_free(a);
}

static struct ior_flame_tree *tree_fast(const struct ior_flame_spec *spec)
{
	struct ior_rec_reader *r;
	struct ior_flame_agg *a;
	struct ior_flame_tree *t = NULL;
	char err[256];
	CHECK_EQ_INT(ior_rec_reader_open(&r, rec_path(), err, sizeof err), 0);
	CHECK_EQ_INT(ior_flame_agg_new(&a, spec), 0);
	CHECK_EQ_INT(ior_flame_agg_add_recording(a, r), 0);
	CHECK_EQ_INT(ior_flame_tree_build(a, &t), 0);
	ior_flame_agg_free(a);
	ior_rec_reader_close(r);
	return t;
}

static void golden_case(const char *fields, const char *metric)
{
	char name[128];
	snprintf(name, sizeof name, "flame_%s-by-%s.folded", fields, metric);
	for (char *p = name; *p; p++)
		if (*p == ',')
			*p = ':';
	struct ior_flame_tree *t = tree_slow(fields, metric);
	if (!t)
		return;
	char *text = folded(t);
	check_golden(name, text);
	struct ior_flame_tree *f = tree_fast(&t->spec);
	char *fast = folded(f);
	if (strcmp(text, fast))
		T_FAIL("%s: recording path differs:\n%s", name, fast);
	free(text);
	free(fast);
	ior_flame_tree_free(t);
	ior_flame_tree_free(f);
}

/* Every entry of the field table: a new field needs its golden file. */
TEST(golden_each_field)
{
	for (unsigned i = 0; i < ior_flame_nfields; i++)
		golden_case(ior_flame_fields[i].name, "count");
}

/* Each field keys on a string (with its recording id) or a number, and
 * draws frames; a spec naming no known field is refused. */
TEST(field_table_is_complete)
{
	for (unsigned i = 0; i < ior_flame_nfields; i++) {
		const struct ior_flame_field *f = &ior_flame_fields[i];
		CHECK(f->name && *f->name && !strpbrk(f->name, ",:"));
		CHECK(f->frames);
		CHECK(f->text ? f->text_id && !f->number : f->number && !f->text_id);
	}
	struct ior_flame_spec spec = { .nfields = 1, .fields = { (uint8_t)ior_flame_nfields }, .pid = -1, .tid = -1 };
	struct ior_flame_agg *a;
	CHECK_EQ_INT(ior_flame_agg_new(&a, &spec), -EINVAL);
	spec.fields[0] = 0;
	spec.nfields = IOR_FLAME_MAX_FIELDS + 1;
	CHECK_EQ_INT(ior_flame_agg_new(&a, &spec), -EINVAL);
}

TEST(golden_each_metric)
{
	const char *metrics[] = { "count", "duration", "durationToPrev", "bytes" };
	for (size_t i = 0; i < 4; i++)
		golden_case("comm,path,tracepoint", metrics[i]);
	golden_case("tracepoint,flags,comm,tid,pid,path", "bytes");
}

TEST(golden_json)
{
	struct ior_flame_tree *t = tree_slow("comm,tracepoint", "duration");
	if (!t)
		return;
	t->meta.host = "golden\"host</script>";
	t->meta.first_realtime_ns = 1764672000000000000ull;
	t->meta.last_realtime_ns = 1764672000000105000ull;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	CHECK_EQ_INT(ior_flame_write_json(t, m), 0);
	fclose(m);
	check_golden("flame_comm:tracepoint-by-duration.json", buf);
	free(buf);
	ior_flame_tree_free(t);
}

TEST(tree_values_add_up)
{
	struct ior_flame_tree *t = tree_slow("comm,path,tracepoint", "duration");
	if (!t)
		return;
	uint64_t total = 0;
	for (size_t i = 0; i < NPAIRS; i++)
		total += pairs[i].duration_ns;
	CHECK(t->nodes[0].value == total);
	for (uint32_t n = 0; n < t->nnodes; n++) {
		uint64_t sum = t->nodes[n].self;
		for (uint32_t i = 0; i < t->nodes[n].nchild; i++) {
			uint32_t c = t->kids[t->nodes[n].child0 + i];
			sum += t->nodes[c].value;
			CHECK_EQ_INT(t->nodes[c].depth, t->nodes[n].depth + 1);
			if (i)
				CHECK(strcmp(ior_flame_node_name(t, t->kids[t->nodes[n].child0 + i - 1]),
					     ior_flame_node_name(t, c)) < 0);
		}
		CHECK(sum == t->nodes[n].value);
	}
	ior_flame_tree_free(t);
}

TEST(filters_match_live_semantics)
{
	struct ior_flame_spec spec;
	char err[256];
	CHECK_EQ_INT(ior_flame_spec_parse(&spec, "comm", "count", err, sizeof err), 0);
	spec.comm = "ngin";
	CHECK(ior_flame_spec_match(&spec, &pairs[4]));
	CHECK(!ior_flame_spec_match(&spec, &pairs[0]));
	spec.comm = "";
	spec.path = "/b";
	CHECK(ior_flame_spec_match(&spec, &pairs[9])); /* second path counts */
	CHECK(!ior_flame_spec_match(&spec, &pairs[0]));
	spec.path = NULL;
	spec.tid = 22;
	CHECK(ior_flame_spec_match(&spec, &pairs[6]));
	CHECK(!ior_flame_spec_match(&spec, &pairs[5]));
	spec.tid = -1;
	spec.pid = 40;
	CHECK(ior_flame_spec_match(&spec, &pairs[8]));
	CHECK(!ior_flame_spec_match(&spec, &pairs[7]));

	/* the recording path applies the same filters */
	struct ior_flame_spec s2;
	CHECK_EQ_INT(ior_flame_spec_parse(&s2, "comm,tid", "count", err, sizeof err), 0);
	s2.path = "nginx";
	struct ior_flame_tree *t = tree_fast(&s2);
	char *text = folded(t);
	CHECK_EQ_STR(text, "nginx;tid 21 2\n");
	free(text);
	ior_flame_tree_free(t);
}

TEST(spec_errors)
{
	struct ior_flame_spec spec;
	char err[256];
	CHECK(ior_flame_spec_parse(&spec, "comm,bogus", "count", err, sizeof err) < 0);
	const char *known = "-fields: unknown field \"bogus\": use comm, path, tracepoint, pid, tid, flags";
	CHECK(!strncmp(err, known, strlen(known)));
	CHECK(ior_flame_spec_parse(&spec, "comm,comm", "count", err, sizeof err) < 0);
	CHECK(strstr(err, "twice"));
	CHECK(ior_flame_spec_parse(&spec, "", "count", err, sizeof err) < 0);
	CHECK(ior_flame_spec_parse(&spec, " , ", "count", err, sizeof err) < 0);
	/* blanks around entries, as every list flag takes them */
	CHECK_EQ_INT(ior_flame_spec_parse(&spec, "comm, path", "count", err, sizeof err), 0);
	CHECK_EQ_INT(spec.nfields, 2);
	CHECK(ior_flame_spec_parse(&spec, "comm", "latency", err, sizeof err) < 0);
	CHECK(strstr(err, "latency"));
	CHECK_EQ_INT(ior_flame_spec_parse(&spec, "pid,tid,flags,comm,path,tracepoint", "durationToPrev", err, sizeof err), 0);
	CHECK_EQ_INT(spec.nfields, 6);
	CHECK_EQ_INT(spec.fields[0], 3); /* pid: index in the field table */
	CHECK_EQ_INT(spec.metric, IOR_METRIC_DURATION_TO_PREV);
	char buf[128];
	ior_flame_fields_str(&spec, ':', buf, sizeof buf);
	CHECK_EQ_STR(buf, "pid:tid:flags:comm:path:tracepoint");
}

TEST(sanitize_frames)
{
	char out[64];
	ior_flame_sanitize(out, sizeof out, "a;b\nc\\d", 7);
	CHECK_EQ_STR(out, "a\\x3bb\\x0ac\\\\d");
	ior_flame_sanitize(out, sizeof out, "\xff" "ok\xc3\xa9\xc0\xaf", 7);
	CHECK_EQ_STR(out, "\\xffok\xc3\xa9\\xc0\\xaf");
	ior_flame_sanitize(out, sizeof out, "\xed\xa0\x80", 3); /* surrogate */
	CHECK_EQ_STR(out, "\\xed\\xa0\\x80");
	ior_flame_sanitize(out, sizeof out, "\xe2\x82", 2); /* cut sequence */
	CHECK_EQ_STR(out, "\\xe2\\x82");
	ior_flame_sanitize(out, 6, "\xe2\x82\xac\xe2\x82\xac", 6); /* never cuts a character */
	CHECK_EQ_STR(out, "\xe2\x82\xac");
	ior_flame_sanitize(out, 6, "ab\x01", 3); /* nor an escape */
	CHECK_EQ_STR(out, "ab");
	ior_flame_sanitize(out, sizeof out, "\x7f\t\xc2\x85\xe2\x80\xae\xe2\x80\xa8", 10);
	CHECK_EQ_STR(out, "\\x7f\\x09\\u0085\\u202e\\u2028");
}

/* The notation's inverse, as a reader of folded stacks would write it. */
static size_t unescape(unsigned char *out, const char *s)
{
	size_t o = 0;
	for (size_t i = 0; s[i];) {
		unsigned v = 0;
		if (s[i] != '\\') {
			out[o++] = (unsigned char)s[i++];
		} else if (s[i + 1] == '\\') {
			out[o++] = '\\';
			i += 2;
		} else if (s[i + 1] == 'x') {
			sscanf(s + i + 2, "%2x", &v);
			out[o++] = (unsigned char)v;
			i += 4;
		} else { /* \uHHHH: the code point in UTF-8 (all below U+10000) */
			sscanf(s + i + 2, "%4x", &v);
			if (v < 0x800) {
				out[o++] = (unsigned char)(0xc0 | v >> 6);
			} else {
				out[o++] = (unsigned char)(0xe0 | v >> 12);
				out[o++] = (unsigned char)(0x80 | (v >> 6 & 0x3f));
			}
			out[o++] = (unsigned char)(0x80 | (v & 0x3f));
			i += 6;
		}
	}
	return o;
}

/* Random names (hostile bytes, valid and broken UTF-8) come back whole. */
TEST(frame_names_are_reversible)
{
	static const unsigned char pieces[][4] = { "a", ";", "\\", "\n", "\x7f", "\xff", "\xc3\xa9",
						   "\xc2\x85", "\xe2\x80\xae", "\xf0\x9f\x94\xa5", "\xe2\x82", " " };
	unsigned seed = 7, bad = 0;
	for (int round = 0; round < 2000; round++) {
		unsigned char name[64], back[512];
		char out[512];
		size_t n = 0;
		for (int k = (int)((seed = seed * 1103515245 + 12345) >> 16) % 12; k >= 0; k--) {
			const unsigned char *p = pieces[((seed = seed * 1103515245 + 12345) >> 16) % 12];
			size_t len = strnlen((const char *)p, 4);
			memcpy(name + n, p, len);
			n += len;
		}
		ior_flame_sanitize(out, sizeof out, (const char *)name, n);
		bad += strchr(out, ';') || unescape(back, out) != n || memcmp(back, name, n);
	}
	CHECK_EQ_INT(bad, 0);
}

TEST(value_units)
{
	char b[64];
	ior_flame_format_value(b, sizeof b, IOR_METRIC_COUNT, 1234567);
	CHECK_EQ_STR(b, "1,234,567 calls");
	ior_flame_format_value(b, sizeof b, IOR_METRIC_COUNT, 1);
	CHECK_EQ_STR(b, "1 call");
	ior_flame_format_value(b, sizeof b, IOR_METRIC_DURATION, 1500000);
	CHECK_EQ_STR(b, "1.500 ms");
	ior_flame_format_value(b, sizeof b, IOR_METRIC_BYTES, 3 * 1024 * 1024 + 512 * 1024);
	CHECK_EQ_STR(b, "3.5 MiB");
	ior_flame_format_value(b, sizeof b, IOR_METRIC_BYTES, 2048);
	CHECK_EQ_STR(b, "2.0 KiB");
}

/* Many string-table generations: the writer resets its strings after 1M
 * distinct ones; aggregation must follow the reset. Small enough to run
 * under ASan. */
TEST(distinct_paths_across_resets)
{
	struct ior_rec_writer *w;
	char err[256];
	CHECK_EQ_INT(ior_rec_writer_open(&w, rec_path(), NULL, err, sizeof err), 0);
	struct ior_event_pair p = pairs[1];
	char path[64];
	enum { N = (1 << 20) + 5000 };
	for (int i = 0; i < N; i++) {
		snprintf(path, sizeof path, "/d/%d", i % ((1 << 20) + 1000));
		p.path = path;
		p.enter_ns += 10;
		CHECK_EQ_INT(ior_rec_write(w, &p), 0);
	}
	CHECK_EQ_INT(ior_rec_writer_close(w, NULL, err, sizeof err), 0);
	struct ior_flame_spec spec;
	CHECK_EQ_INT(ior_flame_spec_parse(&spec, "comm,path", "count", err, sizeof err), 0);
	struct ior_flame_tree *t = tree_fast(&spec);
	CHECK(t && t->pairs == N);
	/* root, cat, "/", "d", then one frame per distinct number */
	CHECK_EQ_INT(t->nnodes, 4 + (1 << 20) + 1000);
	ior_flame_tree_free(t);
}

/* Beyond the key bound, new tuples go to "(other)"; known tuples still
 * count in their own frame; totals include everything. */
TEST(key_limit_other_bucket)
{
	struct ior_flame_spec spec;
	char err[256];
	struct ior_flame_agg *a;
	CHECK_EQ_INT(ior_flame_spec_parse(&spec, "path", "bytes", err, sizeof err), 0);
	CHECK_EQ_INT(ior_flame_agg_new(&a, &spec), 0);
	ior_flame_agg_set_limits(a, 2, 0);
	struct ior_event_pair p = pairs[1];
	const char *paths[] = { "/a", "/b", "/c", "/a", "/d", "/b" };
	for (int i = 0; i < 6; i++) {
		p.path = paths[i];
		p.bytes = (uint64_t)(i + 1);
		CHECK_EQ_INT(ior_flame_agg_add(a, &p), 0);
	}
	CHECK_EQ_INT(ior_flame_agg_keys(a), 2);
	CHECK_EQ_INT(ior_flame_agg_other_pairs(a), 2);
	CHECK_EQ_INT(ior_flame_agg_pairs(a), 6);
	struct ior_flame_tree *t = NULL;
	CHECK_EQ_INT(ior_flame_tree_build(a, &t), 0);
	char *text = t ? folded(t) : NULL;
	CHECK_EQ_STR(text, "(other) 8\n/;a 5\n/;b 8\n");
	CHECK(t && t->nodes[0].value == 21);
	free(text);
	ior_flame_tree_free(t);
	ior_flame_agg_free(a);
}

/* Once the strings reach their bound, a pair with an unknown string goes
 * to "(other)" without its string being kept. */
TEST(string_limit_other_bucket)
{
	struct ior_flame_spec spec;
	char err[256];
	struct ior_flame_agg *a;
	CHECK_EQ_INT(ior_flame_spec_parse(&spec, "comm,path", "count", err, sizeof err), 0);
	CHECK_EQ_INT(ior_flame_agg_new(&a, &spec), 0);
	ior_flame_agg_set_limits(a, 0, 10); /* "cat" + "/x1" = 8 bytes, then "/x2": 12 */
	struct ior_event_pair p = pairs[0];
	const char *paths[] = { "/x1", "/x2", "/x3", "/x1", "/x2" };
	for (int i = 0; i < 5; i++) {
		p.path = paths[i];
		CHECK_EQ_INT(ior_flame_agg_add(a, &p), 0);
	}
	CHECK_EQ_INT(ior_flame_agg_keys(a), 2);
	CHECK_EQ_INT(ior_flame_agg_other_pairs(a), 1);
	struct ior_flame_tree *t = NULL;
	CHECK_EQ_INT(ior_flame_tree_build(a, &t), 0);
	char *text = t ? folded(t) : NULL;
	CHECK_EQ_STR(text, "(other) 1\ncat;/;x1 2\ncat;/;x2 2\n");
	free(text);
	ior_flame_tree_free(t);
	ior_flame_agg_free(a);
}

/* A live pair's comm_id and path_id stand for its strings: equal ids
 * key as equal strings without being hashed again, 0 is no id, and the
 * aggregate is the one the strings alone give. */
TEST(live_ids_key_as_strings)
{
	static const struct {
		const char *comm, *path;
		uint64_t comm_id, path_id;
	} in[] = {
		{ "cat", "/a", 1, 10 }, { "cat", "/a", 1, 10 }, { "dog", "/b", 2, 11 }, { "cat", "/b", 1, 11 },
		{ "eel", "/c", 0, 0 },	{ "fox", "/d", 0, 0 },	{ "cat", "/a", 1, 10 }, { "gnu", "/a", 9, 18 },
		{ "cat", "/a", 1, 10 }, /* 9 and 18 share 1's and 10's slots */
	};
	const char *want = "cat;/;a 4\ncat;/;b 1\ndog;/;b 1\neel;/;c 1\nfox;/;d 1\ngnu;/;a 1\n";
	for (int with_ids = 0; with_ids < 2; with_ids++) {
		struct ior_flame_spec spec;
		char err[256];
		struct ior_flame_agg *a;
		CHECK_EQ_INT(ior_flame_spec_parse(&spec, "comm,path", "count", err, sizeof err), 0);
		CHECK_EQ_INT(ior_flame_agg_new(&a, &spec), 0);
		for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
			struct ior_event_pair p = pairs[0];
			p.comm = in[i].comm, p.path = in[i].path;
			p.comm_id = with_ids ? in[i].comm_id : 0, p.path_id = with_ids ? in[i].path_id : 0;
			CHECK_EQ_INT(ior_flame_agg_add(a, &p), 0);
		}
		struct ior_flame_tree *t = NULL;
		CHECK_EQ_INT(ior_flame_tree_build(a, &t), 0);
		char *text = t ? folded(t) : NULL;
		CHECK_EQ_STR(text, want);
		free(text);
		ior_flame_tree_free(t);
		ior_flame_agg_free(a);
	}
}

/* Summary rows weigh what they stand for, through the slow path and the
 * recording's fast path alike: pairs for count, sums for the others; a
 * gap correction (pairs 0) adds to durationToPrev only and makes no frame
 * elsewhere; the span runs to a summary's end_ns. */
TEST(summary_rows_weigh_their_pairs)
{
	struct ior_event_pair ev = pairs[1], sum = pairs[1], fix = pairs[1];
	sum.summary = 1, sum.pairs = 40, sum.bytes = 4000, sum.duration_ns = 7000, sum.gap_ns = 900;
	sum.enter_ns = 3000, sum.end_ns = 99000, sum.ret = 0;
	fix.summary = 1, fix.pairs = 0, fix.bytes = 0, fix.duration_ns = 0, fix.gap_ns = 50;
	fix.path = "/other";
	const struct ior_event_pair *rows[] = { &ev, &sum, &fix };
	static const struct {
		const char *metric, *want;
	} cases[] = {
		{ "count", "cat;/;etc;hosts;read 41\n" },
		{ "bytes", "cat;/;etc;hosts;read 4100\n" },
		{ "duration", "cat;/;etc;hosts;read 9000\n" },
		{ "durationToPrev", "cat;/;etc;hosts;read 1400\ncat;/;other;read 50\n" },
	};
	char err[256];
	struct ior_rec_writer *w;
	char path[300];
	snprintf(path, sizeof path, "%s/sum.ior.zst", tmpdir);
	struct ior_rec_info info = { .host = "h", .kernel = "k", .cmdline = "", .start_realtime_ns = 1,
				     .start_monotonic_ns = 1 };
	CHECK_EQ_INT(ior_rec_writer_open(&w, path, &info, err, sizeof err), 0);
	for (size_t i = 0; i < 3; i++)
		CHECK_EQ_INT(ior_rec_write(w, rows[i]), 0);
	CHECK_EQ_INT(ior_rec_writer_close(w, NULL, err, sizeof err), 0);
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct ior_flame_spec spec;
		struct ior_flame_agg *a, *b;
		struct ior_rec_reader *r;
		struct ior_flame_tree *t = NULL, *u = NULL;
		CHECK_EQ_INT(ior_flame_spec_parse(&spec, "comm,path,tracepoint", cases[c].metric, err, sizeof err), 0);
		CHECK_EQ_INT(ior_flame_agg_new(&a, &spec), 0);
		CHECK_EQ_INT(ior_flame_agg_new(&b, &spec), 0);
		for (size_t i = 0; i < 3; i++)
			CHECK_EQ_INT(ior_flame_agg_add(a, rows[i]), 0);
		CHECK_EQ_INT(ior_rec_reader_open(&r, path, err, sizeof err), 0);
		CHECK_EQ_INT(ior_flame_agg_add_recording(b, r), 0);
		ior_rec_reader_close(r);
		CHECK_EQ_INT(ior_flame_agg_pairs(a), 41);
		CHECK_EQ_INT(ior_flame_agg_pairs(b), 41);
		uint64_t first, last;
		ior_flame_agg_span(a, &first, &last);
		CHECK(first == 2500 && last == 99000);
		CHECK_EQ_INT(ior_flame_tree_build(a, &t), 0);
		CHECK_EQ_INT(ior_flame_tree_build(b, &u), 0);
		char *x = t ? folded(t) : NULL, *y = u ? folded(u) : NULL;
		CHECK_EQ_STR(x, cases[c].want);
		CHECK_EQ_STR(y, cases[c].want);
		free(x);
		free(y);
		ior_flame_tree_free(t);
		ior_flame_tree_free(u);
		ior_flame_agg_free(a);
		ior_flame_agg_free(b);
	}
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	init_pairs();
	write_recording();
	RUN(golden_each_field);
	RUN(host_field_merges_recordings);
	RUN(field_table_is_complete);
	RUN(golden_each_metric);
	RUN(golden_json);
	RUN(tree_values_add_up);
	RUN(filters_match_live_semantics);
	RUN(spec_errors);
	RUN(sanitize_frames);
	RUN(frame_names_are_reversible);
	RUN(value_units);
	RUN(distinct_paths_across_resets);
	RUN(key_limit_other_bucket);
	RUN(string_limit_other_bucket);
	RUN(live_ids_key_as_strings);
	RUN(summary_rows_weigh_their_pairs);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	if (system(cmd))
		return 1;
	return t_done();
}
