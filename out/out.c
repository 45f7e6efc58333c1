/* Private output files: see out.h for the guarantees and why. */
#include "out/out.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#endif

static int fail(char *err, size_t errlen, int e, const char *file, const char *what)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: %s: %s", file, what, strerror(e));
	return -e;
}

/* A decimal id below (uid_t)-1, the "unchanged" value of fchown. */
static int parse_id(const char *s, unsigned long *v)
{
	char *end;
	if (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 10)
		return -EINVAL;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno || *v >= 0xffffffffUL ? -EINVAL : 0;
}

int ior_out_owner(uid_t *uid, gid_t *gid, char *err, size_t errlen)
{
	const char *su = getenv("SUDO_UID"), *sg = getenv("SUDO_GID");
	unsigned long v;
	*uid = (uid_t)-1;
	*gid = (gid_t)-1;
	if (geteuid() != 0) /* not root: the files are the caller's already */
		return 0;
	if (su && *su) {
		if (parse_id(su, &v))
			goto bad;
		*uid = (uid_t)v;
	}
	if (sg && *sg) {
		su = sg;
		if (parse_id(sg, &v))
			goto bad;
		*gid = (gid_t)v;
	}
	return 0;
bad:
	if (err && errlen)
		snprintf(err, errlen, "SUDO_UID/SUDO_GID \"%.32s\": not a number (unset it to keep files root's)",
			 su);
	return -EINVAL;
}

/* O_EXCL never follows a link; a leftover of a killed run, or a link some
 * other user planted, is removed (unlink does not follow either) and the
 * create tried once more. Losing that race again is an error, not a retry
 * loop. */
static int create_excl(const char *tmp)
{
	int how = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd = open(tmp, how, IOR_OUT_MODE);
	if (fd < 0 && errno == EEXIST && !unlink(tmp))
		fd = open(tmp, how, IOR_OUT_MODE);
	return fd < 0 ? -errno : fd;
}

/* The umask only narrows the create's mode; fchmod sets exactly 0600. */
static int make_private(int fd, const char *tmp, char *err, size_t errlen)
{
	uid_t uid;
	gid_t gid;
	int r = ior_out_owner(&uid, &gid, err, errlen);
	if (r)
		return r;
	if ((uid != (uid_t)-1 || gid != (gid_t)-1) && fchown(fd, uid, gid))
		return fail(err, errlen, errno, tmp, "cannot give it to the sudo user (SUDO_UID/SUDO_GID)");
	if (fchmod(fd, IOR_OUT_MODE))
		return fail(err, errlen, errno, tmp, "cannot make it private (chmod 0600)");
	return 0;
}

/* The rename would replace a device, FIFO or socket at PATH (/dev/full,
 * /dev/stdout's pipe): refuse those rather than destroy them; a regular
 * file or a link is what replacing is for. */
static int replaceable(const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (lstat(path, &st))
		return errno == ENOENT ? 0 : fail(err, errlen, errno, path, "cannot create");
	if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))
		return 0;
	if (err && errlen)
		snprintf(err, errlen, "%s: not a regular file; ior writes only files it can replace "
				      "(give a file name)", path);
	return -EEXIST;
}

int ior_out_create(struct ior_out *o, const char *path, int flags, char *err, size_t errlen)
{
	size_t n = strlen(path);
	memset(o, 0, sizeof *o);
	o->fd = -1;
	o->flags = flags;
	int r = replaceable(path, err, errlen);
	if (r)
		return r;
	o->path = strdup(path);
	o->tmp = malloc(n + sizeof IOR_OUT_TMP_SUFFIX);
	if (!o->path || !o->tmp) {
		ior_out_abort(o);
		return fail(err, errlen, ENOMEM, path, "cannot create");
	}
	memcpy(o->tmp, path, n);
	memcpy(o->tmp + n, IOR_OUT_TMP_SUFFIX, sizeof IOR_OUT_TMP_SUFFIX);
	int fd = create_excl(o->tmp);
	if (fd < 0) {
		int r = fail(err, errlen, -fd, o->tmp, "cannot create");
		free(o->tmp), o->tmp = NULL; /* not ours: leave it */
		ior_out_abort(o);
		return r;
	}
	o->fd = fd;
	flock(fd, LOCK_EX | LOCK_NB); /* a live writer's: ior_out_sweep leaves it */
	r = make_private(fd, o->tmp, err, errlen);
	if (r)
		ior_out_abort(o);
	return r;
}

/* RENAME_NOREPLACE where the filesystem has it; else link + unlink, which
 * fails with EEXIST the same way. */
static int rename_noreplace(const char *from, const char *to)
{
	if (!syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	if (link(from, to))
		return -errno;
	unlink(from);
	return 0;
}

int ior_out_publish(struct ior_out *o, char *err, size_t errlen)
{
	if (!o->tmp)
		return 0;
	int r = o->flags & IOR_OUT_NO_REPLACE ? rename_noreplace(o->tmp, o->path)
					       : rename(o->tmp, o->path) ? -errno : 0;
	if (r)
		return fail(err, errlen, -r, o->path, "cannot rename the finished file into place");
	free(o->tmp);
	o->tmp = NULL;
	return 0;
}

FILE *ior_out_stream(struct ior_out *o)
{
	FILE *f = fdopen(o->fd, "wb");
	if (f)
		o->fd = -1;
	return f;
}

int ior_out_close(struct ior_out *o, char *err, size_t errlen)
{
	int r = 0;
	const char *what = o->tmp ? o->tmp : o->path;
	if (o->fd >= 0) {
		/* EINVAL/EROFS: a file that cannot be synced is still written */
		if (fdatasync(o->fd) && errno != EINVAL && errno != EROFS)
			r = fail(err, errlen, errno, what, "cannot write");
		if (close(o->fd) && !r)
			r = fail(err, errlen, errno, what, "cannot write");
		o->fd = -1;
	}
	if (!r)
		r = ior_out_publish(o, err, errlen);
	ior_out_abort(o);
	return r;
}

void ior_out_abort(struct ior_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w, n -= (size_t)w;
	}
	return 0;
}

int ior_out_write_file(const char *path, int flags, const void *data, size_t len, char *err,
		       size_t errlen)
{
	struct ior_out o;
	int r = ior_out_create(&o, path, flags, err, errlen);
	if (r)
		return r;
	if ((r = write_all(o.fd, data, len))) {
		fail(err, errlen, -r, o.tmp, "cannot write");
		ior_out_abort(&o);
		return r;
	}
	return ior_out_close(&o, err, errlen);
}

/* A leftover of a killed writer: ours to give, a regular file, not locked
 * (the lock goes with its writer) and older than SWEEP_AGE_S (a writer
 * between its create and its lock). */
#define SWEEP_AGE_S 2
static int dead_tmp(int dfd, const char *name, uid_t owner)
{
	struct stat st;
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	int dead = 0;

	if (fd < 0)
		return 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_uid == owner &&
	    st.st_mtime + SWEEP_AGE_S <= time(NULL) && !flock(fd, LOCK_EX | LOCK_NB))
		dead = 1;
	close(fd); /* and its lock: the unlink below does not need it */
	return dead;
}

int ior_out_sweep(const char *dir, int (*mine)(const char *name, size_t len), char *err, size_t errlen)
{
	size_t sl = strlen(IOR_OUT_TMP_SUFFIX);
	uid_t uid;
	gid_t gid;
	int n = 0, r = ior_out_owner(&uid, &gid, err, errlen);
	DIR *d;
	struct dirent *e;

	if (r)
		return r;
	if (uid == (uid_t)-1)
		uid = geteuid();
	if (!(d = opendir(dir)))
		return fail(err, errlen, errno, dir, "cannot read the directory");
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len <= sl || strcmp(e->d_name + len - sl, IOR_OUT_TMP_SUFFIX) || !mine(e->d_name, len - sl))
			continue;
		if (dead_tmp(dirfd(d), e->d_name, uid) && !unlinkat(dirfd(d), e->d_name, 0))
			n++;
	}
	closedir(d);
	return n;
}
