/* The rows of async operations, at the end of every arch's table (their
 * numbers are ior's, the same everywhere: bpf/event.h IOR_NR_URING):
 * one per io_uring opcode of the kernel's UAPI (include/uapi/linux/
 * io_uring.h), named uring:OP, and one per libaio iocb opcode, aio:OP,
 * each in the family of the syscall it does async. The argument indexes
 * only say which roles an op has, as the syscall's row would (0: its
 * file or first dirfd, its flags, its path; 1: its second path); the
 * kernel side reads them from the request itself (bpf/uring.h), where
 * async_args says. */
#ifndef IOR_SYSCALLS_ASYNC_ROWS_H
#define IOR_SYSCALLS_ASYNC_ROWS_H

#include "syscalls/rows.h"

#define UR(fam, op, name_, cls_, fd) \
	{ .name = "uring:" name_, .nr = IOR_NR_URING + (op), .cls = IOR_SC_##cls_, .fd_arg = fd, \
	  .flags_arg = N, .aux_arg = N, .path_arg = { N, N }, .family = IOR_FAM_##fam }
/* an op that returns a new fd for the path it opens (relative to a dirfd) */
#define UR_OPEN(op, name_) \
	{ .name = "uring:" name_, .nr = IOR_NR_URING + (op), .cls = IOR_SC_OPEN, .fd_arg = N, \
	  .flags_arg = 0, .aux_arg = 0, .path_arg = { 0, N }, .aux_is_dirfd = 1, .family = IOR_FAM_FS, \
	  .async_args = IOR_ASYNC_ARGS_OPEN }
/* *at ops: a dirfd, a path relative to it, flags (0: none) */
#define UR_AT(op, name_, fl, args) \
	{ .name = "uring:" name_, .nr = IOR_NR_URING + (op), .cls = IOR_SC_OTHER, .fd_arg = N, \
	  .flags_arg = fl, .aux_arg = 0, .path_arg = { 0, N }, .aux_is_dirfd = 1, .family = IOR_FAM_FS, \
	  .async_args = IOR_ASYNC_ARGS_##args }
/* two *at paths: the second dirfd travels as the fd (as AT2 rows) */
#define UR_AT2(op, name_, renames_, args) \
	{ .name = "uring:" name_, .nr = IOR_NR_URING + (op), .cls = IOR_SC_OTHER, .fd_arg = 0, \
	  .flags_arg = 0, .aux_arg = 0, .path_arg = { 0, 1 }, .aux_is_dirfd = 1, .fd_is_dirfd2 = 1, \
	  .renames = renames_, .family = IOR_FAM_FS, .async_args = IOR_ASYNC_ARGS_##args }
/* an op that returns a new fd of a kind without a path */
#define UR_NEWFD(fam, op, name_, fd, kind, args) \
	{ .name = "uring:" name_, .nr = IOR_NR_URING + (op), .cls = IOR_SC_OPEN, .fd_arg = fd, \
	  .flags_arg = N, .aux_arg = N, .path_arg = { N, N }, .family = IOR_FAM_##fam, .fd_kind = IOR_FD_##kind, \
	  .async_args = IOR_ASYNC_ARGS_##args }

/* socket(domain, type): a new socket fd, or a direct slot; the kernel
 * side reads domain as the dirfd and type as the flags (uring_args) */
#define UR_SOCKET(op, name_) \
	{ .name = "uring:" name_, .nr = IOR_NR_URING + (op), .cls = IOR_SC_OPEN, .fd_arg = N, \
	  .flags_arg = 0, .aux_arg = 0, .path_arg = { N, N }, .family = IOR_FAM_Network, \
	  .fd_kind = IOR_FD_SOCKET, .async_args = IOR_ASYNC_ARGS_SOCKET }
/* a fixed file (the sqe's slot) installed as a new fd, O_CLOEXEC unless
 * IORING_FIXED_FD_NO_CLOEXEC (the flags, from the request) */
#define UR_INSTALL(op, name_) \
	{ .name = "uring:" name_, .nr = IOR_NR_URING + (op), .cls = IOR_SC_OTHER, .fd_arg = 0, \
	  .flags_arg = 0, .aux_arg = N, .path_arg = { N, N }, .family = IOR_FAM_FS, \
	  .async_args = IOR_ASYNC_ARGS_INSTALL }
/* a close of an fd or of a direct descriptor's slot */
#define UR_CLOSE(op, name_) \
	{ .name = "uring:" name_, .nr = IOR_NR_URING + (op), .cls = IOR_SC_CLOSE, .fd_arg = 0, \
	  .flags_arg = N, .aux_arg = N, .path_arg = { N, N }, .family = IOR_FAM_FS, \
	  .async_args = IOR_ASYNC_ARGS_CLOSE }
/* symlinkat(target, newdirfd, link): path 0 is the target, content */
#define UR_SYMLINK(op, name_) \
	{ .name = "uring:" name_, .nr = IOR_NR_URING + (op), .cls = IOR_SC_OTHER, .fd_arg = N, \
	  .flags_arg = N, .aux_arg = 0, .path_arg = { 0, 1 }, .link_target = 1, .family = IOR_FAM_FS, \
	  .async_args = IOR_ASYNC_ARGS_SYMLINK }

/* a libaio iocb of aio_lio_opcode op (include/uapi/linux/aio_abi.h) */
#define AIO(fam, op, name_, cls_, fd) \
	{ .name = "aio:" name_, .nr = IOR_NR_AIO + (op), .cls = IOR_SC_##cls_, .fd_arg = fd, \
	  .flags_arg = N, .aux_arg = N, .path_arg = { N, N }, .family = IOR_FAM_##fam }

#define IOR_ASYNC_ROWS \
	UR(Misc, 0, "nop", OTHER, N), UR(FS, 1, "readv", READ, 0), UR(FS, 2, "writev", WRITE, 0), \
	UR(FS, 3, "fsync", OTHER, 0), UR(FS, 4, "read_fixed", READ, 0), \
	UR(FS, 5, "write_fixed", WRITE, 0), UR(Polling, 6, "poll_add", OTHER, 0), \
	UR(Polling, 7, "poll_remove", OTHER, N), UR(FS, 8, "sync_file_range", OTHER, 0), \
	UR(Network, 9, "sendmsg", WRITE, 0), UR(Network, 10, "recvmsg", READ, 0), \
	UR(Time, 11, "timeout", OTHER, N), UR(Time, 12, "timeout_remove", OTHER, N), \
	UR_NEWFD(Network, 13, "accept", 0, ACCEPT, ACCEPT), UR(Misc, 14, "async_cancel", OTHER, N), \
	UR(Time, 15, "link_timeout", OTHER, N), UR(Network, 16, "connect", OTHER, 0), \
	UR(FS, 17, "fallocate", OTHER, 0), UR_OPEN(18, "openat"), UR_CLOSE(19, "close"), \
	UR(Misc, 20, "files_update", OTHER, N), UR_AT(21, "statx", 0, STATX), \
	UR(FS, 22, "read", READ, 0), UR(FS, 23, "write", WRITE, 0), UR(FS, 24, "fadvise", OTHER, 0), \
	UR(Memory, 25, "madvise", OTHER, N), UR(Network, 26, "send", WRITE, 0), \
	UR(Network, 27, "recv", READ, 0), UR_OPEN(28, "openat2"), \
	UR(Polling, 29, "epoll_ctl", OTHER, 0), UR(Network, 30, "splice", TRANSFER, 0), \
	UR(Memory, 31, "provide_buffers", OTHER, N), UR(Memory, 32, "remove_buffers", OTHER, N), \
	UR(Network, 33, "tee", TRANSFER, 0), UR(Network, 34, "shutdown", OTHER, 0), \
	UR_AT2(35, "renameat", 1, RENAME), UR_AT(36, "unlinkat", 0, UNLINK), \
	UR_AT(37, "mkdirat", N, MKDIR), UR_SYMLINK(38, "symlinkat"), \
	UR_AT2(39, "linkat", 0, LINK), UR(IPC, 40, "msg_ring", OTHER, 0), \
	UR(FS, 41, "fsetxattr", OTHER, 0), UR(FS, 42, "setxattr", OTHER, N), \
	UR(FS, 43, "fgetxattr", OTHER, 0), UR(FS, 44, "getxattr", OTHER, N), \
	UR_SOCKET(45, "socket"), UR(Misc, 46, "uring_cmd", OTHER, 0), \
	UR(Network, 47, "send_zc", WRITE, 0), UR(Network, 48, "sendmsg_zc", WRITE, 0), \
	UR(FS, 49, "read_multishot", READ, 0), UR(Process, 50, "waitid", OTHER, N), \
	UR(IPC, 51, "futex_wait", OTHER, N), UR(IPC, 52, "futex_wake", OTHER, N), \
	UR(IPC, 53, "futex_waitv", OTHER, N), UR_INSTALL(54, "fixed_fd_install"), \
	UR(FS, 55, "ftruncate", OTHER, 0), UR(Network, 56, "bind", OTHER, 0), \
	UR(Network, 57, "listen", OTHER, 0), UR(Network, 58, "recv_zc", READ, 0), \
	UR(Polling, 59, "epoll_wait", OTHER, 0), UR(FS, 60, "readv_fixed", READ, 0), \
	UR(FS, 61, "writev_fixed", WRITE, 0), UR(IPC, 62, "pipe", OTHER, N), \
	UR(Misc, IOR_URING_OPS - 1, "other", OTHER, N), \
	AIO(FS, 0, "pread", READ, 0), AIO(FS, 1, "pwrite", WRITE, 0), AIO(FS, 2, "fsync", OTHER, 0), \
	AIO(FS, 3, "fdsync", OTHER, 0), AIO(Polling, 5, "poll", OTHER, 0), AIO(Misc, 6, "noop", OTHER, N), \
	AIO(FS, 7, "preadv", READ, 0), AIO(FS, 8, "pwritev", WRITE, 0), \
	AIO(Misc, IOR_AIO_OPS - 1, "other", OTHER, N)

#endif
