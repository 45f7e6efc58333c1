/* Network extras of exit records and the names they give descriptors. */
#include "pair/net.h"
#include "pair/endpoint.h"
#include "text/inet.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

int64_t ior_net_timeout_ns(unsigned kind, uint64_t aux)
{
	if (kind == IOR_WAIT_MS)
		return (int32_t)aux < 0 ? IOR_WAIT_INFINITE : (int64_t)(int32_t)aux * 1000000;
	if (kind == IOR_WAIT_TIMESPEC || kind == IOR_WAIT_TIMEVAL)
		return (int64_t)aux < IOR_WAIT_UNREAD ? IOR_WAIT_UNREAD : (int64_t)aux;
	return IOR_WAIT_UNREAD;
}

int ior_net_read(const char *rec, size_t len, struct ior_exit_net *n)
{
	struct ior_rec_exit x;
	size_t at = IOR_REC_EXIT_BASE;

	if (len < at + IOR_EXIT_NET_BASE)
		return -1;
	memcpy(&x, rec, IOR_REC_EXIT_BASE);
	if (x.ident != IOR_EXIT_NET || x.npaths)
		return -1;
	memcpy(n, rec + at, IOR_EXIT_NET_BASE);
	if (n->addr_len > IOR_SOCKADDR_MAX || n->addr_len > len - at - IOR_EXIT_NET_BASE)
		n->addr_len = 0; /* malformed: the address is dropped, the rest kept */
	memcpy(n->addr, rec + at + IOR_EXIT_NET_BASE, n->addr_len);
	if (n->kind == IOR_NET_NONE || n->kind > IOR_NET_MMSG)
		return -1;
	return 0;
}

const char *ior_net_proto(const char *fdname, char *out)
{
	const char *p = !strncmp(fdname, "socket:", 7) ? fdname + 7 : fdname;

	out[0] = 0;
	for (size_t i = 0; i < ior_endpoint_nprotos; i++) {
		const char *name = ior_endpoint_protos[i].name;
		size_t k = strlen(name);
		if (!strncmp(p, name, k) && (p[k] == ':' || (p != fdname && !p[k]))) {
			memcpy(out, name, k + 1);
			break;
		}
	}
	return out;
}

const char *ior_net_sk_name(const struct ior_exit_net *n, const char *proto, const char *peer,
			    char *out, size_t len)
{
	char l[64], r[64];
	int fam = n->sk_family;

	out[0] = 0;
	if (fam != AF_INET && fam != AF_INET6)
		return out;
	if (!proto[0])
		proto = fam == AF_INET6 ? "inet6" : "inet";
	ior_text_inet(l, sizeof l, fam, n->sk_laddr, n->sk_lport);
	ior_text_inet(r, sizeof r, fam, n->sk_raddr, n->sk_rport);
	return ior_endpoint_join(out, len, proto, l, peer ? peer : n->sk_rport ? r : "");
}

const char *ior_net_addr(const struct ior_exit_net *n, char *out, size_t len)
{
	struct sockaddr_storage ss;

	memset(&ss, 0, sizeof ss);
	memcpy(&ss, n->addr, n->addr_len < sizeof ss ? n->addr_len : sizeof ss);
	return ior_endpoint_addr(out, len, (const struct sockaddr *)&ss, n->addr_len);
}

int ior_net_addr_unix(const struct ior_exit_net *n)
{
	sa_family_t fam;

	if (n->addr_len < sizeof fam)
		return 0;
	memcpy(&fam, n->addr, sizeof fam);
	return fam == AF_UNIX;
}
