/* The terminal dashboard's model and drawing: tabs over the statistics
 * engine (stats/stats.h), the syscalls in flight of a live trace, and a
 * bounded tail of the latest pairs. Keys go in (ior_dash_key), a frame
 * comes out (ior_dash_draw into a tui screen); the terminal, the poll loop
 * and the trace are the caller's (cmd/dash.c), so everything here is pure
 * and drawn the same in a unit test as on a terminal.
 *
 * Tabs: 1 Overview, 2 Syscalls, 3 Files, 4 Processes, 5 In flight,
 * 6 Latency, 7 Stream, 8 Flame, 9 Devices (block requests per device and
 * op, stats/devices.h; the selected row's device-time histogram and who
 * waited on it). Keys (the help, `?`, lists them all):
 *   1..9, Tab, Shift-Tab   switch tabs
 *   Up, Down, PgUp, PgDn, Home, End   move the selection (scroll the stream)
 *   < >   sort by the column to the left / right;  R   reverse the sort
 *         (Syscalls, Files, Processes, Devices)
 *   t     Processes: per thread instead of per process
 *   d     Files: by directory, by mount point (ior_dash_set_mounts), off;
 *         Enter opens a group, Backspace or Left goes up
 *   space Stream: pause (the tail stops moving; pairs meanwhile are counted)
 *   / n N Stream: search (POSIX extended regex on comm, syscall, path), older, newer
 *   Left Right f Backspace   Stream: the column under the cursor; push its
 *         cell as a filter; pop the last filter
 *   arrows Enter Backspace o m   Flame: move, zoom in, zoom out, the field
 *         order, the metric
 *   p     the process picker (type to filter, Enter picks); Esc clears the pick
 *   r     start / stop a recording (the caller's: IOR_DASH_RECORD)
 *   D     dump the flight recorder now (the caller's: IOR_DASH_DUMP)
 *   e     the table shown as CSV (the caller writes the file: IOR_DASH_EXPORT)
 *   ?     help;  Esc closes it;  q, Ctrl-C   quit
 * The Latency tab shows what was selected last in the Syscalls, Files
 * (a file or a directory group) or Processes tab (all syscalls when the
 * selection is "(other)" or the table is empty).
 *
 * What starts counting late — the picked process's statistics, the Flame
 * tab after `o` or `m`, the latency of a file or process — is fed again
 * from the start by cfg->replay on a recording; live, it starts from the
 * pairs the Stream's ring still holds, then counts every pair, and the
 * tab says so.
 *
 * Text from the traced system (paths, comms, device names) goes through
 * the screen's hostile-text drawing only. Not thread-safe. */
#ifndef IOR_DASH_DASH_H
#define IOR_DASH_DASH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/stats.h"
#include "pair/event_pair.h"
#include "pair/norm.h"
#include "pair/pair.h"
#include "pair/sink.h"
#include "tui/keys.h"
#include "tui/screen.h"

enum ior_dash_tab {
	IOR_DASH_OVERVIEW,
	IOR_DASH_SYSCALLS,
	IOR_DASH_FILES,
	IOR_DASH_PROCESSES,
	IOR_DASH_IN_FLIGHT,
	IOR_DASH_LATENCY,
	IOR_DASH_STREAM,
	IOR_DASH_FLAME,
	IOR_DASH_DEVICES,
	IOR_DASH_NTABS,
};

#define IOR_DASH_STREAM_PAIRS 2000 /* the Stream tab's ring when cfg says 0 */

struct ior_dash_cfg {
	struct ior_stats *stats; /* required; not owned; read when drawing */
	/* The syscalls in flight now, oldest first (trace/session.h's
	 * ior_session_in_flight); NULL: a recording, nothing is in flight. */
	size_t (*in_flight)(void *ctx, struct ior_in_flight *out, size_t max);
	void *ctx;
	const char *title;     /* the top line's source: "live -comm x", a file; copied */
	unsigned stream_pairs; /* the Stream tab's ring; 0: IOR_DASH_STREAM_PAIRS */
	/* A recording: hands every pair of it (its filters applied) to
	 * add(actx, p) again; 0 or -errno. NULL: live (nothing to replay). */
	int (*replay)(void *rctx, void (*add)(void *actx, const struct ior_event_pair *p), void *actx);
	void *replay_ctx;
	/* -baseline: a recording's statistics (not owned; kept unchanged
	 * while the dashboard lives), its name for the title, and how the
	 * two compare. The Syscalls, Files and Processes tabs get change
	 * columns (time, rate, and p99, max or mean) against it. */
	struct ior_stats *baseline;
	const char *baseline_name;
	enum ior_norm baseline_norm;
	/* The Devices tab's names of devices (kernel encoding, major << 20 |
	 * minor): a recording's, as its host named them; the text returned
	 * lives until the next call. NULL: this host's (pair/devname.h). */
	const char *(*dev_name)(void *ctx, uint32_t dev);
	void *dev_ctx;
};

/* What the trace counted beside the pairs, for the Overview. */
struct ior_dash_losses {
	uint64_t lost, summarized, unpaired;
};

struct ior_dash;

/* 0, or -ENOMEM / -EINVAL (no stats). */
int ior_dash_new(struct ior_dash **d, const struct ior_dash_cfg *cfg);
void ior_dash_free(struct ior_dash *d);

/* Adds a pair to the Stream tab's ring (summary rows are left out: they
 * are no single event), the Flame tab's aggregate, and what counts the
 * picked process and the Latency of a file or process. The sink does the
 * same; add the stats' own sink (ior_stats_sink) beside it. */
void ior_dash_add(struct ior_dash *d, const struct ior_event_pair *p);
struct ior_sink ior_dash_sink(struct ior_dash *d);

void ior_dash_set_losses(struct ior_dash *d, const struct ior_dash_losses *l);
/* A word on the trace's state for the title ("tracing", "stopped",
 * "recording"); copied. */
void ior_dash_set_state(struct ior_dash *d, const char *state);
/* The time now (CLOCK_MONOTONIC ns): the In flight tab's ages count to it. */
void ior_dash_set_now(struct ior_dash *d, uint64_t now_ns);

#define IOR_DASH_QUIT 1
#define IOR_DASH_EXPORT 2 /* `e` on a tab with a table: the caller picks a file, ior_dash_export */
#define IOR_DASH_RECORD 3 /* `r` while tracing: the caller starts or stops a recording */
#define IOR_DASH_DUMP 4   /* `D` while tracing with a flight recorder: the caller dumps it now */
/* Handles a key: 0, IOR_DASH_QUIT, IOR_DASH_EXPORT, IOR_DASH_RECORD or IOR_DASH_DUMP. */
int ior_dash_key(struct ior_dash *d, const struct ior_tui_key *k);

/* The current tab's table as CSV into out: a header of its column titles,
 * then every row in the order shown; times in ns and bytes exact; text
 * from the traced system escaped as in the -plain CSV (csv/csv.h), then
 * quoted. Returns the rows written, -ENOTSUP on a tab without a table,
 * -ENOMEM, or -EIO when out reports an error. */
int ior_dash_export(struct ior_dash *d, FILE *out);
/* "syscalls", "files", "processes", "threads", "in-flight", "stream",
 * "devices":
 * for the export's file name; NULL on a tab without a table. */
const char *ior_dash_table_name(const struct ior_dash *d);
/* A line shown at the bottom until the next key (what an export did). */
void ior_dash_set_message(struct ior_dash *d, const char *msg);
/* The recording being written ("REC file (N pairs)" on the top line);
 * file NULL: none. file is copied. */
void ior_dash_set_recording(struct ior_dash *d, const char *file, uint64_t pairs);
/* The flight recorder's state on the top line ("" or NULL: none; then
 * `D` says there is none); copied. */
void ior_dash_set_recorder(struct ior_dash *d, const char *state);
/* The Stream tab, paused on the pair of thread tid entered at enter_ns
 * (a dump's trigger pair): 0, or -ENOENT when the Stream does not hold it. */
int ior_dash_stream_select(struct ior_dash *d, uint32_t tid, uint64_t enter_ns);
/* The Stream takes no more pairs (as paused; the other tabs still do):
 * a dump's loader stops it some way after the trigger pair, so that the
 * pair stays in the Stream whatever follows it. */
void ior_dash_stream_hold(struct ior_dash *d);
/* The mount points, for the Files tab's grouping by mount (copied; at
 * most 256, each under 4096 bytes). Without them, `d` has directories only. */
void ior_dash_set_mounts(struct ior_dash *d, const char *const *mounts, unsigned n);
/* The picked process (-1: none), as set by the picker. */
int64_t ior_dash_picked(const struct ior_dash *d);

enum ior_dash_tab ior_dash_tab(const struct ior_dash *d);
void ior_dash_set_tab(struct ior_dash *d, enum ior_dash_tab tab);

/* Draws the whole frame into s (clearing it first). -ENOMEM when a table
 * could not be selected (the frame says so too). */
int ior_dash_draw(struct ior_dash *d, struct ior_tui_screen *s);

/* "1.23KiB"-style bytes (1024-based, 3 significant digits; exact below
 * 10 000). */
void ior_dash_format_bytes(char *buf, size_t len, double bytes);

#endif
