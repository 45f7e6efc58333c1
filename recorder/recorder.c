/* The flight recorder (recorder.h): the sink, the triggers, the dumps. */
#include "recorder/recorder.h"
#include "log/log.h"
#include "out/out.h"
#include "pair/clock.h"
#include "rec/rec.h"
#include "syscalls/errnos.h"
#include "syscalls/syscalls.h"
#include "text/escape.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define LATE_NS 250000000ull   /* pairs reach the sink this late (the merge holds them back) */
#define MAX_IN_FLIGHT 256      /* oldest in-flight syscalls the inflight triggers look at */
#define MIN_FRAME_NS 100000000ull
#define MAX_FRAME_NS 1000000000ull
#define MIN_RING (1u << 20)    /* frames held at the least (a frame is at most ~200 KiB) */

struct dump {
	struct ior_out out;
	char path[PATH_MAX];
	uint64_t end_ns, cooldown_ns;
	uint64_t pairs, first_ns, last_ns;
	struct ior_trace_totals before, at; /* the session's before its first frame, at its last */
	struct ior_rec_trigger trig;
	char expr[IOR_TRIGGER_TEXT + 16], comm[16], file[4097];
	int error;                           /* errno of the first failed write */
};

struct ior_recorder {
	struct ior_recorder_cfg cfg;
	struct ior_trigger *trig;
	struct ior_rec_writer *w;
	struct ior_frame_ring ring;
	uint64_t fixed;                      /* bytes the recorder owns beside the ring's buffer */
	struct ior_trace_totals cut_totals;  /* the session's at the last cut */
	int error;                           /* the ring's or writer's: recording stopped */
	bool dumping, said_bound, said_max;
	struct dump d;
	uint64_t quiet_until;                /* triggers fire from then on */
	unsigned started, dumps, failed;
	char dir[PATH_MAX], host[256], name[256];
	char last[PATH_MAX];
};

static uint64_t frame_ns(uint64_t window)
{
	uint64_t ns = window / 16;

	return ns < MIN_FRAME_NS ? MIN_FRAME_NS : ns > MAX_FRAME_NS ? MAX_FRAME_NS : ns;
}

static int write_all(int fd, const void *data, size_t n)
{
	const unsigned char *p = data;

	while (n) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? -errno : -EIO;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* A frame into the dump being written (if any). */
static void dump_frame(struct ior_recorder *r, const struct ior_ring_frame *f)
{
	struct dump *d = &r->d;

	if (d->error)
		return;
	d->error = -write_all(d->out.fd, f->data, f->len);
	if (!d->pairs)
		d->first_ns = f->first_ns;
	d->pairs += f->pairs;
	d->last_ns = f->last_ns;
	d->at = f->totals;
}

static void say_bound(struct ior_recorder *r)
{
	double covers = (double)ior_frame_ring_covers(&r->ring) / 1e9;

	r->said_bound = true;
	ior_log(IOR_LOG_WARN, "recorder: %llu MiB hold the last %.1f s at the current rate, not the %.1f s of "
			      "-recorder; older frames are dropped (raise -recorder-size to keep more)",
		(unsigned long long)(r->cfg.max_bytes >> 20), covers, (double)r->cfg.window_ns / 1e9);
}

/* The writer cut a frame: into the ring, and into a dump being written. */
static int on_frame(void *ctx, const void *data, size_t len, uint64_t first_ns, uint64_t last_ns, uint64_t pairs)
{
	struct ior_recorder *r = ctx;
	struct ior_trace_totals t = { 0 };

	if (r->cfg.totals)
		r->cfg.totals(r->cfg.ctx, &t);
	int rc = ior_frame_ring_push(&r->ring, data, len, first_ns, last_ns, pairs, &t);
	if (rc < 0)
		return rc;
	if (rc && !r->said_bound)
		say_bound(r);
	if (r->dumping)
		dump_frame(r, ior_frame_ring_newest(&r->ring));
	r->cut_totals = t;
	return 0;
}

/* NAME-trigger.ior.zst or NAME-trigger-N.ior.zst (dump_name's), len bytes. */
static int dump_named(const char *name, size_t len)
{
	const char *end = name + len, *sfx = IOR_RECORDING_SUFFIX;
	size_t sl = strlen(sfx);

	if (len < sl || memcmp(end - sl, sfx, sl))
		return 0;
	end -= sl;
	const char *p = end;
	while (p > name && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (p < end && p > name && p[-1] == '-') /* -N */
		end = p - 1;
	return (size_t)(end - name) > 8 && !memcmp(end - 8, "-trigger", 8);
}

/* The .tmp of dumps an ior killed while it wrote them (in this directory,
 * the next start cleans up). */
static void sweep(struct ior_recorder *r)
{
	char err[PATH_MAX + 128];
	int n = ior_out_sweep(r->dir, dump_named, err, sizeof err);

	if (n > 0)
		ior_log(IOR_LOG_INFO, "recorder: removed %d unfinished dump%s (.tmp) a killed ior left in %s", n,
			n == 1 ? "" : "s", r->dir);
}

int ior_recorder_new(struct ior_recorder **out, const struct ior_recorder_cfg *cfg, char *err, size_t errlen)
{
	struct ior_recorder *r = calloc(1, sizeof *r);
	struct utsname u;
	int rc;

	*out = r;
	if (!r || !(r->trig = calloc(cfg->ntriggers ? cfg->ntriggers : 1, sizeof *r->trig))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	r->cfg = *cfg;
	memcpy(r->trig, cfg->triggers, cfg->ntriggers * sizeof *r->trig);
	r->cfg.triggers = r->trig;
	r->d.out.fd = -1;
	snprintf(r->dir, sizeof r->dir, "%s", cfg->dir ? cfg->dir : ".");
	snprintf(r->host, sizeof r->host, "%s", cfg->host ? cfg->host : uname(&u) ? "localhost" : u.nodename);
	snprintf(r->name, sizeof r->name, "%s", cfg->name ? cfg->name : "default");
	if ((rc = ior_rec_writer_open_frames(&r->w, on_frame, r, frame_ns(cfg->window_ns)))) {
		snprintf(err, errlen, "setting up the recorder: %s", strerror(-rc));
		return rc;
	}
	/* -recorder-size bounds all the recorder owns: itself, the encoder
	 * (its buffers, its zstd context: the frame being made), the dump
	 * (made in the encoder's buffers) and, in the rest, the ring */
	r->fixed = sizeof *r + (cfg->ntriggers ? cfg->ntriggers : 1) * sizeof *r->trig + ior_rec_writer_memory(r->w) +
		   2 * PATH_MAX; /* the dump's names, out/'s copies */
	if (cfg->max_bytes < r->fixed + MIN_RING) {
		snprintf(err, errlen, "-recorder-size %llu KiB: the recorder's encoder takes %llu KiB of it, which leaves "
				      "less than %u KiB for frames; give a larger size",
			 (unsigned long long)(cfg->max_bytes >> 10), (unsigned long long)(r->fixed >> 10), MIN_RING >> 10);
		return -EINVAL;
	}
	if ((rc = ior_frame_ring_init(&r->ring, cfg->max_bytes - r->fixed, cfg->window_ns))) {
		snprintf(err, errlen, "setting up the recorder: %s", strerror(-rc));
		return rc;
	}
	sweep(r);
	return 0;
}

/* "HOST-NAME-TIME-trigger.ior.zst" in dir, the first that is not there. */
static int dump_name(struct ior_recorder *r, time_t when, char *path, size_t len)
{
	char base[PATH_MAX];
	size_t sl = strlen(IOR_RECORDING_SUFFIX);
	int rc = ior_rec_default_name(base, sizeof base - 16, r->host, r->name, when);

	if (rc)
		return rc;
	base[strlen(base) - sl] = 0;
	for (unsigned i = 1; i < 1000; i++) {
		struct stat st;
		char nth[16] = "";
		if (i > 1)
			snprintf(nth, sizeof nth, "-%u", i);
		bool here = !strcmp(r->dir, ".");
		if (snprintf(path, len, "%s%s%s-trigger%s%s", here ? "" : r->dir, here ? "" : "/", base, nth,
			     IOR_RECORDING_SUFFIX) >= (int)len)
			return -ENAMETOOLONG;
		if (lstat(path, &st) && errno == ENOENT)
			return 0;
	}
	return -EEXIST;
}

/* The file, its header, and the frames the ring holds. */
static int dump_open(struct ior_recorder *r, char *err, size_t errlen)
{
	const struct ior_ring_frame *first = ior_frame_ring_oldest(&r->ring);
	struct ior_rec_info info = { 0 };
	struct dump *d = &r->d;
	const void *hdr;
	size_t len;
	int rc = dump_name(r, time(NULL), d->path, sizeof d->path);

	if (rc) {
		snprintf(err, errlen, "a dump's name in %s: %s", r->dir, strerror(-rc));
		return rc;
	}
	if ((rc = ior_out_create(&d->out, d->path, IOR_OUT_NO_REPLACE, err, errlen)))
		return rc;
	if (first) {
		info.start_monotonic_ns = first->first_ns;
		info.start_realtime_ns = first->first_ns + (uint64_t)ior_realtime_offset_ns();
		d->before = first->totals;
	}
	info.host = r->host;
	if (!(rc = ior_rec_writer_header(r->w, &info, &hdr, &len)))
		rc = write_all(d->out.fd, hdr, len);
	for (const struct ior_ring_frame *f = first; !rc && f; f = ior_frame_ring_next(&r->ring, f)) {
		dump_frame(r, f);
		rc = -d->error;
	}
	if (rc)
		snprintf(err, errlen, "%s: %s", d->path, strerror(-rc));
	return rc;
}

/* The session's counts over the dump's frames (lost records included). */
static void dump_totals(const struct dump *d, struct ior_trace_totals *t)
{
	const struct ior_trace_totals *a = &d->before, *b = &d->at;

	*t = (struct ior_trace_totals){
		.pairs = d->pairs,
		.pairs_seen = b->pairs_seen - a->pairs_seen,
		.lost = b->lost - a->lost,
		.unpaired_exits = b->unpaired_exits - a->unpaired_exits,
		.overwritten_enters = b->overwritten_enters - a->overwritten_enters,
		.in_flight = 0,
		.summarized = b->summarized - a->summarized,
	};
}

/* "read of /tmp/f by cat (pid 12) took 612.0 ms" (escaped), or "". */
static void describe(const struct ior_rec_trigger *t, char *buf, size_t len)
{
	char path[512], comm[80], err[32] = "";
	const struct ior_event_pair *p = &t->pair;

	buf[0] = 0;
	if (t->kind == IOR_REC_TRIGGER_NONE)
		return;
	ior_escape_name(path, sizeof path, p->path, strlen(p->path), 0);
	ior_escape_name(comm, sizeof comm, p->comm, strlen(p->comm), 0);
	if (p->ret < 0)
		snprintf(err, sizeof err, ", %s", ior_errno_name((uint64_t)-p->ret) ? ior_errno_name((uint64_t)-p->ret) : "error");
	snprintf(buf, len, ": %s%s%s by %s (pid %u, tid %u) %s %.1f ms%s", ior_sys(p->sys)->name, path[0] ? " of " : "",
		 path, comm, p->pid, p->tid, t->kind == IOR_REC_TRIGGER_IN_FLIGHT ? "in flight for" : "took",
		 (double)p->duration_ns / 1e6, err);
}

static void dump_failed(struct ior_recorder *r, const char *msg)
{
	ior_log(IOR_LOG_WARN, "recorder: dump for %s not written: %s; the recorder goes on", r->d.expr, msg);
	ior_out_abort(&r->d.out);
	r->failed++;
	r->dumping = false;
}

/* Trailer, publish, one line. */
static void dump_finish(struct ior_recorder *r)
{
	struct dump *d = &r->d;
	struct ior_trace_totals t;
	char err[PATH_MAX + 128], why[700];
	const void *tr;
	size_t len;

	if (!r->error && ior_rec_writer_cut(r->w))
		r->error = -EIO;
	dump_totals(d, &t);
	int rc = -d->error;
	if (!rc && !(rc = ior_rec_writer_trailer(r->w, &t, &d->trig, &tr, &len)))
		rc = write_all(d->out.fd, tr, len);
	if (rc) {
		snprintf(err, sizeof err, "%s: %s", d->path, strerror(-rc));
		return dump_failed(r, err);
	}
	if ((rc = ior_out_close(&d->out, err, sizeof err)))
		return dump_failed(r, err);
	r->dumps++;
	r->dumping = false;
	snprintf(r->last, sizeof r->last, "%s", d->path);
	describe(&d->trig, why, sizeof why);
	uint64_t fired = d->trig.fired_ns;
	ior_log(IOR_LOG_INFO, "recorder: wrote %s: %llu pairs, %.1f s before and %.1f s after %s%s", d->path,
		(unsigned long long)d->pairs, fired > d->first_ns ? (double)(fired - d->first_ns) / 1e9 : 0.0,
		d->last_ns > fired ? (double)(d->last_ns - fired) / 1e9 : 0.0, d->expr, why);
}

static bool max_reached(struct ior_recorder *r)
{
	if (!r->cfg.max_dumps || r->started < r->cfg.max_dumps)
		return false;
	if (!r->said_max)
		ior_log(IOR_LOG_INFO, "recorder: -max-dumps %u reached: the triggers are disarmed", r->cfg.max_dumps);
	r->said_max = true;
	return true;
}

/* A trigger fired at fired_ns: the ring goes to a new dump file, which
 * then takes the frames until fired_ns + -after. */
static void fire(struct ior_recorder *r, const char *expr, uint64_t cooldown, const struct ior_event_pair *p,
		 enum ior_rec_trigger_kind kind, uint64_t fired_ns)
{
	struct dump *d = &r->d;
	char err[PATH_MAX + 128];

	memset(d, 0, sizeof *d);
	d->out.fd = -1;
	r->started++;
	snprintf(d->expr, sizeof d->expr, "%s", expr);
	d->trig = (struct ior_rec_trigger){ .expr = d->expr, .fired_ns = fired_ns, .kind = kind };
	if (p) {
		d->trig.pair = *p;
		snprintf(d->comm, sizeof d->comm, "%s", p->comm ? p->comm : "");
		snprintf(d->file, sizeof d->file, "%s", p->path ? p->path : "");
		d->trig.pair.comm = d->comm;
		d->trig.pair.path = d->file;
		d->trig.pair.path2 = "";
	}
	d->end_ns = fired_ns + r->cfg.after_ns;
	d->cooldown_ns = cooldown == IOR_TRIGGER_COOLDOWN_DEFAULT ? r->cfg.window_ns : cooldown;
	r->quiet_until = d->end_ns + d->cooldown_ns;
	/* the frame being filled (the trigger pair's) goes to the ring only;
	 * dump_open copies the whole ring */
	if (!r->error && ior_rec_writer_cut(r->w))
		r->error = -EIO;
	ior_frame_ring_trim(&r->ring, fired_ns); /* the window before the trigger, no more */
	if (dump_open(r, err, sizeof err))
		return dump_failed(r, err);
	r->dumping = true;
}

static bool armed(struct ior_recorder *r, uint64_t now)
{
	return !r->dumping && !r->error && now >= r->quiet_until && !max_reached(r);
}

static void sink_pair(void *ctx, const struct ior_event_pair *p)
{
	struct ior_recorder *r = ctx;
	uint64_t at = p->enter_ns + (p->summary ? 0 : p->duration_ns);

	if (r->error)
		return;
	int rc = ior_rec_write(r->w, p);
	if (rc < 0) {
		r->error = rc;
		ior_log(IOR_LOG_WARN, "recorder: stopped recording: %s", strerror(-rc));
		return;
	}
	for (size_t i = 0; i < r->cfg.ntriggers; i++) {
		struct ior_trigger *t = &r->trig[i];
		if (t->kind != IOR_TRIGGER_INFLIGHT && ior_trigger_pair(t, p) && armed(r, at))
			fire(r, t->text, t->cooldown_ns, p->summary ? NULL : p,
			     p->summary ? IOR_REC_TRIGGER_NONE : IOR_REC_TRIGGER_PAIR, at);
	}
}

/* inflight triggers: the oldest syscalls still running. */
static void check_in_flight(struct ior_recorder *r, uint64_t now)
{
	struct ior_in_flight f[MAX_IN_FLIGHT];
	size_t n = 0;

	for (size_t i = 0; i < r->cfg.ntriggers && armed(r, now); i++) {
		struct ior_trigger *t = &r->trig[i];
		if (t->kind != IOR_TRIGGER_INFLIGHT)
			continue;
		if (!n && (n = r->cfg.in_flight(r->cfg.ctx, f, MAX_IN_FLIGHT)) > MAX_IN_FLIGHT)
			n = MAX_IN_FLIGHT;
		for (size_t k = 0; k < n; k++) {
			if (!ior_trigger_in_flight(t, f[k].sys, f[k].comm, f[k].path, f[k].enter_ns, now))
				continue;
			struct ior_event_pair p = { .enter_ns = f[k].enter_ns, .duration_ns = now - f[k].enter_ns,
						    .pid = f[k].pid, .tid = f[k].tid, .fd = f[k].fd, .sys = f[k].sys,
						    .comm = f[k].comm, .path = f[k].path ? f[k].path : "", .path2 = "",
						    .flags = IOR_FLAGS_UNKNOWN };
			fire(r, t->text, t->cooldown_ns, &p, IOR_REC_TRIGGER_IN_FLIGHT, now);
			break;
		}
	}
}

static int sink_tick(void *ctx, uint64_t now)
{
	struct ior_recorder *r = ctx;

	if (r->error)
		return 0;
	if (ior_rec_tick(r->w, now) < 0) {
		r->error = -EIO;
		ior_log(IOR_LOG_WARN, "recorder: stopped recording: out of memory");
		return 0;
	}
	if (r->dumping && now >= r->d.end_ns + LATE_NS)
		dump_finish(r);
	ior_frame_ring_trim(&r->ring, now);
	if (r->cfg.in_flight)
		check_in_flight(r, now);
	return 0; /* a failed dump never stops the trace */
}

struct ior_sink ior_recorder_sink(struct ior_recorder *r)
{
	return (struct ior_sink){ sink_pair, sink_tick, r, NULL };
}

int ior_recorder_dump_now(struct ior_recorder *r, const char *why)
{
	if (r->dumping)
		return -EBUSY;
	if (max_reached(r))
		return -EDQUOT;
	uint64_t quiet = r->quiet_until;
	fire(r, why, 0, NULL, IOR_REC_TRIGGER_NONE, ior_mono_ns());
	r->quiet_until = quiet > r->quiet_until ? quiet : r->quiet_until;
	return 0;
}

int ior_recorder_close(struct ior_recorder *r)
{
	unsigned failed = r->failed;

	if (r->dumping)
		dump_finish(r);
	return r->failed != failed;
}

void ior_recorder_state(const struct ior_recorder *r, struct ior_recorder_state *s)
{
	size_t armed_n = 0;
	bool on = !r->dumping && !r->error && !(r->cfg.max_dumps && r->started >= r->cfg.max_dumps) &&
		  ior_mono_ns() >= r->quiet_until;

	for (size_t i = 0; on && i < r->cfg.ntriggers; i++)
		armed_n++;
	*s = (struct ior_recorder_state){
		.covers_ns = ior_frame_ring_covers(&r->ring), .bytes = r->fixed + r->ring.bytes,
		.max_bytes = r->cfg.max_bytes, .frames_max = r->ring.cap, .window_ns = r->cfg.window_ns, .armed = armed_n,
		.ntriggers = r->cfg.ntriggers, .dumps = r->dumps, .failed = r->failed, .dumping = r->dumping,
		.dropped_pairs = r->ring.dropped_pairs,
	};
	snprintf(s->last, sizeof s->last, "%s", r->last);
}

void ior_recorder_free(struct ior_recorder *r)
{
	if (!r)
		return;
	ior_out_abort(&r->d.out);
	ior_rec_writer_free(r->w);
	ior_frame_ring_free(&r->ring);
	free(r->trig);
	free(r);
}
