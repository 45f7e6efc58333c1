#include "syscalls.h"
#include "event.h"

#include <fcntl.h>
#include <string.h>

#define N IOR_ARG_NONE
/* name, nr, class, fd, flags, aux, path0, path1 */
#define SC(name, nr, cls, fd, fl, aux, p0, p1) \
	{ #name, nr, IOR_SC_##cls, fd, fl, aux, { p0, p1 }, 0, 0, 0, 0, 0, 0, 0, 0 }
/* *at syscalls: aux is the dirfd (argument 0), path 0 is relative to it */
#define AT(name, nr, cls, fl, p0, p1) \
	{ #name, nr, IOR_SC_##cls, N, fl, 0, { p0, p1 }, 0, 1, 0, 0, 0, 0, 0, 0 }
/* two *at paths (olddirfd, old, newdirfd, new): fd carries newdirfd */
#define AT2(name, nr, fl, renames) \
	{ #name, nr, IOR_SC_OTHER, 2, fl, 0, { 1, 3 }, 0, 1, 1, renames, 0, 0, 0, 0 }
/* SC plus: sets the cwd, path 0 is a link's content, path 0 is a memfd's
 * name, the open flags it implies */
#define SCX(name, nr, cls, fd, fl, aux, p0, p1, cwd, link, memfd, oflags) \
	{ #name, nr, IOR_SC_##cls, fd, fl, aux, { p0, p1 }, 0, 0, 0, 0, cwd, link, memfd, oflags }

const struct ior_syscall ior_syscalls[] = {
	SC(read, 0, READ, 0, N, N, N, N),
	SC(write, 1, WRITE, 0, N, N, N, N),
	SC(open, 2, OPEN, N, 1, N, 0, N),
	SC(close, 3, CLOSE, 0, N, N, N, N),
	SC(newstat, 4, OTHER, N, N, N, 0, N),
	SC(newfstat, 5, OTHER, 0, N, N, N, N),
	SC(newlstat, 6, OTHER, N, N, N, 0, N),
	SC(lseek, 8, OTHER, 0, N, 2, N, N),
	SC(mmap, 9, OTHER, 4, 3, 2, N, N),
	SC(ioctl, 16, OTHER, 0, N, 1, N, N),
	SC(pread64, 17, READ, 0, N, N, N, N),
	SC(pwrite64, 18, WRITE, 0, N, N, N, N),
	SC(readv, 19, READ, 0, N, N, N, N),
	SC(writev, 20, WRITE, 0, N, N, N, N),
	SC(access, 21, OTHER, N, 1, N, 0, N),
	SC(msync, 26, OTHER, N, 2, N, N, N),
	SC(dup, 32, DUP, 0, N, N, N, N),
	SC(dup2, 33, DUP, 0, N, 1, N, N),
	SC(sendfile64, 40, TRANSFER, 0, N, 1, N, N),
	SC(fcntl, 72, FCNTL, 0, 2, 1, N, N),
	SC(flock, 73, OTHER, 0, 1, N, N, N),
	SC(fsync, 74, OTHER, 0, N, N, N, N),
	SC(fdatasync, 75, OTHER, 0, N, N, N, N),
	SC(truncate, 76, OTHER, N, N, N, 0, N),
	SC(ftruncate, 77, OTHER, 0, N, N, N, N),
	SC(getdents, 78, READ, 0, N, N, N, N),
	SCX(chdir, 80, OTHER, N, N, N, 0, N, 1, 0, 0, 0),
	SCX(fchdir, 81, OTHER, 0, N, N, N, N, 1, 0, 0, 0),
	{ "rename", 82, IOR_SC_OTHER, N, N, N, { 0, 1 }, 0, 0, 0, 1, 0, 0, 0, 0 },
	SC(mkdir, 83, OTHER, N, N, N, 0, N),
	SC(rmdir, 84, OTHER, N, N, N, 0, N),
	SCX(creat, 85, OPEN, N, N, N, 0, N, 0, 0, 0, O_CREAT | O_WRONLY | O_TRUNC),
	SC(link, 86, OTHER, N, N, N, 0, 1),
	SC(unlink, 87, OTHER, N, N, N, 0, N),
	SCX(symlink, 88, OTHER, N, N, N, 0, 1, 0, 1, 0, 0),
	SC(readlink, 89, OTHER, N, N, N, 0, N),
	SC(chmod, 90, OTHER, N, N, N, 0, N),
	SC(fchmod, 91, OTHER, 0, N, N, N, N),
	SC(chown, 92, OTHER, N, N, N, 0, N),
	SC(fchown, 93, OTHER, 0, N, N, N, N),
	SC(lchown, 94, OTHER, N, N, N, 0, N),
	SC(mknod, 133, OTHER, N, N, N, 0, N),
	SC(utime, 132, OTHER, N, N, N, 0, N),
	SC(statfs, 137, OTHER, N, N, N, 0, N),
	SC(fstatfs, 138, OTHER, 0, N, N, N, N),
	SC(sync, 162, OTHER, N, N, N, N, N),
	SC(readahead, 187, READ, 0, N, N, N, N),
	SC(setxattr, 188, OTHER, N, 4, N, 0, N),
	SC(lsetxattr, 189, OTHER, N, 4, N, 0, N),
	SC(fsetxattr, 190, OTHER, 0, 4, N, N, N),
	SC(getxattr, 191, OTHER, N, N, N, 0, N),
	SC(lgetxattr, 192, OTHER, N, N, N, 0, N),
	SC(fgetxattr, 193, OTHER, 0, N, N, N, N),
	SC(listxattr, 194, OTHER, N, N, N, 0, N),
	SC(llistxattr, 195, OTHER, N, N, N, 0, N),
	SC(flistxattr, 196, OTHER, 0, N, N, N, N),
	SC(removexattr, 197, OTHER, N, N, N, 0, N),
	SC(lremovexattr, 198, OTHER, N, N, N, 0, N),
	SC(fremovexattr, 199, OTHER, 0, N, N, N, N),
	SC(io_setup, 206, OTHER, N, N, N, N, N),
	SC(io_destroy, 207, OTHER, N, N, N, N, N),
	SC(io_getevents, 208, OTHER, N, N, N, N, N),
	SC(io_submit, 209, OTHER, N, N, N, N, N),
	SC(io_cancel, 210, OTHER, N, N, N, N, N),
	SC(getdents64, 217, READ, 0, N, N, N, N),
	SC(fadvise64, 221, OTHER, 0, 3, N, N, N),
	SC(utimes, 235, OTHER, N, N, N, 0, N),
	SC(inotify_add_watch, 254, OTHER, 0, 2, N, 1, N),
	AT(openat, 257, OPEN, 2, 1, N),
	AT(mkdirat, 258, OTHER, N, 1, N),
	AT(mknodat, 259, OTHER, N, 1, N),
	AT(fchownat, 260, OTHER, 4, 1, N),
	AT(futimesat, 261, OTHER, N, 1, N),
	AT(newfstatat, 262, OTHER, 3, 1, N),
	AT(unlinkat, 263, OTHER, 2, 1, N),
	AT2(renameat, 264, N, 1),
	AT2(linkat, 265, 4, 0),
	SCX(symlinkat, 266, OTHER, N, N, 1, 0, 2, 0, 1, 0, 0),
	AT(readlinkat, 267, OTHER, N, 1, N),
	AT(fchmodat, 268, OTHER, N, 1, N),
	AT(faccessat, 269, OTHER, 2, 1, N),
	SC(splice, 275, TRANSFER, 0, 5, 2, N, N),
	SC(tee, 276, TRANSFER, 0, 3, 1, N, N),
	SC(sync_file_range, 277, OTHER, 0, 3, N, N, N),
	SC(vmsplice, 278, TRANSFER, 0, 3, N, N, N),
	AT(utimensat, 280, OTHER, 3, 1, N),
	SC(fallocate, 285, OTHER, 0, 1, N, N, N),
	SC(dup3, 292, DUP, 0, 2, 1, N, N),
	SC(preadv, 295, READ, 0, N, N, N, N),
	SC(pwritev, 296, WRITE, 0, N, N, N, N),
	AT(name_to_handle_at, 303, OTHER, 4, 1, N),
	SC(open_by_handle_at, 304, OPEN, 0, 2, N, N, N),
	SC(syncfs, 306, OTHER, 0, N, N, N, N),
	AT2(renameat2, 316, 4, 1),
	SCX(memfd_create, 319, OPEN, N, 1, N, 0, N, 0, 0, 1, 0),
	SC(copy_file_range, 326, TRANSFER, 0, 5, 2, N, N),
	SC(preadv2, 327, READ, 0, 5, N, N, N),
	SC(pwritev2, 328, WRITE, 0, 5, N, N, N),
	AT(statx, 332, OTHER, 2, 1, N),
	SC(io_uring_setup, 425, OTHER, N, N, N, N, N),
	SC(io_uring_enter, 426, OTHER, 0, 3, N, N, N),
	SC(io_uring_register, 427, OTHER, 0, N, 1, N, N),
	SC(close_range, 436, CLOSE_RANGE, 0, 2, 1, N, N),
	{ "openat2", 437, IOR_SC_OPEN, N, 2, 0, { 1, N }, 1, 1, 0, 0, 0, 0, 0, 0 },
	AT(faccessat2, 439, OTHER, 3, 1, N),
	AT(fchmodat2, 452, OTHER, 3, 1, N),
	AT(setxattrat, 463, OTHER, 2, 1, N),
	AT(getxattrat, 464, OTHER, 2, 1, N),
	AT(listxattrat, 465, OTHER, 2, 1, N),
	AT(removexattrat, 466, OTHER, 2, 1, N),
};

const unsigned ior_nsyscalls = sizeof ior_syscalls / sizeof ior_syscalls[0];

/* nr -> index + 1; 0 means not traced. Built before main() so lookups
 * need no lock. */
static unsigned short by_nr[IOR_NR_MAX];

__attribute__((constructor)) static void build_index(void)
{
	for (unsigned i = 0; i < ior_nsyscalls; i++)
		by_nr[ior_syscalls[i].nr] = (unsigned short)(i + 1);
}

const struct ior_syscall *ior_syscall_by_nr(unsigned nr)
{
	if (nr >= IOR_NR_MAX)
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

unsigned ior_syscall_index(const struct ior_syscall *s)
{
	return (unsigned)(s - ior_syscalls);
}

int ior_syscall_keeps_fds(const struct ior_syscall *s)
{
	return s->cls == IOR_SC_OPEN || s->cls == IOR_SC_CLOSE || s->cls == IOR_SC_CLOSE_RANGE ||
	       s->cls == IOR_SC_DUP || s->cls == IOR_SC_FCNTL || s->renames || s->sets_cwd;
}
