/* Parquet output: ior parquet FILE.ior.zst [-o OUT.parquet] converts a
 * recording; -parquet OUT while tracing is a sink. Both write OUT.tmp and
 * rename it to OUT once the footer is written (parquet/pairs.h): a run
 * killed mid-way leaves no OUT. */
#include "flame/flame.h"
#include "opts.h"
#include "parquet/pairs.h"
#include "parquet/sink.h"
#include "pair/clock.h"
#include "rec/rec.h"
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

/* Every pair the filters keep; 0, or 1 after saying why not. */
static int convert(struct ior_rec_reader *r, struct ior_pq_pairs *pp, const struct ior_opts *o,
		   const char *file, const char *out)
{
	struct ior_flame_spec filter = { .pid = o->pid, .tid = o->tid, .comm = o->comm, .path = o->path };
	struct ior_event_pair p;
	struct ior_rec_ids ids;
	int rc, w = 0;

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

static int open_out(struct ior_pq_pairs **pp, const char *out, const char *file, struct ior_rec_reader *r,
		    const struct ior_opts *o)
{
	const struct ior_rec_info *ri = ior_rec_reader_info(r);
	struct ior_pq_info info = {
		.host = ri->host, .kernel = ri->kernel, .ior_version = o->ior_version,
		.cmdline = ri->cmdline, .source = file,
		.start_realtime_ns = ri->start_realtime_ns, .start_monotonic_ns = ri->start_monotonic_ns,
	};
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
	int rc = convert(r, pp, o, file, out);
	if (rc)
		ior_pq_pairs_abort(pp);
	else
		rc = finish(pp, r, file, out);
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
	if ((r = ior_session_add_sink(s, ior_pq_sink(sink)))) {
		fprintf(stderr, "ior: -parquet: cannot add the sink: %s\n", strerror(-r));
		return 1;
	}
	return 0;
}

int ior_cmd_parquet_close(struct ior_pq_sink *sink, struct ior_session *s, const char *path)
{
	struct ior_trace_totals tot;
	char err[PATH_MAX + 128];
	uint64_t rows = ior_pq_pairs_rows(sink->pp);

	if (sink->error) {
		fprintf(stderr, "ior: -parquet: %s.tmp: cannot write: %s%s (removed)\n", path,
			strerror(-sink->error), ior_cmd_write_hint(-sink->error, false));
		ior_pq_pairs_abort(sink->pp);
		sink->pp = NULL;
		return 1;
	}
	ior_session_totals(s, &tot);
	int r = ior_pq_pairs_close(sink->pp, &tot, err, sizeof err);
	sink->pp = NULL;
	if (r) {
		fprintf(stderr, "ior: -parquet: %s%s\n", err, ior_cmd_write_hint(-r, false));
		return 1;
	}
	wrote(path, rows);
	return 0;
}
