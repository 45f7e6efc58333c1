/* The answer to one parsed request head: the route's body, a redirect, or
 * a short text for an error status, behind the same headers every time
 * (no caching, no sniffing, no referrer). */
#include "http/internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

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

void ior_http_respond(struct ior_http *srv, struct conn *c)
{
	const struct ior_http_req *r = &c->req;
	/* After a rejected head the framing of what follows is in doubt, except
	 * for a well-formed target that names nothing (404). */
	c->close_after = (r->status != 0 && r->status != 404) || !r->keep_alive;
	c->body_off = 0;
	if (r->status) {
		respond_text(c, r->status, r->status == 405 ? "Allow: GET, HEAD\r\n" : "");
	} else {
		const char *path = ior_http_token_strip(srv->token, r->path);
		const struct route *rt = path ? ior_http_route_find(srv, path) : NULL;
		char extra[IOR_HTTP_TOKEN_LEN + 3 * LOCATION_MAX + 32];
		if (!rt) {
			respond_text(c, 404, "");
		} else if (rt->location) {
			snprintf(extra, sizeof extra, "Location: %s\r\n", rt->location);
			respond_text(c, 302, extra);
		} else {
			c->blob = ior_http_blob_get(rt->body);
			c->body = rt->body->data;
			c->body_len = rt->body->len;
			build_head(c, 200, rt->content_type, c->body_len, "");
		}
	}
	if (r->method == IOR_HTTP_HEAD)
		c->body_len = 0;
}
