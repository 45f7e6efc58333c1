/* The syscalls ior traces (x86_64): tracepoint name, number, and which
 * arguments matter. One table feeds bpf.c's argument map, the pairing
 * stage's fd bookkeeping and the recording's syscall name table. */
#ifndef IOR_TRACE_SYSCALLS_H
#define IOR_TRACE_SYSCALLS_H

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
};

extern const struct ior_syscall ior_syscalls[];
extern const unsigned ior_nsyscalls;

/* NULL when nr is not one of ior's syscalls. O(1). */
const struct ior_syscall *ior_syscall_by_nr(unsigned nr);
/* NULL when unknown. */
const struct ior_syscall *ior_syscall_by_name(const char *name);
/* Index of s in ior_syscalls[]: a small stable id for recordings. */
unsigned ior_syscall_index(const struct ior_syscall *s);
/* Whether s changes the fd table (or the cwd): traced even when -tps
 * leaves it out, and never summarized. */
int ior_syscall_keeps_fds(const struct ior_syscall *s);

#endif
