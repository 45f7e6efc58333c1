/* The dashboard's model: tabs, keys, the Stream tab's ring. Drawing is
 * draw.c. */
#include "dash_int.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int alloc_buffers(struct ior_dash *d)
{
	d->rows = calloc(MAX_ROWS + 1, sizeof *d->rows);
	d->flight = calloc(MAX_IN_FLIGHT, sizeof *d->flight);
	d->ring = calloc(d->cap, sizeof *d->ring);
	d->arena = malloc(ARENA_BYTES);
	d->groups = calloc(MAX_ROWS + 1, sizeof *d->groups);
	d->slots = calloc(GROUP_SLOTS, sizeof *d->slots);
	d->shown = calloc(d->cap, sizeof *d->shown);
	d->pick_rows = calloc(PICK_ROWS, sizeof *d->pick_rows);
	d->devs = calloc(IOR_DEV_MAX_ROWS, sizeof *d->devs);
	return d->rows && d->flight && d->ring && d->arena && d->groups && d->slots && d->shown && d->pick_rows &&
	       d->devs;
}

int ior_dash_new(struct ior_dash **out, const struct ior_dash_cfg *cfg)
{
	struct ior_dash *d;

	*out = NULL;
	if (!cfg || !cfg->stats)
		return -EINVAL;
	if (!(d = calloc(1, sizeof *d)))
		return -ENOMEM;
	d->cap = cfg->stream_pairs ? cfg->stream_pairs : IOR_DASH_STREAM_PAIRS;
	ior_hist_init(&d->lat_h);
	ior_hist_init(&d->gap_h);
	d->pick_pid = -1;
	d->stats = d->all = cfg->stats;
	d->in_flight = cfg->in_flight;
	d->ctx = cfg->ctx;
	d->replay = cfg->replay;
	d->replay_ctx = cfg->replay_ctx;
	d->dev_name = cfg->dev_name;
	d->dev_ctx = cfg->dev_ctx;
	if (!alloc_buffers(d) || ior_dash_flame_init(d) < 0 || ior_dash_base_new(d, cfg) < 0) {
		ior_dash_free(d);
		return -ENOMEM;
	}
	snprintf(d->title, sizeof d->title, "%s", cfg->title ? cfg->title : "");
	snprintf(d->prefix, sizeof d->prefix, "/");
	d->stream_col = 1;
	d->follow = 1;
	ior_dash_views_init(d);
	ior_dash_devices_init(d);
	*out = d;
	return 0;
}

void ior_dash_free(struct ior_dash *d)
{
	if (!d)
		return;
	ior_dash_base_free(d);
	free(d->rows);
	free(d->flight);
	if (d->have_re)
		regfree(&d->re);
	free(d->ring);
	free(d->arena);
	free(d->groups);
	free(d->slots);
	free(d->shown);
	free(d->pick_rows);
	free(d->devs);
	ior_stats_free(d->pick_stats);
	ior_dash_lat_free(d);
	ior_dash_flame_free(d);
	ior_dash_mounts_free(d);
	free(d);
}

/* snprintf's "%s" costs more than the rest of a pair's stay here. */
static void copy(char *dst, size_t cap, const char *src)
{
	size_t n = src ? strnlen(src, cap - 1) : 0;

	memcpy(dst, src ? src : "", n);
	dst[n] = 0;
}

void ior_dash_add(struct ior_dash *d, const struct ior_event_pair *p)
{
	struct stream_entry *e;

	ior_dash_flame_add(d, p);
	ior_dash_pick_add(d, p);
	ior_dash_lat_add(d, p);
	if (p->summary)
		return;
	if (!d->first_ns || p->enter_ns < d->first_ns)
		d->first_ns = p->enter_ns;
	if (d->paused) {
		d->missed++;
		return;
	}
	e = &d->ring[d->head];
	e->enter_ns = p->enter_ns, e->duration_ns = p->duration_ns, e->gap_ns = p->gap_ns, e->bytes = p->bytes;
	e->ret = p->ret, e->pid = p->pid, e->tid = p->tid, e->fd = p->fd, e->sys = p->sys;
	if (!p->comm_id || p->comm_id != e->comm_id)
		copy(e->comm, sizeof e->comm, p->comm);
	if (!p->path_id || p->path_id != e->path_id)
		copy(e->path, sizeof e->path, p->path);
	e->comm_id = p->comm_id, e->path_id = p->path_id;
	d->head = (d->head + 1) % d->cap;
	if (d->count < d->cap)
		d->count++;
}

size_t ior_dash_ring_replay(struct ior_dash *d, void (*add)(void *ctx, const struct ior_event_pair *p), void *ctx)
{
	size_t n = 0;

	for (size_t i = 0; i < d->count; i++) {
		const struct stream_entry *e = ior_dash_stream_at(d, i);
		if (strlen(e->path) >= STREAM_PATH - 1)
			continue;
		struct ior_event_pair p = { .enter_ns = e->enter_ns, .duration_ns = e->duration_ns, .gap_ns = e->gap_ns,
					    .ret = e->ret, .bytes = e->bytes, .flags = IOR_FLAGS_UNKNOWN, .pid = e->pid,
					    .tid = e->tid, .fd = e->fd, .sys = e->sys, .comm = e->comm, .path = e->path,
					    .path2 = "" };
		add(ctx, &p);
		n++;
	}
	return n;
}

const struct stream_entry *ior_dash_stream_at(const struct ior_dash *d, size_t i)
{
	if (i >= d->count)
		return NULL;
	return &d->ring[(d->head + d->cap - d->count + i) % d->cap];
}

static void sink_pair(void *ctx, const struct ior_event_pair *p)
{
	ior_dash_add(ctx, p);
}

struct ior_sink ior_dash_sink(struct ior_dash *d)
{
	return (struct ior_sink){ sink_pair, NULL, d, NULL };
}

void ior_dash_set_losses(struct ior_dash *d, const struct ior_dash_losses *l)
{
	d->losses = *l;
}

void ior_dash_set_state(struct ior_dash *d, const char *state)
{
	snprintf(d->state, sizeof d->state, "%s", state ? state : "");
}

void ior_dash_set_message(struct ior_dash *d, const char *msg)
{
	snprintf(d->message, sizeof d->message, "%s", msg ? msg : "");
}

void ior_dash_set_recording(struct ior_dash *d, const char *file, uint64_t pairs)
{
	snprintf(d->rec_file, sizeof d->rec_file, "%s", file ? file : "");
	d->rec_pairs = pairs;
}

int64_t ior_dash_picked(const struct ior_dash *d)
{
	return d->pick_pid;
}

void ior_dash_set_now(struct ior_dash *d, uint64_t now_ns)
{
	d->now_ns = now_ns;
}

enum ior_dash_tab ior_dash_tab(const struct ior_dash *d)
{
	return d->tab;
}

void ior_dash_set_tab(struct ior_dash *d, enum ior_dash_tab tab)
{
	if ((unsigned)tab < IOR_DASH_NTABS)
		d->tab = tab;
}

static struct dash_view *sorted_view(struct ior_dash *d)
{
	if (d->tab == IOR_DASH_SYSCALLS || d->tab == IOR_DASH_FILES || d->tab == IOR_DASH_PROCESSES)
		return &d->views[d->tab];
	return NULL;
}

static struct ior_tui_table *current_table(struct ior_dash *d)
{
	struct dash_view *v = sorted_view(d);

	if (v)
		return &v->table;
	if (d->tab == IOR_DASH_IN_FLIGHT)
		return &d->flight_table;
	if (d->tab == IOR_DASH_DEVICES)
		return &d->dev_table;
	return NULL;
}

/* < > R d t: the sorted tables' own keys. 1 when k was one. */
static int view_key(struct ior_dash *d, const struct ior_tui_key *k)
{
	struct dash_view *v = sorted_view(d);

	if (!v)
		return 0;
	if (k->code == '<' || k->code == '>') {
		v->sort = (v->sort + (k->code == '<' ? v->ncols - 1 : 1)) % v->ncols;
		return 1;
	}
	if (k->code == 'R') {
		v->ascending = !v->ascending;
		return 1;
	}
	if (k->code == 'd' && d->tab == IOR_DASH_FILES) {
		d->dirs = (d->dirs + 1) % (d->nmounts ? 3 : 2);
		snprintf(d->prefix, sizeof d->prefix, "/");
		v->table.selected = v->table.top = 0;
		return 1;
	}
	if (d->tab == IOR_DASH_FILES && d->dirs && ior_dash_dirs_key(d, k))
		return 1;
	if (k->code == 't' && d->tab == IOR_DASH_PROCESSES) {
		d->threads = !d->threads;
		ior_dash_views_init(d);
		return 1;
	}
	return 0;
}

static int tab_key(struct ior_dash *d, const struct ior_tui_key *k)
{
	enum ior_dash_tab to;

	if (k->code >= '1' && k->code < '1' + IOR_DASH_NTABS)
		to = (enum ior_dash_tab)(k->code - '1');
	else if (k->code == IOR_TUI_KEY_TAB)
		to = (enum ior_dash_tab)((d->tab + 1) % IOR_DASH_NTABS);
	else if (k->code == IOR_TUI_KEY_BACKTAB)
		to = (enum ior_dash_tab)((d->tab + IOR_DASH_NTABS - 1) % IOR_DASH_NTABS);
	else
		return 0;
	if (to == IOR_DASH_LATENCY) /* keys typed ahead of the frames */
		ior_dash_want_latency(d);
	d->tab = to;
	d->help = 0;
	return 1;
}

/* r: recording is the caller's while tracing; a recording is one already. */
static int record_key(struct ior_dash *d)
{
	if (d->in_flight)
		return IOR_DASH_RECORD;
	snprintf(d->message, sizeof d->message,
		 "r: recording is not available here: this is a recording (replay it with ior -ior=FILE)");
	return 0;
}

/* D: the flight recorder's, when there is one. */
static int dump_key(struct ior_dash *d)
{
	if (d->in_flight && d->recorder[0])
		return IOR_DASH_DUMP;
	snprintf(d->message, sizeof d->message, "D: no flight recorder here (trace with -recorder DURATION -tui)");
	return 0;
}

void ior_dash_set_recorder(struct ior_dash *d, const char *state)
{
	snprintf(d->recorder, sizeof d->recorder, "%s", state ? state : "");
}

int ior_dash_key(struct ior_dash *d, const struct ior_tui_key *k)
{
	struct ior_tui_table *t;

	if (k->code == 'c' && k->mods == IOR_TUI_MOD_CTRL)
		return IOR_DASH_QUIT;
	if (d->editing) {
		ior_dash_search_key(d, k);
		return 0;
	}
	if (d->picking)
		return ior_dash_picker_key(d, k), 0;
	if (k->code == 'q')
		return IOR_DASH_QUIT;
	if (k->code == '?' || (k->code == IOR_TUI_KEY_ESC && d->help)) {
		d->help = k->code == '?' ? !d->help : 0;
		return 0;
	}
	d->message[0] = 0;
	if (k->code == 'e' && ior_dash_table_name(d))
		return IOR_DASH_EXPORT;
	if (k->code == 'r')
		return record_key(d);
	if (k->code == 'D')
		return dump_key(d);
	if (k->code == 'p' || (k->code == IOR_TUI_KEY_ESC && d->pick_pid >= 0))
		return ior_dash_picker_key(d, k), 0;
	if (tab_key(d, k) || view_key(d, k) || ior_dash_devices_key(d, k) || ior_dash_stream_key(d, k) ||
	    ior_dash_flame_key(d, k))
		return 0;
	if ((t = current_table(d)))
		ior_tui_table_key(t, k);
	return 0;
}

void ior_dash_format_bytes(char *buf, size_t len, double b)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned u = 0;

	if (b < 10000) {
		snprintf(buf, len, "%.0f", b);
		return;
	}
	while (b >= 1024 && u < 5)
		b /= 1024, u++;
	snprintf(buf, len, b < 10 ? "%.2f%s" : b < 100 ? "%.1f%s" : "%.0f%s", b, unit[u]);
}
