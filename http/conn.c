/* One connection's life: accepted into a bounded table of slots, it
 * alternates between reading one request head and writing its response;
 * while a response is being written nothing more is read, so pipelined
 * requests are answered in order and a client that does not read cannot
 * make us buffer. Every state has a deadline (header, idle, write, linger);
 * when all slots are taken a newcomer evicts the connection quiet the
 * longest, and gets a 503 only when every one is mid-request. */
#include "http/internal.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#define LINGER_MS 2000         /* drain a closing client's leftovers */
#define LINGER_BYTES (1 << 20) /* ... but not forever */
#define ACCEPTS_PER_ROUND 64
#define ACCEPT_PAUSE_MS 100    /* after EMFILE: do not spin on the listener */

void ior_http_conn_close(struct ior_http *srv, int i)
{
	struct conn *c = srv->conns[i];
	close(c->fd);
	ior_http_blob_put(c->blob);
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
 * not lock a user out: 64 idle connections would answer 503 for 10 s. */
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
		ior_http_conn_close(srv, victim);
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

void ior_http_accept(struct ior_http *srv, int64_t now)
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

static void start_linger(struct conn *c, int64_t now)
{
	shutdown(c->fd, SHUT_WR);
	c->state = C_LINGER;
	c->lingered = 0;
	c->deadline = now + LINGER_MS;
}

static void response_done(struct ior_http *srv, struct conn *c, int64_t now)
{
	ior_http_blob_put(c->blob);
	c->blob = NULL;
	c->body = NULL;
	srv->served++;
	if (c->close_after)
		start_linger(c, now);
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
		ior_http_respond(srv, c);
		c->state = C_WRITE;
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

int ior_http_conn_event(struct ior_http *srv, struct conn *c, short revents, int64_t now)
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

void ior_http_conn_expire(struct ior_http *srv, int64_t now)
{
	for (int i = 0; i < IOR_HTTP_MAX_CONNS; i++) {
		struct conn *c = srv->conns[i];
		if (c && c->deadline <= now)
			ior_http_conn_close(srv, i);
	}
}
