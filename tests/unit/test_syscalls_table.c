/* The syscall table: complete for x86_64, consistent, the roles the
 * pairing stage relies on. */
#include "bpf/event.h"
#include "syscalls/syscalls.h"
#include "t.h"

#include <fcntl.h>
#include <sys/socket.h>

static const struct ior_syscall *sc(const char *name)
{
	const struct ior_syscall *s = ior_syscall_by_name(name);
	if (!s)
		T_FAIL("no syscall %s", name);
	return s;
}

#define URING_ROWS 64 /* opcodes 0..62 and "other" */
#define AIO_ROWS 9    /* aio_abi.h's opcodes but the unused 4, and "other" */

TEST(every_entry_is_whole)
{
	CHECK_EQ_INT(ior_nsyscalls, 367 + URING_ROWS + AIO_ROWS);
	CHECK(ior_nsyscalls <= IOR_NR_MAX); /* the selection arrays (cmd/) hold one byte per row */
	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		const struct ior_syscall *s = &ior_syscalls[i];
		if (!s->name || !s->name[0] || s->family >= IOR_NFAMILIES ||
		    s->nr >= (ior_syscall_async(s) ? IOR_NR_ASYNC_END : IOR_NR_MAX) ||
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

/* A recording made on another arch names its syscalls there. */
TEST(foreign_names)
{
	const struct ior_syscall *own = ior_syscall_by_name("fadvise64");

	if (!own) /* arm64: the table's name is fadvise64_64 */
		own = ior_syscall_by_name("fadvise64_64");
	CHECK(own != NULL);
	CHECK(ior_syscall_by_foreign_name("fadvise64") == own);
	CHECK(ior_syscall_by_foreign_name("fadvise64_64") == own);
	CHECK(ior_syscall_by_foreign_name("read") == ior_syscall_by_name("read"));
	CHECK(ior_syscall_by_foreign_name("no_such_syscall") == NULL);
}

/* io_uring's opcodes 0..62 and the row for any later one. */
TEST(uring_rows)
{
	static const struct { const char *name; unsigned op, cls, fam; int fd; } want[] = {
		{ "uring:nop", 0, IOR_SC_OTHER, IOR_FAM_Misc, 0 },
		{ "uring:readv", 1, IOR_SC_READ, IOR_FAM_FS, 1 },
		{ "uring:openat", 18, IOR_SC_OPEN, IOR_FAM_FS, 0 },
		{ "uring:close", 19, IOR_SC_CLOSE, IOR_FAM_FS, 1 },
		{ "uring:read", 22, IOR_SC_READ, IOR_FAM_FS, 1 },
		{ "uring:write", 23, IOR_SC_WRITE, IOR_FAM_FS, 1 },
		{ "uring:send", 26, IOR_SC_WRITE, IOR_FAM_Network, 1 },
		{ "uring:recv", 27, IOR_SC_READ, IOR_FAM_Network, 1 },
		{ "uring:writev_fixed", 61, IOR_SC_WRITE, IOR_FAM_FS, 1 },
		{ "uring:pipe", 62, IOR_SC_OTHER, IOR_FAM_IPC, 0 },
		{ "uring:other", IOR_URING_OPS - 1, IOR_SC_OTHER, IOR_FAM_Misc, 0 },
	};
	unsigned n = 0;
	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		const struct ior_syscall *s = &ior_syscalls[i];
		if (ior_syscall_async(s) != IOR_ASYNC_URING)
			continue;
		n++;
		if (strncmp(s->name, "uring:", 6) || ior_syscall_keeps_fds(s) != (s->cls >= IOR_SC_OPEN))
			T_FAIL("%s: name or roles", s->name);
	}
	CHECK_EQ_INT(n, URING_ROWS);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const struct ior_syscall *s = ior_syscall_by_name(want[i].name);
		if (!s || s->nr != IOR_NR_URING + want[i].op || s->cls != want[i].cls || s->family != want[i].fam ||
		    (s->fd_arg != IOR_ARG_NONE) != want[i].fd)
			T_FAIL("%s: row", want[i].name);
	}
	const struct ior_syscall *o = ior_syscall_by_name("uring:openat");
	CHECK(o && o->aux_is_dirfd && o->path_arg[0] == 0 && o->flags_arg == 0);
}

/* libaio's iocb opcodes (aio_abi.h IOCB_CMD_*). */
TEST(aio_rows)
{
	static const struct { const char *name; unsigned op, cls; } want[] = {
		{ "aio:pread", 0, IOR_SC_READ }, { "aio:pwrite", 1, IOR_SC_WRITE },
		{ "aio:fsync", 2, IOR_SC_OTHER }, { "aio:fdsync", 3, IOR_SC_OTHER },
		{ "aio:poll", 5, IOR_SC_OTHER }, { "aio:noop", 6, IOR_SC_OTHER },
		{ "aio:preadv", 7, IOR_SC_READ }, { "aio:pwritev", 8, IOR_SC_WRITE },
		{ "aio:other", IOR_AIO_OPS - 1, IOR_SC_OTHER },
	};
	unsigned n = 0;
	for (unsigned i = 0; i < ior_nsyscalls; i++)
		n += ior_syscall_async(&ior_syscalls[i]) == IOR_ASYNC_AIO;
	CHECK_EQ_INT(n, AIO_ROWS);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const struct ior_syscall *s = ior_syscall_by_name(want[i].name);
		if (!s || s->nr != IOR_NR_AIO + want[i].op || s->cls != want[i].cls || ior_syscall_keeps_fds(s))
			T_FAIL("%s: row", want[i].name);
	}
}

TEST(counts_per_family)
{
	static const unsigned want[IOR_NFAMILIES] = {
		[IOR_FAM_FS] = 126, [IOR_FAM_Network] = 22, [IOR_FAM_Polling] = 10,
		[IOR_FAM_Memory] = 28, [IOR_FAM_Process] = 54, [IOR_FAM_Signals] = 13,
		[IOR_FAM_Sched] = 12, [IOR_FAM_IPC] = 37, [IOR_FAM_Time] = 19,
		[IOR_FAM_Security] = 21, [IOR_FAM_AIO] = 9, [IOR_FAM_Misc] = 16,
	};
	/* the io_uring and libaio ops of each family */
	static const unsigned uring[IOR_NFAMILIES] = {
		[IOR_FAM_FS] = 27 + 6, [IOR_FAM_Network] = 15, [IOR_FAM_Polling] = 4 + 1,
		[IOR_FAM_Memory] = 3, [IOR_FAM_Process] = 1, [IOR_FAM_IPC] = 5, [IOR_FAM_Time] = 3,
		[IOR_FAM_Misc] = 6 + 2,
	};
	unsigned total = 0;
	for (unsigned f = 0; f < IOR_NFAMILIES; f++) {
		if (ior_family_count(f) != want[f] + uring[f])
			T_FAIL("%s: %u rows, want %u + %u", ior_family_name(f), ior_family_count(f), want[f], uring[f]);
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
	RUN(foreign_names);
	RUN(counts_per_family);
	RUN(uring_rows);
	RUN(aio_rows);
	RUN(families_of_some);
	RUN(socket_roles);
	RUN(fd_names);
	return t_done();
}
