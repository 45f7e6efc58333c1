/* A small program on the terminal toolkit, for tests/integration/tui.sh
 * and as the shape of a real one: draw into the next screen, render the
 * difference, one write, poll the terminal and the signal fd, read keys.
 *
 * usage: tui_demo [ROWS]   (default 40 table rows)
 * Keys: arrows/PgUp/PgDn/Home/End move, '/' edits the filter (Enter or Esc
 * ends), Ctrl-Z suspends, q or Ctrl-C quits. Not a terminal or TERM=dumb:
 * prints one plain line instead. TUI_DEMO_PIDFILE: where to write its pid.
 * SIGHUP has a handler of the program's (it quits cleanly, as ior does);
 * SIGTERM has the default action (the toolkit restores, then it dies). */
#include "tui/edit.h"
#include "tui/keys.h"
#include "tui/screen.h"
#include "tui/table.h"
#include "tui/term.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ESC_WAIT_MS 30 /* a lone Esc is the Esc key after this long */

struct demo {
	struct ior_tui_screen shown, next;
	struct ior_tui_buf out;
	struct ior_tui_keys keys;
	struct ior_tui_table table;
	struct ior_tui_edit filter;
	int editing, full, quit;
	char last[32];
	double spark[64];
};

static const struct ior_tui_column columns[] = {
	{ "file", 0, IOR_TUI_KEEP_END },
	{ "count", 8, IOR_TUI_RIGHT },
	{ "bytes", 10, IOR_TUI_RIGHT },
};

static volatile sig_atomic_t hangup;

static void on_hup(int sig)
{
	hangup = sig;
}

static const char *cell(void *ctx, size_t row, int col, char *buf, size_t len)
{
	(void)ctx;
	if (col == 0 && row == 2)
		return "/tmp/evil\x1b[31mred\xe2\x80\xae\x07";
	if (col == 0)
		snprintf(buf, len, "/var/lib/demo/file-%zu.db", row);
	else
		snprintf(buf, len, "%zu", col == 1 ? row * 7 : row * 4096);
	return buf;
}

static void draw(struct demo *d)
{
	struct ior_tui_screen *s = &d->next;
	struct ior_tui_style title = { IOR_TUI_BOLD | IOR_TUI_REVERSE, 0, 0 }, plain = { 0, 0, 0 };
	int rows = s->rows, cols = s->cols;

	ior_tui_screen_clear(s, plain);
	ior_tui_putf(s, 0, 0, cols, title, IOR_TUI_PAD, "ior tui demo %dx%d %s", cols, rows,
		     s->utf8 ? "utf8" : "ascii");
	ior_tui_table_draw(&d->table, s, 1, 0, rows - 5, cols);
	ior_tui_hline(s, rows - 4, 0, cols, plain);
	ior_tui_sparkline(s, rows - 3, 0, 20, plain, d->spark, 64, 0);
	ior_tui_bar(s, rows - 3, 22, 10, plain, 0.5);
	ior_tui_putf(s, rows - 2, 0, cols, plain, 0, "row %zu last key %s filter [%s]",
		     d->table.selected, d->last, d->filter.text);
	if (d->editing)
		ior_tui_edit_draw(&d->filter, s, rows - 1, 0, cols, plain);
}

static int frame(struct demo *d)
{
	int rc;

	draw(d);
	ior_tui_buf_reset(&d->out);
	if (ior_tui_render(&d->out, d->full ? NULL : &d->shown, &d->next))
		return -ENOMEM;
	rc = ior_tui_term_write(d->out.data, d->out.len);
	ior_tui_screen_swap(&d->shown, &d->next);
	d->full = 0;
	return rc;
}

static int resize(struct demo *d)
{
	int rows, cols;

	ior_tui_term_size(1, &rows, &cols);
	d->full = 1;
	if (ior_tui_screen_resize(&d->shown, rows, cols) || ior_tui_screen_resize(&d->next, rows, cols))
		return -ENOMEM;
	return 0;
}

static void key(struct demo *d, const struct ior_tui_key *k)
{
	ior_tui_key_name(k, d->last, sizeof d->last);
	if (d->editing) {
		if (k->code == IOR_TUI_KEY_ENTER || k->code == IOR_TUI_KEY_ESC)
			d->editing = 0;
		else
			ior_tui_edit_key(&d->filter, k);
		return;
	}
	if (k->code == 'q' || (k->code == 'c' && k->mods == IOR_TUI_MOD_CTRL))
		d->quit = 1;
	else if (k->code == 'z' && k->mods == IOR_TUI_MOD_CTRL)
		ior_tui_term_suspend();
	else if (k->code == '/')
		d->editing = 1;
	else
		ior_tui_table_key(&d->table, k);
}

static void read_keys(struct demo *d)
{
	unsigned char buf[256];
	ssize_t n = read(0, buf, sizeof buf);
	struct ior_tui_key k;

	if (n <= 0) {
		d->quit = n == 0 || errno != EINTR;
		return;
	}
	for (size_t off = 0; off < (size_t)n;) {
		off += ior_tui_keys_decode(&d->keys, buf + off, (size_t)n - off, &k);
		if (k.code)
			key(d, &k);
	}
}

/* Waits for keys, signals or the Esc timeout; handles what came. */
static int wait_and_handle(struct demo *d)
{
	struct pollfd pfd[2] = { { .fd = 0, .events = POLLIN }, { .fd = ior_tui_term_fd(), .events = POLLIN } };
	int pending = ior_tui_keys_pending(&d->keys), n = poll(pfd, 2, pending ? ESC_WAIT_MS : 1000);
	unsigned ev;
	struct ior_tui_key k;

	if (n == 0 && pending && ior_tui_keys_flush(&d->keys, &k))
		key(d, &k);
	if (n > 0 && (pfd[0].revents & (POLLIN | POLLHUP)))
		read_keys(d);
	ev = ior_tui_term_events();
	if ((ev & IOR_TUI_QUIT) || hangup)
		d->quit = 1;
	if (ev & IOR_TUI_RESIZED)
		return resize(d);
	if (ev & IOR_TUI_REDRAW)
		d->full = 1;
	return 0;
}

static int run(struct demo *d)
{
	int rc = resize(d);

	while (!rc && !d->quit && !(rc = frame(d)))
		rc = wait_and_handle(d);
	return rc;
}

int main(int argc, char **argv)
{
	static struct demo d;
	const char *pidfile = getenv("TUI_DEMO_PIDFILE");
	char err[256];
	int utf8 = ior_tui_env_utf8(), rc;

	signal(SIGHUP, on_hup);
	if (pidfile) {
		FILE *f = fopen(pidfile, "w");
		if (f)
			fprintf(f, "%d\n", (int)getpid()), fclose(f);
	}
	if (!ior_tui_term_can_draw(1, getenv("TERM"))) {
		printf("tui_demo: plain: not a terminal to draw on\n");
		return 0;
	}
	ior_tui_screen_init(&d.shown, 24, 80, utf8);
	ior_tui_screen_init(&d.next, 24, 80, utf8);
	ior_tui_keys_init(&d.keys);
	d.table = (struct ior_tui_table){ columns, 3, cell, NULL, argc > 1 ? strtoul(argv[1], NULL, 10) : 40,
					  0, 0, 1, 1, 1, { IOR_TUI_BOLD, 0, 0 }, { 0, 0, 0 },
					  { IOR_TUI_REVERSE, 0, 0 }, 0 };
	for (int i = 0; i < 64; i++)
		d.spark[i] = i % 9;
	snprintf(d.last, sizeof d.last, "none");
	if (ior_tui_term_enter(0, 1, err, sizeof err)) {
		fprintf(stderr, "tui_demo: %s\n", err);
		return 1;
	}
	rc = run(&d);
	ior_tui_term_leave();
	if (ior_tui_term_quit_signal())
		printf("tui_demo: quit on signal %d\n", ior_tui_term_quit_signal());
	printf("tui_demo: bye%s%s\n", rc ? ": " : "", rc ? strerror(-rc) : "");
	return rc ? 1 : 0;
}
