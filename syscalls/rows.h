/* The row macros of the per-arch syscall tables (table_*.c): one
 * row per syscall, its family, number and argument roles. HACKING.md's
 * "Recipe: add a syscall" says how to read a row. */
#ifndef IOR_SYSCALLS_ROWS_H
#define IOR_SYSCALLS_ROWS_H

#include "syscalls/syscalls.h"
#include "bpf/event.h"

#include <fcntl.h>

#define N IOR_ARG_NONE
#define ROW(fam, name_, nr_, cls_, fd, fl, aux, p0, p1) \
	.name = #name_, .nr = nr_, .cls = IOR_SC_##cls_, .fd_arg = fd, .flags_arg = fl, .aux_arg = aux, \
	.path_arg = { p0, p1 }, .family = IOR_FAM_##fam
/* family, name, nr, class, fd, flags, aux, path0, path1[, roles] */
#define SC(fam, name, nr, cls, fd, fl, aux, p0, p1, ...) { ROW(fam, name, nr, cls, fd, fl, aux, p0, p1), __VA_ARGS__ }
/* no argument ior uses[, roles] */
#define NR(fam, name, nr, ...) { ROW(fam, name, nr, OTHER, N, N, N, N, N), __VA_ARGS__ }
/* Roles, after a row's arguments. NET: the network extra its exit carries
 * (kind ADDR_IN, ADDR_OUT, FDPAIR, MMSG; the argument it is read from; the
 * argument of its length; whether the returned fd is the socket named;
 * whether it may be summarized). WAIT: a wait's timeout (MS, TIMESPEC,
 * TIMEVAL) and its argument. */
#define NET(kind, arg, len_arg, sk_ret, fold) \
	.net = IOR_NET_##kind, .net_arg = arg, .net_len_arg = len_arg, .net_sk_ret = sk_ret, .net_fold = fold
#define WAIT(kind, arg) .wait = IOR_WAIT_##kind, .wait_arg = arg
/* *at syscalls: aux is the dirfd (argument 0), path 0 is relative to it */
#define AT(fam, name, nr, cls, fl, p0, p1) { ROW(fam, name, nr, cls, N, fl, 0, p0, p1), .aux_is_dirfd = 1 }
/* two *at paths (olddirfd, old, newdirfd, new): fd carries newdirfd */
#define AT2(fam, name, nr, fl, renames_) \
	{ ROW(fam, name, nr, OTHER, 2, fl, 0, 1, 3), .aux_is_dirfd = 1, .fd_is_dirfd2 = 1, .renames = renames_ }
/* SC plus: sets the cwd, path 0 is a link's content, path 0 is a memfd's
 * name, the open flags it implies */
#define SCX(fam, name, nr, cls, fd, fl, aux, p0, p1, cwd, link, memfd_, oflags) \
	{ ROW(fam, name, nr, cls, fd, fl, aux, p0, p1), .sets_cwd = cwd, .link_target = link, \
	  .memfd = memfd_, .open_flags = oflags }
/* returns a new fd of a kind that has no path (socket, epoll, ...) */
#define NEWFD(fam, name, nr, fd, fl, aux, kind, ...) \
	{ ROW(fam, name, nr, OPEN, fd, fl, aux, N, N), .fd_kind = IOR_FD_##kind, __VA_ARGS__ }
#define RENAME(fam, name, nr) { ROW(fam, name, nr, OTHER, N, N, N, 0, 1), .renames = 1 }
/* openat2(dirfd, path, struct open_how *, size) */
#define OPENAT2(fam, name, nr) { ROW(fam, name, nr, OPEN, N, 2, 0, 1, N), .flags_is_open_how = 1, .aux_is_dirfd = 1 }

#endif
