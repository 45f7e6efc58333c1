/* Following processes without root: children files, stat states, the
 * descendants and the end of real child processes, and ior -- CMD's
 * launcher (held, released, exit statuses). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "t.h"
#include "run/follow.h"
#include "run/launch.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

TEST(children_file)
{
	uint32_t v[4];

	CHECK_EQ_INT(ior_follow_parse_children("", v, 4), 0);
	CHECK_EQ_INT(ior_follow_parse_children("12 345 ", v, 4), 2);
	CHECK_EQ_INT(v[0], 12);
	CHECK_EQ_INT(v[1], 345);
	CHECK_EQ_INT(ior_follow_parse_children("1 2 3 4 5 6", v, 4), 6); /* how many there are */
	CHECK_EQ_INT(v[3], 4);
	CHECK_EQ_INT(ior_follow_parse_children("0 x7 99999999999 8\n", v, 4), 2);
	CHECK_EQ_INT(v[0], 7);
	CHECK_EQ_INT(v[1], 8);
}

TEST(stat_state)
{
	const char a[] = "42 (a) b) c) S 1 2 3", z[] = "7 (x) Z 1";

	CHECK_EQ_INT(ior_follow_stat_state(a, sizeof a - 1), 'S'); /* after the last ')' */
	CHECK_EQ_INT(ior_follow_stat_state(z, sizeof z - 1), 'Z');
	CHECK_EQ_INT(ior_follow_stat_state("7 (x)", 5), 0);
	CHECK_EQ_INT(ior_follow_stat_state("7 x S", 5), 0);
	CHECK_EQ_INT(ior_follow_stat_state("", 0), 0);
}

/* A child that forks a grandchild, both sleeping until killed. */
static pid_t tree(void)
{
	pid_t p = fork();

	if (p == 0) {
		if (fork() == 0)
			for (;;)
				pause();
		for (;;)
			pause();
	}
	return p;
}

TEST(descendants_and_their_end)
{
	uint32_t kids[8];
	struct ior_watch w;
	pid_t child = tree();
	size_t n = 0;

	CHECK(child > 0);
	for (int i = 0; i < 100 && (n = ior_follow_descendants((uint32_t)getpid(), kids, 8)) < 2; i++)
		sleep_ms(10);
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_INT(kids[0], child);
	CHECK(!ior_follow_gone((uint32_t)child));
	ior_watch_open(&w, (uint32_t)child, false);
	CHECK(!ior_watch_ended(&w));
	kill((pid_t)kids[1], SIGKILL);
	kill(child, SIGKILL);
	for (int i = 0; i < 100 && !ior_watch_ended(&w); i++)
		sleep_ms(10);
	CHECK(ior_watch_ended(&w)); /* a zombie has ended */
	CHECK(ior_follow_gone((uint32_t)child));
	ior_watch_close(&w);
	waitpid(child, NULL, 0);
	CHECK(ior_follow_gone((uint32_t)child));
	ior_watch_open(&w, (uint32_t)child, true); /* a thread: /proc */
	CHECK_EQ_INT(w.pidfd, -1);
	CHECK(ior_watch_ended(&w));
}

static int run(char *const argv[], char *err)
{
	struct ior_launch l;
	int r = ior_launch_start(&l, argv, NULL, err, 256);

	if (r < 0)
		return 1000 + r;
	if (kill(l.pid, 0) || ior_launch_wait(&l, 0)) /* held */
		return 2000;
	if ((r = ior_launch_release(&l, err, 256)) < 0)
		return 3000 + r;
	while (!ior_launch_wait(&l, 1))
		;
	return ior_launch_exit_code(l.status);
}

TEST(launch_statuses)
{
	char err[256] = "";
	char *ok[] = { "true", NULL }, *three[] = { "/bin/sh", "-c", "exit 3", NULL };
	char *killed[] = { "/bin/sh", "-c", "kill -TERM $$", NULL };
	char *missing[] = { "ior-no-such-command", NULL }, *noexec[] = { "/etc/passwd", NULL };

	CHECK_EQ_INT(run(ok, err), 0);
	CHECK_EQ_INT(run(three, err), 3);
	CHECK_EQ_INT(run(killed, err), 128 + SIGTERM);
	CHECK_EQ_INT(run(missing, err), 1000 - ENOENT);
	CHECK_EQ_STR(err, "ior-no-such-command: command not found in PATH");
	CHECK_EQ_INT(run(noexec, err), 3000 - EACCES);
	CHECK(strstr(err, "running /etc/passwd: Permission denied") != NULL);
}

int main(void)
{
	RUN(children_file);
	RUN(stat_state);
	RUN(descendants_and_their_end);
	RUN(launch_statuses);
	return t_done();
}
