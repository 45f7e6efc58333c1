/* Big recordings: folded output written from the tree in byte order, and
 * the bounds that keep reading small (the "(other)" frame) exact in their
 * totals. */
#include "t.h"
#include "flame_util.h"
#include "flame/flame.h"
#include "rec/rec.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/ior-test-scale-XXXXXX";

static uint64_t rng_state = 1;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* ---- the reference: every line built whole, then sorted -------------- */

struct line {
	char *text;
	uint64_t value;
};

static int by_text(const void *x, const void *y)
{
	return strcmp(((const struct line *)x)->text, ((const struct line *)y)->text);
}

static char *stack_of(const struct ior_flame_tree *t, uint32_t n)
{
	if (!t->nodes[n].parent)
		return strdup(ior_flame_node_name(t, n));
	char *up = stack_of(t, t->nodes[n].parent), *s;
	if (asprintf(&s, "%s;%s", up, ior_flame_node_name(t, n)) < 0)
		s = NULL;
	free(up);
	return s;
}

static char *folded_reference(const struct ior_flame_tree *t)
{
	struct line *lines = calloc(t->nnodes, sizeof *lines);
	size_t n = 0, len = 0;
	for (uint32_t i = 1; i < t->nnodes; i++)
		if (t->nodes[i].self)
			lines[n++] = (struct line){ stack_of(t, i), t->nodes[i].self };
	qsort(lines, n, sizeof *lines, by_text);
	char *buf = NULL;
	FILE *m = open_memstream(&buf, &len);
	for (size_t i = 0; i < n; i++) {
		fprintf(m, "%s %llu\n", lines[i].text, (unsigned long long)lines[i].value);
		free(lines[i].text);
	}
	fclose(m);
	free(lines);
	return buf;
}

/* Names that are prefixes of each other and differ in bytes below and
 * above ';' (' ', '!', '-', digits, '_', UTF-8) sort as whole lines do. */
TEST(folded_lines_in_byte_order)
{
	static const char *parts[] = { "a", "ab", "ab!", "ab-1", "ab 2", "ab0", "ab_", "b", "\xc3\xa9", "1", "10", "" };
	struct ior_flame_spec spec;
	char err[256], path[128];
	CHECK_EQ_INT(ior_flame_spec_parse(&spec, "comm,path,pid", "count", err, sizeof err), 0);
	for (int round = 0; round < 20; round++) {
		struct ior_flame_agg *a;
		struct ior_flame_tree *t = NULL;
		CHECK_EQ_INT(ior_flame_agg_new(&a, &spec), 0);
		for (int i = 0; i < 300; i++) {
			size_t n = 0;
			for (uint64_t k = rnd() % 4; k--;)
				n += (size_t)snprintf(path + n, sizeof path - n, "%s%s", rnd() % 3 ? "/" : "",
						      parts[rnd() % 12]);
			path[n] = 0;
			struct ior_event_pair p = { .pid = (uint32_t)(rnd() % 3), .flags = IOR_FLAGS_UNKNOWN,
						    .comm = parts[rnd() % 4], .path = path, .path2 = "" };
			CHECK_EQ_INT(ior_flame_agg_add(a, &p), 0);
		}
		CHECK_EQ_INT(ior_flame_tree_build(a, &t), 0);
		char *got = t ? folded(t) : NULL, *want = t ? folded_reference(t) : NULL;
		CHECK_EQ_STR(got, want);
		free(got);
		free(want);
		ior_flame_tree_free(t);
		ior_flame_agg_free(a);
		if (t_cur_failed)
			break;
	}
}

/* ---- bounds ------------------------------------------------------------ */

enum { NPAIRS = 20000, NDISTINCT = 3000 };

static void pair_at(struct ior_event_pair *p, char *path, size_t len, int i, bool deep)
{
	int d = (i * 7919) % NDISTINCT;
	if (deep)
		snprintf(path, len, "/a%d/b%d/c%d/d%d", d, d, d, d);
	else
		snprintf(path, len, "/srv/%d/data/f%d", d % 40, d);
	*p = (struct ior_event_pair){
		.enter_ns = 1000 + (uint64_t)i * 100, .duration_ns = 10 + (uint64_t)(i % 13),
		.gap_ns = (uint64_t)(i % 5), .ret = i % 3 ? 4096 : 0, .bytes = i % 3 ? 4096 : 0,
		.flags = IOR_FLAGS_UNKNOWN, .pid = 10 + (uint32_t)(i % 3), .tid = 10 + (uint32_t)(i % 6),
		.fd = 3, .sys = (uint16_t)ior_syscall_index(ior_syscall_by_name(i % 3 ? "read" : "newfstatat")),
		.comm = i % 2 ? "reader" : "walker", .path = path, .path2 = "",
	};
}

static const char *rec_path(bool deep)
{
	static char buf[2][256];
	snprintf(buf[deep], sizeof buf[deep], "%s/%s.ior.zst", tmpdir, deep ? "deep" : "wide");
	return buf[deep];
}

static void write_recording(bool deep)
{
	struct ior_rec_writer *w;
	char err[256], path[128];
	struct ior_event_pair p;
	CHECK_EQ_INT(ior_rec_writer_open(&w, rec_path(deep), NULL, err, sizeof err), 0);
	for (int i = 0; i < NPAIRS; i++) {
		pair_at(&p, path, sizeof path, i, deep);
		CHECK_EQ_INT(ior_rec_write(w, &p), 0);
	}
	CHECK_EQ_INT(ior_rec_writer_close(w, NULL, err, sizeof err), 0);
}

struct bounds {
	uint32_t keys, frames;
	size_t strings;
};

/* The recording aggregated within b (fast: through the reader, else pair
 * by pair); the tree in *t. */
static struct ior_flame_agg *aggregate(const struct ior_flame_spec *spec, const struct bounds *b, bool deep,
				       bool fast, struct ior_flame_tree **t)
{
	struct ior_flame_agg *a;
	char err[256], path[128];
	*t = NULL;
	CHECK_EQ_INT(ior_flame_agg_new(&a, spec), 0);
	ior_flame_agg_set_limits(a, b->keys, b->strings);
	ior_flame_agg_set_max_frames(a, b->frames);
	if (fast) {
		struct ior_rec_reader *r;
		CHECK_EQ_INT(ior_rec_reader_open(&r, rec_path(deep), err, sizeof err), 0);
		CHECK_EQ_INT(ior_flame_agg_add_recording(a, r), 0);
		ior_rec_reader_close(r);
	} else {
		struct ior_event_pair p;
		for (int i = 0; i < NPAIRS; i++) {
			pair_at(&p, path, sizeof path, i, deep);
			CHECK_EQ_INT(ior_flame_agg_add(a, &p), 0);
		}
	}
	CHECK_EQ_INT(ior_flame_tree_build(a, t), 0);
	return a;
}

static uint64_t metric_total(enum ior_flame_metric m, bool deep)
{
	struct ior_event_pair p;
	char path[128];
	uint64_t sum = 0;
	for (int i = 0; i < NPAIRS; i++) {
		pair_at(&p, path, sizeof path, i, deep);
		sum += m == IOR_METRIC_BYTES ? p.bytes : m == IOR_METRIC_DURATION ? p.duration_ns :
		       m == IOR_METRIC_DURATION_TO_PREV ? p.gap_ns : m == IOR_METRIC_DEVICE_TIME ? p.device_ns : 1;
	}
	return sum;
}

/* Sum of the folded values; *other: the "(other)" line's (0: none). Every
 * other line must be one of full's (NULL: not checked). */
static uint64_t check_lines(const char *text, const char *full, uint64_t *other)
{
	uint64_t sum = 0;
	*other = 0;
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n'), *sp = nl ? memrchr(l, ' ', (size_t)(nl - l)) : NULL;
		if (!nl || !sp) {
			T_FAIL("not a folded line: %.80s", l);
			break;
		}
		uint64_t v = strtoull(sp + 1, NULL, 10);
		sum += v;
		if (!strncmp(l, IOR_FLAME_OTHER " ", strlen(IOR_FLAME_OTHER) + 1)) {
			*other = v;
		} else if (full) {
			char *line = strndup(l, (size_t)(nl - l + 1));
			const char *at = strstr(full, line);
			if (!at || (at != full && at[-1] != '\n'))
				T_FAIL("a kept line is not in the unbounded output: %.120s", line);
			free(line);
		}
		l = nl + 1;
	}
	return sum;
}

/* Past any bound, the totals stay exact: the kept stacks carry all their
 * pairs (the same lines as without a bound), "(other)" the rest, counted
 * in pairs; the recording's path and the pair-by-pair one agree. */
TEST(bounded_totals_are_exact)
{
	static const struct bounds cases[] = {
		{ 100, 0, 0 }, { 0, 400, 0 }, { 0, 0, 2048 }, { 1000, 2000, 1 << 20 }, { 1, 1, 1 },
	};
	static const char *metrics[] = { "count", "bytes", "duration", "durationToPrev" };
	for (int deep = 0; deep < 2; deep++) {
		write_recording(deep);
		for (size_t m = 0; m < 4; m++) {
			struct ior_flame_spec spec;
			char err[256];
			CHECK_EQ_INT(ior_flame_spec_parse(&spec, "comm,path,tracepoint,pid", metrics[m], err, sizeof err), 0);
			struct bounds none = { 0, 0, 0 };
			struct ior_flame_tree *ft;
			ior_flame_agg_free(aggregate(&spec, &none, deep, true, &ft));
			char *full = ft ? folded(ft) : NULL;
			uint64_t want = metric_total(spec.metric, deep), other;
			CHECK(full && check_lines(full, NULL, &other) == want && !other);
			for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
				struct ior_flame_tree *t, *u;
				struct ior_flame_agg *a = aggregate(&spec, &cases[c], deep, true, &t);
				struct ior_flame_agg *b = aggregate(&spec, &cases[c], deep, false, &u);
				char *text = t ? folded(t) : NULL, *slow = u ? folded(u) : NULL;
				CHECK(text && full && check_lines(text, full, &other) == want);
				CHECK(other > 0);
				CHECK(ior_flame_agg_other_pairs(a) > 0 && ior_flame_agg_pairs(a) == NPAIRS);
				if (spec.metric == IOR_METRIC_COUNT)
					CHECK(other == ior_flame_agg_other_pairs(a));
				CHECK(!cases[c].keys || ior_flame_agg_keys(a) <= cases[c].keys);
				CHECK(!cases[c].frames || t->nnodes <= cases[c].frames + 2);
				CHECK_EQ_STR(slow, text);
				if (t_cur_failed)
					printf("      %s, %s, case %zu\n", deep ? "deep" : "wide", metrics[m], c);
				free(text);
				free(slow);
				ior_flame_tree_free(t);
				ior_flame_tree_free(u);
				ior_flame_agg_free(a);
				ior_flame_agg_free(b);
				if (t_cur_failed)
					break;
			}
			free(full);
			ior_flame_tree_free(ft);
			if (t_cur_failed)
				return;
		}
	}
}

/* A frame bound keeps the tree within it however deep the paths: every
 * tuple of the deep recording draws 1 + 5 + 1 frames, all but three new. */
TEST(frame_bound_bounds_the_tree)
{
	struct ior_flame_spec spec;
	char err[256];
	CHECK_EQ_INT(ior_flame_spec_parse(&spec, "comm,path,tid", "count", err, sizeof err), 0);
	write_recording(true);
	struct bounds b = { 0, 7 * 100, 0 };
	struct ior_flame_tree *t;
	struct ior_flame_agg *a = aggregate(&spec, &b, true, true, &t);
	CHECK_EQ_INT(ior_flame_agg_keys(a), 100);
	CHECK(t && t->nnodes <= 7 * 100 + 2 && t->nnodes > 4 * 100);
	ior_flame_tree_free(t);
	ior_flame_agg_free(a);
}

/* The bounds ior reads recordings with (flame.h), on a recording with
 * more distinct files than they keep: the tree stays within them. */
TEST(default_bounds)
{
	struct ior_flame_spec spec;
	char err[256];
	struct ior_flame_agg *a;
	struct ior_flame_tree *t = NULL;
	CHECK_EQ_INT(ior_flame_spec_parse(&spec, "path", "count", err, sizeof err), 0);
	CHECK_EQ_INT(ior_flame_agg_new(&a, &spec), 0);
	ior_flame_agg_set_bounds(a);
	char path[64];
	struct ior_event_pair p = { .flags = IOR_FLAGS_UNKNOWN, .comm = "c", .path = path, .path2 = "" };
	for (int i = 0; i < IOR_FLAME_MAX_KEYS + 10; i++) {
		snprintf(path, sizeof path, "/%d", i);
		CHECK_EQ_INT(ior_flame_agg_add(a, &p), 0);
	}
	CHECK_EQ_INT(ior_flame_agg_keys(a), IOR_FLAME_MAX_KEYS);
	CHECK_EQ_INT(ior_flame_agg_other_pairs(a), 10);
	CHECK_EQ_INT(ior_flame_tree_build(a, &t), 0);
	CHECK(t && t->nnodes == IOR_FLAME_MAX_KEYS + 3); /* all, "/", the keys, (other) */
	ior_flame_tree_free(t);
	ior_flame_agg_free(a);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(folded_lines_in_byte_order);
	RUN(bounded_totals_are_exact);
	RUN(frame_bound_bounds_the_tree);
	RUN(default_bounds);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	if (system(cmd))
		return 1;
	return t_done();
}
