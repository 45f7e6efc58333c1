/* The syscall table: complete for x86_64, consistent, the roles the
 * pairing stage relies on. */
#include "bpf/event.h"
#include "syscalls/syscalls.h"
#include "t.h"

#include <fcntl.h>
#include <sys/socket.h>

/* Any arch's row of that name: the roles are the same on every arch
 * (the other tables are generated from x86_64's rows). */
static const struct ior_syscall *sc(const char *name)
{
	int sys = ior_sys_find(name);
	if (sys < 0)
		T_FAIL("no syscall %s", name);
	return sys < 0 ? NULL : ior_sys((unsigned)sys);
}

/* The build arch's table: arm64 lacks x86_64's legacy calls (open, stat,
 * poll, ...). */
#if defined(__aarch64__)
#define NSYSCALLS 324
#define FAMILY_COUNTS { \
		[IOR_FAM_FS] = 103, [IOR_FAM_Network] = 22, [IOR_FAM_Polling] = 6, \
		[IOR_FAM_Memory] = 28, [IOR_FAM_Process] = 50, [IOR_FAM_Signals] = 12, \
		[IOR_FAM_Sched] = 12, [IOR_FAM_IPC] = 34, [IOR_FAM_Time] = 17, \
		[IOR_FAM_Security] = 21, [IOR_FAM_AIO] = 9, [IOR_FAM_Misc] = 10, }
#else
#define NSYSCALLS 367
#define FAMILY_COUNTS { \
		[IOR_FAM_FS] = 126, [IOR_FAM_Network] = 22, [IOR_FAM_Polling] = 10, \
		[IOR_FAM_Memory] = 28, [IOR_FAM_Process] = 54, [IOR_FAM_Signals] = 13, \
		[IOR_FAM_Sched] = 12, [IOR_FAM_IPC] = 37, [IOR_FAM_Time] = 19, \
		[IOR_FAM_Security] = 21, [IOR_FAM_AIO] = 9, [IOR_FAM_Misc] = 16, }
#endif

TEST(every_entry_is_whole)
{
	CHECK_EQ_INT(ior_nsyscalls, NSYSCALLS);
	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		const struct ior_syscall *s = &ior_syscalls[i];
		if (!s->name || !s->name[0] || s->family >= IOR_NFAMILIES || s->nr >= IOR_NR_MAX ||
		    s->cls > IOR_SC_FCNTL)
			T_FAIL("entry %u (%s)", i, s->name ? s->name : "?");
		for (int a = 0; a < 2; a++)
			if (s->path_arg[a] != IOR_ARG_NONE && s->path_arg[a] > 5)
				T_FAIL("%s: path %d", s->name, a);
		if ((s->fd_arg != IOR_ARG_NONE && s->fd_arg > 5) ||
		    (s->flags_arg != IOR_ARG_NONE && s->flags_arg > 5) ||
		    (s->aux_arg != IOR_ARG_NONE && s->aux_arg > 5))
			T_FAIL("%s: an argument index past 5", s->name);
		if (s->fd_kind != IOR_FD_PATH && s->cls != IOR_SC_OPEN)
			T_FAIL("%s: names a new fd but is no open", s->name);
		if (i && ior_syscalls[i - 1].nr >= s->nr)
			T_FAIL("%s: not in number order", s->name);
	}
}

TEST(no_duplicate_nr_or_name)
{
	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		CHECK(ior_syscall_by_nr(ior_syscalls[i].nr) == &ior_syscalls[i]);
		CHECK(ior_syscall_by_name(ior_syscalls[i].name) == &ior_syscalls[i]);
		CHECK_EQ_INT(ior_syscall_index(&ior_syscalls[i]), i);
	}
	CHECK(ior_syscall_by_nr(IOR_NR_MAX) == NULL && ior_syscall_by_nr(387) == NULL);
	CHECK(ior_syscall_by_name("stat") == NULL); /* the tracepoint's name: newstat */
}

/* Every arch's names have one index each, whatever the build arch: a
 * recording made on another arch reads under its own names. */
static void check_table_in_index(const struct ior_syscall *t, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		int sys = ior_sys_find(t[i].name);
		CHECK(sys >= 0 && (unsigned)sys < ior_sys_count());
		if (sys < 0)
			return;
		CHECK_EQ_STR(ior_sys((unsigned)sys)->name, t[i].name);
		CHECK_EQ_INT(ior_sys((unsigned)sys)->family, t[i].family);
		CHECK_EQ_INT(ior_sys((unsigned)sys)->cls, t[i].cls);
	}
}

TEST(index_space)
{
	for (unsigned i = 0; i < ior_nsyscalls; i++)
		CHECK_EQ_INT(ior_sys_find(ior_syscalls[i].name), ior_syscall_index(&ior_syscalls[i]));
	check_table_in_index(ior_syscalls_x86_64, ior_nsyscalls_x86_64);
	check_table_in_index(ior_syscalls_arm64, ior_nsyscalls_arm64);
	/* x86_64's 367 names and arm64's fadvise64_64 */
	CHECK_EQ_INT(ior_sys_count(), 368);
	CHECK(ior_sys_find("fadvise64") != ior_sys_find("fadvise64_64"));
	CHECK_EQ_STR(ior_sys(ior_sys_count())->name, "?");
	CHECK_EQ_INT(ior_sys(ior_sys_count())->family, IOR_FAM_Misc);
}

/* A name no table knows (a newer kernel's) gets the next index, once. */
TEST(index_define)
{
	unsigned n = ior_sys_count();

	CHECK_EQ_INT(ior_sys_find("sys_from_the_future"), -1);
	CHECK_EQ_INT(ior_sys_define("sys_from_the_future"), n);
	CHECK_EQ_INT(ior_sys_define("sys_from_the_future"), n);
	CHECK_EQ_INT(ior_sys_find("sys_from_the_future"), n);
	CHECK_EQ_INT(ior_sys_count(), n + 1);
	CHECK_EQ_STR(ior_sys(n)->name, "sys_from_the_future");
	CHECK_EQ_INT(ior_sys(n)->family, IOR_FAM_Misc);
	CHECK_EQ_INT(ior_sys(n)->cls, IOR_SC_OTHER);
	CHECK_EQ_INT(ior_sys_define("read"), ior_sys_find("read"));
	CHECK_EQ_INT(ior_sys_count(), n + 1);
}

TEST(counts_per_family)
{
	static const unsigned want[IOR_NFAMILIES] = FAMILY_COUNTS;
	unsigned total = 0;
	for (unsigned f = 0; f < IOR_NFAMILIES; f++) {
		if (ior_family_count(f) != want[f])
			T_FAIL("%s: %u syscalls, want %u", ior_family_name(f), ior_family_count(f), want[f]);
		total += ior_family_count(f);
		CHECK_EQ_INT(ior_family_by_name(ior_family_name(f)), f);
	}
	CHECK_EQ_INT(total, ior_nsyscalls);
	CHECK(ior_family_name(IOR_NFAMILIES) == NULL);
	CHECK_EQ_INT(ior_family_by_name("network"), IOR_FAM_Network);
	CHECK_EQ_INT(ior_family_by_name("Disk"), -1);
}

TEST(families_of_some)
{
	static const struct { const char *name; unsigned fam; } v[] = {
		{ "read", IOR_FAM_FS }, { "mmap", IOR_FAM_FS }, { "newfstatat", IOR_FAM_FS },
		{ "sendto", IOR_FAM_Network }, { "splice", IOR_FAM_Network }, { "socket", IOR_FAM_Network },
		{ "epoll_wait", IOR_FAM_Polling }, { "poll", IOR_FAM_Polling }, { "select", IOR_FAM_Polling },
		{ "munmap", IOR_FAM_Memory }, { "getpid", IOR_FAM_Process }, { "clone3", IOR_FAM_Process },
		{ "kill", IOR_FAM_Signals }, { "sched_yield", IOR_FAM_Sched }, { "pipe2", IOR_FAM_IPC },
		{ "futex", IOR_FAM_IPC }, { "nanosleep", IOR_FAM_Time }, { "bpf", IOR_FAM_Security },
		{ "io_uring_enter", IOR_FAM_AIO }, { "rseq", IOR_FAM_Misc },
	};
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		if (sc(v[i].name) && sc(v[i].name)->family != v[i].fam)
			T_FAIL("%s: %s", v[i].name, ior_family_name(sc(v[i].name)->family));
}

/* The socket syscalls act on their fd argument 0; send and receive count bytes. */
TEST(socket_roles)
{
	static const char *const fd0[] = { "sendto", "recvfrom", "sendmsg", "recvmsg", "sendmmsg",
		"recvmmsg", "accept", "accept4", "connect", "bind", "listen", "shutdown", "getsockopt",
		"setsockopt", "getsockname", "getpeername", "epoll_wait", "epoll_ctl", "epoll_pwait" };
	for (size_t i = 0; i < sizeof fd0 / sizeof *fd0; i++)
		if (sc(fd0[i]) && sc(fd0[i])->fd_arg != 0)
			T_FAIL("%s: fd argument %u", fd0[i], sc(fd0[i])->fd_arg);
	CHECK(sc("sendto")->cls == IOR_SC_WRITE && sc("sendmsg")->cls == IOR_SC_WRITE);
	CHECK(sc("recvfrom")->cls == IOR_SC_READ && sc("recvmsg")->cls == IOR_SC_READ);
	/* they return messages, not bytes */
	CHECK(sc("sendmmsg")->cls == IOR_SC_WRITE && sc("recvmmsg")->cls == IOR_SC_READ);
	CHECK(sc("splice")->cls == IOR_SC_TRANSFER && sc("tee")->cls == IOR_SC_TRANSFER &&
	      sc("vmsplice")->cls == IOR_SC_TRANSFER);
	CHECK(sc("socket")->cls == IOR_SC_OPEN && sc("socket")->fd_kind == IOR_FD_SOCKET &&
	      sc("socket")->aux_arg == 0 && sc("socket")->flags_arg == 1);
	CHECK(sc("accept4")->fd_kind == IOR_FD_ACCEPT && sc("accept4")->flags_arg == 3);
	CHECK(sc("epoll_create1")->fd_kind == IOR_FD_EPOLL && sc("eventfd2")->fd_kind == IOR_FD_EVENTFD);
	CHECK(sc("poll")->aux_arg == 2 && sc("epoll_wait")->aux_arg == 3); /* the timeouts */
	CHECK(ior_syscall_keeps_fds(sc("socket")) && ior_syscall_keeps_fds(sc("accept")));
	CHECK(!ior_syscall_keeps_fds(sc("sendto")));
	CHECK(ior_syscall_keeps_fds(sc("pipe2")) && ior_syscall_keeps_fds(sc("socketpair")) &&
	      ior_syscall_keeps_fds(sc("connect")) && ior_syscall_keeps_fds(sc("bind")));
}

TEST(fd_names)
{
	char b[64];
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_SOCKET, SOCK_STREAM | SOCK_CLOEXEC, AF_INET, NULL, b, sizeof b),
		     "socket:tcp");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_SOCKET, SOCK_DGRAM, AF_INET6, NULL, b, sizeof b), "socket:udp6");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_SOCKET, SOCK_STREAM, AF_INET6, NULL, b, sizeof b), "socket:tcp6");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_SOCKET, SOCK_SEQPACKET, AF_UNIX, NULL, b, sizeof b), "socket:unix");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_SOCKET, SOCK_RAW, 99, NULL, b, sizeof b), "socket:domain99");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_ACCEPT, 0, 0, "socket:tcp6", b, sizeof b), "socket:tcp6");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_ACCEPT, 0, 0, "/etc/passwd", b, sizeof b), "socket");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_ACCEPT, 0, 0, NULL, b, sizeof b), "socket");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_EPOLL, 0, 0, NULL, b, sizeof b), "anon_inode:[eventpoll]");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_EVENTFD, 0, 0, NULL, b, sizeof b), "anon_inode:[eventfd]");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_IO_URING, 0, 0, NULL, b, sizeof b), "anon_inode:[io_uring]");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_PATH, 0, 0, NULL, b, sizeof b), "");
}

int main(void)
{
	RUN(every_entry_is_whole);
	RUN(no_duplicate_nr_or_name);
	RUN(index_space);
	RUN(index_define);
	RUN(counts_per_family);
	RUN(families_of_some);
	RUN(socket_roles);
	RUN(fd_names);
	return t_done();
}
