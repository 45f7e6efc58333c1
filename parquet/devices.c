/* The device table's two files (devices.h). Small: a host has a few
 * devices and five ops, so one row group each. */
#include "devices.h"
#include "writer.h"
#include "out/out.h"
#include "text/escape.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static size_t escape(char *dst, size_t cap, const char *s, size_t n)
{
	return ior_escape_all(dst, cap, s, n, IOR_ESCAPE_AUTO);
}

#define STR(n, x) { n, IOR_PQ_BYTE_ARRAY, IOR_PQ_LOGICAL_STRING, false, x }
#define I32(n) { n, IOR_PQ_INT32, IOR_PQ_LOGICAL_NONE, false, NULL }
#define I64(n, opt) { n, IOR_PQ_INT64, IOR_PQ_LOGICAL_NONE, opt, NULL }

/* The key every row of both files starts with. */
enum { K_HOST, K_DEVICE, K_MAJOR, K_MINOR, K_OP, NKEY };
#define KEY_COLUMNS STR("host", escape), STR("device", escape), I32("major"), I32("minor"), STR("op", NULL)

enum { D_REQUESTS = NKEY, D_BYTES, D_ERRORS, D_IN_SYSCALLS, D_SYSCALL_BYTES, D_NOT_ISSUED, D_QUEUE,
       D_DEVICE = D_QUEUE + 5, D_DEVICE_SUM = D_DEVICE + 5, ND };
static const struct ior_pq_column_def dev_cols[ND] = {
	KEY_COLUMNS,
	I64("requests", false), I64("bytes", false), I64("errors", false), I64("in_syscalls", false),
	I64("syscall_bytes", false), I64("not_issued", false),
	I64("queue_min_ns", true), I64("queue_p50_ns", true), I64("queue_p95_ns", true),
	I64("queue_p99_ns", true), I64("queue_max_ns", true),
	I64("device_min_ns", true), I64("device_p50_ns", true), I64("device_p95_ns", true),
	I64("device_p99_ns", true), I64("device_max_ns", true),
	I64("device_sum_ns", false),
};

enum { H_LATENCY = NKEY, H_LO, H_HI, H_REQUESTS, NH };
static const struct ior_pq_column_def hist_cols[NH] = {
	KEY_COLUMNS, STR("latency", NULL), I64("lo_ns", false), I64("hi_ns", true), I64("requests", false),
};

int ior_pq_devices_paths(const char *pairs_path, char *devices, char *hist, size_t len)
{
	static const char sfx[] = ".parquet";
	size_t n = strlen(pairs_path), sl = sizeof sfx - 1;

	if (n > sl && !strcmp(pairs_path + n - sl, sfx))
		n -= sl;
	int a = snprintf(devices, len, "%.*s.devices.parquet", (int)n, pairs_path);
	int b = snprintf(hist, len, "%.*s.device_hist.parquet", (int)n, pairs_path);
	return a < 0 || b < 0 || (size_t)a >= len || (size_t)b >= len ? -ENAMETOOLONG : 0;
}

static void str(struct ior_pq_column *c, const char *s)
{
	ior_pq_column_str(c, s ? s : "", s ? strlen(s) : 0);
}

static void key(struct ior_pq_writer *w, const struct ior_pq_info *info, const struct ior_pq_dev_row *r)
{
	str(ior_pq_writer_column(w, K_HOST), info->host);
	str(ior_pq_writer_column(w, K_DEVICE), r->device);
	ior_pq_column_i32(ior_pq_writer_column(w, K_MAJOR), (int32_t)r->major);
	ior_pq_column_i32(ior_pq_writer_column(w, K_MINOR), (int32_t)r->minor);
	str(ior_pq_writer_column(w, K_OP), r->op);
}

static void lat5(struct ior_pq_writer *w, unsigned first, const uint64_t v[5], bool known)
{
	for (unsigned i = 0; i < 5; i++) {
		struct ior_pq_column *c = ior_pq_writer_column(w, first + i);
		if (known)
			ior_pq_column_i64(c, (int64_t)v[i]);
		else
			ior_pq_column_null(c);
	}
}

static int dev_rows(struct ior_pq_writer *w, const struct ior_pq_info *info, const struct ior_pq_dev_row *rows,
		    unsigned n)
{
	int rc = 0;

	for (unsigned i = 0; i < n && !rc; i++) {
		const struct ior_pq_dev_row *r = &rows[i];
		const uint64_t v[] = { r->requests, r->bytes, r->errors, r->in_syscalls, r->syscall_bytes, r->not_issued };
		key(w, info, r);
		for (unsigned k = 0; k < sizeof v / sizeof *v; k++)
			ior_pq_column_i64(ior_pq_writer_column(w, D_REQUESTS + k), (int64_t)v[k]);
		lat5(w, D_QUEUE, r->queue_lat, r->issued);
		lat5(w, D_DEVICE, r->device_lat, r->issued);
		ior_pq_column_i64(ior_pq_writer_column(w, D_DEVICE_SUM), (int64_t)r->device_sum_ns);
		rc = ior_pq_writer_end_row(w);
	}
	return rc;
}

static int hist_one(struct ior_pq_writer *w, const struct ior_pq_info *info, const struct ior_pq_dev_row *r,
		    const char *latency, const uint64_t *log2)
{
	int rc = 0;

	for (unsigned i = 0; i < IOR_PQ_LOG2_BUCKETS && !rc; i++) {
		if (!log2[i])
			continue;
		key(w, info, r);
		str(ior_pq_writer_column(w, H_LATENCY), latency);
		ior_pq_column_i64(ior_pq_writer_column(w, H_LO), i ? (int64_t)(1ull << (i - 1)) : 0);
		if (i < 64) /* [2^63, 2^64) ends past INT64: null */
			ior_pq_column_i64(ior_pq_writer_column(w, H_HI), i ? (int64_t)(1ull << i) : 1);
		else
			ior_pq_column_null(ior_pq_writer_column(w, H_HI));
		ior_pq_column_i64(ior_pq_writer_column(w, H_REQUESTS), (int64_t)log2[i]);
		rc = ior_pq_writer_end_row(w);
	}
	return rc;
}

static int hist_rows(struct ior_pq_writer *w, const struct ior_pq_info *info, const struct ior_pq_dev_row *rows,
		     unsigned n)
{
	int rc = 0;

	for (unsigned i = 0; i < n && !rc; i++) {
		rc = hist_one(w, info, &rows[i], "queue", rows[i].queue_log2);
		if (!rc)
			rc = hist_one(w, info, &rows[i], "device", rows[i].device_log2);
	}
	return rc;
}

static int meta(struct ior_pq_writer *w, const char *key, const char *value)
{
	char buf[4096];
	size_t n;

	if (!value)
		return 0;
	n = strnlen(value, (sizeof buf - 1) / 4);
	buf[escape(buf, sizeof buf - 1, value, n)] = 0;
	return ior_pq_writer_set_meta(w, key, buf);
}

static int file_meta(struct ior_pq_writer *w, const struct ior_pq_info *info, const char *table)
{
	int rc = meta(w, "ior.table", table);
	if (!rc)
		rc = meta(w, "ior.host", info->host);
	if (!rc)
		rc = meta(w, "ior.kernel", info->kernel);
	if (!rc)
		rc = meta(w, "ior.version", info->ior_version);
	if (!rc)
		rc = meta(w, "ior.source", info->source);
	return rc;
}

typedef int (*fill_fn)(struct ior_pq_writer *w, const struct ior_pq_info *info, const struct ior_pq_dev_row *rows,
		       unsigned n);

static int one_file(const char *path, const struct ior_pq_column_def *cols, unsigned ncols, const char *table,
		    fill_fn fill, const struct ior_pq_info *info, const struct ior_pq_dev_row *rows, unsigned n,
		    char *err, size_t errlen)
{
	char by[64];
	struct ior_out file;
	struct ior_pq_writer *w = NULL;
	FILE *f;
	int rc = ior_out_create(&file, path, IOR_OUT_REPLACE, err, errlen);

	if (rc)
		return rc;
	if (!(f = ior_out_stream(&file))) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot create: %s", file.tmp, strerror(-rc));
		ior_out_abort(&file);
		return rc;
	}
	snprintf(by, sizeof by, "ior version %s", info->ior_version ? info->ior_version : "unknown");
	struct ior_pq_writer_cfg cfg = { cols, ncols, IOR_PQ_ZSTD_LEVEL, 0, by };
	rc = ior_pq_writer_new(&w, f, &cfg);
	if (!rc)
		rc = file_meta(w, info, table);
	if (!rc)
		rc = fill(w, info, rows, n);
	if (!rc)
		rc = ior_pq_writer_finish(w);
	ior_pq_writer_free(w);
	if (!rc && fsync(fileno(f)))
		rc = -errno;
	if (fclose(f) && !rc)
		rc = errno ? -errno : -EIO;
	if (rc)
		snprintf(err, errlen, "%s: cannot write: %s", file.tmp, strerror(-rc));
	else
		rc = ior_out_publish(&file, err, errlen);
	ior_out_abort(&file);
	return rc;
}

int ior_pq_devices_write(const char *devices_path, const char *hist_path, const struct ior_pq_info *info,
			 const struct ior_pq_dev_row *rows, unsigned n, char *err, size_t errlen)
{
	int rc = one_file(devices_path, dev_cols, ND, "devices", dev_rows, info, rows, n, err, errlen);

	if (!rc)
		rc = one_file(hist_path, hist_cols, NH, "device_hist", hist_rows, info, rows, n, err, errlen);
	return rc;
}
