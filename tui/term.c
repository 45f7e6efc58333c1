/* Raw mode and its undoing. Everything a signal handler touches is in the
 * static T: the saved termios, the fds, flags of sig_atomic_t, and the
 * write end of the self-pipe. Handlers call only async-signal-safe
 * functions (write, tcsetattr, sigaction, sigprocmask, raise). */
#include "term.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

/* Alternate screen, auto-wrap off, cursor hidden, attributes reset, erased;
 * and back: attributes reset, erased (a terminal without an alternate
 * screen, such as the Linux console, is left clean; tmux keeps lines of a
 * resized alternate screen otherwise), auto-wrap on, cursor shown, normal
 * screen. */
static const char enter_seq[] = "\x1b[?1049h\x1b[?7l\x1b[?25l\x1b[0m\x1b[H\x1b[2J";
static const char leave_seq[] = "\x1b[0m\x1b[H\x1b[2J\x1b[?7h\x1b[?25h\x1b[?1049l";

enum { QUITTING, FATAL, WINCH, TSTP, CONT };

static const struct {
	int sig, kind;
} handled[] = {
	{ SIGINT, QUITTING }, { SIGTERM, QUITTING }, { SIGHUP, QUITTING }, { SIGQUIT, QUITTING },
	{ SIGSEGV, FATAL },   { SIGBUS, FATAL },     { SIGABRT, FATAL },   { SIGFPE, FATAL },
	{ SIGILL, FATAL },    { SIGSYS, FATAL },     { SIGWINCH, WINCH },  { SIGTSTP, TSTP },
	{ SIGCONT, CONT },
};
#define NHANDLED (sizeof handled / sizeof handled[0])

static struct {
	int in_fd, out_fd;
	struct termios saved, raw;
	struct sigaction old[NHANDLED];
	int installed[NHANDLED];
	int pipe[2];
	int atexit_done;
	volatile sig_atomic_t active, suspended, resized, redraw, quit_sig, quits;
} T = { .pipe = { -1, -1 } };

static void write_fd(int fd, const char *p, size_t n)
{
	for (int tries = 0; n && tries < 64; tries++) {
		ssize_t w = write(fd, p, n);
		if (w > 0)
			p += w, n -= (size_t)w;
		else if (w < 0 && errno != EINTR && errno != EAGAIN)
			return;
	}
}

static void wake(void)
{
	if (T.pipe[1] >= 0 && write(T.pipe[1], "", 1) < 0) {
		/* full: a wake-up is already waiting */
	}
}

/* Async-signal-safe. */
static void restore_tty(int how)
{
	write_fd(T.out_fd, leave_seq, sizeof leave_seq - 1);
	tcsetattr(T.in_fd, how, &T.saved);
}

/* Async-signal-safe: raw mode and the alternate screen again. */
static void reapply(void)
{
	tcsetattr(T.in_fd, TCSANOW, &T.raw);
	write_fd(T.out_fd, enter_seq, sizeof enter_seq - 1);
	T.redraw = 1;
	wake();
}

static int slot(int sig)
{
	for (size_t i = 0; i < NHANDLED; i++)
		if (handled[i].sig == sig)
			return (int)i;
	return 0;
}

static void chain(int i, int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *old = &T.old[i];

	if (old->sa_flags & SA_SIGINFO)
		old->sa_sigaction(sig, si, uc);
	else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN)
		old->sa_handler(sig);
}

/* Restores the terminal, then lets sig take the disposition it had before
 * enter (the default when that was to ignore it, or when dfl): it is
 * raised again and, as the handler blocks it, delivered when the handler
 * returns. */
static void die(int i, int sig, int dfl)
{
	struct sigaction sa = T.old[i];

	if (T.active)
		restore_tty(TCSANOW);
	T.active = 0;
	if (dfl || (!(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_IGN)) {
		sa.sa_flags = 0;
		sa.sa_handler = SIG_DFL;
	}
	sigaction(sig, &sa, NULL);
	raise(sig);
}

static void on_quit(int i, int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *old = &T.old[i];

	if (T.quits++ || (!(old->sa_flags & SA_SIGINFO) && old->sa_handler == SIG_DFL)) {
		die(i, sig, 1);
		return;
	}
	T.quit_sig = sig;
	wake();
	chain(i, sig, si, uc);
}

static void on_tstp(void)
{
	struct sigaction dfl, self;
	sigset_t set;

	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	restore_tty(TCSANOW);
	T.suspended = 1;
	sigaction(SIGTSTP, &dfl, &self);
	sigemptyset(&set);
	sigaddset(&set, SIGTSTP);
	sigaddset(&set, SIGCONT); /* its handler runs as soon as we go on */
	raise(SIGTSTP);
	sigprocmask(SIG_UNBLOCK, &set, NULL); /* stops here until SIGCONT */
	sigprocmask(SIG_BLOCK, &set, NULL);
	sigaction(SIGTSTP, &self, NULL);
	if (T.suspended) /* not stopped: an orphaned process group */
		reapply();
	T.suspended = 0;
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	int e = errno, i = slot(sig);

	switch (handled[i].kind) {
	case QUITTING:
		on_quit(i, sig, si, uc);
		break;
	case FATAL:
		die(i, sig, 0);
		break;
	case WINCH:
		T.resized = 1;
		wake();
		chain(i, sig, si, uc);
		break;
	case TSTP:
		if (T.active)
			on_tstp();
		break;
	case CONT:
		if (T.active)
			reapply();
		T.suspended = 0;
		chain(i, sig, si, uc);
		break;
	}
	errno = e;
}

static void block_handled(int how, sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < NHANDLED; i++)
		sigaddset(&set, handled[i].sig);
	sigprocmask(how, &set, old);
}

/* Our handler for every signal in handled[] that was not ignored. The
 * terminating ones keep SA_RESTART as the program had it; the others
 * restart, so a resize does not fail a write elsewhere with EINTR. */
static void install(void)
{
	for (size_t i = 0; i < NHANDLED; i++) {
		struct sigaction sa;
		T.installed[i] = 0;
		if (sigaction(handled[i].sig, NULL, &T.old[i]) ||
		    (!(T.old[i].sa_flags & SA_SIGINFO) && T.old[i].sa_handler == SIG_IGN))
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = on_signal;
		sa.sa_flags = SA_SIGINFO | (handled[i].kind == QUITTING ? T.old[i].sa_flags & SA_RESTART
									 : SA_RESTART);
		sigfillset(&sa.sa_mask);
		T.installed[i] = sigaction(handled[i].sig, &sa, NULL) == 0;
	}
}

static void uninstall(void)
{
	for (size_t i = 0; i < NHANDLED; i++)
		if (T.installed[i])
			sigaction(handled[i].sig, &T.old[i], NULL);
	memset(T.installed, 0, sizeof T.installed);
}

static void at_exit(void)
{
	ior_tui_term_leave();
}

static int fail(char *err, size_t errlen, int fd, const char *what)
{
	int e = errno;
	snprintf(err, errlen, "terminal: fd %d: %s: %s", fd, what, strerror(e));
	return -e;
}

static void make_raw(struct termios *t)
{
	t->c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
	t->c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
	t->c_cc[VMIN] = 1;
	t->c_cc[VTIME] = 0;
}

int ior_tui_term_enter(int in_fd, int out_fd, char *err, size_t errlen)
{
	if (T.active)
		return -EBUSY;
	if (tcgetattr(in_fd, &T.saved))
		return fail(err, errlen, in_fd, "tcgetattr");
	if (T.pipe[0] < 0 && pipe2(T.pipe, O_NONBLOCK | O_CLOEXEC))
		return fail(err, errlen, in_fd, "pipe");
	T.in_fd = in_fd;
	T.out_fd = out_fd;
	T.raw = T.saved;
	make_raw(&T.raw);
	T.quits = T.quit_sig = T.resized = T.redraw = T.suspended = 0;
	install();
	T.active = 1;
	if (tcsetattr(in_fd, TCSAFLUSH, &T.raw)) {
		int rc = fail(err, errlen, in_fd, "tcsetattr");
		T.active = 0;
		uninstall();
		return rc;
	}
	write_fd(out_fd, enter_seq, sizeof enter_seq - 1);
	if (!T.atexit_done)
		T.atexit_done = atexit(at_exit) == 0;
	return 0;
}

void ior_tui_term_leave(void)
{
	sigset_t old;

	if (!T.active)
		return;
	block_handled(SIG_BLOCK, &old);
	if (T.active)
		restore_tty(TCSAFLUSH);
	T.active = 0;
	uninstall();
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int ior_tui_term_active(void)
{
	return T.active;
}

int ior_tui_term_write(const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w;
		if (!T.active)
			return -ENOTTY;
		w = write(T.out_fd, c, n);
		if (w > 0) {
			c += w, n -= (size_t)w;
		} else if (w < 0 && errno == EAGAIN) {
			struct pollfd pfd = { .fd = T.out_fd, .events = POLLOUT };
			poll(&pfd, 1, 100);
		} else if (w < 0 && errno != EINTR) {
			return -errno;
		}
	}
	return 0;
}

int ior_tui_term_fd(void)
{
	return T.pipe[0];
}

unsigned ior_tui_term_events(void)
{
	char buf[64];
	unsigned ev = 0;

	while (T.pipe[0] >= 0 && read(T.pipe[0], buf, sizeof buf) > 0)
		;
	if (T.resized)
		T.resized = 0, ev |= IOR_TUI_RESIZED;
	if (T.redraw)
		T.redraw = 0, ev |= IOR_TUI_REDRAW;
	if (T.quit_sig)
		ev |= IOR_TUI_QUIT;
	return ev;
}

int ior_tui_term_quit_signal(void)
{
	return T.quit_sig;
}

void ior_tui_term_suspend(void)
{
	int i = slot(SIGTSTP);

	if (T.active && T.installed[i])
		raise(SIGTSTP);
}

int ior_tui_term_can_draw(int fd, const char *term)
{
	return isatty(fd) && term && *term && strcmp(term, "dumb") != 0;
}

static int names_utf8(const char *s)
{
	for (; *s; s++)
		if (!strncasecmp(s, "utf-8", 5) || !strncasecmp(s, "utf8", 4))
			return 1;
	return 0;
}

int ior_tui_charset_utf8(const char *charset, const char *lc_all, const char *lc_ctype,
			 const char *lang)
{
	const char *loc[] = { lc_all, lc_ctype, lang };

	if (charset && (!strcasecmp(charset, "utf8") || !strcasecmp(charset, "utf-8")))
		return 1;
	if (charset && !strcasecmp(charset, "ascii"))
		return 0;
	for (size_t i = 0; i < 3; i++)
		if (loc[i] && *loc[i])
			return names_utf8(loc[i]);
	return 0;
}

int ior_tui_env_utf8(void)
{
	return ior_tui_charset_utf8(getenv("IOR_CHARSET"), getenv("LC_ALL"), getenv("LC_CTYPE"),
				    getenv("LANG"));
}

/* A positive number from the environment, or 0. */
static int env_num(const char *name)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return 0;
	v = strtol(s, &end, 10);
	return *end || v <= 0 || v > 100000 ? 0 : (int)v;
}

int ior_tui_term_size(int fd, int *rows, int *cols)
{
	struct winsize ws;

	if (!ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
		return 0;
	}
	*rows = env_num("LINES");
	*cols = env_num("COLUMNS");
	if (!*rows)
		*rows = 24;
	if (!*cols)
		*cols = 80;
	return -ENOTTY;
}
