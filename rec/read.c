/* Recording reader: decodes complete frames only and treats the file as
 * hostile (rec.h). */
#include "text/escape.h"
#include "rec/rec.h"
#include "rec/codec.h"
#include "rec/frames.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

struct ior_rec_reader {
	struct ior_rec_frames in;
	size_t pos;              /* of the next record in in.frame */
	bool ended, truncated, failed;
	uint64_t pairs;          /* PAIR and SUMMARY records read */

	struct ior_strtab str;   /* the current generation's strings, by the file's ids */
	uint32_t gen;
	/* with a define hook (ior_rec_reader_map_strings), instead of str:
	 * the value of each id, and the counts that bound a generation */
	ior_rec_define_cb define;
	void *define_ctx;
	uint32_t *values, nvalues, values_cap;
	size_t value_bytes;
	char scratch[MAX_STR_LEN + 1]; /* the string handed to define, NUL-terminated */

	/* the file's syscall ids to ior_sys() indexes; NO_SYS: a name no
	 * table knows, defined when a pair first uses it */
	uint16_t sys_map[MAX_SYSCALLS];
	uint32_t nsys;
	char *sys_names;         /* nsys names, escaped, SYSNAME_LEN bytes each */
	unsigned nunknown;       /* names defined so far, listed in unknown */
	char unknown[256];
	int sys_err;             /* why pair_sys failed */

	struct ior_rec_info info;
	char *host, *kernel, *cmdline;
	struct ior_trace_totals totals;
	bool has_totals;
	struct ior_rec_trigger trigger; /* has_trigger: a dump's, from its trailer */
	bool has_trigger;
	char trig_expr[MAX_TRIGGER + 1], trig_comm[17], trig_path[MAX_STR_LEN + 1];
	struct codec codec;
	struct ior_rec_block_hooks hooks; /* block requests, device names (version 6) */
	/* a series (a directory of rotated recordings): its files in time
	 * order, read one after the other as one recording */
	char **series;
	size_t nseries, series_at;
	struct ior_trace_totals sum; /* the trailers read so far */
	bool series_cut;             /* a file before the last ended without its trailer */
	char err[256];
};

static int rfail(struct ior_rec_reader *r, int rc, const char *fmt, ...)
{
	if (!r->failed) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(r->err, sizeof r->err, fmt, ap);
		va_end(ap);
	}
	r->failed = true;
	return rc;
}

/* The next complete frame; 0 and r->truncated at the end of the input. */
static int next_frame(struct ior_rec_reader *r)
{
	char msg[sizeof r->err];
	r->pos = 0;
	int rc = ior_rec_frames_next(&r->in, msg, sizeof msg);
	if (rc < 0)
		return rfail(r, rc, "%s", msg);
	if (rc == 0)
		r->truncated = !r->ended;
	return rc;
}

#define NO_SYS UINT16_MAX
#define SYSNAME_LEN (4 * MAX_SYSNAME + 1) /* escaped: any byte fits in 4 */

static char *dup_str(const uint8_t *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

static int parse_syscalls(struct ior_rec_reader *r, struct cur *c)
{
	if (get_u32(c, &r->nsys) || r->nsys > MAX_SYSCALLS)
		return rfail(r, -EBADMSG, "corrupt header: syscall table");
	r->sys_names = calloc(r->nsys ? r->nsys : 1, SYSNAME_LEN);
	if (!r->sys_names)
		return rfail(r, -ENOMEM, "out of memory");
	for (uint32_t i = 0; i < r->nsys; i++) {
		const uint8_t *s;
		size_t n;
		if (get_str(c, MAX_SYSNAME, &s, &n) || !n)
			return rfail(r, -EBADMSG, "corrupt header: syscall name %u", i);
		/* the name comes from the file: escaped before anyone prints it */
		char *name = r->sys_names + i * SYSNAME_LEN;
		ior_escape_str(name, SYSNAME_LEN, (const char *)s, n, IOR_ESCAPE_AUTO);
		int sys = ior_sys_find(name);
		r->sys_map[i] = sys < 0 ? NO_SYS : (uint16_t)sys;
	}
	return 0;
}

static int parse_header(struct ior_rec_reader *r)
{
	struct cur c = { r->in.frame, r->in.frame + r->in.frame_len };
	uint64_t version;
	if (r->in.frame_len < sizeof magic || memcmp(r->in.frame, magic, sizeof magic))
		return rfail(r, -EBADMSG, "not an ior recording (bad magic)");
	c.p += sizeof magic;
	if (get_varint(&c, &version))
		return rfail(r, -EBADMSG, "corrupt header");
	if (version < 1 || version > IOR_RECORDING_VERSION)
		return rfail(r, -EPROTO, "recording format version %llu, this ior reads versions 1 to %d",
			     (unsigned long long)version, IOR_RECORDING_VERSION);
	const uint8_t *s[3];
	size_t n[3];
	if (get_str(&c, MAX_HOST, &s[0], &n[0]) || get_str(&c, MAX_HOST, &s[1], &n[1]) ||
	    get_str(&c, MAX_CMDLINE, &s[2], &n[2]) ||
	    get_varint(&c, &r->info.start_realtime_ns) || get_varint(&c, &r->info.start_monotonic_ns))
		return rfail(r, -EBADMSG, "corrupt header");
	r->host = dup_str(s[0], n[0]);
	r->kernel = dup_str(s[1], n[1]);
	r->cmdline = dup_str(s[2], n[2]);
	if (!r->host || !r->kernel || !r->cmdline)
		return rfail(r, -ENOMEM, "out of memory");
	r->info.version = (unsigned)version;
	r->info.host = r->host;
	r->info.kernel = r->kernel;
	r->info.cmdline = r->cmdline;
	int rc = parse_syscalls(r, &c);
	r->pos = (size_t)(c.p - r->in.frame);
	return rc;
}

static uint32_t nstrings(const struct ior_rec_reader *r)
{
	return r->define ? r->nvalues : r->str.n;
}

/* String s[0..n) (n <= MAX_STR_LEN) to the define hook, as the next id. */
static int define_string(struct ior_rec_reader *r, const uint8_t *s, size_t n)
{
	if (r->nvalues == r->values_cap) {
		uint32_t cap = r->values_cap ? 2 * r->values_cap : 1024;
		uint32_t *v = realloc(r->values, cap * sizeof *v);
		if (!v)
			return rfail(r, -ENOMEM, "out of memory");
		r->values = v;
		r->values_cap = cap;
	}
	memcpy(r->scratch, s, n);
	r->scratch[n] = 0;
	int rc = r->define(r->define_ctx, r->scratch, n, &r->values[r->nvalues]);
	if (rc)
		return rfail(r, rc, "cannot keep the recording's strings: %s", strerror(-rc));
	r->nvalues++;
	r->value_bytes += n + 1;
	return 0;
}

/* Only id 0, "", is defined at the start of a generation. */
static int strings_reset(struct ior_rec_reader *r)
{
	r->gen++;
	memset(&r->codec, 0, sizeof r->codec);
	if (!r->define)
		return strings_start(&r->str); /* cannot fail: the table keeps its memory */
	r->nvalues = 0;
	r->value_bytes = 0;
	return define_string(r, (const uint8_t *)"", 0);
}

static int add_string(struct ior_rec_reader *r, const uint8_t *s, size_t n)
{
	size_t bytes = r->define ? r->value_bytes : r->str.len;
	if (nstrings(r) >= MAX_STRINGS || bytes + n + 1 > MAX_STR_BYTES)
		return rfail(r, -EBADMSG, "corrupt: more than %u strings or %u MiB of strings",
			     MAX_STRINGS, MAX_STR_BYTES >> 20);
	if (r->define)
		return define_string(r, s, n);
	if (ior_strtab_append(&r->str, (const char *)s, n) == UINT32_MAX)
		return rfail(r, -ENOMEM, "out of memory");
	return 0;
}

static int get_id(struct ior_rec_reader *r, struct cur *c, uint32_t *id)
{
	uint64_t v;
	if (get_varint(c, &v) || v >= nstrings(r))
		return -1;
	*id = (uint32_t)v;
	return 0;
}

/* A row's strings: by pointer, or with a define hook by value only. */
static void put_strings(const struct ior_rec_reader *r, struct ior_event_pair *p, struct ior_rec_ids *ids,
			uint32_t comm, uint32_t path, uint32_t path2)
{
	if (r->define) {
		p->comm = p->path = p->path2 = NULL;
		ids->comm = r->values[comm];
		ids->path = r->values[path];
		ids->path2 = r->values[path2];
	} else {
		p->comm = ior_strtab_get(&r->str, comm);
		p->path = ior_strtab_get(&r->str, path);
		p->path2 = ior_strtab_get(&r->str, path2);
		ids->comm = comm;
		ids->path = path;
		ids->path2 = path2;
	}
	ids->gen = r->gen;
}

/* Lists a name no table knows for ior_rec_reader_unknown, "..." once full. */
static void note_unknown(struct ior_rec_reader *r, const char *name)
{
	size_t len = strlen(r->unknown), room = sizeof r->unknown - len;

	if (len + strlen(name) + 6 < sizeof r->unknown)
		snprintf(r->unknown + len, room, "%s%s", len ? ", " : "", name);
	else if (!strstr(r->unknown, "..."))
		snprintf(r->unknown + len, room, ", ...");
	r->nunknown++;
}

/* The ior_sys() index of the file's syscall i, defining a name no table
 * knows on its first use: it reads under that name, family Misc. */
static int pair_sys(struct ior_rec_reader *r, uint32_t i, uint16_t *sys)
{
	if (r->sys_map[i] != NO_SYS) {
		*sys = r->sys_map[i];
		return 0;
	}
	const char *name = r->sys_names + (size_t)i * SYSNAME_LEN;
	int rc = ior_sys_define(name);
	if (rc < 0) {
		r->sys_err = rfail(r, rc, "cannot read syscall '%s': more than %u syscall names in the recordings read",
				   name, IOR_SYS_MAX);
		return -1;
	}
	note_unknown(r, name);
	*sys = r->sys_map[i] = (uint16_t)rc;
	return 0;
}

static int get_fields(struct ior_rec_reader *r, struct cur *c, uint8_t op, uint8_t ext,
		      struct tid_state *s, struct ior_event_pair *p)
{
	uint64_t v;
	if (op & PAIR_SYS) {
		if (get_varint(c, &v) || v >= r->nsys)
			return -1;
		s->sys = (uint16_t)v;
	}
	if (op & PAIR_RET) {
		if (get_varint(c, &v))
			return -1;
		s->ret = unzigzag(v);
	}
	if (op & PAIR_TIME) {
		if (get_varint(c, &v))
			return -1;
		p->enter_ns = r->codec.last_enter + (uint64_t)unzigzag(v);
	}
	if (ext & EXT_PID && get_u32(c, &s->pid))
		return -1;
	if (ext & EXT_COMM && get_id(r, c, &s->comm))
		return -1;
	if (ext & EXT_FD) {
		if (get_varint(c, &v))
			return -1;
		int64_t fd = unzigzag(v);
		if (fd < INT32_MIN || fd > INT32_MAX)
			return -1;
		s->fd = (int32_t)fd;
	}
	if (ext & EXT_PATH && get_id(r, c, &s->path))
		return -1;
	if (ext & EXT_PATH2 && get_id(r, c, &s->path2))
		return -1;
	if (ext & EXT_FLAGS) {
		if (get_varint(c, &v))
			return -1;
		s->flags = unzigzag(v);
	}
	return 0;
}

static int decode_pair(struct ior_rec_reader *r, struct cur *c, uint8_t op,
		       struct ior_event_pair *p, struct ior_rec_ids *ids)
{
	struct codec *cd = &r->codec;
	uint8_t ext = 0;
	uint32_t tid = cd->last_tid;
	uint64_t gap, dur;
	uint8_t more = 0;
	if ((op & PAIR_MORE && r->info.version < 5) || (op & PAIR_WAIT && r->info.version < 3))
		return -1;
	if (op & PAIR_EXT) {
		if (c->p >= c->end)
			return -1;
		ext = *c->p++;
	}
	if (op & PAIR_MORE) {
		if (c->p >= c->end || (*c->p & ~more_known(r->info.version)))
			return -1;
		more = *c->p++;
	}
	p->where = more & MORE_WHERE_MASK;
	if (op & PAIR_TID && get_u32(c, &tid))
		return -1;
	struct tid_state *s = slot_for(cd, tid);
	if (get_fields(r, c, op, ext, s, p))
		return -1;
	switch (ext >> EXT_BYTES_SHIFT) {
	case BYTES_ZERO:
		s->bytes_rule = RULE_ZERO;
		break;
	case BYTES_RET:
		s->bytes_rule = RULE_RET;
		break;
	case BYTES_EXPLICIT:
		if (get_varint(c, &s->bytes))
			return -1;
		s->bytes_rule = RULE_VALUE;
		break;
	}
	p->has_timeout = (op & PAIR_WAIT) != 0;
	p->timeout_ns = 0;
	if (p->has_timeout) {
		if (get_varint(c, &gap))
			return -1;
		p->timeout_ns = unzigzag(gap);
	}
	p->blk_requests = p->blk_dev = 0;
	p->blk_bytes = p->device_ns = p->cache_pages = 0;
	if (more & MORE_DEVICE) {
		if (get_u32(c, &p->blk_requests) || get_varint(c, &p->blk_bytes) || get_varint(c, &p->device_ns) ||
		    get_u32(c, &p->blk_dev))
			return -1;
	}
	if (more & MORE_CACHE && get_varint(c, &p->cache_pages))
		return -1;
	if (get_varint(c, &gap) || get_varint(c, &dur))
		return -1;
	if (!(op & PAIR_TIME))
		p->enter_ns = s->prev_exit + gap;
	p->gap_ns = gap;
	p->duration_ns = dur;
	p->ret = s->ret;
	p->bytes = bytes_by_rule(s, s->ret);
	p->flags = s->flags;
	p->pid = s->pid;
	p->tid = tid;
	p->fd = s->fd;
	if (s->sys >= r->nsys)
		return -1;
	if (pair_sys(r, s->sys, &p->sys))
		return -2;
	p->summary = 0;
	p->pairs = 0;
	put_strings(r, p, ids, s->comm, s->path, s->path2);
	cd->last_tid = tid;
	cd->last_enter = p->enter_ns;
	s->prev_exit = p->enter_ns + dur;
	return 0;
}

/* encode_summary's fields; 0, -1 corrupt, -2 failed (r->err says why). */
static int decode_summary(struct ior_rec_reader *r, struct cur *c, struct ior_event_pair *p,
			  struct ior_rec_ids *ids)
{
	uint64_t sys, fd, span;
	uint32_t comm, path;
	if (get_u32(c, &p->tid) || get_u32(c, &p->pid) || get_varint(c, &sys) || sys >= r->nsys ||
	    get_varint(c, &fd) || get_id(r, c, &comm) || get_id(r, c, &path) ||
	    get_varint(c, &p->enter_ns) || get_varint(c, &span) || get_varint(c, &p->pairs) ||
	    get_varint(c, &p->bytes) ||
	    get_varint(c, &p->duration_ns) || get_varint(c, &p->gap_ns))
		return -1;
	int64_t f = unzigzag(fd);
	if (f < INT32_MIN || f > INT32_MAX)
		return -1;
	if (pair_sys(r, (uint32_t)sys, &p->sys))
		return -2;
	p->fd = (int32_t)f;
	p->ret = 0;
	p->flags = IOR_FLAGS_UNKNOWN;
	p->has_timeout = 0;
	p->where = 0;
	p->timeout_ns = 0;
	p->summary = 1;
	p->blk_requests = p->blk_dev = 0;
	p->blk_bytes = p->device_ns = p->cache_pages = 0;
	p->end_ns = p->enter_ns + span;
	put_strings(r, p, ids, comm, path, 0);
	return 0;
}

static const char *hook_string(const struct ior_rec_reader *r, uint32_t id)
{
	return !r->define && id < r->str.n ? ior_strtab_get(&r->str, id) : "";
}

/* encode_block's fields, to the hook; 0, -1 corrupt, or the hook's. */
static int decode_block(struct ior_rec_reader *r, struct cur *c)
{
	uint64_t done, start, issue, insert, sector, bytes, err, op, flags, sys;
	uint32_t tid, pid, comm, dev, path;

	if (get_u32(c, &tid) || get_u32(c, &pid) || get_id(r, c, &comm) || get_varint(c, &done) ||
	    get_varint(c, &start) || get_varint(c, &issue) || get_varint(c, &insert) || get_u32(c, &dev) ||
	    get_varint(c, &sector) || get_varint(c, &bytes) || bytes > UINT32_MAX || get_varint(c, &err) ||
	    get_varint(c, &op) || op >= IOR_BLK_NOPS || get_varint(c, &flags) || flags > 0xff ||
	    get_varint(c, &sys) || get_id(r, c, &path) || start > done || issue > done + 1 || insert > done + 1)
		return -1;
	int64_t e = unzigzag(err), sy = unzigzag(sys);
	if (e < INT32_MIN || e > 0 || sy < -1 || sy >= (int64_t)ior_sys_count())
		return -1;
	if (!r->hooks.block)
		return 0;
	struct ior_block_req b = {
		.done_ns = done, .start_ns = done - start, .insert_ns = insert ? done - insert + 1 : 0,
		.issue_ns = issue ? done - issue + 1 : 0, .sector = sector, .dev = dev, .bytes = (uint32_t)bytes,
		.error = (int32_t)e, .op = (uint8_t)op, .flags = (uint8_t)flags, .pid = pid, .tid = tid,
		.comm = hook_string(r, comm), .sys = (int32_t)sy, .path = hook_string(r, path),
	};
	return r->hooks.block(r->hooks.ctx, &b);
}

static int decode_devname(struct ior_rec_reader *r, struct cur *c)
{
	uint32_t dev, name;

	if (get_u32(c, &dev) || get_id(r, c, &name))
		return -1;
	return r->hooks.devname ? r->hooks.devname(r->hooks.ctx, dev, hook_string(r, name)) : 0;
}

void ior_rec_reader_block_hooks(struct ior_rec_reader *r, const struct ior_rec_block_hooks *h)
{
	r->hooks = *h;
}

static int parse_end(struct ior_rec_reader *r, struct cur *c)
{
	struct ior_trace_totals *t = &r->totals;
	if (get_varint(c, &t->pairs) || get_varint(c, &t->pairs_seen) || get_varint(c, &t->lost) ||
	    get_varint(c, &t->unpaired_exits) || get_varint(c, &t->overwritten_enters) ||
	    get_varint(c, &t->in_flight))
		return -1;
	if (r->info.version >= 2 && get_varint(c, &t->summarized))
		return -1;
	r->has_totals = true;
	r->ended = true;
	struct ior_trace_totals *u = &r->sum;
	u->pairs += t->pairs;
	u->pairs_seen += t->pairs_seen;
	u->lost += t->lost;
	u->unpaired_exits += t->unpaired_exits;
	u->overwritten_enters += t->overwritten_enters;
	u->in_flight += t->in_flight;
	u->summarized += t->summarized;
	return 0;
}

/* A str into dst (max bytes and its NUL). */
static int get_cstr(struct cur *c, size_t max, char *dst)
{
	const uint8_t *b;
	size_t n;

	if (get_str(c, max, &b, &n))
		return -1;
	memcpy(dst, b, n);
	dst[n] = 0;
	return 0;
}

static int parse_trigger_pair(struct ior_rec_reader *r, struct cur *c, struct ior_event_pair *p)
{
	uint64_t ret, fd;
	uint32_t sys;

	if (get_u32(c, &p->tid) || get_u32(c, &p->pid) || get_u32(c, &sys) || sys >= r->nsys ||
	    get_varint(c, &ret) || get_varint(c, &p->enter_ns) || get_varint(c, &p->duration_ns) ||
	    get_varint(c, &fd) || unzigzag(fd) < INT32_MIN || unzigzag(fd) > INT32_MAX ||
	    get_cstr(c, 16, r->trig_comm) || get_cstr(c, MAX_STR_LEN, r->trig_path))
		return -1;
	if (pair_sys(r, sys, &p->sys))
		return -2;
	p->ret = unzigzag(ret);
	p->fd = (int32_t)unzigzag(fd);
	p->comm = r->trig_comm;
	p->path = r->trig_path;
	p->path2 = "";
	p->flags = IOR_FLAGS_UNKNOWN;
	return 0;
}

/* OP_TRIGGER (version 4): what fired a dump. */
static int parse_trigger(struct ior_rec_reader *r, struct cur *c)
{
	struct ior_rec_trigger *t = &r->trigger;

	if (r->info.version < 4 || r->has_trigger || get_cstr(c, MAX_TRIGGER, r->trig_expr) ||
	    get_varint(c, &t->fired_ns) || c->p >= c->end || *c->p > IOR_REC_TRIGGER_IN_FLIGHT)
		return -1;
	t->kind = (enum ior_rec_trigger_kind)*c->p++;
	t->expr = r->trig_expr;
	if (t->kind != IOR_REC_TRIGGER_NONE) {
		int rc = parse_trigger_pair(r, c, &t->pair);
		if (rc)
			return rc;
	}
	r->has_trigger = true;
	return 0;
}

static int corrupt_at(struct ior_rec_reader *r)
{
	return rfail(r, -EBADMSG, "corrupt record in the frame ending at byte %llu (after %llu pairs)",
		     (unsigned long long)r->in.end, (unsigned long long)r->pairs);
}

/* After a PAIR or SUMMARY record was decoded (rc: its decoder's): 1 and
 * the position past it, or the error. */
static int row_read(struct ior_rec_reader *r, const struct cur *c, int rc)
{
	if (rc == -2)
		return r->sys_err;
	if (rc)
		return corrupt_at(r);
	r->pos = (size_t)(c->p - r->in.frame);
	r->pairs++;
	return 1;
}

/* ---- a series: a directory of rotated recordings ------------------------ */

static int is_recording(const struct dirent *d)
{
	size_t n = strlen(d->d_name), sl = strlen(IOR_RECORDING_SUFFIX);
	return d->d_name[0] != '.' && n > sl && !strcmp(d->d_name + n - sl, IOR_RECORDING_SUFFIX);
}

struct series_file {
	char *path;
	uint64_t start;
};

static int by_start(const void *a, const void *b)
{
	const struct series_file *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* The recordings in dir by the start time in their headers (a file that
 * does not open sorts first, and fails the read there). */
static int series_list(struct ior_rec_reader *r, const char *dir, char *err, size_t errlen)
{
	struct dirent **names;
	int n = scandir(dir, &names, is_recording, alphasort);
	struct series_file *f = n > 0 ? calloc((size_t)n, sizeof *f) : NULL;
	int rc = 0;

	if (n <= 0) {
		set_err(err, errlen, n ? "%s: cannot read the directory: %s" : "%s: no *%s in the directory", dir,
			n ? strerror(errno) : IOR_RECORDING_SUFFIX);
		return n ? -errno : -ENOENT;
	}
	for (int i = 0; i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]->d_name) + 2;
		char *p = f ? malloc(len) : NULL;
		struct ior_rec_reader *one;
		char e[8];
		if (p) {
			snprintf(p, len, "%s/%s", dir, names[i]->d_name);
			f[i].path = p;
			if (!ior_rec_reader_open(&one, p, e, sizeof e)) {
				f[i].start = ior_rec_reader_info(one)->start_realtime_ns;
				ior_rec_reader_close(one);
			}
		} else {
			rc = -ENOMEM;
		}
		free(names[i]);
	}
	free(names);
	if (!rc && f)
		qsort(f, (size_t)n, sizeof *f, by_start);
	r->series = f ? calloc((size_t)n, sizeof *r->series) : NULL;
	for (int i = 0; f && i < n; i++) {
		if (r->series)
			r->series[r->nseries++] = f[i].path;
		else
			free(f[i].path);
	}
	free(f);
	if (rc || !r->series) {
		set_err(err, errlen, "%s: out of memory", dir);
		return -ENOMEM;
	}
	return 0;
}

/* The next file of the series: its header read, the decoder's strings
 * and thread state forgotten (a new generation of ids). 1, or <0. The
 * header's host, kernel, command line and start stay the first file's. */
static int series_next(struct ior_rec_reader *r)
{
	const char *path = r->series[r->series_at++];
	struct ior_rec_info first = r->info;
	char *host = r->host, *kernel = r->kernel, *cmdline = r->cmdline;
	int rc;

	r->series_cut |= r->truncated;
	ior_rec_frames_close(&r->in);
	memset(&r->in, 0, sizeof r->in);
	free(r->sys_names);
	r->sys_names = NULL;
	r->ended = r->truncated = false;
	r->has_totals = false;
	if ((rc = ior_rec_frames_open(&r->in, path)))
		return rfail(r, rc, "%s: cannot open the recording: %s", path, strerror(-rc));
	if ((rc = ior_rec_frames_start(&r->in)))
		return rfail(r, rc, "%s: zstd setup failed", path);
	rc = next_frame(r);
	if (rc == 0)
		rc = rfail(r, -EBADMSG, "%s: not an ior recording, or cut before its first frame was written", path);
	if (rc > 0)
		rc = parse_header(r);
	if (r->host != host) { /* the later file's strings go; the first's stay */
		free(r->host);
		free(r->kernel);
		free(r->cmdline);
		unsigned version = r->info.version;
		r->info = first;
		r->info.version = version;
		r->host = host, r->kernel = kernel, r->cmdline = cmdline;
	}
	if (rc)
		return rc;
	rc = strings_reset(r);
	return rc ? rc : 1;
}

int ior_rec_read_ids(struct ior_rec_reader *r, struct ior_event_pair *p, struct ior_rec_ids *ids)
{
	if (r->failed)
		return -EBADMSG;
	for (;;) {
		if (r->ended || (r->truncated && r->series)) {
			int rc = r->series_at < r->nseries ? series_next(r) : 0;
			if (rc <= 0)
				return rc;
			continue;
		}
		if (r->pos >= r->in.frame_len) {
			int rc = next_frame(r);
			if (rc < 0 || (rc == 0 && !r->series))
				return rc;
			continue;
		}
		struct cur c = { r->in.frame + r->pos, r->in.frame + r->in.frame_len };
		uint8_t op = *c.p++;
		p->comm_id = p->path_id = 0; /* a recording names no live thread's comm or fd */
		if (op & OP_PAIR)
			return row_read(r, &c, decode_pair(r, &c, op, p, ids));
		int rc = 0;
		const uint8_t *s;
		size_t n;
		switch (op) {
		case OP_STR:
			if (get_str(&c, MAX_STR_LEN, &s, &n))
				return corrupt_at(r);
			rc = add_string(r, s, n);
			break;
		case OP_RESET:
			rc = strings_reset(r);
			break;
		case OP_END:
			if (parse_end(r, &c) || c.p != c.end)
				return corrupt_at(r);
			break;
		case OP_TRIGGER:
			rc = parse_trigger(r, &c);
			if (rc == -2)
				return r->sys_err;
			if (rc)
				return corrupt_at(r);
			break;
		case OP_SUMMARY:
			if (r->info.version < 2)
				return corrupt_at(r);
			return row_read(r, &c, decode_summary(r, &c, p, ids));
		case OP_BLOCK:
		case OP_DEVNAME:
			if (r->info.version < 6)
				return corrupt_at(r);
			rc = op == OP_BLOCK ? decode_block(r, &c) : decode_devname(r, &c);
			if (rc == -1)
				return corrupt_at(r);
			if (rc)
				return rfail(r, rc < 0 ? rc : -EIO, "a block request's reader failed");
			break;
		default:
			return corrupt_at(r);
		}
		if (rc)
			return rc;
		r->pos = (size_t)(c.p - r->in.frame);
	}
}

int ior_rec_read(struct ior_rec_reader *r, struct ior_event_pair *p)
{
	struct ior_rec_ids ids;
	return ior_rec_read_ids(r, p, &ids);
}

const char *ior_rec_reader_string(const struct ior_rec_reader *r, uint32_t id)
{
	return !r->define && id < r->str.n ? ior_strtab_get(&r->str, id) : NULL;
}

uint32_t ior_rec_reader_nstrings(const struct ior_rec_reader *r)
{
	return nstrings(r);
}

int ior_rec_reader_map_strings(struct ior_rec_reader *r, ior_rec_define_cb define, void *ctx)
{
	if (r->define)
		return r->define == define && r->define_ctx == ctx ? 0 : -EINVAL;
	r->define = define;
	r->define_ctx = ctx;
	for (uint32_t id = 0; id < r->str.n; id++) {
		int rc = define_string(r, (const uint8_t *)ior_strtab_get(&r->str, id), ior_strtab_len(&r->str, id));
		if (rc)
			return rc;
	}
	ior_strtab_free(&r->str);
	return 0;
}

unsigned ior_rec_reader_unknown(const struct ior_rec_reader *r, const char **names)
{
	if (names)
		*names = r->unknown;
	return r->nunknown;
}

const struct ior_rec_info *ior_rec_reader_info(const struct ior_rec_reader *r)
{
	return &r->info;
}

const struct ior_rec_trigger *ior_rec_reader_trigger(const struct ior_rec_reader *r)
{
	return r->has_trigger && r->ended ? &r->trigger : NULL;
}

const struct ior_trace_totals *ior_rec_reader_totals(const struct ior_rec_reader *r)
{
	if (r->series)
		return r->has_totals && !r->series_cut ? &r->sum : NULL;
	return r->has_totals ? &r->totals : NULL;
}

uint64_t ior_rec_reader_trailing(const struct ior_rec_reader *r)
{
	return r->ended ? ior_rec_frames_trailing(&r->in) : 0;
}

bool ior_rec_reader_truncated(const struct ior_rec_reader *r, uint64_t *pairs, uint64_t *last_frame_end)
{
	if (pairs)
		*pairs = r->pairs;
	if (last_frame_end)
		*last_frame_end = r->in.end;
	return r->truncated || r->series_cut;
}

const char *ior_rec_reader_error(const struct ior_rec_reader *r)
{
	return r->failed ? r->err : "";
}

void ior_rec_reader_close(struct ior_rec_reader *r)
{
	if (!r)
		return;
	ior_rec_frames_close(&r->in);
	ior_strtab_free(&r->str);
	free(r->values);
	free(r->sys_names);
	free(r->host);
	free(r->kernel);
	free(r->cmdline);
	for (size_t i = 0; i < r->nseries; i++)
		free(r->series[i]);
	free(r->series);
	free(r);
}

static int reader_start(struct ior_rec_reader *r)
{
	int rc = ior_rec_frames_start(&r->in);
	if (ior_strtab_init(&r->str) || strings_start(&r->str) || rc == -ENOMEM)
		return rfail(r, -ENOMEM, "out of memory");
	if (rc)
		return rfail(r, rc, "zstd setup failed");
	rc = next_frame(r);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return rfail(r, -EBADMSG, "not an ior recording, or cut before its first frame was written");
	return parse_header(r);
}

static int open_common(struct ior_rec_reader **rp, struct ior_rec_reader *r, const char *name,
		       char *err, size_t errlen)
{
	int rc = reader_start(r);
	if (rc) {
		set_err(err, errlen, "%s: %s", name, r->err);
		ior_rec_reader_close(r);
		return rc;
	}
	*rp = r;
	return 0;
}

int ior_rec_reader_open(struct ior_rec_reader **rp, const char *path, char *err, size_t errlen)
{
	*rp = NULL;
	struct ior_rec_reader *r = calloc(1, sizeof *r);
	struct stat st;
	if (!r) {
		set_err(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		int rc = series_list(r, path, err, errlen);
		if (rc) {
			ior_rec_reader_close(r);
			return rc;
		}
		path = r->series[r->series_at++];
	}
	int rc = ior_rec_frames_open(&r->in, path);
	if (rc) {
		set_err(err, errlen, "%s: cannot open the recording: %s", path, strerror(-rc));
		ior_rec_reader_close(r);
		return rc;
	}
	return open_common(rp, r, path, err, errlen);
}

int ior_rec_reader_open_mem(struct ior_rec_reader **rp, const void *data, size_t len,
			    char *err, size_t errlen)
{
	*rp = NULL;
	struct ior_rec_reader *r = calloc(1, sizeof *r);
	if (!r) {
		set_err(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ior_rec_frames_open_mem(&r->in, data, len);
	return open_common(rp, r, "recording", err, errlen);
}
