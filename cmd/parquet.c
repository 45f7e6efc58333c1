/* Parquet output: ior parquet FILE.ior.zst [-o OUT.parquet] converts a
 * recording; -parquet OUT while tracing is a sink. Both write OUT.tmp and
 * rename it to OUT once the footer is written (parquet/pairs.h): a run
 * killed mid-way leaves no OUT. Beside OUT, the device table of the same
 * block requests -summary counts (parquet/devices.h). */
#include "flame/flame.h"
#include "opts.h"
#include "pair/devname.h"
#include "parquet/devices.h"
#include "parquet/pairs.h"
#include "parquet/sink.h"
#include "pair/clock.h"
#include "rec/rec.h"
#include "stats/devices.h"
#include "trace/session.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static void wrote(const char *path, uint64_t rows)
{
	struct stat st;

	fprintf(stderr, "Wrote %s (%llu rows, %lld bytes)\n", path, (unsigned long long)rows,
		stat(path, &st) ? -1LL : (long long)st.st_size);
}

/* FILE.ior.zst -> FILE.parquet */
static int default_out(char *buf, size_t len, const char *file)
{
	size_t n = strlen(file), sl = strlen(IOR_RECORDING_SUFFIX);

	if (n > sl && !strcmp(file + n - sl, IOR_RECORDING_SUFFIX))
		n -= sl;
	int k = snprintf(buf, len, "%.*s.parquet", (int)n, file);
	return k < 0 || (size_t)k >= len ? -1 : 0;
}

/* ---- the device table ---------------------------------------------------- */

static void hist_row(const struct ior_hist *h, uint64_t v[5], uint64_t log2[IOR_PQ_LOG2_BUCKETS])
{
	static const double q[3] = { 50, 95, 99 };

	v[0] = h->count ? h->min : 0;
	ior_hist_percentiles(h, q, v + 1, 3);
	v[4] = h->max;
	ior_hist_log2(h, log2);
}

/* d's rows as the files hold them; names from the recording (d's) or,
 * live, this host's. NULL on ENOMEM. */
static struct ior_pq_dev_row *dev_rows(struct ior_devices *d, bool live, char (*names)[64])
{
	struct ior_pq_dev_row *rows = calloc(d->n ? d->n : 1, sizeof *rows);

	if (!rows)
		return NULL;
	ior_devices_sort(d);
	for (unsigned i = 0; i < d->n; i++) {
		const struct ior_dev_row *r = &d->rows[i];
		struct ior_pq_dev_row *o = &rows[i];
		const char *name = live ? NULL : ior_devices_name(d, r->dev);
		if (live)
			ior_devname(r->dev, names[i], sizeof names[i]);
		else if (name)
			snprintf(names[i], sizeof names[i], "%s", name);
		else
			snprintf(names[i], sizeof names[i], "%u:%u", r->dev >> 20, r->dev & 0xfffff);
		*o = (struct ior_pq_dev_row){ .device = names[i], .major = r->dev >> 20, .minor = r->dev & 0xfffff,
					      .op = ior_blk_op_name(r->op), .requests = r->requests, .bytes = r->bytes,
					      .errors = r->errors, .in_syscalls = r->in_pairs,
					      .syscall_bytes = r->in_pairs_bytes, .not_issued = r->not_issued,
					      .issued = r->device.count > 0, .device_sum_ns = r->device.sum };
		hist_row(&r->queue, o->queue_lat, o->queue_log2);
		hist_row(&r->device, o->device_lat, o->device_log2);
	}
	return rows;
}

/* OUT's device files; 0, or 1 after saying why not. */
static int write_devices(const char *out, struct ior_devices *d, const struct ior_pq_info *info, bool live)
{
	char dp[PATH_MAX], hp[PATH_MAX], err[PATH_MAX + 128];
	char (*names)[64] = calloc(d->n ? d->n : 1, sizeof *names);
	struct ior_pq_dev_row *rows = names ? dev_rows(d, live, names) : NULL;
	int rc;

	if (!rows) {
		fprintf(stderr, "ior: %s: cannot write the device table: %s\n", out, strerror(ENOMEM));
		free(names);
		return 1;
	}
	if ((rc = ior_pq_devices_paths(out, dp, hp, sizeof dp)))
		fprintf(stderr, "ior: %s: the device table's file name is too long (give a shorter -o)\n", out);
	else if ((rc = ior_pq_devices_write(dp, hp, info, rows, d->n, err, sizeof err)))
		fprintf(stderr, "ior: %s%s\n", err, ior_cmd_write_hint(-rc, false));
	else
		fprintf(stderr, "Wrote %s and %s (the device table: %u rows)\n", dp, hp, d->n);
	free(rows);
	free(names);
	return rc != 0;
}

/* A recording's block requests and device names, kept when the filters
 * keep their submitter and file (as ior summary keeps them). */
struct rec_devs {
	struct ior_devices d;
	const struct ior_flame_spec *filter;
};

static int rec_block(void *ctx, const struct ior_block_req *b)
{
	struct rec_devs *r = ctx;
	struct ior_event_pair who = { .pid = b->pid, .tid = b->tid, .comm = b->comm, .path = b->path, .path2 = "" };

	if (ior_flame_spec_match(r->filter, &who))
		ior_devices_add(&r->d, b);
	return 0;
}

static int rec_devname(void *ctx, uint32_t dev, const char *name)
{
	struct rec_devs *r = ctx;
	int rc = ior_devices_set_name(&r->d, dev, name);

	return rc == -ENOSPC ? 0 : rc; /* past the bound: named MAJ:MIN */
}

/* Every pair the filters keep; 0, or 1 after saying why not. */
static int convert(struct ior_rec_reader *r, struct ior_pq_pairs *pp, const struct ior_opts *o,
		   const char *file, const char *out, struct rec_devs *devs)
{
	struct ior_flame_spec filter = { .pid = o->pid, .tid = o->tid, .comm = o->comm, .path = o->path };
	struct ior_event_pair p;
	struct ior_rec_ids ids;
	int rc, w = 0;

	devs->filter = &filter;
	ior_rec_reader_block_hooks(r, &(struct ior_rec_block_hooks){ rec_block, rec_devname, devs });
	while (!w && (rc = ior_rec_read_ids(r, &p, &ids)) == 1)
		if (ior_flame_spec_match(&filter, &p))
			w = ior_pq_pairs_add_ids(pp, &p, &ids);
	if (w)
		fprintf(stderr, "ior: %s.tmp: cannot write: %s%s\n", out, strerror(-w), ior_cmd_write_hint(-w, false));
	else if (rc < 0)
		fprintf(stderr, "ior: %s: cannot read the recording: %s\n", file,
			rc == -ENOMEM ? strerror(ENOMEM) : ior_rec_reader_error(r));
	return w || rc < 0;
}

static struct ior_pq_info rec_info(struct ior_rec_reader *r, const struct ior_opts *o, const char *file)
{
	const struct ior_rec_info *ri = ior_rec_reader_info(r);

	return (struct ior_pq_info){
		.host = ri->host, .kernel = ri->kernel, .ior_version = o->ior_version,
		.cmdline = ri->cmdline, .source = file,
		.start_realtime_ns = ri->start_realtime_ns, .start_monotonic_ns = ri->start_monotonic_ns,
	};
}

static int open_out(struct ior_pq_pairs **pp, const char *out, const char *file, struct ior_rec_reader *r,
		    const struct ior_opts *o)
{
	struct ior_pq_info info = rec_info(r, o, file);
	char err[PATH_MAX + 128];
	int rc = ior_pq_pairs_open(pp, out, &info, err, sizeof err);

	if (rc)
		fprintf(stderr, "ior: %s%s\n", err, ior_cmd_write_hint(-rc, false));
	return rc;
}

/* The recording's totals, or that it was cut short. */
static int finish(struct ior_pq_pairs *pp, struct ior_rec_reader *r, const char *file, const char *out)
{
	char err[PATH_MAX + 128];
	uint64_t rows = ior_pq_pairs_rows(pp), pairs, end;
	int rc = 0;

	ior_cmd_warn_unknown(file, r);
	if (ior_rec_reader_truncated(r, &pairs, &end)) {
		fprintf(stderr, "ior: %s: truncated after %llu pairs (last complete frame at byte %llu): "
				"converted what it holds\n",
			file, (unsigned long long)pairs, (unsigned long long)end);
		rc = ior_pq_pairs_set_meta(pp, "ior.truncated", "true");
	}
	if (rc) {
		ior_pq_pairs_abort(pp);
		fprintf(stderr, "ior: %s: %s\n", out, strerror(-rc));
		return 1;
	}
	if ((rc = ior_pq_pairs_close(pp, ior_rec_reader_totals(r), err, sizeof err))) {
		fprintf(stderr, "ior: %s%s\n", err, ior_cmd_write_hint(-rc, false));
		return 1;
	}
	wrote(out, rows);
	return 0;
}

int ior_cmd_parquet(const struct ior_opts *o, const char *file)
{
	char out_buf[PATH_MAX];
	const char *out = o->parquet;
	struct ior_rec_reader *r;
	struct ior_pq_pairs *pp;

	if (!out && default_out(out_buf, sizeof out_buf, file)) {
		fprintf(stderr, "ior: %s: output file name too long (give one with -o)\n", file);
		return 2;
	}
	out = out ? out : out_buf;
	if (ior_cmd_open_recording(file, &r, false))
		return 1;
	if (open_out(&pp, out, file, r, o)) {
		ior_rec_reader_close(r);
		return 1;
	}
	struct rec_devs *devs = calloc(1, sizeof *devs);
	int rc = devs ? convert(r, pp, o, file, out, devs) : 1;
	if (!devs)
		fprintf(stderr, "ior: %s: %s\n", file, strerror(ENOMEM));
	if (rc) {
		ior_pq_pairs_abort(pp);
	} else {
		struct ior_pq_info info = rec_info(r, o, file);
		rc = finish(pp, r, file, out);
		rc = write_devices(out, &devs->d, &info, false) || rc;
	}
	if (devs)
		ior_devices_free(&devs->d);
	free(devs);
	ior_rec_reader_close(r);
	return rc;
}

/* ---- -parquet OUT while tracing ------------------------------------------ */

/* Up to len - 1 bytes of a small /proc file into buf: how many (0 when
 * unreadable). */
static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	return n < 0 ? 0 : n;
}

static void read_boot_id(char *buf, size_t len)
{
	ssize_t n = read_small("/proc/sys/kernel/random/boot_id", buf, len);

	while (n > 0 && (buf[n - 1] == '\n' || !buf[n - 1]))
		n--;
	buf[n] = 0;
}

static void live_block(void *ctx, const struct ior_block_req *r)
{
	ior_devices_add(ctx, r);
}

int ior_cmd_parquet_open(struct ior_pq_sink *sink, struct ior_session *s, const struct ior_opts *o)
{
	char boot[64], cmdline[4096], err[PATH_MAX + 128];
	struct utsname u;
	bool named = !uname(&u);
	struct ior_pq_info info = {
		.host = named ? u.nodename : "localhost", .kernel = named ? u.release : NULL,
		.ior_version = o->ior_version, .boot_id = boot, .cmdline = cmdline,
		.start_monotonic_ns = ior_mono_ns(),
	};

	info.start_realtime_ns = info.start_monotonic_ns + (uint64_t)ior_realtime_offset_ns();
	read_boot_id(boot, sizeof boot);
	ior_rec_own_cmdline(cmdline, sizeof cmdline);
	int r = ior_pq_pairs_open(&sink->pp, o->parquet, &info, err, sizeof err);
	if (r) {
		fprintf(stderr, "ior: -parquet: %s%s\n", err, ior_cmd_write_hint(-r, false));
		return 1;
	}
	struct ior_devices *devs = malloc(sizeof *devs);
	if (!devs) {
		fprintf(stderr, "ior: -parquet: %s\n", strerror(ENOMEM));
		return 1;
	}
	ior_devices_init(devs);
	sink->block = live_block;
	sink->block_ctx = devs;
	if ((r = ior_session_add_sink(s, ior_pq_sink(sink)))) {
		fprintf(stderr, "ior: -parquet: cannot add the sink: %s\n", strerror(-r));
		ior_devices_free(devs);
		free(devs);
		sink->block = NULL;
		sink->block_ctx = NULL;
		return 1;
	}
	return 0;
}

int ior_cmd_parquet_close(struct ior_pq_sink *sink, struct ior_session *s, const struct ior_opts *o)
{
	const char *path = o->parquet;
	struct ior_trace_totals tot;
	char err[PATH_MAX + 128];
	uint64_t rows = ior_pq_pairs_rows(sink->pp);
	struct ior_devices *devs = sink->block_ctx;
	int rc = 1;

	sink->block = NULL;
	sink->block_ctx = NULL;
	if (sink->error) {
		fprintf(stderr, "ior: -parquet: %s.tmp: cannot write: %s%s (removed)\n", path,
			strerror(-sink->error), ior_cmd_write_hint(-sink->error, false));
		ior_pq_pairs_abort(sink->pp);
		sink->pp = NULL;
		goto out;
	}
	ior_session_totals(s, &tot);
	int r = ior_pq_pairs_close(sink->pp, &tot, err, sizeof err);
	sink->pp = NULL;
	if (r) {
		fprintf(stderr, "ior: -parquet: %s%s\n", err, ior_cmd_write_hint(-r, false));
		goto out;
	}
	wrote(path, rows);
	struct utsname u;
	bool named = !uname(&u);
	struct ior_pq_info info = { .host = named ? u.nodename : "localhost", .kernel = named ? u.release : NULL,
				    .ior_version = o->ior_version };
	rc = devs ? write_devices(path, devs, &info, true) : 0;
out:
	if (devs)
		ior_devices_free(devs);
	free(devs);
	return rc;
}

void ior_cmd_parquet_abort(struct ior_pq_sink *sink)
{
	ior_pq_pairs_abort(sink->pp);
	sink->pp = NULL;
	if (sink->block_ctx)
		ior_devices_free(sink->block_ctx);
	free(sink->block_ctx);
	sink->block_ctx = NULL;
	sink->block = NULL;
}
