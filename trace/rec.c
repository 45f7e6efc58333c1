/* Recording writer and reader. The encoding (docs/format.md) keeps a small
 * state per thread so a pair that repeats its thread's previous syscall,
 * file and return value costs one op byte plus two varints (gap and
 * duration) before zstd; zstd then removes most of what is left. */
#include "csv.h"
#include "rec.h"
#include "syscalls.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_c_literalCompressionMode (libzstd.a is linked in) */
#include <zstd.h>

static const char magic[8] = { 'I', 'O', 'R', 'R', 'E', 'C', '\r', '\n' };

enum {
	OP_STR = 0x01,   /* varint len, bytes: defines the next string id */
	OP_END = 0x02,   /* trailer: seven varints (struct ior_trace_totals; six in version 1) */
	OP_RESET = 0x03, /* forget all strings and thread state */
	OP_SUMMARY = 0x04, /* a summary row (version 2): see encode_summary */
	OP_PAIR = 0x80,  /* low bits: PAIR_* */
};

enum {
	PAIR_TID = 0x01,  /* varint tid follows; else the previous record's tid */
	PAIR_SYS = 0x02,  /* varint syscall index; else the thread's previous */
	PAIR_RET = 0x04,  /* zigzag ret; else the thread's previous */
	PAIR_TIME = 0x08, /* zigzag enter delta to the previous record; else enter = prev exit + gap */
	PAIR_EXT = 0x10,  /* an EXT_* byte follows */
	PAIR_RESERVED = 0x60,
};

enum {
	EXT_PID = 0x01,
	EXT_COMM = 0x02,
	EXT_FD = 0x04,
	EXT_PATH = 0x08,
	EXT_PATH2 = 0x10,
	EXT_FLAGS = 0x20,
	EXT_BYTES_SHIFT = 6, /* 2 bits: BYTES_* */
};

enum {
	BYTES_KEEP = 0,     /* apply the thread's previous rule */
	BYTES_ZERO = 1,     /* bytes = 0 */
	BYTES_RET = 2,      /* bytes = ret > 0 ? ret : 0 */
	BYTES_EXPLICIT = 3, /* varint bytes */
};

#define MAX_STR_LEN 4096u           /* longest string (path) stored */
#define MAX_STRINGS (1u << 20)      /* string ids before a reset */
#define MAX_STR_BYTES (64u << 20)   /* string bytes before a reset */
#define MAX_SYSCALLS 1024u
#define MAX_SYSNAME 64u
#define MAX_HOST 256u
#define MAX_CMDLINE 65536u
#define FRAME_FLUSH (1u << 20)      /* writer: encoded bytes per frame */
#define FRAME_SLACK (64u << 10)     /* more than one record can add */
#define MAX_FRAME (16u << 20)       /* reader: decoded bytes per frame */
#define FLUSH_NS 1000000000ull
#define TID_SLOTS 4096u             /* direct-mapped per-thread state */
#define ZSTD_LEVEL 3
/* A frame that fills FRAME_FLUSH within its second (over ~200,000 pairs/s),
 * and the rest of that second, are compressed with zstd's fastest match
 * search, its literals still
 * Huffman-coded: a read loop's records are varints with few matches, and
 * level 3 spent ~20 ns a pair looking for them (a third of the consumer's
 * CPU at full rate) for 1.6 instead of 2.6 bytes a pair. */
#define ZSTD_FAST_LEVEL (-1000)

/* ---- shared per-thread state -------------------------------------------- */

enum { RULE_ZERO, RULE_RET, RULE_VALUE };

struct tid_state {
	uint32_t tid, pid;
	int32_t fd;
	uint16_t sys;
	uint8_t used, bytes_rule;
	int64_t ret, flags;
	uint64_t bytes, prev_exit;
	uint32_t comm, path, path2;
};

struct codec {
	struct tid_state slots[TID_SLOTS];
	uint32_t last_tid;
	uint64_t last_enter;
};

static struct tid_state *slot_for(struct codec *c, uint32_t tid)
{
	struct tid_state *s = &c->slots[(tid * 2654435761u) >> 20 & (TID_SLOTS - 1)];
	if (!s->used || s->tid != tid) {
		*s = (struct tid_state){ .tid = tid, .used = 1, .fd = -1, .flags = IOR_FLAGS_UNKNOWN };
	}
	return s;
}

static uint64_t bytes_by_rule(const struct tid_state *s, int64_t ret)
{
	switch (s->bytes_rule) {
	case RULE_RET:
		return ret > 0 ? (uint64_t)ret : 0;
	case RULE_VALUE:
		return s->bytes;
	default:
		return 0;
	}
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

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

struct wstrings {
	char *arena;        /* NUL-terminated strings back to back */
	uint32_t *off;      /* id -> offset in arena; id 0 is "" */
	uint32_t *hash;     /* open addressing: id or 0 */
	size_t arena_len, arena_cap;
	uint32_t n, cap, hcap;
};

struct ior_rec_writer {
	int fd, error;
	char *path;
	ZSTD_CCtx *cctx;
	int fast;             /* cctx is set for ZSTD_FAST_LEVEL */
	int hot;              /* a frame filled by size since the last tick */
	uint8_t *raw, *out;
	size_t raw_len, out_cap;
	uint64_t pairs, bytes_written, last_flush_ns;
	uint64_t summarized; /* pairs in summary rows */
	struct wstrings str;
	struct codec codec;
};

static uint32_t hash_str(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	/* FNV's low bits follow the last bytes only; mix before masking */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (uint32_t)h;
}

static int wstrings_init(struct wstrings *t)
{
	t->cap = 1024;
	t->hcap = 2048;
	t->arena_cap = 1 << 16;
	t->arena = malloc(t->arena_cap);
	t->off = malloc(t->cap * sizeof *t->off);
	t->hash = calloc(t->hcap, sizeof *t->hash);
	if (!t->arena || !t->off || !t->hash)
		return -ENOMEM;
	t->arena[0] = 0;
	t->arena_len = 1;
	t->off[0] = 0;
	t->n = 1;
	return 0;
}

static void wstrings_clear(struct wstrings *t)
{
	memset(t->hash, 0, t->hcap * sizeof *t->hash);
	t->arena_len = 1;
	t->n = 1;
}

static void wstrings_free(struct wstrings *t)
{
	free(t->arena);
	free(t->off);
	free(t->hash);
}

static const char *wstr(const struct wstrings *t, uint32_t id)
{
	return t->arena + t->off[id];
}

/* Length of string id (its NUL ends it where the next one starts). */
static size_t wstr_len(const struct wstrings *t, uint32_t id)
{
	uint32_t end = id + 1 < t->n ? t->off[id + 1] : (uint32_t)t->arena_len;
	return end - t->off[id] - 1;
}

static uint64_t load8(const char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* memcmp(a, b, n) == 0 a word at a time, the tail as one overlapping word
 * (or two halves): musl compares bytes, and this runs for every string of
 * every pair. Reads only a[0, n) and b[0, n). */
static bool same_bytes(const char *a, const char *b, size_t n)
{
	uint32_t x, y;
	uint16_t u, v;

	if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8)
			if (load8(a + i) != load8(b + i))
				return false;
		return load8(a + n - 8) == load8(b + n - 8);
	}
	if (n >= 4) {
		memcpy(&x, a, 4), memcpy(&y, b, 4);
		if (x != y)
			return false;
		memcpy(&x, a + n - 4, 4), memcpy(&y, b + n - 4, 4);
		return x == y;
	}
	if (n >= 2) {
		memcpy(&u, a, 2), memcpy(&v, b, 2);
		return u == v && a[n - 1] == b[n - 1];
	}
	return !n || *a == *b;
}

static int wstrings_rehash(struct wstrings *t)
{
	uint32_t hcap = t->hcap * 2;
	uint32_t *h = calloc(hcap, sizeof *h);
	if (!h)
		return -ENOMEM;
	for (uint32_t id = 1; id < t->n; id++) {
		const char *s = wstr(t, id);
		uint32_t i = hash_str(s, strlen(s)) & (hcap - 1);
		while (h[i])
			i = (i + 1) & (hcap - 1);
		h[i] = id;
	}
	free(t->hash);
	t->hash = h;
	t->hcap = hcap;
	return 0;
}

static int wstrings_add(struct wstrings *t, const char *s, size_t n, uint32_t slot, uint32_t *id)
{
	if (t->n == t->cap) {
		uint32_t *off = realloc(t->off, 2 * t->cap * sizeof *off);
		if (!off)
			return -ENOMEM;
		t->off = off;
		t->cap *= 2;
	}
	if (t->arena_len + n + 1 > t->arena_cap) {
		size_t cap = t->arena_cap;
		while (t->arena_len + n + 1 > cap)
			cap *= 2;
		char *a = realloc(t->arena, cap);
		if (!a)
			return -ENOMEM;
		t->arena = a;
		t->arena_cap = cap;
	}
	memcpy(t->arena + t->arena_len, s, n);
	t->arena[t->arena_len + n] = 0;
	t->off[t->n] = (uint32_t)t->arena_len;
	t->arena_len += n + 1;
	t->hash[slot] = t->n;
	*id = t->n++;
	if (t->n * 2 > t->hcap)
		return wstrings_rehash(t);
	return 0;
}

static uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

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
	struct wstrings *t = &w->str;
	if (!n) {
		*id = 0;
		return 0;
	}
	uint32_t i = hash_str(s, n) & (t->hcap - 1);
	for (; t->hash[i]; i = (i + 1) & (t->hcap - 1)) {
		uint32_t c = t->hash[i];
		if (wstr_len(t, c) == n && same_bytes(wstr(t, c), s, n)) {
			*id = t->hash[i];
			return 0;
		}
	}
	w->raw[w->raw_len++] = OP_STR;
	put_bytes(w, s, n);
	return wstrings_add(t, s, n, i, id);
}

/* Cheap path first: most pairs repeat their thread's previous strings.
 * Strings longer than MAX_STR_LEN are stored cut to it. */
static int intern_cached(struct ior_rec_writer *w, const char *s, uint32_t prev, uint32_t *id)
{
	if (!s)
		s = "";
	size_t n = str_len(s, MAX_STR_LEN + 1);
	if (n <= MAX_STR_LEN && n == wstr_len(&w->str, prev) && same_bytes(wstr(&w->str, prev), s, n)) {
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
	size_t rc = ZSTD_compressStream2(w->cctx, &out, &in, ZSTD_e_end);
	if (ZSTD_isError(rc) || rc != 0)
		return w->error = -EIO;
	w->raw_len = 0;
	int err = write_all(w->fd, w->out, out.pos);
	if (err)
		return w->error = err;
	w->bytes_written += out.pos;
	return 0;
}

/* The command line this process runs with, arguments joined by spaces:
 * the default for the header's "flags used". */
static void own_cmdline(char *buf, size_t len)
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
	struct timespec rt, mono;
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	const char *host = info && info->host ? info->host : u.nodename;
	const char *kernel = info && info->kernel ? info->kernel : u.release;
	const char *cmdline = info ? info->cmdline : NULL;
	if (!cmdline) {
		own_cmdline(cmdline_buf, sizeof cmdline_buf);
		cmdline = cmdline_buf;
	}
	uint64_t rt_ns = info && info->start_realtime_ns ? info->start_realtime_ns :
			 (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec;
	uint64_t mono_ns = info && info->start_monotonic_ns ? info->start_monotonic_ns :
			   (uint64_t)mono.tv_sec * 1000000000ull + (uint64_t)mono.tv_nsec;

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
	if (w->fd >= 0)
		close(w->fd);
	ZSTD_freeCCtx(w->cctx);
	free(w->raw);
	free(w->out);
	free(w->path);
	wstrings_free(&w->str);
	free(w);
}

static int writer_alloc(struct ior_rec_writer **wp)
{
	struct ior_rec_writer *w = calloc(1, sizeof *w);
	if (!w)
		return -ENOMEM;
	w->fd = -1;
	*wp = w;
	size_t raw_cap = FRAME_FLUSH + FRAME_SLACK + MAX_CMDLINE + MAX_SYSCALLS * (MAX_SYSNAME + 2);
	w->raw = malloc(raw_cap);
	w->out_cap = ZSTD_compressBound(raw_cap);
	w->out = malloc(w->out_cap);
	w->cctx = ZSTD_createCCtx();
	if (!w->raw || !w->out || !w->cctx || wstrings_init(&w->str))
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
	int rc = writer_alloc(&w);
	if (rc) {
		set_err(err, errlen, "%s: cannot set up the recorder: %s", path, strerror(-rc));
		writer_free(w);
		return rc;
	}
	w->path = strdup(path);
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd < 0 || !w->path) {
		rc = w->path ? -errno : -ENOMEM;
		set_err(err, errlen, "%s: cannot create the recording: %s", path, strerror(-rc));
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
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	w->last_flush_ns = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
	*wp = w;
	return 0;
}

/* A reset keeps the writer's memory bounded in recordings with millions of
 * distinct paths; both sides forget strings and thread state together. */
static int maybe_reset_strings(struct ior_rec_writer *w)
{
	struct wstrings *t = &w->str;
	if (t->n + 3 <= MAX_STRINGS && t->arena_len + 3 * (MAX_STR_LEN + 1) <= MAX_STR_BYTES)
		return 0;
	w->raw[w->raw_len++] = OP_RESET;
	wstrings_clear(t);
	memset(&w->codec, 0, sizeof w->codec);
	return 0;
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
	int rc = intern_cached(w, p->comm, s->comm, &comm);
	if (!rc)
		rc = intern_cached(w, p->path, s->path, &path);
	if (!rc)
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
	if (ext)
		op |= PAIR_EXT;

	uint8_t *o = w->raw + w->raw_len;
	*o++ = op;
	if (op & PAIR_EXT)
		*o++ = ext;
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
	s->path = path;
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

int ior_rec_write(struct ior_rec_writer *w, const struct ior_event_pair *p)
{
	if (w->error)
		return w->error;
	if (p->sys >= ior_nsyscalls)
		return -EINVAL;
	int rc = p->summary ? encode_summary(w, p) : encode_pair(w, p);
	if (rc)
		return w->error = rc;
	if (p->summary)
		w->summarized += p->pairs;
	else
		w->pairs++;
	if (w->raw_len >= FRAME_FLUSH) { /* filled before its second was up */
		w->hot = 1;
		return flush_frame(w, 1);
	}
	return 0;
}

int ior_rec_tick(struct ior_rec_writer *w, uint64_t now_ns)
{
	if (w->error)
		return w->error;
	if (now_ns - w->last_flush_ns < FLUSH_NS)
		return 0;
	w->last_flush_ns = now_ns;
	int fast = w->hot; /* the second's rest, at the rate that filled frames */
	w->hot = 0;
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
		*o++ = OP_END;
		o = put_varint(o, t.pairs);
		o = put_varint(o, t.pairs_seen);
		o = put_varint(o, t.lost);
		o = put_varint(o, t.unpaired_exits);
		o = put_varint(o, t.overwritten_enters);
		o = put_varint(o, t.in_flight);
		o = put_varint(o, t.summarized);
		w->raw_len = (size_t)(o - w->raw);
		rc = flush_frame(w, 0);
	}
	if (!rc && fdatasync(w->fd) && errno != EINVAL && errno != EROFS)
		rc = -errno;
	if (!rc && close(w->fd))
		rc = -errno;
	else if (rc)
		close(w->fd);
	w->fd = -1;
	if (rc)
		set_err(err, errlen, "%s: cannot write the recording: %s", w->path, strerror(-rc));
	writer_free(w);
	return rc;
}

/* ---- reader ------------------------------------------------------------- */

#define IN_CHUNK (128u << 10)

struct ior_rec_reader {
	int fd;
	const uint8_t *mem;
	size_t mem_len;
	uint8_t *in;
	size_t in_len, in_pos;
	uint64_t in_base;        /* file offset of in[0] */
	ZSTD_DCtx *dctx;
	uint8_t *frame;          /* decoded bytes of the current complete frame */
	size_t frame_len, frame_cap, pos;
	bool eof, ended, truncated, failed;
	uint64_t pairs, last_frame_end; /* pairs: PAIR and SUMMARY records read */

	char *arena;             /* strings of the current generation */
	uint32_t *off;
	size_t arena_len, arena_cap;
	uint32_t nstr, str_cap, gen;

	uint16_t sys_map[MAX_SYSCALLS];
	uint32_t nsys, bad_sys;
	char *sys_names;         /* nsys names, MAX_SYSNAME + 1 bytes each */

	struct ior_rec_info info;
	char *host, *kernel, *cmdline;
	struct ior_trace_totals totals;
	bool has_totals;
	struct codec codec;
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

static int refill(struct ior_rec_reader *r)
{
	if (r->mem) {
		r->eof = true;
		return 0;
	}
	r->in_base += r->in_len;
	r->in_len = r->in_pos = 0;
	for (;;) {
		ssize_t n = read(r->fd, r->in, IN_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return rfail(r, -errno, "read failed: %s", strerror(errno));
		if (n == 0)
			r->eof = true;
		r->in_len = (size_t)n;
		return 0;
	}
}

/* After a zstd error: a power loss can leave zero-filled blocks at the end
 * of a file; that is a truncation, anything else is corruption. */
static bool rest_is_zero(struct ior_rec_reader *r, uint64_t from)
{
	if (r->mem) {
		for (size_t i = (size_t)from; i < r->mem_len; i++)
			if (r->mem[i])
				return false;
		return true;
	}
	uint8_t buf[4096];
	for (uint64_t off = from;;) {
		ssize_t n = pread(r->fd, buf, sizeof buf, (off_t)off);
		if (n < 0)
			return false;
		if (n == 0)
			return true;
		for (ssize_t i = 0; i < n; i++)
			if (buf[i])
				return false;
		off += (uint64_t)n;
	}
}

static int grow_frame(struct ior_rec_reader *r)
{
	if (r->frame_cap >= MAX_FRAME)
		return rfail(r, -EFBIG, "corrupt: a frame decodes to more than %u MiB (at byte %llu)",
			     MAX_FRAME >> 20, (unsigned long long)r->last_frame_end);
	size_t cap = r->frame_cap ? r->frame_cap * 2 : 1 << 16;
	uint8_t *f = realloc(r->frame, cap);
	if (!f)
		return rfail(r, -ENOMEM, "out of memory");
	r->frame = f;
	r->frame_cap = cap;
	return 0;
}

/* Decodes the next complete frame into r->frame. 1: got one; 0: no more
 * complete frames (r->truncated tells why); <0: error. */
static int next_frame(struct ior_rec_reader *r)
{
	r->frame_len = r->pos = 0;
	for (;;) {
		if (r->in_pos == r->in_len) {
			if (r->eof)
				goto end;
			int rc = refill(r);
			if (rc)
				return rc;
			if (r->in_len == 0)
				goto end;
		}
		if (r->frame_len == r->frame_cap) {
			int rc = grow_frame(r);
			if (rc)
				return rc;
		}
		ZSTD_inBuffer in = { r->in, r->in_len, r->in_pos };
		ZSTD_outBuffer out = { r->frame, r->frame_cap, r->frame_len };
		size_t rc = ZSTD_decompressStream(r->dctx, &out, &in);
		if (ZSTD_isError(rc)) {
			if (rest_is_zero(r, r->last_frame_end))
				goto end;
			if (!r->info.version)
				return rfail(r, -EBADMSG, "not an ior recording (%s at byte %llu)",
					     ZSTD_getErrorName(rc), (unsigned long long)r->last_frame_end);
			return rfail(r, -EBADMSG, "corrupt: %s in the frame at byte %llu",
				     ZSTD_getErrorName(rc), (unsigned long long)r->last_frame_end);
		}
		r->in_pos = in.pos;
		r->frame_len = out.pos;
		if (rc == 0) {
			r->last_frame_end = r->in_base + r->in_pos;
			return 1;
		}
	}
end:
	r->truncated = !r->ended;
	r->frame_len = 0;
	return 0;
}

struct cur {
	const uint8_t *p, *end;
};

static inline int get_varint(struct cur *c, uint64_t *v)
{
	if (c->p < c->end && *c->p < 0x80) {
		*v = *c->p++;
		return 0;
	}
	uint64_t x = 0;
	for (unsigned shift = 0; c->p < c->end && shift < 64; shift += 7) {
		uint8_t b = *c->p++;
		if (shift == 63 && b > 1)
			return -1;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

static int get_u32(struct cur *c, uint32_t *v)
{
	uint64_t x;
	if (get_varint(c, &x) || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static int get_str(struct cur *c, size_t max, const uint8_t **s, size_t *n)
{
	uint64_t len;
	if (get_varint(c, &len) || len > max || len > (uint64_t)(c->end - c->p))
		return -1;
	*s = c->p;
	*n = (size_t)len;
	if (memchr(*s, 0, *n))
		return -1;
	c->p += len;
	return 0;
}

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
	r->sys_names = calloc(r->nsys ? r->nsys : 1, MAX_SYSNAME + 1);
	if (!r->sys_names)
		return rfail(r, -ENOMEM, "out of memory");
	for (uint32_t i = 0; i < r->nsys; i++) {
		const uint8_t *s;
		size_t n;
		if (get_str(c, MAX_SYSNAME, &s, &n))
			return rfail(r, -EBADMSG, "corrupt header: syscall name %u", i);
		char *name = r->sys_names + i * (MAX_SYSNAME + 1);
		memcpy(name, s, n);
		const struct ior_syscall *sc = ior_syscall_by_name(name);
		r->sys_map[i] = sc ? (uint16_t)ior_syscall_index(sc) : UINT16_MAX;
	}
	return 0;
}

static int parse_header(struct ior_rec_reader *r)
{
	struct cur c = { r->frame, r->frame + r->frame_len };
	uint64_t version;
	if (r->frame_len < sizeof magic || memcmp(r->frame, magic, sizeof magic))
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
	r->pos = (size_t)(c.p - r->frame);
	return rc;
}

static void strings_reset(struct ior_rec_reader *r)
{
	r->arena_len = 1;
	r->nstr = 1;
	r->gen++;
	memset(&r->codec, 0, sizeof r->codec);
}

static int add_string(struct ior_rec_reader *r, const uint8_t *s, size_t n)
{
	if (r->nstr >= MAX_STRINGS || r->arena_len + n + 1 > MAX_STR_BYTES)
		return rfail(r, -EBADMSG, "corrupt: more than %u strings or %u MiB of strings",
			     MAX_STRINGS, MAX_STR_BYTES >> 20);
	if (r->nstr == r->str_cap) {
		uint32_t *off = realloc(r->off, 2 * r->str_cap * sizeof *off);
		if (!off)
			return rfail(r, -ENOMEM, "out of memory");
		r->off = off;
		r->str_cap *= 2;
	}
	if (r->arena_len + n + 1 > r->arena_cap) {
		size_t cap = r->arena_cap;
		while (r->arena_len + n + 1 > cap)
			cap *= 2;
		char *a = realloc(r->arena, cap);
		if (!a)
			return rfail(r, -ENOMEM, "out of memory");
		r->arena = a;
		r->arena_cap = cap;
	}
	memcpy(r->arena + r->arena_len, s, n);
	r->arena[r->arena_len + n] = 0;
	r->off[r->nstr++] = (uint32_t)r->arena_len;
	r->arena_len += n + 1;
	return 0;
}

static int get_id(struct ior_rec_reader *r, struct cur *c, uint32_t *id)
{
	uint64_t v;
	if (get_varint(c, &v) || v >= r->nstr)
		return -1;
	*id = (uint32_t)v;
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
	if (op & PAIR_RESERVED)
		return -1;
	if (op & PAIR_EXT) {
		if (c->p >= c->end)
			return -1;
		ext = *c->p++;
	}
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
	p->comm = r->arena + r->off[s->comm];
	p->path = r->arena + r->off[s->path];
	p->path2 = r->arena + r->off[s->path2];
	if (s->sys >= r->nsys)
		return -1;
	if (r->sys_map[s->sys] == UINT16_MAX) {
		r->bad_sys = s->sys;
		return -2;
	}
	p->sys = r->sys_map[s->sys];
	p->summary = 0;
	p->pairs = 0;
	ids->comm = s->comm;
	ids->path = s->path;
	ids->path2 = s->path2;
	ids->gen = r->gen;
	cd->last_tid = tid;
	cd->last_enter = p->enter_ns;
	s->prev_exit = p->enter_ns + dur;
	return 0;
}

/* encode_summary's fields; 0, -1 corrupt, -2 unknown syscall. */
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
	if (r->sys_map[sys] == UINT16_MAX) {
		r->bad_sys = (uint32_t)sys;
		return -2;
	}
	p->sys = r->sys_map[sys];
	p->fd = (int32_t)f;
	p->ret = 0;
	p->flags = IOR_FLAGS_UNKNOWN;
	p->summary = 1;
	p->end_ns = p->enter_ns + span;
	p->comm = r->arena + r->off[comm];
	p->path = r->arena + r->off[path];
	p->path2 = r->arena;
	ids->comm = comm;
	ids->path = path;
	ids->path2 = 0;
	ids->gen = r->gen;
	return 0;
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
	return 0;
}

static int corrupt_at(struct ior_rec_reader *r)
{
	return rfail(r, -EBADMSG, "corrupt record in the frame ending at byte %llu (after %llu pairs)",
		     (unsigned long long)r->last_frame_end, (unsigned long long)r->pairs);
}

/* The name comes from the file: escaped before anyone prints it. */
static int unknown_syscall(struct ior_rec_reader *r)
{
	const char *raw = r->sys_names + (size_t)r->bad_sys * (MAX_SYSNAME + 1);
	char name[4 * MAX_SYSNAME + 1];

	ior_csv_escape(name, sizeof name, raw, strlen(raw), IOR_ESCAPE_AUTO);
	return rfail(r, -EPROTO, "the recording uses syscall '%s', unknown to this ior", name);
}

/* After a PAIR or SUMMARY record was decoded (rc: its decoder's): 1 and
 * the position past it, or the error. */
static int row_read(struct ior_rec_reader *r, const struct cur *c, int rc)
{
	if (rc == -2)
		return unknown_syscall(r);
	if (rc)
		return corrupt_at(r);
	r->pos = (size_t)(c->p - r->frame);
	r->pairs++;
	return 1;
}

int ior_rec_read_ids(struct ior_rec_reader *r, struct ior_event_pair *p, struct ior_rec_ids *ids)
{
	if (r->failed)
		return -EBADMSG;
	for (;;) {
		if (r->ended)
			return 0;
		if (r->pos >= r->frame_len) {
			int rc = next_frame(r);
			if (rc <= 0)
				return rc;
			continue;
		}
		struct cur c = { r->frame + r->pos, r->frame + r->frame_len };
		uint8_t op = *c.p++;
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
			strings_reset(r);
			break;
		case OP_END:
			if (parse_end(r, &c) || c.p != c.end)
				return corrupt_at(r);
			break;
		case OP_SUMMARY:
			if (r->info.version < 2)
				return corrupt_at(r);
			return row_read(r, &c, decode_summary(r, &c, p, ids));
		default:
			return corrupt_at(r);
		}
		if (rc)
			return rc;
		r->pos = (size_t)(c.p - r->frame);
	}
}

int ior_rec_read(struct ior_rec_reader *r, struct ior_event_pair *p)
{
	struct ior_rec_ids ids;
	return ior_rec_read_ids(r, p, &ids);
}

const char *ior_rec_reader_string(const struct ior_rec_reader *r, uint32_t id)
{
	return id < r->nstr ? r->arena + r->off[id] : NULL;
}

uint32_t ior_rec_reader_nstrings(const struct ior_rec_reader *r)
{
	return r->nstr;
}

const struct ior_rec_info *ior_rec_reader_info(const struct ior_rec_reader *r)
{
	return &r->info;
}

const struct ior_trace_totals *ior_rec_reader_totals(const struct ior_rec_reader *r)
{
	return r->has_totals ? &r->totals : NULL;
}

uint64_t ior_rec_reader_trailing(const struct ior_rec_reader *r)
{
	struct stat st;
	uint64_t size;

	if (!r->ended)
		return 0;
	if (r->mem)
		size = r->mem_len;
	else if (fstat(r->fd, &st) || st.st_size < 0)
		return 0;
	else
		size = (uint64_t)st.st_size;
	return size > r->last_frame_end ? size - r->last_frame_end : 0;
}

bool ior_rec_reader_truncated(const struct ior_rec_reader *r, uint64_t *pairs, uint64_t *last_frame_end)
{
	if (pairs)
		*pairs = r->pairs;
	if (last_frame_end)
		*last_frame_end = r->last_frame_end;
	return r->truncated;
}

const char *ior_rec_reader_error(const struct ior_rec_reader *r)
{
	return r->failed ? r->err : "";
}

void ior_rec_reader_close(struct ior_rec_reader *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	ZSTD_freeDCtx(r->dctx);
	if (!r->mem)
		free(r->in);
	free(r->frame);
	free(r->arena);
	free(r->off);
	free(r->sys_names);
	free(r->host);
	free(r->kernel);
	free(r->cmdline);
	free(r);
}

static int reader_start(struct ior_rec_reader *r)
{
	r->arena_cap = 1 << 16;
	r->str_cap = 1024;
	r->arena = malloc(r->arena_cap);
	r->off = malloc(r->str_cap * sizeof *r->off);
	r->dctx = ZSTD_createDCtx();
	if (!r->arena || !r->off || !r->dctx)
		return rfail(r, -ENOMEM, "out of memory");
	/* Frames are bounded by MAX_FRAME; a hostile window size must not
	 * make zstd allocate more. */
	if (ZSTD_isError(ZSTD_DCtx_setParameter(r->dctx, ZSTD_d_windowLogMax, 24)))
		return rfail(r, -EINVAL, "zstd setup failed");
	r->arena[0] = 0;
	r->arena_len = 1;
	r->off[0] = 0;
	r->nstr = 1;
	int rc = next_frame(r);
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
	if (!r) {
		set_err(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	r->in = malloc(IN_CHUNK);
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0 || !r->in) {
		int rc = r->in ? -errno : -ENOMEM;
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
	r->fd = -1;
	r->mem = data;
	r->mem_len = len;
	r->in = (uint8_t *)data;
	r->in_len = len;
	return open_common(rp, r, "recording", err, errlen);
}
