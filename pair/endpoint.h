/* Socket endpoints as the file column names them: "tcp:10.0.0.5:5432->
 * 10.0.0.9:40112", "udp6:[::1]:53", "unix:/run/x.sock", "unix:@abstract",
 * "unix:unnamed"; from socket addresses (what connect, bind, accept and
 * getsockname carry) or from /proc/net/{tcp,tcp6,udp,udp6,unix} by the
 * socket's inode (sockets that existed before the trace: the snapshot's
 * "socket:[INODE]"). Pure: the /proc/net text is given, never read here;
 * its hex addresses are the kernel's words in this host's byte order.
 * Sockets made under the trace are named from the kernel's socket at
 * connect, bind and accept (pair/net.h), before that by socket()'s
 * arguments ("socket:tcp", syscalls/syscalls.h). */
#ifndef IOR_PAIR_ENDPOINT_H
#define IOR_PAIR_ENDPOINT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* "10.0.0.5:5432", "[::1]:80", "/run/x.sock", "@abstract" (a leading NUL
 * shown as @), "unnamed"; "" for another family or a short address.
 * Returns out. */
const char *ior_endpoint_addr(char *out, size_t len, const struct sockaddr *sa, socklen_t salen);

/* "PROTO:LOCAL->REMOTE", or "PROTO:LOCAL" when remote is "" or the
 * unspecified address with port 0 (a listener, an unconnected datagram
 * socket). Returns out. */
const char *ior_endpoint_join(char *out, size_t len, const char *proto, const char *local,
			      const char *remote);

/* The protocols a socket's name starts with ("tcp:", "socket:udp6"), a
 * longer name before its prefix; procnet: 1 when /proc/net/NAME lists
 * that protocol's sockets (the snapshot reads those). */
struct ior_endpoint_proto {
	const char *name;
	int procnet;
};
extern const struct ior_endpoint_proto ior_endpoint_protos[];
extern const size_t ior_endpoint_nprotos;

/* The endpoint of the socket with this inode in the text of
 * /proc/net/PROTO (proto "tcp", "tcp6", "udp" or "udp6"), into out:
 * 1 found, 0 not there. */
int ior_procnet_inet(const char *text, const char *proto, uint64_t inode, char *out, size_t len);
/* The same from /proc/net/unix: "unix:PATH", "unix:@NAME", "unix:unnamed". */
int ior_procnet_unix(const char *text, uint64_t inode, char *out, size_t len);
/* Every socket of the text of /proc/net/PROTO ("unix" too), in order:
 * fn(ctx, its inode, its endpoint). */
void ior_procnet_each(const char *text, const char *proto,
		      void (*fn)(void *ctx, uint64_t inode, const char *endpoint), void *ctx);

/* The endpoints of a host's sockets by inode: /proc/net files loaded
 * once, looked up per "socket:[INODE]" of a snapshot. */
struct ior_sock_names;
/* NULL on allocation failure. */
struct ior_sock_names *ior_sock_names_new(void);
void ior_sock_names_free(struct ior_sock_names *s);
/* Adds the sockets of the text of /proc/net/PROTO; 0, or -1 when memory
 * ran out (those that fitted are kept). */
int ior_sock_names_load(struct ior_sock_names *s, const char *proto, const char *text);
/* The endpoint of the socket with this inode, or NULL (s may be NULL). */
const char *ior_sock_names_find(const struct ior_sock_names *s, uint64_t ino);

#endif
