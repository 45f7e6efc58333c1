/* Request-head parser: a bounded byte scan that only finds where the head
 * ends, then one validation pass over the buffered head. Keeping the two
 * apart keeps the incremental part trivial (any split point behaves like
 * no split) and the validation a plain function of a complete buffer. */
#include "http/parse.h"

#include <string.h>
#include <strings.h>

#define SKIP_EMPTY_LINES_MAX 8 /* CRLFs a client may send before a request */

struct span {
	const char *p;
	size_t n;
};

void ior_http_parser_init(struct ior_http_parser *p)
{
	p->len = 0;
	p->line_start = 0;
	p->in_headers = false;
	p->skipped = 0;
}

static void req_reset(struct ior_http_req *r)
{
	r->status = 0;
	r->method = IOR_HTTP_NONE;
	r->minor = 1;
	r->keep_alive = false;
	r->path[0] = '\0';
}

/* ---- character classes (RFC 9110 5.6.2, 3986 3.2.2) ------------------- */

static bool is_tchar(unsigned char c)
{
	if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return true;
	return c && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static bool is_host_char(unsigned char c)
{
	if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return true;
	return c && strchr("-._~!$&'()*+,;=:[]%", c) != NULL;
}

static bool is_field_vchar(unsigned char c)
{
	return c == '\t' || (c >= 0x20 && c != 0x7f);
}

static int hex_val(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool span_is(struct span s, const char *lit)
{
	size_t n = strlen(lit);
	return s.n == n && !memcmp(s.p, lit, n);
}

static bool span_is_ci(struct span s, const char *lit)
{
	size_t n = strlen(lit);
	return s.n == n && !strncasecmp(s.p, lit, n);
}

static struct span trim_ows(struct span s)
{
	while (s.n && (s.p[0] == ' ' || s.p[0] == '\t'))
		s.p++, s.n--;
	while (s.n && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t'))
		s.n--;
	return s;
}

/* ---- paths --------------------------------------------------------------- */

bool ior_http_path_ok(const char *path)
{
	if (!path || path[0] != '/')
		return false;
	if (!strcmp(path, "/"))
		return true;
	const char *seg = path + 1;
	for (;;) {
		size_t n = strcspn(seg, "/");
		if (n == 0 || (n == 1 && seg[0] == '.') || (n == 2 && !memcmp(seg, "..", 2)))
			return false;
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)seg[i];
			if (c < 0x20 || c == 0x7f || c == '\\')
				return false;
		}
		if (!seg[n])
			return true;
		seg += n + 1;
	}
}

int ior_http_path_decode(const char *raw, size_t rawlen, char *out, size_t outlen)
{
	size_t o = 0;
	if (!rawlen || raw[0] != '/')
		return 400;
	for (size_t i = 0; i < rawlen; i++) {
		unsigned char c = (unsigned char)raw[i];
		if (c <= 0x20 || c >= 0x7f)
			return 400;
		if (c == '%') {
			int hi = i + 2 < rawlen ? hex_val((unsigned char)raw[i + 1]) : -1;
			int lo = i + 2 < rawlen ? hex_val((unsigned char)raw[i + 2]) : -1;
			if (hi < 0 || lo < 0)
				return 400;
			c = (unsigned char)(hi << 4 | lo);
			i += 2;
			if (c < 0x20 || c == 0x7f)
				return 400;
			/* An encoded separator would let one segment pose as two. */
			if (c == '/' || c == '\\')
				return 404;
		}
		if (o + 1 >= outlen)
			return 414;
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return ior_http_path_ok(out) ? 0 : 404;
}

/* ---- the head ------------------------------------------------------------ */

/* Splits the next LF-terminated line off [*pos, n) without its CR LF.
 * Returns false for a CR anywhere but right before the LF (bare CR), and
 * for a missing LF. */
static bool next_line(const char *b, size_t n, size_t *pos, struct span *line)
{
	const char *start = b + *pos;
	const char *lf = *pos < n ? memchr(start, '\n', n - *pos) : NULL;
	if (!lf)
		return false; /* cannot happen on a head the scan completed */
	size_t len = (size_t)(lf - start);
	*pos += len + 1;
	if (len && start[len - 1] == '\r')
		len--;
	line->p = start;
	line->n = len;
	return memchr(start, '\r', len) == NULL;
}

static int parse_version(struct span v, struct ior_http_req *r)
{
	if (v.n != 8 || memcmp(v.p, "HTTP/", 5) || v.p[6] != '.' ||
	    v.p[5] < '0' || v.p[5] > '9' || v.p[7] < '0' || v.p[7] > '9')
		return 400;
	if (v.p[5] != '1')
		return 505;
	r->minor = v.p[7] == '0' ? 0 : 1;
	return 0;
}

struct head {
	struct span method, target;
	int hosts;
	bool conn_close, conn_keep_alive, has_body;
};

static int parse_request_line(struct span l, struct head *h, struct ior_http_req *r)
{
	const char *sp1 = memchr(l.p, ' ', l.n);
	if (!sp1 || sp1 == l.p)
		return 400;
	h->method = (struct span){ l.p, (size_t)(sp1 - l.p) };
	for (size_t i = 0; i < h->method.n; i++)
		if (!is_tchar((unsigned char)h->method.p[i]))
			return 400;
	const char *t = sp1 + 1, *end = l.p + l.n;
	const char *sp2 = memchr(t, ' ', (size_t)(end - t));
	if (!sp2 || sp2 == t)
		return 400;
	h->target = (struct span){ t, (size_t)(sp2 - t) };
	struct span version = { sp2 + 1, (size_t)(end - sp2 - 1) };
	if (memchr(version.p, ' ', version.n))
		return 400;
	if (span_is(h->method, "GET"))
		r->method = IOR_HTTP_GET;
	else if (span_is(h->method, "HEAD"))
		r->method = IOR_HTTP_HEAD;
	return parse_version(version, r);
}

static void parse_connection(struct span v, struct head *h)
{
	while (v.n) {
		const char *comma = memchr(v.p, ',', v.n);
		size_t n = comma ? (size_t)(comma - v.p) : v.n;
		struct span tok = trim_ows((struct span){ v.p, n });
		if (span_is_ci(tok, "close"))
			h->conn_close = true;
		else if (span_is_ci(tok, "keep-alive"))
			h->conn_keep_alive = true;
		v.p += n + (comma ? 1 : 0);
		v.n -= n + (comma ? 1 : 0);
	}
}

static int parse_content_length(struct span v, struct head *h)
{
	if (!v.n)
		return 400;
	for (size_t i = 0; i < v.n; i++) {
		if (v.p[i] < '0' || v.p[i] > '9')
			return 400;
		if (v.p[i] != '0')
			h->has_body = true;
	}
	return 0;
}

static int parse_field(struct span l, struct head *h)
{
	if (l.p[0] == ' ' || l.p[0] == '\t')
		return 400; /* obs-fold, or whitespace before the first field */
	const char *colon = memchr(l.p, ':', l.n);
	if (!colon || colon == l.p)
		return 400;
	struct span name = { l.p, (size_t)(colon - l.p) };
	for (size_t i = 0; i < name.n; i++)
		if (!is_tchar((unsigned char)name.p[i]))
			return 400;
	struct span v = { colon + 1, (size_t)(l.p + l.n - colon - 1) };
	for (size_t i = 0; i < v.n; i++)
		if (!is_field_vchar((unsigned char)v.p[i]))
			return 400;
	v = trim_ows(v);
	if (span_is_ci(name, "host")) {
		h->hosts++;
		for (size_t i = 0; i < v.n; i++)
			if (!is_host_char((unsigned char)v.p[i]))
				return 400;
	} else if (span_is_ci(name, "connection")) {
		parse_connection(v, h);
	} else if (span_is_ci(name, "content-length")) {
		return parse_content_length(v, h);
	} else if (span_is_ci(name, "transfer-encoding")) {
		h->has_body = true;
	}
	return 0;
}

static int parse_fields(const char *b, size_t n, size_t pos, struct head *h)
{
	int fields = 0;
	struct span l;
	for (;;) {
		if (!next_line(b, n, &pos, &l))
			return 400;
		if (!l.n)
			return 0;
		if (++fields > IOR_HTTP_HEADERS_MAX)
			return 431;
		int st = parse_field(l, h);
		if (st)
			return st;
	}
}

/* absolute-form "http://authority[/path][?query]" → its path part. */
static int strip_authority(struct span *t)
{
	if (t->n < 7 || strncasecmp(t->p, "http://", 7))
		return 400;
	size_t i = 7;
	while (i < t->n && t->p[i] != '/' && t->p[i] != '?')
		if (!is_host_char((unsigned char)t->p[i++]))
			return 400; /* also refuses userinfo ('@') */
	if (i == 7)
		return 400;
	t->p += i;
	t->n -= i;
	return 0;
}

static int parse_target(struct span t, struct ior_http_req *r)
{
	for (size_t i = 0; i < t.n; i++) {
		unsigned char c = (unsigned char)t.p[i];
		if (c <= 0x20 || c >= 0x7f || c == '#')
			return 400;
	}
	if (t.p[0] != '/') {
		int st = strip_authority(&t);
		if (st)
			return st;
	}
	const char *q = memchr(t.p, '?', t.n);
	if (q)
		t.n = (size_t)(q - t.p);
	if (!t.n) {
		strcpy(r->path, "/");
		return 0;
	}
	int st = ior_http_path_decode(t.p, t.n, r->path, sizeof r->path);
	if (st)
		r->path[0] = '\0';
	return st;
}

/* Precedence: request-line syntax, version, field syntax, Host, method,
 * body framing, target. A POST with a body thus gets 405, not 400. */
static int parse_head(const char *b, size_t n, struct ior_http_req *r)
{
	struct head h = { 0 };
	struct span l;
	size_t pos = 0;
	if (memchr(b, '\0', n))
		return 400;
	if (!next_line(b, n, &pos, &l))
		return 400;
	int st = parse_request_line(l, &h, r);
	if (!st)
		st = parse_fields(b, n, pos, &h);
	if (st)
		return st;
	r->keep_alive = r->minor ? !h.conn_close : h.conn_keep_alive && !h.conn_close;
	if (h.hosts > 1 || (r->minor && h.hosts != 1))
		return 400;
	if (r->method == IOR_HTTP_NONE)
		return 405;
	if (h.has_body)
		return 400;
	return parse_target(h.target, r);
}

/* ---- the incremental scan ------------------------------------------------ */

static int finish(struct ior_http_parser *p, struct ior_http_req *r, int status)
{
	if (!status)
		status = parse_head(p->buf, p->len, r);
	r->status = status;
	if (status)
		r->path[0] = '\0';
	ior_http_parser_init(p);
	return 1;
}

/* Handles the LF just stored at buf[len-1]. Returns 1 when the head is
 * complete, 0 to go on, or an error status. */
static int end_of_line(struct ior_http_parser *p)
{
	size_t l = p->len - 1 - p->line_start;
	bool empty = l == 0 || (l == 1 && p->buf[p->len - 2] == '\r');
	if (!p->in_headers) {
		if (empty) {
			if (++p->skipped > SKIP_EMPTY_LINES_MAX)
				return 400;
			p->len = 0;
			return 0;
		}
		p->in_headers = true;
	} else if (empty) {
		return 1;
	}
	p->line_start = p->len;
	return 0;
}

int ior_http_parse(struct ior_http_parser *p, const void *data, size_t len,
		   size_t *used, struct ior_http_req *req)
{
	const unsigned char *d = data;
	req_reset(req);
	for (size_t i = 0; i < len; i++) {
		if (p->len == sizeof p->buf) {
			*used = i;
			return finish(p, req, p->in_headers ? 431 : 414);
		}
		p->buf[p->len++] = (char)d[i];
		if (!p->in_headers && p->len > IOR_HTTP_LINE_MAX) {
			*used = i + 1;
			return finish(p, req, 414);
		}
		if (d[i] != '\n')
			continue;
		int st = end_of_line(p);
		if (st) {
			*used = i + 1;
			return finish(p, req, st == 1 ? 0 : st);
		}
	}
	*used = len;
	return 0;
}
