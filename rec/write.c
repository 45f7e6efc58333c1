/* Recording writer: encodes pairs into frames of a zstd stream, flushed at
 * least once a second (rec.h). */
#include "out/out.h"
#include "pair/clock.h"
#include "rec/rec.h"
#include "rec/codec.h"
#include "pair/devname.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_c_literalCompressionMode (libzstd.a is linked in) */
#include <zstd.h>

#define FRAME_FLUSH (1u << 20)      /* encoded bytes per frame */
#define FRAME_SLACK (64u << 10)     /* more than one record can add */
#define FLUSH_NS 1000000000ull
#define ZSTD_LEVEL 3
/* A frame that fills FRAME_FLUSH within its second (over ~200,000 pairs/s),
 * and the rest of that second, are compressed with zstd's fastest match
 * search, its literals still
 * Huffman-coded: a read loop's records are varints with few matches, and
 * level 3 spent ~20 ns a pair looking for them (a third of the consumer's
 * CPU at full rate) for 1.6 instead of 2.6 bytes a pair. */
#define ZSTD_FAST_LEVEL (-1000)
/* Frames mode (the recorder's ring): smaller frames and every buffer
 * allocated once, so that the recorder counts the writer inside its
 * -recorder-size (ior_rec_writer_memory). A frame ends at FRAMES_FLUSH
 * encoded bytes or FRAMES_IDS strings, whichever comes first: then the
 * string table never grows past what open_frames reserved. */
#define FRAMES_FLUSH (128u << 10)
#define FRAMES_RAW (FRAMES_FLUSH + FRAME_SLACK)
#define FRAMES_IDS 4096u
/* A header or trailer frame's records (ior_rec_writer_header, _trailer). */
#define SMALL_RAW (MAX_CMDLINE + MAX_SYSCALLS * (MAX_SYSNAME + 2) + MAX_STR_LEN + MAX_TRIGGER + 1024)
_Static_assert(FRAMES_RAW >= SMALL_RAW, "a frames writer builds headers and trailers in its raw buffer");
_Static_assert(FRAMES_FLUSH + 3 * (MAX_STR_LEN + 16) + 1024 <= FRAMES_RAW, "a pair fits after FRAMES_FLUSH");

/* ---- file names --------------------------------------------------------- */

static size_t put_name_part(char *dst, size_t room, const char *s)
{
	size_t n = 0;
	for (; *s && n < room; s++, n++) {
		unsigned char c = (unsigned char)*s;
		dst[n] = (c == '/' || c < 0x20 || c == 0x7f) ? '_' : (char)c;
	}
	return *s ? room + 1 : n;
}

int ior_rec_default_name(char *buf, size_t len, const char *host, const char *name, time_t t)
{
	struct tm tm;
	char when[32];
	if (!localtime_r(&t, &tm) || !strftime(when, sizeof when, "%Y-%m-%d_%H:%M:%S", &tm))
		return -EINVAL;
	size_t need = strlen(host) + strlen(name) + strlen(when) + sizeof IOR_RECORDING_SUFFIX + 2;
	if (need > len)
		return -ENAMETOOLONG;
	size_t n = put_name_part(buf, len, host);
	buf[n++] = '-';
	n += put_name_part(buf + n, len - n, name);
	snprintf(buf + n, len - n, "-%s%s", when, IOR_RECORDING_SUFFIX);
	return 0;
}

/* ---- writer ------------------------------------------------------------- */

struct ior_rec_writer {
	int error;
	struct ior_out file; /* PATH.tmp until the header is written, then PATH */
	ZSTD_CCtx *cctx;
	int fast;             /* cctx is set for ZSTD_FAST_LEVEL */
	int hot;              /* a frame filled by size since the last tick */
	uint8_t *raw, *out;
	size_t raw_len, raw_cap, out_cap;
	size_t flush_bytes;   /* a frame ends when raw holds this much */
	size_t since_tick;    /* raw bytes in frames ended by size since the last tick */
	void *cctx_ws;        /* frames mode: the static context's workspace */
	size_t cctx_ws_len;
	uint64_t pairs, bytes_written, last_flush_ns;
	uint64_t summarized; /* pairs in summary rows */
	struct ior_strtab str; /* id 0 is "" */
	struct codec codec;
	uint32_t devs[256];    /* devices named so far (OP_DEVNAME) */
	unsigned ndevs;
	uint64_t flush_ns;     /* a frame at least this often */
	/* frames mode (ior_rec_writer_open_frames): frames go to frame_fn */
	ior_rec_frame_fn frame_fn;
	void *frame_ctx;
	uint64_t frame_first, frame_last, frame_pairs;
};

static void put_bytes(struct ior_rec_writer *w, const void *s, size_t n)
{
	uint8_t *p = put_varint(w->raw + w->raw_len, n);
	memcpy(p, s, n);
	w->raw_len = (size_t)(p - w->raw) + n;
}

/* strnlen(s, max) a word at a time, inlined: every pair measures its comm
 * and paths, and musl's strnlen is a call to memchr (a fifth of the
 * encoder). Like libc's own, it reads aligned 8-byte words, which never
 * cross a page, so it may read bytes after the NUL within the NUL's word:
 * hence no_sanitize_address (ASan would count those bytes as an
 * overflow). */
__attribute__((no_sanitize_address)) static size_t str_len(const char *s, size_t max)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	size_t n = 0;

	for (; ((uintptr_t)(s + n) & 7) && n < max; n++)
		if (!s[n])
			return n;
	for (; n < max; n += 8) {
		uint64_t v;
		memcpy(&v, s + n, 8);
		uint64_t z = (v - ones) & ~v & highs; /* its lowest set bit marks the first NUL */
		if (z) {
			n += (size_t)__builtin_ctzll(z) >> 3;
			break;
		}
	}
	return n < max ? n : max;
}

/* The id of s (n bytes, n <= MAX_STR_LEN), emitting its definition first
 * when it is new. */
static int intern(struct ior_rec_writer *w, const char *s, size_t n, uint32_t *id)
{
	if (!n) {
		*id = 0;
		return 0;
	}
	uint32_t known = w->str.n;
	*id = ior_strtab_intern(&w->str, s, n);
	if (*id == UINT32_MAX)
		return -ENOMEM;
	if (*id == known) { /* new: it took the next id */
		w->raw[w->raw_len++] = OP_STR;
		put_bytes(w, s, n);
	}
	return 0;
}

/* Cheap path first: most pairs repeat their thread's previous strings.
 * Strings longer than MAX_STR_LEN are stored cut to it. */
static int intern_cached(struct ior_rec_writer *w, const char *s, uint32_t prev, uint32_t *id)
{
	if (!s)
		s = "";
	size_t n = str_len(s, MAX_STR_LEN + 1);
	if (n <= MAX_STR_LEN && ior_strtab_is(&w->str, prev, s, n)) {
		*id = prev;
		return 0;
	}
	return intern(w, s, n <= MAX_STR_LEN ? n : MAX_STR_LEN, id);
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			return -EIO;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Level 3, or with fast the fastest search with Huffman-coded literals;
 * set between frames only when it changes. */
static int set_level(struct ior_rec_writer *w, int fast)
{
	if (w->fast == fast)
		return 0;
	if (ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel,
						fast ? ZSTD_FAST_LEVEL : ZSTD_LEVEL)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_literalCompressionMode,
						fast ? ZSTD_ps_enable : ZSTD_ps_auto)))
		return -EINVAL;
	w->fast = fast;
	return 0;
}

static int flush_frame(struct ior_rec_writer *w, int fast)
{
	if (w->error)
		return w->error;
	if (!w->raw_len)
		return 0;
	if (set_level(w, fast))
		return w->error = -EIO;
	ZSTD_inBuffer in = { w->raw, w->raw_len, 0 };
	ZSTD_outBuffer out = { w->out, w->out_cap, 0 };
	if (w->cctx_ws) { /* one shot on stable buffers: no stream buffers in the static workspace */
		out.pos = ZSTD_compress2(w->cctx, w->out, w->out_cap, w->raw, w->raw_len);
		if (ZSTD_isError(out.pos))
			return w->error = -EIO;
	} else {
		size_t rc = ZSTD_compressStream2(w->cctx, &out, &in, ZSTD_e_end);
		if (ZSTD_isError(rc) || rc != 0)
			return w->error = -EIO;
	}
	w->raw_len = 0;
	int err = w->frame_fn ? w->frame_fn(w->frame_ctx, w->out, out.pos, w->frame_first, w->frame_last,
					    w->frame_pairs) :
				write_all(w->file.fd, w->out, out.pos);
	if (err)
		return w->error = err;
	w->bytes_written += out.pos;
	return 0;
}

void ior_rec_own_cmdline(char *buf, size_t len)
{
	buf[0] = 0;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return;
	while (n > 0 && !buf[n - 1])
		n--;
	for (ssize_t i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	buf[n] = 0;
}

static void put_header(struct ior_rec_writer *w, const struct ior_rec_info *info)
{
	char cmdline_buf[MAX_CMDLINE];
	struct utsname u;
	if (uname(&u))
		memset(&u, 0, sizeof u);
	uint64_t mono_now = ior_mono_ns(), rt_now = mono_now + (uint64_t)ior_realtime_offset_ns();
	const char *host = info && info->host ? info->host : u.nodename;
	const char *kernel = info && info->kernel ? info->kernel : u.release;
	const char *cmdline = info ? info->cmdline : NULL;
	if (!cmdline) {
		ior_rec_own_cmdline(cmdline_buf, sizeof cmdline_buf);
		cmdline = cmdline_buf;
	}
	uint64_t rt_ns = info && info->start_realtime_ns ? info->start_realtime_ns : rt_now;
	uint64_t mono_ns = info && info->start_monotonic_ns ? info->start_monotonic_ns : mono_now;

	memcpy(w->raw, magic, sizeof magic);
	w->raw_len = sizeof magic;
	uint8_t *p = put_varint(w->raw + w->raw_len, IOR_RECORDING_VERSION);
	w->raw_len = (size_t)(p - w->raw);
	put_bytes(w, host, strnlen(host, MAX_HOST));
	put_bytes(w, kernel, strnlen(kernel, MAX_HOST));
	put_bytes(w, cmdline, strnlen(cmdline, MAX_CMDLINE));
	p = put_varint(w->raw + w->raw_len, rt_ns);
	p = put_varint(p, mono_ns);
	p = put_varint(p, ior_nsyscalls);
	w->raw_len = (size_t)(p - w->raw);
	for (unsigned i = 0; i < ior_nsyscalls; i++)
		put_bytes(w, ior_syscalls[i].name, strnlen(ior_syscalls[i].name, MAX_SYSNAME));
}

static void writer_free(struct ior_rec_writer *w)
{
	if (!w)
		return;
	ior_out_abort(&w->file);
	if (w->cctx_ws)
		free(w->cctx_ws); /* a static context lives in it */
	else
		ZSTD_freeCCtx(w->cctx);
	free(w->raw);
	free(w->out);
	ior_strtab_free(&w->str);
	free(w);
}

/* The workspace a context needs for frames up to raw_cap bytes at either
 * level: zstd sizes its tables by the source size, which the one-shot
 * compression tells it, so the largest of every size up to raw_cap. */
static size_t static_cctx_size(size_t raw_cap)
{
	size_t need = 0;

	for (size_t src = raw_cap; src >= 1024; src /= 2)
		for (int fast = 0; fast < 2; fast++) {
			ZSTD_compressionParameters p = ZSTD_getCParams(fast ? ZSTD_FAST_LEVEL : ZSTD_LEVEL, src, 0);
			size_t n = ZSTD_estimateCCtxSize_usingCParams(p);
			need = n > need ? n : need;
		}
	return need;
}

static ZSTD_CCtx *static_cctx(struct ior_rec_writer *w)
{
	w->cctx_ws_len = static_cctx_size(w->raw_cap);
	w->cctx_ws = malloc(w->cctx_ws_len);
	return w->cctx_ws ? ZSTD_initStaticCCtx(w->cctx_ws, w->cctx_ws_len) : NULL;
}

static int writer_alloc(struct ior_rec_writer **wp, int frames)
{
	struct ior_rec_writer *w = calloc(1, sizeof *w);
	if (!w)
		return -ENOMEM;
	w->file.fd = -1;
	w->flush_ns = FLUSH_NS;
	*wp = w;
	w->raw_cap = frames ? FRAMES_RAW : FRAME_FLUSH + FRAME_SLACK + MAX_CMDLINE + MAX_SYSCALLS * (MAX_SYSNAME + 2);
	w->flush_bytes = frames ? FRAMES_FLUSH : FRAME_FLUSH;
	w->raw = malloc(w->raw_cap);
	w->out_cap = ZSTD_compressBound(w->raw_cap);
	w->out = malloc(w->out_cap);
	w->cctx = frames ? static_cctx(w) : ZSTD_createCCtx();
	if (!w->raw || !w->out || !w->cctx || ior_strtab_init(&w->str) ||
	    (frames && ior_strtab_reserve(&w->str, FRAMES_FLUSH + 4 * (MAX_STR_LEN + 1), FRAMES_IDS)) ||
	    strings_start(&w->str))
		return -ENOMEM;
	if (ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, ZSTD_LEVEL)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1)))
		return -EINVAL;
	return 0;
}

int ior_rec_writer_open(struct ior_rec_writer **wp, const char *path,
			const struct ior_rec_info *info, char *err, size_t errlen)
{
	struct ior_rec_writer *w = NULL;
	*wp = NULL;
	int rc = writer_alloc(&w, 0);
	if (rc) {
		set_err(err, errlen, "%s: cannot set up the recorder: %s", path, strerror(-rc));
		writer_free(w);
		return rc;
	}
	rc = ior_out_create(&w->file, path, IOR_OUT_REPLACE, err, errlen);
	if (rc) {
		writer_free(w);
		return rc;
	}
	put_header(w, info);
	rc = flush_frame(w, 0);
	if (rc) {
		set_err(err, errlen, "%s: cannot write the recording header: %s", path, strerror(-rc));
		writer_free(w);
		return rc;
	}
	/* Published at once, not at close: a run cut by SIGKILL or power loss
	 * leaves its recording under its name, readable to the last frame. */
	rc = ior_out_publish(&w->file, err, errlen);
	if (rc) {
		writer_free(w);
		return rc;
	}
	w->last_flush_ns = ior_mono_ns();
	*wp = w;
	return 0;
}

/* A reset keeps the writer's memory bounded in recordings with millions of
 * distinct paths; both sides forget strings and thread state together. */
static void maybe_reset_strings(struct ior_rec_writer *w)
{
	struct ior_strtab *t = &w->str;
	if (t->n + 3 <= MAX_STRINGS && t->len + 3 * (MAX_STR_LEN + 1) <= MAX_STR_BYTES)
		return;
	w->raw[w->raw_len++] = OP_RESET;
	strings_start(t);
	memset(&w->codec, 0, sizeof w->codec);
}

static uint8_t bytes_mode(struct tid_state *s, const struct ior_event_pair *p)
{
	if (p->bytes == bytes_by_rule(s, p->ret))
		return BYTES_KEEP;
	if (p->bytes == 0) {
		s->bytes_rule = RULE_ZERO;
		return BYTES_ZERO;
	}
	if (p->ret > 0 && p->bytes == (uint64_t)p->ret) {
		s->bytes_rule = RULE_RET;
		return BYTES_RET;
	}
	s->bytes_rule = RULE_VALUE;
	s->bytes = p->bytes;
	return BYTES_EXPLICIT;
}

static int encode_pair(struct ior_rec_writer *w, const struct ior_event_pair *p)
{
	struct codec *c = &w->codec;
	maybe_reset_strings(w);
	struct tid_state *s = slot_for(c, p->tid);
	uint32_t comm, path, path2;
	int rc = 0;
	if (p->comm_id && p->comm_id == s->comm_src)
		comm = s->comm; /* the same comm: no bytes to compare */
	else
		rc = intern_cached(w, p->comm, s->comm, &comm);
	if (rc)
		return rc;
	if (p->path_id && p->path_id == s->path_src)
		path = s->path;
	else
		rc = intern_cached(w, p->path, s->path, &path);
	if (!rc && (!p->path2 || !p->path2[0]) && !ior_strtab_len(&w->str, s->path2))
		path2 = s->path2; /* no second path, again: most pairs */
	else if (!rc)
		rc = intern_cached(w, p->path2, s->path2, &path2);
	if (rc)
		return rc;

	uint8_t op = OP_PAIR, ext = 0;
	if (p->tid != c->last_tid)
		op |= PAIR_TID;
	if (p->sys != s->sys)
		op |= PAIR_SYS;
	if (p->ret != s->ret)
		op |= PAIR_RET;
	if (p->enter_ns != s->prev_exit + p->gap_ns)
		op |= PAIR_TIME;
	ext |= p->pid != s->pid ? EXT_PID : 0;
	ext |= comm != s->comm ? EXT_COMM : 0;
	ext |= p->fd != s->fd ? EXT_FD : 0;
	ext |= path != s->path ? EXT_PATH : 0;
	ext |= path2 != s->path2 ? EXT_PATH2 : 0;
	ext |= p->flags != s->flags ? EXT_FLAGS : 0;
	ext |= (uint8_t)(bytes_mode(s, p) << EXT_BYTES_SHIFT);
	uint8_t more = (uint8_t)(p->where & MORE_WHERE_MASK);
	more |= p->blk_requests || p->device_ns ? MORE_DEVICE : 0;
	more |= p->cache_pages ? MORE_CACHE : 0;
	if (ext)
		op |= PAIR_EXT;
	if (p->has_timeout)
		op |= PAIR_WAIT;
	if (more)
		op |= PAIR_MORE;

	uint8_t *o = w->raw + w->raw_len;
	*o++ = op;
	if (op & PAIR_EXT)
		*o++ = ext;
	if (op & PAIR_MORE)
		*o++ = more;
	if (op & PAIR_TID)
		o = put_varint(o, p->tid);
	if (op & PAIR_SYS)
		o = put_varint(o, p->sys);
	if (op & PAIR_RET)
		o = put_varint(o, zigzag(p->ret));
	if (op & PAIR_TIME)
		o = put_varint(o, zigzag((int64_t)(p->enter_ns - c->last_enter)));
	if (ext & EXT_PID)
		o = put_varint(o, p->pid);
	if (ext & EXT_COMM)
		o = put_varint(o, comm);
	if (ext & EXT_FD)
		o = put_varint(o, zigzag(p->fd));
	if (ext & EXT_PATH)
		o = put_varint(o, path);
	if (ext & EXT_PATH2)
		o = put_varint(o, path2);
	if (ext & EXT_FLAGS)
		o = put_varint(o, zigzag(p->flags));
	if ((ext >> EXT_BYTES_SHIFT) == BYTES_EXPLICIT)
		o = put_varint(o, p->bytes);
	if (op & PAIR_WAIT)
		o = put_varint(o, zigzag(p->timeout_ns));
	if (more & MORE_DEVICE) {
		o = put_varint(o, p->blk_requests);
		o = put_varint(o, p->blk_bytes);
		o = put_varint(o, p->device_ns);
		o = put_varint(o, p->blk_dev);
	}
	if (more & MORE_CACHE)
		o = put_varint(o, p->cache_pages);
	o = put_varint(o, p->gap_ns);
	o = put_varint(o, p->duration_ns);
	w->raw_len = (size_t)(o - w->raw);

	c->last_tid = p->tid;
	c->last_enter = p->enter_ns;
	s->pid = p->pid;
	s->sys = p->sys;
	s->ret = p->ret;
	s->fd = p->fd;
	s->flags = p->flags;
	s->comm = comm;
	s->comm_src = p->comm_id;
	s->path = path;
	s->path_src = p->path_id;
	s->path2 = path2;
	s->prev_exit = p->enter_ns + p->duration_ns;
	return 0;
}

/* Summary rows stand apart from the pair stream: they neither use nor
 * change the per-thread state, so a reader can skip them. Fields: tid,
 * pid, sys, fd (zigzag), comm id, path id, first enter, last exit minus
 * first enter, pairs, bytes, duration sum, gap sum. */
static int encode_summary(struct ior_rec_writer *w, const struct ior_event_pair *p)
{
	uint32_t comm, path;
	maybe_reset_strings(w);
	int rc = intern_cached(w, p->comm, 0, &comm);
	if (!rc)
		rc = intern_cached(w, p->path, 0, &path);
	if (rc)
		return rc;
	uint8_t *o = w->raw + w->raw_len;
	*o++ = OP_SUMMARY;
	o = put_varint(o, p->tid);
	o = put_varint(o, p->pid);
	o = put_varint(o, p->sys);
	o = put_varint(o, zigzag(p->fd));
	o = put_varint(o, comm);
	o = put_varint(o, path);
	o = put_varint(o, p->enter_ns);
	o = put_varint(o, p->end_ns > p->enter_ns ? p->end_ns - p->enter_ns : 0);
	o = put_varint(o, p->pairs);
	o = put_varint(o, p->bytes);
	o = put_varint(o, p->duration_ns);
	o = put_varint(o, p->gap_ns);
	w->raw_len = (size_t)(o - w->raw);
	return 0;
}

/* A device's name, once per device (up to the table's size; later ones
 * read as major:minor). */
static int encode_devname(struct ior_rec_writer *w, uint32_t dev)
{
	char name[64];
	uint32_t id;
	int rc;

	for (unsigned i = 0; i < w->ndevs; i++)
		if (w->devs[i] == dev)
			return 0;
	if (w->ndevs == sizeof w->devs / sizeof *w->devs)
		return 0;
	w->devs[w->ndevs++] = dev;
	ior_devname(dev, name, sizeof name);
	if ((rc = intern(w, name, strlen(name), &id)))
		return rc;
	uint8_t *o = w->raw + w->raw_len;
	*o++ = OP_DEVNAME;
	o = put_varint(o, dev);
	o = put_varint(o, id);
	w->raw_len = (size_t)(o - w->raw);
	return 0;
}

/* Fields: tid, pid, comm id, done, done - start, issue and insert (0:
 * none, else done - t + 1), dev, sector, bytes, error (zigzag), op,
 * flags, sys (zigzag, -1: none), path id. Outside the pair state. */
static int encode_block(struct ior_rec_writer *w, const struct ior_block_req *r)
{
	uint32_t comm, path;
	int rc;

	maybe_reset_strings(w);
	if ((rc = intern_cached(w, r->comm ? r->comm : "", 0, &comm)) ||
	    (rc = intern_cached(w, r->path ? r->path : "", 0, &path)) || (rc = encode_devname(w, r->dev)))
		return rc;
	uint8_t *o = w->raw + w->raw_len;
	*o++ = OP_BLOCK;
	o = put_varint(o, r->tid);
	o = put_varint(o, r->pid);
	o = put_varint(o, comm);
	o = put_varint(o, r->done_ns);
	o = put_varint(o, r->done_ns > r->start_ns ? r->done_ns - r->start_ns : 0);
	o = put_varint(o, r->issue_ns && r->issue_ns <= r->done_ns ? r->done_ns - r->issue_ns + 1 : 0);
	o = put_varint(o, r->insert_ns && r->insert_ns <= r->done_ns ? r->done_ns - r->insert_ns + 1 : 0);
	o = put_varint(o, r->dev);
	o = put_varint(o, r->sector);
	o = put_varint(o, r->bytes);
	o = put_varint(o, zigzag(r->error));
	o = put_varint(o, r->op);
	o = put_varint(o, r->flags);
	o = put_varint(o, zigzag(r->sys));
	o = put_varint(o, path);
	w->raw_len = (size_t)(o - w->raw);
	return 0;
}

/* A frame ended by size: from FRAME_FLUSH bytes within a tick on (a
 * second at most), the tick's rest is compressed fast. */
static int flush_full(struct ior_rec_writer *w)
{
	w->since_tick += w->raw_len;
	if (w->since_tick >= FRAME_FLUSH)
		w->hot = 1;
	return flush_frame(w, w->hot);
}

int ior_rec_write_block(struct ior_rec_writer *w, const struct ior_block_req *r)
{
	int rc;

	if (w->error)
		return w->error;
	if (w->frame_fn) /* frames mode (the recorder's ring) keeps pairs only */
		return 0;
	if ((rc = encode_block(w, r)))
		return w->error = rc;
	if (w->raw_len >= w->flush_bytes)
		return flush_full(w);
	return 0;
}

/* Frames mode: a frame starts from nothing, so it reads without the
 * frames before it. */
static void frame_start(struct ior_rec_writer *w, const struct ior_event_pair *p)
{
	w->raw[w->raw_len++] = OP_RESET;
	strings_start(&w->str);
	memset(&w->codec, 0, sizeof w->codec);
	w->frame_first = w->frame_last = p->enter_ns;
	w->frame_pairs = 0;
}

int ior_rec_write(struct ior_rec_writer *w, const struct ior_event_pair *p)
{
	if (w->error)
		return w->error;
	if (p->sys >= ior_nsyscalls)
		return -EINVAL;
	if (w->frame_fn) {
		if (!w->raw_len)
			frame_start(w, p);
		w->frame_last = p->enter_ns > w->frame_last ? p->enter_ns : w->frame_last;
		w->frame_pairs += ior_pair_count(p);
	}
	int rc = p->summary ? encode_summary(w, p) : encode_pair(w, p);
	if (rc)
		return w->error = rc;
	if (p->summary)
		w->summarized += p->pairs;
	else
		w->pairs++;
	if (w->raw_len >= w->flush_bytes || (w->frame_fn && w->str.n + 3 > FRAMES_IDS))
		return flush_full(w);
	return 0;
}

int ior_rec_tick(struct ior_rec_writer *w, uint64_t now_ns)
{
	if (w->error)
		return w->error;
	if (now_ns - w->last_flush_ns < w->flush_ns)
		return 0;
	w->last_flush_ns = now_ns;
	int fast = w->hot; /* the second's rest, at the rate that filled frames */
	w->hot = 0;
	w->since_tick = 0;
	return flush_frame(w, fast);
}

uint64_t ior_rec_writer_pairs(const struct ior_rec_writer *w)
{
	return w->pairs;
}

uint64_t ior_rec_writer_bytes(const struct ior_rec_writer *w)
{
	return w->bytes_written;
}

/* The trailer: END and the session's counts. */
static uint8_t *put_end(uint8_t *o, const struct ior_trace_totals *t)
{
	*o++ = OP_END;
	o = put_varint(o, t->pairs);
	o = put_varint(o, t->pairs_seen);
	o = put_varint(o, t->lost);
	o = put_varint(o, t->unpaired_exits);
	o = put_varint(o, t->overwritten_enters);
	o = put_varint(o, t->in_flight);
	return put_varint(o, t->summarized);
}

int ior_rec_writer_close(struct ior_rec_writer *w, const struct ior_trace_totals *totals,
			 char *err, size_t errlen)
{
	struct ior_trace_totals t = { .pairs = w->pairs + w->summarized,
				      .pairs_seen = w->pairs + w->summarized,
				      .summarized = w->summarized };
	if (totals)
		t = *totals;
	int rc = w->error;
	if (!rc && w->raw_len + 80 > FRAME_FLUSH + FRAME_SLACK)
		rc = flush_frame(w, 0);
	if (!rc) {
		uint8_t *o = w->raw + w->raw_len;
		o = put_end(o, &t);
		w->raw_len = (size_t)(o - w->raw);
		rc = flush_frame(w, 0);
	}
	if (!rc && fdatasync(w->file.fd) && errno != EINVAL && errno != EROFS)
		rc = -errno;
	if (!rc && close(w->file.fd))
		rc = -errno;
	else if (rc)
		close(w->file.fd);
	w->file.fd = -1;
	if (rc)
		set_err(err, errlen, "%s: cannot write the recording: %s", w->file.path, strerror(-rc));
	writer_free(w);
	return rc;
}


/* ---- frames to memory, header and trailer frames ------------------------ */

int ior_rec_writer_open_frames(struct ior_rec_writer **wp, ior_rec_frame_fn fn, void *ctx,
			       uint64_t flush_ns)
{
	struct ior_rec_writer *w = NULL;
	int rc = writer_alloc(&w, 1);

	*wp = NULL;
	if (rc) {
		writer_free(w);
		return rc;
	}
	w->frame_fn = fn;
	w->frame_ctx = ctx;
	w->flush_ns = flush_ns ? flush_ns : FLUSH_NS;
	w->last_flush_ns = ior_mono_ns();
	*wp = w;
	return 0;
}

int ior_rec_writer_cut(struct ior_rec_writer *w)
{
	return flush_frame(w, w->hot);
}

void ior_rec_writer_free(struct ior_rec_writer *w)
{
	writer_free(w);
}

size_t ior_rec_writer_memory(const struct ior_rec_writer *w)
{
	return sizeof *w + w->raw_cap + w->out_cap + (w->cctx_ws ? w->cctx_ws_len : ZSTD_sizeof_CCtx(w->cctx)) +
	       ior_strtab_memory(&w->str);
}

/* The records in raw (a header's or a trailer's) as one frame in out, at
 * the full level; raw is empty again. */
static int small_frame(struct ior_rec_writer *w, const void **data, size_t *len)
{
	int rc = set_level(w, 0);
	size_t n = rc ? 0 : ZSTD_compress2(w->cctx, w->out, w->out_cap, w->raw, w->raw_len);

	w->raw_len = 0;
	if (rc || ZSTD_isError(n))
		return -EIO;
	*data = w->out;
	*len = n;
	return 0;
}

/* Between frames only; after an error, what raw holds is dropped (no
 * more frames are made). */
static int between_frames(struct ior_rec_writer *w)
{
	if (!w->frame_fn || (w->raw_len && !w->error))
		return -EBUSY;
	w->raw_len = 0;
	return 0;
}

int ior_rec_writer_header(struct ior_rec_writer *w, const struct ior_rec_info *info, const void **data, size_t *len)
{
	int rc = between_frames(w);

	if (rc)
		return rc;
	put_header(w, info);
	return small_frame(w, data, len);
}


/* A writer for one small frame: no string table, no stream buffers, so
 * a dump's header and trailer cost the recorder no more than they need. */
static struct ior_rec_writer *small_writer(void)
{
	struct ior_rec_writer *w = calloc(1, sizeof *w);

	if (w && !(w->raw = malloc(SMALL_RAW))) {
		free(w);
		return NULL;
	}
	if (w)
		w->file.fd = -1;
	return w;
}

static void small_free(struct ior_rec_writer *w)
{
	if (w)
		free(w->raw);
	free(w);
}

/* The records in w->raw as one checksummed frame, in *buf (malloc'd).
 * The size is known, so zstd sizes its tables to it. */
static int frame_copy(struct ior_rec_writer *w, void **buf, size_t *len)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(w->raw_len), n = 0;
	int rc = -ENOMEM;

	*buf = malloc(cap);
	if (c && *buf) {
		rc = -EIO;
		if (!ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, ZSTD_LEVEL)) &&
		    !ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1)) &&
		    !ZSTD_isError(n = ZSTD_compress2(c, *buf, cap, w->raw, w->raw_len)))
			rc = 0;
	}
	ZSTD_freeCCtx(c);
	if (rc) {
		free(*buf);
		*buf = NULL;
	}
	*len = n;
	return rc;
}

int ior_rec_header_frame(const struct ior_rec_info *info, void **buf, size_t *len)
{
	struct ior_rec_writer *w = small_writer();
	int rc = -ENOMEM;

	if (w) {
		put_header(w, info);
		rc = frame_copy(w, buf, len);
	}
	small_free(w);
	return rc;
}

static uint8_t *put_str(uint8_t *o, const char *s, size_t max)
{
	size_t n = s ? strnlen(s, max) : 0;

	o = put_varint(o, n);
	memcpy(o, s ? s : "", n);
	return o + n;
}

/* OP_TRIGGER: text, when, kind, then the pair for a pair's kinds. */
static uint8_t *put_trigger(uint8_t *o, const struct ior_rec_trigger *t)
{
	const struct ior_event_pair *p = &t->pair;

	*o++ = OP_TRIGGER;
	o = put_str(o, t->expr, MAX_TRIGGER);
	o = put_varint(o, t->fired_ns);
	*o++ = (uint8_t)t->kind;
	if (t->kind == IOR_REC_TRIGGER_NONE)
		return o;
	o = put_varint(o, p->tid);
	o = put_varint(o, p->pid);
	o = put_varint(o, p->sys < ior_nsyscalls ? p->sys : 0);
	o = put_varint(o, zigzag(p->ret));
	o = put_varint(o, p->enter_ns);
	o = put_varint(o, p->duration_ns);
	o = put_varint(o, zigzag(p->fd));
	o = put_str(o, p->comm, 16);
	return put_str(o, p->path, MAX_STR_LEN);
}

int ior_rec_writer_trailer(struct ior_rec_writer *w, const struct ior_trace_totals *totals,
			   const struct ior_rec_trigger *trigger, const void **data, size_t *len)
{
	struct ior_trace_totals t = { 0 };
	int rc = between_frames(w);

	if (rc)
		return rc;
	if (totals)
		t = *totals;
	uint8_t *o = w->raw;
	if (trigger)
		o = put_trigger(o, trigger);
	o = put_end(o, &t);
	w->raw_len = (size_t)(o - w->raw);
	return small_frame(w, data, len);
}

int ior_rec_trailer_frame(const struct ior_trace_totals *totals, const struct ior_rec_trigger *trigger,
			  void **buf, size_t *len)
{
	struct ior_trace_totals t = { 0 };
	struct ior_rec_writer *w = small_writer();
	int rc = w ? 0 : -ENOMEM;

	if (totals)
		t = *totals;
	if (!rc) {
		uint8_t *o = w->raw;
		if (trigger)
			o = put_trigger(o, trigger);
		o = put_end(o, &t);
		w->raw_len = (size_t)(o - w->raw);
		rc = frame_copy(w, buf, len);
	}
	small_free(w);
	return rc;
}
