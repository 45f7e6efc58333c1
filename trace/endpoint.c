#include "endpoint.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>

static const char *unix_path(char *out, size_t len, const struct sockaddr_un *u, socklen_t salen)
{
	size_t n = salen - offsetof(struct sockaddr_un, sun_path);

	if (salen <= offsetof(struct sockaddr_un, sun_path) || n == 0)
		snprintf(out, len, "unnamed");
	else if (u->sun_path[0] == 0) /* abstract: its bytes are the name, NULs too */
		snprintf(out, len, "@%.*s", (int)(n - 1), u->sun_path + 1);
	else
		snprintf(out, len, "%.*s", (int)strnlen(u->sun_path, n), u->sun_path);
	return out;
}

const char *ior_endpoint_addr(char *out, size_t len, const struct sockaddr *sa, socklen_t salen)
{
	char ip[INET6_ADDRSTRLEN];

	out[0] = 0;
	if (!sa || salen < sizeof sa->sa_family)
		return out;
	if (sa->sa_family == AF_INET && salen >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *in = (const void *)sa;
		inet_ntop(AF_INET, &in->sin_addr, ip, sizeof ip);
		snprintf(out, len, "%s:%u", ip, ntohs(in->sin_port));
	} else if (sa->sa_family == AF_INET6 && salen >= sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *in6 = (const void *)sa;
		inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof ip);
		snprintf(out, len, "[%s]:%u", ip, ntohs(in6->sin6_port));
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
	char word[9], ip[INET6_ADDRSTRLEN];
	const char *colon = strchr(tok, ':');

	if (!colon || (size_t)(colon - tok) != n * 8 || sscanf(colon + 1, "%x", &port) != 1)
		return -1;
	for (unsigned w = 0; w < n; w++) {
		memcpy(word, tok + 8 * w, 8);
		word[8] = 0;
		uint32_t v = (uint32_t)strtoul(word, NULL, 16);
		memcpy(a + 4 * w, &v, 4); /* native order: the bytes as in memory */
	}
	inet_ntop(v6 ? AF_INET6 : AF_INET, a, ip, sizeof ip);
	snprintf(out, len, v6 ? "[%s]:%u" : "%s:%u", ip, port);
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

int ior_procnet_inet(const char *text, const char *proto, uint64_t inode, char *out, size_t len)
{
	char line[512], loc[64], rem[64], l[64], r[64];
	unsigned long long ino;
	int v6 = strchr(proto, '6') != NULL;

	for (const char *p = next_line(text, line, sizeof line); p; p = next_line(p, line, sizeof line)) {
		/* sl: local rem st tx:rx tr:when retrnsmt uid timeout inode */
		if (sscanf(line, " %*[0-9]: %63s %63s %*x %*s %*s %*s %*u %*u %llu", loc, rem, &ino) != 3 ||
		    ino != inode)
			continue;
		if (hex_addr(loc, v6, l, sizeof l) || hex_addr(rem, v6, r, sizeof r))
			return 0;
		ior_endpoint_join(out, len, proto, l, r);
		return 1;
	}
	return 0;
}

int ior_procnet_unix(const char *text, uint64_t inode, char *out, size_t len)
{
	char line[4352];
	unsigned long long ino;
	int end;

	for (const char *p = next_line(text, line, sizeof line); p; p = next_line(p, line, sizeof line)) {
		/* Num: RefCount Protocol Flags Type St Inode [Path]; the path is
		 * the rest of the line, blanks and all */
		if (sscanf(line, "%*x: %*x %*x %*x %*x %*x %llu%n", &ino, &end) != 1 || ino != inode)
			continue;
		const char *path = line + end + strspn(line + end, " ");
		snprintf(out, len, "unix:%s", *path ? path : "unnamed");
		return 1;
	}
	return 0;
}
