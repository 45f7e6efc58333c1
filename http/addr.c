/* -http=ADDR:PORT: the address parsed, bound and listened on, and the URL
 * a person types to reach it. Numeric hosts only, plus "localhost", so a
 * static binary needs no resolver. */
#include "http/internal.h"
#include "text/inet.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

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

/* HOST:PORT, [V6]:PORT, :PORT → a socket address. */
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

static int reach_v6(const struct in6_addr *a)
{
	if (IN6_IS_ADDR_UNSPECIFIED(a))
		return IOR_HTTP_ANY;
	if (IN6_IS_ADDR_LOOPBACK(a))
		return IOR_HTTP_LOOPBACK;
	if (IN6_IS_ADDR_V4MAPPED(a)) { /* ::ffff:a.b.c.d is that IPv4 address */
		uint8_t first = a->s6_addr[12];
		int zero = !(a->s6_addr[12] | a->s6_addr[13] | a->s6_addr[14] | a->s6_addr[15]);
		return zero ? IOR_HTTP_ANY : first == 127 ? IOR_HTTP_LOOPBACK : IOR_HTTP_NETWORK;
	}
	return IOR_HTTP_NETWORK;
}

int ior_http_reach(const char *addr_port)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	if (parse_addr(addr_port, &ss, &sslen))
		return -EINVAL;
	if (ss.ss_family == AF_INET6)
		return reach_v6(&((const struct sockaddr_in6 *)&ss)->sin6_addr);
	uint32_t a = ntohl(((const struct sockaddr_in *)&ss)->sin_addr.s_addr);
	return a == INADDR_ANY ? IOR_HTTP_ANY : (a >> 24) == 127 ? IOR_HTTP_LOOPBACK : IOR_HTTP_NETWORK;
}

/* A wildcard bind shows the loopback address of its family: that is the
 * one that surely reaches it from this host. */
static void make_url(const struct sockaddr_storage *ss, char *url, size_t urllen)
{
	char hostport[INET6_ADDRSTRLEN + 16];
	if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)ss;
		const void *a = IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr) ? &in6addr_loopback : &in6->sin6_addr;
		ior_text_inet(hostport, sizeof hostport, AF_INET6, a, ntohs(in6->sin6_port));
	} else {
		const struct sockaddr_in *in4 = (const void *)ss;
		struct in_addr lo = { htonl(INADDR_LOOPBACK) };
		const void *a = in4->sin_addr.s_addr == htonl(INADDR_ANY) ? &lo : &in4->sin_addr;
		ior_text_inet(hostport, sizeof hostport, AF_INET, a, ntohs(in4->sin_port));
	}
	snprintf(url, urllen, "http://%s", hostport);
}

int ior_http_listen(const char *addr_port, char *url, size_t urllen, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sslen;
	if (parse_addr(addr_port, &ss, &sslen)) {
		snprintf(err, errlen, "http address '%s': want IP:PORT, [IPv6]:PORT or :PORT",
			 addr_port);
		return -EINVAL;
	}
	int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(fd, (struct sockaddr *)&ss, sslen) || listen(fd, 128))
		goto fail;
	sslen = sizeof ss;
	if (getsockname(fd, (struct sockaddr *)&ss, &sslen))
		goto fail;
	make_url(&ss, url, urllen);
	return fd;
fail:;
	int e = errno;
	if (fd >= 0)
		close(fd);
	snprintf(err, errlen, "http: listen on %s: %s", addr_port, strerror(e));
	return -e;
}
