/* Naming sockets and pipes made under the trace from the network extras
 * of their exits (pair/net.h): connect, bind and accept name the socket
 * by its endpoint in the fd table; sendto and recvfrom with an address
 * name the pair by the peer; pipe, pipe2 and socketpair name both fds. */
#include "pair/internal.h"
#include "pair/net.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

/* fd's name becomes name (not the table's own string), its flags kept. */
static void rename_fd(struct ior_pairer *p, struct ior_event_pair *e, int fd, const char *name)
{
	int64_t flags;

	if (!name[0])
		return;
	ior_fdtab_get(p->cfg.fds, e->pid, fd, &flags);
	ior_fdtab_set(p->cfg.fds, e->pid, fd, name, flags);
	e->path = ior_fdtab_get(p->cfg.fds, e->pid, fd, &e->flags);
}

/* A name that says only the kind ("socket:tcp") or nothing. */
static int kind_only(const char *name)
{
	return !name[0] || !strcmp(name, "socket") || (!strncmp(name, "socket:", 7) && !strchr(name + 7, ':'));
}

static void name_pair(struct ior_pairer *p, const struct ior_syscall *s, const struct tid_st *t,
		      struct ior_event_pair *e)
{
	const struct ior_exit_net *n = &p->net;
	int sockpair = s->family == IOR_FAM_Network; /* socketpair; pipe and pipe2 are IPC */
	char name[2][64];

	for (int i = 0; i < 2; i++) {
		int64_t fl;
		if (n->fds[i] < 0)
			return;
		if (sockpair) {
			snprintf(name[i], sizeof name[i], t->aux == AF_UNIX ? "unix:socketpair" : "socketpair");
			fl = O_RDWR | (t->flags & SOCK_NONBLOCK ? O_NONBLOCK : 0) |
			     (t->flags & SOCK_CLOEXEC ? O_CLOEXEC : 0);
		} else {
			if (n->ino[i])
				snprintf(name[i], sizeof name[i], "pipe:[%llu]", (unsigned long long)n->ino[i]);
			else /* no inode (no kernel BTF): honest, not invented */
				snprintf(name[i], sizeof name[i], "pipe");
			fl = (i ? O_WRONLY : O_RDONLY) | (int64_t)(t->flags & (O_NONBLOCK | O_CLOEXEC | O_DIRECT));
		}
		ior_fdtab_set(p->cfg.fds, e->pid, n->fds[i], name[i], fl);
	}
	snprintf(p->path[1], sizeof p->path[1], "%s", name[0]);
	e->path = p->path[1];
}

/* The socket's name from its own addresses, or "unix:ADDR" from the
 * caller's unix address; "" when neither says. */
static const char *endpoint(struct ior_pairer *p, const char *proto, char *out, size_t len)
{
	char a[IOR_SOCKADDR_MAX + 8];

	if (ior_net_addr_unix(&p->net)) {
		snprintf(out, len, "unix:%s", ior_net_addr(&p->net, a, sizeof a));
		return out;
	}
	return ior_net_sk_name(&p->net, proto, NULL, out, len);
}

static void name_accepted(struct ior_pairer *p, const struct tid_st *t, struct ior_event_pair *e)
{
	char proto[16], *out = p->path[1];
	const char *listener = ior_fdtab_get(p->cfg.fds, e->pid, (int)(int32_t)t->fd, &(int64_t){ 0 });

	ior_net_proto(listener, proto);
	if (!ior_net_sk_name(&p->net, proto, NULL, out, sizeof p->path[1])[0] && !strcmp(proto, "unix"))
		snprintf(out, sizeof p->path[1], "%s", kind_only(listener) ? "unix" : listener);
	rename_fd(p, e, e->fd, out);
}

/* sendto, recvfrom with an address: the pair is the socket's endpoint to
 * that peer; a socket known only by its kind learns its local address. */
static void name_peer(struct ior_pairer *p, struct ior_event_pair *e, const char *proto)
{
	char peer[IOR_SOCKADDR_MAX + 8], own[128];

	if (kind_only(e->path) && ior_net_sk_name(&p->net, proto, NULL, own, sizeof own)[0] &&
	    p->net.sk_lport)
		rename_fd(p, e, e->fd, own);
	if (p->net.sk_rport || !ior_net_addr(&p->net, peer, sizeof peer)[0])
		return; /* connected: the fd's name says the peer */
	if (ior_net_addr_unix(&p->net))
		snprintf(p->path[1], sizeof p->path[1], "unix:%s", peer);
	else if (!ior_net_sk_name(&p->net, proto, peer, p->path[1], sizeof p->path[1])[0])
		return;
	e->path = p->path[1];
}

void ior_pair_net_init(struct ior_pairer *p)
{
	p->mmsg[0] = ior_syscall_by_name("sendmmsg");
	p->mmsg[1] = ior_syscall_by_name("recvmmsg");
	for (unsigned i = 0; i < ior_nsyscalls && p->nwaits < 8; i++) {
		unsigned k = ior_roles_wait(&ior_syscalls[i], NULL);
		if (k) {
			p->wait_sys[p->nwaits] = &ior_syscalls[i];
			p->wait_kind[p->nwaits++] = (unsigned char)k;
		}
	}
}

static void timeout(struct ior_pairer *p, const struct ior_syscall *s, const struct tid_st *t,
		    struct ior_event_pair *e)
{
	for (unsigned i = 0; i < p->nwaits; i++)
		if (p->wait_sys[i] == s) {
			int64_t ns = ior_net_timeout_ns(p->wait_kind[i], t->aux);
			e->has_timeout = ns != IOR_WAIT_UNREAD;
			e->timeout_ns = e->has_timeout ? ns : 0;
			return;
		}
}

void ior_pair_name_net(struct ior_pairer *p, const struct ior_syscall *s, const struct tid_st *t,
		       struct ior_event_pair *e)
{
	char proto[16], name[IOR_SOCKADDR_MAX + 64];

	if (s->family == IOR_FAM_Polling)
		timeout(p, s, t, e);
	if (!p->has_net) {
		if (s == p->mmsg[0] || s == p->mmsg[1])
			e->bytes = 0; /* ret counts messages; their bytes did not come */
		return;
	}
	if (p->net.kind == IOR_NET_FDPAIR) {
		name_pair(p, s, t, e);
		return;
	}
	if (p->net.kind == IOR_NET_MMSG) {
		e->bytes = p->net.bytes;
		p->st.mmsg_unread += p->net.unread;
		return;
	}
	if (e->fd < 0)
		return;
	/* by the row's roles (syscalls/rows.h NET): accept's returned fd is
	 * the socket; connect and bind name theirs, getsockname and
	 * getpeername one known only by kind; sendto and recvfrom (the ones
	 * that may fold) name the pair by its peer */
	if (p->net.kind == IOR_NET_ADDR_OUT && s->net_sk_ret) {
		name_accepted(p, t, e);
		return;
	}
	ior_net_proto(e->path, proto);
	if (!s->net_fold && !s->net_sk_ret && (s->net == IOR_NET_ADDR_IN || kind_only(e->path)))
		rename_fd(p, e, e->fd, endpoint(p, proto, name, sizeof name));
	else if (s->net_fold)
		name_peer(p, e, proto);
}
