#include "trace/fdtab.h"
#include "t.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

/* A fake /proc: pid 10 has fd 0 = /dev/pts/1 and cwd /home/u; nothing else. */
static int calls;

static int fake_fd(void *ctx, uint32_t pid, int fd, char *path, size_t len, int64_t *flags)
{
	(void)ctx;
	calls++;
	if (pid == 10 && fd == 0) {
		snprintf(path, len, "/dev/pts/1");
		*flags = O_RDWR | 0100000; /* fdinfo adds O_LARGEFILE */
		return 0;
	}
	return -ENOENT;
}

static int fake_cwd(void *ctx, uint32_t pid, char *path, size_t len)
{
	(void)ctx;
	calls++;
	if (pid != 10)
		return -ENOENT;
	snprintf(path, len, "/home/u");
	return 0;
}

static const struct ior_fd_resolver fake = { fake_fd, fake_cwd, NULL };

TEST(open_close_and_preexisting)
{
	struct ior_fdtab *t = ior_fdtab_new(16, 8, &fake);
	int64_t fl;

	calls = 0;
	ior_fdtab_set(t, 10, 3, "/etc/hosts", O_RDONLY | O_CLOEXEC);
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 3, &fl), "/etc/hosts");
	CHECK_EQ_INT(fl, O_RDONLY | O_CLOEXEC);
	CHECK_EQ_INT(calls, 0);
	/* pre-existing: resolved once, then cached, O_LARGEFILE dropped */
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 0, &fl), "/dev/pts/1");
	CHECK_EQ_INT(fl, O_RDWR);
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 0, &fl), "/dev/pts/1");
	CHECK_EQ_INT(calls, 1);
	/* unresolvable: asked once, cached as unknown */
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 7, &fl), "");
	CHECK_EQ_INT(fl, -1);
	ior_fdtab_get(t, 10, 7, &fl);
	CHECK_EQ_INT(calls, 2);
	ior_fdtab_close(t, 10, 3);
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 3, &fl), "");
	CHECK_EQ_INT(calls, 3);
	ior_fdtab_free(t);
}

TEST(dup2_over_open_fd)
{
	struct ior_fdtab *t = ior_fdtab_new(16, 8, NULL);
	int64_t fl;

	ior_fdtab_set(t, 1, 3, "/a", O_WRONLY | O_CLOEXEC);
	ior_fdtab_set(t, 1, 4, "/b", O_RDONLY);
	ior_fdtab_dup(t, 1, 3, 4, 0); /* dup2(3, 4): 4 closed, now /a without CLOEXEC */
	CHECK_EQ_STR(ior_fdtab_get(t, 1, 4, &fl), "/a");
	CHECK_EQ_INT(fl, O_WRONLY);
	ior_fdtab_dup(t, 1, 4, 9, 1); /* dup3(4, 9, O_CLOEXEC) */
	CHECK_EQ_STR(ior_fdtab_get(t, 1, 9, &fl), "/a");
	CHECK_EQ_INT(fl, O_WRONLY | O_CLOEXEC);
	CHECK_EQ_STR(ior_fdtab_get(t, 1, 3, &fl), "/a");
	ior_fdtab_free(t);
}

TEST(setfl_and_cloexec)
{
	struct ior_fdtab *t = ior_fdtab_new(16, 8, NULL);
	int64_t fl;

	ior_fdtab_set(t, 1, 3, "/a", O_RDWR);
	ior_fdtab_setfl(t, 1, 3, O_APPEND | O_NONBLOCK | O_CREAT | O_WRONLY);
	ior_fdtab_get(t, 1, 3, &fl);
	CHECK_EQ_INT(fl, O_RDWR | O_APPEND | O_NONBLOCK); /* access mode and O_CREAT ignored */
	ior_fdtab_setfl(t, 1, 3, 0);
	ior_fdtab_get(t, 1, 3, &fl);
	CHECK_EQ_INT(fl, O_RDWR);
	ior_fdtab_set_cloexec(t, 1, 3, 1);
	ior_fdtab_get(t, 1, 3, &fl);
	CHECK_EQ_INT(fl, O_RDWR | O_CLOEXEC);
	ior_fdtab_free(t);
}

TEST(close_range_and_proc_exit)
{
	struct ior_fdtab *t = ior_fdtab_new(64, 8, NULL);
	struct ior_fdtab_stats s;
	int64_t fl;

	for (int fd = 0; fd < 10; fd++) {
		ior_fdtab_set(t, 1, fd, "/p1", O_RDONLY);
		ior_fdtab_set(t, 2, fd, "/p2", O_RDONLY);
	}
	ior_fdtab_close_range(t, 1, 3, ~0u, 0);
	ior_fdtab_get_stats(t, &s);
	CHECK_EQ_INT(s.fds, 13);
	CHECK_EQ_STR(ior_fdtab_get(t, 1, 2, &fl), "/p1");
	CHECK_EQ_STR(ior_fdtab_get(t, 1, 3, &fl), "");
	CHECK_EQ_STR(ior_fdtab_get(t, 2, 5, &fl), "/p2");
	ior_fdtab_close_range(t, 2, 5, 6, 1); /* CLOSE_RANGE_CLOEXEC: marks only */
	ior_fdtab_get(t, 2, 6, &fl);
	CHECK_EQ_INT(fl, O_RDONLY | O_CLOEXEC);
	ior_fdtab_get(t, 2, 7, &fl);
	CHECK_EQ_INT(fl, O_RDONLY);
	ior_fdtab_set_cwd(t, 2, "/x");
	ior_fdtab_proc_exit(t, 2);
	ior_fdtab_get_stats(t, &s);
	CHECK_EQ_INT(s.procs, 1);
	CHECK_EQ_STR(ior_fdtab_get(t, 2, 6, &fl), ""); /* re-created, unknown */
	CHECK_EQ_STR(ior_fdtab_cwd(t, 2), "");
	CHECK_EQ_STR(ior_fdtab_get(t, 1, 0, &fl), "/p1");
	ior_fdtab_free(t);
}

TEST(lru_bound)
{
	struct ior_fdtab *t = ior_fdtab_new(100, 1000, NULL);
	struct ior_fdtab_stats s;
	char path[32];
	int64_t fl;

	for (int i = 0; i < 1000; i++) {
		snprintf(path, sizeof path, "/f%d", i);
		ior_fdtab_set(t, (uint32_t)(i % 7), i, path, O_RDONLY);
		if (i >= 50)
			ior_fdtab_get(t, 0, 0, &fl); /* keep fd 0 of pid 0 hot */
	}
	ior_fdtab_get_stats(t, &s);
	CHECK_EQ_INT(s.fds, 100);
	CHECK_EQ_INT(s.evicted, 900);
	CHECK_EQ_STR(ior_fdtab_get(t, 0, 0, &fl), "/f0");
	CHECK_EQ_STR(ior_fdtab_get(t, 999 % 7, 999, &fl), "/f999");
	CHECK_EQ_STR(ior_fdtab_get(t, 1, 1, &fl), "");
	for (uint32_t pid = 0; pid < 7; pid++)
		ior_fdtab_proc_exit(t, pid);
	ior_fdtab_get_stats(t, &s);
	CHECK_EQ_INT(s.fds, 0);
	CHECK_EQ_INT(s.procs, 0);
	ior_fdtab_free(t);
}

TEST(proc_bound_resets)
{
	struct ior_fdtab *t = ior_fdtab_new(100, 4, NULL);
	struct ior_fdtab_stats s;
	int64_t fl;

	for (uint32_t pid = 1; pid <= 5; pid++)
		ior_fdtab_set(t, pid, 3, "/x", O_RDONLY);
	ior_fdtab_get_stats(t, &s);
	CHECK_EQ_INT(s.resets, 1);
	CHECK_EQ_INT(s.procs, 1);
	CHECK_EQ_STR(ior_fdtab_get(t, 5, 3, &fl), "/x");
	ior_fdtab_free(t);
}

TEST(cwd_resolved_once)
{
	struct ior_fdtab *t = ior_fdtab_new(16, 8, &fake);

	calls = 0;
	CHECK_EQ_STR(ior_fdtab_cwd(t, 10), "/home/u");
	CHECK_EQ_STR(ior_fdtab_cwd(t, 10), "/home/u");
	CHECK_EQ_INT(calls, 1);
	ior_fdtab_set_cwd(t, 10, "/tmp");
	CHECK_EQ_STR(ior_fdtab_cwd(t, 10), "/tmp");
	CHECK_EQ_STR(ior_fdtab_cwd(t, 11), "");
	CHECK_EQ_INT(calls, 2);
	ior_fdtab_free(t);
}

TEST(path_join)
{
	char b[64];

	ior_path_join(b, sizeof b, "/home/u", "a.txt");
	CHECK_EQ_STR(b, "/home/u/a.txt");
	ior_path_join(b, sizeof b, "/home/u/", "./x//y/../z");
	CHECK_EQ_STR(b, "/home/u/x/z");
	ior_path_join(b, sizeof b, "/", "../../etc");
	CHECK_EQ_STR(b, "/etc");
	ior_path_join(b, sizeof b, "/home", "/abs/p");
	CHECK_EQ_STR(b, "/abs/p");
	ior_path_join(b, sizeof b, "/a/b", "..");
	CHECK_EQ_STR(b, "/a");
	ior_path_join(b, sizeof b, "/a", ".");
	CHECK_EQ_STR(b, "/a");
	ior_path_join(b, 8, "/abcdef", "ghijk");
	CHECK_EQ_STR(b, "/abcdef");
}

int main(void)
{
	RUN(open_close_and_preexisting);
	RUN(dup2_over_open_fd);
	RUN(setfl_and_cloexec);
	RUN(close_range_and_proc_exit);
	RUN(lru_bound);
	RUN(proc_bound_resets);
	RUN(cwd_resolved_once);
	RUN(path_join);
	return t_done();
}
