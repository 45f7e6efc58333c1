/* SVG output: well-formed XML (xmllint), hostile names rendered as text,
 * narrow frames pruned, the interactive parts present. */
#include "t.h"
#include "flame/flame.h"
#include "syscalls/syscalls.h"

#include <stdlib.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/ior-test-svg-XXXXXX";

static char *svg_of(struct ior_flame_tree *t, const char *name, size_t *len)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	if (!f)
		return NULL;
	CHECK_EQ_INT(ior_flame_write_svg(t, f), 0);
	fclose(f);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "xmllint --noout '%s'", path);
	int rc = system(cmd);
	if (rc == 127 * 256)
		T_FAIL("xmllint not installed (scripts/deps.sh test installs libxml2-utils)");
	else if (rc)
		T_FAIL("xmllint rejects %s", path);
	return t_read_file(path, len);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static struct ior_flame_tree *build(const char *fields, const char *metric,
				    const struct ior_event_pair *p, size_t n)
{
	struct ior_flame_spec spec;
	char err[256];
	struct ior_flame_agg *a;
	struct ior_flame_tree *t = NULL;
	CHECK_EQ_INT(ior_flame_spec_parse(&spec, fields, metric, err, sizeof err), 0);
	CHECK_EQ_INT(ior_flame_agg_new(&a, &spec), 0);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_INT(ior_flame_agg_add(a, &p[i]), 0);
	CHECK_EQ_INT(ior_flame_tree_build(a, &t), 0);
	ior_flame_agg_free(a);
	return t;
}

TEST(hostile_names_render_as_text)
{
	struct ior_event_pair p[] = {
		{ .duration_ns = 10, .comm = "</text><script>alert(1)</script>",
		  .path = "/a&b/\"q'\"/\x01" "ctl/\xff\xfe/<x>/]]>", .path2 = "", .fd = 3 },
		{ .duration_ns = 10, .comm = "x\x1b[31m", .path = "rel\xe2\x80\xa8z", .path2 = "" },
	};
	p[0].sys = p[1].sys = (uint16_t)ior_sys_find("openat");
	struct ior_flame_tree *t = build("comm,path,tracepoint", "count", p, 2);
	t->meta.host = "h<o>st&\"";
	t->meta.first_realtime_ns = 1764672000000000000ull;
	t->meta.last_realtime_ns = 1764672001500000000ull;
	size_t len;
	char *s = svg_of(t, "hostile.svg", &len);
	if (!s)
		return;
	CHECK_EQ_INT(count(s, "<script"), 1);
	CHECK(!strstr(s, "<script>alert"));
	CHECK(strstr(s, "<title>&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;\n"));
	CHECK(strstr(s, "<title>a&amp;b\n"));
	CHECK(strstr(s, "<title>&quot;q&#39;&quot;\n"));
	CHECK(strstr(s, "<title>\\x01ctl\n")); /* the folded notation, XML-escaped after */
	CHECK(strstr(s, "<title>\\xff\\xfe\n"));
	CHECK(strstr(s, "<title>rel\\u2028z\n"));
	CHECK(strstr(s, "<title>x\\x1b[31m\n"));
	CHECK(strstr(s, "<title>]]&gt;\n"));
	CHECK(strstr(s, "host h&lt;o&gt;st&amp;&quot;, 2025-12-02 10:40:00 \xe2\x80\x93 10:40:01 UTC (1.500 s)"));
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 && s[i] != '\n') {
			T_FAIL("control byte 0x%02x at %zu", (unsigned char)s[i], i);
			break;
		}
	CHECK(!strstr(s, "\xe2\x80\xa8"));
	free(s);
	ior_flame_tree_free(t);
}

TEST(interactive_parts_present)
{
	struct ior_event_pair p = { .bytes = 4096, .comm = "cat", .path = "/etc/hosts", .path2 = "" };
	struct ior_flame_tree *t = build("comm,path", "bytes", &p, 1);
	size_t len;
	char *s = svg_of(t, "parts.svg", &len);
	if (!s)
		return;
	CHECK(strstr(s, ">I/O flame graph: comm,path by bytes</text>"));
	CHECK(strstr(s, "id=\"unzoom\"") && strstr(s, ">Reset Zoom<"));
	CHECK(strstr(s, "id=\"search\"") && strstr(s, ">Search<"));
	CHECK(strstr(s, "id=\"matched\""));
	CHECK(strstr(s, "'Matched: '"));
	CHECK(strstr(s, "e.ctrlKey"));
	CHECK(strstr(s, "<title>hosts\n4.0 KiB, 100.00%</title>"));
	CHECK(!strstr(s, "http://") || count(s, "http://") == 1); /* only the xmlns */
	CHECK(!strstr(s, "eval(") && !strstr(s, "innerHTML"));
	free(s);
	ior_flame_tree_free(t);
}

TEST(narrow_frames_are_pruned)
{
	enum { N = 20000 };
	struct ior_event_pair *p = calloc(N + 1, sizeof *p);
	char (*paths)[32] = malloc(N * sizeof *paths);
	for (int i = 0; i < N; i++) {
		snprintf(paths[i], sizeof paths[i], "/small/%d", i);
		p[i] = (struct ior_event_pair){ .duration_ns = 1, .comm = "c", .path = paths[i], .path2 = "" };
	}
	p[N] = (struct ior_event_pair){ .duration_ns = 1000000000, .comm = "c", .path = "/big", .path2 = "" };
	struct ior_flame_tree *t = build("comm,path", "duration", p, N + 1);
	CHECK(t->nnodes > N);
	size_t len;
	char *s = svg_of(t, "pruned.svg", &len);
	if (s) {
		/* all, c, /, big: "small" (20000 ns of 1 s, 0.02 px) and its
		 * leaves are left out */
		CHECK_EQ_INT(count(s, "<g data-"), 4);
		CHECK(!strstr(s, "<title>small\n"));
		CHECK(strstr(s, "<title>big\n"));
	}
	free(s);
	ior_flame_tree_free(t);
	t = build("comm,path", "count", p, 200);
	s = svg_of(t, "kept.svg", &len);
	if (s)
		CHECK_EQ_INT(count(s, "<g data-"), 4 + 200);
	free(s);
	ior_flame_tree_free(t);
	free(p);
	free(paths);
}

TEST(labels_fit_their_frames)
{
	struct ior_event_pair p[2] = {
		{ .duration_ns = 990, .comm = "a", .path = "", .path2 = "" },
		{ .duration_ns = 10, .comm = "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", .path = "", .path2 = "" },
	};
	struct ior_flame_tree *t = build("comm", "duration", p, 2);
	size_t len;
	char *s = svg_of(t, "labels.svg", &len);
	/* 11.8 px wide: too narrow for a label; UTF-8 must not be cut */
	CHECK(s && strstr(s, "<title>\xc3\xa9\xc3\xa9") && !strstr(s, "\">\xc3\xa9"));
	CHECK(s && strstr(s, "\">a</text>"));
	free(s);
	ior_flame_tree_free(t);

	/* 590 px: 82 characters fit, so 80 of the 200 plus ".." */
	char longname[401];
	for (int i = 0; i < 200; i++)
		memcpy(longname + 2 * i, "\xc3\xa9", 2);
	longname[400] = 0;
	p[0].duration_ns = p[1].duration_ns = 5;
	p[1].comm = longname;
	t = build("comm", "duration", p, 2);
	s = svg_of(t, "labels2.svg", &len);
	char want[200] = "\">";
	for (int i = 0; i < 80; i++)
		strcat(want, "\xc3\xa9");
	strcat(want, "..</text>");
	CHECK(s && strstr(s, want));
	free(s);
	ior_flame_tree_free(t);
}

TEST(empty_graph_is_valid)
{
	struct ior_event_pair p = { .comm = "c", .path = "/x", .path2 = "" };
	struct ior_flame_tree *t = build("comm", "bytes", &p, 1);
	size_t len;
	char *s = svg_of(t, "empty.svg", &len);
	CHECK(s && strstr(s, "no data"));
	free(s);
	ior_flame_tree_free(t);
}

/* A frame's tooltip: the device time of the pairs under it and its
 * share of their time, whatever the metric; none without device time. */
TEST(device_share_in_tooltips)
{
	struct ior_event_pair p[] = {
		{ .duration_ns = 10000000, .device_ns = 4000000, .blk_requests = 1, .comm = "dd", .path = "/d/a<",
		  .path2 = "" },
		{ .duration_ns = 5000000, .comm = "dd", .path = "/d/b", .path2 = "" },
		{ .duration_ns = 2000000, .comm = "cat", .path = "/d/b", .path2 = "" },
	};
	for (int i = 0; i < 3; i++)
		p[i].sys = (uint16_t)ior_sys_find("pread64");
	struct ior_flame_tree *t = build("comm,path", "count", p, 3);
	size_t len;
	char *s = svg_of(t, "device.svg", &len);
	if (!s)
		return;
	CHECK(strstr(s, "<title>all\n3 calls, 100.00%; device 4.000 ms (23.5% of its 17.000 ms)</title>"));
	CHECK(strstr(s, "<title>dd\n2 calls, 66.67%; device 4.000 ms (26.7% of its 15.000 ms)</title>"));
	CHECK(strstr(s, "<title>a&lt;\n1 call, 33.33%; device 4.000 ms (40.0% of its 10.000 ms)</title>"));
	CHECK(strstr(s, "<title>b\n1 call, 33.33%</title>")); /* dd's /d/b and cat's: no device time */
	CHECK(strstr(s, "<title>cat\n1 call, 33.33%</title>"));
	CHECK_EQ_INT(count(s, "; device "), 5); /* all, dd, and dd's /, d, a< */
	free(s);
	ior_flame_tree_free(t);
	t = build("comm", "devicetime", p, 3);
	s = svg_of(t, "device-metric.svg", &len);
	if (s)
		CHECK(strstr(s, "<title>dd\n4.000 ms, 100.00%; device 4.000 ms (26.7% of its 15.000 ms)</title>"));
	free(s);
	ior_flame_tree_free(t);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(hostile_names_render_as_text);
	RUN(interactive_parts_present);
	RUN(narrow_frames_are_pruned);
	RUN(labels_fit_their_frames);
	RUN(empty_graph_is_valid);
	RUN(device_share_in_tooltips);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	if (system(cmd))
		return 1;
	return t_done();
}
