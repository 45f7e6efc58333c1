/* HTTP request parser: PASS/FAIL tables fed whole, split at every byte
 * offset, byte by byte and pipelined; the path encoder against the
 * decoder. */
#include "http/http.h"
#include "http/parse.h"
#include "t.h"

#include <errno.h>
#include <stdlib.h>

struct want {
	const char *req;
	int status;
	int method;     /* checked when status is 0 or 405 */
	const char *path; /* checked when status is 0 */
	int keep_alive; /* -1: do not check */
	size_t len;     /* 0: strlen(req); set for requests holding NUL */
};

#define G IOR_HTTP_GET
#define H IOR_HTTP_HEAD

static const struct want cases[] = {
	/* good */
	{ "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 0, G, "/", 1, 0 },
	{ "GET /a.svg HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", 0, G, "/a.svg", 1, 0 },
	{ "HEAD /a.svg HTTP/1.1\r\nHost: x\r\n\r\n", 0, H, "/a.svg", 1, 0 },
	{ "GET /a.svg HTTP/1.0\r\n\r\n", 0, G, "/a.svg", 0, 0 },
	{ "GET /a.svg HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", 0, G, "/a.svg", 1, 0 },
	{ "GET /a.svg HTTP/1.0\r\nConnection: Keep-Alive, close\r\n\r\n", 0, G, "/a.svg", 0, 0 },
	{ "GET /a.svg HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 0, G, "/a.svg", 0, 0 },
	{ "GET /a.svg HTTP/1.1\r\nHost: x\r\nConnection: foo,  CLOSE \r\n\r\n", 0, G, "/a.svg", 0, 0 },
	{ "GET /a.svg HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n", 0, G, "/a.svg", 1, 0 },
	{ "GET /a.svg HTTP/1.9\r\nHost: x\r\n\r\n", 0, G, "/a.svg", 1, 0 },
	{ "GET /a.svg?t=123&x=/../ HTTP/1.1\r\nHost: x\r\n\r\n", 0, G, "/a.svg", 1, 0 },
	{ "GET /my%20file.svg HTTP/1.1\r\nHost: x\r\n\r\n", 0, G, "/my file.svg", 1, 0 },
	{ "GET /%41%62c HTTP/1.1\r\nHost: x\r\n\r\n", 0, G, "/Abc", 1, 0 },
	{ "GET /caf%C3%A9 HTTP/1.1\r\nHost: x\r\n\r\n", 0, G, "/caf\xc3\xa9", 1, 0 },
	{ "GET /a..b/.x HTTP/1.1\r\nHost: x\r\n\r\n", 0, G, "/a..b/.x", 1, 0 },
	{ "GET http://127.0.0.1:8080/a.svg HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", 0, G, "/a.svg", 1, 0 },
	{ "GET HTTP://h HTTP/1.1\r\nHost: h\r\n\r\n", 0, G, "/", 1, 0 },
	{ "GET http://h?q HTTP/1.0\r\n\r\n", 0, G, "/", 0, 0 },
	{ "GET /a HTTP/1.1\nHost: x\n\n", 0, G, "/a", 1, 0 },          /* bare LF lines */
	{ "\r\n\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\n", 0, G, "/a", 1, 0 }, /* leading CRLFs */
	{ "GET /a HTTP/1.1\r\nHost: x\r\nX-Empty:\r\nX-Tab:\tv\t\r\n\r\n", 0, G, "/a", 1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 0, G, "/a", 1, 0 },
	{ "GET /a HTTP/1.1\r\nHost:\r\n\r\n", 0, G, "/a", 1, 0 },
	{ "GET /a HTTP/1.1\r\nhOsT: x\r\nX-Obs: caf\xc3\xa9\r\n\r\n", 0, G, "/a", 1, 0 },
	/* request line */
	{ "GET /a\r\n\r\n", 400, 0, NULL, -1, 0 },                      /* HTTP/0.9 */
	{ "GET  /a HTTP/1.1\r\nHost: x\r\n\r\n", 400, 0, NULL, -1, 0 },
	{ "GET /a  HTTP/1.1\r\nHost: x\r\n\r\n", 400, 0, NULL, -1, 0 },
	{ "GET /a HTTP/1.1 \r\nHost: x\r\n\r\n", 400, 0, NULL, -1, 0 },
	{ " GET /a HTTP/1.1\r\nHost: x\r\n\r\n", 400, 0, NULL, -1, 0 },
	{ "GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", 400, 0, NULL, -1, 0 },
	{ "GET /a http/1.1\r\nHost: x\r\n\r\n", 400, 0, NULL, -1, 0 },
	{ "GET /a HTTP/1.10\r\nHost: x\r\n\r\n", 400, 0, NULL, -1, 0 },
	{ "GET /a HTTP/11\r\nHost: x\r\n\r\n", 400, 0, NULL, -1, 0 },
	{ "G(T /a HTTP/1.1\r\nHost: x\r\n\r\n", 400, 0, NULL, -1, 0 },
	{ "GET /a HTTP/2.0\r\nHost: x\r\n\r\n", 505, 0, NULL, -1, 0 },
	{ "GET /a HTTP/0.9\r\nHost: x\r\n\r\n", 505, 0, NULL, -1, 0 },
	/* methods */
	{ "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n", 405, 0, NULL, -1, 0 },
	{ "get /a HTTP/1.1\r\nHost: x\r\n\r\n", 405, 0, NULL, -1, 0 },
	{ "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", 405, 0, NULL, -1, 0 },
	{ "CONNECT h:443 HTTP/1.1\r\nHost: h:443\r\n\r\n", 405, 0, NULL, -1, 0 },
	{ "DELETE /a HTTP/1.1\r\nHost: x\r\n\r\n", 405, 0, NULL, -1, 0 },
	/* headers */
	{ "GET /a HTTP/1.1\r\n\r\n", 400, G, NULL, -1, 0 },                 /* no Host */
	{ "GET /a HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.0\r\nHost: x\r\nHost: x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: a b\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: a/b\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n continued\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n\tcontinued\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\n Host: x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost : x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\r\n: v\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\rX: y\r\n\r\n", 400, G, NULL, -1, 0 },   /* bare CR */
	{ "GET /a HTTP/1.1\rHost: x\r\n\r\n", 400, 0, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\r\nX: a\x01" "b\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\r\nX: a\x7f\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 00\r\n\r\n", 0, G, "/a", 1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0, 0\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "HEAD /a HTTP/1.1\r\nHost: x\r\ntransfer-encoding: identity\r\n\r\n", 400, H, NULL, -1, 0 },
	/* targets */
	{ "GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", 404, G, NULL, -1, 0 },
	{ "GET /a/../b HTTP/1.1\r\nHost: x\r\n\r\n", 404, G, NULL, -1, 0 },
	{ "GET /%2e%2e/%2E%2E/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", 404, G, NULL, -1, 0 },
	{ "GET /.%2e/x HTTP/1.1\r\nHost: x\r\n\r\n", 404, G, NULL, -1, 0 },
	{ "GET /./a HTTP/1.1\r\nHost: x\r\n\r\n", 404, G, NULL, -1, 0 },
	{ "GET /a/. HTTP/1.1\r\nHost: x\r\n\r\n", 404, G, NULL, -1, 0 },
	{ "GET /a%2f..%2fb HTTP/1.1\r\nHost: x\r\n\r\n", 404, G, NULL, -1, 0 },
	{ "GET /a%5c..%5cb HTTP/1.1\r\nHost: x\r\n\r\n", 404, G, NULL, -1, 0 },
	{ "GET /a\\b HTTP/1.1\r\nHost: x\r\n\r\n", 404, G, NULL, -1, 0 },
	{ "GET //etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", 404, G, NULL, -1, 0 },
	{ "GET /a/ HTTP/1.1\r\nHost: x\r\n\r\n", 404, G, NULL, -1, 0 },
	{ "GET /a%00b HTTP/1.1\r\nHost: x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a%0ab HTTP/1.1\r\nHost: x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a% HTTP/1.1\r\nHost: x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a%4 HTTP/1.1\r\nHost: x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /a#frag HTTP/1.1\r\nHost: x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET /caf\xc3\xa9 HTTP/1.1\r\nHost: x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET a.svg HTTP/1.1\r\nHost: x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET * HTTP/1.1\r\nHost: x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET h:80 HTTP/1.1\r\nHost: x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET https://h/a HTTP/1.1\r\nHost: h\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET file:///etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET http:///etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET http://u@h/a HTTP/1.1\r\nHost: h\r\n\r\n", 400, G, NULL, -1, 0 },
	{ "GET http://h/../a HTTP/1.1\r\nHost: h\r\n\r\n", 404, G, NULL, -1, 0 },
	/* NUL anywhere */
#define NUL_REQ "GET /a HTTP/1.1\r\nHost: x\r\nX: \0\r\n\r\n"
	{ NUL_REQ, 400, 0, NULL, -1, sizeof NUL_REQ - 1 },
};

static size_t case_len(const struct want *w)
{
	return w->len ? w->len : strlen(w->req);
}

static int feed_whole(const char *s, size_t n, struct ior_http_req *r, size_t *used)
{
	static struct ior_http_parser p;
	ior_http_parser_init(&p);
	return ior_http_parse(&p, s, n, used, r);
}

/* Feeds s split at cut (two calls); returns total bytes consumed, or 0 when
 * no head completed. */
static size_t feed_split(const char *s, size_t n, size_t cut, struct ior_http_req *r)
{
	static struct ior_http_parser p;
	size_t u1 = 0, u2 = 0;
	ior_http_parser_init(&p);
	if (ior_http_parse(&p, s, cut, &u1, r))
		return u1;
	if (u1 != cut)
		return 0;
	if (!ior_http_parse(&p, s + cut, n - cut, &u2, r))
		return 0;
	return cut + u2;
}

static size_t feed_bytes(const char *s, size_t n, struct ior_http_req *r)
{
	static struct ior_http_parser p;
	ior_http_parser_init(&p);
	for (size_t i = 0; i < n; i++) {
		size_t u;
		if (ior_http_parse(&p, s + i, 1, &u, r))
			return i + u;
	}
	return 0;
}

static bool matches(const struct want *w, const struct ior_http_req *r)
{
	if (r->status != w->status)
		return false;
	if ((w->status == 0 || w->method) && (int)r->method != w->method)
		return false;
	if (w->status == 0 && strcmp(r->path, w->path))
		return false;
	if (w->status != 0 && r->path[0])
		return false;
	if (w->keep_alive >= 0 && r->keep_alive != (bool)w->keep_alive)
		return false;
	return true;
}

TEST(table_whole)
{
	static struct ior_http_req r;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct want *w = &cases[i];
		size_t n = case_len(w), used = 0;
		int done = feed_whole(w->req, n, &r, &used);
		if (!done || used != n || !matches(w, &r))
			T_FAIL("case %zu: done=%d used=%zu/%zu status=%d want %d method=%d path='%s' ka=%d",
			       i, done, used, n, r.status, w->status, r.method, r.path, r.keep_alive);
	}
}

TEST(table_split_everywhere)
{
	static struct ior_http_req r;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct want *w = &cases[i];
		size_t n = case_len(w);
		for (size_t cut = 0; cut <= n; cut++) {
			size_t used = feed_split(w->req, n, cut, &r);
			if (used != n || !matches(w, &r)) {
				T_FAIL("case %zu cut %zu: used=%zu status=%d want %d", i, cut, used,
				       r.status, w->status);
				break;
			}
		}
		size_t used = feed_bytes(w->req, n, &r);
		if (used != n || !matches(w, &r))
			T_FAIL("case %zu byte by byte: used=%zu status=%d", i, used, r.status);
	}
}

TEST(incomplete_needs_more)
{
	static struct ior_http_parser p;
	static struct ior_http_req r;
	const char *s = "GET /a HTTP/1.1\r\nHost: x\r\n";
	size_t used = 99;
	ior_http_parser_init(&p);
	CHECK_EQ_INT(ior_http_parse(&p, s, strlen(s), &used, &r), 0);
	CHECK_EQ_INT(used, strlen(s));
	CHECK_EQ_INT(ior_http_parse(&p, "\r", 1, &used, &r), 0);
	CHECK_EQ_INT(ior_http_parse(&p, "\n", 1, &used, &r), 1);
	CHECK_EQ_INT(r.status, 0);
	CHECK_EQ_STR(r.path, "/a");
}

TEST(pipelined_in_order)
{
	static struct ior_http_parser p;
	static struct ior_http_req r;
	const char *s = "GET /one HTTP/1.1\r\nHost: x\r\n\r\n"
			"HEAD /two HTTP/1.1\r\nHost: x\r\n\r\n"
			"GET /three HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
			"GET /fou";
	const char *want[] = { "/one", "/two", "/three" };
	size_t off = 0, n = strlen(s), used;
	ior_http_parser_init(&p);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ_INT(ior_http_parse(&p, s + off, n - off, &used, &r), 1);
		CHECK_EQ_INT(r.status, 0);
		CHECK_EQ_STR(r.path, want[i]);
		CHECK_EQ_INT(r.method, i == 1 ? IOR_HTTP_HEAD : IOR_HTTP_GET);
		CHECK_EQ_INT(r.keep_alive, i != 2);
		off += used;
	}
	CHECK_EQ_INT(ior_http_parse(&p, s + off, n - off, &used, &r), 0);
	CHECK_EQ_INT(used, strlen("GET /fou"));
	CHECK_EQ_INT(ior_http_parse(&p, "r HTTP/1.0\r\n\r\n", 15, &used, &r), 1);
	CHECK_EQ_STR(r.path, "/four");
	CHECK_EQ_INT(r.keep_alive, 0);
}

static char *repeat(const char *head, char c, size_t n, const char *tail)
{
	size_t hl = strlen(head), tl = strlen(tail);
	char *s = malloc(hl + n + tl + 1);
	memcpy(s, head, hl);
	memset(s + hl, c, n);
	memcpy(s + hl + n, tail, tl + 1);
	return s;
}

TEST(request_line_too_long)
{
	static struct ior_http_req r;
	char *s = repeat("GET /", 'a', IOR_HTTP_LINE_MAX, " HTTP/1.1\r\nHost: x\r\n\r\n");
	size_t used;
	CHECK_EQ_INT(feed_whole(s, strlen(s), &r, &used), 1);
	CHECK_EQ_INT(r.status, 414);
	CHECK(used <= IOR_HTTP_LINE_MAX + 1);
	CHECK_EQ_INT(feed_bytes(s, strlen(s), &r), IOR_HTTP_LINE_MAX + 1);
	CHECK_EQ_INT(r.status, 414);
	free(s);
	/* fits the line but not the decoded path buffer */
	s = repeat("GET /", 'a', IOR_HTTP_PATH_MAX, " HTTP/1.1\r\nHost: x\r\n\r\n");
	CHECK_EQ_INT(feed_whole(s, strlen(s), &r, &used), 1);
	CHECK_EQ_INT(r.status, 414);
	free(s);
	/* the longest accepted line */
	size_t fixed = strlen("GET /") + strlen(" HTTP/1.1\r\n");
	s = repeat("GET /", 'a', IOR_HTTP_LINE_MAX - fixed, " HTTP/1.1\r\nHost: x\r\n\r\n");
	CHECK_EQ_INT(feed_whole(s, strlen(s), &r, &used), 1);
	CHECK_EQ_INT(r.status, 414); /* line fine, path longer than IOR_HTTP_PATH_MAX */
	free(s);
}

TEST(head_too_large)
{
	static struct ior_http_req r;
	char *s = repeat("GET / HTTP/1.1\r\nHost: x\r\nX-Big: ", 'b', 64 * 1024, "\r\n\r\n");
	size_t used;
	CHECK_EQ_INT(feed_whole(s, strlen(s), &r, &used), 1);
	CHECK_EQ_INT(r.status, 431);
	CHECK_EQ_INT(used, IOR_HTTP_HEAD_MAX);
	CHECK_EQ_INT(feed_bytes(s, strlen(s), &r), IOR_HTTP_HEAD_MAX);
	CHECK_EQ_INT(r.status, 431);
	free(s);
	/* exactly IOR_HTTP_HEAD_MAX bytes is accepted */
	const char *pre = "GET / HTTP/1.1\r\nHost: x\r\nX-Big: ";
	s = repeat(pre, 'b', IOR_HTTP_HEAD_MAX - strlen(pre) - 4, "\r\n\r\n");
	CHECK_EQ_INT(strlen(s), IOR_HTTP_HEAD_MAX);
	CHECK_EQ_INT(feed_whole(s, strlen(s), &r, &used), 1);
	CHECK_EQ_INT(r.status, 0);
	CHECK_EQ_INT(used, IOR_HTTP_HEAD_MAX);
	free(s);
}

TEST(too_many_fields)
{
	static struct ior_http_req r;
	static char s[8192];
	size_t n = (size_t)snprintf(s, sizeof s, "GET / HTTP/1.1\r\nHost: x\r\n");
	for (int i = 0; i < IOR_HTTP_HEADERS_MAX; i++)
		n += (size_t)snprintf(s + n, sizeof s - n, "X-%d: v\r\n", i);
	n += (size_t)snprintf(s + n, sizeof s - n, "\r\n");
	size_t used;
	CHECK_EQ_INT(feed_whole(s, n, &r, &used), 1);
	CHECK_EQ_INT(r.status, 431);
}

TEST(endless_empty_lines)
{
	static struct ior_http_req r;
	char *s = repeat("", '\n', 100, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
	size_t used;
	CHECK_EQ_INT(feed_whole(s, strlen(s), &r, &used), 1);
	CHECK_EQ_INT(r.status, 400);
	free(s);
}

TEST(path_ok)
{
	CHECK(ior_http_path_ok("/"));
	CHECK(ior_http_path_ok("/a.svg"));
	CHECK(ior_http_path_ok("/a b/c.svg"));
	CHECK(!ior_http_path_ok(""));
	CHECK(!ior_http_path_ok("a.svg"));
	CHECK(!ior_http_path_ok("//a"));
	CHECK(!ior_http_path_ok("/a/"));
	CHECK(!ior_http_path_ok("/./a"));
	CHECK(!ior_http_path_ok("/a/.."));
	CHECK(!ior_http_path_ok("/a\\b"));
	CHECK(!ior_http_path_ok("/a\nb"));
	CHECK(!ior_http_path_ok(NULL));
}

TEST(path_decode_bounds)
{
	char out[4];
	CHECK_EQ_INT(ior_http_path_decode("/ab", 3, out, sizeof out), 0);
	CHECK_EQ_STR(out, "/ab");
	CHECK_EQ_INT(ior_http_path_decode("/abc", 4, out, sizeof out), 414);
	CHECK_EQ_INT(ior_http_path_decode("/%41", 4, out, sizeof out), 0);
	CHECK_EQ_STR(out, "/A");
	/* a '%' at the very end must not read past rawlen */
	CHECK_EQ_INT(ior_http_path_decode("/a%41", 3, out, sizeof out), 400);
	CHECK_EQ_INT(ior_http_path_decode("", 0, out, sizeof out), 400);
}

TEST(path_encode)
{
	char out[64], back[64];
	CHECK_EQ_INT(ior_http_path_encode("/my trace\".svg", out, sizeof out), 18);
	CHECK_EQ_STR(out, "/my%20trace%22.svg");
	/* what names our files stays readable: times, -fields lists, '~' */
	CHECK_EQ_INT(ior_http_path_encode("/h-db-2024-01-02_03:04:05.comm:path-by-bytes.svg", out,
					  sizeof out), 48);
	CHECK_EQ_STR(out, "/h-db-2024-01-02_03:04:05.comm:path-by-bytes.svg");
	CHECK_EQ_INT(ior_http_path_encode("/a?b#c%d&e+f\xc3\xa9", out, sizeof out), 28);
	CHECK_EQ_STR(out, "/a%3Fb%23c%25d%26e%2Bf%C3%A9");
	/* the decoder reads back what the encoder wrote */
	const char *paths[] = { "/x.svg", "/a b/c%d", "/\x01\x7f\xff", "/@:~" };
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		int n = ior_http_path_encode(paths[i], out, sizeof out);
		CHECK(n > 0);
		int st = ior_http_path_decode(out, (size_t)n, back, sizeof back);
		/* a control byte is encodable but no route may hold it */
		if (ior_http_path_ok(paths[i])) {
			CHECK_EQ_INT(st, 0);
			CHECK_EQ_STR(back, paths[i]);
		} else {
			CHECK_EQ_INT(st, 400);
		}
	}
	/* too small: an error, and a NUL-terminated prefix of whole characters */
	CHECK_EQ_INT(ior_http_path_encode("/a b", out, 4), -ENAMETOOLONG);
	CHECK_EQ_STR(out, "/a");
	CHECK_EQ_INT(ior_http_path_encode("/ab", out, 4), 3);
	CHECK_EQ_INT(ior_http_path_encode("/ab", out, 3), -ENAMETOOLONG);
	CHECK_EQ_STR(out, "/a");
	CHECK_EQ_INT(ior_http_path_encode("/", out, 0), -ENAMETOOLONG);
}

int main(void)
{
	RUN(table_whole);
	RUN(table_split_everywhere);
	RUN(incomplete_needs_more);
	RUN(pipelined_in_order);
	RUN(request_line_too_long);
	RUN(head_too_large);
	RUN(too_many_fields);
	RUN(endless_empty_lines);
	RUN(path_ok);
	RUN(path_decode_bounds);
	RUN(path_encode);
	return t_done();
}
