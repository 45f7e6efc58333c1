#include "syscalls/syscalls.h"
#include "bpf/event.h"
#include "syscalls/roles.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#if !defined(__x86_64__) && !defined(__aarch64__)
#error "no syscall table for this arch: HACKING.md, Recipe: add an arch"
#endif

/* nr -> index + 1; 0 means not traced. Built before main() so lookups
 * need no lock. */
static unsigned short by_nr[IOR_NR_ASYNC_END];

__attribute__((constructor)) static void build_index(void)
{
	for (unsigned i = 0; i < ior_nsyscalls; i++)
		by_nr[ior_syscalls[i].nr] = (unsigned short)(i + 1);
}

const struct ior_syscall *ior_syscall_by_nr(unsigned nr)
{
	if (nr >= IOR_NR_ASYNC_END)
		return 0;
	return by_nr[nr] ? &ior_syscalls[by_nr[nr] - 1] : 0;
}

const struct ior_syscall *ior_syscall_by_name(const char *name)
{
	for (unsigned i = 0; i < ior_nsyscalls; i++)
		if (!strcmp(ior_syscalls[i].name, name))
			return &ior_syscalls[i];
	return 0;
}

int ior_syscall_async(const struct ior_syscall *s)
{
	if (s->nr >= IOR_NR_AIO)
		return IOR_ASYNC_AIO;
	return s->nr >= IOR_NR_URING ? IOR_ASYNC_URING : IOR_ASYNC_NONE;
}

const char *ior_syscall_tracepoint(const struct ior_syscall *s, const char **category, char *buf, size_t len)
{
	int k = ior_syscall_async(s);

	*category = k == IOR_ASYNC_URING ? "io_uring" : "syscalls";
	snprintf(buf, len, "%s", k == IOR_ASYNC_URING ? "io_uring_complete" :
				 k == IOR_ASYNC_AIO ? "sys_enter_io_submit" : "sys_enter_");
	if (!k)
		snprintf(buf, len, "sys_enter_%s", s->name);
	return buf;
}

unsigned ior_syscall_index(const struct ior_syscall *s)
{
	return (unsigned)(s - ior_syscalls);
}

int ior_syscall_changes_names(const struct ior_syscall *s)
{
	return s->path_arg[1] != IOR_ARG_NONE;
}

int ior_syscall_keeps_fds(const struct ior_syscall *s)
{
	return s->cls == IOR_SC_OPEN || s->cls == IOR_SC_CLOSE || s->cls == IOR_SC_CLOSE_RANGE ||
	       s->cls == IOR_SC_DUP || s->cls == IOR_SC_FCNTL || s->renames || s->sets_cwd ||
	       ior_roles_names_fds(s);
}

static const char *const families[IOR_NFAMILIES] = {
	"FS", "Network", "Polling", "Memory", "Process", "Signals",
	"Sched", "IPC", "Time", "Security", "AIO", "Misc",
};

const char *ior_family_name(unsigned family)
{
	return family < IOR_NFAMILIES ? families[family] : NULL;
}

int ior_family_by_name(const char *name)
{
	for (unsigned i = 0; i < IOR_NFAMILIES; i++)
		if (!strcasecmp(families[i], name))
			return (int)i;
	return -1;
}

unsigned ior_family_count(unsigned family)
{
	unsigned n = 0;

	for (unsigned i = 0; i < ior_nsyscalls; i++)
		n += ior_syscalls[i].family == family;
	return n;
}

/* "tcp", "udp6", "unix", ... from socket(2)'s domain and type. */
static const char *socket_proto(uint64_t domain, uint64_t type)
{
	int stream = (type & 0xf) == SOCK_STREAM, dgram = (type & 0xf) == SOCK_DGRAM;

	switch (domain) {
	case AF_INET:
		return stream ? "tcp" : dgram ? "udp" : "inet";
	case AF_INET6:
		return stream ? "tcp6" : dgram ? "udp6" : "inet6";
	case AF_UNIX:
		return "unix";
	case AF_NETLINK:
		return "netlink";
	case AF_PACKET:
		return "packet";
	default:
		return NULL;
	}
}

/* The anonymous inodes, as /proc/PID/fd links name them (so a snapshot
 * and a traced open agree). */
static const char *const anon_names[] = {
	[IOR_FD_EPOLL] = "anon_inode:[eventpoll]",
	[IOR_FD_EVENTFD] = "anon_inode:[eventfd]",
	[IOR_FD_SIGNALFD] = "anon_inode:[signalfd]",
	[IOR_FD_TIMERFD] = "anon_inode:[timerfd]",
	[IOR_FD_INOTIFY] = "anon_inode:inotify",
	[IOR_FD_FANOTIFY] = "anon_inode:[fanotify]",
	[IOR_FD_USERFAULTFD] = "anon_inode:[userfaultfd]",
	[IOR_FD_PIDFD] = "anon_inode:[pidfd]",
	[IOR_FD_PERF_EVENT] = "anon_inode:[perf_event]",
	[IOR_FD_IO_URING] = "anon_inode:[io_uring]",
};

const char *ior_syscall_fd_name(unsigned k, uint64_t flags, uint64_t aux, const char *listener,
				char *buf, size_t len)
{
	const char *proto;

	if (k == IOR_FD_SOCKET) {
		proto = socket_proto(aux, flags);
		if (proto)
			snprintf(buf, len, "socket:%s", proto);
		else
			snprintf(buf, len, "socket:domain%u", (unsigned)aux);
		return buf;
	}
	if (k == IOR_FD_ACCEPT) { /* copied: listener may live in a table the caller changes next */
		snprintf(buf, len, "%s", listener && !strncmp(listener, "socket:", 7) ? listener : "socket");
		return buf;
	}
	if (k < sizeof anon_names / sizeof *anon_names && anon_names[k])
		return anon_names[k];
	return "";
}
