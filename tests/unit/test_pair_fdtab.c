#include "pair/fdtab.h"
#include "t.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

/* A snapshot of pid 10: fd 0 = /dev/pts/1, fd 5 = /data/x (cloexec), cwd /home/u,
 * read between 100 and 200. */
static void snap10(struct ior_fdtab *t)
{
	const struct ior_fd_snap fds[] = {
		{ 0, O_RDWR, "/dev/pts/1" },
		{ 5, O_RDONLY | O_CLOEXEC, "/data/x" },
	};
	CHECK_EQ_INT(ior_fdtab_snapshot(t, 10, 100, 200, "/home/u", fds, 2), 0);
}

TEST(open_close_and_snapshot)
{
	struct ior_fdtab *t = ior_fdtab_new(16, 8);
	int64_t fl;

	snap10(t);
	ior_fdtab_advance(t, 150);
	ior_fdtab_set(t, 10, 3, "/etc/hosts", O_RDONLY | O_CLOEXEC);
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 3, &fl), "/etc/hosts");
	CHECK_EQ_INT(fl, O_RDONLY | O_CLOEXEC);
	/* before the snapshot's end: not certain yet */
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 0, &fl), "");
	CHECK_EQ_INT(fl, -1);
	CHECK_EQ_INT(ior_fdtab_unknown(t, 10, 150), IOR_FD_BEFORE_SNAPSHOT);
	CHECK_EQ_STR(ior_fdtab_cwd(t, 10), "");
	ior_fdtab_advance(t, 200);
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 0, &fl), "/dev/pts/1");
	CHECK_EQ_INT(fl, O_RDWR);
	CHECK_EQ_STR(ior_fdtab_cwd(t, 10), "/home/u");
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 7, &fl), "");
	CHECK_EQ_INT(ior_fdtab_unknown(t, 10, 300), IOR_FD_NOT_TRACED);
	CHECK_EQ_INT(ior_fdtab_unknown(t, 11, 300), IOR_FD_NO_BASE);
	ior_fdtab_close(t, 10, 3);
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 3, &fl), "");
	ior_fdtab_free(t);
}

/* What the trace saw between attach and the snapshot's end wins: an fd
 * closed and reused, or closed, is not brought back by the snapshot. */
TEST(trace_beats_snapshot)
{
	struct ior_fdtab *t = ior_fdtab_new(16, 8);
	int64_t fl;

	snap10(t);
	ior_fdtab_advance(t, 120);
	ior_fdtab_close(t, 10, 0);              /* closed at 120 */
	ior_fdtab_set(t, 10, 5, "/new", O_RDONLY); /* 5 reused at 130 */
	ior_fdtab_advance(t, 250);
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 0, &fl), "");
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 5, &fl), "/new");
	ior_fdtab_set(t, 10, 0, "/again", O_RDONLY); /* a closed entry can be opened again */
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 0, &fl), "/again");
	ior_fdtab_free(t);
}

TEST(fork_copies_exec_drops_cloexec)
{
	struct ior_fdtab *t = ior_fdtab_new(64, 8);
	int64_t fl;

	snap10(t);
	ior_fdtab_advance(t, 200);
	ior_fdtab_set(t, 10, 3, "/log", O_WRONLY);
	ior_fdtab_set_cwd(t, 10, "/w");
	ior_fdtab_fork(t, 10, 20, 0);
	CHECK_EQ_STR(ior_fdtab_get(t, 20, 3, &fl), "/log");
	CHECK_EQ_STR(ior_fdtab_get(t, 20, 0, &fl), "/dev/pts/1");
	CHECK_EQ_STR(ior_fdtab_get(t, 20, 5, &fl), "/data/x");
	CHECK_EQ_STR(ior_fdtab_cwd(t, 20), "/w");
	ior_fdtab_close(t, 20, 3); /* the child's close leaves the parent's fd */
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 3, &fl), "/log");
	ior_fdtab_dup(t, 20, 0, 9, 0);
	ior_fdtab_exec(t, 20);
	CHECK_EQ_STR(ior_fdtab_get(t, 20, 9, &fl), "/dev/pts/1");
	CHECK_EQ_STR(ior_fdtab_get(t, 20, 5, &fl), ""); /* O_CLOEXEC: gone */
	CHECK_EQ_INT(ior_fdtab_unknown(t, 20, 300), IOR_FD_NOT_TRACED);
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 5, &fl), "/data/x");
	/* a thread is not a new table */
	ior_fdtab_fork(t, 10, 10, 0);
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 3, &fl), "/log");
	/* a child of a process ior knows nothing of knows nothing */
	ior_fdtab_fork(t, 77, 78, 0);
	CHECK_EQ_INT(ior_fdtab_unknown(t, 78, 300), IOR_FD_NO_BASE);
	ior_fdtab_free(t);
}

/* CLONE_FILES without a thread: one table for both until the child execs,
 * and the table outlives its first owner while a sharer uses it. */
TEST(clone_files_shares_one_table)
{
	struct ior_fdtab *t = ior_fdtab_new(64, 8);
	struct ior_fdtab_stats s;
	int64_t fl;

	ior_fdtab_set(t, 1, 3, "/a", O_RDONLY);
	ior_fdtab_fork(t, 1, 2, 1);
	ior_fdtab_set(t, 2, 4, "/b", O_RDONLY | O_CLOEXEC); /* the child's open */
	CHECK_EQ_STR(ior_fdtab_get(t, 1, 4, &fl), "/b");    /* seen by the parent */
	ior_fdtab_close(t, 1, 3);
	CHECK_EQ_STR(ior_fdtab_get(t, 2, 3, &fl), "");
	ior_fdtab_fork(t, 2, 5, 1);                         /* a sharer's sharer */
	ior_fdtab_proc_exit(t, 1, 0);
	ior_fdtab_advance(t, 2000000000ull);
	CHECK_EQ_STR(ior_fdtab_get(t, 5, 4, &fl), "/b");    /* the owner waits */
	ior_fdtab_exec(t, 2);                               /* a private copy, cloexec gone */
	CHECK_EQ_STR(ior_fdtab_get(t, 2, 4, &fl), "");
	ior_fdtab_set(t, 2, 6, "/c", O_RDONLY);
	CHECK_EQ_STR(ior_fdtab_get(t, 5, 6, &fl), "");
	CHECK_EQ_STR(ior_fdtab_get(t, 5, 4, &fl), "/b");
	ior_fdtab_proc_exit(t, 5, 2000000000ull);
	ior_fdtab_proc_exit(t, 2, 2000000000ull);
	ior_fdtab_advance(t, 4000000000ull);
	ior_fdtab_get_stats(t, &s);
	CHECK_EQ_INT(s.procs, 0);
	CHECK_EQ_INT(s.fds, 0);
	ior_fdtab_free(t);
}

/* A reused pid starts from its real parent, never from the dead process. */
TEST(reused_pid_starts_from_parent)
{
	struct ior_fdtab *t = ior_fdtab_new(64, 8);
	int64_t fl;

	ior_fdtab_set(t, 30, 4, "/dead", O_RDONLY); /* its exit record was lost */
	ior_fdtab_set(t, 1, 3, "/parent", O_RDONLY);
	ior_fdtab_fork(t, 1, 30, 0);
	CHECK_EQ_STR(ior_fdtab_get(t, 30, 4, &fl), "");
	CHECK_EQ_STR(ior_fdtab_get(t, 30, 3, &fl), "/parent");
	ior_fdtab_free(t);
}

/* A thread's exec ends the leader first: that exit must not free the table. */
TEST(exit_then_exec_keeps_the_table)
{
	struct ior_fdtab *t = ior_fdtab_new(64, 8);
	struct ior_fdtab_stats s;
	int64_t fl;

	ior_fdtab_set(t, 40, 3, "/kept", O_RDONLY);
	ior_fdtab_advance(t, 1000);
	ior_fdtab_proc_exit(t, 40, 1000);
	ior_fdtab_advance(t, 2000);
	ior_fdtab_exec(t, 40);
	ior_fdtab_advance(t, 5000000000ull);
	CHECK_EQ_STR(ior_fdtab_get(t, 40, 3, &fl), "/kept");
	ior_fdtab_proc_exit(t, 40, 5000000000ull);
	ior_fdtab_advance(t, 5500000000ull);
	CHECK_EQ_STR(ior_fdtab_get(t, 40, 3, &fl), "/kept"); /* within the grace */
	ior_fdtab_advance(t, 6000000000ull);
	ior_fdtab_get_stats(t, &s);
	CHECK_EQ_INT(s.procs, 0);
	CHECK_EQ_INT(s.fds, 0);
	ior_fdtab_free(t);
}

TEST(rename_follows_files_and_directories)
{
	struct ior_fdtab *t = ior_fdtab_new(64, 8);
	int64_t fl;

	ior_fdtab_set(t, 1, 3, "/w/a/f", O_RDWR);
	ior_fdtab_set(t, 2, 4, "/w/a/f", O_RDONLY);
	ior_fdtab_set(t, 1, 5, "/w/ab", O_RDONLY); /* a sibling, not under /w/a */
	ior_fdtab_set(t, 1, 6, "/w/a", O_RDONLY);
	ior_fdtab_set_cwd(t, 2, "/w/a");
	ior_fdtab_rename(t, 10, 20, "/w/a/f", "/w/a/g");
	CHECK_EQ_STR(ior_fdtab_get(t, 1, 3, &fl), "/w/a/g");
	CHECK_EQ_STR(ior_fdtab_get(t, 2, 4, &fl), "/w/a/g");
	ior_fdtab_rename(t, 30, 40, "/w/a", "/v/b");
	CHECK_EQ_STR(ior_fdtab_get(t, 1, 3, &fl), "/v/b/g");
	CHECK_EQ_STR(ior_fdtab_get(t, 1, 6, &fl), "/v/b");
	CHECK_EQ_STR(ior_fdtab_get(t, 1, 5, &fl), "/w/ab");
	CHECK_EQ_STR(ior_fdtab_cwd(t, 2), "/v/b");
	ior_fdtab_free(t);
}

/* A rename while the snapshot was read: which name it saw is unknown, so
 * the entry is dropped rather than guessed; before or after, it is exact. */
TEST(rename_during_snapshot_is_not_guessed)
{
	struct ior_fdtab *t = ior_fdtab_new(64, 8);
	int64_t fl;

	snap10(t);
	ior_fdtab_rename(t, 150, 160, "/data", "/moved");
	ior_fdtab_advance(t, 200);
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 5, &fl), "");
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 0, &fl), "/dev/pts/1");
	ior_fdtab_rename(t, 300, 310, "/dev/pts", "/dev/x");
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 0, &fl), "/dev/x/1");
	ior_fdtab_free(t);
}

TEST(exec_while_snapshot_pending_drops_cloexec)
{
	struct ior_fdtab *t = ior_fdtab_new(64, 8);
	int64_t fl;

	snap10(t);
	ior_fdtab_advance(t, 150);
	ior_fdtab_exec(t, 10);
	ior_fdtab_advance(t, 200);
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 5, &fl), "");
	CHECK_EQ_STR(ior_fdtab_get(t, 10, 0, &fl), "/dev/pts/1");
	ior_fdtab_free(t);
}

/* 100,000 short-lived processes: each forked from one parent, exits, and
 * is freed a second later; the table stays as small as the live set. */
TEST(churn_stays_bounded)
{
	struct ior_fdtab *t = ior_fdtab_new(4096, 4096); /* 1000 a second live 1 s after exit */
	struct ior_fdtab_stats s;
	int64_t fl;

	ior_fdtab_set(t, 1, 1, "/log", O_WRONLY);
	ior_fdtab_set(t, 1, 2, "/err", O_WRONLY);
	for (uint32_t i = 0; i < 100000; i++) {
		uint64_t ts = 1000000ull * i; /* 1000 forks a second */
		uint32_t child = 1000 + i % 30000; /* pids are reused */
		ior_fdtab_advance(t, ts);
		ior_fdtab_fork(t, 1, child, 0);
		if (strcmp(ior_fdtab_get(t, child, 1, &fl), "/log")) {
			CHECK_EQ_STR(ior_fdtab_get(t, child, 1, &fl), "/log");
			break;
		}
		ior_fdtab_set(t, child, 3, "/tmp/x", O_RDONLY);
		ior_fdtab_proc_exit(t, child, ts + 1);
	}
	ior_fdtab_get_stats(t, &s);
	CHECK_EQ_INT(s.resets, 0);
	CHECK(s.procs <= 1002);
	CHECK(s.fds <= 3 * 1002);
	CHECK_EQ_STR(ior_fdtab_get(t, 1, 1, &fl), "/log");
	ior_fdtab_free(t);
}

TEST(dup2_over_open_fd)
{
	struct ior_fdtab *t = ior_fdtab_new(16, 8);
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
	struct ior_fdtab *t = ior_fdtab_new(16, 8);
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
	struct ior_fdtab *t = ior_fdtab_new(64, 8);
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
	ior_fdtab_proc_exit(t, 2, 10);
	ior_fdtab_advance(t, 10 + 1000000000ull);
	ior_fdtab_get_stats(t, &s);
	CHECK_EQ_INT(s.procs, 1);
	CHECK_EQ_STR(ior_fdtab_get(t, 2, 6, &fl), "");
	CHECK_EQ_STR(ior_fdtab_cwd(t, 2), "");
	CHECK_EQ_STR(ior_fdtab_get(t, 1, 0, &fl), "/p1");
	ior_fdtab_free(t);
}

TEST(lru_bound)
{
	struct ior_fdtab *t = ior_fdtab_new(100, 1000);
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
		ior_fdtab_proc_exit(t, pid, 0);
	ior_fdtab_advance(t, 1000000000ull);
	ior_fdtab_get_stats(t, &s);
	CHECK_EQ_INT(s.fds, 0);
	CHECK_EQ_INT(s.procs, 0);
	ior_fdtab_free(t);
}

TEST(proc_bound_resets)
{
	struct ior_fdtab *t = ior_fdtab_new(100, 4);
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

/* ior_fdtab_get remembers the entry it found last: random opens, closes,
 * dups, renames, exits and evictions (4 entries) between lookups must give
 * what a plain model of the table gives. */
TEST(repeated_lookups_follow_changes)
{
	struct ior_fdtab *t = ior_fdtab_new(4, 8);
	char model[3][6][16] = { { { 0 } } }; /* pid 100..102, fd 0..5: path or "" */
	uint64_t r = 12345;
	int64_t fl;

	CHECK(t != NULL);
	if (!t)
		return;
	for (int i = 0; i < 20000 && !t_cur_failed; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t pid = 100 + (uint32_t)(r >> 60) % 3;
		int fd = (int)(r >> 50) % 6, op = (int)(r >> 40) % 8;
		char *m = model[pid - 100][fd];
		if (op == 0) {
			snprintf(m, 16, "/f%d", (int)(r >> 20) % 100);
			ior_fdtab_set(t, pid, fd, m, 0);
		} else if (op == 1) {
			ior_fdtab_close(t, pid, fd);
			m[0] = 0;
		} else if (op == 2 && fd != 5) {
			ior_fdtab_dup(t, pid, fd, 5, 0);
			memcpy(model[pid - 100][5], m, 16);
		} else {
			const char *got = ior_fdtab_get(t, pid, fd, &fl);
			/* the bound may have evicted what the model still has */
			if (got[0] && strcmp(got, m))
				T_FAIL("step %d: pid %u fd %d is \"%s\", want \"%s\"", i, pid, fd, got, m);
			if (!got[0])
				m[0] = 0;
			if (got[0] && ior_fdtab_get(t, pid, fd, &fl) != got)
				T_FAIL("step %d: a repeated lookup gave another entry", i);
		}
	}
	ior_fdtab_free(t);
}

int main(void)
{
	RUN(open_close_and_snapshot);
	RUN(trace_beats_snapshot);
	RUN(fork_copies_exec_drops_cloexec);
	RUN(reused_pid_starts_from_parent);
	RUN(clone_files_shares_one_table);
	RUN(exit_then_exec_keeps_the_table);
	RUN(rename_follows_files_and_directories);
	RUN(rename_during_snapshot_is_not_guessed);
	RUN(exec_while_snapshot_pending_drops_cloexec);
	RUN(churn_stays_bounded);
	RUN(dup2_over_open_fd);
	RUN(setfl_and_cloexec);
	RUN(close_range_and_proc_exit);
	RUN(lru_bound);
	RUN(proc_bound_resets);
	RUN(path_join);
	RUN(repeated_lookups_follow_changes);
	return t_done();
}
