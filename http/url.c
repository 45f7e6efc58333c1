/* The one percent-encoder of ior: route paths become URL paths for links,
 * Location headers and the reload page. ':' and '@' stay as they are (RFC
 * 3986 pchar), so file names with times and -fields lists read as written;
 * a route path starts with '/' and has no empty segment (ior_http_path_ok),
 * so the result can never pose as a scheme or an authority. */
#include "http/http.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("-._~:@/", c));
}

int ior_http_path_encode(const char *path, char *out, size_t outlen)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;
	if (!outlen)
		return -ENAMETOOLONG;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (o + (plain(*p) ? 1 : 3) >= outlen) {
			out[o] = '\0';
			return -ENAMETOOLONG;
		}
		if (plain(*p)) {
			out[o++] = (char)*p;
		} else {
			out[o++] = '%';
			out[o++] = hex[*p >> 4];
			out[o++] = hex[*p & 15];
		}
	}
	out[o] = '\0';
	return (int)o;
}
