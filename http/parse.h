/* A pure, bounded, incremental HTTP/1.x request-head parser: no syscalls,
 * no allocation. Bytes are fed as they arrive, split anywhere; the parser
 * copies them into its own fixed buffer until the blank line that ends the
 * head, then validates the whole head at once. Bytes after the head (the
 * next pipelined request) are left to the caller.
 *
 * Only what ior serves is accepted: GET and HEAD, HTTP/1.0 and 1.1, no
 * request bodies. Everything else gets the status code to answer with. */
#ifndef IOR_HTTP_PARSE_H
#define IOR_HTTP_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#define IOR_HTTP_LINE_MAX (8 * 1024)  /* request line, CRLF included */
#define IOR_HTTP_HEAD_MAX (16 * 1024) /* request line + headers + blank line */
#define IOR_HTTP_PATH_MAX 2048        /* decoded path, NUL included */
#define IOR_HTTP_HEADERS_MAX 100      /* header fields per request */

enum ior_http_method {
	IOR_HTTP_NONE = 0,
	IOR_HTTP_GET,
	IOR_HTTP_HEAD,
};

/* One parsed request head. status is 0 for a request to route, or the error
 * status to answer with (then the connection must be closed after the
 * answer, as the framing of what follows cannot be trusted):
 *   400 malformed (bad syntax, bare CR, obs-fold, missing/duplicate Host on
 *       1.1, body framing headers, bad percent-encoding, NUL, non-http URI)
 *   404 well-formed target that cannot name anything we serve
 *       (dot segments, encoded '/' or '\', empty segments)
 *   405 a valid method other than GET/HEAD (answer with Allow: GET, HEAD)
 *   414 request line or decoded path too long
 *   431 head larger than IOR_HTTP_HEAD_MAX or too many header fields
 *   505 HTTP major version other than 1
 * method, minor, keep_alive are meaningful whenever they could be parsed;
 * path is the decoded path without the query, meaningful when status is 0. */
struct ior_http_req {
	int status;
	enum ior_http_method method;
	int minor;       /* 0 for HTTP/1.0, 1 for HTTP/1.1 (and 1.x, x > 1) */
	bool keep_alive; /* version default, overridden by Connection */
	char path[IOR_HTTP_PATH_MAX];
};

struct ior_http_parser {
	size_t len;        /* bytes of the head buffered so far */
	size_t line_start; /* offset of the line being scanned */
	bool in_headers;   /* the request line is complete */
	int skipped;       /* empty lines skipped before the request line */
	char buf[IOR_HTTP_HEAD_MAX];
};

void ior_http_parser_init(struct ior_http_parser *p);

/* Feeds len bytes. Returns 0 when every byte was consumed and the head is not
 * complete yet; 1 when a head is complete (or rejected early, e.g. too long):
 * *req is filled, *used says how many bytes of data were consumed (the rest
 * belongs to the next request) and the parser is reset for the next head.
 * *used is set in both cases. Never reads data beyond len. */
int ior_http_parse(struct ior_http_parser *p, const void *data, size_t len,
		   size_t *used, struct ior_http_req *req);

/* Percent-decodes and validates an origin-form path (query already cut).
 * Returns 0, or the status ior_http_parse would give (400, 404, 414). */
int ior_http_path_decode(const char *raw, size_t rawlen, char *out, size_t outlen);

/* True when path is what a route may be: starts with '/', printable
 * characters only, no empty, '.' or '..' segments, no '\'. */
bool ior_http_path_ok(const char *path);

#endif
