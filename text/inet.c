#include "text/inet.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <sys/socket.h>

const char *ior_text_inet(char *out, size_t len, int family, const void *addr, unsigned port)
{
	char ip[INET6_ADDRSTRLEN];

	if (!len)
		return out;
	out[0] = 0;
	if ((family != AF_INET && family != AF_INET6) || !inet_ntop(family, addr, ip, sizeof ip))
		return out;
	snprintf(out, len, family == AF_INET6 ? "[%s]:%u" : "%s:%u", ip, port);
	return out;
}
