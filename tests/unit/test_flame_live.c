/* The live flamegraph of ior -live: renders on the first tick, then at most
 * once per interval and only when pairs arrived; the SVG shows the
 * aggregate (titles with exact counts), the host and the bounds. */
#include "t.h"
#include "flame/live.h"
#include "syscalls/syscalls.h"

#include <stdlib.h>

#define SEC 1000000000ull

static struct ior_event_pair pair_of(const char *sys, const char *path)
{
	struct ior_event_pair p = { .enter_ns = 5 * SEC, .duration_ns = 1000, .flags = IOR_FLAGS_UNKNOWN,
				    .pid = 7, .tid = 7, .fd = 3, .comm = "wl", .path = path, .path2 = "" };
	p.sys = (uint16_t)ior_sys_find(sys);
	return p;
}

static struct ior_flame_live *live_of(const char *fields, uint32_t max_keys)
{
	struct ior_flame_live_cfg cfg = { .host = "h<1>", .interval_ns = 2 * SEC, .max_keys = max_keys,
					  .realtime_offset_ns = 1764672000 * (int64_t)SEC };
	char err[256];
	struct ior_flame_live *l = NULL;
	CHECK_EQ_INT(ior_flame_spec_parse(&cfg.spec, fields, "count", err, sizeof err), 0);
	CHECK_EQ_INT(ior_flame_live_new(&l, &cfg), 0);
	return l;
}

static const char *svg(const struct ior_flame_live *l)
{
	size_t len;
	const char *s = ior_flame_live_svg(l, &len);
	return s && strlen(s) == len ? s : NULL;
}

TEST(first_tick_renders_empty)
{
	struct ior_flame_live *l = live_of("tracepoint", 0);
	if (!l)
		return;
	size_t len;
	CHECK(ior_flame_live_svg(l, &len) == NULL && len == 0);
	CHECK_EQ_INT(ior_flame_live_tick(l, 100 * SEC), 1);
	CHECK(svg(l) && strstr(svg(l), "no data: no syscall pairs"));
	CHECK(svg(l) && strstr(svg(l), "host h&lt;1&gt;"));
	/* nothing new: no render, even long after */
	CHECK_EQ_INT(ior_flame_live_tick(l, 1000 * SEC), 0);
	ior_flame_live_free(l);
}

TEST(renders_at_most_once_per_interval_when_changed)
{
	struct ior_flame_live *l = live_of("tracepoint", 0);
	if (!l)
		return;
	struct ior_event_pair o = pair_of("openat", "/d/f"), r = pair_of("read", "/d/f");
	CHECK_EQ_INT(ior_flame_live_tick(l, 100 * SEC), 1);
	CHECK_EQ_INT(ior_flame_live_add(l, &o), 0);
	CHECK_EQ_INT(ior_flame_live_tick(l, 101 * SEC), 0); /* within the interval */
	CHECK_EQ_INT(ior_flame_live_tick(l, 102 * SEC), 1);
	CHECK(svg(l) && strstr(svg(l), "<title>openat\n1 call, 100.00%</title>"));
	for (int i = 0; i < 21; i++)
		CHECK_EQ_INT(ior_flame_live_add(l, &r), 0);
	CHECK_EQ_INT(ior_flame_live_add(l, &o), 0);
	CHECK_EQ_INT(ior_flame_live_tick(l, 102 * SEC + SEC), 0);
	CHECK(svg(l) && !strstr(svg(l), "<title>read\n"));
	CHECK_EQ_INT(ior_flame_live_tick(l, 104 * SEC), 1);
	CHECK(svg(l) && strstr(svg(l), "<title>openat\n2 calls, "));
	CHECK(svg(l) && strstr(svg(l), "<title>read\n21 calls, "));
	CHECK(svg(l) && strstr(svg(l), "2025-12-02 10:40:05"));
	CHECK_EQ_INT(ior_flame_live_tick(l, 200 * SEC), 0); /* no new pairs */
	ior_flame_live_free(l);
}

TEST(bounded_by_other_frame)
{
	struct ior_flame_live *l = live_of("path", 3);
	if (!l)
		return;
	char path[32];
	for (int i = 0; i < 100; i++) {
		snprintf(path, sizeof path, "/f%d", i);
		struct ior_event_pair p = pair_of("openat", path);
		CHECK_EQ_INT(ior_flame_live_add(l, &p), 0);
	}
	const struct ior_flame_agg *a = ior_flame_live_agg(l);
	CHECK_EQ_INT(ior_flame_agg_keys(a), 3);
	CHECK_EQ_INT(ior_flame_agg_other_pairs(a), 97);
	CHECK_EQ_INT(ior_flame_live_tick(l, SEC), 1);
	CHECK(svg(l) && strstr(svg(l), "<title>(other)\n97 calls, 97.00%</title>"));
	ior_flame_live_free(l);
}

/* The sink counts what it is given, as ior_flame_live_add does. */
TEST(sink_adds_every_pair)
{
	struct ior_flame_live *l = live_of("tracepoint", 0);
	struct ior_sink k = ior_flame_live_sink(l);
	struct ior_event_pair p = pair_of("read", "/a");

	CHECK(k.pair && !k.tick && k.ctx == l);
	for (int i = 0; i < 5; i++)
		k.pair(k.ctx, &p);
	CHECK_EQ_INT(ior_flame_agg_pairs(ior_flame_live_agg(l)), 5);
	CHECK_EQ_INT(ior_flame_live_failed(l), 0);
	ior_flame_live_free(l);
}

int main(void)
{
	RUN(sink_adds_every_pair);
	RUN(first_tick_renders_empty);
	RUN(renders_at_most_once_per_interval_when_changed);
	RUN(bounded_by_other_frame);
	return t_done();
}
