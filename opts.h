/* Command-line options, filled by main.c from Go-style flags and read by
 * the rooms' command entry points. Strings point into argv or literals. */
#ifndef IOR_OPTS_H
#define IOR_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pair/norm.h"

#define IOR_DURATION_UNSET UINT64_MAX /* traces stop after 900 s, the dashboard at q */

struct ior_opts {
	/* filters (pid/tid < 0: none) */
	int64_t pid, tid;
	const char *comm, *path;
	const char *tps, *tps_exclude; /* comma-separated regexes, "" = none */
	/* comma-separated families and syscall names (syscalls/select.h) */
	const char *trace_families, *trace_syscalls, *no_trace_families, *no_trace_syscalls;
	bool follow;           /* -pid N: its descendants too */
	bool plain_device;     /* -plainDevice: -plainColumns=device,cache (main.c sets it so) */
	const char *plain_columns; /* -plainColumns: csv/csv.h's extra columns, NULL: none */
	bool no_block;         /* -noblock: no block requests (device time, device table) */
	char *const *command;  /* ior -- CMD ARGS: NULL-terminated; NULL: none */
	const char *user;      /* -u: CMD runs as this user; "": SUDO_UID's, else ior's */

	/* live tracing */
	uint64_t duration_ns;  /* stop after this long; IOR_DURATION_UNSET: not given */
	uint64_t map_size;     /* bytes per per-CPU perf ring, power of two */
	bool plain;            /* CSV stream to stdout */
	const char *escape;    /* auto | always | never */
	bool flamegraph;       /* record to .ior.zst */
	const char *name;      /* recording name */
	bool live;
	bool summary;          /* tables per syscall, file, process at the end */
	bool tui;              /* the dashboard (bare ior on a terminal opens it too) */
	bool verbose;
	bool bench_empty;      /* hidden: attach the empty program only */
	bool bench_detached;   /* hidden: load the syscall programs, attach none */

	/* the flight recorder: -recorder (0: off) */
	uint64_t recorder_ns;
	uint64_t recorder_size;      /* -recorder-size: bytes of frames held */
	const char *const *triggers; /* -trigger, each use one */
	size_t ntriggers;
	uint64_t after_ns;           /* -after; IOR_DURATION_UNSET: a quarter of the window */
	int64_t max_dumps;           /* -max-dumps; 0: no limit */
	const char *rotate;          /* -rotate SIZE|DURATION for -flamegraph; NULL: none */
	int64_t keep;                /* -keep: files of a rotated series kept; 0: all */

	/* recordings */
	const char *ior_file;  /* -ior=FILE */
	const char *fields;    /* comma-separated: flame/field.c's ior_flame_fields[] names */
	const char *count;     /* count | duration | durationToPrev | bytes */
	bool flamegraph_json;
	uint64_t watch_interval_ns; /* 0: do not watch */
	const char *http_addr; /* ADDR:PORT; default 127.0.0.1:0 */
	bool http_any;         /* -http-any: 0.0.0.0 or :: allowed */
	bool nohttp;

	/* ior diff */
	const char *normalize; /* rate | total | share */
	bool folded;           /* "stack base new" lines on stdout */
	bool json;             /* -summary as JSON */
	const char *baseline;  /* -live: the recording the live graph is compared with */

	const char *parquet;   /* -parquet OUT while tracing; ior parquet: -o OUT */
	char **more_files;     /* ior collapsed A B...: the recordings after the first */
	int nmore_files;
	const char *ior_version;

	bool check, list, version, help;
};

/* Mode entry points, in cmd/ (the only code that wires several rooms
 * together); each returns the process exit code (0 ok, 1 runtime failure,
 * 2 usage) and prints its own errors. */
int ior_cmd_check(const struct ior_opts *o);                    /* cmd/check.c */
int ior_cmd_trace(const struct ior_opts *o);                    /* cmd/trace.c */
int ior_cmd_flame(const struct ior_opts *o);                    /* cmd/view.c */
int ior_cmd_replay(const struct ior_opts *o);                   /* cmd/view.c */
int ior_cmd_collapsed(const struct ior_opts *o, const char *file); /* cmd/view.c */
int ior_cmd_summary(const struct ior_opts *o, const char *file);   /* cmd/view.c */
int ior_cmd_diff(const struct ior_opts *o, const char *base, const char *new_); /* cmd/view.c */
int ior_cmd_dash(const struct ior_opts *o);                     /* cmd/dash.c: -ior=FILE -tui */
int ior_cmd_list(const struct ior_opts *o);                     /* cmd/list.c: -list */
/* The syscalls the selection flags pick, into sel[ior_nsyscalls]: 0, or
 * 2 (usage) after saying why on stderr. cmd/list.c */
int ior_cmd_select(const struct ior_opts *o, unsigned char *sel);
int ior_cmd_parquet(const struct ior_opts *o, const char *file);  /* cmd/parquet.c */
/* -http's address before serving: 0 (a non-loopback one warned about in
 * one line), or 2 after saying that 0.0.0.0/:: want -http-any. cmd/view.c */
int ior_cmd_http_check(const struct ior_opts *o);
/* What to do about a failed write of an output (errno e): " (...)" or "";
 * in_cwd: the file goes where ior runs (recordings). cmd/trace.c */
const char *ior_cmd_write_hint(int e, bool in_cwd);
/* After reading a recording: the one warning line naming the syscalls it
 * used that no ior table knows (read as family Misc), if any. cmd/view.c */
struct ior_rec_reader;
void ior_cmd_warn_unknown(const char *file, const struct ior_rec_reader *r);

/* Opens a recording to read; on failure says why (unless quiet): -1.
 * cmd/view.c */
struct ior_rec_reader;
int ior_cmd_open_recording(const char *file, struct ior_rec_reader **r, bool quiet);

/* A recording's block requests into s's device table (those whose
 * submitter and file pass filter, copied) and its device names as its
 * host named them, hooked on r (rec/rec.h): NULL when out of memory (no
 * device table then). Freed with free() after r is read. Names by
 * ior_cmd_rec_dev_name(ctx = it, dev), valid until its next call. cmd/view.c */
struct ior_stats;
struct ior_flame_spec;
struct ior_cmd_rec_devices;
struct ior_cmd_rec_devices *ior_cmd_rec_devices(struct ior_rec_reader *r, struct ior_stats *s,
						const struct ior_flame_spec *filter);
const char *ior_cmd_rec_dev_name(void *ctx, uint32_t dev);

/* -live -baseline FILE: FILE's tree (a recording, A,B,... or a
 * directory) by spec, for flame/live.h; NULL after saying why. Freed with
 * ior_cmd_free_tree. cmd/view.c */
struct ior_flame_tree;
struct ior_flame_spec;
struct ior_flame_tree *ior_cmd_baseline_tree(const char *file, const struct ior_flame_spec *spec);
void ior_cmd_free_tree(struct ior_flame_tree *t);

/* -baseline FILE for the tables (the dashboard's change columns, -summary):
 * FILE's statistics as recorded (no filter: record it with the trace's);
 * NULL after saying why. cmd/view.c */
struct ior_stats;
struct ior_stats *ior_cmd_baseline_stats(const char *file);
/* The tables of what changed from b to n (ior diff -summary) into out;
 * 0, or 1 after saying why. cmd/view.c */
int ior_cmd_diff_print(struct ior_stats *b, struct ior_stats *n, enum ior_norm norm, const char *base_name,
		       const char *new_name, bool json, FILE *out);

/* -parquet OUT while tracing (cmd/parquet.c), for cmd/trace.c: open
 * creates OUT.tmp and adds sink to the session; close writes the footer
 * after ior_session_stop and renames OUT.tmp to OUT (a failed write
 * removes it), then the device table beside it (parquet/devices.h). Both
 * print their errors: 0 or 1. A sink not closed is dropped with
 * ior_cmd_parquet_abort (OUT.tmp removed). */
struct ior_session;
struct ior_pq_sink;
int ior_cmd_parquet_open(struct ior_pq_sink *sink, struct ior_session *s, const struct ior_opts *o);
int ior_cmd_parquet_close(struct ior_pq_sink *sink, struct ior_session *s, const struct ior_opts *o);
void ior_cmd_parquet_abort(struct ior_pq_sink *sink);
/* The flag of an output only tracing writes (-flamegraph, -live,
 * -parquet) when o asks for one, else NULL. cmd/trace.c */
const char *ior_cmd_trace_only_output(const struct ior_opts *o);

#endif
