/* Each arch's syscall table against that arch's kernel headers
 * (linux-libc-dev:ARCH, read by nr_list.sh): every syscall the headers
 * list has its row, under its tracepoint's name, with the same number. */
#include "bpf/event.h"
#include "syscalls/syscalls.h"
#include "t.h"

#include <string.h>

struct arch {
	const char *name, *triplet;
	const struct ior_syscall *rows;
	unsigned n;
	const char *const *skip; /* in the headers, not implemented */
	const char *const *newer; /* rows newer than the headers, below their last number */
	unsigned changers;       /* rename, link, symlink and their *at forms */
};

/* The header's name -> the tracepoint's, as the tables spell them. */
static const char *const alias[][2] = {
	{ "fstat", "newfstat" }, { "stat", "newstat" },   { "lstat", "newlstat" },
	{ "sendfile", "sendfile64" }, { "umount2", "umount" }, { "uname", "newuname" },
};

static const char *const skip_x86_64[] = {
	"create_module", "get_kernel_syms", "query_module", "nfsservctl", "getpmsg", "putpmsg",
	"afs_syscall", "tuxcall", "security", "vserver", "lookup_dcookie", "uselib", "_sysctl",
	"set_thread_area", "get_thread_area", "epoll_ctl_old", "epoll_wait_old", NULL,
};
static const char *const skip_arm64[] = { "syscalls", "arch_specific_syscall", "nfsservctl",
					  "lookup_dcookie", NULL };

/* Linux 6.11 and 6.16, x86_64 only. */
static const char *const newer_x86_64[] = { "uretprobe", "uprobe", NULL };
static const char *const newer_arm64[] = { NULL };

static const char *tracepoint_name(const char *arch, const char *h)
{
	for (unsigned i = 0; i < sizeof alias / sizeof alias[0]; i++)
		if (!strcmp(h, alias[i][0]))
			return alias[i][1];
	if (!strcmp(arch, "arm64") && !strcmp(h, "fadvise64"))
		return "fadvise64_64";
	return h;
}

static const struct ior_syscall *row(const struct arch *a, const char *name)
{
	for (unsigned i = 0; i < a->n; i++)
		if (!strcmp(a->rows[i].name, name))
			return &a->rows[i];
	return NULL;
}

static int in(const char *const *list, const char *name)
{
	for (const char *const *s = list; *s; s++)
		if (!strcmp(*s, name))
			return 1;
	return 0;
}

static void check_arch(const struct arch *a)
{
	char cmd[256], name[64], seen[IOR_NR_MAX] = { 0 };
	unsigned nr, listed = 0, max = 0, changers = 0;
	FILE *f;

	snprintf(cmd, sizeof cmd, "sh tests/unit/nr_list.sh %s", a->triplet);
	if (!(f = popen(cmd, "r")))
		T_FAIL("%s: cannot run %s", a->name, cmd);
	while (f && fscanf(f, "%63s %u", name, &nr) == 2) {
		const char *tp = tracepoint_name(a->name, name);
		const struct ior_syscall *s = row(a, tp);
		listed++;
		if (in(a->skip, name))
			continue;
		max = nr > max ? nr : max;
		if (!s)
			T_FAIL("%s: %s (%u) is in the headers, not in the table", a->name, tp, nr);
		else if (s->nr != nr)
			T_FAIL("%s: %s is %u in the table, %u in the headers", a->name, tp, s->nr, nr);
		else if (nr < IOR_NR_MAX)
			seen[nr] = 1;
	}
	if (f && pclose(f) != 0)
		T_FAIL("%s: %s failed", a->name, cmd);
	if (listed < 250)
		T_FAIL("%s: only %u syscalls in the headers", a->name, listed);
	/* Rows past the headers' last number are newer than the headers. */
	for (unsigned i = 0; i < a->n; i++) {
		const struct ior_syscall *s = &a->rows[i];
		if (ior_syscall_async(s)) /* ior's own numbers: test_syscalls_table.c */
			continue;
		if (s->nr >= IOR_NR_MAX || (s->nr <= max && !seen[s->nr] && !in(a->newer, s->name)))
			T_FAIL("%s: %s (%u) is not in the headers", a->name, s->name, s->nr);
		if (ior_syscall_changes_names(s)) {
			changers++;
			if (strncmp(s->name, "rename", 6) && strncmp(s->name, "link", 4) &&
			    strncmp(s->name, "symlink", 7))
				T_FAIL("%s: %s changes names?", a->name, s->name);
		}
	}
	CHECK_EQ_INT(changers, a->changers);
	CHECK(changers <= IOR_NAME_CHANGERS_MAX);
}

TEST(x86_64_table_matches_headers)
{
	struct arch a = { "x86_64", "x86_64-linux-gnu", ior_syscalls_x86_64, ior_nsyscalls_x86_64,
			  skip_x86_64, newer_x86_64, 7 };
	check_arch(&a);
}

TEST(arm64_table_matches_headers)
{
	struct arch a = { "arm64", "aarch64-linux-gnu", ior_syscalls_arm64, ior_nsyscalls_arm64,
			  skip_arm64, newer_arm64, 4 };
	check_arch(&a);
	CHECK(!row(&a, "open") && !row(&a, "newstat") && !row(&a, "rename") && !row(&a, "dup2"));
	CHECK(!row(&a, "pipe") && !row(&a, "poll") && !row(&a, "select"));
}

/* The binary's table is its build arch's. */
TEST(build_arch_table)
{
#if defined(__aarch64__)
	CHECK(ior_syscalls == ior_syscalls_arm64 && ior_nsyscalls == ior_nsyscalls_arm64);
#else
	CHECK(ior_syscalls == ior_syscalls_x86_64 && ior_nsyscalls == ior_nsyscalls_x86_64);
#endif
}

int main(void)
{
	RUN(x86_64_table_matches_headers);
	RUN(arm64_table_matches_headers);
	RUN(build_arch_table);
	return t_done();
}
