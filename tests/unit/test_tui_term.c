/* Raw mode on a pseudo-terminal and its undoing: by leave, at exit, on a
 * terminating signal with and without the program's handler, on a crash,
 * across a stop; SIGWINCH through the self-pipe; the size, whether to
 * draw, UTF-8 or ASCII. The children that die do it in a fork. */
#include "tui/term.h"
#include "t.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static const char enter_seq[] = "\x1b[?1049h";
static const char leave_seq[] = "\x1b[0m\x1b[H\x1b[2J\x1b[?7h\x1b[?25h\x1b[?1049l";

struct pty {
	int master, slave;
	struct termios orig;
};

static int pty_open(struct pty *p)
{
	p->master = posix_openpt(O_RDWR | O_NOCTTY);
	if (p->master < 0 || grantpt(p->master) || unlockpt(p->master))
		return -1;
	p->slave = open(ptsname(p->master), O_RDWR | O_NOCTTY);
	if (p->slave < 0 || tcgetattr(p->slave, &p->orig))
		return -1;
	fcntl(p->master, F_SETFL, O_NONBLOCK);
	return 0;
}

static void pty_close(struct pty *p)
{
	close(p->master);
	close(p->slave);
}

/* What the terminal was sent so far (the master side), NUL-terminated. */
static const char *pty_output(struct pty *p)
{
	static char buf[8192];
	size_t n = 0;
	ssize_t r;

	while (n < sizeof buf - 1 && (r = read(p->master, buf + n, sizeof buf - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	return buf;
}

static int is_raw(const struct pty *p)
{
	struct termios t;
	return !tcgetattr(p->slave, &t) && !(t.c_lflag & (ECHO | ICANON | ISIG)) && t.c_cc[VMIN] == 1;
}

static int is_restored(const struct pty *p)
{
	struct termios t;
	return !tcgetattr(p->slave, &t) && t.c_lflag == p->orig.c_lflag && t.c_iflag == p->orig.c_iflag &&
	       t.c_cc[VMIN] == p->orig.c_cc[VMIN];
}

TEST(can_draw_and_charset)
{
	struct pty p;
	int fds[2];

	CHECK_EQ_INT(pty_open(&p), 0);
	CHECK(ior_tui_term_can_draw(p.slave, "xterm-256color"));
	CHECK(!ior_tui_term_can_draw(p.slave, "dumb"));
	CHECK(!ior_tui_term_can_draw(p.slave, ""));
	CHECK(!ior_tui_term_can_draw(p.slave, NULL));
	CHECK_EQ_INT(pipe(fds), 0);
	CHECK(!ior_tui_term_can_draw(fds[1], "xterm"));
	close(fds[0]);
	close(fds[1]);
	pty_close(&p);

	CHECK_EQ_INT(ior_tui_charset_utf8(NULL, NULL, NULL, "en_US.UTF-8"), 1);
	CHECK_EQ_INT(ior_tui_charset_utf8(NULL, NULL, NULL, "de_DE.utf8"), 1);
	CHECK_EQ_INT(ior_tui_charset_utf8(NULL, NULL, NULL, "C"), 0);
	CHECK_EQ_INT(ior_tui_charset_utf8(NULL, NULL, NULL, NULL), 0);
	CHECK_EQ_INT(ior_tui_charset_utf8(NULL, "C", NULL, "en_US.UTF-8"), 0);  /* LC_ALL wins */
	CHECK_EQ_INT(ior_tui_charset_utf8(NULL, "", "C.UTF-8", "C"), 1);        /* empty is unset */
	CHECK_EQ_INT(ior_tui_charset_utf8(NULL, NULL, "POSIX", "C.UTF-8"), 0);
	CHECK_EQ_INT(ior_tui_charset_utf8("ascii", NULL, NULL, "C.UTF-8"), 0);
	CHECK_EQ_INT(ior_tui_charset_utf8("UTF-8", NULL, NULL, "C"), 1);
	CHECK_EQ_INT(ior_tui_charset_utf8("bogus", NULL, NULL, "C.UTF-8"), 1);
	setenv("IOR_CHARSET", "ascii", 1);
	setenv("LANG", "C.UTF-8", 1);
	CHECK_EQ_INT(ior_tui_env_utf8(), 0);
	unsetenv("IOR_CHARSET");
	unsetenv("LC_ALL");
	unsetenv("LC_CTYPE");
	CHECK_EQ_INT(ior_tui_env_utf8(), 1);
}

TEST(size)
{
	struct pty p;
	struct winsize ws = { .ws_row = 40, .ws_col = 120 };
	int rows, cols;

	CHECK_EQ_INT(pty_open(&p), 0);
	ioctl(p.master, TIOCSWINSZ, &ws);
	CHECK_EQ_INT(ior_tui_term_size(p.slave, &rows, &cols), 0);
	CHECK(rows == 40 && cols == 120);
	ws.ws_row = ws.ws_col = 0; /* a serial console */
	ioctl(p.master, TIOCSWINSZ, &ws);
	setenv("LINES", "50", 1);
	setenv("COLUMNS", "132", 1);
	CHECK_EQ_INT(ior_tui_term_size(p.slave, &rows, &cols), -ENOTTY);
	CHECK(rows == 50 && cols == 132);
	setenv("COLUMNS", "12x", 1);
	unsetenv("LINES");
	CHECK_EQ_INT(ior_tui_term_size(p.slave, &rows, &cols), -ENOTTY);
	CHECK(rows == 24 && cols == 80);
	unsetenv("COLUMNS");
	pty_close(&p);
}

TEST(enter_and_leave)
{
	struct pty p;
	char err[128] = "";
	int fds[2];

	CHECK_EQ_INT(pty_open(&p), 0);
	CHECK_EQ_INT(pipe(fds), 0);
	CHECK(ior_tui_term_enter(fds[0], fds[1], err, sizeof err) < 0);
	CHECK(strstr(err, "tcgetattr") != NULL);
	close(fds[0]);
	close(fds[1]);
	CHECK(!ior_tui_term_active());

	CHECK_EQ_INT(ior_tui_term_enter(p.slave, p.slave, err, sizeof err), 0);
	CHECK(ior_tui_term_active());
	CHECK(is_raw(&p));
	CHECK(strstr(pty_output(&p), enter_seq) != NULL);
	CHECK_EQ_INT(ior_tui_term_enter(p.slave, p.slave, err, sizeof err), -EBUSY);
	CHECK_EQ_INT(ior_tui_term_write("abc", 3), 0);
	CHECK_EQ_STR(pty_output(&p), "abc");
	ior_tui_term_leave();
	CHECK(!ior_tui_term_active());
	CHECK(is_restored(&p));
	CHECK_EQ_STR(pty_output(&p), leave_seq);
	CHECK_EQ_INT(ior_tui_term_write("abc", 3), -ENOTTY);
	ior_tui_term_leave(); /* twice: nothing */
	CHECK_EQ_STR(pty_output(&p), "");
	pty_close(&p);
}

TEST(resize_wakes_poll)
{
	struct pty p;
	char err[128];
	struct pollfd pfd;

	CHECK_EQ_INT(pty_open(&p), 0);
	CHECK_EQ_INT(ior_tui_term_enter(p.slave, p.slave, err, sizeof err), 0);
	ior_tui_term_events();
	pfd = (struct pollfd){ .fd = ior_tui_term_fd(), .events = POLLIN };
	CHECK_EQ_INT(poll(&pfd, 1, 0), 0);
	raise(SIGWINCH);
	CHECK_EQ_INT(poll(&pfd, 1, 1000), 1);
	CHECK_EQ_INT(ior_tui_term_events(), IOR_TUI_RESIZED);
	CHECK_EQ_INT(ior_tui_term_events(), 0);
	CHECK_EQ_INT(poll(&pfd, 1, 0), 0);
	ior_tui_term_leave();
	pty_close(&p);
}

static volatile sig_atomic_t got_term;
static void on_term(int sig)
{
	got_term = sig;
}

TEST(program_handler_is_called)
{
	struct pty p;
	char err[128];
	struct sigaction sa = { .sa_handler = on_term }, now;

	CHECK_EQ_INT(pty_open(&p), 0);
	sigaction(SIGTERM, &sa, NULL);
	CHECK_EQ_INT(ior_tui_term_enter(p.slave, p.slave, err, sizeof err), 0);
	raise(SIGTERM);
	CHECK_EQ_INT(got_term, SIGTERM);
	CHECK(ior_tui_term_events() & IOR_TUI_QUIT);
	CHECK_EQ_INT(ior_tui_term_quit_signal(), SIGTERM);
	CHECK(ior_tui_term_active() && is_raw(&p)); /* the program leaves in its own time */
	ior_tui_term_leave();
	CHECK(is_restored(&p));
	sigaction(SIGTERM, NULL, &now);
	CHECK(now.sa_handler == on_term);
	signal(SIGTERM, SIG_DFL);
	pty_close(&p);
}

/* Runs body in a child on the pty; returns its wait status. */
static int in_child(struct pty *p, void (*body)(struct pty *), int options)
{
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char err[128];
		/* the default action, also under ASan, which has its own */
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		if (ior_tui_term_enter(p->slave, p->slave, err, sizeof err))
			_exit(99);
		body(p);
		_exit(98);
	}
	waitpid(pid, &status, options);
	return status;
}

static void raise_term(struct pty *p)
{
	(void)p;
	raise(SIGTERM);
}

static void raise_term_twice(struct pty *p)
{
	struct sigaction sa = { .sa_handler = on_term };
	char err[128];

	ior_tui_term_leave(); /* again, now with a handler of the program's */
	sigaction(SIGTERM, &sa, NULL);
	ior_tui_term_enter(p->slave, p->slave, err, sizeof err);
	raise(SIGTERM);
	if (!got_term || !ior_tui_term_active())
		_exit(97);
	raise(SIGTERM);
}

static void crash_abort(struct pty *p)
{
	(void)p;
	abort();
}

static void crash_bus(struct pty *p)
{
	(void)p;
	raise(SIGBUS);
}

/* Not instrumented: the sanitizers would stop at the store, not fault. */
__attribute__((no_sanitize("address", "undefined"))) static void crash_segv(struct pty *p)
{
	volatile int *volatile nowhere = NULL;

	(void)p;
	*nowhere = 1; /* a real fault: the handler returns, it faults again */
}

static void on_bus(int sig)
{
	(void)sig;
	_exit(42);
}

/* The program's own SIGBUS handler still runs, after the terminal is back. */
static void crash_bus_handled(struct pty *p)
{
	struct sigaction sa = { .sa_handler = on_bus };
	char err[128];

	ior_tui_term_leave();
	sigaction(SIGBUS, &sa, NULL);
	ior_tui_term_enter(p->slave, p->slave, err, sizeof err);
	raise(SIGBUS);
}

static void exit_early(struct pty *p)
{
	(void)p;
	exit(3);
}

static void expect_death(struct pty *p, void (*body)(struct pty *), int sig)
{
	int status;

	pty_output(p);
	status = in_child(p, body, 0);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != sig)
		T_FAIL("child status 0x%x, want killed by signal %d", status, sig);
	CHECK(is_restored(p));
	CHECK(strstr(pty_output(p), leave_seq) != NULL);
}

TEST(restored_when_killed)
{
	struct pty p;
	int status;

	CHECK_EQ_INT(pty_open(&p), 0);
	expect_death(&p, raise_term, SIGTERM);
	expect_death(&p, raise_term_twice, SIGTERM);
	expect_death(&p, crash_abort, SIGABRT);
	expect_death(&p, crash_bus, SIGBUS);
	expect_death(&p, crash_segv, SIGSEGV);
	status = in_child(&p, crash_bus_handled, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 42);
	CHECK(is_restored(&p));
	CHECK(strstr(pty_output(&p), leave_seq) != NULL);
	status = in_child(&p, exit_early, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3);
	CHECK(is_restored(&p));
	CHECK(strstr(pty_output(&p), leave_seq) != NULL);
	pty_close(&p);
}

static void suspend_and_check(struct pty *p)
{
	ior_tui_term_events();
	ior_tui_term_suspend();
	/* continued */
	_exit(ior_tui_term_events() == IOR_TUI_REDRAW && is_raw(p) ? 0 : 1);
}

TEST(stop_and_continue)
{
	struct pty p;
	int status;
	pid_t pid;

	CHECK_EQ_INT(pty_open(&p), 0);
	pty_output(&p);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char err[128];
		/* Its own process group, whose parent (this test) is in another
		 * group of the same session: not orphaned, so SIGTSTP stops it
		 * whatever group the test runner put us in. */
		setpgid(0, 0);
		if (ior_tui_term_enter(p.slave, p.slave, err, sizeof err))
			_exit(99);
		suspend_and_check(&p);
	}
	CHECK_EQ_INT(waitpid(pid, &status, WUNTRACED), pid);
	CHECK(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTSTP);
	CHECK(is_restored(&p));
	CHECK(strstr(pty_output(&p), leave_seq) != NULL);
	kill(pid, SIGCONT);
	CHECK_EQ_INT(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(strstr(pty_output(&p), enter_seq) != NULL);
	pty_close(&p);
}

int main(void)
{
	RUN(can_draw_and_charset);
	RUN(size);
	RUN(enter_and_leave);
	RUN(resize_wakes_poll);
	RUN(program_handler_is_called);
	RUN(restored_when_killed);
	RUN(stop_and_continue);
	return t_done();
}
