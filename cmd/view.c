/* The recording commands: ior -ior=FILE (flamegraph + HTTP), ior -ior=FILE
 * -plain (CSV replay), ior collapsed FILE... (folded stacks, several
 * recordings merged), ior summary FILE
 * (tables). Each prints its own errors, one line each, and returns the
 * exit code. */
#include "flame/diff.h"
#include "flame/flame.h"
#include "http/http.h"
#include "opts.h"
#include "out/out.h"
#include "stats/devices.h"
#include "stats/diff.h"
#include "stats/report.h"
#include "pair/clock.h"
#include "csv/csv.h"
#include "rec/rec.h"
#include "syscalls/errnos.h"
#include "syscalls/syscalls.h"
#include "text/escape.h"
#include "text/list.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop }; /* no SA_RESTART: poll returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int ior_cmd_open_recording(const char *file, struct ior_rec_reader **r, bool quiet)
{
	char err[512];
	if (ior_rec_reader_open(r, file, err, sizeof err)) {
		if (!quiet)
			fprintf(stderr, "ior: %s (ior reads recordings written by ior -flamegraph)\n", err);
		return -1;
	}
	return 0;
}

void ior_cmd_warn_unknown(const char *file, const struct ior_rec_reader *r)
{
	const char *names;
	unsigned n = ior_rec_reader_unknown(r, &names);

	if (n)
		fprintf(stderr, "ior: %s: %u syscall%s unknown to this ior (%s): read under %s name%s, family Misc\n",
			file, n, n > 1 ? "s" : "", names, n > 1 ? "their" : "its", n > 1 ? "s" : "");
}

/* After reading to the end: the one truncation warning, or the error. */
static int finish_reading(const char *file, struct ior_rec_reader *r, int rc, bool quiet)
{
	if (rc < 0) {
		fprintf(stderr, "ior: %s: cannot read the recording: %s\n", file,
			rc == -ENOMEM ? strerror(ENOMEM) : ior_rec_reader_error(r));
		return -1;
	}
	uint64_t pairs, end, trailing = ior_rec_reader_trailing(r);
	if (!quiet)
		ior_cmd_warn_unknown(file, r);
	if (ior_rec_reader_truncated(r, &pairs, &end) && !quiet)
		fprintf(stderr, "ior: %s: truncated after %llu pairs (last complete frame at byte %llu)\n",
			file, (unsigned long long)pairs, (unsigned long long)end);
	if (trailing && !quiet)
		fprintf(stderr, "ior: %s: %llu trailing bytes ignored after the recording's end at byte "
				"%llu (appended to, or damaged)\n",
			file, (unsigned long long)trailing, (unsigned long long)end);
	return 0;
}

static int spec_from_opts(const struct ior_opts *o, struct ior_flame_spec *spec)
{
	char err[256];
	if (ior_flame_spec_parse(spec, o->fields, o->count, err, sizeof err)) {
		fprintf(stderr, "ior: %s\n", err);
		return -1;
	}
	spec->pid = o->pid;
	spec->tid = o->tid;
	spec->comm = o->comm;
	spec->path = o->path;
	return 0;
}

static uint64_t to_realtime(const struct ior_rec_info *info, uint64_t mono)
{
	if (!info->start_realtime_ns || mono < info->start_monotonic_ns)
		return 0;
	return info->start_realtime_ns + (mono - info->start_monotonic_ns);
}

/* Pairs past the bounds are in one frame: say how many, and how to see them. */
static void say_other(const char *file, const struct ior_flame_agg *a)
{
	uint64_t other = ior_flame_agg_other_pairs(a);
	if (other)
		fprintf(stderr, "ior: %s: %llu of %llu pairs are in the \"" IOR_FLAME_OTHER "\" frame: a graph "
				"keeps at most %u stacks, %u frames and %u MiB of names (narrow it with -pid, "
				"-tid, -comm, -path or fewer -fields)\n",
			file, (unsigned long long)other, (unsigned long long)ior_flame_agg_pairs(a),
			IOR_FLAME_MAX_KEYS, IOR_FLAME_MAX_FRAMES, IOR_FLAME_MAX_STRING_BYTES >> 20);
}

/* Adds the pairs of more recordings to a: one graph of several hosts'
 * (strings are interned by content, so the same file or command merges). */
static int add_more(struct ior_flame_agg *a, char *const *more, int n, bool quiet)
{
	for (int i = 0; i < n; i++) {
		struct ior_rec_reader *r;
		if (ior_cmd_open_recording(more[i], &r, false))
			return -1;
		int rc = finish_reading(more[i], r, ior_flame_agg_add_recording(a, r), quiet);
		ior_rec_reader_close(r);
		if (rc)
			return -1;
	}
	return 0;
}

/* Reads file (and more[0..nmore)) and builds the tree; NULL after
 * printing why. The tree's meta is file's. */
static struct ior_flame_tree *tree_of(const char *file, char *const *more, int nmore,
				      const struct ior_flame_spec *spec, bool quiet)
{
	struct ior_rec_reader *r;
	struct ior_flame_agg *a = NULL;
	struct ior_flame_tree *t = NULL;
	if (ior_cmd_open_recording(file, &r, false))
		return NULL;
	int rc = ior_flame_agg_new(&a, spec);
	if (!rc) {
		ior_flame_agg_set_bounds(a);
		rc = ior_flame_agg_add_recording(a, r);
	}
	if (finish_reading(file, r, rc, quiet) || add_more(a, more, nmore, quiet))
		goto out;
	if (!quiet)
		say_other(file, a);
	if (ior_flame_tree_build(a, &t)) {
		fprintf(stderr, "ior: %s: cannot build the flame graph: %s\n", file, strerror(ENOMEM));
		goto out;
	}
	const struct ior_rec_info *info = ior_rec_reader_info(r);
	uint64_t first, last;
	ior_flame_agg_span(a, &first, &last);
	t->meta.host = strdup(info->host);
	t->meta.first_realtime_ns = to_realtime(info, first);
	t->meta.last_realtime_ns = to_realtime(info, last);
	t->meta.truncated = ior_rec_reader_truncated(r, NULL, NULL);
out:
	ior_flame_agg_free(a);
	ior_rec_reader_close(r);
	return t;
}

static void free_tree(struct ior_flame_tree *t)
{
	if (t)
		free((char *)t->meta.host);
	ior_flame_tree_free(t);
}

int ior_cmd_collapsed(const struct ior_opts *o, const char *file)
{
	struct ior_flame_spec spec;
	if (spec_from_opts(o, &spec))
		return 2;
	struct ior_flame_tree *t = tree_of(file, o->more_files, o->nmore_files, &spec, false);
	if (!t)
		return 1;
	int rc = ior_flame_write_folded(t, stdout);
	free_tree(t);
	if (rc || fflush(stdout)) {
		fprintf(stderr, "ior: writing folded stacks to stdout failed: %s\n", strerror(rc ? -rc : errno));
		return 1;
	}
	return 0;
}

static int escape_from_opts(const struct ior_opts *o, enum ior_escape *esc)
{
	if (!ior_escape_parse(o->escape, esc))
		return 0;
	fprintf(stderr, "ior: -escape: unknown mode \"%s\": use auto, always or never\n", o->escape);
	return -1;
}

/* The recording's block requests go to the device table, its device
 * names (the recording host's) to the report (opts.h). */
struct ior_cmd_rec_devices {
	struct ior_stats *s;
	struct ior_flame_spec filter; /* a request is kept when its submitter and file match */
	uint32_t dev[256];
	char name[256][64];
	unsigned n;
	char unnamed[32];
};

static int rec_block(void *ctx, const struct ior_block_req *b)
{
	struct ior_cmd_rec_devices *d = ctx;
	struct ior_event_pair who = { .pid = b->pid, .tid = b->tid, .comm = b->comm, .path = b->path, .path2 = "" };

	if (ior_flame_spec_match(&d->filter, &who))
		ior_stats_add_block(d->s, b);
	return 0;
}

static int rec_devname(void *ctx, uint32_t dev, const char *name)
{
	struct ior_cmd_rec_devices *d = ctx;

	if (d->n < 256) {
		d->dev[d->n] = dev;
		snprintf(d->name[d->n++], sizeof d->name[0], "%s", name);
	}
	return 0;
}

const char *ior_cmd_rec_dev_name(void *ctx, uint32_t dev)
{
	struct ior_cmd_rec_devices *d = ctx;

	for (unsigned i = 0; i < d->n; i++)
		if (d->dev[i] == dev)
			return d->name[i];
	snprintf(d->unnamed, sizeof d->unnamed, "%u:%u", dev >> 20, dev & 0xfffff);
	return d->unnamed;
}

struct ior_cmd_rec_devices *ior_cmd_rec_devices(struct ior_rec_reader *r, struct ior_stats *s,
						const struct ior_flame_spec *filter)
{
	struct ior_cmd_rec_devices *d = calloc(1, sizeof *d);

	if (d) {
		d->s = s;
		d->filter = *filter;
		ior_rec_reader_block_hooks(r, &(struct ior_rec_block_hooks){ rec_block, rec_devname, d });
	}
	return d;
}

/* A dump's first lines: what fired it and when, the time its pairs
 * cover around it (first enter .. last exit), and the pair. */
static void print_trigger(const struct ior_rec_reader *r, uint64_t first, uint64_t last, enum ior_escape esc,
			  FILE *out)
{
	const struct ior_rec_trigger *t = ior_rec_reader_trigger(r);
	char expr[1100], comm[80], path[1100], when[64] = "?", err[40] = "";
	time_t secs;
	struct tm tm;

	if (!t)
		return;
	uint64_t rt = to_realtime(ior_rec_reader_info(r), t->fired_ns);
	secs = (time_t)(rt / 1000000000ull);
	if (rt && localtime_r(&secs, &tm))
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
	ior_escape_str(expr, sizeof expr, t->expr, strlen(t->expr), esc);
	fprintf(out, "Dump: trigger %s fired at %s", expr, when);
	if (first <= last)
		fprintf(out, "; its pairs run from %.3f s before to %.3f s after",
			first < t->fired_ns ? (double)(t->fired_ns - first) / 1e9 : 0.0,
			last > t->fired_ns ? (double)(last - t->fired_ns) / 1e9 : 0.0);
	fputc('\n', out);
	if (t->kind == IOR_REC_TRIGGER_NONE) {
		fputc('\n', out);
		return;
	}
	const struct ior_event_pair *p = &t->pair;
	ior_escape_str(comm, sizeof comm, p->comm, strlen(p->comm), esc);
	ior_escape_str(path, sizeof path, p->path, strlen(p->path), esc);
	if (p->ret < 0)
		snprintf(err, sizeof err, " (%s)",
			 ior_errno_name((uint64_t)-p->ret) ? ior_errno_name((uint64_t)-p->ret) : "error");
	fprintf(out, "Trigger pair: %s %s by %s (pid %u, tid %u) %s %.3f ms, ret %lld%s\n\n", ior_sys(p->sys)->name,
		path[0] ? path : "-", comm, p->pid, p->tid,
		t->kind == IOR_REC_TRIGGER_IN_FLIGHT ? "in flight for" : "took", (double)p->duration_ns / 1e6,
		(long long)p->ret, err);
}

int ior_cmd_summary(const struct ior_opts *o, const char *file)
{
	struct ior_flame_spec filter = { .pid = o->pid, .tid = o->tid, .comm = o->comm, .path = o->path };
	struct ior_stats_report_cfg cfg = { 0 };
	struct ior_rec_reader *r;
	struct ior_event_pair p;
	struct ior_stats *s;
	int rc;

	if (escape_from_opts(o, &cfg.esc))
		return 2;
	if (ior_cmd_open_recording(file, &r, false))
		return 1;
	if ((rc = ior_stats_new(&s, NULL)) < 0) {
		ior_rec_reader_close(r);
		fprintf(stderr, "ior: %s: cannot summarize: %s\n", file, strerror(-rc));
		return 1;
	}
	struct ior_cmd_rec_devices *devs = ior_cmd_rec_devices(r, s, &filter);
	cfg.dev_name = ior_cmd_rec_dev_name;
	cfg.dev_ctx = devs;
	uint64_t first = UINT64_MAX, last = 0;
	while ((rc = ior_rec_read(r, &p)) == 1) {
		uint64_t end = p.summary ? p.end_ns : p.enter_ns + p.duration_ns;
		first = p.enter_ns < first ? p.enter_ns : first;
		last = end > last ? end : last;
		if (ior_flame_spec_match(&filter, &p))
			ior_stats_add(s, &p); /* out of memory: the report says so */
	}
	int status = finish_reading(file, r, rc, false) ? 1 : 0;
	if (!devs)
		cfg.dev_name = NULL;
	if (!status)
		print_trigger(r, first, last, cfg.esc, stdout);
	if (!status && ((rc = ior_stats_report(s, stdout, &cfg)) | fflush(stdout))) {
		fprintf(stderr, "ior: writing the summary to stdout failed: %s\n", strerror(rc == -ENOMEM ? ENOMEM : errno));
		status = 1;
	}
	ior_stats_free(s);
	ior_rec_reader_close(r);
	free(devs);
	return status;
}

/* One CSV row with the extra columns asked for. */
static void write_row(const struct ior_event_pair *p, enum ior_escape esc, const struct ior_csv_columns *cols)
{
	static char row[IOR_CSV_ROW_MAX];
	size_t n = ior_csv_format_pair(row, p, esc);

	fwrite(row, 1, ior_csv_add_columns(row, n, p, cols), stdout);
}

int ior_cmd_replay(const struct ior_opts *o)
{
	enum ior_escape esc;
	if (escape_from_opts(o, &esc))
		return 2;
	struct ior_flame_spec filter = { .pid = o->pid, .tid = o->tid, .comm = o->comm, .path = o->path };
	struct ior_csv_columns cols;
	char err[160];
	if (ior_csv_columns_parse(o->plain_columns, &cols, err, sizeof err)) { /* main.c checked it */
		fprintf(stderr, "ior: -plainColumns: %s\n", err);
		return 2;
	}
	struct ior_rec_reader *r;
	if (ior_cmd_open_recording(o->ior_file, &r, false))
		return 1;
	ior_csv_write_header_with(stdout, &cols);
	struct ior_event_pair p;
	uint64_t summarized = 0, rows = 0;
	int rc;
	while ((rc = ior_rec_read(r, &p)) == 1) {
		if (!ior_flame_spec_match(&filter, &p))
			continue;
		if (p.summary) { /* no event to print: never a fabricated row */
			summarized += p.pairs;
			rows++;
			continue;
		}
		write_row(&p, esc, &cols);
	}
	int failed = fflush(stdout) || ferror(stdout);
	if (failed)
		fprintf(stderr, "ior: writing CSV to stdout failed: %s\n", strerror(errno));
	if (rows)
		fprintf(stderr, "ior: %llu more pairs are in the recording as %llu summary rows, not printed "
				"(their rings were full: detail dropped, totals kept; ior collapsed and -ior "
				"flamegraphs count them)\n",
			(unsigned long long)summarized, (unsigned long long)rows);
	failed |= finish_reading(o->ior_file, r, rc, false);
	ior_rec_reader_close(r);
	return failed ? 1 : 0;
}

/* ---- ior -ior=FILE: flamegraph files and the server ---------------------- */

/* What ior -ior=FILE makes of a recording: one row each. A new output is a
 * writer in flame/ and a row here; files, routes and "Wrote" follow. */
struct output {
	const char *ext, *content_type;
	const char *fallback_route; /* when the server refuses the file's name */
	int (*write)(const struct ior_flame_tree *t, FILE *f);
	bool (*wanted)(const struct ior_opts *o);
};

static bool always(const struct ior_opts *o)
{
	(void)o;
	return true;
}

static bool json_wanted(const struct ior_opts *o)
{
	return o->flamegraph_json;
}

static const struct output outputs[] = {
	{ "svg", "image/svg+xml", "/flamegraph.svg", ior_flame_write_svg, always }, /* first: the page */
	{ "json", "application/json", "/flamegraph.json", ior_flame_write_json, json_wanted },
};
#define NOUTPUTS (sizeof outputs / sizeof *outputs)

struct artifact {
	const struct output *out;
	char file[PATH_MAX];
	const char *name;    /* basename of file */
	char route[PATH_MAX + 2];
	char *body;
	size_t len;
};

#define MAX_FILES 64

struct flame_job {
	const struct ior_opts *o;
	char *files[MAX_FILES]; /* -ior=A,B: the first names the outputs */
	int nfiles;
	char *list;             /* the copy files[] point into */
	struct ior_flame_spec spec;
	struct artifact art[NOUTPUTS]; /* the wanted ones, svg first */
	unsigned nart;
	bool quiet;          /* watch mode: warn about truncation once */
	struct flame_job *base; /* ior diff: BASE's files (this job's are NEW's) */
	enum ior_norm norm;
};

static int set_names(struct flame_job *j)
{
	const char *f = j->files[0];
	size_t n = strlen(f), sl = strlen(IOR_RECORDING_SUFFIX);
	if (n > sl && !strcmp(f + n - sl, IOR_RECORDING_SUFFIX))
		n -= sl;
	else if (n > 4 && !strcmp(f + n - 4, ".zst"))
		n -= 4;
	char fields[128];
	ior_flame_fields_str(&j->spec, ':', fields, sizeof fields);
	const char *metric = ior_flame_metric_name(j->spec.metric);
	for (unsigned i = 0; i < NOUTPUTS; i++) {
		if (!outputs[i].wanted(j->o) || (j->base && outputs[i].write != ior_flame_write_svg))
			continue;
		struct artifact *a = &j->art[j->nart++];
		a->out = &outputs[i];
		int k = snprintf(a->file, sizeof a->file, "%.*s.%s-by-%s%s.%s", (int)n, f, fields, metric,
				 j->base ? ".diff" : "", a->out->ext);
		if (k < 0 || (size_t)k >= sizeof a->file) {
			fprintf(stderr, "ior: %s: output file name too long\n", f);
			return -1;
		}
		const char *slash = strrchr(a->file, '/');
		a->name = slash ? slash + 1 : a->file;
		snprintf(a->route, sizeof a->route, "/%s", a->name);
	}
	return 0;
}

static int render(struct artifact *a, const struct ior_flame_tree *t)
{
	char *body = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&body, &len);
	int rc = m ? a->out->write(t, m) : -ENOMEM;
	if (m && fclose(m) && !rc)
		rc = -ENOMEM;
	if (rc) {
		free(body);
		return rc;
	}
	free(a->body);
	a->body = body;
	a->len = len;
	return 0;
}

/* Private, through a temporary file and rename (out/out.h), so a reader
 * (or a browser reloading) never sees half a file. */
static int save(const struct artifact *a)
{
	char err[PATH_MAX + 128];
	int r = ior_out_write_file(a->file, IOR_OUT_REPLACE, a->body, a->len, err, sizeof err);
	if (r)
		fprintf(stderr, "ior: %s (is the directory writable?)\n", err);
	return r ? -1 : 0;
}

/* ior diff: NEW's tree t against BASE's, merged (flame/diff.h); t is
 * freed. NULL after saying why. */
static struct ior_flame_tree *diff_tree(struct flame_job *j, struct ior_flame_tree *t)
{
	const struct flame_job *b = j->base;
	struct ior_flame_tree *base = tree_of(b->files[0], b->files + 1, b->nfiles - 1, &j->spec, j->quiet), *d = NULL;
	char err[256];

	if (base && ior_flame_diff(base, t, j->norm, b->o->ior_file, j->o->ior_file, &d, err, sizeof err))
		fprintf(stderr, "ior: diff %s %s: %s\n", b->o->ior_file, j->o->ior_file, err);
	if (d) {
		d->meta.host = t->meta.host; /* NEW's, now d's to free */
		t->meta.host = NULL;
	}
	free_tree(base);
	free_tree(t);
	return d;
}

/* The graph of the job's recordings (with BASE: the differential one). */
static struct ior_flame_tree *job_tree(struct flame_job *j)
{
	struct ior_flame_tree *t = tree_of(j->files[0], j->files + 1, j->nfiles - 1, &j->spec, j->quiet);

	return t && j->base ? diff_tree(j, t) : t;
}

static int generate(struct flame_job *j)
{
	struct ior_flame_tree *t = job_tree(j);
	int rc = 0;
	if (!t)
		return -1;
	for (unsigned i = 0; i < j->nart && !rc; i++)
		rc = render(&j->art[i], t);
	free_tree(t);
	if (rc) {
		fprintf(stderr, "ior: %s: cannot render the flame graph: %s\n", j->files[0], strerror(-rc));
		return -1;
	}
	for (unsigned i = 0; i < j->nart; i++)
		if (save(&j->art[i]))
			return -1;
	return 0;
}

static int publish(struct flame_job *j, struct ior_http *srv)
{
	int rc = 0;
	for (unsigned i = 0; i < j->nart && !rc; i++)
		rc = ior_http_set(srv, j->art[i].route, j->art[i].out->content_type, j->art[i].body,
				  j->art[i].len);
	return rc;
}

/* Route names come from file names; fall back to fixed ones when the
 * server refuses a name. */
static int publish_routes(struct flame_job *j, struct ior_http *srv)
{
	if (!publish(j, srv))
		return 0;
	for (unsigned i = 0; i < j->nart; i++)
		snprintf(j->art[i].route, sizeof j->art[i].route, "%s", j->art[i].out->fallback_route);
	return publish(j, srv);
}

struct file_state {
	off_t size;
	struct timespec mtime;
};

static bool file_changed(const char *file, struct file_state *s)
{
	struct stat st;
	if (stat(file, &st))
		return false;
	bool changed = st.st_size != s->size || st.st_mtim.tv_sec != s->mtime.tv_sec ||
		       st.st_mtim.tv_nsec != s->mtime.tv_nsec;
	s->size = st.st_size;
	s->mtime = st.st_mtim;
	return changed;
}

static int add_watch_page(struct flame_job *j, struct ior_http *srv, char *page_route, size_t len)
{
	uint64_t secs = j->o->watch_interval_ns / 1000000000ull;
	unsigned interval = secs < 1 ? 1 : secs > 3600 ? 3600 : (unsigned)secs;
	size_t plen;
	char svg_path[sizeof j->art[0].route + IOR_HTTP_TOKEN_LEN + 2];
	if (ior_http_route_path(srv, j->art[0].route, svg_path, sizeof svg_path) < 0)
		return -ENAMETOOLONG;
	char *page = ior_http_reload_page(svg_path, j->art[0].name, interval, &plen);
	if (!page)
		return -errno;
	snprintf(page_route, len, "/watch.html");
	int rc = ior_http_set(srv, page_route, "text/html; charset=utf-8", page, plen);
	free(page);
	return rc;
}

/* The server's URL and the route, percent-encoded (too long: a prefix
 * ending on a whole character, as http's encoder cuts it). */
static void route_url(const struct ior_http *srv, const char *route, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s", ior_http_url(srv));

	if (n < len)
		ior_http_path_encode(route, buf + n, len - n);
}

static int serve(struct flame_job *j)
{
	char err[256], url[PATH_MAX + 64], page[32] = "";
	struct ior_http *srv;
	if (ior_http_open(&srv, j->o->http_addr, err, sizeof err)) {
		fprintf(stderr, "ior: %s (try -http=127.0.0.1:0 or -nohttp)\n", err);
		return 1;
	}
	int rc = publish_routes(j, srv);
	if (!rc && j->o->watch_interval_ns)
		rc = add_watch_page(j, srv, page, sizeof page);
	if (!rc)
		rc = ior_http_set_redirect(srv, "/", *page ? page : j->art[0].route);
	if (rc) {
		fprintf(stderr, "ior: cannot set up the HTTP routes: %s\n", strerror(-rc));
		ior_http_close(srv);
		return 1;
	}
	catch_stop_signals();
	route_url(srv, j->art[0].route, url, sizeof url);
	printf("Flamegraph available at %s\n", url);
	if (*page) {
		route_url(srv, page, url, sizeof url);
		printf("Reloading page at %s (regenerated when %s changes)\n", url, j->files[0]);
	}
	fflush(stdout);

	struct file_state fs = { 0 };
	file_changed(j->files[0], &fs);
	uint64_t next_check = ior_mono_ns() + j->o->watch_interval_ns;
	int status = 0;
	while (!stop_requested) {
		rc = ior_http_poll(srv, 200);
		if (rc < 0) {
			fprintf(stderr, "ior: HTTP server failed: %s\n", strerror(-rc));
			status = 1;
			break;
		}
		if (!j->o->watch_interval_ns || ior_mono_ns() < next_check)
			continue;
		next_check = ior_mono_ns() + j->o->watch_interval_ns;
		if (file_changed(j->files[0], &fs) && !generate(j) && publish(j, srv))
			fprintf(stderr, "ior: cannot update the served flame graph: %s\n", strerror(ENOMEM));
	}
	ior_http_close(srv);
	return status;
}

static int is_recording(const struct dirent *d)
{
	size_t n = strlen(d->d_name), sl = strlen(IOR_RECORDING_SUFFIX);
	return n > sl && !strcmp(d->d_name + n - sl, IOR_RECORDING_SUFFIX);
}

/* -ior=DIR: its recordings (*.ior.zst), in name order, as one list. */
static int dir_files(struct flame_job *j, const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, is_recording, alphasort);
	size_t len = 0, at = 0;

	if (n < 0) {
		fprintf(stderr, "ior: -ior: reading directory %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++)
		len += strlen(dir) + strlen(names[i]->d_name) + 2;
	free(j->list);
	j->list = malloc(len + 1);
	for (int i = 0; i < n; i++) {
		if (j->list && j->nfiles < MAX_FILES) {
			j->files[j->nfiles++] = j->list + at;
			at += (size_t)sprintf(j->list + at, "%s/%s", dir, names[i]->d_name) + 1;
		}
		free(names[i]);
	}
	free(names);
	if (!j->list)
		fprintf(stderr, "ior: -ior: %s\n", strerror(ENOMEM));
	else if (n > MAX_FILES)
		fprintf(stderr, "ior: -ior: %s holds more than %d recordings: name them\n", dir, MAX_FILES);
	else if (!n)
		fprintf(stderr, "ior: -ior: no *.ior.zst in directory %s\n", dir);
	return j->list && n && n <= MAX_FILES ? 0 : -1;
}

/* -ior=A,B,...: several recordings in one graph, unless a file has the
 * whole name (a comma is legal in file names); -ior=DIR: those in DIR. */
static int split_files(struct flame_job *j)
{
	struct stat st;
	const char *p, *item;
	size_t n;

	if (!(j->list = strdup(j->o->ior_file))) {
		fprintf(stderr, "ior: -ior: %s\n", strerror(ENOMEM));
		return -1;
	}
	if (!stat(j->list, &st) && S_ISDIR(st.st_mode))
		return dir_files(j, j->o->ior_file);
	if (!strchr(j->list, ',') || !stat(j->list, &st)) {
		j->files[j->nfiles++] = j->list;
		return 0;
	}
	for (p = j->list; ior_list_next(&p, &item, &n);) {
		if (j->nfiles == MAX_FILES) {
			fprintf(stderr, "ior: -ior: more than %d recordings\n", MAX_FILES);
			return -1;
		}
		char *f = j->list + (item - j->list); /* ours: end it at the ',' or blank after it */
		f[n] = 0;
		j->files[j->nfiles++] = f;
	}
	if (!j->nfiles)
		fprintf(stderr, "ior: -ior \"%s\": no recording named\n", j->o->ior_file);
	return j->nfiles ? 0 : -1;
}

int ior_cmd_http_check(const struct ior_opts *o)
{
	int reach = ior_http_reach(o->http_addr);
	if (reach == IOR_HTTP_ANY && !o->http_any) {
		fprintf(stderr, "ior: -http %s listens on every interface: anyone who reaches this host with the URL "
				"reads the trace; give one address (default 127.0.0.1) or add -http-any\n",
			o->http_addr);
		return 2;
	}
	if (reach == IOR_HTTP_NETWORK || reach == IOR_HTTP_ANY)
		fprintf(stderr, "ior: warning: -http %s: the graph is reachable from the network by anyone with its URL "
				"(its token is the only lock, over plain HTTP)\n", o->http_addr);
	return 0;
}

/* The job's graph written (-nohttp: and said), or served until Ctrl-C;
 * the exit status. */
static int draw(struct flame_job *j)
{
	if (set_names(j) || generate(j))
		return 1;
	j->quiet = true;
	if (!j->o->nohttp)
		return serve(j);
	for (unsigned i = 0; i < j->nart; i++)
		printf("Wrote %s\n", j->art[i].file);
	return 0;
}

static void free_job(struct flame_job *j)
{
	for (unsigned i = 0; i < j->nart; i++)
		free(j->art[i].body);
	free(j->list);
}

int ior_cmd_flame(const struct ior_opts *o)
{
	struct flame_job j = { .o = o };
	if (spec_from_opts(o, &j.spec) || (!o->nohttp && ior_cmd_http_check(o)))
		return 2;
	if (split_files(&j)) {
		free(j.list);
		return 2;
	}
	int status = draw(&j);
	free_job(&j);
	return status;
}

struct ior_flame_tree *ior_cmd_baseline_tree(const char *file, const struct ior_flame_spec *spec)
{
	struct ior_opts o = { .ior_file = file };
	struct flame_job j = { .o = &o };
	struct ior_flame_tree *t = split_files(&j) ? NULL : tree_of(j.files[0], j.files + 1, j.nfiles - 1, spec, false);

	free(j.list);
	return t;
}

void ior_cmd_free_tree(struct ior_flame_tree *t)
{
	free_tree(t);
}

/* A recording's device names into the device table (ior diff names its
 * rows by them): past IOR_DEV_MAX_NAMES, this host's. */
static int stats_devname(void *ctx, uint32_t dev, const char *name)
{
	int rc = ior_devices_set_name(ior_stats_devices(((struct ior_cmd_rec_devices *)ctx)->s), dev, name);

	return rc == -ENOSPC ? 0 : rc;
}

/* The statistics of a job's recordings with their block requests,
 * filtered; NULL after saying why. */
static struct ior_stats *stats_of(const struct flame_job *j)
{
	struct ior_flame_spec filter = { .pid = j->o->pid, .tid = j->o->tid, .comm = j->o->comm, .path = j->o->path };
	struct ior_event_pair p;
	struct ior_stats *s;
	int rc = ior_stats_new(&s, NULL);

	if (rc < 0) {
		fprintf(stderr, "ior: %s: cannot summarize: %s\n", j->files[0], strerror(-rc));
		return NULL;
	}
	for (int i = 0; i < j->nfiles; i++) {
		struct ior_rec_reader *r;
		struct ior_cmd_rec_devices devs = { .s = s, .filter = filter };
		if (ior_cmd_open_recording(j->files[i], &r, false))
			goto fail;
		ior_rec_reader_block_hooks(r, &(struct ior_rec_block_hooks){ rec_block, stats_devname, &devs });
		while ((rc = ior_rec_read(r, &p)) == 1)
			if (ior_flame_spec_match(&filter, &p))
				ior_stats_add(s, &p);
		rc = finish_reading(j->files[i], r, rc, false);
		ior_rec_reader_close(r);
		if (rc)
			goto fail;
	}
	return s;
fail:
	ior_stats_free(s);
	return NULL;
}

/* BASE's factor into NEW's units for the tables; -1 after saying why. */
static double summary_factor(struct ior_stats *b, struct ior_stats *n, enum ior_norm norm)
{
	struct ior_norm_side sb, sn;
	char err[256];
	double f;

	ior_stats_norm_side(b, norm, &sb);
	ior_stats_norm_side(n, norm, &sn);
	if (!ior_norm_factor(norm, &sb, &sn, "time", &f, err, sizeof err))
		return f;
	fprintf(stderr, "ior: diff: %s\n", err);
	return -1;
}

int ior_cmd_diff_print(struct ior_stats *b, struct ior_stats *n, enum ior_norm norm, const char *base_name,
		       const char *new_name, bool json, FILE *out)
{
	struct ior_stats_diff_cfg cfg = { .base_name = base_name, .new_name = new_name,
					  .normalize = ior_norm_name(norm), .json = json };
	int rc;

	if ((cfg.factor = summary_factor(b, n, norm)) < 0)
		return 1;
	rc = ior_stats_diff_report(b, n, out, &cfg);
	if (!rc && !fflush(out))
		return 0;
	fprintf(stderr, "ior: writing the diff to %s failed: %s\n", out == stderr ? "stderr" : "stdout",
		strerror(rc && rc != -EIO ? -rc : errno));
	return 1;
}

struct ior_stats *ior_cmd_baseline_stats(const char *file)
{
	struct ior_opts o = { .ior_file = file, .pid = -1, .tid = -1 }; /* no filter */
	struct flame_job j = { .o = &o };
	struct ior_stats *s = split_files(&j) ? NULL : stats_of(&j);

	free(j.list);
	return s;
}

/* ior diff -summary [-json]: the tables of what changed. */
static int diff_summary(const struct flame_job *jb, const struct flame_job *j)
{
	struct ior_stats *b = stats_of(jb), *n = b ? stats_of(j) : NULL;
	int status = n ? ior_cmd_diff_print(b, n, j->norm, jb->o->ior_file, j->o->ior_file, j->o->json, stdout) : 1;

	ior_stats_free(b);
	ior_stats_free(n);
	return status;
}

/* ior diff [flags] BASE NEW: each a recording, A,B,... or a directory. */
int ior_cmd_diff(const struct ior_opts *o, const char *base, const char *new_)
{
	struct ior_opts on = *o, ob = *o;
	struct flame_job jb = { .o = &ob }, j = { .o = &on, .base = &jb };
	int status = 2;

	on.ior_file = new_;
	ob.ior_file = base;
	if (ior_norm_parse(o->normalize, &j.norm)) {
		fprintf(stderr, "ior: -normalize \"%s\": use rate, total or share\n", o->normalize);
		return 2;
	}
	if (spec_from_opts(o, &j.spec) || (!o->nohttp && !o->folded && !o->summary && ior_cmd_http_check(o)) ||
	    split_files(&jb) || split_files(&j))
		goto out;
	status = 1;
	if (o->summary) {
		status = diff_summary(&jb, &j);
		goto out;
	}
	if (o->folded) {
		struct ior_flame_tree *t = job_tree(&j);
		int rc = t ? ior_flame_write_folded(t, stdout) : 0;
		free_tree(t);
		if (t && (rc || fflush(stdout)))
			fprintf(stderr, "ior: writing the folded diff to stdout failed: %s\n", strerror(rc ? -rc : errno));
		status = !t || rc || ferror(stdout);
		goto out;
	}
	status = draw(&j);
out:
	free_job(&j);
	free(jb.list);
	return status;
}
