/* The dashboard's state, shared by dash.c (model, keys, the stream ring)
 * and draw.c (the tabs). Not part of the contract. */
#ifndef IOR_DASH_DASH_INT_H
#define IOR_DASH_DASH_INT_H

#include "dash.h"
#include "flame/flame.h"
#include "stats/devices.h"
#include "tui/edit.h"
#include "tui/table.h"

#include <regex.h>

#define STREAM_PATH 200 /* bytes of a path kept per stream entry */
#define MAX_ROWS 4096   /* rows selected from a stats table per frame */
#define MAX_IN_FLIGHT 1024
#define ARENA_BYTES (1u << 20) /* names of the Files tab's directory groups */
#define GROUP_SLOTS 8192       /* a power of two above MAX_ROWS */
#define MAX_FILTERS 8          /* the Stream tab's filters */
#define MAX_MOUNTS 256
#define PICK_ROWS 1024         /* processes listed by the picker */
#define NAME_MAX_BYTES 4096    /* a file, a directory group, a frame path */

/* What a column shows. */
enum dash_value {
	V_NAME, V_PID, V_TID, V_COMM, V_PAIRS, V_RATE, V_ERRORS, V_BYTES, V_READ, V_WRITTEN,
	V_TIME, V_MIN, V_MEAN, V_P50, V_P95, V_P99, V_MAX,
	V_DTIME, V_DRATE, V_DP99, V_DMAX, V_DMEAN, /* -baseline: changes (baseline.c) */
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
	uint64_t enter_ns, duration_ns, gap_ns, bytes;
	int64_t ret;
	uint32_t pid, tid;
	int32_t fd;
	uint16_t sys;
	char comm[16];
	char path[STREAM_PATH];
	/* the pairs' comm_id and path_id of the strings above (0: not known):
	 * a slot that gets the same string again is not rewritten */
	uint64_t comm_id, path_id;
};

/* A Stream filter: the entries whose cell in column col reads text. */
struct stream_filter {
	int col;
	char text[STREAM_PATH];
};

/* What the Latency tab shows: all, a syscall (the stats' histograms), or
 * a file, a directory group, a process or a thread (the dash's own). */
enum lat_kind { LAT_ALL, LAT_SYSCALL, LAT_FILE, LAT_DIR, LAT_PID, LAT_TID };
struct lat_target {
	enum lat_kind kind;
	uint64_t key;               /* the syscall, pid or tid */
	char name[NAME_MAX_BYTES];  /* the file or directory ("/a/" ends in '/') */
};

/* The Flame tab: an aggregate of every pair (or, started late, of those
 * since the ring's oldest), the tree last built from it, and the cursor
 * and the zoom, kept as frame paths ("all;a;b") to survive a rebuild. */
struct dash_flame {
	struct ior_flame_agg *agg;
	struct ior_flame_tree *tree;
	struct ior_flame_spec spec;
	int order;                   /* index into the orders `o` cycles */
	int late;                    /* live: agg started after the trace, seeded */
	uint64_t seeded;             /* ... with these pairs of the Stream's ring */
	int err;                     /* -errno of the last build or new agg */
	uint64_t built_pairs, built_ns;
	uint32_t zoom, sel;          /* nodes of tree */
	char zoom_path[NAME_MAX_BYTES], sel_path[NAME_MAX_BYTES];
};

/* The Devices tab: a row of the stats' device table and its cells' numbers. */
#define DEV_NCOLS 17
#define DEV_NAMES 64 /* device names read from this host's sysfs, kept */
struct dash_dev {
	const struct ior_dev_row *row;
	char name[64];
	uint64_t v[DEV_NCOLS]; /* by column; 0, 1 (name, op) unused */
};
struct dash_devname {
	uint32_t dev;
	char name[64];
};

struct dash_base;

struct ior_dash {
	struct ior_stats *stats;    /* what the tabs show: all, or the picked process's */
	struct ior_stats *all;      /* cfg->stats */
	int (*replay)(void *rctx, void (*add)(void *actx, const struct ior_event_pair *p), void *actx);
	void *replay_ctx;
	size_t (*in_flight)(void *ctx, struct ior_in_flight *out, size_t max);
	void *ctx;
	char title[256], state[64];
	struct ior_dash_losses losses;
	uint64_t now_ns;
	enum ior_dash_tab tab;
	int help;
	int threads;             /* Processes per thread */
	struct lat_target lat_want, lat_have; /* selected; what lat_h/gap_h hold */
	struct ior_hist lat_h, gap_h;
	uint64_t lat_since_ns;   /* live: lat_h counts from here (0: a recording, all of it) */
	size_t lat_seeded;       /* live: pairs of the stream's ring in lat_h */
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
	int dirs;                /* Files grouped: 1 by directory under prefix, 2 by mount point */
	char **mounts;
	unsigned nmounts;
	char prefix[4096];       /* "/" or a directory ending in '/' */
	char *arena;             /* the groups' names */
	struct ior_stats_row *groups;
	uint32_t *slots;         /* hash of the groups by name */
	char message[512];
	struct ior_tui_edit search; /* Stream: the regex being typed after '/' */
	int editing, have_re;
	regex_t re;
	struct stream_filter filters[MAX_FILTERS];
	int nfilters;
	int stream_col;          /* the column under the Stream's cursor */
	struct ior_tui_column stream_tcols[7];
	uint32_t *shown;         /* ring indexes passing the filters, oldest first */
	size_t nshown;
	int picking;             /* the process picker is open */
	struct ior_tui_edit pick_edit;
	struct ior_stats_row *pick_rows;
	unsigned npick;
	struct ior_tui_table pick_table;
	int64_t pick_pid;        /* -1: every process */
	char pick_comm[16];
	struct ior_stats *pick_stats;
	int pick_late;           /* live: the picked stats start at the ring's oldest pair */
	uint64_t pick_seeded;    /* ... with these of its pairs */
	struct dash_flame flame;
	struct dash_base *base;   /* -baseline: NULL without */
	char rec_file[256];      /* "": not recording */
	char recorder[160];      /* the flight recorder's state, "": none */
	uint64_t rec_pairs;
	const char *(*dev_name)(void *ctx, uint32_t dev); /* cfg's; NULL: this host's */
	void *dev_ctx;
	struct dash_devname devnames[DEV_NAMES];
	unsigned ndevnames;
	struct dash_dev *devs;   /* IOR_DEV_MAX_ROWS, the Devices tab's rows as shown */
	unsigned ndevs;
	int dev_sort, dev_asc;
	struct ior_tui_table dev_table;
};

void ior_dash_views_init(struct ior_dash *d);
/* Enter on a directory group opens it; Backspace, Left go up. 1 when handled. */
int ior_dash_dirs_key(struct ior_dash *d, const struct ior_tui_key *k);
const struct stream_entry *ior_dash_stream_at(const struct ior_dash *d, size_t i); /* 0: oldest */
/* Live, what starts late (a pick, Flame's o and m) is fed the Stream's
 * ring first, oldest first, as pairs (paths cut at STREAM_PATH - 1 bytes
 * left out: they would count as another file). Returns the pairs given. */
size_t ior_dash_ring_replay(struct ior_dash *d, void (*add)(void *ctx, const struct ior_event_pair *p), void *ctx);
/* The rows of the current tab's table into d->rows (d->nrows), (other)
 * last when it holds pairs; 0 or -ENOMEM (draw.c). */
int ior_dash_select_rows(struct ior_dash *d, struct dash_view *v);
/* d->rows[0..n) summed per directory under d->prefix (or per mount
 * point), sorted by the view's column, back into d->rows (dirs.c). */
void ior_dash_group_rows(struct ior_dash *d, const struct dash_view *v, unsigned n);
/* On a Syscalls, Files or Processes tab: its selected row is what the
 * Latency tab shows (also done as it is drawn; this is for keys that
 * leave it before a frame, draw.c). */
void ior_dash_want_latency(struct ior_dash *d);
void ior_dash_mounts_free(struct ior_dash *d);

/* -baseline's change columns (baseline.c). */
int ior_dash_base_new(struct ior_dash *d, const struct ior_dash_cfg *cfg);
void ior_dash_base_free(struct ior_dash *d);
/* Each frame, once d->span_s is known: BASE's factor into the trace's units. */
void ior_dash_base_frame(struct ior_dash *d);
/* For the title: "  vs FILE (rate)", or why nothing compares yet; "" without. */
void ior_dash_base_label(const struct ior_dash *d, char *buf, size_t len);
const char *ior_dash_base_cell(const struct ior_dash *d, const struct ior_stats_row *r, enum dash_value v,
			       char *buf, size_t len);
/* d->rows re-sorted by the view's change column; 0 or -ENOMEM. */
int ior_dash_base_sort(struct ior_dash *d, const struct dash_view *v);

/* Shared drawing bits (draw.c). */
extern const struct ior_tui_style IOR_DASH_PLAIN, IOR_DASH_BOLD, IOR_DASH_REV, IOR_DASH_HEAD;
const char *ior_dash_ns(const struct ior_dash *d, char *buf, size_t len, uint64_t v);
const char *ior_dash_syscall_name(unsigned sys);

/* The Stream tab (stream.c): keys, filters, search, drawing. */
int ior_dash_stream_key(struct ior_dash *d, const struct ior_tui_key *k);
void ior_dash_search_key(struct ior_dash *d, const struct ior_tui_key *k);
/* d->shown from the ring and the filters (the picked process one of them). */
void ior_dash_stream_filter(struct ior_dash *d);
const char *ior_dash_stream_cell(void *ctx, size_t row, int col, char *buf, size_t len);
/* The columns' titles, the cursor's marked "[comm]" when marked. */
void ior_dash_stream_titles(struct ior_dash *d, int marked);
void ior_dash_draw_stream(struct ior_dash *d, struct ior_tui_screen *s, int top, int height);

/* The process picker (picker.c). */
int ior_dash_picker_key(struct ior_dash *d, const struct ior_tui_key *k);
void ior_dash_draw_picker(struct ior_dash *d, struct ior_tui_screen *s);
void ior_dash_pick(struct ior_dash *d, int64_t pid, const char *comm);
void ior_dash_pick_add(struct ior_dash *d, const struct ior_event_pair *p);
/* "pid 42 (comm)" and since when, for the title; "" without a pick. */
void ior_dash_pick_label(const struct ior_dash *d, char *buf, size_t len);

/* The Latency tab (latency.c). */
void ior_dash_lat_add(struct ior_dash *d, const struct ior_event_pair *p);
void ior_dash_draw_latency(struct ior_dash *d, struct ior_tui_screen *s, int top, int height);
void ior_dash_lat_free(struct ior_dash *d);

/* A histogram by powers of two of h, what counting (pairs, requests). */
void ior_dash_draw_hist(struct ior_dash *d, struct ior_tui_screen *s, int top, int col, int width, int height,
			const struct ior_hist *h, const char *title, const char *what);

/* The Devices tab (devices.c). */
void ior_dash_devices_init(struct ior_dash *d);
/* d->devs from the stats' device table, sorted as asked. */
void ior_dash_devices_select(struct ior_dash *d);
int ior_dash_devices_key(struct ior_dash *d, const struct ior_tui_key *k);
void ior_dash_draw_devices(struct ior_dash *d, struct ior_tui_screen *s, int top, int height);
/* A device's name: the caller's (a recording's), else this host's. */
const char *ior_dash_dev_name(struct ior_dash *d, uint32_t dev);

/* The Flame tab (flame.c). */
int ior_dash_flame_init(struct ior_dash *d);
void ior_dash_flame_free(struct ior_dash *d);
void ior_dash_flame_add(struct ior_dash *d, const struct ior_event_pair *p);
/* A new aggregate (order, metric or pick changed), replayed when it can. */
void ior_dash_flame_reset(struct ior_dash *d);
int ior_dash_flame_key(struct ior_dash *d, const struct ior_tui_key *k);
void ior_dash_draw_flame(struct ior_dash *d, struct ior_tui_screen *s, int top, int height);

#endif
