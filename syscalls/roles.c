/* The network and wait roles of syscalls, by name so every arch's table
 * gets them: what their exits carry (trace's sys_conf) and the argument of
 * a wait's timeout. */
#include "syscalls/roles.h"

#include <string.h>

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

unsigned ior_roles_wait(const struct ior_syscall *s, unsigned *arg)
{
	for (size_t i = 0; i < sizeof waits / sizeof *waits; i++)
		if (!strcmp(waits[i].name, s->name)) {
			if (arg)
				*arg = waits[i].arg;
			return waits[i].kind;
		}
	return IOR_WAIT_NONE;
}

int ior_roles_names_fds(const struct ior_syscall *s)
{
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
		if (!strcmp(rows[i].name, s->name))
			return rows[i].kind == IOR_NET_FDPAIR || (rows[i].kind == IOR_NET_ADDR_IN && !rows[i].fold);
	return 0;
}

void ior_roles_conf(const struct ior_syscall *s, struct ior_sys_conf *c)
{
	unsigned arg;

	if ((c->wait = (uint8_t)ior_roles_wait(s, &arg)))
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

