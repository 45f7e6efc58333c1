/* ior's HTTP/1.1 server: serves only what ior generated, from memory.
 *
 * Single-threaded, poll() based, non-blocking. Routes map an exact decoded
 * path to an in-memory body (or a redirect); everything else is 404, and
 * nothing ever touches the filesystem. GET and HEAD only, bounded heads
 * (see parse.h), at most IOR_HTTP_MAX_CONNS connections (a newcomer takes
 * the slot of the one quiet the longest; 503 only when all are
 * mid-request), per-connection deadlines so slow clients cannot hold the
 * server, keep-alive with pipelining answered in order.
 *
 * Not thread-safe: call everything from the thread that calls poll.
 * Functions returning int return 0 (or a count) on success and a negative
 * errno on failure, filling err when they take one. */
#ifndef IOR_HTTP_H
#define IOR_HTTP_H

#include <poll.h>
#include <stddef.h>

#define IOR_HTTP_MAX_CONNS 64
#define IOR_HTTP_HEADER_TIMEOUT_MS 10000 /* first byte to end of head */
#define IOR_HTTP_IDLE_TIMEOUT_MS 30000   /* keep-alive wait for a request */
#define IOR_HTTP_WRITE_TIMEOUT_MS 30000  /* without any write progress */
#define IOR_HTTP_TOKEN_BYTES 16           /* 128 bits from getrandom */
#define IOR_HTTP_TOKEN_LEN (2 * IOR_HTTP_TOKEN_BYTES) /* as lowercase hex */

struct ior_http;

/* Every route is served only under a secret path prefix "/TOKEN" made
 * when the server opens (IOR_HTTP_TOKEN_BYTES from getrandom): the route
 * "/x.svg" answers at "/TOKEN/x.svg", the route "/" at "/TOKEN" (the
 * parser refuses a trailing '/'); anything without the token, "/" included, is 404, so a local
 * user who finds the port learns nothing. The token is compared in
 * constant time. */

/* Listens on addr_port: "127.0.0.1:0", "[::1]:8080", "0.0.0.0:8080",
 * "localhost:8080", or ":8080" (empty host means 127.0.0.1: ior never
 * listens beyond loopback unless told an address). Port 0 picks a free one. */
int ior_http_open(struct ior_http **srv, const char *addr_port, char *err, size_t errlen);

/* Who can reach a server on addr_port (see ior_http_open): only this host
 * (127.0.0.0/8, ::1), the network through one address, or every
 * interface (0.0.0.0, ::). -EINVAL when it does not parse. Pure. */
enum { IOR_HTTP_LOOPBACK, IOR_HTTP_NETWORK, IOR_HTTP_ANY };
int ior_http_reach(const char *addr_port);

/* "http://127.0.0.1:PORT/TOKEN" with the real port after bind; a wildcard
 * bind shows the loopback address of its family: the URL of the route "/".
 * Append an encoded route ("/x.svg") for the others. Owned by srv. */
const char *ior_http_url(const struct ior_http *srv);

/* The path a page links to for a route: "/TOKEN" + route, "/TOKEN" for
 * "/" (e.g. for ior_http_reload_page). Returns its length or
 * -ENAMETOOLONG. */
int ior_http_route_path(const struct ior_http *srv, const char *route, char *out, size_t outlen);

/* Percent-encodes path (a route path) for a URL: every byte but the
 * unreserved ones, ':', '@' and '/' becomes %XX ("/my trace.svg" →
 * "/my%20trace.svg"). out is always NUL-terminated (when outlen > 0).
 * Returns the length, or -ENAMETOOLONG when out is too small (out then
 * holds a prefix ending on a whole character). Pure: any thread. */
int ior_http_path_encode(const char *path, char *out, size_t outlen);

/* Adds or replaces the route path (must satisfy ior_http_path_ok, e.g.
 * "/x.svg"). body is copied; responses in flight keep the old body until
 * they are done. content_type e.g. "image/svg+xml". -EINVAL on a bad path
 * or content type, -ENOMEM. */
int ior_http_set(struct ior_http *srv, const char *path, const char *content_type,
		 const void *body, size_t len);

/* Adds or replaces a 302 redirect from one route path to another
 * (e.g. "/" → "/x.svg"); the Location carries the token. */
int ior_http_set_redirect(struct ior_http *srv, const char *from, const char *to);

/* Waits up to timeout_ms (< 0: until something happens) for activity,
 * handles all of it, closes connections past their deadline, and returns
 * the number of responses completed in this call (>= 0). Call it in a loop.
 * Returns 0 early when interrupted by a signal, so a SIGINT handler's flag
 * can be checked. Negative errno only on a fatal error of the listener. */
int ior_http_poll(struct ior_http *srv, int timeout_ms);

/* For a caller with its own poll loop (ior -live polls the perf rings and
 * the server together): fills pfd, which has room for IOR_HTTP_MAX_CONNS + 1
 * entries, with the fds and events ior_http_poll would wait for and returns
 * their number. When any of them is ready, or at least every few hundred ms
 * (deadlines), call ior_http_poll(srv, 0) to handle it. The set changes
 * with every ior_http_poll: fill it again before each wait. */
int ior_http_pollfds(const struct ior_http *srv, struct pollfd *pfd);

/* Closes every connection and the listener, frees everything. NULL is ok. */
void ior_http_close(struct ior_http *srv);

/* Builds the self-contained HTML page that shows svg_path (a route path
 * such as "/x.svg") and reloads it every interval_s seconds (>= 1) without
 * external resources. title is shown as the page title. Both strings are
 * escaped. Returns a malloc'd NUL-terminated page and its length in *len,
 * or NULL with errno set (EINVAL, ENOMEM). */
char *ior_http_reload_page(const char *svg_path, const char *title, unsigned interval_s,
			   size_t *len);

#endif
