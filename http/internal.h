/* http/ internals shared by serve.c (the server, its routes and poll
 * loop), conn.c (one connection's life), respond.c (the answer to a head)
 * and addr.c (the listening socket). Nothing here is part of the room's
 * contract; see http.h for that. */
#ifndef IOR_HTTP_INTERNAL_H
#define IOR_HTTP_INTERNAL_H

#include "http/http.h"
#include "http/parse.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RESP_HEAD_MAX 4096
#define LOCATION_MAX 900 /* decoded redirect target */

/* A response body, refcounted so a route replaced mid-response keeps
 * serving the old bytes to the client that is reading them. */
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
	char token[IOR_HTTP_TOKEN_LEN + 1];
	char url[128]; /* http://HOST:PORT/TOKEN */
	struct route *routes;
	size_t nroutes, cap;
	struct conn *conns[IOR_HTTP_MAX_CONNS];
	int nconns;
	int header_ms, idle_ms, write_ms; /* the IOR_HTTP_*_TIMEOUT_MS; tests shorten them */
	int64_t accept_paused_until;
	int served; /* responses completed in the current poll call */
};

/* CLOCK_MONOTONIC in milliseconds: every deadline is on it. */
int64_t ior_http_now_ms(void);

/* ---- serve.c ------------------------------------------------------------ */

struct blob *ior_http_blob_get(struct blob *b); /* takes a reference; NULL is ok */
void ior_http_blob_put(struct blob *b);         /* drops one; NULL is ok */
const struct route *ior_http_route_find(const struct ior_http *srv, const char *path);

/* ---- token.c: the secret every route sits under ------------------------- */

/* Fills tok (IOR_HTTP_TOKEN_LEN + 1 bytes) with a fresh random token;
 * 0 or the negative errno of getrandom. */
int ior_http_token_new(char *tok);

/* The route path that request path names under token: "/TOKEN" (and
 * "/TOKEN/", which the parser refuses before) give "/", "/TOKEN/x.svg" gives "/x.svg" (a pointer into path);
 * anything else NULL. Compares in constant time. Pure: any thread. */
const char *ior_http_token_strip(const char *token, const char *path);

/* ---- addr.c: "-http=ADDR:PORT" ------------------------------------------ */

/* Parses addr_port (see ior_http_open), binds and listens. Returns the
 * listening fd (non-blocking, close-on-exec) and writes the URL that
 * reaches it into url; or a negative errno with err filled. */
int ior_http_listen(const char *addr_port, char *url, size_t urllen, char *err, size_t errlen);

/* ---- conn.c: connections, their limits, deadlines and eviction ---------- */

/* Accepts what the listener has: a slot each, the quietest evicted when
 * all are taken, else a 503. */
void ior_http_accept(struct ior_http *srv, int64_t now);

/* Handles the poll events of c. Returns -1 when c must be closed. */
int ior_http_conn_event(struct ior_http *srv, struct conn *c, short revents, int64_t now);

/* Closes the connection in slot i and frees its slot. */
void ior_http_conn_close(struct ior_http *srv, int i);

/* Closes every connection past its deadline. */
void ior_http_conn_expire(struct ior_http *srv, int64_t now);

/* ---- respond.c ---------------------------------------------------------- */

/* Prepares in c the answer to c->req (route, redirect or error status) and
 * whether the connection closes after it; c->head_len is 0 when the head
 * did not fit. */
void ior_http_respond(struct ior_http *srv, struct conn *c);

#endif
