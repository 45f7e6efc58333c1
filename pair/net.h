/* The network extras of exits (bpf/event.h, struct ior_exit_net): reading one from a record,
 * and the names it gives descriptors: "tcp:127.0.0.1:40112->127.0.0.1:5432",
 * "udp6:[::1]:53", "unix:/run/x.sock", "unix:@name", "pipe:[INODE]",
 * "unix:socketpair". Pure: no kernel, no fd table. */
#ifndef IOR_PAIR_NET_H
#define IOR_PAIR_NET_H

#include <stddef.h>
#include <stdint.h>

#include "bpf/event.h"
#include "syscalls/roles.h"

/* The timeout in ns from the aux of an enter of that kind:
 * IOR_WAIT_INFINITE (-1) when it waits for ever, IOR_WAIT_UNREAD (-2)
 * when the kernel could not read it. */
int64_t ior_net_timeout_ns(unsigned kind, uint64_t aux);

/* The extra of an exit record of len bytes whose ident is IOR_EXIT_NET,
 * into n (addr_len bounded by the record): 0, or -1 when it has none or
 * is malformed. */
int ior_net_read(const char *rec, size_t len, struct ior_exit_net *n);

/* The protocol a descriptor's name says: "tcp" for "socket:tcp" or
 * "tcp:1.2.3.4:5->...", "unix" for "unix:..."; into out (16 bytes), ""
 * when the name is no socket's. */
const char *ior_net_proto(const char *fdname, char *out);

/* The socket's own endpoint from the kernel's addresses (sk_family inet):
 * "PROTO:LOCAL->REMOTE", "PROTO:LOCAL" with no peer; peer, when not NULL,
 * replaces the socket's remote (sendto, recvfrom on unconnected sockets).
 * proto "" becomes "inet"/"inet6". "" when n has no inet addresses. */
const char *ior_net_sk_name(const struct ior_exit_net *n, const char *proto, const char *peer,
			    char *out, size_t len);

/* The caller's sockaddr as an address ("1.2.3.4:5", "[::1]:80", a unix
 * path with NULs as '@', like /proc/net/unix shows them); "" when it has
 * none or another family. */
const char *ior_net_addr(const struct ior_exit_net *n, char *out, size_t len);
/* 1 when the caller's sockaddr is AF_UNIX. */
int ior_net_addr_unix(const struct ior_exit_net *n);

#endif
