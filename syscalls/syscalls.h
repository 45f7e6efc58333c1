/* Every syscall ior knows: tracepoint name, number, family, and which
 * arguments matter. One table per arch (table_x86_64.c,
 * table_ARCH.c for the others), the build arch's feeds bpf.c's
 * argument map, the selection of what to trace, the pairing stage's fd
 * bookkeeping and the recording's syscall name table. */
#ifndef IOR_SYSCALLS_SYSCALLS_H
#define IOR_SYSCALLS_SYSCALLS_H

#include <stddef.h>
#include <stdint.h>

enum ior_sys_class {
	IOR_SC_OTHER,
	IOR_SC_READ,     /* bytes = positive ret */
	IOR_SC_WRITE,    /* bytes = positive ret */
	IOR_SC_TRANSFER, /* bytes = positive ret (sendfile, splice, ...) */
	IOR_SC_OPEN,     /* ret is a new fd for path 0 */
	IOR_SC_CLOSE,
	IOR_SC_CLOSE_RANGE, /* fd .. aux closed */
	IOR_SC_DUP,      /* ret is a copy of fd */
	IOR_SC_FCNTL,    /* aux = cmd, flags = arg */
};

/* The original ior's twelve groups; -trace-families selects by them. */
enum ior_sys_family {
	IOR_FAM_FS,
	IOR_FAM_Network,
	IOR_FAM_Polling,
	IOR_FAM_Memory,
	IOR_FAM_Process,
	IOR_FAM_Signals,
	IOR_FAM_Sched,
	IOR_FAM_IPC,
	IOR_FAM_Time,
	IOR_FAM_Security,
	IOR_FAM_AIO,
	IOR_FAM_Misc,
	IOR_NFAMILIES
};

/* What the fd an OPEN without a path returns is (named by
 * ior_syscall_fd_name). */
enum ior_fd_kind {
	IOR_FD_PATH,     /* a file opened by path (or unknown) */
	IOR_FD_SOCKET,   /* socket(domain = aux, type = flags) */
	IOR_FD_ACCEPT,   /* a connection of the listening socket fd */
	IOR_FD_EPOLL,
	IOR_FD_EVENTFD,
	IOR_FD_SIGNALFD,
	IOR_FD_TIMERFD,
	IOR_FD_INOTIFY,
	IOR_FD_FANOTIFY,
	IOR_FD_USERFAULTFD,
	IOR_FD_PIDFD,
	IOR_FD_PERF_EVENT,
	IOR_FD_IO_URING,
};

struct ior_syscall {
	const char *name;  /* tracepoint suffix: sys_enter_<name> */
	unsigned short nr;
	unsigned char cls; /* enum ior_sys_class */
	unsigned char fd_arg, flags_arg, aux_arg; /* IOR_ARG_NONE: unused */
	unsigned char path_arg[2];
	unsigned char flags_is_open_how;
	unsigned char aux_is_dirfd; /* aux is the dirfd path 0 is relative to */
	unsigned char fd_is_dirfd2; /* fd is the dirfd path 1 is relative to, not a file acted on */
	unsigned char renames;      /* path 0 becomes path 1 when it succeeds */
	unsigned char sets_cwd;     /* on success the process's cwd is its file */
	unsigned char link_target;  /* path 0 is a symlink's content, not a file */
	unsigned char memfd;        /* path 0 names an anonymous file: "/memfd:NAME" */
	int open_flags;             /* an open without a flags argument: the flags it implies */
	unsigned char family;       /* enum ior_sys_family */
	unsigned char fd_kind;      /* enum ior_fd_kind, for IOR_SC_OPEN */
	/* The network extra its exit carries (bpf/event.h, enum ior_net_kind;
	 * 0: none): read from argument net_arg, its length from net_len_arg;
	 * net_sk_ret: the fd it returns is the socket named (accept);
	 * net_fold: it may be summarized when its CPU's ring is full (the
	 * pair loses only its per-call peer). syscalls/roles.c reads them. */
	unsigned char net, net_arg, net_len_arg, net_sk_ret, net_fold;
	/* A wait (enum ior_wait_kind; 0: none) and its timeout's argument. */
	unsigned char wait, wait_arg;
	/* An async op's arguments the kernel side reads from its request
	 * (bpf/event.h enum ior_async_args; 0: its file only). */
	unsigned char async_args;
};

/* The table of the arch the binary is built for. */
extern const struct ior_syscall *const ior_syscalls;
extern const unsigned ior_nsyscalls;
/* Every arch's table, whatever the build arch: for tests and generators. */
extern const struct ior_syscall ior_syscalls_x86_64[], ior_syscalls_arm64[];
extern const unsigned ior_nsyscalls_x86_64, ior_nsyscalls_arm64;

/* The index space of event pairs (ior_event_pair.sys), the same in every
 * mode: this arch's table first (0 .. ior_nsyscalls - 1: a traced
 * syscall's index is its row's, ior_syscall_index), then the other
 * arches' names this one lacks (a recording made there), then names a
 * recording uses that no table knows (a newer kernel's), defined as read:
 * family Misc, class OTHER, no roles. One name, one index. Not
 * thread-safe: definitions happen while a recording is read, on one
 * thread. */
#define IOR_SYS_MAX 4096u
/* The row of index sys; a row named "?" (family Misc) past the last
 * defined, so every consumer looks a name or family up the same way. */
const struct ior_syscall *ior_sys(unsigned sys);
/* Indexes defined so far: every sys < ior_sys_count() has its row. */
unsigned ior_sys_count(void);
/* The index of a name any table knows or a recording defined, or -1. */
int ior_sys_find(const char *name);
/* The same, defining an unknown name (copied) when needed: its index,
 * or -ENOSPC when IOR_SYS_MAX indexes are taken, -ENOMEM. */
int ior_sys_define(const char *name);

/* NULL when nr is not one of ior's syscalls. O(1). */
const struct ior_syscall *ior_syscall_by_nr(unsigned nr);
/* NULL when unknown. */
const struct ior_syscall *ior_syscall_by_name(const char *name);
/* Index of s (a row of ior_syscalls[]) in ior_syscalls[], and so its ior_sys() index. */
/* Whether s is a syscall or an async operation (bpf/event.h
 * IOR_NR_URING): a row of neither sys_conf nor the syscall tracepoints. */
enum ior_async_kind { IOR_ASYNC_NONE, IOR_ASYNC_URING, IOR_ASYNC_AIO };
int ior_syscall_async(const struct ior_syscall *s);
/* The tracepoint whose presence says this kernel has s, into buf:
 * syscalls/sys_enter_NAME, io_uring/io_uring_complete for io_uring ops,
 * syscalls/sys_enter_io_submit for libaio's; *category gets its
 * category. Returns buf. */
const char *ior_syscall_tracepoint(const struct ior_syscall *s, const char **category, char *buf, size_t len);
/* Index of s in ior_syscalls[]: a small stable id for recordings. */
unsigned ior_syscall_index(const struct ior_syscall *s);
/* Whether s changes the fd table (or the cwd): traced even when -tps
 * leaves it out, and never summarized. */
int ior_syscall_keeps_fds(const struct ior_syscall *s);

/* Whether s makes a new name for a file (a second path: rename, link,
 * symlink and their *at forms): bpf.c counts their successes in
 * names_changed, from the numbers trace/probe.c gives it. */
int ior_syscall_changes_names(const struct ior_syscall *s);

/* "FS", "Network", ...; NULL past the last. */
const char *ior_family_name(unsigned family);
/* The family of that name (case-insensitive), or -1. */
int ior_family_by_name(const char *name);
/* Syscalls in a family. */
unsigned ior_family_count(unsigned family);

/* The name of the fd an OPEN of kind k returned (the fd table's path):
 * "socket:tcp", "anon_inode:[eventfd]" like /proc/PID/fd says, ...;
 * for IOR_FD_ACCEPT the listening socket's name (listener), else
 * "socket". flags and aux as the enter recorded them. Returns buf or a
 * literal; "" for IOR_FD_PATH. */
const char *ior_syscall_fd_name(unsigned k, uint64_t flags, uint64_t aux, const char *listener,
				char *buf, size_t len);

#endif
