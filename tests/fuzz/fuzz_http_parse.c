/* Fuzzes the HTTP request parser. The first byte picks a chunk size; the
 * rest is a byte stream of (possibly pipelined) requests. The stream is
 * parsed twice, whole and in chunks, and both runs must agree request by
 * request; every accepted request must carry a path a route could hold,
 * and the encoder must give back a URL that decodes to that same path.
 * Every accepted path also goes through the token check: it passes only
 * with the token as its whole first segment, and leaves a route path. */
#include "http/http.h"
#include "http/internal.h"
#include "http/parse.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REQS 64

struct run {
	int n;
	int status[MAX_REQS];
	size_t end[MAX_REQS]; /* stream offset after each request */
	char path[MAX_REQS][32];
};

static struct ior_http_parser parser;
static struct ior_http_req req;

#define TOK "0123456789abcdef0123456789abcdef"

static void check_token(const char *path)
{
	const char *rest = ior_http_token_strip(TOK, path);
	bool whole = !strncmp(path, "/" TOK, sizeof TOK) && (!path[sizeof TOK] || path[sizeof TOK] == '/');
	if (!rest != !whole)
		abort();
	if (rest && (!ior_http_path_ok(rest) || (strcmp(rest, "/") && rest != path + sizeof TOK)))
		abort();
}

static void check(const struct ior_http_req *r)
{
	if (r->status == 0) {
		if (!ior_http_path_ok(r->path))
			abort();
		check_token(r->path);
		if (r->method != IOR_HTTP_GET && r->method != IOR_HTTP_HEAD)
			abort();
	} else if (r->path[0]) {
		abort();
	}
}

static void record(struct run *run, size_t end)
{
	check(&req);
	if (run->n == MAX_REQS)
		return;
	run->status[run->n] = req.status;
	run->end[run->n] = end;
	strncpy(run->path[run->n], req.path, sizeof run->path[0] - 1);
	run->path[run->n][sizeof run->path[0] - 1] = '\0';
	run->n++;
}

/* Parses data in chunks of at most chunk bytes. A rejected head ends the
 * stream, as the server closes the connection then. */
static void parse_stream(const uint8_t *data, size_t size, size_t chunk, struct run *run)
{
	size_t off = 0;
	memset(run, 0, sizeof *run);
	ior_http_parser_init(&parser);
	while (off < size) {
		size_t n = size - off < chunk ? size - off : chunk, used = 0;
		int done = ior_http_parse(&parser, data + off, n, &used, &req);
		if (used > n || (!done && used != n))
			abort();
		off += used;
		if (done) {
			record(run, off);
			if (req.status)
				return;
		}
	}
}

/* Encoding a route path and decoding the URL gives the path back. */
static void round_trip(const char *path)
{
	char url[3 * 64 + 1], back[64];
	int n = ior_http_path_encode(path, url, sizeof url);
	if (n < 0 || ior_http_path_decode(url, (size_t)n, back, sizeof back) || strcmp(back, path))
		abort();
}

/* The path decoder on its own, on an exact-size copy so that ASan sees any
 * read past rawlen (inside the parser it reads from a larger buffer). */
static void decode_alone(const uint8_t *data, size_t size)
{
	char out[64];
	char *raw = malloc(size ? size : 1);
	memcpy(raw, data, size);
	int st = ior_http_path_decode(raw, size, out, sizeof out);
	if (st == 0 && !ior_http_path_ok(out))
		abort();
	if (st == 0)
		round_trip(out);
	if (st != 0 && st != 400 && st != 404 && st != 414)
		abort();
	free(raw);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run whole, split;
	if (size < 1)
		return 0;
	decode_alone(data + 1, size - 1);
	size_t chunk = (size_t)data[0] % 17 + 1;
	parse_stream(data + 1, size - 1, size, &whole);
	parse_stream(data + 1, size - 1, chunk, &split);
	if (whole.n != split.n)
		abort();
	for (int i = 0; i < whole.n; i++)
		if (whole.status[i] != split.status[i] || whole.end[i] != split.end[i] ||
		    strcmp(whole.path[i], split.path[i]))
			abort();
	return 0;
}
