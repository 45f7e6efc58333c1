/* dash/: the tabs drawn into a screen from a stats object fed known
 * pairs, read back as the text a person sees; keys, sorting, the stream
 * ring, hostile text. */
#include "dash/dash.h"
#include "t.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <stdlib.h>

#define MS 1000000ull

static struct ior_event_pair pair(const char *name, uint32_t pid, uint32_t tid, const char *comm,
				  const char *path, uint64_t enter, uint64_t dur, int64_t ret)
{
	uint16_t sys = (uint16_t)ior_sys_find(name);
	unsigned cls = ior_sys(sys)->cls;
	int bytes = cls == IOR_SC_READ || cls == IOR_SC_WRITE;
	return (struct ior_event_pair){ .enter_ns = enter, .duration_ns = dur, .ret = ret,
					.bytes = bytes && ret > 0 ? (uint64_t)ret : 0, .flags = IOR_FLAGS_UNKNOWN,
					.pid = pid, .tid = tid, .fd = 3, .sys = sys, .comm = comm, .path = path,
					.path2 = "" };
}

struct fixture {
	struct ior_stats *stats;
	struct ior_dash *dash;
	struct ior_tui_screen s;
	char text[IOR_TUI_MAX_ROWS * 200];
	struct ior_event_pair added[64]; /* what a recording's replay gives again */
	int nadded;
};

static void add(struct fixture *f, struct ior_event_pair p)
{
	ior_stats_add(f->stats, &p);
	ior_dash_add(f->dash, &p);
	if (f->nadded < 64)
		f->added[f->nadded++] = p;
}

static int replay(void *ctx, void (*fn)(void *actx, const struct ior_event_pair *p), void *actx)
{
	struct fixture *f = ctx;

	for (int i = 0; i < f->nadded; i++)
		fn(actx, &f->added[i]);
	return 0;
}

static size_t in_flight_one(void *ctx, struct ior_in_flight *out, size_t max)
{
	(void)ctx;
	if (max)
		out[0] = (struct ior_in_flight){ .enter_ns = 1000 * MS, .pid = 7, .tid = 8, .sys = 0, .comm = "blocker",
						 .fd = 5, .path = "/tmp/fifo" };
	return 1;
}

/* a hung syscall and an io_uring op in flight on a registered file */
static size_t in_flight_op(void *ctx, struct ior_in_flight *out, size_t max)
{
	size_t n = in_flight_one(ctx, out, max);
	if (max > 1)
		out[1] = (struct ior_in_flight){ .enter_ns = 1200 * MS, .pid = 7, .tid = 7, .comm = "blocker",
						 .sys = (uint16_t)ior_sys_find("uring:read"), .fd = -1,
						 .path = "/data/slot" };
	return n + 1;
}

/* 3 reads of 100 bytes and 2 writes of 50 by pid 42 "workload" on
 * /tmp/data, one failed openat by pid 43 "other". */
/* live 0: a recording (replayed by replay()), 1: live, 2: a recording
 * without replay, 3: live with an async op in flight too. */
static struct ior_stats *setup_baseline; /* set: -baseline's stats for the next setup */

#define VDB (253u << 20 | 16)
#define EVIL (7u << 20 | 3)
/* The Devices tab's names, as a recording gives them: one hostile. */
static const char *dev_name(void *ctx, uint32_t dev)
{
	(void)ctx;
	return dev == VDB ? "vdb" : dev == EVIL ? "\x1b[31mevil" : "?";
}
static enum ior_norm setup_norm;

static void setup(struct fixture *f, int rows, int cols, int live)
{
	struct ior_dash_cfg cfg = { .title = "test", .stream_pairs = 4, .baseline = setup_baseline,
				    .baseline_name = "base.ior.zst", .baseline_norm = setup_norm, .dev_name = dev_name };

	memset(f, 0, sizeof *f);
	CHECK_EQ_INT(ior_stats_new(&f->stats, NULL), 0);
	cfg.stats = f->stats;
	cfg.in_flight = live == 1 ? in_flight_one : live == 3 ? in_flight_op : NULL;
	cfg.replay = live == 0 ? replay : NULL;
	cfg.replay_ctx = f;
	CHECK_EQ_INT(ior_dash_new(&f->dash, &cfg), 0);
	CHECK_EQ_INT(ior_tui_screen_init(&f->s, rows, cols, 0), 0);
	for (int i = 0; i < 3; i++)
		add(f, pair("read", 42, 42, "workload", "/tmp/data", (uint64_t)(i + 1) * MS, 2 * MS, 100));
	for (int i = 0; i < 2; i++)
		add(f, pair("write", 42, 44, "workload", "/tmp/data", (uint64_t)(i + 10) * MS, MS, 50));
	add(f, pair("openat", 43, 43, "other", "/nope", 20 * MS, 10000, -2));
	ior_dash_set_now(f->dash, 1500 * MS);
}

static void teardown(struct fixture *f)
{
	ior_dash_free(f->dash);
	ior_stats_free(f->stats);
	ior_tui_screen_free(&f->s);
}

/* The screen as text, rows joined by '\n', trailing spaces kept. */
static const char *draw(struct fixture *f)
{
	size_t n = 0;

	CHECK_EQ_INT(ior_dash_draw(f->dash, &f->s), 0);
	for (int r = 0; r < f->s.rows; r++) {
		for (int c = 0; c < f->s.cols; c++) {
			const struct ior_tui_cell *cell = ior_tui_cell_at(&f->s, r, c);
			for (int i = 0; i < 4 && cell->ch[i]; i++)
				f->text[n++] = cell->ch[i];
		}
		f->text[n++] = '\n';
	}
	f->text[n] = 0;
	if (getenv("DASH_DUMP")) /* a debugging aid: every frame drawn */
		fputs(f->text, stderr);
	return f->text;
}

/* The row of the screen holding `what`, as text, or "" */
static const char *line_with(struct fixture *f, const char *what, char *buf, size_t len)
{
	const char *p = strstr(draw(f), what), *start, *end;

	if (!p)
		return "";
	for (start = p; start > f->text && start[-1] != '\n'; start--)
		;
	end = strchr(p, '\n');
	snprintf(buf, len, "%.*s", (int)(end - start), start);
	return buf;
}

static int words_in_order(const char *line, const char *const *w, int n)
{
	for (int i = 0; i < n; i++) {
		const char *p = strstr(line, w[i]);
		if (!p)
			return 0;
		line = p + strlen(w[i]);
	}
	return 1;
}

static void key(struct fixture *f, int code)
{
	struct ior_tui_key k = { .code = code };
	CHECK_EQ_INT(ior_dash_key(f->dash, &k), 0);
}

static void typed(struct fixture *f, const char *text)
{
	for (; *text; text++) {
		struct ior_tui_key k = { .code = (unsigned char)*text, .text = { *text } };
		CHECK_EQ_INT(ior_dash_key(f->dash, &k), 0);
	}
}

static void press(struct fixture *f, int code)
{
	struct ior_tui_key k = { .code = code };
	ior_dash_key(f->dash, &k);
}

TEST(overview_totals_and_tops)
{
	struct fixture f;
	const char *t;

	setup(&f, 24, 80, 1);
	t = draw(&f);
	CHECK(strstr(t, "ior  test") == t);
	CHECK(strstr(t, "1 Over 2 Syscalls 3 Files 4 Procs 5 Flight 6 Latency 7 Stream 8 Flame 9 Devices") != NULL);
	CHECK(strstr(t, "total 6 pairs, 1 errors, read 300, written 100; lost 0") != NULL);
	CHECK(strstr(t, "Syscalls by time") && strstr(t, "Files by time") && strstr(t, "Processes by time"));
	CHECK(strstr(t, "/tmp/data") != NULL);
	CHECK(strstr(t, "42 workload") != NULL);
	CHECK(strstr(t, "pairs/s") != NULL);
	teardown(&f);
}

TEST(syscalls_counts_bytes_percentiles)
{
	struct fixture f;
	char l[256];

	setup(&f, 24, 120, 1);
	key(&f, '2');
	CHECK_EQ_INT(ior_dash_tab(f.dash), IOR_DASH_SYSCALLS);
	const char *h[] = { "syscall", "calls", "rate/s", "errors", "bytes", "time", "min", "mean", "p50", "p95", "p99", "max" };
	CHECK(words_in_order(line_with(&f, "syscall", l, sizeof l), h, 12));
	const char *r[] = { "read", "3", "0", "300", "6.00ms", "2.00ms", "2.00ms", "2.00ms", "2.00ms", "2.00ms", "2.00ms" };
	CHECK(words_in_order(line_with(&f, "read ", l, sizeof l), r, 11));
	const char *w[] = { "write", "2", "0", "100", "2.00ms" };
	CHECK(words_in_order(line_with(&f, "write ", l, sizeof l), w, 5));
	const char *o[] = { "openat", "1", "1", "0", "10.0us" };
	CHECK(words_in_order(line_with(&f, "openat ", l, sizeof l), o, 5));
	teardown(&f);
}

/* Time first by default; < moves the sort to the names, r makes it ascending. */
TEST(syscalls_sort_keys)
{
	struct fixture f;
	const char *t, *rd, *wr, *op;

	setup(&f, 24, 120, 1);
	key(&f, '2');
	t = draw(&f);
	rd = strstr(t, "\nread "), wr = strstr(t, "\nwrite "), op = strstr(t, "\nopenat ");
	CHECK(rd && wr && op && rd < wr && wr < op);
	for (int i = 0; i < 5; i++)
		key(&f, '<');
	key(&f, 'R');
	t = draw(&f);
	rd = strstr(t, "\nread "), wr = strstr(t, "\nwrite "), op = strstr(t, "\nopenat ");
	CHECK(rd && wr && op && op < rd && rd < wr);
	key(&f, '>'); /* calls, ascending: openat 1, write 2, read 3 */
	t = draw(&f);
	rd = strstr(t, "\nread "), wr = strstr(t, "\nwrite "), op = strstr(t, "\nopenat ");
	CHECK(rd && wr && op && op < wr && wr < rd);
	teardown(&f);
}

TEST(files_and_hostile_path)
{
	struct fixture f;
	char l[256];

	setup(&f, 24, 100, 1);
	add(&f, pair("read", 42, 42, "workload", "/tmp/evil\x1b[31m\x07", 30 * MS, MS, 1));
	key(&f, '3');
	const char *r[] = { "/tmp/data", "5", "300", "100", "0", "8.00ms", "2.00ms" };
	CHECK(words_in_order(line_with(&f, "/tmp/data", l, sizeof l), r, 7));
	CHECK(strstr(draw(&f), "/tmp/evil?[31m?") != NULL);
	CHECK(strchr(f.text, '\x1b') == NULL);
	teardown(&f);
}

TEST(processes_and_threads)
{
	struct fixture f;
	char l[256];

	setup(&f, 24, 100, 1);
	key(&f, '4');
	const char *p[] = { "42", "workload", "5", "0", "300", "100", "8.00ms", "1.60ms" };
	CHECK(words_in_order(line_with(&f, "workload", l, sizeof l), p, 8));
	CHECK(strstr(draw(&f), " tid ") == NULL);
	key(&f, 't');
	CHECK(strstr(draw(&f), " tid ") != NULL);
	const char *t[] = { "42", "44", "workload", "2" };
	CHECK(words_in_order(line_with(&f, "44 workload", l, sizeof l), t, 4));
	teardown(&f);
}

TEST(in_flight_live_and_recording)
{
	struct fixture f;
	char l[256];

	setup(&f, 24, 80, 1);
	key(&f, '5');
	CHECK(strstr(draw(&f), "1 syscalls entered and not returned") != NULL);
	const char *r[] = { "500ms", "7", "8", "blocker", ior_syscalls[0].name, "5", "/tmp/fifo" };
	CHECK(words_in_order(line_with(&f, "blocker", l, sizeof l), r, 7));
	teardown(&f);
	setup(&f, 24, 80, 0);
	key(&f, '5');
	CHECK(strstr(draw(&f), "A recording has nothing in flight") != NULL);
	teardown(&f);
}

/* Async ops in flight are rows too, counted apart, with their file and
 * no fd (a registered slot is none). */
TEST(in_flight_async_ops)
{
	struct fixture f;
	char l[256];

	setup(&f, 24, 120, 3);
	key(&f, '5');
	CHECK(strstr(draw(&f), "1 syscalls entered and not returned, 1 async ops submitted and not completed") != NULL);
	const char *r[] = { "300ms", "7", "7", "blocker", "uring:read", "-", "/data/slot" };
	CHECK(words_in_order(line_with(&f, "uring:read", l, sizeof l), r, 7));
	CHECK(strstr(f.text, "syscall/op") != NULL);
	teardown(&f);
}

TEST(latency_of_selected_syscall)
{
	struct fixture f;
	const char *t;

	setup(&f, 24, 120, 1);
	key(&f, '6');
	t = draw(&f);
	CHECK(strstr(t, "durationNs of all syscalls") && strstr(t, "durationToPrevNs of all syscalls"));
	CHECK(strstr(t, "6 pairs") != NULL);
	key(&f, '2');
	draw(&f); /* read is selected: the most time */
	key(&f, '6');
	t = draw(&f);
	CHECK(strstr(t, "durationNs of read") != NULL);
	CHECK(strstr(t, "3 pairs, p50 2.00ms, p99 2.00ms") != NULL);
	teardown(&f);
	setup(&f, 24, 80, 1); /* narrow: one above the other */
	key(&f, '6');
	t = draw(&f);
	CHECK(strstr(t, "durationNs of all") && strstr(t, "durationToPrevNs of all"));
	teardown(&f);
}

TEST(stream_ring_and_pause)
{
	struct fixture f;
	const char *t;

	setup(&f, 24, 100, 1); /* a ring of 4: the last 4 of 6 pairs */
	key(&f, '7');
	t = draw(&f);
	CHECK(strstr(t, "the last 4 pairs") != NULL);
	CHECK(strstr(t, "0.001000") == NULL && strstr(t, "0.002000") != NULL); /* times from the first pair */
	CHECK(strstr(t, "0.019000") != NULL && strstr(t, "/nope") != NULL);
	key(&f, ' ');
	add(&f, pair("read", 42, 42, "late", "/late", 40 * MS, MS, 1));
	t = draw(&f);
	CHECK(strstr(t, "PAUSED (space resumes): 1 pairs since") != NULL);
	CHECK(strstr(t, "/late") == NULL);
	key(&f, ' ');
	add(&f, pair("read", 42, 42, "late", "/late", 41 * MS, MS, 1));
	CHECK(strstr(draw(&f), "/late") != NULL);
	teardown(&f);
}

/* The Stream's slots keep a comm and path by the pairs' ids: a slot that
 * gets the same nonzero id again keeps its text, any other id or none
 * (0) writes it; what shows is always the pair's own text. */
static void add_ids(struct fixture *f, int n, const char *comm, uint64_t comm_id, const char *path, uint64_t path_id)
{
	for (int i = 0; i < n; i++) {
		struct ior_event_pair p = pair("read", 42, 42, comm, path, (uint64_t)(100 + f->nadded) * MS, MS, 1);
		p.comm_id = comm_id, p.path_id = path_id;
		add(f, p);
	}
}

TEST(stream_slots_by_ids)
{
	struct fixture f;
	const char *t;

	setup(&f, 24, 100, 1); /* a ring of 4 */
	key(&f, '7');
	add_ids(&f, 4, "one", 1, "/p/one", 11);
	add_ids(&f, 3, "one", 1, "/p/one", 11);
	add_ids(&f, 1, "two", 2, "/p/two", 12);
	t = draw(&f);
	CHECK(strstr(t, "/p/two") != NULL && strstr(t, "/p/one") != NULL);
	add_ids(&f, 4, "three", 0, "/p/three", 0);
	t = draw(&f);
	CHECK(strstr(t, "/p/one") == NULL && strstr(t, "/p/two") == NULL && strstr(t, "/p/three") != NULL);
	add_ids(&f, 4, "four", 0, "/p/four", 0); /* no id over no id */
	t = draw(&f);
	CHECK(strstr(t, "/p/three") == NULL && strstr(t, "three") == NULL && strstr(t, "/p/four") != NULL);
	add_ids(&f, 4, "one", 1, "/p/one", 11); /* an id over no id */
	t = draw(&f);
	CHECK(strstr(t, "/p/four") == NULL && strstr(t, "four") == NULL && strstr(t, "/p/one") != NULL);
	add_ids(&f, 2, "five", 5, "/p/five", 15); /* another id over an id */
	t = draw(&f);
	CHECK(strstr(t, "/p/five") != NULL && strstr(t, "/p/one") != NULL);
	teardown(&f);
}

TEST(tabs_help_quit)
{
	struct fixture f;
	struct ior_tui_key k = { .code = IOR_TUI_KEY_BACKTAB };

	setup(&f, 24, 80, 1);
	ior_dash_key(f.dash, &k);
	CHECK_EQ_INT(ior_dash_tab(f.dash), IOR_DASH_DEVICES);
	k.code = IOR_TUI_KEY_TAB;
	ior_dash_key(f.dash, &k);
	CHECK_EQ_INT(ior_dash_tab(f.dash), IOR_DASH_OVERVIEW);
	key(&f, '?');
	CHECK(strstr(draw(&f), "Keys") && strstr(f.text, "R               sort by the column left / right; reverse") &&
	      strstr(f.text, "quit") && strstr(f.text, "pick a process") && strstr(f.text, "start / stop a recording"));
	k.code = IOR_TUI_KEY_ESC;
	ior_dash_key(f.dash, &k);
	CHECK(strstr(draw(&f), "reverse") == NULL);
	k.code = 'q';
	CHECK_EQ_INT(ior_dash_key(f.dash, &k), IOR_DASH_QUIT);
	k = (struct ior_tui_key){ .code = 'c', .mods = IOR_TUI_MOD_CTRL };
	CHECK_EQ_INT(ior_dash_key(f.dash, &k), IOR_DASH_QUIT);
	teardown(&f);
}

static void blk(struct fixture *f, uint32_t dev, uint8_t op, uint32_t pid, const char *comm, const char *path,
		uint64_t start, uint64_t dev_ns, uint32_t bytes, int32_t sys);
static void add_blocks(struct fixture *f);

/* Every tab at the smallest and a large size, and after a resize. */
TEST(every_tab_any_size)
{
	struct fixture f;
	static const int sizes[][2] = { { 24, 80 }, { 40, 120 }, { 5, 20 }, { 1, 1 } };

	setup(&f, 24, 80, 1);
	add_blocks(&f);
	for (unsigned z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
		CHECK_EQ_INT(ior_tui_screen_resize(&f.s, sizes[z][0], sizes[z][1]), 0);
		for (int tab = 0; tab < IOR_DASH_NTABS; tab++) {
			key(&f, '1' + tab);
			draw(&f);
			key(&f, '?');
			draw(&f);
			key(&f, '?');
			key(&f, 'p'); /* the picker over it */
			draw(&f);
			press(&f, IOR_TUI_KEY_ENTER);
			press(&f, IOR_TUI_KEY_DOWN);
			press(&f, IOR_TUI_KEY_ENTER);
			draw(&f);
			press(&f, IOR_TUI_KEY_ESC);
		}
	}
	teardown(&f);
}

TEST(format_bytes)
{
	char b[32];

	ior_dash_format_bytes(b, sizeof b, 9999);
	CHECK_EQ_STR(b, "9999");
	ior_dash_format_bytes(b, sizeof b, 10240);
	CHECK_EQ_STR(b, "10.0KiB");
	ior_dash_format_bytes(b, sizeof b, 3.5 * 1024 * 1024);
	CHECK_EQ_STR(b, "3.50MiB");
}

static char *export(struct fixture *f, int want_rows)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct ior_tui_key e = { .code = 'e' };

	CHECK_EQ_INT(ior_dash_key(f->dash, &e), IOR_DASH_EXPORT);
	CHECK_EQ_INT(ior_dash_export(f->dash, out), want_rows);
	fclose(out);
	return buf;
}

/* e: the table as CSV, times in ns, bytes exact, paths escaped and quoted. */
TEST(export_csv)
{
	struct fixture f;
	struct ior_tui_key e = { .code = 'e' };
	char *csv;

	setup(&f, 24, 80, 1);
	CHECK_EQ_INT(ior_dash_key(f.dash, &e), 0); /* Overview: no table */
	key(&f, '2');
	CHECK_EQ_STR(ior_dash_table_name(f.dash), "syscalls");
	csv = export(&f, 3);
	CHECK(strstr(csv, "syscall,calls,rate/s,errors,bytes,time,min,mean,p50,p95,p99,max\n") == csv);
	CHECK(strstr(csv, "\nread,3,2.0,0,300,6000000,2000000,2000000,2000000,2000000,2000000,2000000\n") != NULL);
	free(csv);
	add(&f, pair("read", 42, 42, "workload", "/tmp/a,b\x1b\"c", 30 * MS, MS, 1));
	key(&f, '3');
	csv = export(&f, 3);
	CHECK(strstr(csv, "\n\"/tmp/a,b\\x1b\"\"c\",1,1,0,0,1000000,1000000\n") != NULL);
	free(csv);
	key(&f, '4');
	key(&f, 't');
	CHECK_EQ_STR(ior_dash_table_name(f.dash), "threads");
	key(&f, '7');
	csv = export(&f, 4);
	CHECK(strstr(csv, "time,comm,pid,syscall,ret,dur,file\n") == csv);
	free(csv);
	ior_dash_set_message(f.dash, "Wrote x.csv (3 rows)");
	CHECK(strstr(draw(&f), "\nWrote x.csv (3 rows)") != NULL);
	key(&f, '1');
	CHECK(strstr(draw(&f), "Wrote x.csv") == NULL);
	teardown(&f);
	setup(&f, 24, 80, 0);
	key(&f, '5');
	CHECK(ior_dash_table_name(f.dash) == NULL); /* a recording: no in-flight table */
	teardown(&f);
}

/* d: Files summed per directory; Enter opens one, Backspace goes up. */
TEST(files_by_directory)
{
	struct fixture f;
	struct ior_tui_key enter = { .code = IOR_TUI_KEY_ENTER }, back = { .code = IOR_TUI_KEY_BACKSPACE };
	char l[256];
	const char *t;

	setup(&f, 24, 100, 1);
	add(&f, pair("read", 42, 42, "workload", "/var/log/x", 30 * MS, 10 * MS, 7));
	add(&f, pair("read", 42, 42, "workload", "/var/log/y", 31 * MS, 10 * MS, 8));
	add(&f, pair("write", 42, 42, "workload", "/var/z", 32 * MS, 10 * MS, 9));
	key(&f, '3');
	key(&f, 'd');
	t = draw(&f);
	CHECK(strstr(t, "\nby directory: / ") != NULL);
	const char *var[] = { "/var/", "3", "15", "9", "0", "30.0ms", "10.0ms" };
	CHECK(words_in_order(line_with(&f, "/var/", l, sizeof l), var, 7));
	const char *tmp[] = { "/tmp/", "5", "300", "100", "0", "8.00ms", "2.00ms" };
	CHECK(words_in_order(line_with(&f, "/tmp/", l, sizeof l), tmp, 7));
	CHECK(strstr(t, "\n/nope ") != NULL);
	CHECK(strstr(t, "/var/log/") == NULL);
	CHECK_EQ_INT(ior_dash_key(f.dash, &enter), 0); /* /var/ is first: the most time */
	t = draw(&f);
	CHECK(strstr(t, "\nby directory: /var/ ") != NULL);
	const char *log[] = { "/var/log/", "2", "15", "0" };
	CHECK(words_in_order(line_with(&f, "/var/log/", l, sizeof l), log, 4));
	CHECK(strstr(t, "\n/var/z ") != NULL && strstr(t, "/tmp/") == NULL);
	ior_dash_key(f.dash, &enter);
	CHECK(strstr(draw(&f), "\n/var/log/x ") != NULL);
	ior_dash_key(f.dash, &back);
	ior_dash_key(f.dash, &back);
	CHECK(strstr(draw(&f), "\nby directory: / ") != NULL);
	ior_dash_key(f.dash, &back);
	CHECK(strstr(draw(&f), "\nby directory: / ") != NULL);
	key(&f, 'd');
	t = draw(&f);
	CHECK(strstr(t, "\nby directory") == NULL && strstr(t, "\n/var/log/x ") != NULL);
	teardown(&f);
}

static void type(struct fixture *f, const char *text)
{
	for (; *text; text++) {
		struct ior_tui_key k = { .code = (unsigned char)*text, .text = { *text } };
		CHECK_EQ_INT(ior_dash_key(f->dash, &k), 0);
	}
	struct ior_tui_key enter = { .code = IOR_TUI_KEY_ENTER };
	CHECK_EQ_INT(ior_dash_key(f->dash, &enter), 0);
}

/* Stream: / searches (a regex on comm, syscall, path) from the newest,
 * n older, N newer; q is typed, not quit; a bad regex says so. */
TEST(stream_search)
{
	struct fixture f;
	const char *t;

	setup(&f, 24, 100, 1); /* the ring: read, write, write, openat */
	key(&f, '7');
	key(&f, '/');
	type(&f, "wr?ite|q");
	t = draw(&f);
	CHECK(strstr(t, "\n/wr?ite|q: pair 3 of 4 (paused; n older, N newer, space resumes)") != NULL);
	key(&f, 'n');
	CHECK(strstr(draw(&f), ": pair 2 of 4") != NULL);
	key(&f, 'n'); /* wraps around to the newest match */
	CHECK(strstr(draw(&f), ": pair 3 of 4") != NULL);
	key(&f, 'N');
	CHECK(strstr(draw(&f), ": pair 2 of 4") != NULL);
	key(&f, '/');
	CHECK(strstr(draw(&f), "\n/ ") != NULL); /* the editor on the last line */
	type(&f, "^/no");
	CHECK(strstr(draw(&f), ": pair 4 of 4") != NULL);
	key(&f, '/');
	type(&f, "zzz");
	CHECK(strstr(draw(&f), "/zzz: not in the last 4 pairs") != NULL);
	key(&f, '/');
	type(&f, "(");
	CHECK(strstr(draw(&f), "\n/(: ") != NULL);
	key(&f, '/');
	struct ior_tui_key esc = { .code = IOR_TUI_KEY_ESC };
	ior_dash_key(f.dash, &esc);
	CHECK(strstr(draw(&f), "/ search") != NULL); /* the footer again */
	teardown(&f);
}

/* r: the caller's while tracing; on a recording it says why not; the top
 * line shows the recording being written. */
TEST(record_key)
{
	struct fixture f;
	struct ior_tui_key r = { .code = 'r' };

	setup(&f, 24, 120, 1);
	CHECK_EQ_INT(ior_dash_key(f.dash, &r), IOR_DASH_RECORD);
	ior_dash_set_recording(f.dash, "host-default-2026.ior.zst", 12);
	CHECK(strstr(draw(&f), "ior  test    REC host-default-2026.ior.zst (12 pairs)  6 pairs in") != NULL);
	ior_dash_set_recording(f.dash, NULL, 0);
	CHECK(strstr(draw(&f), "REC ") == NULL);
	teardown(&f);
	setup(&f, 24, 120, 0);
	CHECK_EQ_INT(ior_dash_key(f.dash, &r), 0);
	CHECK(strstr(draw(&f), "\nr: recording is not available here: this is a recording") != NULL);
	teardown(&f);
}

/* The flight recorder: D is the caller's while it has one, its state on
 * the top line; a dump's trigger pair selected in a paused Stream. */
TEST(recorder_key_and_trigger_pair)
{
	struct fixture f;
	struct ior_tui_key dk = { .code = 'D' };

	setup(&f, 24, 160, 1);
	CHECK_EQ_INT(ior_dash_key(f.dash, &dk), 0);
	CHECK(strstr(draw(&f), "D: no flight recorder here") != NULL);
	ior_dash_set_recorder(f.dash, "RING 3.0s 0.1/64MiB 1/1 armed 0 dumps");
	CHECK_EQ_INT(ior_dash_key(f.dash, &dk), IOR_DASH_DUMP);
	CHECK(strstr(draw(&f), "RING 3.0s 0.1/64MiB 1/1 armed 0 dumps") != NULL);
	teardown(&f);

	setup(&f, 24, 160, 0); /* the ring holds the last 4: read 3, writes, openat */
	CHECK_EQ_INT(ior_dash_stream_select(f.dash, 42, 1 * MS), -ENOENT); /* read 1: out of the ring */
	CHECK_EQ_INT(ior_dash_stream_select(f.dash, 44, 10 * MS), 0);      /* the first write */
	CHECK_EQ_INT(ior_dash_tab(f.dash), IOR_DASH_STREAM);
	const char *text = draw(&f);
	CHECK(strstr(text, "paused") != NULL || strstr(text, "PAUSED") != NULL);
	/* the selected row (drawn reversed) is the first write, of tid 44 */
	int found = 0;
	for (int r = 0; r < f.s.rows; r++) {
		const struct ior_tui_cell *c = ior_tui_cell_at(&f.s, r, 2);
		char row[200] = "";
		for (int k = 0; k < f.s.cols && k < 199; k++)
			row[k] = ior_tui_cell_at(&f.s, r, k)->ch[0];
		if (c->attr & IOR_TUI_REVERSE && strstr(row, "0.009000 workload") && strstr(row, "write"))
			found = 1;
	}
	CHECK(found);
	if (!found)
		fputs(text, stdout);
	teardown(&f);
}

/* Stream: Left/Right move the marked column, f filters on the selected
 * pair's cell, filters stack, Backspace pops them. */
TEST(stream_filters)
{
	struct fixture f;
	const char *t;

	setup(&f, 24, 120, 1); /* the ring: read, write, write, openat (newest, selected) */
	key(&f, '7');
	CHECK(strstr(draw(&f), " [comm] ") != NULL);
	key(&f, 'f');
	t = draw(&f);
	CHECK(strstr(t, "\nfilters: comm=other  (Backspace pops)") != NULL);
	CHECK(strstr(t, "(1 shown)") && strstr(t, "/nope") && !strstr(t, "/tmp/data"));
	press(&f, IOR_TUI_KEY_BACKSPACE);
	press(&f, IOR_TUI_KEY_UP); /* the second write */
	press(&f, IOR_TUI_KEY_RIGHT);
	press(&f, IOR_TUI_KEY_RIGHT);
	CHECK(strstr(draw(&f), " [syscall] ") != NULL);
	key(&f, 'f');
	t = draw(&f);
	CHECK(strstr(t, "filters: syscall=write  (Backspace pops)") && strstr(t, "(2 shown)"));
	press(&f, IOR_TUI_KEY_LEFT);
	key(&f, 'f'); /* pid 42 of the newest write */
	t = draw(&f);
	CHECK(strstr(t, "filters: syscall=write > pid=42  (Backspace pops)") && strstr(t, "(2 shown)"));
	press(&f, IOR_TUI_KEY_RIGHT);
	press(&f, IOR_TUI_KEY_RIGHT); /* ret, dur: not filterable, skipped */
	CHECK(strstr(draw(&f), " [file]") != NULL);
	press(&f, IOR_TUI_KEY_BACKSPACE);
	press(&f, IOR_TUI_KEY_BACKSPACE);
	t = draw(&f);
	CHECK(strstr(t, "filters:") == NULL && strstr(t, "(4 shown)"));
	teardown(&f);
}

/* p: the processes by pairs, typed text filters them, Enter restricts
 * every tab; on a recording the pick's statistics are replayed whole. */
TEST(process_picker_recording)
{
	struct fixture f;
	char l[256];
	const char *t;

	setup(&f, 24, 120, 0);
	key(&f, 'p');
	t = draw(&f);
	CHECK(strstr(t, " Pick a process (2) ") != NULL);
	const char *w42[] = { "42", "workload", "5" }, *w43[] = { "43", "other", "1" };
	CHECK(words_in_order(line_with(&f, "workload", l, sizeof l), w42, 3));
	CHECK(words_in_order(line_with(&f, " other ", l, sizeof l), w43, 3));
	typed(&f, "ot"); /* text, not keys */
	t = draw(&f);
	CHECK(strstr(t, " Pick a process (1) ") && !strstr(t, "workload"));
	press(&f, IOR_TUI_KEY_ENTER);
	t = draw(&f);
	CHECK(strstr(t, "  pid 43 other  1 pairs in") != NULL);
	key(&f, '2');
	t = draw(&f);
	CHECK(strstr(t, "\nopenat ") && !strstr(t, "\nread "));
	key(&f, '4');
	t = draw(&f);
	CHECK(strstr(t, " other ") && !strstr(t, "workload"));
	key(&f, '7');
	t = draw(&f);
	CHECK(strstr(t, "/nope") && !strstr(t, "/tmp/data"));
	press(&f, IOR_TUI_KEY_ESC); /* all again */
	key(&f, '2');
	t = draw(&f);
	CHECK(strstr(t, "\nread ") && strstr(t, "\nopenat ") && !strstr(t, "pid 43"));
	key(&f, 'p');
	typed(&f, "4"); /* the start of a pid */
	CHECK(strstr(draw(&f), " Pick a process (2) ") != NULL);
	press(&f, IOR_TUI_KEY_ESC);
	CHECK(strstr(draw(&f), "Pick a process") == NULL);
	teardown(&f);
}

/* Live, a pick starts from the pid's pairs in the Stream's ring (and
 * says so), then counts every one. */
TEST(process_picker_live)
{
	struct fixture f;
	const char *t;
	char l[256];

	setup(&f, 24, 120, 1); /* the ring: read, write, write by 42, openat by 43 */
	key(&f, 'p');
	t = draw(&f); /* the process in flight too, without pairs yet */
	CHECK(strstr(t, " Pick a process (3) ") && strstr(t, "      7 blocker                  0 "));
	press(&f, IOR_TUI_KEY_ENTER); /* the first: workload, the most pairs */
	t = draw(&f);
	CHECK(strstr(t, "ior  test    pid 42 workload (from its last 3 pairs in the Stream on)  3 pairs in 9.00ms") != NULL);
	add(&f, pair("read", 42, 42, "workload", "/tmp/data", 2000 * MS, MS, 9));
	add(&f, pair("read", 43, 43, "other", "/tmp/data", 2001 * MS, MS, 9));
	key(&f, '2');
	t = draw(&f);
	const char *rd[] = { "read", "2", "0", "109" }, *wr[] = { "write", "2", "0", "100" };
	CHECK(words_in_order(line_with(&f, "read  ", l, sizeof l), rd, 4));
	CHECK(words_in_order(line_with(&f, "write  ", l, sizeof l), wr, 4));
	CHECK(strstr(t, "openat") == NULL);
	teardown(&f);
}

/* The Latency tab shows the file, directory group or process selected. */
TEST(latency_of_selected_file_and_process)
{
	struct fixture f;
	const char *t;

	setup(&f, 24, 120, 0); /* a recording: replayed whole */
	key(&f, '3');
	draw(&f); /* /tmp/data: the most time */
	key(&f, '6');
	t = draw(&f);
	CHECK(strstr(t, "durationNs of file /tmp/data") && strstr(t, "5 pairs, p50 2.00ms, p99 2.00ms"));
	CHECK(strstr(t, "durationToPrevNs of file /tmp/data") != NULL);
	key(&f, '4');
	draw(&f);
	press(&f, IOR_TUI_KEY_DOWN); /* other, pid 43 */
	draw(&f);
	key(&f, '6');
	t = draw(&f);
	CHECK(strstr(t, "durationNs of pid 43") && strstr(t, "1 pairs, p50 10.0us, p99 10.0us"));
	key(&f, '4');
	key(&f, 't'); /* per thread: tid 42 first, its 3 reads the most time */
	draw(&f);
	press(&f, IOR_TUI_KEY_HOME);
	key(&f, '6');
	t = draw(&f);
	CHECK(strstr(t, "durationNs of tid 42") && strstr(t, "3 pairs, p50 2.00ms, p99 2.00ms"));
	teardown(&f);
	setup(&f, 24, 120, 1); /* live: the ring's 3 pairs of /tmp/data, then more */
	key(&f, '3');
	draw(&f);
	key(&f, '6');
	t = draw(&f);
	CHECK(strstr(t, "(live: 3 pairs of the Stream's ring") && strstr(t, "3 pairs, p50"));
	add(&f, pair("read", 42, 42, "workload", "/tmp/data", 30 * MS, MS, 1));
	add(&f, pair("read", 42, 42, "workload", "/tmp/other", 31 * MS, MS, 1));
	CHECK(strstr(draw(&f), "4 pairs, p50") != NULL);
	key(&f, '3');
	key(&f, 'd');
	draw(&f); /* the directory /tmp/ */
	key(&f, '6');
	CHECK(strstr(draw(&f), "durationNs of directory /tmp/") != NULL);
	teardown(&f);
}

/* Flame: an icicle of frames, the cursor on "all"; Down goes to the
 * widest child, Enter zooms, Backspace zooms out, m and o start anew. */
TEST(flame_tab)
{
	struct fixture f;
	const char *t;

	setup(&f, 24, 120, 0);
	key(&f, '8');
	t = draw(&f);
	CHECK(strstr(t, "by comm,path,tracepoint, count (o order, m metric)") != NULL);
	CHECK(strstr(t, "\nall  6 calls  100.0% of all, 100.0% of the zoom") != NULL);
	CHECK(strstr(t, "\nall ") != NULL);
	CHECK(strstr(t, "\nother") && strstr(t, " workload"));
	press(&f, IOR_TUI_KEY_DOWN);
	t = draw(&f);
	CHECK(strstr(t, "\nall;workload  5 calls  83.3% of all, 83.3% of the zoom") != NULL);
	press(&f, IOR_TUI_KEY_LEFT);
	CHECK(strstr(draw(&f), "\nall;other  1 call") != NULL);
	press(&f, IOR_TUI_KEY_RIGHT);
	press(&f, IOR_TUI_KEY_ENTER);
	t = draw(&f);
	CHECK(strstr(t, "; zoomed: Backspace out") && strstr(t, "\nworkload ") && !strstr(t, "\nall "));
	press(&f, IOR_TUI_KEY_DOWN);
	press(&f, IOR_TUI_KEY_DOWN);
	press(&f, IOR_TUI_KEY_DOWN);
	press(&f, IOR_TUI_KEY_DOWN);
	t = draw(&f);
	CHECK(strstr(t, "\nall;workload;/;tmp;data;read  3 calls  50.0% of all, 60.0% of the zoom") != NULL);
	key(&f, 'm');
	t = draw(&f);
	CHECK(strstr(t, "by comm,path,tracepoint, duration") != NULL);
	CHECK(strstr(t, "\nall;workload;/;tmp;data;read  6.000 ms  74.9% of all, 75.0% of the zoom") != NULL);
	press(&f, IOR_TUI_KEY_BACKSPACE);
	t = draw(&f);
	CHECK(strstr(t, "\nall ") != NULL && strstr(t, "zoomed") == NULL);
	key(&f, 'o');
	t = draw(&f);
	CHECK(strstr(t, "by tracepoint,comm,path, duration") && strstr(t, "\nall  "));
	teardown(&f);
}

/* Live, the first aggregate counts from the start; after o it starts
 * from the Stream's ring; hostile names are drawn escaped. */
TEST(flame_live_and_hostile)
{
	struct fixture f;
	const char *t;

	setup(&f, 24, 120, 1);
	add(&f, pair("read", 44, 44, "ev\x1b[2Jil", "/tmp/x", 40 * MS, MS, 1));
	key(&f, '8');
	t = draw(&f);
	CHECK(strstr(t, "counted for") == NULL && strstr(t, "\nall  7 calls") != NULL);
	CHECK(strstr(t, "\x1b") == NULL && strstr(t, "ev\\x1b[2Jil") != NULL);
	key(&f, 'o'); /* live: from the ring's 4 pairs on */
	ior_dash_set_now(f.dash, 3500 * MS);
	t = draw(&f);
	CHECK(strstr(t, "by tracepoint,comm,path, count (o order, m metric); from the Stream's last 4 pairs on") != NULL);
	CHECK(strstr(t, "\nall  4 calls  100.0% of all") != NULL);
	add(&f, pair("read", 44, 44, "x", "/tmp/x", 50 * MS, MS, 1));
	ior_dash_set_now(f.dash, 4500 * MS); /* the tree is rebuilt at most once a second */
	CHECK(strstr(draw(&f), "\nall  5 calls  100.0% of all") != NULL);
	teardown(&f);
}

/* d cycles: by directory, by mount point (when the caller gave mounts),
 * off; Enter opens a mount point as a directory. */
TEST(files_by_mount)
{
	struct fixture f;
	static const char *const mounts[] = { "/", "/tmp", "/proc" };
	const char *t;
	char l[256];

	setup(&f, 24, 120, 1);
	ior_dash_set_mounts(f.dash, mounts, 3);
	key(&f, '3');
	key(&f, 'd');
	key(&f, 'd');
	t = draw(&f);
	CHECK(strstr(t, "\nby mount point") != NULL);
	const char *tmp[] = { "/tmp/", "5", "300", "100" }, *root[] = { "/ ", "1", "0", "0", "1" };
	CHECK(words_in_order(line_with(&f, "/tmp/ ", l, sizeof l), tmp, 4));
	CHECK(strstr(t, "\n/    ") && words_in_order(strstr(t, "\n/    ") + 1, root, 5));
	press(&f, IOR_TUI_KEY_ENTER);
	CHECK(strstr(draw(&f), "\nby directory: /tmp/") != NULL);
	key(&f, 'd');
	CHECK(strstr(draw(&f), "\nby mount point") != NULL);
	key(&f, 'd');
	CHECK(strstr(draw(&f), "\nby ") == NULL);
	teardown(&f);
	setup(&f, 24, 120, 0); /* a recording: no mounts, d has directories only */
	key(&f, '3');
	key(&f, 'd');
	CHECK(strstr(draw(&f), "\nby directory: /") != NULL);
	key(&f, 'd');
	CHECK(strstr(draw(&f), "\nby ") == NULL);
	teardown(&f);
}

/* BASE: read 1 ms, openat 1 ms (an error) by "workload" over 10 ms, and
 * a close NEW lacks; NEW is the fixture's (a recording's span: 19.01 ms). */
static struct ior_stats *baseline_of(void)
{
	struct ior_stats *b;
	struct ior_event_pair p[] = {
		pair("read", 50, 50, "workload", "/tmp/data", MS, MS, 100),
		pair("openat", 50, 50, "workload", "/nope", 10 * MS, MS, -2),
		pair("close", 51, 51, "gone", "/tmp/old", 6 * MS, MS, 0),
	};

	CHECK_EQ_INT(ior_stats_new(&b, NULL), 0);
	for (unsigned i = 0; i < sizeof p / sizeof *p; i++)
		ior_stats_add(b, &p[i]);
	return b;
}

/* -baseline: change columns in Syscalls, Files and Processes; "new" for
 * what BASE lacks; the title names BASE and the normalization; sorting
 * by a change; a picked process's tables do not compare. */
TEST(baseline_change_columns)
{
	struct fixture f;
	char l[400];
	char *csv;

	setup_baseline = baseline_of();
	setup_norm = IOR_NORM_TOTAL;
	setup(&f, 24, 200, 0);
	CHECK(strstr(draw(&f), "vs base.ior.zst (total)") != NULL);
	key(&f, '2');
	const char *h[] = { "syscall", "calls", "max", "dtime", "drate/s", "dp99" }; /* Δ needs UTF-8 */
	CHECK(words_in_order(line_with(&f, "syscall", l, sizeof l), h, 6));
	/* read: 6 ms against 1 ms; 3 calls in 19.01 ms against 1 in 10 ms */
	const char *r[] = { "read", "3", "6.00ms", "+5.00ms", "+57.8", "+1.00ms" };
	CHECK(words_in_order(line_with(&f, "read ", l, sizeof l), r, 6));
	const char *w[] = { "write", "2", "new", "new", "new" };
	CHECK(words_in_order(line_with(&f, "write ", l, sizeof l), w, 5));
	const char *o[] = { "openat", "1", "-990us", "-47.4", "-990us" };
	CHECK(words_in_order(line_with(&f, "openat ", l, sizeof l), o, 5));
	CHECK(strstr(draw(&f), "\nclose ") == NULL); /* gone: ior diff -summary lists it */
	csv = export(&f, 3);
	CHECK(strstr(csv, ",dtime,drate/s,dp99\n") != NULL);
	CHECK(strstr(csv, "\nread,3,157.8,0,300,6000000,2000000,2000000,2000000,2000000,2000000,2000000,5000000,+57.8,1000000\n") != NULL);
	free(csv);
	for (int i = 0; i < 7; i++) /* from time to Δtime */
		key(&f, '>');
	const char *t = draw(&f), *rd = strstr(t, "\nread "), *op = strstr(t, "\nopenat "), *wr = strstr(t, "\nwrite ");
	CHECK(wr && rd && op && rd < wr && wr < op); /* +5 ms, new (its whole 2 ms), -990 us */
	key(&f, 'R');
	t = draw(&f), rd = strstr(t, "\nread "), op = strstr(t, "\nopenat "), wr = strstr(t, "\nwrite ");
	CHECK(rd && op && wr && op < wr && wr < rd);
	key(&f, '3');
	const char *fl[] = { "/tmp/data", "5", "8.00ms", "+7.00ms" };
	CHECK(words_in_order(line_with(&f, "/tmp/data", l, sizeof l), fl, 4));
	key(&f, '4');
	const char *pr[] = { "42", "workload", "5", "8.00ms", "+6.00ms" }; /* BASE's workload: 2 ms */
	CHECK(words_in_order(line_with(&f, "workload", l, sizeof l), pr, 5));
	key(&f, 'p');
	typed(&f, "work");
	press(&f, IOR_TUI_KEY_ENTER);
	key(&f, '2');
	const char *pk[] = { "read", "3", "6.00ms", "-", "-", "-" };
	CHECK(words_in_order(line_with(&f, "read ", l, sizeof l), pk, 6));
	teardown(&f);
	/* rate: BASE scaled by 19.01 / 10: read's 1 ms weighs 1.901 ms */
	setup_norm = IOR_NORM_RATE;
	setup(&f, 24, 200, 2);
	key(&f, '2');
	const char *rr[] = { "read", "3", "6.00ms", "+4.10ms" };
	CHECK(words_in_order(line_with(&f, "read ", l, sizeof l), rr, 4));
	CHECK(strstr(draw(&f), "vs base.ior.zst (rate)") != NULL);
	ior_tui_screen_free(&f.s);
	CHECK_EQ_INT(ior_tui_screen_init(&f.s, 24, 200, 1), 0); /* a UTF-8 terminal */
	const char *hu[] = { "max", "Δtime", "Δrate/s", "Δp99" };
	CHECK(words_in_order(line_with(&f, "syscall", l, sizeof l), hu, 4));
	teardown(&f);
	ior_stats_free(setup_baseline);
	setup_baseline = NULL;
}

/* One completed request: queued 10 µs, at the device dev_ns (0: never issued). */
static void blk(struct fixture *f, uint32_t dev, uint8_t op, uint32_t pid, const char *comm, const char *path,
		uint64_t start, uint64_t dev_ns, uint32_t bytes, int32_t sys)
{
	struct ior_block_req r = { .start_ns = start, .issue_ns = dev_ns ? start + 10000 : 0,
				   .done_ns = start + 10000 + dev_ns, .dev = dev, .bytes = bytes, .op = op,
				   .pid = pid, .tid = pid, .comm = comm, .sys = sys, .path = path };
	ior_stats_add_block(f->stats, &r);
}

/* vdb: 4 reads of 4 KiB by workload on /tmp/data (1, 2, 3, 100 ms at the
 * device), 2 writes of 8 KiB by a kworker (5 ms), a flush never issued;
 * the hostile-named device: a read. */
static void add_blocks(struct fixture *f)
{
	static const uint64_t ms[] = { 1, 2, 3, 100 };
	int read = ior_sys_find("read");

	for (int i = 0; i < 4; i++)
		blk(f, VDB, IOR_BLK_READ, 42, "workload", "/tmp/data", (uint64_t)(i + 1) * MS, ms[i] * MS, 4096, read);
	for (int i = 0; i < 2; i++)
		blk(f, VDB, IOR_BLK_WRITE, 99, "kworker/1:2", "", 200 * MS, 5 * MS, 8192, -1);
	blk(f, VDB, IOR_BLK_FLUSH, 99, "kworker/1:2", "", 210 * MS, 0, 0, -1);
	blk(f, EVIL, IOR_BLK_READ, 43, "other", "/nope", 300 * MS, 7 * MS, 512, read);
}

/* The Devices tab: a row per device and op from the stats' device table
 * (the -summary one), the selected row's latencies, histogram and who. */
TEST(devices_table_and_detail)
{
	struct fixture f;
	char l[512];

	setup(&f, 40, 200, 1);
	key(&f, '9');
	CHECK_EQ_INT(ior_dash_tab(f.dash), IOR_DASH_DEVICES);
	CHECK(strstr(draw(&f), "No block requests") != NULL);
	add_blocks(&f);
	const char *h[] = { "device", "op", "requests", "bytes", "errors", "in-syscalls", "syscall-bytes",
			    "d-min", "d-p50", "d-p95", "d-p99", "d-max", "q-min", "q-p50", "q-p95", "q-p99", "q-max" };
	CHECK(words_in_order(line_with(&f, "syscall-bytes", l, sizeof l), h, 17));
	/* by device, then op: the raw hostile name sorts first, drawn '?' */
	const char *order[] = { "\n?[31mevil ", "\nvdb          read", "\nvdb          write", "\nvdb          flush" };
	CHECK(words_in_order(draw(&f), order, 4));
	CHECK(strchr(f.text, 0x1b) == NULL);
	const char *rd[] = { "vdb", "read", "4", "16384", "0", "4", "16384", "1.00ms", "2.01ms", "100ms", "100ms", "100ms",
			     "10.0us", "10.0us" }; /* p50: the histogram's bucket */
	CHECK(words_in_order(line_with(&f, "vdb          read", l, sizeof l), rd, 14));
	const char *wr[] = { "vdb", "write", "2", "16384", "0", "0", "0", "5.00ms" };
	CHECK(words_in_order(line_with(&f, "vdb          write", l, sizeof l), wr, 8));
	const char *fl[] = { "vdb", "flush", "1", "0", "0", "0", "0", "-", "-" }; /* never issued: no latency */
	CHECK(words_in_order(line_with(&f, "vdb          flush", l, sizeof l), fl, 9));
	/* the selected row's detail: the first row, then vdb read */
	CHECK(strstr(draw(&f), "device time of ?[31mevil read") != NULL);
	key(&f, IOR_TUI_KEY_DOWN);
	draw(&f);
	CHECK(strstr(f.text, "vdb read: device 1.00ms/2.01ms/100ms/100ms/100ms  queue 10.0us/") != NULL);
	CHECK(strstr(f.text, "device time of vdb read") && strstr(f.text, "4 requests, p50 2.01ms, p99 100ms"));
	const char *hist[] = { "524us-1.05ms            1 #", "1.05ms-2.10ms            1 #",
			       "2.10ms-4.19ms            1 #", "4.19ms-8.39ms            0", "67.1ms-134ms             1 #" };
	CHECK(words_in_order(f.text, hist, 5));
	CHECK(strstr(f.text, "42 workload") && strstr(f.text, "/tmp/data"));
	const char *who[] = { "4", "16384", "42 workload" };
	CHECK(words_in_order(line_with(&f, "42 workload", l, sizeof l), who, 3));
	key(&f, IOR_TUI_KEY_DOWN);
	CHECK(strstr(draw(&f), "99 kworker/1:2") != NULL);
	CHECK(strstr(f.text, "/tmp/data") == NULL); /* the writeback had no file */
	teardown(&f);
}

/* < > R sort it; e exports it (names escaped, times in ns); narrow, the
 * tab bar is short and the table cut, the selected row still drawn. */
TEST(devices_sort_export_narrow)
{
	struct fixture f;

	setup(&f, 40, 200, 0);
	add_blocks(&f);
	key(&f, '9');
	key(&f, '>');
	key(&f, '>'); /* requests, most first */
	const char *most[] = { "\nvdb          read", "\nvdb          write", "\n?[31mevil", "\nvdb          flush" };
	CHECK(words_in_order(draw(&f), most, 4));
	key(&f, 'R'); /* fewest first; ties by device, then op */
	const char *fewest[] = { "\n?[31mevil", "\nvdb          flush", "\nvdb          write", "\nvdb          read" };
	CHECK(words_in_order(draw(&f), fewest, 4));
	key(&f, '<');
	key(&f, '<'); /* back to the name, A..Z */
	const char *names[] = { "\n?[31mevil", "\nvdb          read" };
	CHECK(words_in_order(draw(&f), names, 2));
	CHECK_EQ_STR(ior_dash_table_name(f.dash), "devices");
	char *csv = export(&f, 4);
	CHECK(strstr(csv, "device,op,requests,bytes,errors,in-syscalls,syscall-bytes,d-min,d-p50,d-p95,d-p99,d-max,"
			  "q-min,q-p50,q-p95,q-p99,q-max\n") == csv);
	CHECK(strstr(csv, "\n\\x1b[31mevil,read,1,512,0,1,512,7000000,") != NULL);
	CHECK(strstr(csv, "\nvdb,read,4,16384,0,4,16384,1000000,") != NULL);
	CHECK(strstr(csv, "\nvdb,flush,1,0,0,0,0,-,-,-,-,-,-,-,-,-,-\n") != NULL);
	free(csv);
	CHECK_EQ_INT(ior_tui_screen_resize(&f.s, 24, 80), 0);
	draw(&f);
	CHECK(strstr(f.text, "\n1 Over 2 Syscalls 3 Files 4 Procs 5 Flight 6 Latency 7 Stream 8 Flame 9 Devices") != NULL);
	const char *cut[] = { "vdb", "read", "4", "16384", "0", "4", "16384" }; /* the latencies cut: */
	char l[512];
	CHECK(words_in_order(line_with(&f, "vdb          read", l, sizeof l), cut, 7));
	CHECK(strstr(f.text, "?[31mevil read: device 7.00ms/7.00ms/7.00ms/7.00ms/7.00ms") != NULL); /* the detail's */
	CHECK(strstr(f.text, "device time of ?[31mevil read") != NULL);
	CHECK_EQ_INT(ior_tui_screen_resize(&f.s, 12, 30), 0);
	CHECK(strstr(draw(&f), "9 Devices") != NULL); /* the bar starts late enough */
	CHECK_EQ_INT(ior_tui_screen_resize(&f.s, 120, 200), 0);
	CHECK_EQ_INT(ior_tui_screen_resize(&f.s, 40, 200), 0);
	key(&f, '1');
	CHECK(strstr(draw(&f), "\n1 Overview 2 Syscalls 3 Files 4 Processes 5 In flight 6 Latency 7 Stream 8 Flame 9 Devices") != NULL);
	teardown(&f);
}

int main(void)
{
	RUN(overview_totals_and_tops);
	RUN(syscalls_counts_bytes_percentiles);
	RUN(syscalls_sort_keys);
	RUN(files_and_hostile_path);
	RUN(processes_and_threads);
	RUN(in_flight_live_and_recording);
	RUN(in_flight_async_ops);
	RUN(latency_of_selected_syscall);
	RUN(stream_ring_and_pause);
	RUN(stream_slots_by_ids);
	RUN(tabs_help_quit);
	RUN(every_tab_any_size);
	RUN(format_bytes);
	RUN(export_csv);
	RUN(files_by_directory);
	RUN(stream_search);
	RUN(record_key);
	RUN(recorder_key_and_trigger_pair);
	RUN(stream_filters);
	RUN(process_picker_recording);
	RUN(process_picker_live);
	RUN(latency_of_selected_file_and_process);
	RUN(flame_tab);
	RUN(flame_live_and_hostile);
	RUN(files_by_mount);
	RUN(baseline_change_columns);
	RUN(devices_table_and_detail);
	RUN(devices_sort_export_narrow);
	return t_done();
}
