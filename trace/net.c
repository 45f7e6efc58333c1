#include "net.h"
#include "endpoint.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#define N IOR_ARG_NONE

/* fold: may still be summarized while the CPU's ring is full (the pair
 * loses only its per-call peer); the others name fds, or count bytes the
 * summary cannot (mmsg), so their records are kept or counted lost. */
static const struct net_row {
	const char *name;
	unsigned char kind, arg, len_arg, sk_ret, fold;
} rows[] = {
	{ "connect", IOR_NET_ADDR_IN, 1, 2, 0, 0 },
	{ "bind", IOR_NET_ADDR_IN, 1, 2, 0, 0 },
	{ "sendto", IOR_NET_ADDR_IN, 4, 5, 0, 1 },
	{ "accept", IOR_NET_ADDR_OUT, 1, 2, 1, 0 },
	{ "accept4", IOR_NET_ADDR_OUT, 1, 2, 1, 0 },
	{ "getsockname", IOR_NET_ADDR_OUT, 1, 2, 0, 0 },
	{ "getpeername", IOR_NET_ADDR_OUT, 1, 2, 0, 0 },
	{ "recvfrom", IOR_NET_ADDR_OUT, 4, 5, 0, 1 },
	{ "pipe", IOR_NET_FDPAIR, 0, N, 0, 0 },
	{ "pipe2", IOR_NET_FDPAIR, 0, N, 0, 0 },
	{ "socketpair", IOR_NET_FDPAIR, 3, N, 0, 0 },
	{ "sendmmsg", IOR_NET_MMSG, 1, N, 0, 0 },
	{ "recvmmsg", IOR_NET_MMSG, 1, N, 0, 0 },
};

/* The waits and the argument of their timeout. */
static const struct wait_row {
	const char *name;
	unsigned char kind, arg;
} waits[] = {
	{ "poll", IOR_WAIT_MS, 2 },
	{ "epoll_wait", IOR_WAIT_MS, 3 },
	{ "epoll_pwait", IOR_WAIT_MS, 3 },
	{ "select", IOR_WAIT_TIMEVAL, 4 },
	{ "pselect6", IOR_WAIT_TIMESPEC, 4 },
	{ "ppoll", IOR_WAIT_TIMESPEC, 2 },
	{ "epoll_pwait2", IOR_WAIT_TIMESPEC, 3 },
};

unsigned ior_net_wait(const struct ior_syscall *s, unsigned *arg)
{
	for (size_t i = 0; i < sizeof waits / sizeof *waits; i++)
		if (!strcmp(waits[i].name, s->name)) {
			if (arg)
				*arg = waits[i].arg;
			return waits[i].kind;
		}
	return IOR_WAIT_NONE;
}

int ior_net_names_fds(const struct ior_syscall *s)
{
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
		if (!strcmp(rows[i].name, s->name))
			return rows[i].kind == IOR_NET_FDPAIR || (rows[i].kind == IOR_NET_ADDR_IN && !rows[i].fold);
	return 0;
}

int64_t ior_net_timeout_ns(unsigned kind, uint64_t aux)
{
	if (kind == IOR_WAIT_MS)
		return (int32_t)aux < 0 ? IOR_WAIT_INFINITE : (int64_t)(int32_t)aux * 1000000;
	if (kind == IOR_WAIT_TIMESPEC || kind == IOR_WAIT_TIMEVAL)
		return (int64_t)aux < IOR_WAIT_UNREAD ? IOR_WAIT_UNREAD : (int64_t)aux;
	return IOR_WAIT_UNREAD;
}

void ior_net_conf(const struct ior_syscall *s, struct ior_sys_conf *c)
{
	unsigned arg;

	if ((c->wait = (uint8_t)ior_net_wait(s, &arg)))
		c->aux_arg = (uint8_t)arg;
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
		if (!strcmp(rows[i].name, s->name)) {
			c->net = rows[i].kind;
			c->net_arg = rows[i].arg;
			c->net_len_arg = rows[i].len_arg;
			c->net_sk_ret = rows[i].sk_ret;
			c->fold &= rows[i].fold;
			return;
		}
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
	static const char *const known[] = { "tcp6", "udp6", "tcp", "udp", "unix", "inet6", "inet" };
	const char *p = !strncmp(fdname, "socket:", 7) ? fdname + 7 : fdname;

	out[0] = 0;
	for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
		size_t k = strlen(known[i]);
		if (!strncmp(p, known[i], k) && (p[k] == ':' || (p != fdname && !p[k]))) {
			memcpy(out, known[i], k + 1);
			break;
		}
	}
	return out;
}

static void inet_text(int fam, const __u8 *a, unsigned port, char *out, size_t len)
{
	char ip[INET6_ADDRSTRLEN];

	inet_ntop(fam, a, ip, sizeof ip);
	snprintf(out, len, fam == AF_INET6 ? "[%s]:%u" : "%s:%u", ip, port);
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
	inet_text(fam, n->sk_laddr, n->sk_lport, l, sizeof l);
	inet_text(fam, n->sk_raddr, n->sk_rport, r, sizeof r);
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
