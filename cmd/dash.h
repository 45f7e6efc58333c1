/* The dashboard mode's wiring (cmd/dash.c), for cmd/trace.c: the
 * dashboard (dash/dash.h) on the terminal over a live session. The
 * recording side is ior_cmd_dash in opts.h. */
#ifndef IOR_CMD_DASH_H
#define IOR_CMD_DASH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "pair/norm.h"
#include "stats/stats.h"
#include "trace/session.h"

struct dash_ui;

/* -baseline: the recording's statistics (the caller's; stats NULL: none),
 * its name and how the two compare (dash/dash.h's cfg). */
struct ior_dash_base {
	struct ior_stats *stats;
	const char *name;
	enum ior_norm norm;
};

/* The dashboard over stats and session (both the caller's), its sinks
 * added to the session; title for its top line, rec_name (-name) for the
 * recordings `r` writes, base its change columns. 0, or -ENOMEM/-ENOSPC. */
int ior_dash_ui_open(struct dash_ui **ui, struct ior_stats *stats, struct ior_session *session,
		     const char *title, const char *rec_name, const struct ior_dash_base *base);
/* Raw mode, then draws and steps the session until q, Ctrl-C or a signal
 * (*stop set by the caller's handler); at deadline (CLOCK_MONOTONIC ns)
 * the trace stops stepping and the dashboard stays until q. The terminal
 * is given back before it returns. 0, or 1 after printing why. */
int ior_dash_ui_run(struct dash_ui *ui, uint64_t deadline, volatile sig_atomic_t *stop);
void ior_dash_ui_close(struct dash_ui *ui);
/* -recorder -tui: its state on the top line, and `D` dumps it. */
struct ior_recorder;
void ior_dash_ui_set_recorder(struct dash_ui *ui, struct ior_recorder *r);

#endif
