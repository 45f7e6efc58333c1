/* -plain CSV rows. A row is built in one buffer and written with a single
 * fwrite, so a row is never interleaved and stdio does the batching; or
 * formatted into the caller's buffer (ior_csv_format_pair), which batches
 * rows itself. Called from the single consumer thread only (the row buffer
 * and the flags cache are static). The pieces of a row are a few bytes:
 * they are copied with 8-byte moves, not memcpy (musl's starts with rep
 * movs, a few dozen cycles), and strings are measured while escaped. */
#include "csv/csv.h"
#include "syscalls/open_flags.h"
#include "syscalls/syscalls.h"
#include "text/buf.h"
#include "text/escape.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define PATH_FIELD_MAX 4096 /* longest path a pair carries (PATH_MAX) */
#define IOR_CSV_COMM_MAX 16
#define ROW_MAX IOR_CSV_ROW_MAX
_Static_assert(IOR_CSV_ROW_MAX >= 2 * 4 * (IOR_CSV_COMM_MAX + 2 * PATH_FIELD_MAX) + 256,
	       "a row's worst case fits");

void ior_csv_write_header(FILE *out)
{
	ior_csv_write_header_with(out, NULL);
}

/* RFC 4180: a field holding a comma, quote, CR or LF is quoted, quotes
 * doubled. The field was written at b->p[start..b->len) unquoted; quoting
 * it (rare: a name with such a byte) shifts it in place. */
static void quote_from(struct ior_text_buf *b, size_t start)
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

/* A comm or path the pairing stage named by id (comm_id, path_id: equal
 * ids, equal strings) as it was last escaped: rows mostly repeat the
 * few their threads use, so their bytes are escaped once and copied
 * after. Eight slots by id, for threads that take turns. */
#define ESCAPED_SLOTS 8

struct escaped {
	uint64_t id; /* 0: holds nothing */
	int esc, quoting, special;
	size_t len;
	char s[256];
};

/* s escaped into b, from the cache when it holds id in the same mode. */
static void put_escaped_id(struct ior_text_buf *b, struct escaped cache[ESCAPED_SLOTS], uint64_t id, const char *s,
			   size_t max, enum ior_escape esc)
{
	struct escaped *c = &cache[id % ESCAPED_SLOTS];

	if (id && c->id == id && c->esc == (int)esc && c->quoting == b->quoting) {
		ior_text_put(b, c->s, c->len);
		b->special |= c->special;
		return;
	}
	size_t start = b->len;
	int special = b->special;

	b->special = 0;
	ior_escape_put(b, s, max, 1, esc);
	c->id = 0;
	if (id && b->len - start <= sizeof c->s && b->len < b->cap) { /* whole: not cut at the row's end */
		c->id = id;
		c->esc = (int)esc;
		c->quoting = b->quoting;
		c->special = b->special;
		c->len = b->len - start;
		memcpy(c->s, b->p + start, c->len);
	}
	b->special |= special;
}

/* The file column before quoting: path%(fd,FLAGS), old=>new, or path. */
static void put_file(struct ior_text_buf *f, const struct ior_event_pair *p, enum ior_escape esc)
{
	static struct escaped path[ESCAPED_SLOTS];

	put_escaped_id(f, path, p->path_id, p->path, PATH_FIELD_MAX, esc);
	if (p->path2 && p->path2[0]) {
		ior_text_put(f, "=>", 2);
		ior_escape_put(f, p->path2, PATH_FIELD_MAX, 1, esc);
	}
	if (p->fd < 0)
		return;
	ior_text_put(f, "%(", 2);
	ior_text_put_i64(f, p->fd);
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
		ior_text_put(f, ",", 1);
		ior_text_put(f, str, len);
	}
	ior_text_put(f, ")", 1);
}

/* The syscall's name and its length, measured once. */
static const char *sys_name(uint16_t sys, size_t *len)
{
	static uint8_t lens[1024]; /* length + 1; 0: not measured yet */

	const char *name = ior_sys(sys)->name;

	if (sys >= ior_sys_count() || sys >= sizeof lens) { /* "?" may be defined later */
		*len = strlen(name);
		return name;
	}
	if (!lens[sys]) /* an escaped name from a recording may be longer: not kept */
		lens[sys] = (uint8_t)(strnlen(name, 255) + 1);
	if (lens[sys] == 0xff) {
		*len = strlen(name);
		return name;
	}
	*len = lens[sys] - 1u;
	return name;
}

/* An escaped string field at o, quoted when it needs it; returns its end. */
static char *put_field(char *o, char *row, struct escaped c[ESCAPED_SLOTS], uint64_t id, const char *s, size_t max,
		       enum ior_escape esc)
{
	struct ior_text_buf b = { o, 0, IOR_CSV_ROW_MAX - (size_t)(o - row), 0, 0 };

	put_escaped_id(&b, c, id, s, max, esc);
	if (b.special)
		quote_from(&b, 0);
	return o + b.len;
}

/* The numbers and separators go through a cursor without bounds checks:
 * the static assert above says the worst row fits, and a number takes at
 * most 20 bytes of the 256 it has. */
size_t ior_csv_format_pair(char *row, const struct ior_event_pair *p, enum ior_escape esc)
{
	size_t name_len;
	const char *name = sys_name(p->sys, &name_len);
	char *o = row;

	o = ior_text_u64_at(o, p->gap_ns);
	*o++ = ',';
	o = ior_text_u64_at(o, p->duration_ns);
	*o++ = ',';
	static struct escaped comm[ESCAPED_SLOTS];
	o = put_field(o, row, comm, p->comm_id, p->comm, IOR_CSV_COMM_MAX, esc);
	*o++ = ',';
	o = ior_text_u64_at(o, p->pid);
	*o++ = '.';
	o = ior_text_u64_at(o, p->tid);
	*o++ = ',';
	struct ior_text_buf b = { o, 0, IOR_CSV_ROW_MAX - (size_t)(o - row), 0, 0 };
	ior_text_put(&b, name, name_len);
	if (p->sys >= ior_nsyscalls) /* a recording's name: a hostile one may hold a comma */
		quote_from(&b, 0);
	o += b.len;
	*o++ = ',';
	if (p->ret < 0)
		*o++ = '-';
	o = ior_text_u64_at(o, p->ret < 0 ? (uint64_t)0 - (uint64_t)p->ret : (uint64_t)p->ret);
	*o++ = ',';
	/* With flags the file column holds a comma: quoted as it is written.
	 * Else quoted afterwards, when a name made it need quotes. */
	int comma = p->fd >= 0 && p->flags != IOR_FLAGS_UNKNOWN;
	b = (struct ior_text_buf){ o, 0, IOR_CSV_ROW_MAX - (size_t)(o - row), comma, 0 };
	if (comma)
		ior_text_put(&b, "\"", 1);
	put_file(&b, p, esc);
	if (comma)
		ior_text_put(&b, "\"", 1);
	else if (b.special)
		quote_from(&b, 0);
	o += b.len;
	*o++ = '\n';
	return (size_t)(o - row);
}

static const struct {
	const char *name, *header;
} extras[IOR_CSV_NEXTRA] = {
	[IOR_CSV_WHERE] = { "where", "where" },
	[IOR_CSV_DEVICE] = { "device", "deviceNs,requests,deviceBytes" },
	[IOR_CSV_CACHE] = { "cache", "cachePages" },
};

int ior_csv_columns_has(const struct ior_csv_columns *c, enum ior_csv_extra x)
{
	for (unsigned i = 0; c && i < c->n; i++)
		if (c->col[i] == x)
			return 1;
	return 0;
}

/* The column named s[0..n), or -1. */
static int extra_of(const char *s, size_t n)
{
	for (int i = 0; i < IOR_CSV_NEXTRA; i++)
		if (strlen(extras[i].name) == n && !memcmp(extras[i].name, s, n))
			return i;
	return -1;
}

int ior_csv_columns_parse(const char *list, struct ior_csv_columns *c, char *err, size_t errlen)
{
	const char *s = list ? list : "";

	memset(c, 0, sizeof *c);
	while (*s) {
		size_t n = strcspn(s, ",");
		int x = extra_of(s, n);
		if (x < 0 || ior_csv_columns_has(c, (enum ior_csv_extra)x)) {
			snprintf(err, errlen, "%s column '%.*s' (known: where, device, cache; each once)",
				 x < 0 ? "no" : "a second", (int)(n > 64 ? 64 : n), s);
			return -EINVAL;
		}
		c->col[c->n++] = (unsigned char)x;
		s += n + (s[n] == ',');
	}
	return 0;
}

void ior_csv_write_header_with(FILE *out, const struct ior_csv_columns *c)
{
	fputs("durationToPrevNs,durationNs,comm,pid.tid,name,ret,file", out);
	for (unsigned i = 0; c && i < c->n; i++) {
		fputc(',', out);
		fputs(extras[c->col[i]].header, out);
	}
	fputc('\n', out);
}

static void put_extra(struct ior_text_buf *b, const struct ior_event_pair *p, enum ior_csv_extra x)
{
	const char *where;

	switch (x) {
	case IOR_CSV_WHERE: /* names of ior's own: nothing to escape or quote */
		if ((where = ior_pair_where_name(p->where)))
			ior_text_put(b, where, strlen(where));
		return;
	case IOR_CSV_DEVICE:
		ior_text_put_u64(b, p->device_ns);
		ior_text_put(b, ",", 1);
		ior_text_put_u64(b, p->blk_requests);
		ior_text_put(b, ",", 1);
		ior_text_put_u64(b, p->blk_bytes);
		return;
	default:
		ior_text_put_u64(b, p->cache_pages);
	}
}

size_t ior_csv_add_columns(char *row, size_t len, const struct ior_event_pair *p, const struct ior_csv_columns *c)
{
	struct ior_text_buf b = { row, len ? len - 1 : 0, IOR_CSV_ROW_MAX, 0, 0 };

	for (unsigned i = 0; c && i < c->n; i++) {
		ior_text_put(&b, ",", 1);
		put_extra(&b, p, (enum ior_csv_extra)c->col[i]);
	}
	ior_text_put(&b, "\n", 1);
	return b.len;
}

void ior_csv_write_pair(FILE *out, const struct ior_event_pair *p, enum ior_escape esc)
{
	static char row[ROW_MAX];

	fwrite(row, 1, ior_csv_format_pair(row, p, esc), out);
}

