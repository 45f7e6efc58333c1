/* Starting ior -- CMD held, then letting it exec. See launch.h. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/launch.h"

#define ETC_MAX (16u << 20) /* larger passwd or group files are not read */

extern char **environ;

enum step { STEP_GROUPS = 1, STEP_GID, STEP_UID, STEP_ENV, STEP_EXEC };

struct child_error {
	int step, err;
};

/* The whole file, NUL-terminated; NULL (and *len 0) when unreadable. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *b = cap >= ETC_MAX ? NULL : realloc(buf, cap ? cap * 2 : 65536);
			if (!b)
				break;
			buf = b;
			cap = cap ? cap * 2 : 65536;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (!got)
			break;
	}
	fclose(f);
	if (buf)
		buf[n] = 0;
	*len = buf ? n : 0;
	return buf;
}

int ior_launch_cred(struct ior_cred *c, const char *user, const char *etc, char *err, size_t errlen)
{
	char p[512], g[512];
	size_t plen, glen;
	bool root = geteuid() == 0;

	snprintf(p, sizeof p, "%s/passwd", etc);
	snprintf(g, sizeof g, "%s/group", etc);
	char *passwd = slurp(p, &plen), *group = slurp(g, &glen);
	int r = ior_cred_resolve(c, user, root ? getenv("SUDO_UID") : NULL, root ? getenv("SUDO_GID") : NULL,
				 passwd ? passwd : "", plen, group ? group : "", glen, err, errlen);
	free(passwd);
	free(group);
	return r;
}

/* argv0 itself when it has a '/', else the first executable regular file
 * of that name in PATH. */
static int find_command(const char *argv0, char *out, size_t cap)
{
	const char *path = getenv("PATH"), *p;
	struct stat st;

	if (strchr(argv0, '/'))
		return snprintf(out, cap, "%s", argv0) < (int)cap ? 0 : -ENAMETOOLONG;
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p++) {
		const char *end = strchrnul(p, ':');
		int n = snprintf(out, cap, "%.*s%s%s", (int)(end - p), p, end > p ? "/" : "", argv0);
		if (n > 0 && (size_t)n < cap && !stat(out, &st) && S_ISREG(st.st_mode) && (st.st_mode & 0111))
			return 0;
		if (!*end)
			return -ENOENT;
		p = end;
	}
}

static _Noreturn void child_fail(int fd, int step, int e)
{
	struct child_error m = { step, e };

	if (write(fd, &m, sizeof m) < 0)
		_exit(127);
	_exit(127);
}

static void set_env(const struct ior_cred *c, int fd)
{
	if (!c->has_pw)
		return;
	if (setenv("USER", c->pw.name, 1) || setenv("LOGNAME", c->pw.name, 1) ||
	    (c->pw.home[0] && setenv("HOME", c->pw.home, 1)))
		child_fail(fd, STEP_ENV, errno);
}

/* In the child: the user, default signal handling, the stop, the exec. */
static _Noreturn void child(const char *path, char *const argv[], const struct ior_cred *c, int fd)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD, SIGQUIT, SIGUSR1, SIGUSR2 };
	sigset_t none;

	if (c->change) {
		if (setgroups(c->ngroups, c->groups))
			child_fail(fd, STEP_GROUPS, errno);
		if (setgid(c->gid))
			child_fail(fd, STEP_GID, errno);
		if (setuid(c->uid))
			child_fail(fd, STEP_UID, errno);
		set_env(c, fd);
	}
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* stops on the way out of kill(): that syscall has returned */
	syscall(SYS_kill, syscall(SYS_getpid), SIGSTOP);
	execve(path, argv, environ);
	child_fail(fd, STEP_EXEC, errno);
}

static const char *hint(int step, int e)
{
	if (step <= STEP_UID && e == EPERM)
		return " (run ior as root to run CMD as another user)";
	if (step == STEP_EXEC && e == EACCES)
		return " (is it executable by the user it runs as?)";
	return "";
}

/* What the child wrote before it gave up, into err; its -errno. */
static int child_error(struct ior_launch *l, const struct ior_cred *c, char *err, size_t errlen)
{
	static const char *const what[] = { "", "setgroups", "setgid", "setuid", "setenv", "exec" };
	struct child_error m = { 0, 0 };
	ssize_t n;

	while ((n = read(l->errfd, &m, sizeof m)) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof m || m.step < STEP_GROUPS || m.step > STEP_EXEC || m.err <= 0)
		return 0;
	if (m.step == STEP_EXEC)
		snprintf(err, errlen, "running %s: %s%s", l->path, strerror(m.err), hint(m.step, m.err));
	else
		snprintf(err, errlen, "running the command as uid %u gid %u: %s: %s%s", c->uid, c->gid,
			 what[m.step], strerror(m.err), hint(m.step, m.err));
	return -m.err;
}

static void reap(struct ior_launch *l)
{
	while (l->pid > 0 && waitpid(l->pid, &l->status, 0) < 0 && errno == EINTR)
		;
	l->pid = 0;
}

int ior_launch_start(struct ior_launch *l, char *const argv[], const struct ior_cred *c, char *err,
		     size_t errlen)
{
	static const struct ior_cred same;
	int pfd[2], st = 0, r;

	memset(l, 0, sizeof *l);
	l->errfd = -1;
	signal(SIGCHLD, SIG_DFL); /* an inherited SIG_IGN would reap it behind our back */
	if ((r = find_command(argv[0], l->path, sizeof l->path)) < 0)
		return snprintf(err, errlen, "%.200s: command not found in PATH", argv[0]), r;
	if (pipe2(pfd, O_CLOEXEC))
		return r = -errno, snprintf(err, errlen, "pipe for the command: %s", strerror(-r)), r;
	l->pid = fork();
	if (l->pid == 0) {
		close(pfd[0]);
		child(l->path, argv, c ? c : &same, pfd[1]);
	}
	close(pfd[1]);
	l->errfd = pfd[0];
	if (l->pid < 0) {
		r = -errno;
		l->pid = 0;
		return snprintf(err, errlen, "fork for the command: %s", strerror(-r)), r;
	}
	while ((r = waitpid(l->pid, &st, WUNTRACED)) == l->pid || (r < 0 && errno == EINTR)) {
		if (r < 0)
			continue;
		if (WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP)
			return 0;
		if (!WIFSTOPPED(st))
			break;
		kill(l->pid, SIGCONT); /* stopped on the way by another signal: on to its own stop */
	}
	l->status = st;
	l->pid = 0;
	r = child_error(l, c ? c : &same, err, errlen);
	return r ? r : (snprintf(err, errlen, "the command's process ended before it could run"), -ECHILD);
}

int ior_launch_release(struct ior_launch *l, char *err, size_t errlen)
{
	int r;

	if (kill(l->pid, SIGCONT))
		return r = -errno, snprintf(err, errlen, "resuming pid %d: %s", (int)l->pid, strerror(-r)), r;
	r = child_error(l, &(struct ior_cred){ 0 }, err, errlen); /* EOF: exec'd */
	close(l->errfd);
	l->errfd = -1;
	if (r)
		reap(l);
	return r;
}

int ior_launch_wait(struct ior_launch *l, int block)
{
	int r;

	if (l->pid <= 0)
		return 1;
	r = waitpid(l->pid, &l->status, block ? 0 : WNOHANG);
	if (r == 0 || (r < 0 && errno == EINTR)) /* a signal: the caller may forward it */
		return 0;
	if (r < 0) /* ECHILD: cannot be, SIGCHLD is not ignored (ior_launch_start) */
		l->status = 1 << 8;
	l->pid = 0;
	return 1;
}

void ior_launch_abort(struct ior_launch *l)
{
	if (l->pid > 0)
		kill(l->pid, SIGKILL);
	reap(l);
	if (l->errfd >= 0)
		close(l->errfd);
	l->errfd = -1;
}

int ior_launch_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}
