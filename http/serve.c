/* The server: one poll() loop over a listener and a bounded table of
 * connections. A connection alternates between reading one request head
 * and writing its response; while a response is being written nothing more
 * is read, so pipelined requests are answered in order and a client that
 * does not read cannot make us buffer. Bodies are refcounted blobs so a
 * route replaced mid-response keeps serving the old bytes to that client. */
#include "http/http.h"
#include "http/parse.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define LINGER_MS 2000           /* drain a closing client's leftovers */
#define LINGER_BYTES (1 << 20)   /* ... but not forever */
#define ACCEPTS_PER_ROUND 64
#define ACCEPT_PAUSE_MS 100      /* after EMFILE: do not spin on the listener */
#define CONTENT_TYPE_MAX 200
#define LOCATION_MAX 900         /* decoded redirect target */
#define RESP_HEAD_MAX 4096

struct blob {
	size_t refs, len;
	char data[];
};

struct route {
	char *path;
	char *content_type; /* NULL for a redirect */
	char *location;     /* encoded redirect target, else NULL */
	struct blob *body;
};

enum conn_state { C_READ, C_WRITE, C_LINGER };

struct conn {
	int fd;
	enum conn_state state;
	int64_t deadline; /* CLOCK_MONOTONIC ms */
	bool in_request;  /* bytes of a head have arrived: header deadline runs */
	bool quiet;       /* no byte of a request since quiet_ms: a newcomer may take its slot */
	int64_t quiet_ms;
	bool close_after;
	size_t in_off, in_len, lingered;
	char in[4096];
	struct ior_http_parser parser;
	struct ior_http_req req;
	/* the response being written: head, then body unless HEAD */
	char head[RESP_HEAD_MAX];
	size_t head_len, head_off;
	const char *body;
	size_t body_len, body_off;
	struct blob *blob; /* reference held while body points into it */
};

struct ior_http {
	int lfd;
	char url[80];
	struct route *routes;
	size_t nroutes, cap;
	struct conn *conns[IOR_HTTP_MAX_CONNS];
	int nconns;
	int header_ms, idle_ms, write_ms;
	int64_t accept_paused_until;
	int served; /* responses completed in the current poll call */
};

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- blobs and routes ---------------------------------------------------- */

static struct blob *blob_new(const void *data, size_t len)
{
	struct blob *b = malloc(sizeof *b + (len ? len : 1));
	if (!b)
		return NULL;
	b->refs = 1;
	b->len = len;
	if (len)
		memcpy(b->data, data, len);
	return b;
}

static struct blob *blob_get(struct blob *b)
{
	if (b)
		b->refs++;
	return b;
}

static void blob_put(struct blob *b)
{
	if (b && --b->refs == 0)
		free(b);
}

static void route_free(struct route *r)
{
	free(r->path);
	free(r->content_type);
	free(r->location);
	blob_put(r->body);
}

static struct route *route_find(struct ior_http *srv, const char *path)
{
	for (size_t i = 0; i < srv->nroutes; i++)
		if (!strcmp(srv->routes[i].path, path))
			return &srv->routes[i];
	return NULL;
}

/* Puts r in place of the route with the same path, or appends it. */
static int route_put(struct ior_http *srv, struct route *r)
{
	struct route *old = route_find(srv, r->path);
	if (old) {
		route_free(old);
		*old = *r;
		return 0;
	}
	if (srv->nroutes == srv->cap) {
		size_t cap = srv->cap ? srv->cap * 2 : 8;
		struct route *nr = realloc(srv->routes, cap * sizeof *nr);
		if (!nr)
			return -ENOMEM;
		srv->routes = nr;
		srv->cap = cap;
	}
	srv->routes[srv->nroutes++] = *r;
	return 0;
}

static bool content_type_ok(const char *t)
{
	size_t n = strlen(t);
	if (!n || n > CONTENT_TYPE_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)t[i] < 0x20 || (unsigned char)t[i] >= 0x7f)
			return false;
	return true;
}

int ior_http_set(struct ior_http *srv, const char *path, const char *content_type,
		 const void *body, size_t len)
{
	if (!ior_http_path_ok(path) || strlen(path) >= IOR_HTTP_PATH_MAX ||
	    !content_type || !content_type_ok(content_type) || (len && !body))
		return -EINVAL;
	struct route r = { .path = strdup(path), .content_type = strdup(content_type),
			   .body = blob_new(body, len) };
	int err = r.path && r.content_type && r.body ? route_put(srv, &r) : -ENOMEM;
	if (err)
		route_free(&r);
	return err;
}

int ior_http_set_redirect(struct ior_http *srv, const char *from, const char *to)
{
	char loc[3 * LOCATION_MAX + 1];
	if (!ior_http_path_ok(from) || strlen(from) >= IOR_HTTP_PATH_MAX ||
	    !ior_http_path_ok(to) || strlen(to) > LOCATION_MAX)
		return -EINVAL;
	if (ior_http_path_encode(to, loc, sizeof loc) < 0)
		return -EINVAL;
	struct route r = { .path = strdup(from), .location = strdup(loc) };
	int err = r.path && r.location ? route_put(srv, &r) : -ENOMEM;
	if (err)
		route_free(&r);
	return err;
}

int ior_http_unset(struct ior_http *srv, const char *path)
{
	struct route *r = route_find(srv, path);
	if (!r)
		return -ENOENT;
	route_free(r);
	*r = srv->routes[--srv->nroutes];
	return 0;
}

void ior_http_set_timeouts(struct ior_http *srv, int header_ms, int idle_ms, int write_ms)
{
	if (header_ms > 0)
		srv->header_ms = header_ms;
	if (idle_ms > 0)
		srv->idle_ms = idle_ms;
	if (write_ms > 0)
		srv->write_ms = write_ms;
}

/* ---- listening --------------------------------------------------------- */

static int parse_port(const char *s, in_port_t *port)
{
	char *end;
	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 5)
		return -EINVAL;
	unsigned long v = strtoul(s, &end, 10);
	if (v > 65535)
		return -EINVAL;
	*port = htons((in_port_t)v);
	return 0;
}

/* HOST:PORT, [V6]:PORT, :PORT → a socket address. Numeric hosts only, plus
 * "localhost", so a static binary needs no resolver. */
static int parse_addr(const char *s, struct sockaddr_storage *ss, socklen_t *sslen)
{
	char host[64];
	const char *colon = strrchr(s, ':');
	if (!colon || (size_t)(colon - s) >= sizeof host)
		return -EINVAL;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	memset(ss, 0, sizeof *ss);
	size_t hl = strlen(host);
	if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
		host[hl - 1] = '\0';
		in6->sin6_family = AF_INET6;
		*sslen = sizeof *in6;
		if (inet_pton(AF_INET6, host + 1, &in6->sin6_addr) != 1)
			return -EINVAL;
		return parse_port(colon + 1, &in6->sin6_port);
	}
	in4->sin_family = AF_INET;
	*sslen = sizeof *in4;
	if (!hl || !strcmp(host, "localhost"))
		strcpy(host, "127.0.0.1");
	if (inet_pton(AF_INET, host, &in4->sin_addr) != 1)
		return -EINVAL;
	return parse_port(colon + 1, &in4->sin_port);
}

static void make_url(struct ior_http *srv, const struct sockaddr_storage *ss)
{
	char ip[INET6_ADDRSTRLEN];
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)ss;
		if (IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr))
			strcpy(ip, "::1");
		else
			inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof ip);
		snprintf(srv->url, sizeof srv->url, "http://[%s]:%u", ip, ntohs(in6->sin6_port));
	} else {
		const struct sockaddr_in *in4 = (const void *)ss;
		if (in4->sin_addr.s_addr == htonl(INADDR_ANY))
			strcpy(ip, "127.0.0.1");
		else
			inet_ntop(AF_INET, &in4->sin_addr, ip, sizeof ip);
		snprintf(srv->url, sizeof srv->url, "http://%s:%u", ip, ntohs(in4->sin_port));
	}
}

static int listen_on(struct ior_http *srv, const char *addr_port, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	if (parse_addr(addr_port, &ss, &sslen)) {
		snprintf(err, errlen, "http address '%s': want IP:PORT, [IPv6]:PORT or :PORT",
			 addr_port);
		return -EINVAL;
	}
	srv->lfd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (srv->lfd < 0)
		goto fail;
	int one = 1;
	setsockopt(srv->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(srv->lfd, (struct sockaddr *)&ss, sslen) || listen(srv->lfd, 128))
		goto fail;
	sslen = sizeof ss;
	if (getsockname(srv->lfd, (struct sockaddr *)&ss, &sslen))
		goto fail;
	make_url(srv, &ss);
	return 0;
fail:;
	int e = errno;
	snprintf(err, errlen, "http: listen on %s: %s", addr_port, strerror(e));
	return -e;
}

int ior_http_open(struct ior_http **out, const char *addr_port, char *err, size_t errlen)
{
	struct ior_http *srv = calloc(1, sizeof *srv);
	*out = NULL;
	if (!srv) {
		snprintf(err, errlen, "http: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	srv->lfd = -1;
	srv->header_ms = IOR_HTTP_HEADER_TIMEOUT_MS;
	srv->idle_ms = IOR_HTTP_IDLE_TIMEOUT_MS;
	srv->write_ms = IOR_HTTP_WRITE_TIMEOUT_MS;
	int e = listen_on(srv, addr_port ? addr_port : "127.0.0.1:0", err, errlen);
	if (e) {
		ior_http_close(srv);
		return e;
	}
	*out = srv;
	return 0;
}

const char *ior_http_url(const struct ior_http *srv)
{
	return srv->url;
}

int ior_http_url_for(const struct ior_http *srv, const char *path, char *buf, size_t len)
{
	size_t n = strlen(srv->url);
	if (n >= len || ior_http_path_encode(path, buf + n, len - n) < 0)
		return -ENAMETOOLONG;
	memcpy(buf, srv->url, n);
	return (int)strlen(buf);
}

int ior_http_conns(const struct ior_http *srv)
{
	return srv->nconns;
}

/* ---- connections ----------------------------------------------------------- */

static void conn_close(struct ior_http *srv, int i)
{
	struct conn *c = srv->conns[i];
	close(c->fd);
	blob_put(c->blob);
	free(c);
	srv->conns[i] = NULL;
	srv->nconns--;
}

static void conn_idle(struct ior_http *srv, struct conn *c, int64_t now)
{
	c->state = C_READ;
	c->in_request = c->in_off < c->in_len;
	c->deadline = now + (c->in_request ? srv->header_ms : srv->idle_ms);
	c->quiet = !c->in_request;
	c->quiet_ms = now;
}

/* The slot of the connection quiet the longest, or -1: idle sockets must
 * not lock a user out (64 idle connections used to mean 503 for 10 s). */
static int quietest(const struct ior_http *srv)
{
	int best = -1;

	for (int i = 0; i < IOR_HTTP_MAX_CONNS; i++) {
		const struct conn *c = srv->conns[i];
		if (c && c->state == C_READ && c->quiet &&
		    (best < 0 || c->quiet_ms < srv->conns[best]->quiet_ms))
			best = i;
	}
	return best;
}

/* Beyond the bound: a short answer, then close, without a slot. */
static void reject_busy(int fd)
{
	static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\n"
				   "Content-Type: text/plain\r\nContent-Length: 20\r\n"
				   "Retry-After: 1\r\nConnection: close\r\n\r\n"
				   "503 Server is busy\r\n";
	char scratch[512];
	/* What the client already sent is read first so close() sends FIN, not
	 * an RST that could destroy the answer before the client reads it. */
	for (int i = 0; i < 16 && recv(fd, scratch, sizeof scratch, MSG_DONTWAIT) > 0; i++)
		;
	(void)!send(fd, busy, sizeof busy - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	shutdown(fd, SHUT_WR);
	close(fd);
}

static int conn_add(struct ior_http *srv, int fd, int64_t now)
{
	if (srv->nconns >= IOR_HTTP_MAX_CONNS) {
		int victim = quietest(srv);
		if (victim < 0)
			return -EBUSY; /* every slot is mid-request */
		conn_close(srv, victim);
	}
	for (int i = 0; i < IOR_HTTP_MAX_CONNS; i++) {
		if (srv->conns[i])
			continue;
		struct conn *c = calloc(1, sizeof *c);
		if (!c)
			return -ENOMEM;
		c->fd = fd;
		ior_http_parser_init(&c->parser);
		/* Even before its first byte a new client is held to the header
		 * deadline: connecting and saying nothing costs us a slot. */
		c->state = C_READ;
		c->in_request = true;
		c->deadline = now + srv->header_ms;
		c->quiet = true;
		c->quiet_ms = now;
		srv->conns[i] = c;
		srv->nconns++;
		return 0;
	}
	return -EBUSY;
}

static void accept_all(struct ior_http *srv, int64_t now)
{
	for (int n = 0; n < ACCEPTS_PER_ROUND; n++) {
		int fd = accept4(srv->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
				srv->accept_paused_until = now + ACCEPT_PAUSE_MS;
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return;
		}
		if (conn_add(srv, fd, now))
			reject_busy(fd);
	}
}

/* ---- responses ------------------------------------------------------------- */

static const struct status_text {
	int status;
	const char *reason, *body;
} status_texts[] = {
	{ 200, "OK", "" },
	{ 302, "Found", "302 Found\n" },
	{ 400, "Bad Request", "400 Bad Request\n" },
	{ 404, "Not Found", "404 Not Found\n" },
	{ 405, "Method Not Allowed", "405 Method Not Allowed: GET and HEAD only\n" },
	{ 414, "URI Too Long", "414 URI Too Long\n" },
	{ 431, "Request Header Fields Too Large", "431 Request Header Fields Too Large\n" },
	{ 505, "HTTP Version Not Supported", "505 HTTP Version Not Supported\n" },
	{ 500, "Internal Server Error", "500 Internal Server Error\n" }, /* fallback: last */
};

static const struct status_text *status_text(int status)
{
	size_t n = sizeof status_texts / sizeof status_texts[0];
	for (size_t i = 0; i < n - 1; i++)
		if (status_texts[i].status == status)
			return &status_texts[i];
	return &status_texts[n - 1];
}

/* IMF-fixdate (RFC 9110 5.6.7), independent of the locale. */
static void http_date(char *buf, size_t len)
{
	static const char days[7][4] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char months[12][4] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					    "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	snprintf(buf, len, "%s, %02d %s %04d %02d:%02d:%02d GMT", days[tm.tm_wday % 7],
		 tm.tm_mday, months[tm.tm_mon % 12], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
		 tm.tm_sec);
}

/* Fills c->head. extra is additional header lines ("Name: v\r\n"...). */
static void build_head(struct conn *c, int status, const char *type, size_t body_len,
		       const char *extra)
{
	const char *reason = status_text(status)->reason;
	char date[40];
	http_date(date, sizeof date);
	const char *conn = c->close_after ? "Connection: close\r\n"
			 : c->req.minor == 0 ? "Connection: keep-alive\r\n" : "";
	int n = snprintf(c->head, sizeof c->head,
			 "HTTP/1.1 %d %s\r\n"
			 "Date: %s\r\n"
			 "Server: ior\r\n"
			 "Content-Type: %s\r\n"
			 "Content-Length: %zu\r\n"
			 "Cache-Control: no-store\r\n"
			 "X-Content-Type-Options: nosniff\r\n"
			 "Referrer-Policy: no-referrer\r\n"
			 "%s%s\r\n",
			 status, reason, date, type, body_len, extra, conn);
	c->head_len = n > 0 && (size_t)n < sizeof c->head ? (size_t)n : 0;
	c->head_off = 0;
}

static void respond_text(struct conn *c, int status, const char *extra)
{
	const struct status_text *st = status_text(status);
	c->body = st->body;
	c->body_len = strlen(st->body);
	build_head(c, st->status, "text/plain; charset=utf-8", c->body_len, extra);
}

static void respond(struct ior_http *srv, struct conn *c)
{
	const struct ior_http_req *r = &c->req;
	/* After a rejected head the framing of what follows is in doubt, except
	 * for a well-formed target that names nothing (404). */
	c->close_after = (r->status != 0 && r->status != 404) || !r->keep_alive;
	c->body_off = 0;
	if (r->status) {
		respond_text(c, r->status, r->status == 405 ? "Allow: GET, HEAD\r\n" : "");
	} else {
		const struct route *rt = route_find(srv, r->path);
		char extra[3 * LOCATION_MAX + 32];
		if (!rt) {
			respond_text(c, 404, "");
		} else if (rt->location) {
			snprintf(extra, sizeof extra, "Location: %s\r\n", rt->location);
			respond_text(c, 302, extra);
		} else {
			c->blob = blob_get(rt->body);
			c->body = rt->body->data;
			c->body_len = rt->body->len;
			build_head(c, 200, rt->content_type, c->body_len, "");
		}
	}
	if (r->method == IOR_HTTP_HEAD)
		c->body_len = 0;
	c->state = C_WRITE;
}

static void start_linger(struct ior_http *srv, struct conn *c, int64_t now)
{
	(void)srv;
	shutdown(c->fd, SHUT_WR);
	c->state = C_LINGER;
	c->lingered = 0;
	c->deadline = now + LINGER_MS;
}

static void response_done(struct ior_http *srv, struct conn *c, int64_t now)
{
	blob_put(c->blob);
	c->blob = NULL;
	c->body = NULL;
	srv->served++;
	if (c->close_after)
		start_linger(srv, c, now);
	else
		conn_idle(srv, c, now);
}

/* Writes as much as the socket takes. Returns -1 when the connection must
 * be dropped. */
static int write_some(struct ior_http *srv, struct conn *c, int64_t now)
{
	while (c->head_off < c->head_len || c->body_off < c->body_len) {
		struct iovec iov[2];
		int n = 0;
		if (c->head_off < c->head_len)
			iov[n++] = (struct iovec){ c->head + c->head_off, c->head_len - c->head_off };
		if (c->body_off < c->body_len)
			iov[n++] = (struct iovec){ (char *)c->body + c->body_off,
						   c->body_len - c->body_off };
		struct msghdr msg = { .msg_iov = iov, .msg_iovlen = (size_t)n };
		ssize_t w = sendmsg(c->fd, &msg, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
		}
		size_t h = c->head_len - c->head_off;
		if ((size_t)w < h) {
			c->head_off += (size_t)w;
		} else {
			c->head_off = c->head_len;
			c->body_off += (size_t)w - h;
		}
		c->deadline = now + srv->write_ms;
	}
	response_done(srv, c, now);
	return 0;
}

/* Parses what is buffered and answers complete heads, one at a time. */
static int process_input(struct ior_http *srv, struct conn *c, int64_t now)
{
	while (c->state == C_READ && c->in_off < c->in_len) {
		size_t used = 0;
		int done = ior_http_parse(&c->parser, c->in + c->in_off, c->in_len - c->in_off,
					  &used, &c->req);
		c->in_off += used;
		if (!done)
			break;
		respond(srv, c);
		c->deadline = now + srv->write_ms;
		if (c->head_len == 0 || write_some(srv, c, now))
			return -1;
	}
	return 0;
}

static int on_readable(struct ior_http *srv, struct conn *c, int64_t now)
{
	ssize_t n = recv(c->fd, c->in, sizeof c->in, 0);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
	if (n == 0)
		return -1;
	if (c->state == C_LINGER) {
		c->lingered += (size_t)n;
		return c->lingered > LINGER_BYTES ? -1 : 0;
	}
	c->in_off = 0;
	c->in_len = (size_t)n;
	c->quiet = false;
	if (!c->in_request) {
		c->in_request = true;
		c->deadline = now + srv->header_ms;
	}
	return process_input(srv, c, now);
}

static int on_event(struct ior_http *srv, struct conn *c, short revents, int64_t now)
{
	if (c->state == C_WRITE) {
		if (revents & (POLLERR | POLLHUP | POLLNVAL))
			return -1;
		if (!(revents & POLLOUT) || write_some(srv, c, now))
			return revents & POLLOUT ? -1 : 0;
		/* The response is out: answer what was pipelined behind it. */
		return process_input(srv, c, now);
	}
	if (revents & (POLLIN | POLLHUP | POLLERR))
		return on_readable(srv, c, now);
	return revents & POLLNVAL ? -1 : 0;
}

/* ---- the loop ---------------------------------------------------------------- */

static int poll_wait_ms(struct ior_http *srv, int timeout_ms, int64_t now)
{
	int64_t wait = timeout_ms;
	for (int i = 0; i < IOR_HTTP_MAX_CONNS; i++) {
		struct conn *c = srv->conns[i];
		if (!c)
			continue;
		int64_t left = c->deadline > now ? c->deadline - now : 0;
		if (wait < 0 || left < wait)
			wait = left;
	}
	if (srv->accept_paused_until > now && (wait < 0 || srv->accept_paused_until - now < wait))
		wait = srv->accept_paused_until - now;
	return wait > INT32_MAX ? INT32_MAX : (int)wait;
}

/* The listener (unless accepting is paused) first, then every connection
 * with the events its state waits for; slot (may be NULL) gets the
 * connection index of each entry. */
static int fill_pollfds(const struct ior_http *srv, struct pollfd *pfd, int *slot, int64_t now,
			int *first_conn)
{
	int n = 0;
	if (srv->accept_paused_until <= now)
		pfd[n++] = (struct pollfd){ .fd = srv->lfd, .events = POLLIN };
	*first_conn = n;
	for (int i = 0; i < IOR_HTTP_MAX_CONNS; i++) {
		struct conn *c = srv->conns[i];
		if (!c)
			continue;
		short ev = c->state == C_WRITE ? POLLOUT : POLLIN;
		if (slot)
			slot[n] = i;
		pfd[n++] = (struct pollfd){ .fd = c->fd, .events = ev };
	}
	return n;
}

int ior_http_pollfds(const struct ior_http *srv, struct pollfd *pfd)
{
	int first_conn;
	return fill_pollfds(srv, pfd, NULL, now_ms(), &first_conn);
}

int ior_http_poll(struct ior_http *srv, int timeout_ms)
{
	struct pollfd pfd[IOR_HTTP_MAX_CONNS + 1];
	int slot[IOR_HTTP_MAX_CONNS + 1], first_conn;
	int64_t now = now_ms();
	srv->served = 0;
	int n = fill_pollfds(srv, pfd, slot, now, &first_conn);
	int r = poll(pfd, (nfds_t)n, poll_wait_ms(srv, timeout_ms, now));
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	now = now_ms();
	for (int k = first_conn; k < n; k++) {
		struct conn *c = srv->conns[slot[k]];
		if (pfd[k].revents && on_event(srv, c, pfd[k].revents, now))
			conn_close(srv, slot[k]);
	}
	for (int i = 0; i < IOR_HTTP_MAX_CONNS; i++) {
		struct conn *c = srv->conns[i];
		if (c && c->deadline <= now)
			conn_close(srv, i);
	}
	if (first_conn && (pfd[0].revents & POLLIN))
		accept_all(srv, now);
	return srv->served;
}

void ior_http_close(struct ior_http *srv)
{
	if (!srv)
		return;
	for (int i = 0; i < IOR_HTTP_MAX_CONNS; i++)
		if (srv->conns[i])
			conn_close(srv, i);
	if (srv->lfd >= 0)
		close(srv->lfd);
	for (size_t i = 0; i < srv->nroutes; i++)
		route_free(&srv->routes[i]);
	free(srv->routes);
	free(srv);
}
