/* The dashboard's state, shared by dash.c (model, keys, the stream ring)
 * and draw.c (the tabs). Not part of the contract. */
#ifndef IOR_DASH_DASH_INT_H
#define IOR_DASH_DASH_INT_H

#include "dash.h"
#include "tui/edit.h"
#include "tui/table.h"

#include <regex.h>

#define STREAM_PATH 200 /* bytes of a path kept per stream entry */
#define MAX_ROWS 4096   /* rows selected from a stats table per frame */
#define MAX_IN_FLIGHT 1024
#define ARENA_BYTES (1u << 20) /* names of the Files tab's directory groups */
#define GROUP_SLOTS 8192       /* a power of two above MAX_ROWS */

/* What a column shows. */
enum dash_value {
	V_NAME, V_PID, V_TID, V_COMM, V_PAIRS, V_RATE, V_ERRORS, V_BYTES, V_READ, V_WRITTEN,
	V_TIME, V_MIN, V_MEAN, V_P50, V_P95, V_P99, V_MAX,
};

struct dash_col {
	struct ior_tui_column col;
	enum ior_stats_col by; /* what sorting on it sorts by */
	enum dash_value v;
};

/* A tab drawn as a table of a stats table, sorted by one of its columns. */
struct dash_view {
	struct dash_col cols[16];
	int ncols;
	int sort;     /* index into cols */
	int ascending;
	struct ior_tui_table table;
	struct ior_tui_column tcols[16];
};

struct stream_entry {
	uint64_t enter_ns, duration_ns, bytes;
	int64_t ret;
	uint32_t pid, tid;
	int32_t fd;
	uint16_t sys;
	char comm[16];
	char path[STREAM_PATH];
};

struct ior_dash {
	struct ior_stats *stats;
	size_t (*in_flight)(void *ctx, struct ior_in_flight *out, size_t max);
	void *ctx;
	char title[256], state[64];
	struct ior_dash_losses losses;
	uint64_t now_ns;
	enum ior_dash_tab tab;
	int help;
	int threads;             /* Processes per thread */
	int lat_sys;             /* the Latency tab's syscall; -1: all */
	struct dash_view views[IOR_DASH_NTABS]; /* SYSCALLS, FILES, PROCESSES */
	struct ior_stats_row *rows; /* MAX_ROWS + 1 ((other) last) */
	unsigned nrows;
	double span_s;           /* the trace's span, for rates */
	struct ior_in_flight *flight;
	size_t nflight, flight_total;
	struct ior_tui_table flight_table, stream_table;
	struct stream_entry *ring;
	unsigned cap, head, count; /* head: the next slot written */
	uint64_t first_ns;       /* the first pair's enter: stream times count from it */
	uint64_t missed;         /* pairs not kept while paused */
	int paused, follow;
	int ascii;
	int raw;                 /* exporting: times in ns, bytes exact */
	int dirs;                /* Files grouped by directory under prefix */
	char prefix[4096];       /* "/" or a directory ending in '/' */
	char *arena;             /* the groups' names */
	struct ior_stats_row *groups;
	uint32_t *slots;         /* hash of the groups by name */
	char message[512];
	struct ior_tui_edit search; /* Stream: the regex being typed after '/' */
	int editing, have_re;
	regex_t re;
};

void ior_dash_views_init(struct ior_dash *d);
/* Enter on a directory group opens it; Backspace, Left go up. 1 when handled. */
int ior_dash_dirs_key(struct ior_dash *d, const struct ior_tui_key *k);
const struct stream_entry *ior_dash_stream_at(const struct ior_dash *d, size_t i); /* 0: oldest */
/* The rows of the current tab's table into d->rows (d->nrows), (other)
 * last when it holds pairs; 0 or -ENOMEM (draw.c). */
int ior_dash_select_rows(struct ior_dash *d, struct dash_view *v);
/* d->rows[0..n) summed per directory under d->prefix, sorted by the
 * view's column, back into d->rows (dirs.c). */
void ior_dash_group_rows(struct ior_dash *d, const struct dash_view *v, unsigned n);

#endif
