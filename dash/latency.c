/* The Latency tab: histograms of durationNs and durationToPrevNs of what
 * was selected last in the Syscalls, Files or Processes tab. A syscall's
 * come from the statistics; a file's, a directory group's, a process's or
 * a thread's are kept here, for one target at a time, fed from the
 * moment it is selected (after the Stream tab's ring, live; the whole
 * recording again, on a recording). */
#include "dash_int.h"

#include <stdio.h>
#include <string.h>

static int own_kind(enum lat_kind k)
{
	return k == LAT_FILE || k == LAT_DIR || k == LAT_PID || k == LAT_TID;
}

static int same_target(const struct lat_target *a, const struct lat_target *b)
{
	return a->kind == b->kind && a->key == b->key && !strcmp(a->name, b->name);
}

static int target_has(const struct lat_target *t, uint32_t pid, uint32_t tid, const char *path)
{
	switch (t->kind) {
	case LAT_FILE: return !strcmp(path, t->name);
	case LAT_DIR: return !strncmp(path, t->name, strlen(t->name));
	case LAT_PID: return pid == t->key;
	case LAT_TID: return tid == t->key;
	default: return 0;
	}
}

static void count(struct ior_dash *d, uint64_t dur, uint64_t gap)
{
	ior_hist_add(&d->lat_h, dur, 1); /* out of memory: the bar is short, no more */
	if (gap)
		ior_hist_add(&d->gap_h, gap, 1);
}

void ior_dash_lat_add(struct ior_dash *d, const struct ior_event_pair *p)
{
	if (!own_kind(d->lat_have.kind) || p->summary || (d->pick_pid >= 0 && p->pid != (uint64_t)d->pick_pid))
		return;
	if (target_has(&d->lat_have, p->pid, p->tid, p->path ? p->path : ""))
		count(d, p->duration_ns, p->gap_ns);
}

static void replay_add(void *ctx, const struct ior_event_pair *p)
{
	ior_dash_lat_add(ctx, p);
}

/* Live: what the Stream's ring still holds of the target. */
static void seed_from_ring(struct ior_dash *d)
{
	d->lat_seeded = 0;
	for (size_t i = 0; i < d->count; i++) {
		const struct stream_entry *e = ior_dash_stream_at(d, i);
		if ((d->pick_pid < 0 || e->pid == (uint64_t)d->pick_pid) && target_has(&d->lat_have, e->pid, e->tid, e->path)) {
			count(d, e->duration_ns, e->gap_ns);
			d->lat_seeded++;
		}
	}
}

/* The histograms of the wanted target, when it is not the one held. */
static void refresh(struct ior_dash *d)
{
	if (same_target(&d->lat_want, &d->lat_have) && d->lat_have.kind != (enum lat_kind)-1)
		return;
	d->lat_have = d->lat_want;
	ior_hist_clear(&d->lat_h);
	ior_hist_clear(&d->gap_h);
	d->lat_since_ns = 0;
	if (!own_kind(d->lat_have.kind))
		return;
	if (d->replay) {
		d->replay(d->replay_ctx, replay_add, d);
		return;
	}
	d->lat_since_ns = d->now_ns ? d->now_ns : 1;
	seed_from_ring(d);
}

void ior_dash_lat_free(struct ior_dash *d)
{
	ior_hist_free(&d->lat_h);
	ior_hist_free(&d->gap_h);
}

/* "1µs" for a power of two of ns: the histograms' bucket edges. */
static const char *edge(const struct ior_dash *d, char *buf, size_t len, int e)
{
	return ior_dash_ns(d, buf, len, e <= 0 ? 0 : e >= 64 ? UINT64_MAX : (uint64_t)1 << (e - 1));
}

void ior_dash_draw_hist(struct ior_dash *d, struct ior_tui_screen *s, int top, int col, int width, int height,
			const struct ior_hist *h, const char *title, const char *what)
{
	uint64_t c[65], max = 0;
	int first = -1, last = -1, row = top + 2;
	char a[32], b[32], p50[32], p99[32];

	ior_tui_put(s, top, col, width - 1, IOR_DASH_HEAD, title);
	if (!h || !h->count) {
		ior_tui_putf(s, top + 1, col, width - 1, IOR_DASH_PLAIN, 0, "no %s", what);
		return;
	}
	ior_tui_putf(s, top + 1, col, width - 1, IOR_DASH_PLAIN, 0, "%llu %s, p50 %s, p99 %s", (unsigned long long)h->count, what,
		     ior_dash_ns(d, p50, sizeof p50, ior_hist_percentile(h, 50)), ior_dash_ns(d, p99, sizeof p99, ior_hist_percentile(h, 99)));
	ior_hist_log2(h, c);
	for (int i = 0; i < 65; i++)
		if (c[i]) {
			first = first < 0 ? i : first;
			last = i;
			max = c[i] > max ? c[i] : max;
		}
	for (int i = first; i <= last && row < top + height; i++, row++) {
		ior_tui_putf(s, row, col, 18, IOR_DASH_PLAIN, 0, "%7s-%-7s", edge(d, a, sizeof a, i), edge(d, b, sizeof b, i + 1));
		ior_tui_putf(s, row, col + 17, 10, IOR_DASH_PLAIN, IOR_TUI_RIGHT, "%llu", (unsigned long long)c[i]);
		ior_tui_bar(s, row, col + 28, width - 29, IOR_DASH_PLAIN, (double)c[i] / (double)max);
	}
}

/* "read", "file /tmp/x", "pid 42": what the histograms are of. */
static void target_name(const struct lat_target *t, char *buf, size_t len)
{
	switch (t->kind) {
	case LAT_SYSCALL: snprintf(buf, len, "%s", ior_dash_syscall_name((unsigned)t->key)); break;
	case LAT_FILE: snprintf(buf, len, "file %s", t->name); break;
	case LAT_DIR: snprintf(buf, len, "directory %s", t->name); break;
	case LAT_PID: snprintf(buf, len, "pid %llu", (unsigned long long)t->key); break;
	case LAT_TID: snprintf(buf, len, "tid %llu", (unsigned long long)t->key); break;
	default: snprintf(buf, len, "all syscalls"); break;
	}
}

static void draw_note(struct ior_dash *d, struct ior_tui_screen *s, int row)
{
	char since[32];

	if (!own_kind(d->lat_have.kind) || !d->lat_since_ns) {
		ior_tui_put(s, row, 0, s->cols, IOR_DASH_BOLD, "(select a syscall, file or process in tabs 2, 3, 4)");
		return;
	}
	ior_dash_ns(d, since, sizeof since, d->now_ns > d->lat_since_ns ? d->now_ns - d->lat_since_ns : 0);
	ior_tui_putf(s, row, 0, s->cols, IOR_DASH_BOLD, 0, "(live: %zu pairs of the Stream's ring, then every pair of the last %s)",
		     d->lat_seeded, since);
}

void ior_dash_draw_latency(struct ior_dash *d, struct ior_tui_screen *s, int top, int height)
{
	int wide = s->cols >= 100, w = wide ? s->cols / 2 : s->cols, h2 = wide ? height - 1 : (height - 1) / 2;
	int sys = d->lat_want.kind == LAT_SYSCALL ? (int)d->lat_want.key : -1;
	const struct ior_hist *lat, *gap;
	char which[NAME_MAX_BYTES + 32], t1[NAME_MAX_BYTES + 64], t2[NAME_MAX_BYTES + 64];

	refresh(d);
	lat = own_kind(d->lat_have.kind) ? &d->lat_h : ior_stats_latency(d->stats, sys);
	gap = own_kind(d->lat_have.kind) ? &d->gap_h : ior_stats_gaps(d->stats, sys);
	target_name(&d->lat_have, which, sizeof which);
	draw_note(d, s, top);
	snprintf(t1, sizeof t1, "durationNs of %s", which);
	snprintf(t2, sizeof t2, "durationToPrevNs of %s", which);
	ior_dash_draw_hist(d, s, top + 1, 0, w, h2, lat, t1, "pairs");
	if (wide)
		ior_dash_draw_hist(d, s, top + 1, w, s->cols - w, h2, gap, t2, "pairs");
	else
		ior_dash_draw_hist(d, s, top + 1 + h2, 0, w, height - 1 - h2, gap, t2, "pairs");
}
