/* HTTP server, in process: the server listens on 127.0.0.1:0 and the test
 * talks to it over loopback with non-blocking sockets, calling
 * ior_http_poll between its own steps. Every wait is bounded. The test
 * reads the server's insides (http/internal.h) to count connections and
 * to shorten deadlines, which the product has no need to do. */
#include "http/internal.h"
#include "t.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* The tests' requests carry this token: open_and_url puts it in place of
 * the random one, after checking that one. */
#define TOK "0123456789abcdef0123456789abcdef"
#define P "/" TOK

#define SVG "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"1\" height=\"1\"/></svg>\n"

static struct ior_http *srv;
static int port;

static long long ms_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int connect_client(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	/* loopback connects complete from the backlog, before accept */
	if (connect(fd, (struct sockaddr *)&a, sizeof a) && errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Sends everything, serving while the socket is full. */
static bool send_all(int fd, const void *data, size_t n)
{
	const char *p = data;
	long long end = ms_now() + 5000;
	while (n && ms_now() < end) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w > 0) {
			p += w, n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EINTR)
			return false;
		ior_http_poll(srv, 10);
	}
	return n == 0;
}

static bool send_str(int fd, const char *s)
{
	return send_all(fd, s, strlen(s));
}

struct resp {
	int status;
	char head[4096];
	size_t body_len;
	char *body; /* malloc'd */
	bool eof;   /* the server closed after this response */
};

static const char *header(const struct resp *r, const char *name)
{
	static char val[1024];
	size_t nl = strlen(name);
	for (const char *l = strstr(r->head, "\r\n"); l && l[2]; l = strstr(l + 2, "\r\n")) {
		const char *s = l + 2;
		if (!strncasecmp(s, name, nl) && s[nl] == ':') {
			s += nl + 1;
			while (*s == ' ')
				s++;
			size_t n = strcspn(s, "\r");
			if (n >= sizeof val)
				n = sizeof val - 1;
			memcpy(val, s, n);
			val[n] = '\0';
			return val;
		}
	}
	return NULL;
}

/* Reads one response per call, keeping bytes of the next one in *pend. */
struct reader {
	int fd;
	char *buf;
	size_t len, cap;
	bool eof;
};

static bool reader_fill(struct reader *rd, long long end)
{
	while (ms_now() < end) {
		if (rd->len == rd->cap) {
			rd->cap = rd->cap ? rd->cap * 2 : 65536;
			rd->buf = realloc(rd->buf, rd->cap);
		}
		ssize_t n = recv(rd->fd, rd->buf + rd->len, rd->cap - rd->len, 0);
		if (n > 0) {
			rd->len += (size_t)n;
			return true;
		}
		if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
			rd->eof = true;
			return false;
		}
		ior_http_poll(srv, 5);
	}
	return false;
}

static bool read_resp(struct reader *rd, struct resp *r, bool head_only)
{
	long long end = ms_now() + 10000;
	char *hend;
	memset(r, 0, sizeof *r);
	while (!(hend = rd->len ? memmem(rd->buf, rd->len, "\r\n\r\n", 4) : NULL))
		if (!reader_fill(rd, end))
			return false;
	size_t hl = (size_t)(hend - rd->buf) + 4;
	if (hl >= sizeof r->head)
		return false;
	memcpy(r->head, rd->buf, hl);
	r->head[hl] = '\0';
	if (sscanf(r->head, "HTTP/1.1 %d ", &r->status) != 1)
		return false;
	const char *cl = header(r, "Content-Length");
	size_t want = head_only || !cl ? 0 : strtoull(cl, NULL, 10);
	while (rd->len < hl + want)
		if (!reader_fill(rd, end))
			return false;
	r->body = malloc(want + 1);
	memcpy(r->body, rd->buf + hl, want);
	r->body[want] = '\0';
	r->body_len = want;
	memmove(rd->buf, rd->buf + hl + want, rd->len - hl - want);
	rd->len -= hl + want;
	return true;
}

/* Waits (serving) until the server closes fd; returns ms waited or -1. */
static long long wait_closed(int fd, int limit_ms)
{
	long long start = ms_now();
	char b[4096];
	while (ms_now() - start < limit_ms) {
		ssize_t n = recv(fd, b, sizeof b, 0);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			return ms_now() - start;
		ior_http_poll(srv, 5);
	}
	return -1;
}

/* One request on a fresh connection. */
static bool fetch(const char *req, struct resp *r, bool head_only)
{
	struct reader rd = { .fd = connect_client() };
	bool ok = rd.fd >= 0 && send_str(rd.fd, req) && read_resp(&rd, r, head_only);
	if (rd.fd >= 0)
		close(rd.fd);
	free(rd.buf);
	return ok;
}

static void resp_free(struct resp *r)
{
	free(r->body);
	r->body = NULL;
}

/* ---- tests --------------------------------------------------------------- */

TEST(open_and_url)
{
	char err[256] = "";
	CHECK_EQ_INT(ior_http_open(&srv, "127.0.0.1:0", err, sizeof err), 0);
	if (!srv)
		return;
	const char *url = ior_http_url(srv);
	CHECK(!strncmp(url, "http://127.0.0.1:", 17));
	port = atoi(url + 17);
	CHECK(port > 0 && port < 65536);
	/* http://127.0.0.1:PORT/TOKEN: 32 hex digits, new for every server */
	const char *tok = strchr(url + 17, '/');
	CHECK(tok && strlen(tok + 1) == IOR_HTTP_TOKEN_LEN && strspn(tok + 1, "0123456789abcdef") == IOR_HTTP_TOKEN_LEN);
	struct ior_http *other;
	CHECK_EQ_INT(ior_http_open(&other, "127.0.0.1:0", err, sizeof err), 0);
	if (other && tok)
		CHECK(strcmp(strrchr(ior_http_url(other), '/'), tok) != 0);
	ior_http_close(other);
	memcpy(srv->token, TOK, sizeof TOK);
	CHECK_EQ_INT(ior_http_set(srv, "/x.svg", "image/svg+xml", SVG, strlen(SVG)), 0);
	CHECK_EQ_INT(ior_http_set_redirect(srv, "/", "/x.svg"), 0);
}

TEST(open_bad_addresses)
{
	const char *bad[] = { "nonsense", "127.0.0.1", "1.2.3.4.5:80", "[::1]:99999",
			      ":abc", "127.0.0.1:-1", "[::1:80", "example.org:80", "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct ior_http *s = (struct ior_http *)1;
		char err[256] = "";
		int e = ior_http_open(&s, bad[i], err, sizeof err);
		if (e != -EINVAL || s != NULL || !strstr(err, bad[i]))
			T_FAIL("'%s': %d err='%s'", bad[i], e, err);
	}
	struct ior_http *s;
	char err[256];
	CHECK_EQ_INT(ior_http_open(&s, ":0", err, sizeof err), 0);
	if (s) {
		CHECK(!strncmp(ior_http_url(s), "http://127.0.0.1:", 17));
		/* the same port twice: a clear error */
		struct ior_http *s2;
		char addr[64];
		snprintf(addr, sizeof addr, "%.*s", (int)strcspn(ior_http_url(s) + 7, "/"), ior_http_url(s) + 7);
		CHECK_EQ_INT(ior_http_open(&s2, addr, err, sizeof err), -EADDRINUSE);
		CHECK(strstr(err, "in use") != NULL);
		ior_http_close(s);
	}
}

TEST(routes_validated)
{
	CHECK_EQ_INT(ior_http_set(srv, "x.svg", "image/svg+xml", "a", 1), -EINVAL);
	CHECK_EQ_INT(ior_http_set(srv, "/../x", "image/svg+xml", "a", 1), -EINVAL);
	CHECK_EQ_INT(ior_http_set(srv, "/x", "text/plain\r\nX: y", "a", 1), -EINVAL);
	CHECK_EQ_INT(ior_http_set_redirect(srv, "/", "//evil.example/"), -EINVAL);
}

TEST(get_svg)
{
	struct resp r;
	CHECK(fetch("GET " P "/x.svg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", &r, false));
	CHECK_EQ_INT(r.status, 200);
	CHECK_EQ_STR(header(&r, "Content-Type"), "image/svg+xml");
	CHECK_EQ_INT(atoi(header(&r, "Content-Length") ?: "-1"), strlen(SVG));
	CHECK_EQ_STR(header(&r, "Cache-Control"), "no-store");
	CHECK_EQ_STR(header(&r, "X-Content-Type-Options"), "nosniff");
	const char *date = header(&r, "Date");
	CHECK(date && strlen(date) == 29 && !strcmp(date + 25, " GMT"));
	CHECK(r.body && !strcmp(r.body, SVG));
	resp_free(&r);
}

TEST(head_has_no_body)
{
	/* HEAD then GET pipelined: a body after HEAD would corrupt the second. */
	struct reader rd = { .fd = connect_client() };
	struct resp r;
	CHECK(send_str(rd.fd, "HEAD " P "/x.svg HTTP/1.1\r\nHost: h\r\n\r\n"
			      "GET " P "/x.svg HTTP/1.1\r\nHost: h\r\n\r\n"));
	CHECK(read_resp(&rd, &r, true));
	CHECK_EQ_INT(r.status, 200);
	CHECK_EQ_INT(atoi(header(&r, "Content-Length") ?: "-1"), strlen(SVG));
	resp_free(&r);
	CHECK(read_resp(&rd, &r, false));
	CHECK_EQ_INT(r.status, 200);
	CHECK(r.body && !strcmp(r.body, SVG));
	resp_free(&r);
	close(rd.fd);
	free(rd.buf);
}

TEST(root_redirects)
{
	struct resp r;
	CHECK(fetch("GET " P " HTTP/1.1\r\nHost: h\r\n\r\n", &r, false));
	CHECK_EQ_INT(r.status, 302);
	CHECK_EQ_STR(header(&r, "Location"), P "/x.svg");
	resp_free(&r);
}

/* The token check alone on hostile paths: only "/TOKEN" and "/TOKEN/..."
 * pass, and give what follows the token. */
TEST(token_strip_hostile)
{
	static const struct {
		const char *path, *want; /* want NULL: refused */
	} cases[] = {
		{ P, "/" },
		{ P "/", "/" },
		{ P "/x.svg", "/x.svg" },
		{ P "/a/b", "/a/b" },
		{ "/", NULL },
		{ "", NULL },
		{ "/x.svg", NULL },
		{ TOK "/x.svg", NULL },                       /* no leading slash */
		{ "/0123456789abcdef0123456789abcdeF/x.svg", NULL }, /* case differs */
		{ "/0123456789abcdef0123456789abcdee/x.svg", NULL }, /* last byte */
		{ "/1123456789abcdef0123456789abcdef/x.svg", NULL }, /* first byte */
		{ "/0123456789abcdef0123456789abcde/x.svg", NULL },  /* one short */
		{ "/0123456789abcdef0123456789abcdef0/x.svg", NULL }, /* one long */
		{ P "x/x.svg", NULL },
		{ P ".svg", NULL },
		{ "/0123456789abcdef", NULL },
		{ "//" TOK "/x.svg", NULL },
		{ "/x.svg/" TOK, NULL },
		{ "/00000000000000000000000000000000/x.svg", NULL },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		/* an exact-size copy: ASan sees a read past the end */
		size_t n = strlen(cases[i].path) + 1;
		char *path = malloc(n);
		memcpy(path, cases[i].path, n);
		const char *got = ior_http_token_strip(TOK, path);
		if (cases[i].want ? !got || strcmp(got, cases[i].want) : got != NULL)
			T_FAIL("'%s': got '%s', want '%s'", cases[i].path, got ? got : "(refused)",
			       cases[i].want ? cases[i].want : "(refused)");
		free(path);
	}
}

/* Request lines without the right token: 404 with the plain body, the
 * same as a route that does not exist, and the connection kept. */
TEST(token_required)
{
	const char *reqs[] = {
		"GET / HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET /x.svg HTTP/1.1\r\nHost: h\r\n\r\n",
		"HEAD /x.svg HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET /x.svg?token=" TOK " HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET /0123456789abcdef0123456789abcdee/x.svg HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET /0123456789ABCDEF0123456789ABCDEF/x.svg HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET /0123456789abcdef0123456789abcde/x.svg HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET " P "0/x.svg HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET /x.svg/" TOK " HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET http://h/x.svg HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET /" TOK "%2fx.svg HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET /%2e%2e" P "/x.svg HTTP/1.1\r\nHost: h\r\n\r\n",
	};
	for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
		struct resp r;
		if (!fetch(reqs[i], &r, !strncmp(reqs[i], "HEAD", 4)) || r.status != 404 || header(&r, "Location"))
			T_FAIL("request %zu: status %d, want 404", i, r.status);
		resp_free(&r);
	}
	/* "/TOKEN/" is an empty segment the parser refuses, like "/x.svg/" */
	struct resp r;
	CHECK(fetch("GET " P "/ HTTP/1.1\r\nHost: h\r\n\r\n", &r, false));
	CHECK_EQ_INT(r.status, 404);
	resp_free(&r);
	CHECK(fetch("GET /%30123456789abcdef0123456789abcdef/x.svg HTTP/1.1\r\nHost: h\r\n\r\n", &r, false));
	CHECK_EQ_INT(r.status, 200); /* percent-encoded, it is still the token */
	resp_free(&r);
}

TEST(traversal_is_404)
{
	const char *reqs[] = {
		"GET " P "/../../etc/passwd HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET " P "/%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET " P "/x.svg/../../etc/passwd HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET " P "/..%2f..%2fetc%2fpasswd HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET " P "//etc/passwd HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET " P "/etc/passwd HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET " P "/x.svg/ HTTP/1.1\r\nHost: h\r\n\r\n",
		"GET http://h/../etc/passwd HTTP/1.1\r\nHost: h\r\n\r\n",
	};
	for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
		struct resp r;
		if (!fetch(reqs[i], &r, false) || r.status != 404 || strstr(r.body, "root:"))
			T_FAIL("request %zu: status %d", i, r.status);
		resp_free(&r);
	}
}

TEST(query_and_absolute_form)
{
	struct resp r;
	CHECK(fetch("GET " P "/x.svg?t=12345 HTTP/1.1\r\nHost: h\r\n\r\n", &r, false));
	CHECK_EQ_INT(r.status, 200);
	resp_free(&r);
	CHECK(fetch("GET http://127.0.0.1" P "/x.svg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", &r, false));
	CHECK_EQ_INT(r.status, 200);
	resp_free(&r);
}

TEST(post_is_405_and_closes)
{
	struct reader rd = { .fd = connect_client() };
	struct resp r;
	CHECK(send_str(rd.fd, "POST " P "/x.svg HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"));
	CHECK(read_resp(&rd, &r, false));
	CHECK_EQ_INT(r.status, 405);
	CHECK_EQ_STR(header(&r, "Allow"), "GET, HEAD");
	CHECK_EQ_STR(header(&r, "Connection"), "close");
	CHECK(wait_closed(rd.fd, 3000) >= 0);
	resp_free(&r);
	close(rd.fd);
	free(rd.buf);
}

TEST(huge_header_then_still_serving)
{
	size_t n = 64 * 1024;
	char *req = malloc(n + 128);
	int k = sprintf(req, "GET " P "/x.svg HTTP/1.1\r\nHost: h\r\nX-Big: ");
	memset(req + k, 'b', n);
	strcpy(req + k + n, "\r\n\r\n");
	struct reader rd = { .fd = connect_client() };
	struct resp r;
	CHECK(send_str(rd.fd, req));
	CHECK(read_resp(&rd, &r, false));
	CHECK(r.status == 431 || r.status == 400);
	CHECK(wait_closed(rd.fd, 3000) >= 0);
	resp_free(&r);
	close(rd.fd);
	free(rd.buf);
	free(req);
	CHECK(fetch("GET " P "/x.svg HTTP/1.1\r\nHost: h\r\n\r\n", &r, false));
	CHECK_EQ_INT(r.status, 200);
	resp_free(&r);
}

TEST(keep_alive_100_sequential)
{
	struct reader rd = { .fd = connect_client() };
	int ok = 0;
	for (int i = 0; i < 100; i++) {
		struct resp r;
		if (!send_str(rd.fd, "GET " P "/x.svg HTTP/1.1\r\nHost: h\r\n\r\n") ||
		    !read_resp(&rd, &r, false))
			break;
		ok += r.status == 200 && r.body_len == strlen(SVG) && !header(&r, "Connection");
		resp_free(&r);
	}
	CHECK_EQ_INT(ok, 100);
	CHECK(!rd.eof);
	close(rd.fd);
	free(rd.buf);
}

TEST(pipelined_in_order)
{
	CHECK_EQ_INT(ior_http_set(srv, "/a.json", "application/json", "{\"a\":1}", 7), 0);
	struct reader rd = { .fd = connect_client() };
	CHECK(send_str(rd.fd, "GET " P "/a.json HTTP/1.1\r\nHost: h\r\n\r\n"
			      "GET " P "/nope HTTP/1.1\r\nHost: h\r\n\r\n"
			      "GET " P "/x.svg HTTP/1.1\r\nHost: h\r\n\r\n"
			      "GET " P "/a.json HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
			      "GET " P "/x.svg HTTP/1.1\r\nHost: h\r\n\r\n"));
	struct resp r;
	int want[] = { 200, 404, 200, 200 };
	const char *body[] = { "{\"a\":1}", "404 Not Found\n", SVG, "{\"a\":1}" };
	for (int i = 0; i < 4; i++) {
		if (!read_resp(&rd, &r, false) || r.status != want[i] || strcmp(r.body, body[i]))
			T_FAIL("response %d: status %d", i, r.status);
		resp_free(&r);
	}
	/* Connection: close was honoured: nothing after the fourth */
	CHECK(wait_closed(rd.fd, 3000) >= 0);
	CHECK_EQ_INT(rd.len, 0);
	close(rd.fd);
	free(rd.buf);
}

TEST(http10_closes_by_default)
{
	struct reader rd = { .fd = connect_client() };
	struct resp r;
	CHECK(send_str(rd.fd, "GET " P "/x.svg HTTP/1.0\r\n\r\n"));
	CHECK(read_resp(&rd, &r, false));
	CHECK_EQ_INT(r.status, 200);
	CHECK_EQ_STR(header(&r, "Connection"), "close");
	CHECK(wait_closed(rd.fd, 3000) >= 0);
	resp_free(&r);
	close(rd.fd);
	rd.fd = connect_client();
	rd.len = 0;
	CHECK(send_str(rd.fd, "GET " P "/x.svg HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
	CHECK(read_resp(&rd, &r, false));
	CHECK_EQ_STR(header(&r, "Connection"), "keep-alive");
	resp_free(&r);
	CHECK(send_str(rd.fd, "GET " P "/x.svg HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
	CHECK(read_resp(&rd, &r, false));
	CHECK_EQ_INT(r.status, 200);
	resp_free(&r);
	close(rd.fd);
	free(rd.buf);
}

static void set_timeouts(int header_ms, int idle_ms, int write_ms)
{
	srv->header_ms = header_ms;
	srv->idle_ms = idle_ms;
	srv->write_ms = write_ms;
}

static bool closed_by_peer(int fd, char *b, size_t n)
{
	ssize_t r = recv(fd, b, n, 0);
	return r == 0 || (r < 0 && errno == ECONNRESET);
}

TEST(slow_clients_are_closed)
{
	set_timeouts(300, 400, 1000);
	int silent = connect_client();
	int drip = connect_client();
	struct reader idle = { .fd = connect_client() };
	struct resp r;
	/* a keep-alive connection that goes quiet after one request */
	CHECK(send_str(idle.fd, "GET " P "/x.svg HTTP/1.1\r\nHost: h\r\n\r\n"));
	CHECK(read_resp(&idle, &r, false));
	resp_free(&r);
	long long start = ms_now(), t_silent = -1, t_drip = -1, t_idle = -1;
	const char *slow = "GET " P "/x.svg HTTP/1.1\r\nHost: h\r\nX-Slow: ";
	size_t dripped = 0;
	long long last_drip = 0;
	char b[256];
	while (ms_now() - start < 3000 && (t_silent < 0 || t_drip < 0 || t_idle < 0)) {
		/* one byte every ~20 ms: it never finishes its head in time */
		if (t_drip < 0 && ms_now() - last_drip >= 20 &&
		    send(drip, dripped < strlen(slow) ? slow + dripped : "a", 1, MSG_NOSIGNAL) == 1) {
			dripped++;
			last_drip = ms_now();
		}
		ior_http_poll(srv, 20);
		if (t_silent < 0 && closed_by_peer(silent, b, sizeof b))
			t_silent = ms_now() - start;
		if (t_drip < 0 && closed_by_peer(drip, b, sizeof b))
			t_drip = ms_now() - start;
		if (t_idle < 0 && closed_by_peer(idle.fd, b, sizeof b))
			t_idle = ms_now() - start;
	}
	if (t_silent < 250 || t_silent >= 1500 || t_drip < 250 || t_drip >= 1500 ||
	    t_idle < 350 || t_idle >= 1500)
		T_FAIL("closed after: silent %lld ms, drip %lld ms (%zu bytes), idle %lld ms",
		       t_silent, t_drip, dripped, t_idle);
	close(silent);
	close(drip);
	close(idle.fd);
	free(idle.buf);
	set_timeouts(IOR_HTTP_HEADER_TIMEOUT_MS, IOR_HTTP_IDLE_TIMEOUT_MS,
		     IOR_HTTP_WRITE_TIMEOUT_MS);
	for (int i = 0; i < 10 && srv->nconns; i++)
		ior_http_poll(srv, 10);
	CHECK_EQ_INT(srv->nconns, 0);
}

/* 64 clients each in the middle of a head hold every slot: a newcomer is
 * told 503 and closed; the held ones still work. */
TEST(connection_bound)
{
	int fds[IOR_HTTP_MAX_CONNS];
	for (int i = 0; i < IOR_HTTP_MAX_CONNS; i++) {
		fds[i] = connect_client();
		CHECK(send_str(fds[i], "GET " P "/x.svg HTTP/1.1\r\n"));
	}
	for (int i = 0; i < 100; i++)
		ior_http_poll(srv, 10);
	CHECK_EQ_INT(srv->nconns, IOR_HTTP_MAX_CONNS);
	struct reader extra = { .fd = connect_client() };
	struct resp r;
	CHECK(read_resp(&extra, &r, false));
	CHECK_EQ_INT(r.status, 503);
	resp_free(&r);
	CHECK(wait_closed(extra.fd, 3000) >= 0);
	CHECK_EQ_INT(srv->nconns, IOR_HTTP_MAX_CONNS);
	close(extra.fd);
	free(extra.buf);
	struct reader rd = { .fd = fds[0] };
	CHECK(send_str(fds[0], "Host: h\r\nConnection: close\r\n\r\n"));
	CHECK(read_resp(&rd, &r, false));
	CHECK_EQ_INT(r.status, 200);
	resp_free(&r);
	CHECK(wait_closed(fds[0], 3000) >= 0);
	free(rd.buf);
	for (int i = 0; i < IOR_HTTP_MAX_CONNS; i++)
		close(fds[i]);
	for (int i = 0; i < 100 && srv->nconns; i++)
		ior_http_poll(srv, 10);
	CHECK_EQ_INT(srv->nconns, 0);
}

/* 200 idle connections (connected, silent) cannot lock a user out: a GET
 * on a new one is answered 200 within a second, the oldest idle ones make
 * room. */
TEST(idle_connections_do_not_lock_out)
{
	enum { IDLE = 200 };
	int fds[IDLE];
	for (int i = 0; i < IDLE; i++) {
		fds[i] = connect_client();
		ior_http_poll(srv, 0);
	}
	for (int i = 0; i < 20; i++)
		ior_http_poll(srv, 5);
	CHECK_EQ_INT(srv->nconns, IOR_HTTP_MAX_CONNS);
	struct timespec t0, t1;
	struct resp r;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(fetch("GET " P "/x.svg HTTP/1.1\r\nHost: h\r\n\r\n", &r, false));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK_EQ_INT(r.status, 200);
	resp_free(&r);
	CHECK((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 < 1000);
	CHECK(wait_closed(fds[0], 3000) >= 0); /* the quietest went first */
	for (int i = 0; i < IDLE; i++)
		close(fds[i]);
	for (int i = 0; i < 100 && srv->nconns; i++)
		ior_http_poll(srv, 10);
	CHECK_EQ_INT(srv->nconns, 0);
}

static char *big_body(size_t n, char fill)
{
	char *b = malloc(n);
	for (size_t i = 0; i < n; i++)
		b[i] = (char)(fill + (char)(i % 7));
	return b;
}

TEST(large_body_replaced_while_in_flight)
{
	size_t n = 24u << 20;
	char *old = big_body(n, 'a'), *new = big_body(n / 2, 'n');
	CHECK_EQ_INT(ior_http_set(srv, "/big.svg", "image/svg+xml", old, n), 0);
	struct reader rd = { .fd = connect_client() };
	CHECK(send_str(rd.fd, "GET " P "/big.svg HTTP/1.1\r\nHost: h\r\n\r\n"));
	/* let the response start, then replace the route under it */
	long long end = ms_now() + 5000;
	while (rd.len < 1 << 20 && reader_fill(&rd, end))
		;
	CHECK_EQ_INT(ior_http_set(srv, "/big.svg", "image/svg+xml", new, n / 2), 0);
	struct resp r;
	CHECK(read_resp(&rd, &r, false));
	CHECK_EQ_INT(r.status, 200);
	CHECK_EQ_INT(r.body_len, n);
	CHECK(r.body && !memcmp(r.body, old, n));
	resp_free(&r);
	CHECK(send_str(rd.fd, "GET " P "/big.svg HTTP/1.1\r\nHost: h\r\n\r\n"));
	CHECK(read_resp(&rd, &r, false));
	CHECK_EQ_INT(r.body_len, n / 2);
	CHECK(r.body && !memcmp(r.body, new, n / 2));
	resp_free(&r);
	close(rd.fd);
	free(rd.buf);
	free(old);
	free(new);
}

TEST(client_gone_mid_body_no_sigpipe)
{
	signal(SIGPIPE, SIG_DFL); /* a SIGPIPE would kill this test */
	int fd = connect_client();
	CHECK(send_str(fd, "GET " P "/big.svg HTTP/1.1\r\nHost: h\r\n\r\n"));
	for (int i = 0; i < 5; i++)
		ior_http_poll(srv, 10);
	struct linger lg = { 1, 0 }; /* close with RST */
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
	close(fd);
	for (int i = 0; i < 50 && srv->nconns; i++)
		ior_http_poll(srv, 10);
	CHECK_EQ_INT(srv->nconns, 0);
	struct resp r;
	CHECK(fetch("GET " P "/x.svg HTTP/1.1\r\nHost: h\r\n\r\n", &r, false));
	CHECK_EQ_INT(r.status, 200);
	resp_free(&r);
}

TEST(reload_page_escapes)
{
	size_t len = 0;
	char *p = ior_http_reload_page("/a\"<b>'&c d.svg", "<script>alert(1)</script>", 3, &len);
	CHECK(p != NULL);
	if (!p)
		return;
	CHECK_EQ_INT(len, strlen(p));
	CHECK(strstr(p, "<script>alert") == NULL);
	CHECK(strstr(p, "&lt;script&gt;alert(1)&lt;/script&gt;") != NULL);
	CHECK(strstr(p, "data-src=\"/a%22%3Cb%3E%27%26c%20d.svg\"") != NULL);
	CHECK(strstr(p, "data-interval=\"3\"") != NULL);
	CHECK(strstr(p, "http://") == NULL && strstr(p, "https://") == NULL);
	/* served, it is a page like any other route */
	CHECK_EQ_INT(ior_http_set(srv, "/index.html", "text/html; charset=utf-8", p, len), 0);
	free(p);
	struct resp r;
	CHECK(fetch("GET " P "/index.html HTTP/1.1\r\nHost: h\r\n\r\n", &r, false));
	CHECK_EQ_INT(r.status, 200);
	CHECK(r.body && strstr(r.body, "<object id=\"svg\""));
	resp_free(&r);
	errno = 0;
	CHECK(ior_http_reload_page("/x.svg", NULL, 0, &len) == NULL && errno == EINVAL);
	CHECK(ior_http_reload_page("../x.svg", NULL, 1, &len) == NULL && errno == EINVAL);
}

/* An outside poll loop over ior_http_pollfds wakes for the listener and
 * for a connection's request; ior_http_poll(srv, 0) then answers. */
TEST(outside_poll_loop)
{
	struct pollfd pfd[IOR_HTTP_MAX_CONNS + 1];
	/* let the server see the earlier tests' clients leave: nothing pending */
	for (int i = 0; i < 50 && srv->nconns; i++)
		ior_http_poll(srv, 10);
	int base = srv->nconns;
	int n = ior_http_pollfds(srv, pfd);
	CHECK_EQ_INT(n, base + 1);
	CHECK(pfd[0].events == POLLIN);
	CHECK_EQ_INT(poll(pfd, (nfds_t)n, 0), 0); /* nothing to do yet */
	struct reader rd = { .fd = connect_client() };
	CHECK(rd.fd >= 0);
	CHECK(send_str(rd.fd, "GET " P "/x.svg HTTP/1.1\r\nHost: a\r\n\r\n"));
	struct resp r = { 0 };
	long long end = ms_now() + 5000;
	int woke = 0;
	while (ms_now() < end && !woke) {
		n = ior_http_pollfds(srv, pfd);
		if (poll(pfd, (nfds_t)n, 1000) > 0)
			woke += ior_http_poll(srv, 0); /* accept, then the request */
	}
	CHECK_EQ_INT(woke, 1);
	CHECK(read_resp(&rd, &r, false));
	CHECK_EQ_INT(r.status, 200);
	CHECK(r.body && !strcmp(r.body, SVG));
	CHECK_EQ_INT(ior_http_pollfds(srv, pfd), base + 2); /* kept alive */
	resp_free(&r);
	close(rd.fd);
	free(rd.buf);
}

int main(void)
{
	RUN(open_and_url);
	if (!srv)
		return t_done();
	RUN(open_bad_addresses);
	RUN(routes_validated);
	RUN(get_svg);
	RUN(head_has_no_body);
	RUN(root_redirects);
	RUN(token_strip_hostile);
	RUN(token_required);
	RUN(traversal_is_404);
	RUN(query_and_absolute_form);
	RUN(post_is_405_and_closes);
	RUN(huge_header_then_still_serving);
	RUN(keep_alive_100_sequential);
	RUN(pipelined_in_order);
	RUN(http10_closes_by_default);
	RUN(slow_clients_are_closed);
	RUN(connection_bound);
	RUN(idle_connections_do_not_lock_out);
	RUN(large_body_replaced_while_in_flight);
	RUN(client_gone_mid_body_no_sigpipe);
	RUN(reload_page_escapes);
	RUN(outside_poll_loop);
	ior_http_close(srv);
	return t_done();
}
