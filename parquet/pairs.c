/* Pairs into rows. Strings a person reads (comm, paths, host) are escaped
 * as the CSV escapes them (csv/csv.h), so every value is valid UTF-8
 * and reads the same in both; the dictionary escapes each distinct string
 * once. The rest (syscall, family, flags, errno names) are ior's own. */
#include "pairs.h"
#include "names.h"
#include "writer.h"
#include "out/out.h"
#include "syscalls/open_flags.h"
#include "text/escape.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	C_TIME, C_HOST, C_BOOT, C_COMM, C_PID, C_TID, C_SYSCALL, C_FAMILY, C_FD, C_RET, C_BYTES,
	C_FILE, C_FILE2, C_FLAGS, C_IS_ERROR, C_ERRNO, C_DURATION, C_GAP, C_PAIRS, C_TIMEOUT, C_WHERE,
	C_DEVICE_NS, C_BLK_REQUESTS, C_BLK_BYTES, C_CACHE_PAGES, NCOLS
};

static size_t escape(char *dst, size_t cap, const char *s, size_t n)
{
	return ior_escape_all(dst, cap, s, n, IOR_ESCAPE_AUTO);
}

#define STR(n, opt, x) { n, IOR_PQ_BYTE_ARRAY, IOR_PQ_LOGICAL_STRING, opt, x }
#define NUM(n, t, opt) { n, t, IOR_PQ_LOGICAL_NONE, opt, NULL }
static const struct ior_pq_column_def columns[NCOLS] = {
	[C_TIME] = { "time_ns", IOR_PQ_INT64, IOR_PQ_LOGICAL_TIMESTAMP_NS, false, NULL },
	[C_HOST] = STR("host", false, escape),
	[C_BOOT] = STR("boot_id", true, escape),
	[C_COMM] = STR("comm", false, escape),
	[C_PID] = NUM("pid", IOR_PQ_INT32, false),
	[C_TID] = NUM("tid", IOR_PQ_INT32, false),
	[C_SYSCALL] = STR("syscall", false, NULL),
	[C_FAMILY] = STR("family", false, NULL),
	[C_FD] = NUM("fd", IOR_PQ_INT32, true),
	[C_RET] = NUM("ret", IOR_PQ_INT64, true),
	[C_BYTES] = NUM("bytes", IOR_PQ_INT64, false),
	[C_FILE] = STR("file", true, escape),
	[C_FILE2] = STR("file2", true, escape),
	[C_FLAGS] = STR("flags", true, NULL),
	[C_IS_ERROR] = NUM("is_error", IOR_PQ_BOOLEAN, false),
	[C_ERRNO] = STR("errno_name", true, NULL),
	[C_DURATION] = NUM("duration_ns", IOR_PQ_INT64, false),
	[C_GAP] = NUM("gap_ns", IOR_PQ_INT64, false),
	[C_PAIRS] = NUM("pairs", IOR_PQ_INT64, false),
	[C_TIMEOUT] = NUM("timeout_ns", IOR_PQ_INT64, true),
	[C_WHERE] = STR("where", true, NULL),
	[C_DEVICE_NS] = NUM("device_ns", IOR_PQ_INT64, false),
	[C_BLK_REQUESTS] = NUM("block_requests", IOR_PQ_INT64, false),
	[C_BLK_BYTES] = NUM("block_bytes", IOR_PQ_INT64, false),
	[C_CACHE_PAGES] = NUM("cache_pages", IOR_PQ_INT64, false),
};

struct ior_pq_pairs {
	struct ior_pq_writer *w;
	struct ior_pq_column *c[NCOLS];
	FILE *f;           /* owned when opened from a path */
	struct ior_out file; /* PATH.tmp until closed; path NULL over a stream */
	char *host, *boot_id;
	size_t host_len, boot_len;
	int64_t offset;    /* realtime - monotonic */
	uint32_t gen;      /* of the recording's string ids */
	int64_t last_flags;
	char flags[256];
	size_t flags_len;
};

static int set_meta(struct ior_pq_pairs *pp, const char *key, const char *value)
{
	char buf[4096];

	if (!value)
		return 0;
	size_t n = strlen(value);
	if (n > (sizeof buf - 1) / 4)
		n = (sizeof buf - 1) / 4;
	buf[escape(buf, sizeof buf - 1, value, n)] = 0;
	return ior_pq_writer_set_meta(pp->w, key, buf);
}

static int set_meta_u64(struct ior_pq_pairs *pp, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	return ior_pq_writer_set_meta(pp->w, key, buf);
}

static int header_meta(struct ior_pq_pairs *pp, const struct ior_pq_info *info)
{
	int r = set_meta(pp, "ior.host", pp->host);
	if (!r)
		r = set_meta(pp, "ior.boot_id", info->boot_id);
	if (!r)
		r = set_meta(pp, "ior.kernel", info->kernel);
	if (!r)
		r = set_meta(pp, "ior.version", info->ior_version);
	if (!r)
		r = set_meta(pp, "ior.cmdline", info->cmdline);
	if (!r)
		r = set_meta(pp, "ior.source", info->source);
	if (!r && info->start_realtime_ns)
		r = set_meta_u64(pp, "ior.start_realtime_ns", info->start_realtime_ns);
	return r;
}

int ior_pq_pairs_new(struct ior_pq_pairs **out, FILE *f, const struct ior_pq_info *info)
{
	char by[64];
	struct ior_pq_pairs *pp = calloc(1, sizeof *pp);
	if (!pp)
		return -ENOMEM;
	pp->file.fd = -1;
	snprintf(by, sizeof by, "ior version %s", info->ior_version ? info->ior_version : "unknown");
	struct ior_pq_writer_cfg cfg = { columns, NCOLS, IOR_PQ_ZSTD_LEVEL, 0, by };
	pp->host = strdup(info->host ? info->host : "");
	pp->boot_id = info->boot_id && *info->boot_id ? strdup(info->boot_id) : NULL;
	int r = !pp->host || (info->boot_id && *info->boot_id && !pp->boot_id) ? -ENOMEM : 0;
	if (!r)
		r = ior_pq_writer_new(&pp->w, f, &cfg);
	if (!r)
		r = header_meta(pp, info);
	if (r) {
		ior_pq_pairs_abort(pp);
		return r;
	}
	for (unsigned i = 0; i < NCOLS; i++)
		pp->c[i] = ior_pq_writer_column(pp->w, i);
	pp->host_len = strlen(pp->host);
	pp->boot_len = pp->boot_id ? strlen(pp->boot_id) : 0;
	if (info->start_realtime_ns)
		pp->offset = (int64_t)(info->start_realtime_ns - info->start_monotonic_ns);
	pp->last_flags = IOR_FLAGS_UNKNOWN;
	*out = pp;
	return 0;
}

int ior_pq_pairs_open(struct ior_pq_pairs **out, const char *path, const struct ior_pq_info *info, char *err,
		      size_t errlen)
{
	struct ior_out file;
	FILE *f;
	int r = ior_out_create(&file, path, IOR_OUT_REPLACE, err, errlen);

	if (r)
		return r;
	if (!(f = ior_out_stream(&file))) {
		r = -errno;
		snprintf(err, errlen, "%s: cannot create: %s", file.tmp, strerror(-r));
		ior_out_abort(&file);
		return r;
	}
	if ((r = ior_pq_pairs_new(out, f, info))) {
		snprintf(err, errlen, "%s: %s", file.tmp, strerror(-r));
		fclose(f);
		ior_out_abort(&file);
		return r;
	}
	(*out)->f = f;
	(*out)->file = file;
	return 0;
}

/* id: the recording's string id, or UINT32_MAX when there is none */
static void str(struct ior_pq_column *c, const char *s, uint32_t id)
{
	if (!s || !*s)
		ior_pq_column_null(c);
	else if (id != UINT32_MAX)
		ior_pq_column_str_id(c, id, s, IOR_PQ_STRLEN);
	else
		ior_pq_column_str(c, s, strlen(s));
}

static void flags(struct ior_pq_pairs *pp, int64_t fl)
{
	if (fl == IOR_FLAGS_UNKNOWN)
		return ior_pq_column_null(pp->c[C_FLAGS]);
	if (fl != pp->last_flags) { /* rows mostly repeat the previous one's */
		ior_open_flags_str(pp->flags, sizeof pp->flags, fl);
		pp->flags_len = strlen(pp->flags);
		pp->last_flags = fl;
	}
	ior_pq_column_str(pp->c[C_FLAGS], pp->flags, pp->flags_len);
}

static void syscall_names(struct ior_pq_pairs *pp, unsigned sys)
{
	const char *name = ior_sys(sys)->name;
	const char *fam = ior_pq_family(sys);

	ior_pq_column_str_id(pp->c[C_SYSCALL], sys, name, IOR_PQ_STRLEN);
	ior_pq_column_str_id(pp->c[C_FAMILY], sys, fam, IOR_PQ_STRLEN);
}

static void result(struct ior_pq_pairs *pp, const struct ior_event_pair *p, const struct ior_rec_ids *ids)
{
	char buf[32];
	bool error = !p->summary && p->ret < 0;

	if (p->summary)
		ior_pq_column_null(pp->c[C_RET]);
	else
		ior_pq_column_i64(pp->c[C_RET], p->ret);
	ior_pq_column_i64(pp->c[C_BYTES], (int64_t)p->bytes);
	str(pp->c[C_FILE], p->path, ids ? ids->path : UINT32_MAX);
	str(pp->c[C_FILE2], p->path2, ids ? ids->path2 : UINT32_MAX);
	flags(pp, p->flags);
	ior_pq_column_bool(pp->c[C_IS_ERROR], error);
	if (error)
		str(pp->c[C_ERRNO], ior_pq_errno_name(p->ret, buf, sizeof buf),
		    p->ret < -4095 ? UINT32_MAX : (uint32_t)-p->ret);
	else
		ior_pq_column_null(pp->c[C_ERRNO]);
}

/* The recording's ids start over: forget what they meant. */
static void new_generation(struct ior_pq_pairs *pp, uint32_t gen)
{
	ior_pq_column_forget_ids(pp->c[C_COMM]);
	ior_pq_column_forget_ids(pp->c[C_FILE]);
	ior_pq_column_forget_ids(pp->c[C_FILE2]);
	pp->gen = gen;
}

static int add(struct ior_pq_pairs *pp, const struct ior_event_pair *p, const struct ior_rec_ids *ids)
{
	struct ior_pq_column **c = pp->c;
	const char *comm = p->comm ? p->comm : "";

	if (ids && ids->gen != pp->gen)
		new_generation(pp, ids->gen);
	ior_pq_column_i64(c[C_TIME], (int64_t)p->enter_ns + pp->offset);
	ior_pq_column_str_id(c[C_HOST], 0, pp->host, pp->host_len);
	if (pp->boot_id)
		ior_pq_column_str_id(c[C_BOOT], 0, pp->boot_id, pp->boot_len);
	else
		ior_pq_column_null(c[C_BOOT]);
	if (ids) /* comm is NUL-terminated within 16 bytes (event_pair.h) */
		ior_pq_column_str_id(c[C_COMM], ids->comm, comm, IOR_PQ_STRLEN);
	else
		ior_pq_column_str(c[C_COMM], comm, strnlen(comm, 16));
	ior_pq_column_i32(c[C_PID], (int32_t)p->pid);
	ior_pq_column_i32(c[C_TID], (int32_t)p->tid);
	syscall_names(pp, p->sys);
	if (p->fd < 0)
		ior_pq_column_null(c[C_FD]);
	else
		ior_pq_column_i32(c[C_FD], p->fd);
	result(pp, p, ids);
	ior_pq_column_i64(c[C_DURATION], (int64_t)p->duration_ns);
	ior_pq_column_i64(c[C_GAP], (int64_t)p->gap_ns);
	ior_pq_column_i64(c[C_PAIRS], (int64_t)ior_pair_count(p));
	if (p->has_timeout)
		ior_pq_column_i64(c[C_TIMEOUT], p->timeout_ns);
	else
		ior_pq_column_null(c[C_TIMEOUT]);
	const char *where = ior_pair_where_name(p->where);
	if (where)
		ior_pq_column_str(c[C_WHERE], where, strlen(where));
	else
		ior_pq_column_null(c[C_WHERE]);
	ior_pq_column_i64(c[C_DEVICE_NS], (int64_t)p->device_ns);
	ior_pq_column_i64(c[C_BLK_REQUESTS], (int64_t)p->blk_requests);
	ior_pq_column_i64(c[C_BLK_BYTES], (int64_t)p->blk_bytes);
	ior_pq_column_i64(c[C_CACHE_PAGES], (int64_t)p->cache_pages);
	return ior_pq_writer_end_row(pp->w);
}

int ior_pq_pairs_add(struct ior_pq_pairs *pp, const struct ior_event_pair *p)
{
	return add(pp, p, NULL);
}

int ior_pq_pairs_add_ids(struct ior_pq_pairs *pp, const struct ior_event_pair *p, const struct ior_rec_ids *ids)
{
	return add(pp, p, ids);
}

int ior_pq_pairs_set_meta(struct ior_pq_pairs *pp, const char *key, const char *value)
{
	return set_meta(pp, key, value);
}

uint64_t ior_pq_pairs_rows(const struct ior_pq_pairs *pp)
{
	return ior_pq_writer_rows(pp->w);
}

static int totals_meta(struct ior_pq_pairs *pp, const struct ior_trace_totals *t)
{
	int r = set_meta_u64(pp, "ior.pairs", t->pairs);
	if (!r)
		r = set_meta_u64(pp, "ior.pairs_seen", t->pairs_seen);
	if (!r)
		r = set_meta_u64(pp, "ior.lost", t->lost);
	if (!r)
		r = set_meta_u64(pp, "ior.unpaired_exits", t->unpaired_exits);
	if (!r)
		r = set_meta_u64(pp, "ior.overwritten_enters", t->overwritten_enters);
	if (!r)
		r = set_meta_u64(pp, "ior.in_flight", t->in_flight);
	if (!r)
		r = set_meta_u64(pp, "ior.summarized", t->summarized);
	return r;
}

int ior_pq_pairs_close(struct ior_pq_pairs *pp, const struct ior_trace_totals *totals, char *err,
		       size_t errlen)
{
	int r = totals ? totals_meta(pp, totals) : 0;
	const char *what = pp->file.tmp ? pp->file.tmp : "parquet output";

	if (!r)
		r = ior_pq_writer_finish(pp->w);
	if (!r && pp->f && fsync(fileno(pp->f)) && errno != EINVAL) /* EINVAL: a pipe */
		r = -errno;
	if (pp->f) {
		if (fclose(pp->f) && !r)
			r = errno ? -errno : -EIO;
		pp->f = NULL;
		if (r)
			snprintf(err, errlen, "%s: cannot write: %s", what, strerror(-r));
		else if (pp->file.path)
			r = ior_out_publish(&pp->file, err, errlen);
	} else if (r) {
		snprintf(err, errlen, "%s: cannot write: %s", what, strerror(-r));
	}
	ior_pq_pairs_abort(pp);
	return r;
}

void ior_pq_pairs_abort(struct ior_pq_pairs *pp)
{
	if (!pp)
		return;
	if (pp->f)
		fclose(pp->f);
	ior_out_abort(&pp->file); /* after a publish: nothing to remove */
	ior_pq_writer_free(pp->w);
	free(pp->host);
	free(pp->boot_id);
	free(pp);
}
