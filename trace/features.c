#include "trace/features.h"

#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* the same on every arch (asm-generic) */
#endif

static struct ior_feature table[IOR_NFEATURES] = {
	[IOR_FEAT_KERNEL_BTF] = { "kernel BTF", "raw tracepoints (slower); no file identities, socket "
						"addresses or -follow" },
	[IOR_FEAT_TP_BTF] = { "tp_btf programs", "their raw twins (slower)" },
	[IOR_FEAT_TASK_LAYOUT] = { "task_struct layout", "forks are not followed: -follow and -- CMD refused" },
	[IOR_FEAT_FILE_IDENT] = { "file identity", "fds are named by the path their open used (symlinks not "
						  "resolved)" },
	[IOR_FEAT_DENTRY_NAME] = { "dentry inline name", "a short name takes one more read per open" },
	[IOR_FEAT_FILE_TYPED] = { "typed file reads", "an open's file identity takes four more helper "
						      "reads (bpf_rdonly_cast, 6.2)" },
	[IOR_FEAT_SOCK_ADDR] = { "socket addresses", "sockets are named without their local address" },
	[IOR_FEAT_TEST_RUN] = { "test run on a CPU", "records wait until their CPU's batch fills" },
	[IOR_FEAT_PIDFD] = { "pidfd", "the end of a -pid target is found by polling /proc" },
	[IOR_FEAT_BLOCK] = { "block requests", "pairs carry no device time or requests; no device table" },
	[IOR_FEAT_PAGE_CACHE] = { "page cache fills", "reads carry no cache misses (pages added)" },
};

void ior_feature_set(enum ior_feature_id id, bool present, const char *detail)
{
	if ((unsigned)id >= IOR_NFEATURES)
		return;
	table[id].state = present ? IOR_FEAT_PRESENT : IOR_FEAT_ABSENT;
	snprintf(table[id].detail, sizeof table[id].detail, "%s", detail ? detail : "");
}

static void probe_pidfd(void)
{
	int fd = (int)syscall(SYS_pidfd_open, getpid(), 0);

	ior_feature_set(IOR_FEAT_PIDFD, fd >= 0, fd >= 0 ? NULL : errno == ENOSYS ? "kernel before 5.3" : "refused");
	if (fd >= 0)
		close(fd);
}

const struct ior_feature *ior_feature(enum ior_feature_id id)
{
	if ((unsigned)id >= IOR_NFEATURES)
		return NULL;
	if (id == IOR_FEAT_PIDFD && table[id].state == IOR_FEAT_UNKNOWN)
		probe_pidfd();
	return &table[id];
}

bool ior_feature_has(enum ior_feature_id id)
{
	const struct ior_feature *f = ior_feature(id);

	return f && f->state == IOR_FEAT_PRESENT;
}
