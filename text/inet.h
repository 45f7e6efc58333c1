/* An IP address and port as text: "10.0.0.5:5432", "[::1]:80" (brackets
 * around v6, as URLs and strace write them). */
#ifndef IOR_TEXT_INET_H
#define IOR_TEXT_INET_H

#include <stddef.h>

/* family AF_INET (addr: 4 bytes) or AF_INET6 (16 bytes), port in host
 * order; "" for another family. Returns out. */
const char *ior_text_inet(char *out, size_t len, int family, const void *addr, unsigned port);

#endif
