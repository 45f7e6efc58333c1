/* Which syscalls to trace. Families and names pick a base set; the
 * -tps / -tpsExclude regexes (comma-separated POSIX extended, matched
 * unanchored like the original ior against the tracepoint name without
 * prefix, "openat", or with it, "sys_enter_openat") filter it; every
 * exclusion wins over every inclusion:
 *
 *   base = families ∪ syscalls, or IOR_DEFAULT_FAMILIES when both are empty
 *   sel  = base ∩ (tps matches, when tps is not empty)
 *          − no_families − no_syscalls − (tps_exclude matches)
 *
 * Lists are comma-separated, blanks around entries and empty entries
 * ignored. Families by name (any case) or "all"; syscalls by tracepoint
 * name, or libc's where it differs (stat, fstat, lstat, uname, sendfile,
 * umount2). Pure. */
#ifndef IOR_SYSCALLS_SELECT_H
#define IOR_SYSCALLS_SELECT_H

#include <stddef.h>

/* ior's I/O: files, sockets and their waits, and asynchronous I/O (ior
 * traced io_submit and io_uring before it had families). */
#define IOR_DEFAULT_FAMILIES "FS,Network,Polling,AIO"

struct ior_select {
	const char *families, *syscalls;       /* -trace-families, -trace-syscalls */
	const char *no_families, *no_syscalls; /* -no-trace-families, -no-trace-syscalls */
	const char *tps, *tps_exclude;         /* regexes */
};

/* A syscall -trace-syscalls named: a kernel without it is worth a warning
 * (one of a family missing is not: families grow with new kernels). */
#define IOR_SEL_NAMED 2

/* sel[i] != 0 when ior_syscalls[i] is selected (sel has ior_nsyscalls
 * entries): IOR_SEL_NAMED, else 1; NULL strings count as empty. Returns how many are selected,
 * or -EINVAL with err naming the bad regex, or the unknown family or
 * syscall and the valid names (one line). */
int ior_trace_select(const struct ior_select *o, unsigned char *sel, char *err, size_t errlen);

/* The syscall a -trace-syscalls entry names (libc aliases too), or NULL. */
const struct ior_syscall *ior_select_syscall(const char *name);

#endif
