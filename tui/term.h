/* The terminal: raw mode on the alternate screen, its size, and the
 * promise to give it back as it was.
 *
 * ior_tui_term_enter puts the terminal in raw mode: no echo, no line
 * editing, no flow control, and ISIG off, so Ctrl-C, Ctrl-\ and Ctrl-Z
 * arrive as keys (the program decides what they do; see
 * ior_tui_term_suspend for Ctrl-Z). It switches to the alternate screen,
 * hides the cursor and turns auto-wrap off (the renderer in screen.h relies
 * on that). There is one terminal per process.
 *
 * The terminal is restored (normal screen, cursor shown, auto-wrap on,
 * attributes reset, the termios it had) by ior_tui_term_leave, at exit()
 * and on every signal that would end the process, with only write() and
 * tcsetattr() inside signal handlers:
 *   - SIGINT, SIGTERM, SIGHUP, SIGQUIT sent from outside: if the program
 *     had a handler for the signal before enter, that handler is called and
 *     IOR_TUI_QUIT is reported (the program leaves and exits in its own
 *     time); if it had the default action, the terminal is restored and the
 *     signal then ends the process as it would have. A signal it ignored
 *     stays ignored. A second such signal before leave always restores and
 *     ends the process: a stuck program can still be killed cleanly.
 *   - SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGSYS: restored, then the
 *     signal goes on to the disposition it had before (the default: core).
 *   - SIGTSTP (kill -TSTP, or ior_tui_term_suspend): restored, stopped; on
 *     SIGCONT raw mode and the alternate screen come back and
 *     IOR_TUI_REDRAW is reported.
 *   - SIGWINCH: IOR_TUI_RESIZED is reported.
 * Reports are collected by ior_tui_term_events; ior_tui_term_fd becomes
 * readable (POLLIN) whenever there is one, so a poll() loop wakes up.
 * Install the program's own signal handlers before enter: leave puts back
 * the dispositions enter found, so one installed in between is lost.
 *
 * Not thread-safe; call from the thread that handles signals. */
#ifndef IOR_TUI_TERM_H
#define IOR_TUI_TERM_H

#include <stddef.h>

/* Whether to draw on fd: it is a terminal, and term (the TERM variable) is
 * set, not empty and not "dumb". */
int ior_tui_term_can_draw(int fd, const char *term);

/* 1 to draw UTF-8, 0 for ASCII. charset, when it is "utf8", "utf-8" or
 * "ascii" (any case), decides; else the locale does: the first of lc_all,
 * lc_ctype, lang that is set and not empty, UTF-8 when it names "UTF-8" or
 * "utf8" (any case). Nothing set: ASCII. Pure. */
int ior_tui_charset_utf8(const char *charset, const char *lc_all, const char *lc_ctype,
			 const char *lang);
/* The same from the environment: IOR_CHARSET, LC_ALL, LC_CTYPE, LANG. */
int ior_tui_env_utf8(void);

/* The size of the terminal on fd. A terminal that reports 0x0 (serial
 * consoles do) or a fd that is not one gets LINES and COLUMNS from the
 * environment, else 24x80; returns 0 when the size came from the terminal,
 * -ENOTTY when it is such a guess. */
int ior_tui_term_size(int fd, int *rows, int *cols);

/* Raw mode on in_fd (a terminal), escapes to out_fd (usually the same
 * terminal). 0, -EBUSY when already entered, or a negative errno with err
 * filled ("terminal: fd 0: tcgetattr: Inappropriate ioctl for device"). */
int ior_tui_term_enter(int in_fd, int out_fd, char *err, size_t errlen);

/* Restores the terminal and the signal dispositions enter replaced; any
 * signal that came meanwhile is then delivered to the program's own handler.
 * Typed input not read yet is discarded. Does nothing when not entered. */
void ior_tui_term_leave(void);

/* 1 between enter and leave. */
int ior_tui_term_active(void);

/* Writes all of p[0..n) to the terminal (short writes, EINTR and EAGAIN
 * handled); 0, -ENOTTY when not entered, or the errno of write. Use it for
 * rendered frames: one call per frame. */
int ior_tui_term_write(const void *p, size_t n);

/* A fd to poll for POLLIN: readable when ior_tui_term_events has something
 * to report. -1 before the first enter; it stays open after leave. */
int ior_tui_term_fd(void);

#define IOR_TUI_RESIZED 1 /* SIGWINCH: ask ior_tui_term_size, resize, redraw */
#define IOR_TUI_REDRAW 2  /* continued after a stop: the screen must be redrawn whole */
#define IOR_TUI_QUIT 4    /* a terminating signal came: ior_tui_term_quit_signal */

/* The reports since the last call (IOR_TUI_*, or'ed), emptying the fd.
 * IOR_TUI_QUIT stays set once it came. */
unsigned ior_tui_term_events(void);

/* The signal that asked to quit (SIGINT, SIGTERM, SIGHUP, SIGQUIT), or 0. */
int ior_tui_term_quit_signal(void);

/* Stops the process as Ctrl-Z would with ISIG on (the terminal restored
 * meanwhile); returns once continued, with IOR_TUI_REDRAW reported. Does
 * nothing when not entered or when SIGTSTP was ignored at enter. */
void ior_tui_term_suspend(void);

#endif
