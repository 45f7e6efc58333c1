/* The network and wait roles of a syscall, as its table row gives them
 * (syscalls/rows.h, NET and WAIT): what its exit carries for the kernel's
 * sys_conf, whether the fd table needs it, a wait's timeout argument. */
#include "syscalls/roles.h"

unsigned ior_roles_wait(const struct ior_syscall *s, unsigned *arg)
{
	if (s->wait && arg)
		*arg = s->wait_arg;
	return s->wait;
}

int ior_roles_names_fds(const struct ior_syscall *s)
{
	return s->net == IOR_NET_FDPAIR || (s->net == IOR_NET_ADDR_IN && !s->net_fold);
}

void ior_roles_conf(const struct ior_syscall *s, struct ior_sys_conf *c)
{
	if ((c->wait = s->wait))
		c->aux_arg = s->wait_arg;
	if (!s->net)
		return;
	c->net = s->net;
	c->net_arg = s->net_arg;
	c->net_len_arg = s->net_len_arg;
	c->net_sk_ret = s->net_sk_ret;
	c->fold &= s->net_fold; /* the others name fds or count what a summary cannot (mmsg) */
}
