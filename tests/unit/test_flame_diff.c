/* Differential trees: BASE merged into NEW frame by frame, BASE scaled by
 * the normalization; the folded diff ("stack base new") and the SVG. */
#include "t.h"
#include "flame/diff.h"
#include "flame/flame.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <stdlib.h>

#define SEC 1000000000ull

struct want {
	const char *comm, *sys, *path;
	unsigned n;
};

/* n pairs each, spread evenly over span_s seconds (the span is exact:
 * first enter at 1 s, last exit at 1 s + span; 0: one instant). */
static struct ior_flame_tree *tree_of(const struct want *w, unsigned nw, unsigned span_s, const char *metric)
{
	struct ior_flame_spec spec;
	struct ior_flame_agg *a = NULL;
	struct ior_flame_tree *t = NULL;
	char err[256];
	unsigned total = 0, k = 0;

	for (unsigned i = 0; i < nw; i++)
		total += w[i].n;
	CHECK_EQ_INT(ior_flame_spec_parse(&spec, "comm,tracepoint,path", metric, err, sizeof err), 0);
	CHECK_EQ_INT(ior_flame_agg_new(&a, &spec), 0);
	for (unsigned i = 0; i < nw; i++)
		for (unsigned j = 0; j < w[i].n; j++, k++) {
			struct ior_event_pair p = { .duration_ns = span_s ? 1000 : 0, .flags = IOR_FLAGS_UNKNOWN, .pid = 1, .tid = 1,
						    .fd = 3, .comm = w[i].comm, .path = w[i].path, .path2 = "" };
			p.sys = (uint16_t)ior_syscall_index(ior_syscall_by_name(w[i].sys));
			p.enter_ns = SEC + (total > 1 && span_s ? (uint64_t)k * (span_s * SEC - 1000) / (total - 1) : 0);
			CHECK_EQ_INT(ior_flame_agg_add(a, &p), 0);
		}
	CHECK_EQ_INT(ior_flame_tree_build(a, &t), 0);
	ior_flame_agg_free(a);
	return t;
}

static char *folded(const struct ior_flame_tree *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK_EQ_INT(ior_flame_write_folded(t, f), 0);
	fclose(f);
	return buf;
}

static const struct want base_w[] = { { "db", "read", "/data/x", 10 }, { "db", "read", "/data/z", 3 } };
static const struct want new_w[] = { { "db", "read", "/data/x", 20 }, { "db", "write", "/data/y", 5 } };

static struct ior_flame_tree *diff_of(const char *metric, enum ior_norm norm, unsigned base_s,
				      unsigned new_s, char *err, int *rc)
{
	struct ior_flame_tree *a = tree_of(base_w, 2, base_s, metric), *b = tree_of(new_w, 2, new_s, metric), *d = NULL;

	*rc = ior_flame_diff(a, b, norm, "base.ior.zst", "new.ior.zst", &d, err, 256);
	ior_flame_tree_free(a);
	ior_flame_tree_free(b);
	return d;
}

/* The same rate in a 10 s and a 20 s recording shows no change. */
TEST(rate_compares_spans)
{
	char err[256];
	int rc;
	struct ior_flame_tree *d = diff_of("count", IOR_NORM_RATE, 10, 20, err, &rc);
	CHECK_EQ_INT(rc, 0);
	if (!d)
		return;
	char *f = folded(d);
	CHECK_EQ_STR(f, "db;read;/;data;x 20 20\n"
			"db;read;/;data;z 6 0\n"
			"db;write;/;data;y 0 5\n");
	CHECK(d->diff && d->diff->factor == 2.0 && d->diff->norm == IOR_NORM_RATE);
	CHECK_EQ_INT(d->nodes[0].value, 25);
	CHECK_EQ_INT(d->base[0].value, 26);
	CHECK_EQ_STR(d->diff->base_name, "base.ior.zst");
	free(f);
	ior_flame_tree_free(d);
}

TEST(total_and_share)
{
	char err[256];
	int rc;
	struct ior_flame_tree *d = diff_of("count", IOR_NORM_TOTAL, 10, 20, err, &rc);
	char *f = d ? folded(d) : NULL;
	CHECK_EQ_STR(f, "db;read;/;data;x 10 20\n"
			"db;read;/;data;z 3 0\n"
			"db;write;/;data;y 0 5\n");
	free(f);
	ior_flame_tree_free(d);
	/* shares: BASE's 13 scaled to NEW's 25 */
	d = diff_of("count", IOR_NORM_SHARE, 10, 20, err, &rc);
	f = d ? folded(d) : NULL;
	CHECK_EQ_STR(f, "db;read;/;data;x 19 20\n"
			"db;read;/;data;z 6 0\n"
			"db;write;/;data;y 0 5\n");
	free(f);
	ior_flame_tree_free(d);
}

TEST(nothing_to_compare_is_said)
{
	char err[256];
	static const struct want one[] = { { "db", "read", "/x", 1 } };
	struct ior_flame_tree *a = tree_of(one, 1, 0, "count"), *b = tree_of(new_w, 2, 5, "count"), *d = NULL;

	CHECK_EQ_INT(ior_flame_diff(a, b, IOR_NORM_RATE, "a", "b", &d, err, sizeof err), -EINVAL);
	CHECK(!d && strstr(err, "BASE spans 0 s") && strstr(err, "-normalize=total"));
	ior_flame_tree_free(a);
	/* bytes of reads are 0: no shares */
	a = tree_of(base_w, 2, 10, "bytes");
	struct ior_flame_tree *c = tree_of(new_w, 2, 10, "bytes");
	CHECK_EQ_INT(ior_flame_diff(a, c, IOR_NORM_SHARE, "a", "b", &d, err, sizeof err), -EINVAL);
	CHECK(strstr(err, "weighs 0 by bytes"));
	CHECK_EQ_INT(ior_flame_diff(a, c, IOR_NORM_TOTAL, "a", "b", &d, err, sizeof err), 0);
	ior_flame_tree_free(d);
	ior_flame_tree_free(a);
	ior_flame_tree_free(b);
	ior_flame_tree_free(c);
}

/* Nothing in common: every BASE frame gone, every NEW frame new. */
TEST(disjoint)
{
	static const struct want other[] = { { "web", "openat", "/etc/passwd", 4 } };
	struct ior_flame_tree *a = tree_of(other, 1, 10, "count"), *b = tree_of(new_w, 2, 10, "count"), *d = NULL;
	char err[256];

	CHECK_EQ_INT(ior_flame_diff(a, b, IOR_NORM_RATE, "a", "b", &d, err, sizeof err), 0);
	char *f = d ? folded(d) : NULL;
	CHECK_EQ_STR(f, "db;read;/;data;x 0 20\n"
			"db;write;/;data;y 0 5\n"
			"web;openat;/;etc;passwd 4 0\n");
	free(f);
	ior_flame_tree_free(a);
	ior_flame_tree_free(b);
	ior_flame_tree_free(d);
}

static char *svg_of(const struct ior_flame_tree *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK_EQ_INT(ior_flame_write_svg(t, f), 0);
	fclose(f);
	return buf;
}

TEST(svg_says_which_is_which)
{
	char err[256];
	int rc;
	struct ior_flame_tree *d = diff_of("count", IOR_NORM_RATE, 10, 20, err, &rc);
	char *s = d ? svg_of(d) : NULL;

	CHECK(s && strstr(s, "I/O differential flame graph: comm,tracepoint,path by count"));
	CHECK(s && strstr(s, "BASE base.ior.zst \xe2\x86\x92 NEW new.ior.zst"));
	CHECK(s && strstr(s, "-normalize=rate"));
	/* x: unchanged (pale), y: new (purple), z: gone (listed) */
	CHECK(s && strstr(s, "x</title>") == NULL);
	CHECK(s && strstr(s, "x\n20 calls, 80.00%; base 20 calls, +0 calls (+0.0%)</title>"));
	CHECK(s && strstr(s, "y\n5 calls, 20.00%; base 0: new in NEW (+5 calls)</title>"));
	CHECK(s && strstr(s, "fill=\"rgb(170,85,220)\""));
	CHECK(s && strstr(s, "gone (only in BASE): db;read;/;data;z \xe2\x80\x94 6 calls"));
	free(s);
	ior_flame_tree_free(d);
}

TEST(svg_escapes_hostile_names)
{
	static const struct want evil[] = { { "<script>", "read", "/a&b\"'", 2 } };
	struct ior_flame_tree *a = tree_of(base_w, 2, 10, "count"), *b = tree_of(evil, 1, 10, "count"), *d = NULL;
	char err[256];

	CHECK_EQ_INT(ior_flame_diff(a, b, IOR_NORM_TOTAL, "<b>.ior.zst", "n\x1b[31m.ior.zst", &d, err, sizeof err), 0);
	char *s = d ? svg_of(d) : NULL;
	CHECK(s && !strstr(s, "<script>") && !strstr(s, "<b>") && !strstr(s, "\x1b"));
	CHECK(s && strstr(s, "&lt;script&gt;") && strstr(s, "&lt;b&gt;.ior.zst") && strstr(s, "n\\x1b[31m.ior.zst"));
	free(s);
	ior_flame_tree_free(a);
	ior_flame_tree_free(b);
	ior_flame_tree_free(d);
}

TEST(normalize_names)
{
	enum ior_norm n;

	CHECK(!ior_norm_parse("share", &n) && n == IOR_NORM_SHARE);
	CHECK(ior_norm_parse("Rate", &n) < 0);
	CHECK_EQ_STR(ior_norm_name(IOR_NORM_TOTAL), "total");
	CHECK(ior_flame_diff_pct(0, 0) == 0.0 && ior_flame_diff_pct(0, 3) == 100.0 && ior_flame_diff_pct(4, 2) == -50.0);
}

int main(void)
{
	RUN(rate_compares_spans);
	RUN(total_and_share);
	RUN(nothing_to_compare_is_said);
	RUN(disjoint);
	RUN(svg_says_which_is_which);
	RUN(svg_escapes_hostile_names);
	RUN(normalize_names);
	return t_done();
}
