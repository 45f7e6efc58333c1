/* -plain CSV rows. A row is built in one buffer and written with a single
 * fwrite, so a row is never interleaved and stdio does the batching; or
 * formatted into the caller's buffer (ior_csv_format_pair), which batches
 * rows itself. Called from the single consumer thread only (the row buffer
 * and the flags cache are static). The pieces of a row are a few bytes:
 * they are copied with 8-byte moves, not memcpy (musl's starts with rep
 * movs, a few dozen cycles), and strings are measured while escaped. */
#include "csv.h"
#include "syscalls.h"

#include <fcntl.h>
#include <stdint.h>
#include <string.h>

#define PATH_FIELD_MAX 4096 /* longest path a pair carries (PATH_MAX) */
#define IOR_CSV_COMM_MAX 16
#define ROW_MAX IOR_CSV_ROW_MAX
_Static_assert(IOR_CSV_ROW_MAX >= 2 * 4 * (IOR_CSV_COMM_MAX + 2 * PATH_FIELD_MAX) + 256,
	       "a row's worst case fits");

int ior_csv_parse_escape(const char *s, enum ior_escape *e)
{
	if (!strcmp(s, "auto"))
		*e = IOR_ESCAPE_AUTO;
	else if (!strcmp(s, "always"))
		*e = IOR_ESCAPE_ALWAYS;
	else if (!strcmp(s, "never"))
		*e = IOR_ESCAPE_NEVER;
	else
		return -1;
	return 0;
}

void ior_csv_write_header(FILE *out)
{
	fputs("durationToPrevNs,durationNs,comm,pid.tid,name,ret,file\n", out);
}

struct buf {
	char *p;
	size_t len, cap;
	int quoting; /* inside a quoted field: put_escaped doubles '"' */
	int special; /* put_escaped wrote '"', ',', CR or LF (the field needs quotes) */
};

/* n <= 64 bytes from s to d as two fixed-size moves from both ends
 * (overlapping in the middle): no loop for gcc to turn into rep movs. */
static inline void copy_small(char *d, const char *s, size_t n)
{
	if (n >= 32) {
		memcpy(d, s, 32);
		memcpy(d + n - 32, s + n - 32, 32);
	} else if (n >= 16) {
		memcpy(d, s, 16);
		memcpy(d + n - 16, s + n - 16, 16);
	} else if (n >= 8) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n >= 2) {
		memcpy(d, s, 2);
		memcpy(d + n - 2, s + n - 2, 2);
	} else if (n) {
		*d = *s;
	}
}

static inline void put(struct buf *b, const char *s, size_t n)
{
	if (n > b->cap - b->len)
		n = b->cap - b->len;
	if (n <= 64)
		copy_small(b->p + b->len, s, n);
	else
		memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static const char digit_pairs[] = "00010203040506070809101112131415161718192021222324"
				  "25262728293031323334353637383940414243444546474849"
				  "50515253545556575859606162636465666768697071727374"
				  "75767778798081828384858687888990919293949596979899";

/* Two digits per division, from the last one: six numbers a row, most
 * below 2^32, where the division by 100 is a cheaper 32-bit multiply. */
static void put_u64(struct buf *b, uint64_t v)
{
	char tmp[72], *end = tmp + 24, *d = end; /* 72: see put_hex_escape */

	while (v > UINT32_MAX) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		d -= 2;
		memcpy(d, digit_pairs + 2 * r, 2);
	}
	uint32_t w = (uint32_t)v;
	while (w >= 100) {
		unsigned r = w % 100;
		w /= 100;
		d -= 2;
		memcpy(d, digit_pairs + 2 * r, 2);
	}
	if (w >= 10) {
		d -= 2;
		memcpy(d, digit_pairs + 2 * w, 2);
	} else {
		*--d = (char)('0' + w);
	}
	put(b, d, (size_t)(end - d));
}

static void put_i64(struct buf *b, int64_t v)
{
	if (v < 0) {
		put(b, "-", 1);
		put_u64(b, (uint64_t)0 - (uint64_t)v);
		return;
	}
	put_u64(b, (uint64_t)v);
}

static void put_hex_escape(struct buf *b, char kind, unsigned v, int digits)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[72] = { '\\', kind }; /* 72: keeps gcc's bounds check on put()'s memcpy (n > 64) quiet */

	for (int i = 0; i < digits; i++)
		tmp[2 + i] = hex[(v >> (4 * (digits - 1 - i))) & 0xf];
	put(b, tmp, 2 + (size_t)digits);
}

int ior_utf8_seq(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned c = s[0], lo = 0x80, hi = 0xbf;
	int len;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2, *cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, *cp = c & 0x0f, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, *cp = c & 0x07, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if ((size_t)len > n || s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 1; i < len; i++) {
		if (i > 1 && (s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	return len;
}

int ior_cp_is_unsafe(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x200e || cp == 0x200f || cp == 0x2028 || cp == 0x2029 ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Appends s[0..max) to b, or with nul_ends only up to its NUL, in the
 * visible notation of esc: control bytes and invalid UTF-8 as \\xHH, unsafe code
 * points as \\uHHHH, the backslash as \\\\ so the notation stays
 * unambiguous. The NUL stops a run like a byte to escape, so the string is
 * measured in the same pass. A UTF-8 sequence never spans a NUL (a
 * continuation byte is not 0), so max bounds ior_utf8_seq as strnlen did. */
static void put_escaped(struct buf *b, const char *s, size_t max, int nul_ends, enum ior_escape esc)
{
	/* 1: not printable ASCII (NUL included), or a byte escaping or quoting acts on */
	static const unsigned char stop[256] = {
		[0 ... 0x1f] = 1, ['"'] = 1, [','] = 1, ['\\'] = 1, [0x7f ... 0xff] = 1,
	};
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < max;) {
		unsigned c, cp;
		int len;
		size_t run = i;
		/* four bytes a step, each read only after the one before it was
		 * no stop (so never past the NUL) */
		while (max - run >= 4 && !stop[u[run]] && !stop[u[run + 1]] && !stop[u[run + 2]] &&
		       !stop[u[run + 3]])
			run += 4;
		while (run < max && !stop[u[run]])
			run++;
		if (run > i) { /* printable ASCII: as is */
			put(b, s + i, run - i);
			i = run;
			continue;
		}
		c = u[i];
		if (!c && nul_ends)
			return;
		if (c == '"' || c == ',') {
			put(b, b->quoting && c == '"' ? "\"\"" : s + i, b->quoting && c == '"' ? 2 : 1);
			b->special = 1;
			i++;
		} else if (esc == IOR_ESCAPE_NEVER) {
			b->special |= c == '\n' || c == '\r';
			put(b, s + i, 1);
			i++;
		} else if (c < 0x80) {
			if (c < 0x20 || c == 0x7f)
				put_hex_escape(b, 'x', c, 2);
			else /* the backslash */
				put(b, "\\\\", 2);
			i++;
		} else if (esc == IOR_ESCAPE_ALWAYS || !(len = ior_utf8_seq(u + i, max - i, &cp))) {
			put_hex_escape(b, 'x', c, 2);
			i++;
		} else {
			if (ior_cp_is_unsafe(cp))
				put_hex_escape(b, 'u', cp, 4);
			else
				put(b, s + i, (size_t)len);
			i += (size_t)len;
		}
	}
}

size_t ior_csv_escape(char *dst, size_t len, const char *s, size_t n, enum ior_escape esc)
{
	char tmp[4 * 256 + 8];
	struct buf b = { tmp, 0, sizeof tmp, 0, 0 };
	size_t out;

	if (!len)
		return 0;
	if (n > 256)
		n = 256;
	put_escaped(&b, s, n, 0, esc);
	out = b.len < len - 1 ? b.len : len - 1;
	memcpy(dst, tmp, out);
	dst[out] = 0;
	return out;
}

size_t ior_csv_escape_all(char *dst, size_t cap, const char *s, size_t n, enum ior_escape esc)
{
	struct buf b = { dst, 0, cap, 0, 0 };

	put_escaped(&b, s, n, 0, esc);
	return b.len;
}

/* RFC 4180: a field holding a comma, quote, CR or LF is quoted, quotes
 * doubled. The field was written at b->p[start..b->len) unquoted; quoting
 * it (rare: a name with such a byte) shifts it in place. */
static void quote_from(struct buf *b, size_t start)
{
	/* one table lookup per byte: this runs on every row's file column */
	static const unsigned char special[256] = { ['"'] = 1, [','] = 1, ['\n'] = 1, ['\r'] = 1 };
	size_t n = b->len - start, quotes = 0, i = 0;
	char *f = b->p + start;

	while (i < n && !special[(unsigned char)f[i]])
		i++;
	if (i == n)
		return;
	for (; i < n; i++)
		quotes += f[i] == '"';
	if (n + quotes + 2 > b->cap - start) { /* cannot grow: drop the field's tail */
		n = (b->cap - start - 2) / 2;
		quotes = 0;
		for (i = 0; i < n; i++)
			quotes += f[i] == '"';
	}
	size_t out = start + n + quotes + 2;
	b->p[--out] = '"';
	for (i = n; i-- > 0;) {
		b->p[--out] = f[i];
		if (f[i] == '"')
			b->p[--out] = '"';
	}
	b->p[--out] = '"';
	b->len = start + n + quotes + 2;
}

/* The file column before quoting: path%(fd,FLAGS), old=>new, or path. */
static void put_file(struct buf *f, const struct ior_event_pair *p, enum ior_escape esc)
{
	put_escaped(f, p->path, PATH_FIELD_MAX, 1, esc);
	if (p->path2 && p->path2[0]) {
		put(f, "=>", 2);
		put_escaped(f, p->path2, PATH_FIELD_MAX, 1, esc);
	}
	if (p->fd < 0)
		return;
	put(f, "%(", 2);
	put_i64(f, p->fd);
	if (p->flags != IOR_FLAGS_UNKNOWN) {
		/* one-entry cache: consecutive rows are mostly on the same file */
		static long long last = IOR_FLAGS_UNKNOWN;
		static char str[256];
		static size_t len;
		if (p->flags != last) {
			ior_open_flags_str(str, sizeof str, p->flags);
			len = strlen(str);
			last = p->flags;
		}
		put(f, ",", 1);
		put(f, str, len);
	}
	put(f, ")", 1);
}

/* The syscall's name and its length, measured once. */
static const char *sys_name(uint16_t sys, size_t *len)
{
	static uint8_t lens[1024]; /* length + 1; 0: not measured yet */

	if (sys >= ior_nsyscalls || sys >= sizeof lens) {
		*len = sys < ior_nsyscalls ? strlen(ior_syscalls[sys].name) : 1;
		return sys < ior_nsyscalls ? ior_syscalls[sys].name : "?";
	}
	if (!lens[sys])
		lens[sys] = (uint8_t)(strnlen(ior_syscalls[sys].name, 254) + 1);
	*len = lens[sys] - 1u;
	return ior_syscalls[sys].name;
}

size_t ior_csv_format_pair(char *row, const struct ior_event_pair *p, enum ior_escape esc)
{
	struct buf b = { row, 0, IOR_CSV_ROW_MAX, 0, 0 };
	size_t name_len;
	const char *name = sys_name(p->sys, &name_len);

	put_u64(&b, p->gap_ns);
	put(&b, ",", 1);
	put_u64(&b, p->duration_ns);
	put(&b, ",", 1);
	size_t start = b.len;
	put_escaped(&b, p->comm, IOR_CSV_COMM_MAX, 1, esc);
	if (b.special)
		quote_from(&b, start);
	put(&b, ",", 1);
	put_u64(&b, p->pid);
	put(&b, ".", 1);
	put_u64(&b, p->tid);
	put(&b, ",", 1);
	put(&b, name, name_len);
	put(&b, ",", 1);
	put_i64(&b, p->ret);
	put(&b, ",", 1);
	/* With flags the file column holds a comma: quoted as it is written.
	 * Else quoted afterwards, when a name made it need quotes. */
	int comma = p->fd >= 0 && p->flags != IOR_FLAGS_UNKNOWN;
	start = b.len;
	b.special = 0;
	b.quoting = comma;
	if (comma)
		put(&b, "\"", 1);
	put_file(&b, p, esc);
	if (comma)
		put(&b, "\"", 1);
	else if (b.special)
		quote_from(&b, start);
	put(&b, "\n", 1);
	return b.len;
}

void ior_csv_write_pair(FILE *out, const struct ior_event_pair *p, enum ior_escape esc)
{
	static char row[ROW_MAX];

	fwrite(row, 1, ior_csv_format_pair(row, p, esc), out);
}

struct flag_name {
	long long bit;
	const char *name;
};

/* O_SYNC and O_TMPFILE include another flag's bit; they come first so the
 * shared bit is consumed by the longer name. */
static const struct flag_name open_flags[] = {
	{ O_SYNC, "O_SYNC" },         { O_TMPFILE, "O_TMPFILE" },
	{ O_CREAT, "O_CREAT" },       { O_EXCL, "O_EXCL" },
	{ O_NOCTTY, "O_NOCTTY" },     { O_TRUNC, "O_TRUNC" },
	{ O_APPEND, "O_APPEND" },     { O_NONBLOCK, "O_NONBLOCK" },
	{ O_DSYNC, "O_DSYNC" },       { O_ASYNC, "O_ASYNC" },
	{ O_DIRECT, "O_DIRECT" },     { 0100000, "O_LARGEFILE" },
	{ O_DIRECTORY, "O_DIRECTORY" }, { O_NOFOLLOW, "O_NOFOLLOW" },
	{ O_NOATIME, "O_NOATIME" },   { O_CLOEXEC, "O_CLOEXEC" },
	{ O_PATH, "O_PATH" },
};

/* The kernel's access mode is the low two bits on every architecture.
 * musl's O_ACCMODE also holds O_PATH (as O_SEARCH): indexing a table with
 * it read out of bounds on every O_PATH open. */
#define KERNEL_ACCMODE 3LL

void ior_open_flags_str(char *buf, size_t len, long long flags)
{
	static const char *const acc[KERNEL_ACCMODE + 1] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
	struct buf b = { buf, 0, len ? len - 1 : 0, 0, 0 };
	long long rest = flags & ~KERNEL_ACCMODE;

	if (!len)
		return;
	puts_(&b, acc[flags & KERNEL_ACCMODE]);
	for (size_t i = 0; i < sizeof open_flags / sizeof *open_flags; i++) {
		if ((rest & open_flags[i].bit) != open_flags[i].bit)
			continue;
		put(&b, "|", 1);
		puts_(&b, open_flags[i].name);
		rest &= ~open_flags[i].bit;
	}
	if (rest) {
		char hex[24];
		snprintf(hex, sizeof hex, "|0x%llx", (unsigned long long)rest);
		puts_(&b, hex);
	}
	buf[b.len] = 0;
}
