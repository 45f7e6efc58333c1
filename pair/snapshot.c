/* /proc readers for ior_snapshot_take. Each process is read between two
 * clock readings (the records' clock), its fds first, then its cwd. */
#include "pair/clock.h"
#include "pair/endpoint.h"
#include "pair/snapshot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TICK_EVERY 32 /* processes between two ticks */

struct fd_list {
	struct ior_fd_snap *v;
	size_t *off;  /* of each path in arena */
	size_t n, cap;
	char *arena;
	size_t alen, acap;
};


static int64_t fdinfo_flags(uint32_t pid, int fd)
{
	char p[64], buf[256];
	const char *fl;
	ssize_t n;
	int f;

	snprintf(p, sizeof p, "/proc/%u/fdinfo/%d", pid, fd);
	if ((f = open(p, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(f, buf, sizeof buf - 1);
	close(f);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	fl = strstr(buf, "flags:");
	/* fdinfo shows O_LARGEFILE, which 64-bit kernels add to every open and
	 * traced open flags lack: dropped so both read the same */
	return fl ? strtoll(fl + 6, NULL, 8) & ~(int64_t)0100000 : -1;
}

static int grow(struct fd_list *l)
{
	size_t cap = l->cap ? 2 * l->cap : 64;
	struct ior_fd_snap *v = realloc(l->v, cap * sizeof *v);
	if (!v)
		return -ENOMEM;
	l->v = v;
	size_t *off = realloc(l->off, cap * sizeof *off);
	if (!off)
		return -ENOMEM;
	l->off = off;
	l->cap = cap;
	return 0;
}

static int append(struct fd_list *l, const char *s, size_t n)
{
	if (l->alen + n + 1 > l->acap) {
		size_t cap = l->acap ? 2 * l->acap : 4096;
		while (cap < l->alen + n + 1)
			cap *= 2;
		char *a = realloc(l->arena, cap);
		if (!a)
			return -ENOMEM;
		l->arena = a;
		l->acap = cap;
	}
	l->off[l->n] = l->alen;
	memcpy(l->arena + l->alen, s, n);
	l->arena[l->alen + n] = 0;
	l->alen += n + 1;
	return 0;
}

/* A whole /proc file, NUL-terminated (malloc'd), or NULL. */
static char *read_text(const char *path)
{
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap), *b;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = 0;

	while (buf && fd >= 0 && (n = read(fd, buf + len, cap - len - 1)) > 0)
		if ((len += (size_t)n) + 1 == cap)
			buf = (b = realloc(buf, cap *= 2)) ? b : (free(buf), NULL);
	if (fd >= 0)
		close(fd);
	if (!buf || fd < 0 || n < 0)
		return free(buf), NULL;
	buf[len] = 0;
	return buf;
}

/* The endpoints of the sockets in ior's network namespace, by inode; NULL
 * when nothing could be read (sockets keep /proc's "socket:[INODE]"). */
static struct ior_sock_names *sock_names(void)
{
	struct ior_sock_names *n = ior_sock_names_new();
	char path[64];

	for (size_t i = 0; n && i < ior_endpoint_nprotos; i++) {
		const char *proto = ior_endpoint_protos[i].name;
		if (!ior_endpoint_protos[i].procnet)
			continue;
		snprintf(path, sizeof path, "/proc/net/%s", proto);
		char *text = read_text(path);
		if (text)
			ior_sock_names_load(n, proto, text);
		free(text);
	}
	return n;
}

/* "socket:[INODE]" as its endpoint when socks knows it. */
static const char *fd_name(const char *link, const struct ior_sock_names *socks)
{
	const char *ep;

	if (strncmp(link, "socket:[", 8))
		return link;
	ep = ior_sock_names_find(socks, strtoull(link + 8, NULL, 10));
	return ep ? ep : link;
}

/* Reads /proc/PID/fd into l; -errno when the process cannot be read. */
static int read_fds(uint32_t pid, struct fd_list *l, const struct ior_sock_names *socks)
{
	char p[64], path[IOR_FD_PATH_MAX];
	struct dirent *d;
	DIR *dir;

	l->n = l->alen = 0;
	snprintf(p, sizeof p, "/proc/%u/fd", pid);
	if (!(dir = opendir(p)))
		return -errno;
	while ((d = readdir(dir))) {
		char link[80];
		ssize_t n;
		int fd = atoi(d->d_name);
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(link, sizeof link, "/proc/%u/fd/%d", pid, fd);
		if ((n = readlink(link, path, sizeof path - 1)) < 0)
			continue; /* closed meanwhile */
		path[n] = 0;
		const char *name = fd_name(path, socks);
		if ((l->n == l->cap && grow(l)) || append(l, name, strlen(name))) {
			closedir(dir);
			return -ENOMEM;
		}
		l->v[l->n++] = (struct ior_fd_snap){ fd, fdinfo_flags(pid, fd), NULL };
	}
	closedir(dir);
	for (size_t i = 0; i < l->n; i++) /* the arena may have moved: point now */
		l->v[i].path = l->arena + l->off[i];
	return 0;
}

static int comm_matches(uint32_t pid, const char *want)
{
	char p[64], comm[64] = "";
	FILE *f;

	if (!want || !want[0])
		return 1;
	snprintf(p, sizeof p, "/proc/%u/comm", pid);
	if (!(f = fopen(p, "re")))
		return 0;
	if (!fgets(comm, sizeof comm, f))
		comm[0] = 0;
	fclose(f);
	comm[strcspn(comm, "\n")] = 0;
	return strstr(comm, want) != NULL;
}

/* The process of thread tid (Tgid in /proc/TID/status), or -1. */
static int64_t tgid_of(int64_t tid)
{
	char p[64], buf[512];
	int64_t tgid = -1;
	FILE *f;

	snprintf(p, sizeof p, "/proc/%lld/status", (long long)tid);
	if (!(f = fopen(p, "re")))
		return -1;
	while (fgets(buf, sizeof buf, f))
		if (!strncmp(buf, "Tgid:", 5))
			tgid = strtoll(buf + 5, NULL, 10);
	fclose(f);
	return tgid;
}

static int take_one(struct ior_fdtab *t, uint32_t pid, struct fd_list *l, struct ior_snapshot_stats *st,
		    const struct ior_sock_names *socks)
{
	char p[64], cwd[IOR_FD_PATH_MAX];
	uint64_t begin = ior_mono_ns();
	ssize_t n;
	int r = read_fds(pid, l, socks);

	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		st->failed++;
		return 0;
	}
	snprintf(p, sizeof p, "/proc/%u/cwd", pid);
	n = readlink(p, cwd, sizeof cwd - 1);
	cwd[n > 0 ? n : 0] = 0;
	r = ior_fdtab_snapshot(t, pid, begin, ior_mono_ns(), cwd, l->v, l->n);
	st->procs++;
	st->fds += l->n;
	return r;
}

static int take_all(struct ior_fdtab *t, const struct ior_snapshot_scope *sc, struct fd_list *l,
		    void (*tick)(void *), void *ctx, struct ior_snapshot_stats *st,
		    const struct ior_sock_names *socks)
{
	struct dirent *d;
	DIR *dir = opendir("/proc");
	int r = 0;

	if (!dir)
		return 0; /* nothing to read: every process is unknown */
	while (!r && (d = readdir(dir))) {
		char *end;
		unsigned long pid = strtoul(d->d_name, &end, 10);
		if (*end || !pid || pid > UINT32_MAX || pid == sc->self || !comm_matches((uint32_t)pid, sc->comm))
			continue;
		r = take_one(t, (uint32_t)pid, l, st, socks);
		if (tick && st->procs % TICK_EVERY == 0)
			tick(ctx);
	}
	closedir(dir);
	return r;
}

int ior_snapshot_take(struct ior_fdtab *t, const struct ior_snapshot_scope *sc,
		      void (*tick)(void *ctx), void *ctx, struct ior_snapshot_stats *st)
{
	struct fd_list l = { 0 };
	uint64_t start = ior_mono_ns();
	int64_t one = sc->pid >= 0 ? sc->pid : sc->tid >= 0 ? tgid_of(sc->tid) : -1;
	int r;

	memset(st, 0, sizeof *st);
	ior_fdtab_snapshot_until(t, UINT64_MAX);
	struct ior_sock_names *socks = sock_names();
	if (sc->pid >= 0 || sc->tid >= 0)
		r = one > 0 && one <= UINT32_MAX ? take_one(t, (uint32_t)one, &l, st, socks) : 0;
	else
		r = take_all(t, sc, &l, tick, ctx, st, socks);
	ior_sock_names_free(socks);
	ior_fdtab_snapshot_until(t, ior_mono_ns());
	st->ns = ior_mono_ns() - start;
	free(l.v);
	free(l.off);
	free(l.arena);
	return r;
}
