/* The dashboard's model: tabs, keys, the Stream tab's ring. Drawing is
 * draw.c. */
#include "dash_int.h"
#include "trace/syscalls.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ior_dash_new(struct ior_dash **out, const struct ior_dash_cfg *cfg)
{
	struct ior_dash *d;

	*out = NULL;
	if (!cfg || !cfg->stats)
		return -EINVAL;
	if (!(d = calloc(1, sizeof *d)))
		return -ENOMEM;
	d->cap = cfg->stream_pairs ? cfg->stream_pairs : IOR_DASH_STREAM_PAIRS;
	d->rows = calloc(MAX_ROWS + 1, sizeof *d->rows);
	d->flight = calloc(MAX_IN_FLIGHT, sizeof *d->flight);
	d->ring = calloc(d->cap, sizeof *d->ring);
	d->arena = malloc(ARENA_BYTES);
	d->groups = calloc(MAX_ROWS + 1, sizeof *d->groups);
	d->slots = calloc(GROUP_SLOTS, sizeof *d->slots);
	if (!d->rows || !d->flight || !d->ring || !d->arena || !d->groups || !d->slots) {
		ior_dash_free(d);
		return -ENOMEM;
	}
	d->stats = cfg->stats;
	d->in_flight = cfg->in_flight;
	d->ctx = cfg->ctx;
	snprintf(d->title, sizeof d->title, "%s", cfg->title ? cfg->title : "");
	d->lat_sys = -1;
	snprintf(d->prefix, sizeof d->prefix, "/");
	d->follow = 1;
	ior_dash_views_init(d);
	*out = d;
	return 0;
}

void ior_dash_free(struct ior_dash *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d->flight);
	if (d->have_re)
		regfree(&d->re);
	free(d->ring);
	free(d->arena);
	free(d->groups);
	free(d->slots);
	free(d);
}

void ior_dash_add(struct ior_dash *d, const struct ior_event_pair *p)
{
	struct stream_entry *e;

	if (p->summary)
		return;
	if (!d->first_ns || p->enter_ns < d->first_ns)
		d->first_ns = p->enter_ns;
	if (d->paused) {
		d->missed++;
		return;
	}
	e = &d->ring[d->head];
	*e = (struct stream_entry){ p->enter_ns, p->duration_ns, p->bytes, p->ret, p->pid, p->tid, p->fd, p->sys,
				    "", "" };
	snprintf(e->comm, sizeof e->comm, "%s", p->comm ? p->comm : "");
	snprintf(e->path, sizeof e->path, "%s", p->path ? p->path : "");
	d->head = (d->head + 1) % d->cap;
	if (d->count < d->cap)
		d->count++;
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
	return (struct ior_sink){ sink_pair, NULL, d };
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
	if (d->tab == IOR_DASH_STREAM)
		return &d->stream_table;
	return NULL;
}

/* < > r t: the sorted tables' own keys. 1 when k was one. */
static int view_key(struct ior_dash *d, const struct ior_tui_key *k)
{
	struct dash_view *v = sorted_view(d);

	if (!v)
		return 0;
	if (k->code == '<' || k->code == '>') {
		v->sort = (v->sort + (k->code == '<' ? v->ncols - 1 : 1)) % v->ncols;
		return 1;
	}
	if (k->code == 'r') {
		v->ascending = !v->ascending;
		return 1;
	}
	if (k->code == 'd' && d->tab == IOR_DASH_FILES) {
		d->dirs = !d->dirs;
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

static int stream_matches(const struct ior_dash *d, size_t i)
{
	const struct stream_entry *e = ior_dash_stream_at(d, i);
	const char *sys = e && e->sys < ior_nsyscalls ? ior_syscalls[e->sys].name : "";

	return e && (!regexec(&d->re, e->comm, 0, NULL, 0) || !regexec(&d->re, sys, 0, NULL, 0) ||
		     !regexec(&d->re, e->path, 0, NULL, 0));
}

/* The next pair matching the search, older (dir -1) or newer (+1) than
 * the selection, selected and the stream paused so that it stays. */
static void search(struct ior_dash *d, int dir)
{
	struct ior_tui_table *t = &d->stream_table;
	size_t n = d->count, i = t->selected < n ? t->selected : (n ? n - 1 : 0);

	if (!d->have_re || !n)
		return;
	for (size_t step = 1; step <= n; step++) {
		size_t j = (i + n + (size_t)dir * step % n) % n;
		if (stream_matches(d, j)) {
			t->selected = j;
			d->follow = 0;
			d->paused = 1;
			snprintf(d->message, sizeof d->message, "/%.200s: pair %zu of %zu (paused; n older, N newer, space resumes)",
				 d->search.text, j + 1, n);
			return;
		}
	}
	snprintf(d->message, sizeof d->message, "/%.200s: not in the last %zu pairs", d->search.text, n);
}

/* Enter compiles what was typed (POSIX extended regex) and searches from
 * the newest pair; Esc gives up. */
static void search_key(struct ior_dash *d, const struct ior_tui_key *k)
{
	char err[128];
	int r;

	if (k->code == IOR_TUI_KEY_ESC) {
		d->editing = 0;
		return;
	}
	if (k->code != IOR_TUI_KEY_ENTER) {
		ior_tui_edit_key(&d->search, k);
		return;
	}
	d->editing = 0;
	if (d->have_re)
		regfree(&d->re);
	d->have_re = 0;
	if ((r = regcomp(&d->re, d->search.text, REG_EXTENDED | REG_NOSUB))) {
		regerror(r, &d->re, err, sizeof err);
		snprintf(d->message, sizeof d->message, "/%.200s: %s", d->search.text, err);
		return;
	}
	d->have_re = 1;
	d->stream_table.selected = d->count; /* from the newest */
	search(d, -1);
}

static int stream_key(struct ior_dash *d, const struct ior_tui_key *k)
{
	if (d->tab != IOR_DASH_STREAM)
		return 0;
	if (k->code == '/') {
		d->editing = 1;
		ior_tui_edit_set(&d->search, "");
		return 1;
	}
	if (k->code == 'n' || k->code == 'N') {
		search(d, k->code == 'n' ? -1 : 1);
		return 1;
	}
	if (k->code == ' ') {
		d->paused = !d->paused;
		if (!d->paused)
			d->missed = 0;
		return 1;
	}
	if (ior_tui_table_key(&d->stream_table, k)) {
		d->follow = d->stream_table.selected + 1 >= d->stream_table.nrows;
		return 1;
	}
	return 0;
}

static int tab_key(struct ior_dash *d, const struct ior_tui_key *k)
{
	if (k->code >= '1' && k->code < '1' + IOR_DASH_NTABS)
		d->tab = (enum ior_dash_tab)(k->code - '1');
	else if (k->code == IOR_TUI_KEY_TAB)
		d->tab = (enum ior_dash_tab)((d->tab + 1) % IOR_DASH_NTABS);
	else if (k->code == IOR_TUI_KEY_BACKTAB)
		d->tab = (enum ior_dash_tab)((d->tab + IOR_DASH_NTABS - 1) % IOR_DASH_NTABS);
	else
		return 0;
	d->help = 0;
	return 1;
}

int ior_dash_key(struct ior_dash *d, const struct ior_tui_key *k)
{
	struct ior_tui_table *t;

	if (k->code == 'c' && k->mods == IOR_TUI_MOD_CTRL)
		return IOR_DASH_QUIT;
	if (d->editing) {
		search_key(d, k);
		return 0;
	}
	if (k->code == 'q')
		return IOR_DASH_QUIT;
	if (k->code == '?' || (k->code == IOR_TUI_KEY_ESC && d->help)) {
		d->help = k->code == '?' ? !d->help : 0;
		return 0;
	}
	d->message[0] = 0;
	if (k->code == 'e' && ior_dash_table_name(d))
		return IOR_DASH_EXPORT;
	if (tab_key(d, k) || view_key(d, k) || stream_key(d, k))
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
