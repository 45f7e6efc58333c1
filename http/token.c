/* The secret in every URL ior prints: a loopback port is open to every
 * local user, so the path alone must not be enough to read what ior
 * serves (Jupyter does the same). 128 bits from getrandom, as hex. */
#include "http/internal.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

int ior_http_token_new(char *tok)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char raw[IOR_HTTP_TOKEN_BYTES];
	size_t got = 0;
	while (got < sizeof raw) { /* flags 0: waits for an initialised pool, never weak bytes */
		ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		got += (size_t)n;
	}
	for (size_t i = 0; i < sizeof raw; i++) {
		tok[2 * i] = hex[raw[i] >> 4];
		tok[2 * i + 1] = hex[raw[i] & 15];
	}
	tok[IOR_HTTP_TOKEN_LEN] = '\0';
	return 0;
}

/* Every byte of the token is compared whatever the request holds, so the
 * time taken tells nothing of how much of a guess was right; only the
 * length of the first segment (public: always IOR_HTTP_TOKEN_LEN) shows. */
const char *ior_http_token_strip(const char *token, const char *path)
{
	size_t n = strlen(token);
	if (!n || path[0] != '/')
		return NULL;
	size_t plen = strnlen(path + 1, n + 1); /* never reads past the NUL */
	unsigned diff = !(plen == n || (plen == n + 1 && path[1 + n] == '/'));
	for (size_t i = 0; i < n; i++) {
		unsigned char c = i < plen ? (unsigned char)path[1 + i] : 0;
		diff |= c ^ (unsigned char)token[i];
	}
	if (diff)
		return NULL;
	return plen == n ? "/" : path + 1 + n;
}
