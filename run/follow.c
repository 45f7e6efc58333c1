/* The followed set, descendants from /proc, the end of a target. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "loader/loader.h"
#include "bpf/event.h"
#include "run/follow.h"
#include "trace/features.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#define STR2(x) #x
#define STR(x) STR2(x)
#define IOR_FOLLOW_MAX_STR STR(IOR_FOLLOW_MAX)

int ior_follow_add(const struct ior_probe *p, uint32_t pid, char *err, size_t errlen)
{
	int fd = ior_loader_map_fd(p->obj, "followed"), r;
	uint32_t one = 1;

	if (fd < 0)
		return snprintf(err, errlen, "map 'followed': not in the BPF object: %s", strerror(-fd)), fd;
	r = ior_sys_map_update_elem(fd, &pid, &one, 0);
	if (r < 0)
		snprintf(err, errlen, "map 'followed': adding pid %u: %s%s", pid, strerror(-r),
			 r == -E2BIG ? " (it holds " IOR_FOLLOW_MAX_STR " processes)" : "");
	return r;
}

size_t ior_follow_count(const struct ior_probe *p)
{
	int fd = ior_loader_map_fd(p->obj, "followed");
	uint32_t key, next, gone[64];
	size_t n = 0, ngone = 0;
	int r = fd < 0 ? -1 : ior_sys_map_get_next_key(fd, NULL, &next);

	for (size_t i = 0; !r && i < 2 * IOR_FOLLOW_MAX; i++) {
		if (ior_follow_gone(next)) {
			if (ngone < sizeof gone / sizeof *gone)
				gone[ngone++] = next;
		} else {
			n++;
		}
		key = next;
		r = ior_sys_map_get_next_key(fd, &key, &next);
	}
	for (size_t i = 0; i < ngone; i++)
		ior_sys_map_delete_elem(fd, &gone[i]);
	return n;
}

size_t ior_follow_parse_children(const char *text, uint32_t *out, size_t max)
{
	size_t n = 0;

	while (*text) {
		char *end;
		if (*text < '0' || *text > '9') {
			text++;
			continue;
		}
		errno = 0;
		unsigned long v = strtoul(text, &end, 10);
		if (!errno && v && v < UINT32_MAX) {
			if (n < max)
				out[n] = (uint32_t)v;
			n++;
		}
		text = end;
	}
	return n;
}

/* Appends pid's children (of every thread) to out[*n..max). */
static void children_of(uint32_t pid, uint32_t *out, size_t *n, size_t max)
{
	char p[64], buf[4096];
	struct dirent *d;
	DIR *dir;

	snprintf(p, sizeof p, "/proc/%u/task", pid);
	if (!(dir = opendir(p)))
		return;
	while ((d = readdir(dir)) && *n < max) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(p, sizeof p, "/proc/%u/task/%.16s/children", pid, d->d_name);
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
		if (fd >= 0)
			close(fd);
		if (len <= 0)
			continue;
		buf[len] = 0;
		size_t k = ior_follow_parse_children(buf, out + *n, max - *n);
		*n += k < max - *n ? k : max - *n;
	}
	closedir(dir);
}

size_t ior_follow_descendants(uint32_t pid, uint32_t *out, size_t max)
{
	size_t n = 0;

	children_of(pid, out, &n, max);
	for (size_t i = 0; i < n; i++)
		children_of(out[i], out, &n, max);
	return n;
}

char ior_follow_stat_state(const char *text, size_t len)
{
	const char *paren = NULL;

	for (size_t i = 0; i < len; i++)
		if (text[i] == ')')
			paren = text + i;
	if (!paren || (size_t)(paren - text) + 2 >= len || paren[1] != ' ')
		return 0;
	return paren[2];
}

bool ior_follow_gone(uint32_t id)
{
	char p[64], buf[1024];
	int fd;
	ssize_t n;

	snprintf(p, sizeof p, "/proc/%u/stat", id);
	if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
		return errno == ENOENT || errno == ESRCH;
	n = read(fd, buf, sizeof buf);
	close(fd);
	if (n <= 0)
		return n == 0 || errno == ESRCH;
	char s = ior_follow_stat_state(buf, (size_t)n);
	return s == 'Z' || s == 'X';
}

void ior_watch_open(struct ior_watch *w, uint32_t id, bool thread)
{
	w->id = id;
	w->pidfd = thread || !ior_feature_has(IOR_FEAT_PIDFD) ? -1 : (int)syscall(SYS_pidfd_open, (pid_t)id, 0);
	if (w->pidfd < 0)
		w->pidfd = -1;
}

bool ior_watch_ended(struct ior_watch *w)
{
	struct pollfd pfd = { .fd = w->pidfd, .events = POLLIN };

	if (w->pidfd < 0)
		return ior_follow_gone(w->id);
	return poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLIN | POLLHUP | POLLERR));
}

void ior_watch_close(struct ior_watch *w)
{
	if (w->pidfd >= 0)
		close(w->pidfd);
	w->pidfd = -1;
}
