/* The process picker (p): the processes by pairs, filtered as one types
 * (a substring of the comm, or the start of the pid); Enter restricts
 * every tab to the one picked, Esc outside the picker shows all again.
 *
 * The statistics engine keeps no per-process tables of syscalls or
 * files, so a pick gets its own engine, fed the picked pid's pairs: on a
 * recording the whole file again (cfg->replay); live, those the Stream's
 * ring still holds, then every one.
 * The Processes tab, the Stream, In flight and Flame tabs filter what
 * they hold, so they need no such start. */
#include "dash_int.h"

#include <stdio.h>
#include <string.h>

static void replay_add(void *ctx, const struct ior_event_pair *p)
{
	ior_dash_pick_add(ctx, p);
}

void ior_dash_pick_add(struct ior_dash *d, const struct ior_event_pair *p)
{
	if (d->pick_stats && p->pid == (uint64_t)d->pick_pid)
		ior_stats_add(d->pick_stats, p); /* out of memory: counted there */
}

/* Everything fed per pick starts again: the stats, the flamegraph, the
 * latency of a file or process, the selections. */
void ior_dash_pick(struct ior_dash *d, int64_t pid, const char *comm)
{
	ior_stats_free(d->pick_stats);
	d->pick_stats = NULL;
	d->stats = d->all;
	d->pick_pid = -1;
	d->pick_comm[0] = 0;
	if (pid >= 0 && ior_stats_new(&d->pick_stats, NULL) < 0) {
		snprintf(d->message, sizeof d->message, "p: out of memory: showing every process");
		pid = -1;
	}
	if (pid >= 0) {
		d->pick_pid = pid;
		snprintf(d->pick_comm, sizeof d->pick_comm, "%s", comm ? comm : "");
		d->stats = d->pick_stats;
		d->pick_late = !d->replay;
		if (d->replay)
			d->replay(d->replay_ctx, replay_add, d);
		else
			ior_dash_ring_replay(d, replay_add, d);
		struct ior_stats_totals t;
		ior_stats_totals(d->pick_stats, &t);
		d->pick_seeded = t.sums.pairs;
	}
	for (int t = 0; t < IOR_DASH_NTABS; t++)
		d->views[t].table.selected = d->views[t].table.top = 0;
	d->lat_have.kind = (enum lat_kind)-1;
	d->follow = 1;
	ior_dash_flame_reset(d);
}

void ior_dash_pick_label(const struct ior_dash *d, char *buf, size_t len)
{
	if (d->pick_pid < 0)
		snprintf(buf, len, "%s", "");
	else if (!d->pick_late)
		snprintf(buf, len, "pid %lld %s", (long long)d->pick_pid, d->pick_comm);
	else
		snprintf(buf, len, "pid %lld %s (from its last %llu pairs in the Stream on)", (long long)d->pick_pid,
			 d->pick_comm, (unsigned long long)d->pick_seeded);
}

static int wanted(const struct ior_stats_row *r, const char *text)
{
	char pid[16];

	if (!strcmp(r->name, IOR_STATS_OTHER))
		return 0;
	snprintf(pid, sizeof pid, "%u", r->pid);
	return !text[0] || strstr(r->comm, text) || !strncmp(pid, text, strlen(text));
}

static int listed(const struct ior_dash *d, unsigned n, uint32_t pid)
{
	for (unsigned i = 0; i < n; i++)
		if (d->pick_rows[i].pid == pid)
			return 1;
	return 0;
}

/* Live, a process blocked in its first syscall has no pair yet: the ones
 * in flight are listed too (0 pairs), for the hung I/O is what one picks. */
static unsigned add_in_flight(struct ior_dash *d, unsigned n)
{
	size_t total = d->in_flight ? d->in_flight(d->ctx, d->flight, MAX_IN_FLIGHT) : 0;

	for (size_t i = 0; i < total && i < MAX_IN_FLIGHT && n < PICK_ROWS; i++)
		if (!listed(d, n, d->flight[i].pid)) {
			struct ior_stats_row *r = &d->pick_rows[n++];
			*r = (struct ior_stats_row){ .name = "", .pid = d->flight[i].pid };
			snprintf(r->comm, sizeof r->comm, "%s", d->flight[i].comm);
		}
	return n;
}

/* The processes of every pair (not only the picked one's), by pairs. */
static void load(struct ior_dash *d)
{
	struct ior_stats_row other;
	int n = ior_stats_select(d->all, IOR_STATS_PROCESSES, IOR_STATS_BY_PAIRS, false, d->pick_rows, PICK_ROWS,
				 &other);
	unsigned kept = 0, all = add_in_flight(d, n < 0 ? 0 : (unsigned)n);

	for (unsigned i = 0; i < all; i++)
		if (wanted(&d->pick_rows[i], d->pick_edit.text))
			d->pick_rows[kept++] = d->pick_rows[i];
	d->npick = kept;
	d->pick_table.nrows = kept;
}

static void open_picker(struct ior_dash *d)
{
	d->picking = 1;
	ior_tui_edit_set(&d->pick_edit, "");
	d->pick_table.selected = d->pick_table.top = 0;
	load(d);
}

int ior_dash_picker_key(struct ior_dash *d, const struct ior_tui_key *k)
{
	if (!d->picking) {
		if (k->code == 'p')
			open_picker(d);
		else if (k->code == IOR_TUI_KEY_ESC)
			ior_dash_pick(d, -1, NULL);
		return 1;
	}
	if (k->code == IOR_TUI_KEY_ESC) {
		d->picking = 0;
		return 1;
	}
	load(d);
	if (k->code == IOR_TUI_KEY_ENTER) {
		const struct ior_stats_row *r = d->pick_table.selected < d->npick ? &d->pick_rows[d->pick_table.selected] : NULL;
		d->picking = 0;
		if (r)
			ior_dash_pick(d, r->pid, r->comm);
		return 1;
	}
	if (!ior_tui_table_key(&d->pick_table, k) && ior_tui_edit_key(&d->pick_edit, k)) {
		d->pick_table.selected = d->pick_table.top = 0;
		load(d);
	}
	return 1;
}

void ior_dash_draw_picker(struct ior_dash *d, struct ior_tui_screen *s)
{
	int w = s->cols < 60 ? s->cols : 60, h = s->rows - 4 < 20 ? s->rows - 4 : 20;
	int r0 = (s->rows - h) / 2, c0 = (s->cols - w) / 2;

	if (h < 6)
		h = s->rows, r0 = 0;
	load(d);
	ior_tui_fill(s, r0, c0, h, w, IOR_DASH_PLAIN, " ");
	ior_tui_box(s, r0, c0, h, w, IOR_DASH_BOLD);
	ior_tui_putf(s, r0, c0 + 2, w - 4, IOR_DASH_BOLD, 0, " Pick a process (%u) ", d->npick);
	ior_tui_put(s, r0 + 1, c0 + 2, 8, IOR_DASH_BOLD, "filter:");
	ior_tui_edit_draw(&d->pick_edit, s, r0 + 1, c0 + 10, w - 12, IOR_DASH_PLAIN);
	ior_tui_table_draw(&d->pick_table, s, r0 + 2, c0 + 2, h - 4, w - 4);
	ior_tui_put(s, r0 + h - 2, c0 + 2, w - 4, IOR_DASH_PLAIN, "Enter picks  Esc closes (Esc after: all again)");
}
