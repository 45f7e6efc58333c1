#include "mem/grow.h"
#include "pair/endpoint.h"
#include "text/inet.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>

const struct ior_endpoint_proto ior_endpoint_protos[] = {
	{ "tcp6", 1 }, { "udp6", 1 }, { "tcp", 1 }, { "udp", 1 }, { "unix", 1 }, { "inet6", 0 }, { "inet", 0 },
};
const size_t ior_endpoint_nprotos = sizeof ior_endpoint_protos / sizeof *ior_endpoint_protos;

static void abstract(char *out, size_t len, const char *name, size_t n)
{
	size_t i;

	if (!len)
		return;
	for (i = 0; i < n && i + 1 < len; i++)
		out[i] = name[i] ? name[i] : '@';
	out[i] = 0;
}

static const char *unix_path(char *out, size_t len, const struct sockaddr_un *u, socklen_t salen)
{
	size_t n = salen - offsetof(struct sockaddr_un, sun_path);

	if (salen > sizeof *u) /* longer than the kernel takes: what fits */
		n = sizeof u->sun_path;
	if (salen <= offsetof(struct sockaddr_un, sun_path) || n == 0)
		snprintf(out, len, "unnamed");
	else if (u->sun_path[0] == 0) /* abstract: every byte is the name's, NULs as '@' like /proc/net/unix */
		abstract(out, len, u->sun_path, n);
	else
		snprintf(out, len, "%.*s", (int)strnlen(u->sun_path, n), u->sun_path);
	return out;
}

const char *ior_endpoint_addr(char *out, size_t len, const struct sockaddr *sa, socklen_t salen)
{
	out[0] = 0;
	if (!sa || salen < sizeof sa->sa_family)
		return out;
	if (sa->sa_family == AF_INET && salen >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *in = (const void *)sa;
		ior_text_inet(out, len, AF_INET, &in->sin_addr, ntohs(in->sin_port));
	} else if (sa->sa_family == AF_INET6 && salen >= sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *in6 = (const void *)sa;
		ior_text_inet(out, len, AF_INET6, &in6->sin6_addr, ntohs(in6->sin6_port));
	} else if (sa->sa_family == AF_UNIX) {
		unix_path(out, len, (const void *)sa, salen);
	}
	return out;
}

/* A peer that is no peer: "", or the any address with port 0. */
static int no_peer(const char *remote)
{
	return !remote[0] || !strcmp(remote, "0.0.0.0:0") || !strcmp(remote, "[::]:0");
}

const char *ior_endpoint_join(char *out, size_t len, const char *proto, const char *local,
			      const char *remote)
{
	if (no_peer(remote))
		snprintf(out, len, "%s:%s", proto, local);
	else
		snprintf(out, len, "%s:%s->%s", proto, local, remote);
	return out;
}

/* The address /proc/net/tcp prints as hex (each 32-bit word as the
 * kernel's native u32: little-endian here) and a hex port, as text. */
static int hex_addr(const char *tok, int v6, char *out, size_t len)
{
	unsigned char a[16];
	unsigned n = v6 ? 4 : 1, port;
	char word[9];
	const char *colon = strchr(tok, ':');

	if (!colon || (size_t)(colon - tok) != n * 8 || sscanf(colon + 1, "%x", &port) != 1)
		return -1;
	for (unsigned w = 0; w < n; w++) {
		memcpy(word, tok + 8 * w, 8);
		word[8] = 0;
		uint32_t v = (uint32_t)strtoul(word, NULL, 16);
		memcpy(a + 4 * w, &v, 4); /* native order: the bytes as in memory */
	}
	ior_text_inet(out, len, v6 ? AF_INET6 : AF_INET, a, port);
	return 0;
}

/* The next line of text into line (cut at size); NULL at the end. */
static const char *next_line(const char *p, char *line, size_t size)
{
	size_t n;

	if (!*p)
		return NULL;
	n = strcspn(p, "\n");
	snprintf(line, size, "%.*s", (int)(n < size ? n : size - 1), p);
	return p + n + (p[n] == '\n');
}

/* One line of /proc/net/PROTO: its inode and endpoint; 0, or -1 for a
 * line that is no socket (the header). */
static int inet_line(const char *line, const char *proto, uint64_t *inode, char *out, size_t len)
{
	char loc[64], rem[64], l[64], r[64];
	unsigned long long ino;
	int v6 = strchr(proto, '6') != NULL;

	/* sl: local rem st tx:rx tr:when retrnsmt uid timeout inode */
	if (sscanf(line, " %*[0-9]: %63s %63s %*x %*s %*s %*s %*u %*u %llu", loc, rem, &ino) != 3 ||
	    hex_addr(loc, v6, l, sizeof l) || hex_addr(rem, v6, r, sizeof r))
		return -1;
	*inode = ino;
	ior_endpoint_join(out, len, proto, l, r);
	return 0;
}

/* Num: RefCount Protocol Flags Type St Inode [Path]; the path is the rest
 * of the line, blanks and all. */
static int unix_line(const char *line, uint64_t *inode, char *out, size_t len)
{
	unsigned long long ino;
	int end;

	if (sscanf(line, "%*x: %*x %*x %*x %*x %*x %llu%n", &ino, &end) != 1)
		return -1;
	const char *path = line + end + strspn(line + end, " ");
	*inode = ino;
	snprintf(out, len, "unix:%s", *path ? path : "unnamed");
	return 0;
}

void ior_procnet_each(const char *text, const char *proto,
		      void (*fn)(void *ctx, uint64_t inode, const char *endpoint), void *ctx)
{
	char line[4352], ep[4200];
	uint64_t ino;
	int is_unix = !strcmp(proto, "unix");

	for (const char *p = next_line(text, line, sizeof line); p; p = next_line(p, line, sizeof line))
		if (!(is_unix ? unix_line(line, &ino, ep, sizeof ep) : inet_line(line, proto, &ino, ep, sizeof ep)))
			fn(ctx, ino, ep);
}

struct find {
	uint64_t inode;
	char *out;
	size_t len;
	int found;
};

static void found(void *ctx, uint64_t inode, const char *endpoint)
{
	struct find *f = ctx;

	if (!f->found && inode == f->inode) {
		snprintf(f->out, f->len, "%s", endpoint);
		f->found = 1;
	}
}

int ior_procnet_inet(const char *text, const char *proto, uint64_t inode, char *out, size_t len)
{
	struct find f = { inode, out, len, 0 };

	ior_procnet_each(text, proto, found, &f);
	return f.found;
}

int ior_procnet_unix(const char *text, uint64_t inode, char *out, size_t len)
{
	return ior_procnet_inet(text, "unix", inode, out, len);
}

struct ior_sock_names {
	struct entry {
		uint64_t ino;
		size_t off; /* of the name in text */
	} *v;
	size_t n, cap;
	char *text;
	size_t len, tcap;
	int failed; /* an allocation failed: some sockets are left out */
};

struct ior_sock_names *ior_sock_names_new(void)
{
	return calloc(1, sizeof(struct ior_sock_names));
}

void ior_sock_names_free(struct ior_sock_names *s)
{
	if (!s)
		return;
	free(s->v);
	free(s->text);
	free(s);
}

static void add(void *ctx, uint64_t ino, const char *name)
{
	struct ior_sock_names *s = ctx;
	size_t n = strlen(name) + 1;

	if (ior_grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v, 64) ||
	    ior_grow((void **)&s->text, &s->tcap, s->len + n, 1, 64)) {
		s->failed = 1;
		return;
	}
	memcpy(s->text + s->len, name, n);
	s->v[s->n++] = (struct entry){ ino, s->len };
	s->len += n;
}

static int by_ino(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

int ior_sock_names_load(struct ior_sock_names *s, const char *proto, const char *text)
{
	ior_procnet_each(text, proto, add, s);
	qsort(s->v, s->n, sizeof *s->v, by_ino);
	return s->failed ? -1 : 0;
}

const char *ior_sock_names_find(const struct ior_sock_names *s, uint64_t ino)
{
	struct entry key = { ino, 0 };
	const struct entry *e = s && s->n ? bsearch(&key, s->v, s->n, sizeof *s->v, by_ino) : NULL;

	return e ? s->text + e->off : NULL;
}
