/* Network extras of exits (pair/net.h): which syscalls carry them, reading
 * them from hostile records, the names they give, and pairing that names
 * sockets and pipes by them. */
#include "bpf/event.h"
#include "pair/fdtab.h"
#include "pair/net.h"
#include "pair/pair.h"
#include "syscalls/syscalls.h"
#include "t.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>

/* An exit record with the extra n, cut after its address as bpf.c cuts it. */
static size_t net_exit(struct ior_rec_exit *x, uint16_t nr, int64_t ret, const struct ior_exit_net *n)
{
	memset(x, 0, sizeof *x);
	x->h = (struct ior_rec_head){ 2000, 10, 10, IOR_REC_EXIT, nr, 0 };
	x->ret = ret;
	x->ident = IOR_EXIT_NET;
	memcpy(x->paths, n, IOR_EXIT_NET_BASE + n->addr_len);
	x->h.len = (uint32_t)(IOR_REC_EXIT_BASE + IOR_EXIT_NET_BASE + n->addr_len);
	return x->h.len;
}

static void set_addr(struct ior_exit_net *n, const void *sa, size_t len)
{
	memcpy(n->addr, sa, len);
	n->addr_len = (uint16_t)len;
}

TEST(conf_by_name)
{
	struct ior_sys_conf c = { .fold = 1 };
	ior_roles_conf(ior_syscall_by_name("connect"), &c);
	CHECK(c.net == IOR_NET_ADDR_IN && c.net_arg == 1 && c.net_len_arg == 2 && !c.net_sk_ret);
	CHECK_EQ_INT(c.fold, 0); /* names the fd */
	c.fold = 1;
	ior_roles_conf(ior_syscall_by_name("sendto"), &c);
	CHECK_EQ_INT(c.fold, 1); /* send() stays summarized when a ring is full */
	ior_roles_conf(ior_syscall_by_name("accept4"), &c);
	CHECK(c.net == IOR_NET_ADDR_OUT && c.net_sk_ret == 1);
	ior_roles_conf(ior_syscall_by_name("recvfrom"), &c);
	CHECK(c.net == IOR_NET_ADDR_OUT && c.net_arg == 4 && c.net_len_arg == 5 && !c.net_sk_ret);
	ior_roles_conf(ior_syscall_by_name("socketpair"), &c);
	CHECK(c.net == IOR_NET_FDPAIR && c.net_arg == 3);
	ior_roles_conf(ior_syscall_by_name("sendmmsg"), &c);
	CHECK(c.net == IOR_NET_MMSG && c.net_arg == 1);
	struct ior_sys_conf d = { 0 };
	ior_roles_conf(ior_syscall_by_name("read"), &d);
	CHECK_EQ_INT(d.net, IOR_NET_NONE);
	unsigned with = 0;
	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		struct ior_sys_conf e = { 0 };
		ior_roles_conf(&ior_syscalls[i], &e);
		with += e.net != IOR_NET_NONE;
	}
	/* every row of net.c names a syscall of the table (arm64: one lacks it) */
#if defined(__aarch64__)
	CHECK_EQ_INT(with, 12);
#else
	CHECK_EQ_INT(with, 13);
#endif
}

TEST(read_bounds_hostile_records)
{
	struct ior_rec_exit x;
	struct ior_exit_net n = { .kind = IOR_NET_ADDR_IN }, got;
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(80) };
	set_addr(&n, &in, sizeof in);
	size_t len = net_exit(&x, 42, 0, &n);
	CHECK_EQ_INT(ior_net_read((char *)&x, len, &got), 0);
	CHECK_EQ_INT(got.addr_len, sizeof in);
	/* cut inside the address: the address is dropped, the rest kept */
	CHECK_EQ_INT(ior_net_read((char *)&x, len - 1, &got), 0);
	CHECK_EQ_INT(got.addr_len, 0);
	/* cut inside the fixed part, another ident, paths, a bad kind: none */
	CHECK_EQ_INT(ior_net_read((char *)&x, IOR_REC_EXIT_BASE + IOR_EXIT_NET_BASE - 1, &got), -1);
	x.ident = 1;
	CHECK_EQ_INT(ior_net_read((char *)&x, len, &got), -1);
	x.ident = IOR_EXIT_NET;
	x.npaths = 1;
	CHECK_EQ_INT(ior_net_read((char *)&x, len, &got), -1);
	x.npaths = 0;
	((struct ior_exit_net *)x.paths)->kind = 9;
	CHECK_EQ_INT(ior_net_read((char *)&x, len, &got), -1);
	/* a length past IOR_SOCKADDR_MAX in a record long enough */
	((struct ior_exit_net *)x.paths)->kind = IOR_NET_ADDR_OUT;
	((struct ior_exit_net *)x.paths)->addr_len = 4000;
	CHECK_EQ_INT(ior_net_read((char *)&x, sizeof x, &got), 0);
	CHECK_EQ_INT(got.addr_len, 0);
}

TEST(names)
{
	struct ior_exit_net n = { .sk_family = AF_INET, .sk_lport = 40112, .sk_rport = 5432 };
	char out[256], proto[16];
	inet_pton(AF_INET, "10.0.0.9", n.sk_laddr);
	inet_pton(AF_INET, "10.0.0.5", n.sk_raddr);
	CHECK_EQ_STR(ior_net_sk_name(&n, "tcp", NULL, out, sizeof out), "tcp:10.0.0.9:40112->10.0.0.5:5432");
	CHECK_EQ_STR(ior_net_sk_name(&n, "", NULL, out, sizeof out), "inet:10.0.0.9:40112->10.0.0.5:5432");
	CHECK_EQ_STR(ior_net_sk_name(&n, "udp", "1.2.3.4:53", out, sizeof out), "udp:10.0.0.9:40112->1.2.3.4:53");
	n.sk_rport = 0; /* a listener, an unconnected datagram socket */
	CHECK_EQ_STR(ior_net_sk_name(&n, "tcp", NULL, out, sizeof out), "tcp:10.0.0.9:40112");
	struct ior_exit_net v6 = { .sk_family = AF_INET6, .sk_lport = 80, .sk_rport = 50000 };
	v6.sk_laddr[15] = v6.sk_raddr[15] = 1;
	CHECK_EQ_STR(ior_net_sk_name(&v6, "tcp6", NULL, out, sizeof out), "tcp6:[::1]:80->[::1]:50000");
	struct ior_exit_net none = { .sk_family = AF_UNIX };
	CHECK_EQ_STR(ior_net_sk_name(&none, "unix", NULL, out, sizeof out), "");
	CHECK_EQ_STR(ior_net_proto("socket:tcp6", proto), "tcp6");
	CHECK_EQ_STR(ior_net_proto("udp:127.0.0.1:53", proto), "udp");
	CHECK_EQ_STR(ior_net_proto("unix:/run/x.sock", proto), "unix");
	CHECK_EQ_STR(ior_net_proto("socket:netlink", proto), "");
	CHECK_EQ_STR(ior_net_proto("/tmp/tcp:1", proto), "");
	CHECK_EQ_STR(ior_net_proto("tcp", proto), ""); /* a file named so */
	CHECK_EQ_STR(ior_net_proto("", proto), "");
}

TEST(unix_addresses_hostile)
{
	struct ior_exit_net n = { 0 };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	char out[300];
	size_t base = offsetof(struct sockaddr_un, sun_path);

	memcpy(un.sun_path, "\0a\0b\n", 5); /* abstract, NULs inside, a newline */
	set_addr(&n, &un, base + 5);
	CHECK(ior_net_addr_unix(&n));
	CHECK_EQ_STR(ior_net_addr(&n, out, sizeof out), "@a@b\n"); /* sinks escape the newline */
	memcpy(un.sun_path, "/run/x.sock", 12);
	set_addr(&n, &un, base + 12);
	CHECK_EQ_STR(ior_net_addr(&n, out, sizeof out), "/run/x.sock");
	set_addr(&n, &un, base + 4); /* a path cut by its length, no NUL */
	CHECK_EQ_STR(ior_net_addr(&n, out, sizeof out), "/run");
	set_addr(&n, &un, base); /* unnamed */
	CHECK_EQ_STR(ior_net_addr(&n, out, sizeof out), "unnamed");
	set_addr(&n, &un, 1); /* shorter than the family */
	CHECK(!ior_net_addr_unix(&n));
	CHECK_EQ_STR(ior_net_addr(&n, out, sizeof out), "");
	/* the most the kernel side copies: 128 bytes, a path without a NUL */
	memset(n.addr, 'A', sizeof n.addr);
	memcpy(n.addr, &(sa_family_t){ AF_UNIX }, sizeof(sa_family_t));
	n.addr_len = IOR_SOCKADDR_MAX;
	CHECK_EQ_INT(strlen(ior_net_addr(&n, out, sizeof out)), sizeof un.sun_path);
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(443) };
	set_addr(&n, &in6, sizeof in6 - 1); /* short: no address */
	CHECK_EQ_STR(ior_net_addr(&n, out, sizeof out), "");
	CHECK(!ior_net_addr_unix(&n));
}

/* ---- pairing ------------------------------------------------------------ */

struct got {
	char path[16][128];
	uint64_t bytes[16];
	int n;
};

static void sink(void *ctx, const struct ior_event_pair *p)
{
	struct got *g = ctx;
	if (g->n < 16) {
		snprintf(g->path[g->n], 128, "%s", p->path);
		g->bytes[g->n++] = p->bytes;
	}
}

static void pair(struct ior_pairer *pr, const char *name, int64_t fd, uint64_t flags, uint64_t aux,
		 int64_t ret, const struct ior_exit_net *n)
{
	const struct ior_syscall *s = ior_syscall_by_name(name);
	struct ior_rec_enter e = { { 1000, 10, 10, IOR_REC_ENTER, s->nr, sizeof e }, fd, "prog", flags, aux };
	struct ior_rec_exit x;
	size_t len;

	ior_pair_feed(pr, &e, sizeof e);
	if (n) {
		len = net_exit(&x, s->nr, ret, n);
	} else {
		memset(&x, 0, sizeof x);
		x.h = (struct ior_rec_head){ 2000, 10, 10, IOR_REC_EXIT, s->nr, IOR_REC_EXIT_SHORT };
		x.ret = ret;
		len = IOR_REC_EXIT_SHORT;
	}
	ior_pair_feed(pr, &x, len);
}

TEST(pairing_names_sockets_and_pipes)
{
	struct ior_fdtab *fds = ior_fdtab_new(64, 8);
	struct got g = { .n = 0 };
	struct ior_pair_cfg cfg = { fds, NULL, sink, &g, NULL, NULL, NULL, NULL };
	struct ior_pairer *pr = ior_pair_new(&cfg);
	int64_t fl;

	pair(pr, "socket", -1, SOCK_STREAM, AF_INET, 3, NULL);
	CHECK_EQ_STR(g.path[0], "socket:tcp");
	struct ior_exit_net c = { .kind = IOR_NET_ADDR_IN, .sk_family = AF_INET, .sk_lport = 40112,
				  .sk_rport = 5432 };
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(5432) };
	inet_pton(AF_INET, "127.0.0.1", c.sk_laddr);
	inet_pton(AF_INET, "127.0.0.2", c.sk_raddr);
	set_addr(&c, &to, sizeof to);
	pair(pr, "connect", 3, 0, 0, 0, &c);
	CHECK_EQ_STR(g.path[1], "tcp:127.0.0.1:40112->127.0.0.2:5432");
	CHECK_EQ_STR(ior_fdtab_get(fds, 10, 3, &fl), "tcp:127.0.0.1:40112->127.0.0.2:5432");
	pair(pr, "sendto", 3, 0, 0, 7, NULL); /* send(): no extra, the fd's name */
	CHECK_EQ_STR(g.path[2], "tcp:127.0.0.1:40112->127.0.0.2:5432");
	CHECK_EQ_INT(g.bytes[2], 7);
	/* a failed connect names nothing (the kernel sends no extra then) */
	pair(pr, "socket", -1, SOCK_DGRAM, AF_INET, 4, NULL);
	pair(pr, "connect", 4, 0, 0, -111, NULL);
	CHECK_EQ_STR(g.path[4], "socket:udp");
	/* sendto with an address on an unbound datagram socket: the pair is
	 * named by that peer, the fd learns its local address */
	struct ior_exit_net d = { .kind = IOR_NET_ADDR_IN, .sk_family = AF_INET, .sk_lport = 33000 };
	to.sin_port = htons(53);
	inet_pton(AF_INET, "127.0.0.53", &to.sin_addr);
	set_addr(&d, &to, sizeof to);
	pair(pr, "sendto", 4, 0, 0, 12, &d);
	CHECK_EQ_STR(g.path[5], "udp:0.0.0.0:33000->127.0.0.53:53");
	CHECK_EQ_STR(ior_fdtab_get(fds, 10, 4, &fl), "udp:0.0.0.0:33000");
	/* pipe2 O_CLOEXEC: both ends by inode, read and write ends */
	struct ior_exit_net p = { .kind = IOR_NET_FDPAIR, .fds = { 5, 6 }, .ino = { 777, 777 } };
	pair(pr, "pipe2", -1, O_CLOEXEC, 0, 0, &p);
	CHECK_EQ_STR(g.path[6], "pipe:[777]");
	CHECK_EQ_STR(ior_fdtab_get(fds, 10, 5, &fl), "pipe:[777]");
	CHECK_EQ_INT(fl, O_RDONLY | O_CLOEXEC);
	CHECK_EQ_STR(ior_fdtab_get(fds, 10, 6, &fl), "pipe:[777]");
	CHECK_EQ_INT(fl, O_WRONLY | O_CLOEXEC);
	/* socketpair; a hostile negative fd names nothing */
	struct ior_exit_net sp = { .kind = IOR_NET_FDPAIR, .fds = { 7, 8 } };
	pair(pr, "socketpair", -1, SOCK_STREAM, AF_UNIX, 0, &sp);
	CHECK_EQ_STR(ior_fdtab_get(fds, 10, 8, &fl), "unix:socketpair");
	struct ior_exit_net bad = { .kind = IOR_NET_FDPAIR, .fds = { -5, 9 } };
	pair(pr, "pipe2", -1, 0, 0, 0, &bad);
	CHECK_EQ_STR(ior_fdtab_get(fds, 10, 9, &fl), "");
	/* a unix listener by path, and the connection it accepts */
	struct sockaddr_un un = { .sun_family = AF_UNIX, .sun_path = "/run/x.sock" };
	struct ior_exit_net b = { .kind = IOR_NET_ADDR_IN };
	set_addr(&b, &un, offsetof(struct sockaddr_un, sun_path) + 12);
	pair(pr, "socket", -1, SOCK_STREAM, AF_UNIX, 10, NULL);
	pair(pr, "bind", 10, 0, 0, 0, &b);
	struct ior_exit_net a = { .kind = IOR_NET_ADDR_OUT };
	pair(pr, "accept4", 10, 0, 0, 11, &a);
	CHECK_EQ_STR(ior_fdtab_get(fds, 10, 11, &fl), "unix:/run/x.sock");
	/* recvmmsg: the bytes the extra summed, not ret; without it none */
	struct ior_exit_net m = { .kind = IOR_NET_MMSG, .bytes = 15, .unread = 2 };
	pair(pr, "recvmmsg", 4, 0, 0, 66, &m);
	CHECK_EQ_INT(g.bytes[g.n - 1], 15);
	pair(pr, "recvmmsg", 4, 0, 0, 3, NULL);
	CHECK_EQ_INT(g.bytes[g.n - 1], 0);
	struct ior_pair_stats st;
	ior_pair_get_stats(pr, &st);
	CHECK_EQ_INT(st.mmsg_unread, 2);
	CHECK_EQ_INT(st.bad_records, 0);
	ior_pair_free(pr);
	ior_fdtab_free(fds);
}

TEST(timeouts)
{
	struct ior_sys_conf c = { .aux_arg = IOR_ARG_NONE };
	unsigned arg = 99;
	ior_roles_conf(ior_syscall_by_name("pselect6"), &c);
	CHECK(c.wait == IOR_WAIT_TIMESPEC && c.aux_arg == 4);
#ifdef __x86_64__ /* select, the one timeval wait, is x86_64's alone */
	CHECK_EQ_INT(ior_roles_wait(ior_syscall_by_name("select"), &arg), IOR_WAIT_TIMEVAL);
	CHECK_EQ_INT(arg, 4);
#else
	CHECK(!ior_syscall_by_name("select"));
#endif
	CHECK_EQ_INT(ior_roles_wait(ior_syscall_by_name("epoll_pwait"), &arg), IOR_WAIT_MS);
	CHECK_EQ_INT(arg, 3);
	CHECK_EQ_INT(ior_roles_wait(ior_syscall_by_name("read"), NULL), IOR_WAIT_NONE);
	CHECK_EQ_INT(ior_net_timeout_ns(IOR_WAIT_MS, 50), 50000000);
	CHECK_EQ_INT(ior_net_timeout_ns(IOR_WAIT_MS, 0), 0);
	CHECK_EQ_INT(ior_net_timeout_ns(IOR_WAIT_MS, (uint32_t)-1), IOR_WAIT_INFINITE);
	CHECK_EQ_INT(ior_net_timeout_ns(IOR_WAIT_MS, 0xffffffff00000005ull), 5000000); /* an int argument */
	CHECK_EQ_INT(ior_net_timeout_ns(IOR_WAIT_TIMESPEC, 1500), 1500);
	CHECK_EQ_INT(ior_net_timeout_ns(IOR_WAIT_TIMEVAL, (uint64_t)IOR_WAIT_INFINITE), IOR_WAIT_INFINITE);
	CHECK_EQ_INT(ior_net_timeout_ns(IOR_WAIT_TIMESPEC, (uint64_t)-77), IOR_WAIT_UNREAD);
	CHECK_EQ_INT(ior_net_timeout_ns(IOR_WAIT_NONE, 5), IOR_WAIT_UNREAD);
}

struct waited {
	uint8_t has[4];
	int64_t ns[4];
	int n;
};

static void wait_sink(void *ctx, const struct ior_event_pair *p)
{
	struct waited *w = ctx;
	if (w->n < 4) {
		w->has[w->n] = p->has_timeout;
		w->ns[w->n++] = p->timeout_ns;
	}
}

TEST(pairing_gives_waits_their_timeout)
{
	struct ior_fdtab *fds = ior_fdtab_new(64, 8);
	struct waited w = { .n = 0 };
	struct ior_pair_cfg cfg = { fds, NULL, wait_sink, &w, NULL, NULL, NULL, NULL };
	struct ior_pairer *pr = ior_pair_new(&cfg);

	pair(pr, "epoll_pwait", 7, 0, 30, 0, NULL);
	pair(pr, "ppoll", -1, 0, (uint64_t)IOR_WAIT_INFINITE, 1, NULL);
	pair(pr, "pselect6", -1, 0, (uint64_t)IOR_WAIT_UNREAD, 0, NULL);
	pair(pr, "read", 3, 0, 30, 0, NULL);
	CHECK_EQ_INT(w.n, 4);
	CHECK(w.has[0] && w.ns[0] == 30000000);
	CHECK(w.has[1] && w.ns[1] == -1);
	CHECK(!w.has[2] && !w.has[3]);
	ior_pair_free(pr);
	ior_fdtab_free(fds);
}

int main(void)
{
	RUN(conf_by_name);
	RUN(read_bounds_hostile_records);
	RUN(names);
	RUN(unix_addresses_hostile);
	RUN(pairing_names_sockets_and_pipes);
	RUN(timeouts);
	RUN(pairing_gives_waits_their_timeout);
	return t_done();
}
