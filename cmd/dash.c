/* The dashboard mode: bare `ior [filters]` on a terminal (cmd/trace.c
 * hands its session over here) and `ior -ior=FILE -tui` on a recording.
 * One thread polls the rings, the terminal and the signal fd; a frame is
 * drawn into the next screen and only its difference written, at most
 * every FRAME_NS. Warnings that come while the terminal is ours wait in
 * the caller's hands (cmd/trace.c) until it is given back.
 *
 * Live, `r` starts a recording (rec/rec.h, the -flamegraph writer) fed
 * by a sink registered at open that writes only while one is open; a
 * failed write closes it and says so, the trace goes on. On a recording,
 * the dashboard's replay reads the file again (the picker, Flame's o and
 * m, a file's latency). */
#include "cmd/dash.h"
#include "dash/dash.h"
#include "flame/flame.h"
#include "opts.h"
#include "out/out.h"
#include "stats/report.h"
#include "pair/clock.h"
#include "rec/sink.h"
#include "recorder/recorder.h"
#include "text/escape.h"
#include "tui/keys.h"
#include "tui/screen.h"
#include "tui/term.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define FRAME_NS 100000000ull /* at most 10 frames a second */
#define ESC_WAIT_MS 30        /* a lone Esc is the Esc key after this long */
#define MAX_RINGS 1024

struct dash_ui {
	struct ior_dash *dash;
	struct ior_stats *stats;
	struct ior_session *session; /* NULL: a recording */
	struct ior_tui_screen shown, next;
	struct ior_tui_buf out;
	struct ior_tui_keys keys;
	int full, quit, stopped;
	uint64_t drawn_ns;
	const struct ior_opts *o;    /* a recording's: its file and filters */
	int draw;                    /* a recording on a terminal (else the report only) */
	const char *rec_name;        /* live: -name, in the recording's file name */
	struct ior_rec_sink rec;     /* live: the recording `r` started (rec.w), if any */
	char rec_path[PATH_MAX];
	struct ior_trace_totals rec_base; /* the session's totals when it started */
	char last_words[PATH_MAX + 640]; /* said on stderr after the terminal is back */
	struct ior_recorder *recorder;   /* live -recorder: D dumps it */
	struct ior_cmd_rec_devices *devs; /* a recording's block requests and device names */
	/* a dump's trigger pair: after it and hold_after more, the Stream
	 * takes no more (0: no hold) */
	uint32_t trig_tid;
	uint64_t trig_enter_ns, hold_after;
	int trig_seen;
};

void ior_dash_ui_set_recorder(struct dash_ui *ui, struct ior_recorder *r)
{
	ui->recorder = r;
}

/* "RING 12.3s 3.1/64MiB 2 armed 1 dump": what the top line says of it. */
static void recorder_state(struct dash_ui *ui)
{
	struct ior_recorder_state st;
	char s[160];

	if (!ui->recorder)
		return;
	ior_recorder_state(ui->recorder, &st);
	snprintf(s, sizeof s, "RING %.1fs %.1f/%lluMiB %zu/%zu armed %u dump%s%s%s", (double)st.covers_ns / 1e9,
		 (double)st.bytes / 1048576.0, (unsigned long long)(st.max_bytes >> 20), st.armed, st.ntriggers,
		 st.dumps, st.dumps == 1 ? "" : "s", st.failed ? " (failed: see the end)" : "",
		 st.dumping ? " DUMPING" : "");
	ior_dash_set_recorder(ui->dash, s);
}

/* D: a dump now; what came of it on the message line. */
static void dump_now(struct dash_ui *ui)
{
	int r = ior_recorder_dump_now(ui->recorder, "key");

	ior_dash_set_message(ui->dash, r == -EBUSY ? "D: a dump is being written" :
				       r == -EDQUOT ? "D: -max-dumps reached" :
						      "D: dumping: the file is written after -after");
}

static size_t in_flight(void *ctx, struct ior_in_flight *out, size_t max)
{
	return ior_session_in_flight(ctx, out, max);
}

static int replay(void *ctx, void (*add)(void *actx, const struct ior_event_pair *p), void *actx);

/* A recording's device names, as its host named them. */
static const char *rec_dev_name(void *ctx, uint32_t dev)
{
	struct dash_ui *ui = ctx;
	static char unnamed[32];

	if (ui->devs)
		return ior_cmd_rec_dev_name(ui->devs, dev);
	snprintf(unnamed, sizeof unnamed, "%u:%u", dev >> 20, dev & 0xfffff);
	return unnamed;
}

static int ui_new(struct dash_ui **out, struct ior_stats *stats, struct ior_session *session, const char *title,
		  const struct ior_opts *o, const struct ior_dash_base *base, unsigned stream_pairs)
{
	struct ior_dash_cfg cfg = { .stats = stats, .in_flight = session ? in_flight : NULL, .ctx = session,
				    .title = title, .replay = o ? replay : NULL, .baseline = base->stats,
				    .baseline_name = base->name, .baseline_norm = base->norm,
				    .stream_pairs = stream_pairs };
	struct dash_ui *ui = calloc(1, sizeof *ui);
	int utf8 = ior_tui_env_utf8(), r;

	*out = ui;
	if (!ui)
		return -ENOMEM;
	cfg.replay_ctx = ui;
	if (!session) {
		cfg.dev_name = rec_dev_name;
		cfg.dev_ctx = ui;
	}
	ui->o = o;
	ui->stats = stats;
	ui->session = session;
	ior_tui_keys_init(&ui->keys);
	if ((r = ior_dash_new(&ui->dash, &cfg)) < 0 || (r = ior_tui_screen_init(&ui->shown, 24, 80, utf8)) < 0 ||
	    (r = ior_tui_screen_init(&ui->next, 24, 80, utf8)) < 0)
		return r;
	ior_dash_set_state(ui->dash, session ? "tracing" : "recording");
	return 0;
}

/* ---- live: r records ---------------------------------------------------- */

static void start_recording(struct dash_ui *ui)
{
	char err[512], msg[768];
	struct utsname u;
	int r = ior_rec_default_name(ui->rec_path, sizeof ui->rec_path, uname(&u) ? "localhost" : u.nodename,
				     ui->rec_name, time(NULL));

	if (r < 0)
		snprintf(err, sizeof err, "recording name: %s", strerror(-r));
	else if (!access(ui->rec_path, F_OK)) /* the writer truncates: a name is by the second */
		snprintf(err, sizeof err, "%.400s exists (the last one, or -flamegraph's): try again in a second",
			 ui->rec_path), r = -EEXIST;
	else
		r = ior_rec_writer_open(&ui->rec.w, ui->rec_path, NULL, err, sizeof err);
	if (r < 0) {
		snprintf(msg, sizeof msg, "r: %s", err);
		ior_dash_set_message(ui->dash, msg);
		return;
	}
	ui->rec.error = 0;
	ior_session_totals(ui->session, &ui->rec_base);
	ior_dash_set_recording(ui->dash, ui->rec_path, 0);
}

/* The trailer counts what happened while it recorded. */
static void rec_totals(struct dash_ui *ui, struct ior_trace_totals *t)
{
	const struct ior_trace_totals *b = &ui->rec_base;

	ior_session_totals(ui->session, t);
	*t = (struct ior_trace_totals){ ior_rec_writer_pairs(ui->rec.w), t->pairs_seen - b->pairs_seen,
					 t->lost - b->lost, t->unpaired_exits - b->unpaired_exits,
					 t->overwritten_enters - b->overwritten_enters, t->in_flight,
					 t->summarized - b->summarized };
}

/* Closes the recording; what happened goes to last_words and the screen. */
static void stop_recording(struct dash_ui *ui)
{
	struct ior_trace_totals t;
	uint64_t pairs = ior_rec_writer_pairs(ui->rec.w);
	char err[512];
	struct stat st;
	int r;

	rec_totals(ui, &t);
	r = ior_rec_writer_close(ui->rec.w, &t, err, sizeof err);
	ui->rec.w = NULL;
	if (r < 0 || ui->rec.error)
		snprintf(ui->last_words, sizeof ui->last_words, "recording %.*s: %s", PATH_MAX - 1, ui->rec_path,
			 r < 0 ? err : strerror(ui->rec.error)); /* err names the file too */
	else
		snprintf(ui->last_words, sizeof ui->last_words, "Wrote %s (%llu pairs, %lld bytes)", ui->rec_path,
			 (unsigned long long)pairs, stat(ui->rec_path, &st) ? -1LL : (long long)st.st_size);
	ior_dash_set_recording(ui->dash, NULL, 0);
	ior_dash_set_message(ui->dash, ui->last_words);
}

/* The mount points of /proc/self/mountinfo (its 5th field, octal escapes
 * undone), for the Files tab's grouping; none when it cannot be read. */
static void read_mounts(struct dash_ui *ui)
{
	static char names[256][PATH_MAX / 4];
	const char *list[256];
	char line[8192];
	unsigned n = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	while (f && n < 256 && fgets(line, sizeof line, f)) {
		char *p = line, *o = names[n];
		for (int field = 0; field < 4 && p; field++)
			p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL;
		for (; p && *p && *p != ' ' && o < names[n] + sizeof names[n] - 1; o++)
			if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] && p[3])
				*o = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0')), p += 4;
			else
				*o = *p++;
		*o = 0;
		if (p && names[n][0] == '/')
			list[n] = names[n], n++;
	}
	if (f)
		fclose(f);
	ior_dash_set_mounts(ui->dash, list, n);
}

int ior_dash_ui_open(struct dash_ui **ui, struct ior_stats *stats, struct ior_session *session, const char *title,
		     const char *rec_name, const struct ior_dash_base *base)
{
	int r = ui_new(ui, stats, session, title, NULL, base, 0);

	if (r < 0)
		return r;
	(*ui)->rec_name = rec_name;
	(*ui)->rec.keep_going = true; /* a failed recording is closed in frame() */
	read_mounts(*ui);
	if ((r = ior_session_add_sink(session, ior_rec_sink(&(*ui)->rec))) < 0)
		return r;
	return ior_session_add_sink(session, ior_dash_sink((*ui)->dash));
}

void ior_dash_ui_close(struct dash_ui *ui)
{
	if (!ui)
		return;
	ior_dash_free(ui->dash);
	ior_tui_screen_free(&ui->shown);
	ior_tui_screen_free(&ui->next);
	ior_tui_buf_free(&ui->out);
	free(ui->devs);
	free(ui);
}

/* ---- the terminal loop -------------------------------------------------- */

static int resize(struct dash_ui *ui)
{
	int rows, cols;

	ior_tui_term_size(1, &rows, &cols);
	ui->full = 1;
	if (ior_tui_screen_resize(&ui->shown, rows, cols) || ior_tui_screen_resize(&ui->next, rows, cols))
		return -ENOMEM;
	return 0;
}

static int frame(struct dash_ui *ui, uint64_t now)
{
	if (ui->session) {
		struct ior_trace_totals t;
		ior_session_totals(ui->session, &t);
		ior_dash_set_losses(ui->dash, &(struct ior_dash_losses){ t.lost, t.summarized, t.unpaired_exits });
	}
	if (ui->rec.w && ui->rec.error)
		stop_recording(ui);
	if (ui->rec.w)
		ior_dash_set_recording(ui->dash, ui->rec_path, ior_rec_writer_pairs(ui->rec.w));
	recorder_state(ui);
	ior_dash_set_now(ui->dash, now);
	ior_dash_draw(ui->dash, &ui->next); /* out of memory: the frame says so */
	ior_tui_buf_reset(&ui->out);
	if (ior_tui_render(&ui->out, ui->full ? NULL : &ui->shown, &ui->next))
		return -ENOMEM;
	ior_tui_screen_swap(&ui->shown, &ui->next);
	ui->full = 0;
	ui->drawn_ns = now;
	return ui->out.len ? ior_tui_term_write(ui->out.data, ui->out.len) : 0;
}

/* The current table as CSV into a private file (out/out.h); the number
 * of rows, or a negative errno with err filled. */
static int export_to(struct ior_dash *d, const char *name, char *err, size_t errlen)
{
	struct ior_out o;
	FILE *f;
	int rows, r = ior_out_create(&o, name, IOR_OUT_NO_REPLACE, err, errlen);

	if (r)
		return r;
	if (!(f = ior_out_stream(&o)))
		rows = -errno;
	else if ((rows = ior_dash_export(d, f)) >= 0 && fclose(f))
		rows = -errno;
	else if (rows < 0)
		fclose(f);
	if (rows < 0) {
		snprintf(err, errlen, "%s: %s", name, strerror(-rows));
		ior_out_abort(&o);
		return rows;
	}
	r = ior_out_close(&o, err, errlen);
	return r ? r : rows;
}

/* `e`: the current table into ior-TABLE-TIME.csv in the current
 * directory (never over an existing file); the dashboard says how it went. */
static void export_table(struct dash_ui *ui)
{
	char name[96], msg[512], err[256], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int r;

	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime_r(&now, &tm));
	snprintf(name, sizeof name, "ior-%s-%s.csv", ior_dash_table_name(ui->dash), stamp);
	r = export_to(ui->dash, name, err, sizeof err);
	if (r >= 0)
		snprintf(msg, sizeof msg, "Wrote %s (%d rows)", name, r);
	else
		snprintf(msg, sizeof msg, "export: %s", err);
	ior_dash_set_message(ui->dash, msg);
}

static void on_key(struct dash_ui *ui, const struct ior_tui_key *k)
{
	int r = 0;

	if (k->code == 'z' && k->mods == IOR_TUI_MOD_CTRL)
		ior_tui_term_suspend();
	else
		r = ior_dash_key(ui->dash, k);
	if (r == IOR_DASH_QUIT)
		ui->quit = 1;
	if (r == IOR_DASH_EXPORT)
		export_table(ui);
	if (r == IOR_DASH_DUMP && ui->recorder)
		dump_now(ui);
	if (r == IOR_DASH_RECORD && ui->rec.w)
		stop_recording(ui);
	else if (r == IOR_DASH_RECORD)
		start_recording(ui);
	ui->drawn_ns = 0; /* answer a key at the next chance */
}

static void read_keys(struct dash_ui *ui)
{
	unsigned char buf[256];
	ssize_t n = read(0, buf, sizeof buf);
	struct ior_tui_key k;

	if (n <= 0) {
		ui->quit = n == 0 || (errno != EINTR && errno != EAGAIN);
		return;
	}
	for (size_t off = 0; off < (size_t)n;) {
		off += ior_tui_keys_decode(&ui->keys, buf + off, (size_t)n - off, &k);
		if (k.code)
			on_key(ui, &k);
	}
}

/* The poll's fds: stdin, the terminal's signal fd, the rings while tracing. */
static nfds_t fill_pollfds(struct dash_ui *ui, struct pollfd *pfd)
{
	nfds_t n = 2;

	pfd[0] = (struct pollfd){ .fd = 0, .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = ior_tui_term_fd(), .events = POLLIN };
	if (ui->session && !ui->stopped)
		n += (nfds_t)ior_session_pollfds(ui->session, pfd + 2, MAX_RINGS);
	return n;
}

static int wait_ms(struct dash_ui *ui, uint64_t now)
{
	uint64_t due = ui->drawn_ns + FRAME_NS;
	int ms = now >= due ? 0 : (int)((due - now + 999999) / 1000000);

	return ior_tui_keys_pending(&ui->keys) && ms > ESC_WAIT_MS ? ESC_WAIT_MS : ms;
}

static int step(struct dash_ui *ui, struct pollfd *pfd, uint64_t deadline)
{
	uint64_t now = ior_mono_ns();
	nfds_t n = fill_pollfds(ui, pfd);
	int ready = poll(pfd, n, wait_ms(ui, now)), r = 0;
	struct ior_tui_key k;
	unsigned ev;

	now = ior_mono_ns();
	if (ui->session && !ui->stopped && (now >= deadline || ior_session_step(ui->session, now) < 0)) {
		ui->stopped = 1;
		ior_dash_set_state(ui->dash, now >= deadline ? "stopped (-duration)" : "stopped (a sink failed)");
	}
	if (ready == 0 && ior_tui_keys_pending(&ui->keys) && ior_tui_keys_flush(&ui->keys, &k))
		on_key(ui, &k);
	if (ready > 0 && (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
		read_keys(ui);
	ev = ior_tui_term_events();
	if (ev & IOR_TUI_QUIT)
		ui->quit = 1;
	if (ev & IOR_TUI_RESIZED)
		r = resize(ui);
	if (ev & IOR_TUI_REDRAW)
		ui->full = 1;
	if (!r && !ui->quit && now >= ui->drawn_ns + FRAME_NS)
		r = frame(ui, now);
	return r;
}

int ior_dash_ui_run(struct dash_ui *ui, uint64_t deadline, volatile sig_atomic_t *stop)
{
	struct pollfd *pfd = calloc(MAX_RINGS + 2, sizeof *pfd);
	char err[256];
	int r;

	if (!pfd) {
		fprintf(stderr, "ior: dashboard: %s\n", strerror(ENOMEM));
		return 1;
	}
	if (ior_tui_term_enter(0, 1, err, sizeof err) < 0) {
		free(pfd);
		fprintf(stderr, "ior: dashboard: %s (without a terminal, redirect stdout: ior prints text reports)\n",
			err);
		return 1;
	}
	r = resize(ui);
	while (!r && !ui->quit && !(stop && *stop))
		r = step(ui, pfd, deadline);
	if (ui->rec.w)
		stop_recording(ui);
	ior_tui_term_leave();
	free(pfd);
	if (ui->last_words[0])
		fprintf(stderr, "%s\n", ui->last_words);
	if (r < 0) {
		fprintf(stderr, "ior: dashboard: %s\n", strerror(-r));
		return 1;
	}
	return 0;
}

/* ---- ior -ior=FILE -tui ---------------------------------------------------- */

static volatile sig_atomic_t rec_stop;

static void on_stop(int sig)
{
	rec_stop = sig;
}

/* Every pair of the recording that passes the filters to add(ctx, p)
 * (with devs, its block requests to devs' stats: the first read only);
 * 0, or 1 after printing why (or, quiet, after putting it in err). */
static int each_pair(const struct ior_opts *o, void (*add)(void *, const struct ior_event_pair *), void *ctx,
		     struct ior_rec_reader **kept, struct dash_ui *devs)
{
	struct ior_flame_spec filter = { .pid = o->pid, .tid = o->tid, .comm = o->comm, .path = o->path };
	struct ior_rec_reader *r;
	struct ior_event_pair p;
	int rc;

	if (ior_cmd_open_recording(o->ior_file, &r, !kept))
		return 1;
	if (devs)
		devs->devs = ior_cmd_rec_devices(r, devs->stats, &filter);
	while ((rc = ior_rec_read(r, &p)) == 1)
		if (ior_flame_spec_match(&filter, &p))
			add(ctx, &p);
	if (rc < 0 && kept)
		fprintf(stderr, "ior: %s: cannot read the recording: %s\n", o->ior_file,
			rc == -ENOMEM ? strerror(ENOMEM) : ior_rec_reader_error(r));
	if (kept && rc >= 0)
		*kept = r;
	else
		ior_rec_reader_close(r);
	return rc < 0;
}

/* The dashboard's replay: the file read again, as at the start. */
static int replay(void *ctx, void (*add)(void *actx, const struct ior_event_pair *p), void *actx)
{
	struct dash_ui *ui = ctx;

	return each_pair(ui->o, add, actx, NULL, NULL) ? -EIO : 0;
}

static void load_pair(void *ctx, const struct ior_event_pair *p)
{
	struct dash_ui *ui = ctx;

	ior_stats_add(ui->stats, p); /* out of memory: counted, shown */
	if (!ui->draw)
		return;
	ior_dash_add(ui->dash, p);
	if (!ui->hold_after || p->summary)
		return;
	if (ui->trig_seen && !--ui->hold_after)
		ior_dash_stream_hold(ui->dash);
	ui->trig_seen |= p->tid == ui->trig_tid && p->enter_ns == ui->trig_enter_ns;
}

/* Every pair of the recording that passes the filters into the stats and
 * the stream; 0, or 1 after printing why. */
/* A dump (recorder/): its trigger pair, and how many pairs follow it,
 * so the Stream's ring can hold it. */
struct dump_peek {
	enum ior_rec_trigger_kind kind;
	uint32_t tid;
	uint64_t enter_ns, after;
	int seen;
	char expr[200];
};

static void count_after(void *ctx, const struct ior_event_pair *p)
{
	struct dump_peek *k = ctx;

	k->after += k->seen && !p->summary;
	k->seen |= p->tid == k->tid && p->enter_ns == k->enter_ns;
}

#define DUMP_STREAM_MAX 100000u /* Stream entries for a dump's trigger pair (~26 MB) */
#define DUMP_HOLD_AFTER (DUMP_STREAM_MAX / 2) /* past these after it, the Stream stops */

/* The Stream's size for o's file: room for a dump's trigger pair and
 * what follows it (0: the default). */
static unsigned peek_dump(const struct ior_opts *o, struct dump_peek *k)
{
	struct ior_rec_reader *r;
	struct ior_event_pair p;
	const struct ior_rec_trigger *t;

	memset(k, 0, sizeof *k);
	if (!strstr(o->ior_file, "-trigger") || ior_cmd_open_recording(o->ior_file, &r, true))
		return 0; /* only a dump's name says -trigger: others are not read twice */
	if (ior_rec_reader_info(r)->version < 4) {
		ior_rec_reader_close(r);
		return 0;
	}
	while (ior_rec_read(r, &p) == 1)
		;
	if ((t = ior_rec_reader_trigger(r))) {
		k->kind = t->kind;
		k->tid = t->pair.tid;
		k->enter_ns = t->pair.enter_ns;
		ior_escape_str(k->expr, sizeof k->expr, t->expr, strlen(t->expr), IOR_ESCAPE_AUTO);
	}
	ior_rec_reader_close(r);
	if (k->kind != IOR_REC_TRIGGER_PAIR || each_pair(o, count_after, k, NULL, NULL))
		return 0;
	uint64_t n = k->after + 1000;
	return n < IOR_DASH_STREAM_PAIRS ? 0 : n > DUMP_STREAM_MAX ? DUMP_STREAM_MAX : (unsigned)n;
}

/* A dump opens on the Stream, its trigger pair selected. */
static void show_trigger(struct dash_ui *ui, const struct dump_peek *k)
{
	char msg[400];

	if (!k->expr[0])
		return;
	if (k->kind != IOR_REC_TRIGGER_PAIR)
		snprintf(msg, sizeof msg, "a dump: %s fired it (no pair: see ior summary)", k->expr);
	else if (ior_dash_stream_select(ui->dash, k->tid, k->enter_ns))
		snprintf(msg, sizeof msg, "a dump: %s fired on a pair the Stream does not hold (filtered out)", k->expr);
	else
		snprintf(msg, sizeof msg, "a dump: the selected pair fired %s (space resumes the Stream)", k->expr);
	ior_dash_set_message(ui->dash, msg);
}

static int load_recording(const struct ior_opts *o, struct dash_ui *ui, struct ior_dash_losses *losses)
{
	struct ior_rec_reader *r = NULL;
	const struct ior_trace_totals *t;

	if (each_pair(o, load_pair, ui, &r, ui))
		return 1;
	if ((t = ior_rec_reader_totals(r)))
		*losses = (struct ior_dash_losses){ t->lost, t->summarized, t->unpaired_exits };
	if (ior_rec_reader_truncated(r, NULL, NULL))
		ior_dash_set_state(ui->dash, "recording (truncated)");
	ior_cmd_warn_unknown(o->ior_file, r);
	ior_rec_reader_close(r);
	return 0;
}

/* Not a terminal: the text report of the recording (ior summary). */
static int report(struct ior_stats *s, struct dash_ui *ui)
{
	struct ior_stats_report_cfg cfg = { .dev_name = rec_dev_name, .dev_ctx = ui };
	int r = ior_stats_report(s, stdout, &cfg);

	if (r < 0 || fflush(stdout)) {
		fprintf(stderr, "ior: writing the summary to stdout failed: %s\n", strerror(r == -ENOMEM ? ENOMEM : errno));
		return 1;
	}
	return 0;
}

int ior_cmd_dash(const struct ior_opts *o)
{
	struct sigaction sa = { .sa_handler = on_stop };
	struct ior_dash_losses losses = { 0 };
	struct ior_dash_base base = { .name = o->baseline };
	struct ior_stats *stats = NULL;
	struct dash_ui *ui = NULL;
	struct dump_peek peek;
	unsigned stream = peek_dump(o, &peek);
	int rc = ior_stats_new(&stats, NULL);

	if (o->baseline && ior_norm_parse(o->normalize, &base.norm)) {
		fprintf(stderr, "ior: -normalize \"%s\": use rate, total or share\n", o->normalize);
		rc = 2;
		goto out;
	}
	if (o->baseline && !(base.stats = ior_cmd_baseline_stats(o->baseline))) {
		rc = 1;
		goto out;
	}
	if (rc < 0 || (rc = ui_new(&ui, stats, NULL, o->ior_file, o, &base, stream)) < 0) {
		fprintf(stderr, "ior: dashboard: %s\n", strerror(-rc));
		rc = 1;
		goto out;
	}
	ui->draw = ior_tui_term_can_draw(1, getenv("TERM")) && isatty(0);
	if (peek.kind == IOR_REC_TRIGGER_PAIR && peek.after + 1000 > DUMP_STREAM_MAX) {
		/* the Stream's last pairs would not reach back to it */
		ui->trig_tid = peek.tid;
		ui->trig_enter_ns = peek.enter_ns;
		ui->hold_after = DUMP_HOLD_AFTER;
	}
	if ((rc = load_recording(o, ui, &losses)))
		goto out;
	ior_dash_set_losses(ui->dash, &losses);
	show_trigger(ui, &peek);
	if (!ui->draw) { /* the dashboard's stream and Flame were not fed */
		rc = base.stats ? ior_cmd_diff_print(base.stats, stats, base.norm, o->baseline, o->ior_file, false, stdout) :
				  report(stats, ui);
		goto out;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL); /* before the terminal: it calls them */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	rc = ior_dash_ui_run(ui, 0, &rec_stop);
out:
	ior_dash_ui_close(ui);
	ior_stats_free(stats);
	ior_stats_free(base.stats);
	return rc;
}
