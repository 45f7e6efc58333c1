/* Attaching programs to tracepoints the way every kernel since 4.7 accepts:
 * the tracepoint's id from tracefs, a PERF_TYPE_TRACEPOINT event, and
 * PERF_EVENT_IOC_SET_BPF. One event on CPU 0 with pid -1 is enough: the
 * program runs wherever the tracepoint fires, only perf's own sampling
 * (which ior's programs never ask for by returning 0) is per CPU.
 * Raw tracepoints (BPF_RAW_TRACEPOINT_OPEN) need no tracefs at all. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>
#include <linux/perf_event.h>

#include "loader/internal.h"

static const char *const tracefs_dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

static struct {
	const char *root;
	bool mounted;
} tracefs;

/* ioctl(2) and mount(2) without <sys/ioctl.h> and <sys/mount.h>: musl's
 * headers and the kernel's <linux/ioctl.h> both define _IOC. */
static int perf_ioctl(int fd, unsigned long req, unsigned long arg)
{
	return (int)syscall(SYS_ioctl, fd, req, arg);
}

static int mount_tracefs(const char *dir)
{
	return (int)syscall(SYS_mount, "tracefs", dir, "tracefs", 0UL, NULL);
}

/* statfs follows the automount that debugfs sets up at .../debug/tracing. */
static bool is_tracefs(const char *dir)
{
	struct statfs st;
	return statfs(dir, &st) == 0 && (unsigned long)st.f_type == TRACEFS_MAGIC;
}

const char *ior_loader_tracefs(bool *mounted, char *err, size_t errlen)
{
	if (!tracefs.root) {
		for (size_t i = 0; i < sizeof tracefs_dirs / sizeof *tracefs_dirs; i++)
			if (is_tracefs(tracefs_dirs[i])) {
				tracefs.root = tracefs_dirs[i];
				break;
			}
	}
	if (!tracefs.root) {
		if (mount_tracefs(tracefs_dirs[0])) {
			int e = errno;
			ior_loader_fail(err, errlen, e,
					"tracefs: not mounted at %s or %s, and mounting it on %s "
					"failed: %s%s; try: mount -t tracefs tracefs %s",
					tracefs_dirs[0], tracefs_dirs[1], tracefs_dirs[0], strerror(e),
					e == EPERM ? " (needs root)" : "", tracefs_dirs[0]);
			return NULL;
		}
		tracefs.root = tracefs_dirs[0];
		tracefs.mounted = true;
	}
	if (mounted)
		*mounted = tracefs.mounted;
	return tracefs.root;
}

static bool safe_component(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

int ior_loader_tracepoint_id(const char *category, const char *name, char *err, size_t errlen)
{
	if (!safe_component(category) || !safe_component(name))
		return ior_loader_fail(err, errlen, EINVAL, "tracepoint '%s:%s': bad name",
				       category, name);
	const char *root = ior_loader_tracefs(NULL, err, errlen);
	if (!root)
		return -ENOENT;
	char path[512], buf[32];
	snprintf(path, sizeof path, "%s/events/%s/%s/id", root, category, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		if (e == ENOENT)
			return ior_loader_fail(err, errlen, e, "tracepoint %s:%s: not in this kernel",
					       category, name);
		return ior_loader_fail(err, errlen, e, "tracepoint %s:%s: cannot read %s: %s%s",
				       category, name, path, strerror(e),
				       e == EACCES ? " (run as root)" : "");
	}
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return ior_loader_fail(err, errlen, EIO, "tracepoint %s:%s: cannot read %s",
				       category, name, path);
	buf[n] = '\0';
	char *end;
	long id = strtol(buf, &end, 10);
	if (end == buf || id <= 0 || id > INT32_MAX)
		return ior_loader_fail(err, errlen, EINVAL, "tracepoint %s:%s: bad id '%s'",
				       category, name, buf);
	return (int)id;
}

int ior_loader_attach_tracepoint(int prog_fd, const char *category, const char *name,
				 char *err, size_t errlen)
{
	int id = ior_loader_tracepoint_id(category, name, err, errlen);
	if (id < 0)
		return id;
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof attr;
	attr.config = (uint64_t)id;
	int fd = ior_sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return ior_loader_fail(err, errlen, -fd, "tracepoint %s:%s: perf_event_open: %s%s",
				       category, name, strerror(-fd), ior_loader_hint(-fd));
	bool set_bpf_failed = perf_ioctl(fd, PERF_EVENT_IOC_SET_BPF, (unsigned long)prog_fd) != 0;
	if (!set_bpf_failed && !perf_ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		return fd;
	int e = errno;
	close(fd);
	const char *what = set_bpf_failed ? "PERF_EVENT_IOC_SET_BPF" : "PERF_EVENT_IOC_ENABLE";
	/* SET_BPF says EACCES when the program reads more of its context than
	 * this tracepoint's record holds (e.g. args[5] of a 1-argument syscall). */
	const char *hint = set_bpf_failed && e == EACCES
				   ? "; the program reads past this tracepoint's record (read "
				     "arguments it may lack with bpf_probe_read_kernel)"
				   : ior_loader_hint(e);
	return ior_loader_fail(err, errlen, e, "tracepoint %s:%s: %s: %s%s", category, name, what,
			       strerror(e), hint);
}

int ior_loader_attach_raw_tracepoint(int prog_fd, const char *name, char *err, size_t errlen)
{
	int fd = ior_sys_raw_tracepoint_open(name, prog_fd);
	if (fd >= 0)
		return fd;
	if (!name)
		name = "(the tp_btf program's)";
	if (fd == -ENOENT)
		return ior_loader_fail(err, errlen, ENOENT, "raw tracepoint %s: not in this kernel",
				       name);
	return ior_loader_fail(err, errlen, -fd, "raw tracepoint %s: BPF_RAW_TRACEPOINT_OPEN: %s%s",
			       name, strerror(-fd), ior_loader_hint(-fd));
}
