/* The server: a listener, the routes it serves from memory, and one
 * poll() loop that hands each ready connection to conn.c. Routes map an
 * exact decoded path to a body or a redirect; nothing else is served and
 * nothing touches the filesystem. */
#include "http/internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CONTENT_TYPE_MAX 200

int64_t ior_http_now_ms(void)
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

struct blob *ior_http_blob_get(struct blob *b)
{
	if (b)
		b->refs++;
	return b;
}

void ior_http_blob_put(struct blob *b)
{
	if (b && --b->refs == 0)
		free(b);
}

static void route_free(struct route *r)
{
	free(r->path);
	free(r->content_type);
	free(r->location);
	ior_http_blob_put(r->body);
}

static struct route *find(const struct ior_http *srv, const char *path)
{
	for (size_t i = 0; i < srv->nroutes; i++)
		if (!strcmp(srv->routes[i].path, path))
			return &srv->routes[i];
	return NULL;
}

const struct route *ior_http_route_find(const struct ior_http *srv, const char *path)
{
	return find(srv, path);
}

/* Puts r in place of the route with the same path, or appends it. */
static int route_put(struct ior_http *srv, struct route *r)
{
	struct route *old = find(srv, r->path);
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
	char loc[1 + IOR_HTTP_TOKEN_LEN + 3 * LOCATION_MAX + 1];
	if (!ior_http_path_ok(from) || strlen(from) >= IOR_HTTP_PATH_MAX ||
	    !ior_http_path_ok(to) || strlen(to) > LOCATION_MAX)
		return -EINVAL;
	int n = snprintf(loc, sizeof loc, "/%s", srv->token);
	if (ior_http_path_encode(to, loc + n, sizeof loc - (size_t)n) < 0)
		return -EINVAL;
	struct route r = { .path = strdup(from), .location = strdup(loc) };
	int err = r.path && r.location ? route_put(srv, &r) : -ENOMEM;
	if (err)
		route_free(&r);
	return err;
}

int ior_http_open(struct ior_http **out, const char *addr_port, char *err, size_t errlen)
{
	struct ior_http *srv = calloc(1, sizeof *srv);
	*out = NULL;
	if (!srv) {
		snprintf(err, errlen, "http: %s", strerror(ENOMEM));
		return -ENOMEM;
	}
	srv->header_ms = IOR_HTTP_HEADER_TIMEOUT_MS;
	srv->idle_ms = IOR_HTTP_IDLE_TIMEOUT_MS;
	srv->write_ms = IOR_HTTP_WRITE_TIMEOUT_MS;
	srv->lfd = -1;
	int e = ior_http_token_new(srv->token);
	if (e)
		snprintf(err, errlen, "http: cannot make the URL's secret token: getrandom: %s", strerror(-e));
	else
		srv->lfd = ior_http_listen(addr_port ? addr_port : "127.0.0.1:0", srv->url,
					   sizeof srv->url - IOR_HTTP_TOKEN_LEN - 1, err, errlen);
	if (srv->lfd < 0) {
		e = e ? e : srv->lfd;
		srv->lfd = -1;
		ior_http_close(srv);
		return e;
	}
	size_t n = strlen(srv->url);
	snprintf(srv->url + n, sizeof srv->url - n, "/%s", srv->token);
	*out = srv;
	return 0;
}

const char *ior_http_url(const struct ior_http *srv)
{
	return srv->url;
}

int ior_http_route_path(const struct ior_http *srv, const char *route, char *out, size_t outlen)
{
	int n = snprintf(out, outlen, "/%s%s", srv->token, strcmp(route, "/") ? route : "");
	return n < 0 || (size_t)n >= outlen ? -ENAMETOOLONG : n;
}

/* ---- the loop ----------------------------------------------------------- */

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
	return fill_pollfds(srv, pfd, NULL, ior_http_now_ms(), &first_conn);
}

int ior_http_poll(struct ior_http *srv, int timeout_ms)
{
	struct pollfd pfd[IOR_HTTP_MAX_CONNS + 1];
	int slot[IOR_HTTP_MAX_CONNS + 1], first_conn;
	int64_t now = ior_http_now_ms();
	srv->served = 0;
	int n = fill_pollfds(srv, pfd, slot, now, &first_conn);
	int r = poll(pfd, (nfds_t)n, poll_wait_ms(srv, timeout_ms, now));
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	now = ior_http_now_ms();
	for (int k = first_conn; k < n; k++) {
		struct conn *c = srv->conns[slot[k]];
		if (pfd[k].revents && ior_http_conn_event(srv, c, pfd[k].revents, now))
			ior_http_conn_close(srv, slot[k]);
	}
	ior_http_conn_expire(srv, now);
	if (first_conn && (pfd[0].revents & POLLIN))
		ior_http_accept(srv, now);
	return srv->served;
}

void ior_http_close(struct ior_http *srv)
{
	if (!srv)
		return;
	for (int i = 0; i < IOR_HTTP_MAX_CONNS; i++)
		if (srv->conns[i])
			ior_http_conn_close(srv, i);
	if (srv->lfd >= 0)
		close(srv->lfd);
	for (size_t i = 0; i < srv->nroutes; i++)
		route_free(&srv->routes[i]);
	free(srv->routes);
	free(srv);
}
