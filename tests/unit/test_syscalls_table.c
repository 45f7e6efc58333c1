/* The syscall table: complete for x86_64, consistent, the roles the
 * pairing stage relies on. */
#include "bpf/event.h"
#include "syscalls/select.h"
#include "syscalls/syscalls.h"
#include "t.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>

/* Any arch's row of that name: the roles are the same on every arch
 * (the other tables are generated from x86_64's rows). */
static const struct ior_syscall *sc(const char *name)
{
	int sys = ior_sys_find(name);
	if (sys < 0)
		T_FAIL("no syscall %s", name);
	return sys < 0 ? NULL : ior_sys((unsigned)sys);
}

#define URING_ROWS 64 /* opcodes 0..62 and "other" */
#define AIO_ROWS 9    /* aio_abi.h's opcodes but the unused 4, and "other" */

TEST(every_entry_is_whole)
{
	CHECK(ior_nsyscalls <= IOR_NR_MAX); /* the selection arrays (cmd/) hold one byte per row */
	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		const struct ior_syscall *s = &ior_syscalls[i];
		if (!s->name || !s->name[0] || s->family >= IOR_NFAMILIES ||
		    s->nr >= (ior_syscall_async(s) ? IOR_NR_ASYNC_END : IOR_NR_MAX) ||
		    s->cls > IOR_SC_FCNTL)
			T_FAIL("entry %u (%s)", i, s->name ? s->name : "?");
		for (int a = 0; a < 2; a++)
			if (s->path_arg[a] != IOR_ARG_NONE && s->path_arg[a] > 5)
				T_FAIL("%s: path %d", s->name, a);
		if ((s->fd_arg != IOR_ARG_NONE && s->fd_arg > 5) ||
		    (s->flags_arg != IOR_ARG_NONE && s->flags_arg > 5) ||
		    (s->aux_arg != IOR_ARG_NONE && s->aux_arg > 5))
			T_FAIL("%s: an argument index past 5", s->name);
		if (s->fd_kind != IOR_FD_PATH && s->cls != IOR_SC_OPEN)
			T_FAIL("%s: names a new fd but is no open", s->name);
		if (i && ior_syscalls[i - 1].nr >= s->nr)
			T_FAIL("%s: not in number order", s->name);
	}
}

TEST(no_duplicate_nr_or_name)
{
	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		CHECK(ior_syscall_by_nr(ior_syscalls[i].nr) == &ior_syscalls[i]);
		CHECK(ior_syscall_by_name(ior_syscalls[i].name) == &ior_syscalls[i]);
		CHECK_EQ_INT(ior_syscall_index(&ior_syscalls[i]), i);
	}
	CHECK(ior_syscall_by_nr(IOR_NR_MAX) == NULL && ior_syscall_by_nr(387) == NULL);
	CHECK(ior_syscall_by_name("stat") == NULL); /* the tracepoint's name: newstat */
}

/* Every arch's names have one index each, whatever the build arch: a
 * recording made on another arch reads under its own names. */
static void check_table_in_index(const struct ior_syscall *t, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		int sys = ior_sys_find(t[i].name);
		CHECK(sys >= 0 && (unsigned)sys < ior_sys_count());
		if (sys < 0)
			return;
		CHECK_EQ_STR(ior_sys((unsigned)sys)->name, t[i].name);
		CHECK_EQ_INT(ior_sys((unsigned)sys)->family, t[i].family);
		CHECK_EQ_INT(ior_sys((unsigned)sys)->cls, t[i].cls);
	}
}

TEST(index_space)
{
	for (unsigned i = 0; i < ior_nsyscalls; i++)
		CHECK_EQ_INT(ior_sys_find(ior_syscalls[i].name), ior_syscall_index(&ior_syscalls[i]));
	check_table_in_index(ior_syscalls_x86_64, ior_nsyscalls_x86_64);
	check_table_in_index(ior_syscalls_arm64, ior_nsyscalls_arm64);
	/* x86_64's names (its syscalls and the async ops) and arm64's fadvise64_64 */
	CHECK_EQ_INT(ior_sys_count(), ior_nsyscalls_x86_64 + 1);
	CHECK(ior_sys_find("fadvise64") != ior_sys_find("fadvise64_64"));
	CHECK_EQ_STR(ior_sys(ior_sys_count())->name, "?");
	CHECK_EQ_INT(ior_sys(ior_sys_count())->family, IOR_FAM_Misc);
}

/* A name no table knows (a newer kernel's) gets the next index, once. */
TEST(index_define)
{
	unsigned n = ior_sys_count();

	CHECK_EQ_INT(ior_sys_find("sys_from_the_future"), -1);
	CHECK_EQ_INT(ior_sys_define("sys_from_the_future"), n);
	CHECK_EQ_INT(ior_sys_define("sys_from_the_future"), n);
	CHECK_EQ_INT(ior_sys_find("sys_from_the_future"), n);
	CHECK_EQ_INT(ior_sys_count(), n + 1);
	CHECK_EQ_STR(ior_sys(n)->name, "sys_from_the_future");
	CHECK_EQ_INT(ior_sys(n)->family, IOR_FAM_Misc);
	CHECK_EQ_INT(ior_sys(n)->cls, IOR_SC_OTHER);
	CHECK_EQ_INT(ior_sys_define("read"), ior_sys_find("read"));
	CHECK_EQ_INT(ior_sys_count(), n + 1);
}

/* The counts README.md states, once, in "Which syscalls: families": the
 * syscalls per arch, the families, the default set and the syscalls per
 * family on x86_64. They are read from README.md (the tests run from the
 * repo root) and compared with the tables, so the two cannot drift. */
struct readme_counts {
	unsigned x86_64, arm64, nfamilies, nasync, by_default;
	unsigned family[IOR_NFAMILIES];
	int rows[IOR_NFAMILIES]; /* table rows seen per family */
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0, r;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = (cap ? cap * 2 : 65536));
			if (!nb)
				break;
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r);
	fclose(f);
	if (buf)
		buf[n] = 0;
	return buf;
}

/* 0, or T_FAIL'd. The sentence may wrap: newlines are read as blanks. */
static int readme_counts(const char *path, struct readme_counts *c)
{
	static const char holds[] = "ior's table holds ", dflt[] = "by default it traces ";
	char *text = slurp(path), *line, *p, *flat;
	int ok = 1;

	memset(c, 0, sizeof *c);
	if (!text) {
		T_FAIL("%s: cannot read it (run the tests from the repo root)", path);
		return -1;
	}
	for (line = text; line && *line; line = p ? p + 1 : NULL) {
		char name[32];
		unsigned n;
		int f;

		p = strchr(line, '\n');
		if (sscanf(line, "| %31[A-Za-z] | %u |", name, &n) == 2 && (f = ior_family_by_name(name)) >= 0) {
			c->family[f] = n;
			c->rows[f]++;
		}
	}
	flat = text;
	for (p = text; *p; p++)
		*p = *p == '\n' ? ' ' : *p;
	p = strstr(flat, holds);
	if (!p || sscanf(p + sizeof holds - 1, "%u syscalls on x86_64 and %u on arm64, in %u families, and %u async ops",
			 &c->x86_64, &c->arm64, &c->nfamilies, &c->nasync) != 4) {
		T_FAIL("%s: no sentence \"%sN syscalls on x86_64 and N on arm64, in N families, and N async ops\"", path,
		       holds);
		ok = 0;
	}
	p = strstr(flat, dflt);
	p = p ? strstr(p, " syscalls on x86_64") : NULL;
	if (p) {
		while (p > flat && p[-1] >= '0' && p[-1] <= '9')
			p--;
		c->by_default = (unsigned)strtoul(p, NULL, 10);
	}
	if (!c->by_default) {
		T_FAIL("%s: no \"%sFAMILIES, N syscalls on x86_64\"", path, dflt);
		ok = 0;
	}
	free(text);
	return ok ? 0 : -1;
}

/* Syscalls only: the async ops (uring:OP, aio:OP) are counted apart. */
static unsigned count_family(const struct ior_syscall *t, unsigned n, unsigned family)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		k += t[i].family == family && !ior_syscall_async(&t[i]);
	return k;
}

static unsigned count_async(const struct ior_syscall *t, unsigned n, bool async)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		k += !ior_syscall_async(&t[i]) != async;
	return k;
}

static unsigned count_default(void)
{
	char list[] = IOR_DEFAULT_FAMILIES;
	unsigned k = 0;

	for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		k += count_family(ior_syscalls_x86_64, ior_nsyscalls_x86_64, (unsigned)ior_family_by_name(tok));
	return k;
}

/* What README.md says against what the tables hold: fails naming each
 * count that differs. IOR_README names another file (to see it fail). */
static void check_readme(const char *path)
{
	struct readme_counts c;

	if (readme_counts(path, &c))
		return;
	unsigned x = count_async(ior_syscalls_x86_64, ior_nsyscalls_x86_64, false);
	unsigned a = count_async(ior_syscalls_arm64, ior_nsyscalls_arm64, false);
	unsigned ops = count_async(ior_syscalls_x86_64, ior_nsyscalls_x86_64, true);

	if (c.x86_64 != x)
		T_FAIL("%s says %u syscalls on x86_64; syscalls/table_x86_64.c has %u", path, c.x86_64, x);
	if (c.arm64 != a)
		T_FAIL("%s says %u syscalls on arm64; syscalls/table_arm64.c has %u", path, c.arm64, a);
	if (c.nasync != ops || ops != count_async(ior_syscalls_arm64, ior_nsyscalls_arm64, true))
		T_FAIL("%s says %u async ops; the tables have %u", path, c.nasync, ops);
	if (c.nfamilies != IOR_NFAMILIES)
		T_FAIL("%s says %u families; there are %u", path, c.nfamilies, (unsigned)IOR_NFAMILIES);
	if (c.by_default != count_default())
		T_FAIL("%s says %u syscalls by default; %s has %u on x86_64", path, c.by_default, IOR_DEFAULT_FAMILIES,
		       count_default());
	for (unsigned f = 0; f < IOR_NFAMILIES; f++) {
		unsigned have = count_family(ior_syscalls_x86_64, ior_nsyscalls_x86_64, f);
		if (c.rows[f] != 1)
			T_FAIL("%s: %d rows for family %s in its families table, want 1", path, c.rows[f], ior_family_name(f));
		else if (c.family[f] != have)
			T_FAIL("%s says %s has %u syscalls; syscalls/table_x86_64.c has %u", path, ior_family_name(f),
			       c.family[f], have);
	}
}

TEST(readme_states_the_tables_counts)
{
	check_readme(getenv("IOR_README") ? getenv("IOR_README") : "README.md");
}

/* io_uring's opcodes 0..62 and the row for any later one. */
TEST(uring_rows)
{
	static const struct { const char *name; unsigned op, cls, fam; int fd; } want[] = {
		{ "uring:nop", 0, IOR_SC_OTHER, IOR_FAM_Misc, 0 },
		{ "uring:readv", 1, IOR_SC_READ, IOR_FAM_FS, 1 },
		{ "uring:openat", 18, IOR_SC_OPEN, IOR_FAM_FS, 0 },
		{ "uring:close", 19, IOR_SC_CLOSE, IOR_FAM_FS, 1 },
		{ "uring:read", 22, IOR_SC_READ, IOR_FAM_FS, 1 },
		{ "uring:write", 23, IOR_SC_WRITE, IOR_FAM_FS, 1 },
		{ "uring:send", 26, IOR_SC_WRITE, IOR_FAM_Network, 1 },
		{ "uring:recv", 27, IOR_SC_READ, IOR_FAM_Network, 1 },
		{ "uring:writev_fixed", 61, IOR_SC_WRITE, IOR_FAM_FS, 1 },
		{ "uring:pipe", 62, IOR_SC_OTHER, IOR_FAM_IPC, 0 },
		{ "uring:other", IOR_URING_OPS - 1, IOR_SC_OTHER, IOR_FAM_Misc, 0 },
	};
	unsigned n = 0;
	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		const struct ior_syscall *s = &ior_syscalls[i];
		if (ior_syscall_async(s) != IOR_ASYNC_URING)
			continue;
		n++;
		if (strncmp(s->name, "uring:", 6) || ior_syscall_keeps_fds(s) != (s->cls >= IOR_SC_OPEN || s->renames))
			T_FAIL("%s: name or roles", s->name);
	}
	CHECK_EQ_INT(n, URING_ROWS);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const struct ior_syscall *s = ior_syscall_by_name(want[i].name);
		if (!s || s->nr != IOR_NR_URING + want[i].op || s->cls != want[i].cls || s->family != want[i].fam ||
		    (s->fd_arg != IOR_ARG_NONE) != want[i].fd)
			T_FAIL("%s: row", want[i].name);
	}
	const struct ior_syscall *o = ior_syscall_by_name("uring:openat");
	CHECK(o && o->aux_is_dirfd && o->path_arg[0] == 0 && o->flags_arg == 0);
	CHECK(o && o->async_args == IOR_ASYNC_ARGS_OPEN);
	/* ops that take paths have their syscall's roles, and the args the
	 * kernel side reads for them */
	static const struct { const char *name; unsigned args; int paths, dirfd2, renames, link; } paths[] = {
		{ "uring:statx", IOR_ASYNC_ARGS_STATX, 1, 0, 0, 0 },
		{ "uring:unlinkat", IOR_ASYNC_ARGS_UNLINK, 1, 0, 0, 0 },
		{ "uring:mkdirat", IOR_ASYNC_ARGS_MKDIR, 1, 0, 0, 0 },
		{ "uring:renameat", IOR_ASYNC_ARGS_RENAME, 2, 1, 1, 0 },
		{ "uring:linkat", IOR_ASYNC_ARGS_LINK, 2, 1, 0, 0 },
		{ "uring:symlinkat", IOR_ASYNC_ARGS_SYMLINK, 2, 0, 0, 1 },
	};
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
		const struct ior_syscall *s = ior_syscall_by_name(paths[i].name);
		if (!s || s->async_args != paths[i].args || s->path_arg[0] != 0 ||
		    (s->path_arg[1] != IOR_ARG_NONE) != (paths[i].paths == 2) || s->fd_is_dirfd2 != paths[i].dirfd2 ||
		    s->renames != paths[i].renames || s->link_target != paths[i].link ||
		    s->aux_is_dirfd == paths[i].link)
			T_FAIL("%s: path roles", paths[i].name);
	}
	CHECK(ior_syscall_by_name("uring:close")->async_args == IOR_ASYNC_ARGS_CLOSE);
	CHECK(ior_syscall_by_name("uring:accept")->async_args == IOR_ASYNC_ARGS_ACCEPT);
}

/* libaio's iocb opcodes (aio_abi.h IOCB_CMD_*). */
TEST(aio_rows)
{
	static const struct { const char *name; unsigned op, cls; } want[] = {
		{ "aio:pread", 0, IOR_SC_READ }, { "aio:pwrite", 1, IOR_SC_WRITE },
		{ "aio:fsync", 2, IOR_SC_OTHER }, { "aio:fdsync", 3, IOR_SC_OTHER },
		{ "aio:poll", 5, IOR_SC_OTHER }, { "aio:noop", 6, IOR_SC_OTHER },
		{ "aio:preadv", 7, IOR_SC_READ }, { "aio:pwritev", 8, IOR_SC_WRITE },
		{ "aio:other", IOR_AIO_OPS - 1, IOR_SC_OTHER },
	};
	unsigned n = 0;
	for (unsigned i = 0; i < ior_nsyscalls; i++)
		n += ior_syscall_async(&ior_syscalls[i]) == IOR_ASYNC_AIO;
	CHECK_EQ_INT(n, AIO_ROWS);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const struct ior_syscall *s = ior_syscall_by_name(want[i].name);
		if (!s || s->nr != IOR_NR_AIO + want[i].op || s->cls != want[i].cls || ior_syscall_keeps_fds(s))
			T_FAIL("%s: row", want[i].name);
	}
}

TEST(counts_per_family)
{
	unsigned total = 0;
	for (unsigned f = 0; f < IOR_NFAMILIES; f++) {
		total += ior_family_count(f);
		CHECK_EQ_INT(ior_family_by_name(ior_family_name(f)), f);
	}
	CHECK_EQ_INT(total, ior_nsyscalls);
	CHECK(ior_family_name(IOR_NFAMILIES) == NULL);
	CHECK_EQ_INT(ior_family_by_name("network"), IOR_FAM_Network);
	CHECK_EQ_INT(ior_family_by_name("Disk"), -1);
}

TEST(families_of_some)
{
	static const struct { const char *name; unsigned fam; } v[] = {
		{ "read", IOR_FAM_FS }, { "mmap", IOR_FAM_FS }, { "newfstatat", IOR_FAM_FS },
		{ "sendto", IOR_FAM_Network }, { "splice", IOR_FAM_Network }, { "socket", IOR_FAM_Network },
		{ "epoll_wait", IOR_FAM_Polling }, { "poll", IOR_FAM_Polling }, { "select", IOR_FAM_Polling },
		{ "munmap", IOR_FAM_Memory }, { "getpid", IOR_FAM_Process }, { "clone3", IOR_FAM_Process },
		{ "kill", IOR_FAM_Signals }, { "sched_yield", IOR_FAM_Sched }, { "pipe2", IOR_FAM_IPC },
		{ "futex", IOR_FAM_IPC }, { "nanosleep", IOR_FAM_Time }, { "bpf", IOR_FAM_Security },
		{ "io_uring_enter", IOR_FAM_AIO }, { "rseq", IOR_FAM_Misc },
	};
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		if (sc(v[i].name) && sc(v[i].name)->family != v[i].fam)
			T_FAIL("%s: %s", v[i].name, ior_family_name(sc(v[i].name)->family));
}

/* The socket syscalls act on their fd argument 0; send and receive count bytes. */
TEST(socket_roles)
{
	static const char *const fd0[] = { "sendto", "recvfrom", "sendmsg", "recvmsg", "sendmmsg",
		"recvmmsg", "accept", "accept4", "connect", "bind", "listen", "shutdown", "getsockopt",
		"setsockopt", "getsockname", "getpeername", "epoll_wait", "epoll_ctl", "epoll_pwait" };
	for (size_t i = 0; i < sizeof fd0 / sizeof *fd0; i++)
		if (sc(fd0[i]) && sc(fd0[i])->fd_arg != 0)
			T_FAIL("%s: fd argument %u", fd0[i], sc(fd0[i])->fd_arg);
	CHECK(sc("sendto")->cls == IOR_SC_WRITE && sc("sendmsg")->cls == IOR_SC_WRITE);
	CHECK(sc("recvfrom")->cls == IOR_SC_READ && sc("recvmsg")->cls == IOR_SC_READ);
	/* they return messages, not bytes */
	CHECK(sc("sendmmsg")->cls == IOR_SC_WRITE && sc("recvmmsg")->cls == IOR_SC_READ);
	CHECK(sc("splice")->cls == IOR_SC_TRANSFER && sc("tee")->cls == IOR_SC_TRANSFER &&
	      sc("vmsplice")->cls == IOR_SC_TRANSFER);
	CHECK(sc("socket")->cls == IOR_SC_OPEN && sc("socket")->fd_kind == IOR_FD_SOCKET &&
	      sc("socket")->aux_arg == 0 && sc("socket")->flags_arg == 1);
	CHECK(sc("accept4")->fd_kind == IOR_FD_ACCEPT && sc("accept4")->flags_arg == 3);
	CHECK(sc("epoll_create1")->fd_kind == IOR_FD_EPOLL && sc("eventfd2")->fd_kind == IOR_FD_EVENTFD);
	CHECK(sc("poll")->aux_arg == 2 && sc("epoll_wait")->aux_arg == 3); /* the timeouts */
	CHECK(ior_syscall_keeps_fds(sc("socket")) && ior_syscall_keeps_fds(sc("accept")));
	CHECK(!ior_syscall_keeps_fds(sc("sendto")));
	CHECK(ior_syscall_keeps_fds(sc("pipe2")) && ior_syscall_keeps_fds(sc("socketpair")) &&
	      ior_syscall_keeps_fds(sc("connect")) && ior_syscall_keeps_fds(sc("bind")));
}

TEST(fd_names)
{
	char b[64];
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_SOCKET, SOCK_STREAM | SOCK_CLOEXEC, AF_INET, NULL, b, sizeof b),
		     "socket:tcp");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_SOCKET, SOCK_DGRAM, AF_INET6, NULL, b, sizeof b), "socket:udp6");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_SOCKET, SOCK_STREAM, AF_INET6, NULL, b, sizeof b), "socket:tcp6");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_SOCKET, SOCK_SEQPACKET, AF_UNIX, NULL, b, sizeof b), "socket:unix");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_SOCKET, SOCK_RAW, 99, NULL, b, sizeof b), "socket:domain99");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_ACCEPT, 0, 0, "socket:tcp6", b, sizeof b), "socket:tcp6");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_ACCEPT, 0, 0, "/etc/passwd", b, sizeof b), "socket");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_ACCEPT, 0, 0, NULL, b, sizeof b), "socket");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_EPOLL, 0, 0, NULL, b, sizeof b), "anon_inode:[eventpoll]");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_EVENTFD, 0, 0, NULL, b, sizeof b), "anon_inode:[eventfd]");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_IO_URING, 0, 0, NULL, b, sizeof b), "anon_inode:[io_uring]");
	CHECK_EQ_STR(ior_syscall_fd_name(IOR_FD_PATH, 0, 0, NULL, b, sizeof b), "");
}

int main(void)
{
	RUN(every_entry_is_whole);
	RUN(no_duplicate_nr_or_name);
	RUN(index_space);
	RUN(index_define);
	RUN(counts_per_family);
	RUN(readme_states_the_tables_counts);
	RUN(uring_rows);
	RUN(aio_rows);
	RUN(families_of_some);
	RUN(socket_roles);
	RUN(fd_names);
	return t_done();
}
