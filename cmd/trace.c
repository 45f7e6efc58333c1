/* ior's trace command: options, the sinks a run asks for (-plain CSV,
 * -flamegraph recording, -live flamegraph over HTTP, -summary statistics
 * printed at the end; with none of them, the dashboard on a terminal
 * (cmd/dash.c) or, when stdout is no terminal, the statistics' text
 * report every REPORT_NS and at the end), and the loop that
 * polls the session's rings (and the server's fds) until Ctrl-C, SIGTERM,
 * SIGHUP, the -duration, a failed sink, or the end of the target (CMD,
 * -pid, -tid, -follow: cmd/run.c). The tracing itself is
 * trace/session.h; this file only wires rooms together.
 *
 * -live: every pair is added to an in-memory aggregate (flame/live.h, the
 * -ior=FILE aggregation, bounded by its key cap). The embedded HTTP server
 * serves "/" (http's reload page) and LIVE_SVG_ROUTE. Its fds join the
 * rings' poll, and ior_http_poll(srv, 0) runs when one is ready or every
 * HTTP_TICK_NS for its deadlines, so serving never blocks the drain. The
 * SVG is regenerated on this thread at most every LIVE_INTERVAL_NS and only
 * when pairs arrived; the page reloads it every LIVE_PAGE_S seconds. A
 * polling page rather than push: no connection held per open tab, and a
 * failed reload (ior stopped) keeps the last graph on screen. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cmd/dash.h"
#include "cmd/run.h"
#include "flame/diff.h"
#include "flame/live.h"
#include "http/http.h"
#include "loader/loader.h"
#include "log/log.h"
#include "flags.h"
#include "opts.h"
#include "out/out.h"
#include "stats/report.h"
#include "pair/clock.h"
#include "csv/out.h"
#include "parquet/sink.h"
#include "rec/sink.h"
#include "recorder/recorder.h"
#include "syscalls/select.h"
#include "trace/session.h"
#include "syscalls/syscalls.h"
#include "tui/term.h"

#define POLL_MS 75                      /* timed poll: latency bound at low rates */
#define MIN_RING_BYTES (64u << 10)
#define MAX_RINGS 1024
#define LIVE_INTERVAL_NS 2000000000ull /* least time between two live SVGs */
#define LIVE_PAGE_S 2                   /* the live page reloads this often */
#define LIVE_SVG_ROUTE "/live.svg"
#define HTTP_TICK_NS 100000000ull       /* server deadlines checked this often */
#define REPORT_NS 5000000000ull         /* bare ior without a terminal: a report this often */

static volatile sig_atomic_t stop_signal, stop_from_tty, dump_signal;

/* -recorder: SIGUSR1 asks for a dump now. */
static void on_dump_signal(int sig)
{
	(void)sig;
	dump_signal = 1;
}

/* A terminal's Ctrl-C reaches CMD too: si_code says who sent it. */
static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	stop_signal = sig;
	stop_from_tty = si && si->si_code == SI_KERNEL;
}

struct trace {
	const struct ior_opts *o;
	enum ior_escape esc;
	unsigned char sel[IOR_NR_MAX];
	struct ior_session *session;
	struct ior_csv_out *csv;
	struct ior_rec_sink rec;     /* -flamegraph */
	char rec_path[PATH_MAX];
	uint64_t rotate_bytes, rotate_ns; /* -rotate: one of them, else 0 */
	char series_dir[PATH_MAX];   /* -rotate: where the series goes */
	uint64_t rec_opened_ns;
	struct ior_trace_totals rec_base; /* the session's when this file started */
	char (*kept)[PATH_MAX];      /* -keep: the series' files, oldest first */
	size_t nkept;
	struct ior_pq_sink pq;       /* -parquet */
	struct ior_recorder *recorder; /* -recorder */
	struct ior_trigger triggers[IOR_FLAG_LIST_MAX];
	struct ior_flame_spec spec;  /* -live: -fields and -count */
	struct ior_flame_tree *baseline; /* -live -baseline FILE: its graph */
	enum ior_norm norm;
	struct ior_flame_live *live;
	struct ior_http *http;       /* NULL once stopped (or failed) */
	uint64_t http_polled_ns;
	int live_error;              /* errno of the first failed update, warned once */
	struct ior_stats *stats;     /* -summary, the dashboard, the text reports */
	struct ior_stats *base_stats; /* -baseline FILE with them: FILE's */
	bool dash;                   /* no output asked for: the dashboard or text reports */
	bool summary;                /* statistics printed at the end: -summary, or -- CMD's default */
	struct run_target run;       /* CMD, -pid/-tid, -follow */
	bool draw;                   /* the dashboard on the terminal */
	struct dash_ui *ui;
	FILE *later;                 /* warnings while the dashboard has the terminal */
	char *later_buf;
	size_t later_len;
	uint64_t next_report;        /* text reports: when the next is due */
	char err[64 << 10];          /* room for a verifier log */
};

static bool any_output_asked(const struct ior_opts *o);

static int usage_error(const char *fmt, const char *arg)
{
	fputs("ior: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs(" (see ior -help)\n", stderr);
	return 2;
}

/* -recorder and its flags: 0 or 2 after saying why. */
static int check_recorder(struct trace *t)
{
	const struct ior_opts *o = t->o;
	char err[300];

	if (!o->recorder_ns) {
		const char *f = o->ntriggers ? "-trigger" : o->after_ns != IOR_DURATION_UNSET ? "-after" :
				o->max_dumps ? "-max-dumps" : NULL;
		return f ? usage_error("%s belongs to the flight recorder: add -recorder DURATION (e.g. -recorder 60s)",
				       f) : 0;
	}
	if (o->recorder_size < IOR_RECORDER_MIN_BYTES)
		return usage_error("-recorder-size %s: at least 4M (the encoder takes about 2 MiB of it)",
				   o->recorder_size ? "too small" : "0");
	if (o->max_dumps < 0)
		return usage_error("-max-dumps %s: want 0 (no limit) or more", "below 0");
	if (o->after_ns != IOR_DURATION_UNSET && o->after_ns > o->recorder_ns * 16)
		return usage_error("-after %s: at most 16 times the -recorder window", "too long");
	for (size_t i = 0; i < o->ntriggers; i++)
		if (ior_trigger_parse(&t->triggers[i], o->triggers[i], err, sizeof err)) {
			fprintf(stderr, "ior: -trigger \"%.300s\": %s (see ior -help)\n", o->triggers[i], err);
			return 2;
		}
	return 0;
}

/* -rotate SIZE|DURATION: a size has K, M or G, a duration ns..h. */
static int check_rotate(struct trace *t)
{
	const struct ior_opts *o = t->o;
	const char *r = o->rotate;
	size_t n = r ? strlen(r) : 0;

	if (!r)
		return o->keep ? usage_error("-keep %s belongs to -rotate", "N") : 0;
	if (!o->flamegraph)
		return usage_error("-rotate \"%s\" cuts the -flamegraph recording: add -flamegraph", r);
	if (o->keep < 0)
		return usage_error("-keep %s: want 0 (all) or more", "below 0");
	bool size = n && strchr("KkMGB", r[n - 1]);
	if (size ? ior_parse_size(r, &t->rotate_bytes) : ior_parse_duration(r, &t->rotate_ns))
		return usage_error("-rotate \"%s\": want a size like 256M or a duration like 1h", r);
	if (!size && (!n || !strchr("smh", r[n - 1])))
		return usage_error("-rotate \"%s\": say which: a size like 256M or a duration like 1h", r);
	if (size && t->rotate_bytes < (64u << 10))
		return usage_error("-rotate \"%s\": at least 64K", r);
	if (!size && t->rotate_ns < 1000000000ull)
		return usage_error("-rotate \"%s\": at least 1s", r);
	return 0;
}

static int check_opts(struct trace *t)
{
	const struct ior_opts *o = t->o;
	char n[32];

	if (check_recorder(t) || check_rotate(t))
		return 2;
	if (ior_escape_parse(o->escape, &t->esc))
		return usage_error("-escape \"%s\": want auto, always or never", o->escape);
	if (strlen(o->comm) >= IOR_COMM_LEN)
		return usage_error("-comm \"%s\": longer than a command name can be (15 bytes)", o->comm);
	snprintf(n, sizeof n, "%llu", (unsigned long long)o->map_size);
	if (o->map_size > (1ull << 30))
		return usage_error("-mapSize %s: at most 1G per CPU", n);
	if (o->map_size && o->map_size < MIN_RING_BYTES)
		return usage_error("-mapSize %s: at least 64K (a ring holds whole batches of up to 8 KiB)", n);
	if (o->map_size && (o->map_size & (o->map_size - 1)))
		return usage_error("-mapSize %s: must be a power of two (e.g. 256K, 1M, 4M)", n);
	t->dash = o->tui || !any_output_asked(o);
	t->summary = o->summary || (t->dash && o->command);
	t->dash &= !o->command;
	if (o->tui && (o->plain || o->live))
		return usage_error("-tui draws on the terminal: drop %s", o->plain ? "-plain" : "-live");
	t->draw = t->dash && ior_tui_term_can_draw(1, getenv("TERM")) && isatty(0);
	if (o->live && o->nohttp)
		return usage_error("%s-live serves its flamegraph over HTTP: drop -nohttp", "");
	if (o->live && ior_cmd_http_check(o))
		return 2;
	if (o->live && ior_flame_spec_parse(&t->spec, o->fields, o->count, t->err, sizeof t->err))
		return usage_error("%s", t->err);
	if (o->baseline && !o->live && !t->dash && !t->summary)
		return usage_error("-baseline \"%s\" compares this trace with a recording: add -live (the graph), "
				   "-summary (the tables) or -tui (the dashboard); two recordings: ior diff BASE NEW",
				   o->baseline);
	if (o->baseline && ior_norm_parse(o->normalize, &t->norm))
		return usage_error("-normalize \"%s\": use rate, total or share", o->normalize);
	return 0;
}

/* Default ring size: 8 MiB per CPU absorbs a core issuing syscalls flat
 * out (~60 ms of records: 128 bytes a pair, 1.1 M pairs/s per CPU here)
 * while ior is descheduled: with 4 MiB, a 2-CPU
 * VM whose host took CPU 0 away lost a few hundred records in one of the
 * bench's runs. On larger machines the total stays near 32 MiB of locked
 * kernel memory, never below 256 KiB per CPU. */
static uint64_t ring_bytes(const struct ior_opts *o)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t n = 8u << 20;

	if (o->map_size)
		return o->map_size;
	while (n > (256u << 10) && cpus > 0 && n * (uint64_t)cpus > (32u << 20))
		n >>= 1;
	return n;
}


static int fail(struct trace *t, int r, const char *what)
{
	const char *hint = r == -EPERM || r == -EACCES ? " (run as root, or with CAP_BPF and CAP_PERFMON)" : "";
	fprintf(stderr, "ior: %s: %s%s\n", what, t->err[0] ? t->err : strerror(-r), hint);
	return 1;
}

/* ---- -flamegraph: the recording ----------------------------------------- */

const char *ior_cmd_write_hint(int e, bool in_cwd)
{
	if (e == ENOSPC || e == EDQUOT || e == EFBIG)
		return in_cwd ? " (free some space, or run ior from a directory on another file system)" :
				" (free some space, or write to another file system)";
	if (e == EACCES || e == EROFS || e == ENOENT || e == EPERM)
		return in_cwd ? " (run ior from a directory it can write to)" :
				" (choose a directory ior can write to)";
	return "";
}

/* -rotate: the series' directory, HOST-NAME-TIME, the sudo user's. */
static int open_series(struct trace *t, const char *host)
{
	char name[PATH_MAX];
	size_t sl = strlen(IOR_RECORDING_SUFFIX);
	uid_t uid;
	gid_t gid;
	int r = ior_rec_default_name(name, sizeof name, host, t->o->name, time(NULL));

	if (r < 0)
		return r;
	name[strlen(name) - sl] = 0;
	snprintf(t->series_dir, sizeof t->series_dir, "%s", name);
	if (mkdir(t->series_dir, 0700) && errno != EEXIST)
		return -errno;
	if (!ior_out_owner(&uid, &gid, NULL, 0) && uid != (uid_t)-1 && chown(t->series_dir, uid, gid))
		return -errno;
	t->kept = calloc(t->o->keep ? (size_t)t->o->keep + 1 : 1, sizeof *t->kept);
	return t->kept ? 0 : -ENOMEM;
}

/* The next file's name: in the series' directory, "-2", "-3"... when a
 * file of the same second is there. */
static int next_name(struct trace *t, const char *host)
{
	char base[PATH_MAX];
	struct stat st;
	int r = ior_rec_default_name(base, sizeof base - 16, host, t->o->name, time(NULL));

	if (r < 0 || !t->series_dir[0]) {
		if (!r)
			snprintf(t->rec_path, sizeof t->rec_path, "%s", base);
		return r;
	}
	base[strlen(base) - strlen(IOR_RECORDING_SUFFIX)] = 0;
	for (unsigned i = 1; i < 10000; i++) {
		char nth[16] = "";
		if (i > 1)
			snprintf(nth, sizeof nth, "-%u", i);
		if (snprintf(t->rec_path, sizeof t->rec_path, "%s/%s%s%s", t->series_dir, base, nth,
			     IOR_RECORDING_SUFFIX) >= (int)sizeof t->rec_path)
			return -ENAMETOOLONG;
		if (lstat(t->rec_path, &st))
			return 0;
	}
	return -EEXIST;
}

/* -keep N: the oldest file of the series goes when there are more. */
static void keep_files(struct trace *t)
{
	if (!t->kept)
		return;
	size_t keep = t->o->keep ? (size_t)t->o->keep : 0;
	if (!keep)
		return;
	snprintf(t->kept[t->nkept++], PATH_MAX, "%s", t->rec_path);
	if (t->nkept <= keep)
		return;
	if (unlink(t->kept[0]))
		fprintf(stderr, "ior: -keep %zu: removing %s: %s\n", keep, t->kept[0], strerror(errno));
	else
		fprintf(stderr, "ior: -keep %zu: removed %s\n", keep, t->kept[0]);
	memmove(t->kept, t->kept + 1, (t->nkept - 1) * sizeof *t->kept);
	t->nkept--;
}

static int start_file(struct trace *t, const char *host)
{
	int r = next_name(t, host);

	if (r < 0)
		snprintf(t->err, sizeof t->err, "recording name for -name \"%s\": %s", t->o->name, strerror(-r));
	else
		r = ior_rec_writer_open(&t->rec.w, t->rec_path, NULL, t->err, sizeof t->err);
	if (r < 0) {
		fprintf(stderr, "ior: -flamegraph: %s%s\n", t->err, ior_cmd_write_hint(-r, true));
		return 1;
	}
	t->rec_opened_ns = ior_mono_ns();
	if (t->session)
		ior_session_totals(t->session, &t->rec_base);
	keep_files(t);
	return 0;
}

static int open_recording(struct trace *t)
{
	struct utsname u;
	const char *host = uname(&u) ? "localhost" : u.nodename;
	int r = t->o->rotate ? open_series(t, host) : 0;

	if (r < 0) {
		fprintf(stderr, "ior: -rotate: creating the series' directory %s: %s%s\n", t->series_dir, strerror(-r),
			ior_cmd_write_hint(-r, true));
		return 1;
	}
	if (t->series_dir[0])
		fprintf(stderr, "ior: -rotate: writing the recording as a series in %s/\n", t->series_dir);
	return start_file(t, host) ? 1 : ior_session_add_sink(t->session, ior_rec_sink(&t->rec));
}

/* What the session counted while this file was written. */
static void file_totals(struct trace *t, struct ior_trace_totals *d)
{
	struct ior_trace_totals now, *b = &t->rec_base;

	ior_session_totals(t->session, &now);
	*d = (struct ior_trace_totals){
		.pairs = now.pairs - b->pairs, .pairs_seen = now.pairs_seen - b->pairs_seen, .lost = now.lost - b->lost,
		.unpaired_exits = now.unpaired_exits - b->unpaired_exits,
		.overwritten_enters = now.overwritten_enters - b->overwritten_enters, .in_flight = now.in_flight,
		.summarized = now.summarized - b->summarized,
	};
}

static int close_recording(struct trace *t)
{
	struct ior_trace_totals tot;
	struct stat st;
	uint64_t pairs;
	int r;

	if (!t->rec.w)
		return 1; /* a rotation failed, and said so */
	pairs = ior_rec_writer_pairs(t->rec.w);
	file_totals(t, &tot);
	r = ior_rec_writer_close(t->rec.w, &tot, t->err, sizeof t->err);
	t->rec.w = NULL;
	if (r < 0 || t->rec.error) {
		int e = t->rec.error ? t->rec.error : -r;
		/* the writer's message already names the file */
		fprintf(stderr, "ior: %s%s\n", r < 0 ? t->err : strerror(e), ior_cmd_write_hint(e, true));
		return 1;
	}
	fprintf(stderr, "Wrote %s (%llu pairs, %lld bytes)\n", t->rec_path, (unsigned long long)pairs,
		stat(t->rec_path, &st) ? -1LL : (long long)st.st_size);
	return 0;
}

/* -rotate: the next file of the series when this one is big or old
 * enough. A failure stops the recording (said), not the trace. */
static void rotate_due(struct trace *t, uint64_t now)
{
	struct utsname u;

	if (!t->rec.w || (!t->rotate_bytes && !t->rotate_ns))
		return;
	if (t->rotate_bytes ? ior_rec_writer_bytes(t->rec.w) < t->rotate_bytes : now - t->rec_opened_ns < t->rotate_ns)
		return;
	if (close_recording(t) || start_file(t, uname(&u) ? "localhost" : u.nodename))
		t->rotate_bytes = t->rotate_ns = 0;
}

/* ---- -recorder: the flight recorder --------------------------------------- */

static size_t recorder_in_flight(void *ctx, struct ior_in_flight *out, size_t max)
{
	return ior_session_in_flight(ctx, out, max);
}

static void recorder_totals(void *ctx, struct ior_trace_totals *tot)
{
	ior_session_totals(ctx, tot);
}

static int open_recorder(struct trace *t)
{
	const struct ior_opts *o = t->o;
	struct ior_recorder_cfg c = {
		.window_ns = o->recorder_ns, .max_bytes = o->recorder_size,
		.after_ns = o->after_ns == IOR_DURATION_UNSET ? o->recorder_ns / 4 : o->after_ns,
		.max_dumps = (unsigned)(o->max_dumps > UINT_MAX ? UINT_MAX : o->max_dumps),
		.triggers = t->triggers, .ntriggers = o->ntriggers, .name = o->name,
		.in_flight = recorder_in_flight, .totals = recorder_totals, .ctx = t->session,
	};
	struct sigaction sa;
	int r = ior_recorder_new(&t->recorder, &c, t->err, sizeof t->err);

	if (r < 0)
		return fail(t, r, "-recorder");
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_dump_signal;
	sigaction(SIGUSR1, &sa, NULL);
	struct ior_recorder_state st;
	ior_recorder_state(t->recorder, &st);
	fprintf(stderr, "ior: recorder: keeping the last %.1f s in at most %llu MiB (%.1f MiB of frames, the rest "
			"the encoder), %zu trigger%s; SIGUSR1 (kill -USR1 %d) dumps now\n",
		(double)o->recorder_ns / 1e9, (unsigned long long)(o->recorder_size >> 20),
		(double)st.frames_max / 1048576.0, o->ntriggers, o->ntriggers == 1 ? "" : "s", (int)getpid());
	return ior_session_add_sink(t->session, ior_recorder_sink(t->recorder));
}

static void recorder_signal(struct trace *t)
{
	if (!dump_signal || !t->recorder)
		return;
	dump_signal = 0;
	int r = ior_recorder_dump_now(t->recorder, "SIGUSR1");
	if (r == -EBUSY)
		fprintf(stderr, "ior: recorder: SIGUSR1 ignored: a dump is being written\n");
	else if (r == -EDQUOT)
		fprintf(stderr, "ior: recorder: SIGUSR1 ignored: -max-dumps %lld reached\n", (long long)t->o->max_dumps);
}

static int close_recorder(struct trace *t)
{
	struct ior_recorder_state st;
	int rc = ior_recorder_close(t->recorder);

	ior_recorder_state(t->recorder, &st);
	fprintf(stderr, "ior: recorder: held the last %.1f s (%.1f of %llu MiB), %zu trigger%s, %u dump%s written",
		(double)st.covers_ns / 1e9, (double)st.bytes / 1048576.0, (unsigned long long)(st.max_bytes >> 20),
		st.ntriggers, st.ntriggers == 1 ? "" : "s", st.dumps, st.dumps == 1 ? "" : "s");
	if (st.failed)
		fprintf(stderr, ", %u failed", st.failed);
	if (st.dropped_pairs)
		fprintf(stderr, ", %llu pairs dropped by -recorder-size before -recorder's window was up",
			(unsigned long long)st.dropped_pairs);
	fputc('\n', stderr);
	return rc;
}

/* ---- -live: the aggregate and its server --------------------------------- */

/* Renders the SVG when due and serves it; a failure is warned about once
 * and the page keeps showing the last graph. */
static void publish_live(struct trace *t, uint64_t now)
{
	size_t len;
	int r = ior_flame_live_tick(t->live, now);

	if (r > 0) {
		const char *svg = ior_flame_live_svg(t->live, &len);
		r = ior_http_set(t->http, LIVE_SVG_ROUTE, "image/svg+xml", svg, len);
	}
	if (r < 0 && !t->live_error) {
		t->live_error = -r;
		fprintf(stderr, "ior: warning: live flamegraph not updated: %s (the page keeps the last one)\n",
			strerror(-r));
	}
}

/* The aggregate, the server, its page and a first (empty) SVG. Returns 0,
 * or 1 after printing why. */
static int open_live(struct trace *t)
{
	struct ior_flame_live_cfg cfg = { .spec = t->spec, .interval_ns = LIVE_INTERVAL_NS };
	char fields[128], title[200];
	struct utsname u;
	size_t len;
	char *page;
	int r;

	cfg.host = uname(&u) ? NULL : u.nodename;
	cfg.realtime_offset_ns = ior_realtime_offset_ns();
	if (t->o->baseline && !(t->baseline = ior_cmd_baseline_tree(t->o->baseline, &t->spec)))
		return 1;
	cfg.baseline = t->baseline;
	cfg.baseline_name = t->o->baseline;
	cfg.norm = t->norm;
	if ((r = ior_flame_live_new(&t->live, &cfg)) < 0)
		return t->err[0] = 0, fail(t, r, "setting up the live flamegraph");
	if (ior_http_open(&t->http, t->o->http_addr, t->err, sizeof t->err) < 0) {
		fprintf(stderr, "ior: live flamegraph: %s (try -http=127.0.0.1:0)\n", t->err);
		return 1;
	}
	ior_flame_fields_str(&t->spec, ',', fields, sizeof fields);
	snprintf(title, sizeof title, "ior -live: %s by %s%s%.80s", fields, ior_flame_metric_name(t->spec.metric),
		 t->baseline ? " against " : "", t->baseline ? t->o->baseline : "");
	char svg_path[IOR_HTTP_TOKEN_LEN + sizeof LIVE_SVG_ROUTE + 2];
	ior_http_route_path(t->http, LIVE_SVG_ROUTE, svg_path, sizeof svg_path); /* the page's polls carry the token */
	page = ior_http_reload_page(svg_path, title, LIVE_PAGE_S, &len);
	r = page ? ior_http_set(t->http, "/", "text/html; charset=utf-8", page, len) : -errno;
	free(page);
	if (r < 0)
		return t->err[0] = 0, fail(t, r, "setting up the live page");
	publish_live(t, ior_mono_ns());
	return ior_session_add_sink(t->session, ior_flame_live_sink(t->live));
}

static bool any_ready(const struct pollfd *pfd, nfds_t n)
{
	for (nfds_t i = 0; i < n; i++)
		if (pfd[i].revents)
			return true;
	return false;
}

/* After a step: a new SVG when due, then whatever the server's fds (in
 * pfd[0..n)) have ready, and its deadlines now and then. */
static void serve_live(struct trace *t, const struct pollfd *pfd, nfds_t n, uint64_t now)
{
	publish_live(t, now);
	if (!any_ready(pfd, n) && now - t->http_polled_ns < HTTP_TICK_NS)
		return;
	t->http_polled_ns = now;
	int r = ior_http_poll(t->http, 0);
	if (r < 0) {
		fprintf(stderr, "ior: warning: the live flamegraph's HTTP server failed: %s; tracing goes on without it\n",
			strerror(-r));
		ior_http_close(t->http);
		t->http = NULL;
	}
}

/* What the aggregate held, and what it could not count: 1 when any. */
static int close_live(struct trace *t)
{
	const struct ior_flame_agg *a = ior_flame_live_agg(t->live);
	uint64_t other = ior_flame_agg_other_pairs(a);

	fprintf(stderr, "ior: live flamegraph: %llu pairs in %u distinct stacks",
		(unsigned long long)ior_flame_agg_pairs(a), ior_flame_agg_keys(a));
	if (other)
		fprintf(stderr, " (%llu of them in \"" IOR_FLAME_OTHER "\": past %u stacks, %u frames or %u MiB of names)",
			(unsigned long long)other, IOR_FLAME_LIVE_MAX_KEYS, IOR_FLAME_MAX_FRAMES,
			IOR_FLAME_LIVE_MAX_STRING_BYTES >> 20);
	if (ior_flame_live_failed(t->live))
		fprintf(stderr, ", %llu pairs not counted: out of memory",
			(unsigned long long)ior_flame_live_failed(t->live));
	fputc('\n', stderr);
	return ior_flame_live_failed(t->live) != 0;
}

/* ---- -summary: the statistics, printed at the end ------------------------- */

static int open_stats(struct trace *t)
{
	int r = ior_stats_new(&t->stats, NULL);

	if (r < 0)
		return t->err[0] = 0, fail(t, r, "setting up the statistics");
	if (t->o->baseline && !(t->base_stats = ior_cmd_baseline_stats(t->o->baseline)))
		return 1;
	return ior_session_add_sink(t->session, ior_stats_sink(t->stats));
}

/* On stdout, unless the CSV has it (-plain): then on stderr. A reader that
 * left (EPIPE) is no failure, as for the CSV. */
static int print_stats(struct trace *t)
{
	struct ior_stats_report_cfg cfg = { .esc = t->esc };
	FILE *out = t->o->plain ? stderr : stdout;
	if (t->base_stats)
		return ior_cmd_diff_print(t->base_stats, t->stats, t->norm, t->o->baseline, "this trace", false, out);
	int r = ior_stats_report(t->stats, out, &cfg);
	bool failed = (fflush(out) != 0) | (r < 0);
	int e = r == -ENOMEM ? ENOMEM : errno;

	if (!failed || e == EPIPE)
		return 0;
	fprintf(stderr, "ior: writing the summary to %s: %s\n", t->o->plain ? "stderr" : "stdout", strerror(e));
	return 1;
}

/* ---- bare ior: the dashboard, or text reports ------------------------------ */

#define DEFAULT_DURATION_NS 900000000000ull

/* When the trace stops: -duration after the start; without it, 900 s, or
 * never for the dashboard (a person watches it, and quits with q) and
 * the flight recorder (left running until it happens). */
static uint64_t deadline_of(const struct trace *t, bool dashboard)
{
	uint64_t d = t->o->duration_ns, start = ior_session_started(t->session);

	if (d == IOR_DURATION_UNSET)
		d = dashboard || t->o->command || t->o->recorder_ns ? UINT64_MAX : DEFAULT_DURATION_NS;
	return d > UINT64_MAX - start ? UINT64_MAX : start + d;
}

/* The dashboard until q; the warnings that came meanwhile after it. */
static int run_dash(struct trace *t)
{
	void *out;
	ior_log_fn print = ior_log_set(NULL, NULL, &out);
	int rc;

	/* main's printer writes to the FILE it is given: here the buffer */
	t->later = open_memstream(&t->later_buf, &t->later_len);
	ior_log_set(print, t->later ? t->later : out, NULL);
	rc = ior_dash_ui_run(t->ui, deadline_of(t, true), &stop_signal);
	ior_log_set(print, out, NULL);
	if (t->later) {
		fclose(t->later);
		t->later = NULL;
		fputs(t->later_buf, stderr);
		free(t->later_buf);
	}
	return rc;
}

/* No terminal to draw on: the report every REPORT_NS. */
static void report_due(struct trace *t, uint64_t now)
{
	if (!t->next_report)
		t->next_report = now + REPORT_NS;
	if (now < t->next_report)
		return;
	t->next_report += REPORT_NS;
	printf("ior: statistics after %llu s of tracing\n",
	       (unsigned long long)((now - ior_session_started(t->session)) / 1000000000ull));
	print_stats(t);
	putchar('\n');
}

/* ---- the run ------------------------------------------------------------- */

/* The rings' fds first, then (with -live) the server's, refilled before
 * every wait. 0, or -ENOMEM. */
static int loop(struct trace *t)
{
	size_t cap = MAX_RINGS + (t->http ? IOR_HTTP_MAX_CONNS + 1 : 0);
	struct pollfd *pfd = calloc(cap, sizeof *pfd);
	uint64_t deadline = deadline_of(t, false);
	nfds_t nrings = pfd ? (nfds_t)ior_session_pollfds(t->session, pfd, MAX_RINGS) : 0, nhttp;

	if (!pfd)
		return -ENOMEM;
	while (!stop_signal || run_forward(&t->run, &stop_signal, stop_from_tty)) {
		uint64_t now = ior_mono_ns();
		if (now >= deadline || run_ended(&t->run, now))
			break;
		uint64_t left_ms = (deadline - now + 999999) / 1000000;
		nhttp = t->http ? (nfds_t)ior_http_pollfds(t->http, pfd + nrings) : 0;
		poll(pfd, nrings + nhttp, (int)(left_ms < POLL_MS ? left_ms : POLL_MS));
		now = ior_mono_ns();
		recorder_signal(t);
		if (ior_session_step(t->session, now) < 0)
			break; /* a sink failed: its owner says why */
		rotate_due(t, now);
		if (t->http)
			serve_live(t, pfd + nrings, nhttp, now);
		if (t->dash && !t->draw)
			report_due(t, now);
	}
	free(pfd);
	return 0;
}

static int open_session(struct trace *t)
{
	const struct ior_opts *o = t->o;
	struct ior_session_cfg c = {
		.probe = { .object = ior_bpf_object, .object_size = (size_t)(ior_bpf_object_end - ior_bpf_object),
			   .pid = t->run.follow ? -1 : o->pid, .tid = o->tid, .comm = o->comm, .sel = t->sel,
			   .follow = t->run.follow,
			   .verbose = o->verbose, .empty = o->bench_empty, .detached = o->bench_detached,
			   .no_block = o->no_block },
		.path_filter = o->path, .ring_bytes = ring_bytes(o),
	};
	int r = ior_cmd_select(o, t->sel);

	if (r)
		return r;
	if ((r = ior_session_open(&t->session, &c, t->err, sizeof t->err)) < 0)
		return fail(t, r, "loading the BPF programs");
	return run_seed(&t->run, t->session);
}

/* ---- the outputs ------------------------------------------------------- */

static int open_csv(struct trace *t)
{
	int r = -ENOMEM;
	struct ior_csv_columns cols;

	if (ior_csv_columns_parse(t->o->plain_columns, &cols, t->err, sizeof t->err)) /* main.c checked it */
		return fail(t, -EINVAL, "-plainColumns");
	if (!(t->csv = ior_csv_out_new(stdout, t->esc, stderr, &cols)) ||
	    (r = ior_session_add_sink(t->session, ior_csv_out_sink(t->csv))))
		return t->err[0] = 0, fail(t, r, "setting up the CSV output");
	return 0;
}

static int close_csv(struct trace *t)
{
	int r = ior_csv_out_close(t->csv);

	t->csv = NULL;
	if (r < 0 && r != -EPIPE) {
		fprintf(stderr, "ior: writing the CSV to stdout: %s\n", strerror(-r));
		return 1;
	}
	return 0;
}

static int open_parquet(struct trace *t)
{
	return ior_cmd_parquet_open(&t->pq, t->session, t->o);
}

static int close_parquet(struct trace *t)
{
	return ior_cmd_parquet_close(&t->pq, t->session, t->o);
}

static int close_stats(struct trace *t)
{
	return (t->summary || !t->draw) && print_stats(t);
}

static bool asked_plain(const struct ior_opts *o) { return o->plain; }
static bool asked_flamegraph(const struct ior_opts *o) { return o->flamegraph; }
static bool asked_parquet(const struct ior_opts *o) { return o->parquet; }
static bool asked_live(const struct ior_opts *o) { return o->live; }
static bool asked_recorder(const struct ior_opts *o) { return o->recorder_ns != 0; }
static bool asked_summary(const struct ior_opts *o) { return o->summary; }
static bool asked_bench_empty(const struct ior_opts *o) { return o->bench_empty; }
static bool wants_stats(const struct trace *t) { return t->summary || t->dash; }

/* What a trace writes, one row each, closed in this order. asked: the
 * user asked for it (none asked: the dashboard, or text reports);
 * wanted: this run opens it (NULL: when asked); live_only: a recording
 * cannot make it (main.c refuses -ior with it); after_attach: opened
 * once the programs are attached (the CSV header: a setup error leaves
 * stdout empty). open and close print why they failed: 0 or 1. */
static const struct output {
	const char *flag;
	bool live_only, after_attach;
	bool (*asked)(const struct ior_opts *o);
	bool (*wanted)(const struct trace *t);
	int (*open)(struct trace *t);
	int (*close)(struct trace *t);
} outputs[] = {
	{ "plain", false, true, asked_plain, NULL, open_csv, close_csv },
	{ "flamegraph", true, false, asked_flamegraph, NULL, open_recording, close_recording },
	{ "parquet", true, false, asked_parquet, NULL, open_parquet, close_parquet },
	{ "live", true, false, asked_live, NULL, open_live, close_live },
	{ "recorder", true, false, asked_recorder, NULL, open_recorder, close_recorder },
	{ "summary", false, false, asked_summary, wants_stats, open_stats, close_stats },
	{ "benchEmpty", false, false, asked_bench_empty, NULL, NULL, NULL },
};
#define NOUTPUTS (sizeof outputs / sizeof *outputs)

static bool any_output_asked(const struct ior_opts *o)
{
	for (size_t i = 0; i < NOUTPUTS; i++)
		if (outputs[i].asked(o))
			return true;
	return false;
}

const char *ior_cmd_trace_only_output(const struct ior_opts *o)
{
	for (size_t i = 0; i < NOUTPUTS; i++)
		if (outputs[i].live_only && outputs[i].asked(o))
			return outputs[i].flag;
	return NULL;
}

static bool wanted(const struct output *out, const struct trace *t)
{
	return out->open && (out->wanted ? out->wanted(t) : out->asked(t->o));
}

static int open_outputs(struct trace *t, bool attached)
{
	for (size_t i = 0; i < NOUTPUTS; i++) {
		int r = outputs[i].after_attach == attached && wanted(&outputs[i], t) ? outputs[i].open(t) : 0;
		if (r)
			return r;
	}
	return 0;
}

/* The outputs' last words; 1 when one failed. */
static int close_outputs(struct trace *t)
{
	int rc = 0;

	for (size_t i = 0; i < NOUTPUTS; i++)
		if (wanted(&outputs[i], t))
			rc |= outputs[i].close(t);
	return rc;
}

/* The outputs, the attachment, the snapshot; "tracing" is said after them. */
static int setup(struct trace *t)
{
	const struct ior_opts *o = t->o;
	int64_t snap_pid;
	int r = open_session(t);

	r = r ? r : open_outputs(t, false);
	if (!r && t->draw && (r = ior_dash_ui_open(&t->ui, t->stats, t->session, run_title(t->o), t->o->name,
						    &(struct ior_dash_base){ t->base_stats, t->o->baseline, t->norm })) < 0)
		r = (t->err[0] = 0, fail(t, r, "setting up the dashboard"));
	if (!r && t->ui && t->recorder)
		ior_dash_ui_set_recorder(t->ui, t->recorder);
	if (r)
		return r;
	if ((r = ior_session_attach(t->session, t->err, sizeof t->err)) < 0)
		return fail(t, r, "attaching to the tracepoints");
	snap_pid = run_attached(&t->run, t->session);
	if ((r = open_outputs(t, true)))
		return r;
	if (!o->bench_empty && (r = ior_session_snapshot(t->session, snap_pid, o->tid, o->comm)) < 0) {
		fprintf(stderr, "ior: reading the descriptors of running processes from /proc: %s\n", strerror(-r));
		return 1;
	}
	return 0;
}

static void teardown(struct trace *t)
{
	ior_csv_out_close(t->csv);
	if (t->rec.w)
		ior_rec_writer_close(t->rec.w, NULL, t->err, sizeof t->err);
	ior_cmd_parquet_abort(&t->pq);
	ior_recorder_free(t->recorder);
	free(t->kept);
	ior_http_close(t->http);
	ior_flame_live_free(t->live);
	ior_cmd_free_tree(t->baseline);
	ior_dash_ui_close(t->ui);
	ior_stats_free(t->stats);
	ior_stats_free(t->base_stats);
	ior_session_free(t->session);
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal; /* no SA_RESTART: poll returns at once */
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* the ssh session dropped: finish, like Ctrl-C */
	signal(SIGPIPE, SIG_IGN);  /* a closed stdout shows up as EPIPE */
}

int ior_cmd_trace(const struct ior_opts *o)
{
	static struct trace t;
	static char outbuf[1 << 16];
	int rc;

	memset(&t, 0, sizeof t);
	t.o = o;
	if ((rc = check_opts(&t)) || (rc = run_check(o)) || (rc = run_start(&t.run, o, o->live || t.dash)))
		return rc;
	install_signals();
	if (o->plain)
		setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
	if ((rc = setup(&t))) {
		run_abort(&t.run);
		teardown(&t);
		return rc;
	}
	const struct ior_probe *pr = ior_session_probe(t.session);
	char async[48] = "";
	if (pr->nasync)
		snprintf(async, sizeof async, " and %u async ops", pr->nasync);
	fprintf(stderr, "ior: tracing %u syscalls%s on %u CPUs (%s tracepoints), Ctrl-C to stop\n",
		pr->nattached, async, ior_session_cpus(t.session), pr->use_btf ? "BTF" : "raw");
	if (t.http)
		fprintf(stderr, "Live flamegraph at %s\n", ior_http_url(t.http));
	t.http_polled_ns = ior_mono_ns();
	if (run_release(&t.run))
		rc = 1;
	else if (t.draw)
		rc = run_dash(&t);
	else if ((rc = loop(&t)) < 0) {
		fprintf(stderr, "ior: tracing stopped: %s\n", strerror(-rc));
		rc = 1;
	}
	ior_http_close(t.http);
	t.http = NULL;
	ior_session_stop(t.session);
	ior_session_report(t.session, stderr, o->verbose);
	rc |= close_outputs(&t);
	teardown(&t);
	rc = run_finish(&t.run, rc, &stop_signal, &stop_from_tty);
	run_abort(&t.run);
	return rc;
}
