/* Merge + pairing on synthetic per-CPU streams. */
#include "bpf/event.h"
#include "trace/merge.h"
#include "pair/pair.h"
#include "syscalls/syscalls.h"
#include "t.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/socket.h>

/* This arch's numbers, from its table: the streams use only syscalls
 * every arch has (renameat2, not rename; dup3, not dup2; epoll_pwait). */
static unsigned nr_of(const char *name)
{
	const struct ior_syscall *s = ior_syscall_by_name(name);
	return s ? s->nr : UINT16_MAX;
}
#define NR_READ nr_of("read")
#define NR_OPENAT nr_of("openat")
#define NR_CLOSE nr_of("close")
#define NR_WRITE nr_of("write")
#define NR_RENAMEAT2 nr_of("renameat2")
#define NR_DUP3 nr_of("dup3")
#define NR_RENAMEAT nr_of("renameat")

struct got {
	struct ior_event_pair p[64];
	char path[64][128], path2[64][128], comm[64][16];
	size_t path_len[64], path2_len[64];
	char path_end[64][16], path2_end[64][16]; /* the last 15 bytes */
	int n;
};

static void keep_end(char *dst, const char *s, size_t n)
{
	snprintf(dst, 16, "%s", s + (n > 15 ? n - 15 : 0));
}

static void sink(void *ctx, const struct ior_event_pair *pair)
{
	struct got *g = ctx;
	if (g->n >= 64)
		return;
	g->p[g->n] = *pair;
	snprintf(g->path[g->n], 128, "%s", pair->path);
	snprintf(g->path2[g->n], 128, "%s", pair->path2);
	snprintf(g->comm[g->n], 16, "%s", pair->comm);
	g->path_len[g->n] = strlen(pair->path);
	g->path2_len[g->n] = strlen(pair->path2);
	keep_end(g->path_end[g->n], pair->path, g->path_len[g->n]);
	keep_end(g->path2_end[g->n], pair->path2, g->path2_len[g->n]);
	g->n++;
}

static struct ior_rec_enter enter(uint64_t ts, uint32_t pid, uint32_t tid, uint16_t nr,
				  int64_t fd, uint64_t flags, uint64_t aux)
{
	struct ior_rec_enter e = { { ts, pid, tid, IOR_REC_ENTER, nr, 0 }, fd, "prog", flags, aux };
	return e;
}

static struct ior_rec_exit exit_(uint64_t ts, uint32_t pid, uint32_t tid, uint16_t nr, int64_t ret)
{
	struct ior_rec_exit x = { { ts, pid, tid, IOR_REC_EXIT, nr, 0 }, ret, { 0, 0 }, 0, 0, 0, { 0 } };
	return x;
}

/* Size in the ring as bpf.c sends it: short exits have no path fields;
 * +4 models the raw sample padding the reader hands over. */
#define SHORT_EXIT (sizeof(struct ior_rec_head) + 8 + 4)

static size_t with_path(struct ior_rec_exit *x, const char *p0, const char *p1)
{
	size_t n0 = strlen(p0);
	x->npaths = p1 ? 2 : 1;
	x->path_len[0] = (uint16_t)n0;
	memcpy(x->paths, p0, n0);
	if (!p1)
		return IOR_REC_EXIT_BASE + n0 + 4;
	x->path_len[1] = (uint16_t)strlen(p1);
	memcpy(x->paths + IOR_PATH1_OFF(n0), p1, strlen(p1));
	return IOR_REC_EXIT_BASE + IOR_PATH1_OFF(n0) + strlen(p1) + 4;
}

struct rig {
	struct ior_fdtab *fds;
	struct ior_pairer *pr;
	struct ior_merge *m;
	struct got g;
};

static void deliver(void *ctx, const void *rec, size_t len)
{
	ior_pair_feed(ctx, rec, len);
}

/* /lib is a symlink to /usr/lib, and inode 42 on device 8:1 is libc. */
static const char *fake_canon(void *ctx, const char *path, uint32_t kdev, uint64_t ino, const char *leaf)
{
	(void)ctx, (void)leaf;
	if (!strcmp(path, "/lib/libc.so") && kdev == (8u << 20 | 1) && ino == 42)
		return "/usr/lib/libc.so";
	return NULL;
}

static struct rig *rig_new(const char *path_filter)
{
	struct rig *r = calloc(1, sizeof *r);
	r->fds = ior_fdtab_new(1024, 1024);
	for (uint32_t pid = 0; pid < 16; pid++) /* what a snapshot would say */
		ior_fdtab_set_cwd(r->fds, pid, "/work");
	struct ior_pair_cfg cfg = { r->fds, path_filter, sink, &r->g, NULL, fake_canon, NULL, NULL };
	r->pr = ior_pair_new(&cfg);
	r->m = ior_merge_new(2, 1 << 20);
	return r;
}

static void rig_free(struct rig *r)
{
	ior_merge_free(r->m);
	ior_pair_free(r->pr);
	ior_fdtab_free(r->fds);
	free(r);
}

static void push(struct rig *r, unsigned cpu, const void *rec, size_t len)
{
	CHECK_EQ_INT(ior_merge_push(r->m, cpu, rec, len), 0);
}

static void flush(struct rig *r, uint64_t watermark)
{
	ior_merge_flush(r->m, watermark, deliver, r->pr);
}

TEST(enter_and_exit_on_different_cpus_exit_first)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_enter e1 = enter(1000, 5, 6, NR_READ, 0, 0, 0);
	struct ior_rec_exit x1 = exit_(1500, 5, 6, NR_READ, 42);
	struct ior_rec_enter e2 = enter(2000, 5, 6, NR_READ, 0, 0, 0);
	struct ior_rec_exit x2 = exit_(2600, 5, 6, NR_READ, 0);

	/* CPU 1's ring is drained first and holds the exit of an enter on CPU 0 */
	push(r, 1, &x1, SHORT_EXIT);
	push(r, 1, &e2, sizeof e2);
	push(r, 0, &e1, sizeof e1);
	push(r, 0, &x2, SHORT_EXIT);
	flush(r, 2500); /* x2 held back: ts above the watermark */
	CHECK_EQ_INT(r->g.n, 1);
	CHECK_EQ_INT(r->g.p[0].duration_ns, 500);
	CHECK_EQ_INT(r->g.p[0].gap_ns, 0); /* first pair of the thread */
	CHECK_EQ_INT(r->g.p[0].bytes, 42);
	CHECK_EQ_INT(r->g.p[0].ret, 42);
	CHECK_EQ_STR(r->g.comm[0], "prog");
	flush(r, 3000);
	CHECK_EQ_INT(r->g.n, 2);
	CHECK_EQ_INT(r->g.p[1].gap_ns, 500);
	CHECK_EQ_INT(r->g.p[1].duration_ns, 600);
	CHECK_EQ_INT(r->g.p[1].enter_ns, 2000);
	CHECK_EQ_INT(r->g.p[1].bytes, 0);
	CHECK_EQ_INT(ior_merge_late(r->m), 0);
	rig_free(r);
}

TEST(unpaired_overwritten_mismatched_counted)
{
	struct rig *r = rig_new(NULL);
	struct ior_pair_stats s;
	struct ior_rec_exit lone = exit_(100, 1, 1, NR_READ, 1);
	struct ior_rec_enter a = enter(200, 1, 1, NR_READ, 0, 0, 0);
	struct ior_rec_enter b = enter(300, 1, 1, NR_WRITE, 1, 0, 0); /* a's exit lost */
	struct ior_rec_exit xw = exit_(400, 1, 1, NR_READ, 1);        /* b's exit lost, a read's... */
	struct ior_rec_enter open = enter(500, 1, 2, NR_READ, 5, 0, 0);

	ior_fdtab_set(r->fds, 1, 5, "/work/fifo", O_RDONLY);
	push(r, 0, &lone, SHORT_EXIT);
	push(r, 0, &a, sizeof a);
	push(r, 0, &b, sizeof b);
	push(r, 1, &xw, SHORT_EXIT);
	push(r, 1, &open, sizeof open);
	flush(r, ~0ull);
	ior_pair_get_stats(r->pr, &s);
	CHECK_EQ_INT(r->g.n, 0);
	CHECK_EQ_INT(s.t.unpaired_exits, 1);
	CHECK_EQ_INT(s.t.overwritten_enters, 1);
	CHECK_EQ_INT(s.mismatched_exits, 1);
	CHECK_EQ_INT(s.t.in_flight, 1);
	CHECK_EQ_INT(s.t.pairs_seen, 0);
	struct ior_in_flight f[4];
	CHECK_EQ_INT(ior_pair_in_flight(r->pr, f, 4), 1);
	CHECK_EQ_INT(f[0].tid, 2);
	CHECK_EQ_INT(f[0].enter_ns, 500);
	CHECK_EQ_STR(ior_sys(f[0].sys)->name, "read");
	CHECK_EQ_INT(f[0].fd, 5);
	CHECK_EQ_STR(f[0].path, "/work/fifo"); /* the hung read's file, from the fd table */
	rig_free(r);
}

TEST(thread_reuse_after_exit_starts_fresh)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_enter e1 = enter(1000, 7, 8, NR_READ, 0, 0, 0);
	struct ior_rec_exit x1 = exit_(1100, 7, 8, NR_READ, 1);
	struct ior_rec_head dead = { 1200, 7, 8, IOR_REC_THREAD_EXIT, 0, 0 };
	struct ior_rec_enter e2 = enter(5000, 9, 8, NR_READ, 0, 0, 0); /* tid 8 reused */
	struct ior_rec_exit x2 = exit_(5100, 9, 8, NR_READ, 1);
	struct ior_pair_stats s;

	push(r, 0, &e1, sizeof e1);
	push(r, 0, &x1, SHORT_EXIT);
	push(r, 1, &dead, sizeof dead);
	push(r, 1, &e2, sizeof e2);
	push(r, 0, &x2, SHORT_EXIT);
	flush(r, ~0ull);
	CHECK_EQ_INT(r->g.n, 2);
	CHECK_EQ_INT(r->g.p[1].gap_ns, 0);
	CHECK_EQ_INT(r->g.p[1].pid, 9);
	ior_pair_get_stats(r->pr, &s);
	CHECK_EQ_INT(s.threads, 1);
	rig_free(r);
}

/* A thread's comm keeps its id while its first 15 bytes stay the same
 * (the 16th is the kernel's NUL, and a record's is never shown), and
 * gets a new one when any of them changes (exec, prctl). */
TEST(comm_ids_follow_the_comm)
{
	static const char comms[][16] = {
		"prog", "prog", "program-name-1", "program-name-2", "program-name-2",
		{ 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P' },
		{ 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'X' },
		{ 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'x', 'P' },
	};
	static const int same_as_previous[] = { 0, 1, 0, 0, 1, 0, 1, 0 };
	enum { N = sizeof comms / sizeof comms[0] };
	struct rig *r = rig_new(NULL);

	for (int i = 0; i < N; i++) {
		struct ior_rec_enter e = enter(1000 + 100 * (uint64_t)i, 7, 8, NR_READ, 0, 0, 0);
		struct ior_rec_exit x = exit_(1050 + 100 * (uint64_t)i, 7, 8, NR_READ, 1);
		memcpy(e.comm, comms[i], sizeof e.comm);
		push(r, 0, &e, sizeof e);
		push(r, 0, &x, SHORT_EXIT);
	}
	flush(r, ~0ull);
	CHECK_EQ_INT(r->g.n, N);
	for (int i = 0; i < N && i < r->g.n; i++) {
		char want[16];
		snprintf(want, sizeof want, "%.15s", comms[i]);
		CHECK_EQ_STR(r->g.comm[i], want);
		CHECK(r->g.p[i].comm_id != 0);
		if (i)
			CHECK_EQ_INT(r->g.p[i].comm_id == r->g.p[i - 1].comm_id, same_as_previous[i]);
	}
	rig_free(r);
}

TEST(open_read_close_resolve_file)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_enter eo = enter(10, 3, 3, NR_OPENAT, -1, O_RDONLY | O_CLOEXEC, (uint64_t)-100);
	struct ior_rec_exit xo = exit_(20, 3, 3, NR_OPENAT, 4);
	size_t lo = with_path(&xo, "data/../in.txt", NULL);
	struct ior_rec_enter er = enter(30, 3, 3, NR_READ, 4, 0, 0);
	struct ior_rec_exit xr = exit_(40, 3, 3, NR_READ, 100);
	struct ior_rec_enter ed = enter(50, 3, 3, NR_DUP3, 4, 0, 1);
	struct ior_rec_exit xd = exit_(60, 3, 3, NR_DUP3, 1);
	struct ior_rec_enter ec = enter(70, 3, 3, NR_CLOSE, 4, 0, 0);
	struct ior_rec_exit xc = exit_(80, 3, 3, NR_CLOSE, 0);
	struct ior_rec_enter en = enter(90, 3, 3, NR_RENAMEAT2, -100, 0, (uint64_t)-100);
	struct ior_rec_exit xn = exit_(95, 3, 3, NR_RENAMEAT2, 0);
	size_t ln = with_path(&xn, "/tmp/a", "b");
	int64_t fl;

	push(r, 0, &eo, sizeof eo);
	push(r, 0, &xo, lo);
	push(r, 0, &er, sizeof er);
	push(r, 1, &xr, SHORT_EXIT);
	push(r, 1, &ed, sizeof ed);
	push(r, 1, &xd, SHORT_EXIT);
	push(r, 1, &ec, sizeof ec);
	push(r, 1, &xc, SHORT_EXIT);
	push(r, 1, &en, sizeof en);
	push(r, 1, &xn, ln);
	flush(r, ~0ull);
	CHECK_EQ_INT(r->g.n, 5);
	CHECK_EQ_STR(r->g.path[0], "/work/in.txt");
	CHECK_EQ_INT(r->g.p[0].fd, 4);
	CHECK_EQ_INT(r->g.p[0].flags, O_RDONLY | O_CLOEXEC);
	CHECK_EQ_STR(r->g.path[1], "/work/in.txt");
	CHECK_EQ_INT(r->g.p[1].bytes, 100);
	CHECK_EQ_STR(r->g.path[2], "/work/in.txt"); /* dup2(4, 1): shows the fd copied */
	CHECK_EQ_INT(r->g.p[2].fd, 4);
	CHECK_EQ_INT(r->g.p[2].flags, O_RDONLY | O_CLOEXEC);
	CHECK_EQ_STR(r->g.path[3], "/work/in.txt");
	CHECK_EQ_INT(r->g.p[3].fd, 4);
	CHECK_EQ_STR(r->g.path[4], "/tmp/a");
	CHECK_EQ_STR(r->g.path2[4], "/work/b");
	CHECK_EQ_INT(r->g.p[4].fd, -1);
	CHECK_EQ_STR(ior_fdtab_get(r->fds, 3, 1, &fl), "/work/in.txt"); /* dup2 copy survives */
	CHECK_EQ_INT(fl, O_RDONLY); /* without O_CLOEXEC, as dup2 makes it */
	rig_free(r);
}

/* fds without a path are named by their kind: a socket by its protocol,
 * an accepted connection like its listener, an epoll like /proc says;
 * sendto and recvfrom count bytes on them. */
TEST(sockets_and_epolls_are_named)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_enter es = enter(10, 3, 3, nr_of("socket"), -1, SOCK_STREAM | SOCK_CLOEXEC, AF_INET6);
	struct ior_rec_exit xs = exit_(20, 3, 3, nr_of("socket"), 5);
	struct ior_rec_enter ea = enter(30, 3, 3, nr_of("accept4"), 5, 0, 0);
	struct ior_rec_exit xa = exit_(40, 3, 3, nr_of("accept4"), 6);
	struct ior_rec_enter et = enter(50, 3, 3, nr_of("sendto"), 6, 0, 0);
	struct ior_rec_exit xt = exit_(60, 3, 3, nr_of("sendto"), 11);
	struct ior_rec_enter ep = enter(70, 3, 3, nr_of("epoll_create1"), -1, O_CLOEXEC, 0);
	struct ior_rec_exit xp = exit_(80, 3, 3, nr_of("epoll_create1"), 7);
	struct ior_rec_enter ew = enter(90, 3, 3, nr_of("epoll_pwait"), 7, 0, 100);
	struct ior_rec_exit xw = exit_(95, 3, 3, nr_of("epoll_pwait"), 1);
	int64_t fl;

	push(r, 0, &es, sizeof es);
	push(r, 0, &xs, SHORT_EXIT);
	push(r, 0, &ea, sizeof ea);
	push(r, 0, &xa, SHORT_EXIT);
	push(r, 0, &et, sizeof et);
	push(r, 0, &xt, SHORT_EXIT);
	push(r, 0, &ep, sizeof ep);
	push(r, 0, &xp, SHORT_EXIT);
	push(r, 0, &ew, sizeof ew);
	push(r, 0, &xw, SHORT_EXIT);
	flush(r, ~0ull);
	CHECK_EQ_INT(r->g.n, 5);
	CHECK_EQ_STR(r->g.path[0], "socket:tcp6");
	CHECK_EQ_INT(r->g.p[0].fd, 5);
	CHECK_EQ_INT(r->g.p[0].flags, O_RDWR | O_CLOEXEC); /* no SOCK_STREAM among the flags */
	CHECK_EQ_STR(r->g.path[1], "socket:tcp6");
	CHECK_EQ_INT(r->g.p[1].fd, 6);
	CHECK_EQ_STR(r->g.path[2], "socket:tcp6");
	CHECK_EQ_INT(r->g.p[2].bytes, 11);
	CHECK_EQ_STR(r->g.path[3], "anon_inode:[eventpoll]");
	CHECK_EQ_STR(r->g.path[4], "anon_inode:[eventpoll]");
	CHECK_EQ_INT(r->g.p[4].fd, 7);
	CHECK_EQ_STR(ior_fdtab_get(r->fds, 3, 6, &fl), "socket:tcp6");
	CHECK_EQ_INT(fl, O_RDWR); /* accept4 without SOCK_CLOEXEC */
	rig_free(r);
}

/* Paths arrive whole up to the kernel's 4095 bytes, the second right
 * after a long first; one the kernel cut says so and is counted. */
TEST(long_paths_whole_and_cut)
{
	struct rig *r = rig_new(NULL);
	static char p0[IOR_PATH_MAX], p1[3001];
	memset(p0, 'a', IOR_PATH_MAX - 1);
	p0[0] = '/';
	memcpy(p0 + IOR_PATH_MAX - 5, "/end", 4);
	memset(p1, 'b', 3000);
	p1[0] = '/';
	struct ior_rec_enter en = enter(10, 3, 3, NR_RENAMEAT2, -100, 0, (uint64_t)-100);
	struct ior_rec_exit xn = exit_(20, 3, 3, NR_RENAMEAT2, -2);
	size_t ln = with_path(&xn, p0, p1);
	struct ior_rec_enter es = enter(30, 3, 3, NR_OPENAT, -1, 0, (uint64_t)-100);
	struct ior_rec_exit xs = exit_(40, 3, 3, NR_OPENAT, -36); /* ENAMETOOLONG */
	size_t ls = with_path(&xs, p0, NULL);
	struct ior_pair_stats st;

	xs.cut = 1;
	push(r, 0, &en, sizeof en);
	push(r, 0, &xn, ln);
	push(r, 0, &es, sizeof es);
	push(r, 0, &xs, ls);
	flush(r, ~0ull);
	CHECK_EQ_INT(r->g.n, 2);
	CHECK_EQ_INT(r->g.path_len[0], IOR_PATH_MAX - 1);
	CHECK_EQ_STR(r->g.path_end[0], "aaaaaaaaaaa/end");
	CHECK_EQ_INT(r->g.path2_len[0], 3000);
	CHECK_EQ_STR(r->g.path2_end[0], "bbbbbbbbbbbbbbb");
	CHECK_EQ_INT(r->g.path_len[1], IOR_PATH_MAX - 1);
	CHECK_EQ_STR(r->g.path_end[1], "aaaaaaa...(cut)");
	ior_pair_get_stats(r->pr, &st);
	CHECK_EQ_INT(st.paths_cut, 1);
	rig_free(r);
}

/* fork copies, exec keeps what is not close-on-exec, a rename moves the
 * open fd's path, an open in flight at attach names its fd, renameat's new
 * path is relative to its newdirfd, and a path-less fd is counted. */
TEST(lifecycle_records)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_enter eo = enter(10, 3, 3, NR_OPENAT, -1, O_WRONLY, (uint64_t)-100);
	struct ior_rec_exit xo = exit_(20, 3, 3, NR_OPENAT, 5);
	size_t lo = with_path(&xo, "/w/log", NULL);
	struct ior_rec_fork fk = { { 30, 3, 3, IOR_REC_FORK, 0, sizeof fk }, 7, 7, 0, 0 };
	struct ior_rec_enter w1 = enter(40, 7, 7, NR_WRITE, 5, 0, 0);
	struct ior_rec_exit x1 = exit_(50, 7, 7, NR_WRITE, 1);
	struct ior_rec_head ex = { 55, 7, 7, IOR_REC_EXEC, 0, sizeof ex };
	struct ior_rec_enter w2 = enter(60, 7, 7, NR_WRITE, 5, 0, 0);
	struct ior_rec_exit x2 = exit_(70, 7, 7, NR_WRITE, 1);
	struct ior_rec_enter en = enter(80, 3, 3, NR_RENAMEAT2, -100, 0, (uint64_t)-100);
	struct ior_rec_exit xn = exit_(90, 3, 3, NR_RENAMEAT2, 0);
	size_t ln = with_path(&xn, "/w/log", "/w/log2");
	struct ior_rec_enter w3 = enter(100, 7, 7, NR_WRITE, 5, 0, 0);
	struct ior_rec_exit x3 = exit_(110, 7, 7, NR_WRITE, 1);
	struct ior_rec_enter w4 = enter(120, 7, 7, NR_WRITE, 9, 0, 0);
	struct ior_rec_exit x4 = exit_(130, 7, 7, NR_WRITE, 1);
	struct ior_rec_exit xf = exit_(140, 3, 3, NR_OPENAT, 6); /* its enter predates the trace */
	size_t lf = with_path(&xf, "/w/fifo", NULL);
	struct ior_rec_enter rf = enter(150, 3, 3, NR_READ, 6, 0, 0);
	struct ior_rec_exit xr = exit_(160, 3, 3, NR_READ, 1);
	struct ior_rec_enter ed = enter(170, 3, 3, NR_OPENAT, -1, O_PATH, (uint64_t)-100);
	struct ior_rec_exit xd = exit_(180, 3, 3, NR_OPENAT, 8);
	size_t ld = with_path(&xd, "/w", NULL);
	struct ior_rec_enter ea = enter(190, 3, 3, NR_RENAMEAT, 8, 0, (uint64_t)-100);
	struct ior_rec_exit xa = exit_(200, 3, 3, NR_RENAMEAT, 0);
	size_t la = with_path(&xa, "x", "y");
	struct ior_pair_stats s;

	push(r, 0, &eo, sizeof eo);
	push(r, 0, &xo, lo);
	push(r, 0, &fk, sizeof fk);
	push(r, 1, &w1, sizeof w1);
	push(r, 1, &x1, SHORT_EXIT);
	push(r, 1, &ex, sizeof ex);
	push(r, 1, &w2, sizeof w2);
	push(r, 1, &x2, SHORT_EXIT);
	push(r, 0, &en, sizeof en);
	push(r, 0, &xn, ln);
	push(r, 1, &w3, sizeof w3);
	push(r, 1, &x3, SHORT_EXIT);
	push(r, 1, &w4, sizeof w4);
	push(r, 1, &x4, SHORT_EXIT);
	push(r, 0, &xf, lf);
	push(r, 0, &rf, sizeof rf);
	push(r, 0, &xr, SHORT_EXIT);
	push(r, 0, &ed, sizeof ed);
	push(r, 0, &xd, ld);
	push(r, 0, &ea, sizeof ea);
	push(r, 0, &xa, la);
	flush(r, ~0ull);
	CHECK_EQ_INT(r->g.n, 9);
	CHECK_EQ_STR(r->g.path[1], "/w/log");  /* the child's write, inherited */
	CHECK_EQ_INT(r->g.p[1].pid, 7);
	CHECK_EQ_STR(r->g.path[2], "/w/log");  /* after exec */
	CHECK_EQ_STR(r->g.path2[3], "/w/log2");
	CHECK_EQ_STR(r->g.path[4], "/w/log2"); /* after the rename */
	CHECK_EQ_STR(r->g.path[5], "");        /* fd 9: never seen */
	CHECK_EQ_INT(r->g.p[5].fd, 9);
	CHECK_EQ_STR(r->g.path[6], "/w/fifo");
	CHECK_EQ_STR(r->g.path[8], "/work/x");
	CHECK_EQ_STR(r->g.path2[8], "/w/y");   /* relative to newdirfd 8 */
	CHECK_EQ_INT(r->g.p[8].fd, -1);
	ior_pair_get_stats(r->pr, &s);
	CHECK_EQ_INT(s.t.unpaired_exits, 1);
	CHECK_EQ_INT(s.unattributed, 1);
	CHECK_EQ_INT(s.unattributed_why[IOR_FD_NO_BASE], 1);
	rig_free(r);
}

/* The identity after path 0 names the fd canonically, only when it agrees. */
static size_t with_ident(struct ior_rec_exit *x, const char *p0, uint32_t kdev, uint64_t ino)
{
	struct ior_file_ident id = { ino, kdev, 0, 0 };
	size_t off = IOR_IDENT_OFF(strlen(p0));

	with_path(x, p0, NULL);
	x->ident = 1;
	memcpy((char *)x + off, &id, sizeof id);
	return off + sizeof id;
}

TEST(opened_files_get_canonical_names)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_enter e1 = enter(10, 3, 3, NR_OPENAT, -1, O_RDONLY, (uint64_t)-100);
	struct ior_rec_exit x1 = exit_(20, 3, 3, NR_OPENAT, 4);
	size_t l1 = with_ident(&x1, "/lib/libc.so", 8u << 20 | 1, 42);
	struct ior_rec_enter e2 = enter(30, 3, 3, NR_OPENAT, -1, O_RDONLY, (uint64_t)-100);
	struct ior_rec_exit x2 = exit_(40, 3, 3, NR_OPENAT, 5);
	size_t l2 = with_ident(&x2, "/lib/libc.so", 8u << 20 | 1, 43); /* replaced meanwhile */
	struct ior_rec_enter rd = enter(50, 3, 3, NR_READ, 4, 0, 0);
	struct ior_rec_exit xr = exit_(60, 3, 3, NR_READ, 1);
	int64_t fl;

	push(r, 0, &e1, sizeof e1);
	push(r, 0, &x1, l1);
	push(r, 0, &e2, sizeof e2);
	push(r, 0, &x2, l2 - 1); /* cut: the identity is not whole */
	push(r, 0, &rd, sizeof rd);
	push(r, 0, &xr, SHORT_EXIT);
	flush(r, ~0ull);
	CHECK_EQ_INT(r->g.n, 3);
	CHECK_EQ_STR(r->g.path[0], "/usr/lib/libc.so");
	CHECK_EQ_STR(r->g.path[1], "/lib/libc.so");
	CHECK_EQ_STR(r->g.path[2], "/usr/lib/libc.so");
	CHECK_EQ_STR(ior_fdtab_get(r->fds, 3, 5, &fl), "/lib/libc.so");
	rig_free(r);
}

static int only_tid_7_alive(void *ctx, uint32_t pid, uint32_t tid)
{
	(void)ctx, (void)pid;
	return tid == 7;
}

/* An enter whose thread is gone at stop is no syscall in flight. */
TEST(enters_of_gone_threads_are_not_in_flight)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_enter a = enter(10, 5, 6, NR_READ, 0, 0, 0);
	struct ior_rec_enter b = enter(20, 7, 7, NR_READ, 0, 0, 0);
	struct ior_pair_stats s;

	push(r, 0, &a, sizeof a);
	push(r, 0, &b, sizeof b);
	flush(r, ~0ull);
	ior_pair_close_gone(r->pr, only_tid_7_alive, NULL);
	ior_pair_get_stats(r->pr, &s);
	CHECK_EQ_INT(s.t.in_flight, 1);
	CHECK_EQ_INT(s.enters_at_thread_exit, 1);
	rig_free(r);
}

TEST(path_filter_counts_but_hides)
{
	struct rig *r = rig_new("secret");
	struct ior_rec_enter eo = enter(10, 3, 3, NR_OPENAT, -1, O_RDONLY, (uint64_t)-100);
	struct ior_rec_exit xo = exit_(20, 3, 3, NR_OPENAT, 4);
	size_t lo = with_path(&xo, "/etc/hosts", NULL);
	struct ior_rec_enter eo2 = enter(30, 3, 3, NR_OPENAT, -1, O_RDONLY, (uint64_t)-100);
	struct ior_rec_exit xo2 = exit_(40, 3, 3, NR_OPENAT, 5);
	size_t lo2 = with_path(&xo2, "/etc/secret", NULL);
	struct ior_pair_stats s;

	push(r, 0, &eo, sizeof eo);
	push(r, 0, &xo, lo);
	push(r, 0, &eo2, sizeof eo2);
	push(r, 0, &xo2, lo2);
	flush(r, ~0ull);
	ior_pair_get_stats(r->pr, &s);
	CHECK_EQ_INT(r->g.n, 1);
	CHECK_EQ_STR(r->g.path[0], "/etc/secret");
	CHECK_EQ_INT(r->g.p[0].gap_ns, 10); /* gap to the hidden pair */
	CHECK_EQ_INT(s.t.pairs, 1);
	CHECK_EQ_INT(s.t.pairs_seen, 2);
	rig_free(r);
}

TEST(hidden_syscalls_keep_fds_but_are_not_pairs)
{
	static unsigned char visible[1024];
	struct rig *r = rig_new(NULL);
	struct ior_rec_enter eo = enter(10, 3, 3, NR_OPENAT, -1, O_RDWR, (uint64_t)-100);
	struct ior_rec_exit xo = exit_(20, 3, 3, NR_OPENAT, 5);
	size_t lo = with_path(&xo, "/d/f", NULL);
	struct ior_rec_enter er = enter(50, 3, 3, NR_READ, 5, 0, 0);
	struct ior_rec_exit xr = exit_(60, 3, 3, NR_READ, 7);
	struct ior_rec_enter er2 = enter(100, 3, 3, NR_READ, 5, 0, 0);
	struct ior_rec_exit xr2 = exit_(110, 3, 3, NR_READ, 7);
	struct ior_rec_enter ec = enter(200, 3, 3, NR_CLOSE, 5, 0, 0);
	struct ior_pair_stats s;

	visible[ior_syscall_index(ior_syscall_by_name("read"))] = 1;
	ior_pair_free(r->pr);
	struct ior_pair_cfg cfg = { r->fds, NULL, sink, &r->g, visible, NULL, NULL, NULL };
	r->pr = ior_pair_new(&cfg);
	push(r, 0, &eo, sizeof eo);
	push(r, 0, &xo, lo);
	push(r, 0, &er, sizeof er);
	push(r, 0, &xr, SHORT_EXIT);
	push(r, 0, &er2, sizeof er2);
	push(r, 0, &xr2, SHORT_EXIT);
	push(r, 0, &ec, sizeof ec); /* a hidden enter open at stop */
	flush(r, ~0ull);
	ior_pair_get_stats(r->pr, &s);
	CHECK_EQ_INT(r->g.n, 2);
	CHECK_EQ_STR(r->g.path[0], "/d/f");
	CHECK_EQ_INT(r->g.p[0].gap_ns, 0); /* the hidden open is no previous pair */
	CHECK_EQ_INT(r->g.p[1].gap_ns, 40);
	CHECK_EQ_INT(s.t.pairs_seen, 2);
	CHECK_EQ_INT(s.t.in_flight, 0);
	rig_free(r);
}

TEST(truncated_records_are_bad_not_read)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_enter e = enter(10, 3, 3, NR_OPENAT, -1, 0, (uint64_t)-100);
	struct ior_rec_exit x = exit_(20, 3, 3, NR_OPENAT, 4);
	struct ior_pair_stats s;

	with_path(&x, "/etc/passwd", NULL);
	x.path_len[0] = 60000; /* lies: the record ends after 4 bytes of path */
	ior_pair_feed(r->pr, &e, IOR_REC_ENTER_BASE - 1);
	ior_pair_feed(r->pr, &e, sizeof e);
	ior_pair_feed(r->pr, &x, IOR_REC_EXIT_BASE + 4);
	ior_pair_get_stats(r->pr, &s);
	CHECK_EQ_INT(s.bad_records, 1);
	CHECK_EQ_INT(r->g.n, 1);
	CHECK_EQ_STR(r->g.path[0], "/etc");
	rig_free(r);
}

TEST(exits_after_stop_are_not_unpaired)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_exit before = exit_(100, 1, 1, NR_READ, 1);
	struct ior_rec_exit after = exit_(300, 1, 2, NR_READ, 1);
	struct ior_pair_stats s;

	ior_pair_stop_enters(r->pr, 200);
	push(r, 0, &before, SHORT_EXIT);
	push(r, 1, &after, SHORT_EXIT);
	flush(r, ~0ull);
	ior_pair_get_stats(r->pr, &s);
	CHECK_EQ_INT(s.t.unpaired_exits, 1);
	CHECK_EQ_INT(s.exits_after_stop, 1);
	rig_free(r);
}

TEST(late_record_counted)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_enter e1 = enter(1000, 5, 6, NR_READ, 0, 0, 0);
	struct ior_rec_exit x1 = exit_(1500, 5, 6, NR_READ, 1);

	push(r, 0, &x1, SHORT_EXIT);
	flush(r, 2000);
	push(r, 1, &e1, sizeof e1); /* arrives after its watermark passed */
	flush(r, 2000);
	CHECK_EQ_INT(ior_merge_late(r->m), 1);
	CHECK_EQ_INT(r->g.n, 0);
	rig_free(r);
}

TEST(merge_sorts_within_a_cpu_and_forces_when_full)
{
	struct ior_merge *m = ior_merge_new(2, 256);
	uint64_t seen[16];
	int n = 0;
	struct ior_rec_head h[5] = {
		{ 30, 1, 1, 3, 0, 0 }, { 10, 1, 1, 3, 0, 0 }, { 20, 1, 1, 3, 0, 0 },
		{ 15, 1, 1, 3, 0, 0 }, { 5, 1, 1, 3, 0, 0 },
	};
	void cb(void *ctx, const void *rec, size_t len);

	for (int i = 0; i < 3; i++)
		CHECK_EQ_INT(ior_merge_push(m, 0, &h[i], sizeof h[i]), 0);
	CHECK_EQ_INT(ior_merge_push(m, 1, &h[3], sizeof h[3]), 0);
	CHECK_EQ_INT(ior_merge_push(m, 1, &h[4], sizeof h[4]), 0);
	struct ctx { uint64_t *seen; int *n; } c = { seen, &n };
	ior_merge_flush(m, ~0ull, cb, &c);
	CHECK_EQ_INT(n, 5);
	for (int i = 0; i + 1 < n; i++)
		CHECK(seen[i] <= seen[i + 1]);
	/* 256 bytes of arena: pushes fail until a flush makes room */
	int pushed = 0;
	while (ior_merge_push(m, 0, &h[0], sizeof h[0]) == 0)
		pushed++;
	CHECK_EQ_INT(pushed, 256 / sizeof h[0]);
	n = 0;
	ior_merge_flush(m, ~0ull, cb, &c);
	CHECK_EQ_INT(n, pushed);
	CHECK_EQ_INT(ior_merge_push(m, 0, &h[0], sizeof h[0]), 0);
	ior_merge_free(m);
}

void cb(void *ctx, const void *rec, size_t len)
{
	struct ctx { uint64_t *seen; int *n; } *c = ctx;
	struct ior_rec_head h;
	(void)len;
	memcpy(&h, rec, sizeof h);
	if (*c->n < 16)
		c->seen[(*c->n)++] = h.ts;
}


static struct ior_rec_streak streak(uint64_t ts, uint32_t tid, uint16_t first_nr, int32_t first_fd,
				   uint64_t first_enter, uint64_t last_exit, uint32_t pairs)
{
	struct ior_rec_streak s = { { ts, tid, tid, IOR_REC_STREAK, first_nr, sizeof s },
				    first_enter, last_exit, first_fd, pairs };
	return s;
}

static void feed_pair(struct rig *r, uint64_t in, uint64_t out, uint16_t nr, int64_t fd, int64_t ret)
{
	struct ior_rec_enter e = enter(in, 7, 7, nr, fd, 0, 0);
	struct ior_rec_exit x = exit_(out, 7, 7, nr, ret);
	ior_pair_feed(r->pr, &e, IOR_REC_ENTER_BASE); /* as bpf.c sends a read's */
	ior_pair_feed(r->pr, &x, SHORT_EXIT);
}

/* Thread 7: open, a read delivered, three reads summarized by the kernel
 * (enters 300, 400, 500; exits 320, 430, 560), then a read delivered.
 * Gaps and durations of events, correction and summary add up to the
 * thread's span, 100..610. */
TEST(streak_completes_gaps_and_summaries_are_rows)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_enter e = enter(100, 7, 7, NR_OPENAT, -100, O_RDONLY, (uint64_t)-100);
	struct ior_rec_exit x = exit_(110, 7, 7, NR_OPENAT, 3);
	size_t xl = with_path(&x, "f", NULL);
	ior_pair_feed(r->pr, &e, sizeof e);
	ior_pair_feed(r->pr, &x, xl);
	feed_pair(r, 200, 250, NR_READ, 3, 10);
	struct ior_rec_streak s = streak(600, 7, NR_READ, 3, 300, 560, 3);
	ior_pair_feed(r->pr, &s, sizeof s);
	feed_pair(r, 600, 610, NR_READ, 3, 10);
	struct ior_sum_key k = { 7, 7, NR_READ, 3 };
	struct ior_sum_val v = { .pairs = 3, .bytes = 30, .duration_ns = 110, .gap_ns = 150,
				 .first_enter = 300, .last_exit = 560, .comm = "prog" };
	ior_pair_summary(r->pr, &k, &v, 700);

	CHECK_EQ_INT(r->g.n, 5);
	struct ior_event_pair *c = &r->g.p[2], *sum = &r->g.p[4];
	CHECK(c->summary && c->pairs == 0 && c->gap_ns == 300 - 250 && c->duration_ns == 0);
	CHECK_EQ_STR(r->g.path[2], "/work/f");
	CHECK(r->g.p[3].gap_ns == 600 - 560 && !r->g.p[3].summary);
	CHECK(sum->summary && sum->pairs == 3 && sum->bytes == 30 && sum->duration_ns == 110 &&
	      sum->gap_ns == 150 && sum->enter_ns == 300 && sum->end_ns == 560 && sum->fd == 3);
	CHECK_EQ_STR(r->g.path[4], "/work/f");
	CHECK_EQ_STR(r->g.comm[4], "prog");
	CHECK_EQ_INT(ior_pair_count(sum), 3);
	uint64_t gaps = 0, durs = 0;
	for (int i = 0; i < r->g.n; i++)
		gaps += r->g.p[i].gap_ns, durs += r->g.p[i].duration_ns;
	CHECK_EQ_INT(gaps + durs, 610 - 100);
	struct ior_pair_stats st;
	ior_pair_get_stats(r->pr, &st);
	CHECK_EQ_INT(st.t.pairs, 6);
	CHECK_EQ_INT(st.t.summarized, 3);
	CHECK_EQ_INT(st.t.overwritten_enters + st.t.unpaired_exits + st.t.in_flight, 0);
	rig_free(r);
}

/* A streak first on its thread has no gap to complete; one after an enter
 * whose exit the full reserve lost closes that enter (the kernel counted
 * the record); a short streak record is bad. */
TEST(streak_edges)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_streak s = streak(50, 7, NR_READ, 3, 10, 40, 2);
	ior_pair_feed(r->pr, &s, sizeof s);
	CHECK_EQ_INT(r->g.n, 0);
	feed_pair(r, 60, 70, NR_READ, 3, 1);
	CHECK_EQ_INT(r->g.n, 1);
	CHECK_EQ_INT(r->g.p[0].gap_ns, 60 - 40);
	struct ior_rec_enter e = enter(80, 7, 7, NR_READ, 3, 0, 0);
	ior_pair_feed(r->pr, &e, sizeof e);
	s = streak(200, 7, NR_WRITE, 4, 100, 150, 1);
	ior_pair_feed(r->pr, &s, sizeof s);
	CHECK_EQ_INT(r->g.n, 2);
	CHECK(r->g.p[1].summary && r->g.p[1].pairs == 0 && r->g.p[1].gap_ns == 100 - 70 &&
	      r->g.p[1].sys == ior_syscall_index(ior_syscall_by_nr(NR_WRITE)));
	ior_pair_feed(r->pr, &s, sizeof s - 1);
	struct ior_pair_stats st;
	ior_pair_get_stats(r->pr, &st);
	CHECK_EQ_INT(st.t.in_flight, 0);
	CHECK_EQ_INT(st.bad_records, 1);
	rig_free(r);
}

/* The path filter applies to summary rows by the fd's path; unknown
 * syscall numbers are bad records, not rows. */
TEST(summary_rows_filtered_by_path)
{
	struct rig *r = rig_new("wanted");
	ior_fdtab_set(r->fds, 7, 3, "/work/wanted", O_RDONLY);
	ior_fdtab_set(r->fds, 7, 4, "/work/other", O_RDONLY);
	struct ior_sum_val v = { .pairs = 5, .bytes = 50, .comm = "prog" };
	struct ior_sum_key a = { 7, 7, NR_READ, 3 }, b = { 7, 7, NR_READ, 4 }, bad = { 7, 7, 499, 3 };
	ior_pair_summary(r->pr, &a, &v, 1);
	ior_pair_summary(r->pr, &b, &v, 1);
	ior_pair_summary(r->pr, &bad, &v, 1);
	CHECK_EQ_INT(r->g.n, 1);
	CHECK_EQ_STR(r->g.path[0], "/work/wanted");
	struct ior_pair_stats st;
	ior_pair_get_stats(r->pr, &st);
	CHECK_EQ_INT(st.t.pairs_seen, 10);
	CHECK_EQ_INT(st.t.pairs, 5);
	CHECK_EQ_INT(st.t.summarized, 5);
	CHECK_EQ_INT(st.bad_records, 1);
	rig_free(r);
}

/* ---- async operations (io_uring requests, libaio iocbs) ---- */

#define NR_UR_READ (IOR_NR_URING + 22)
#define NR_UR_OPENAT (IOR_NR_URING + 18)
#define NR_UR_CLOSE (IOR_NR_URING + 19)

static struct ior_rec_async_submit submit(uint64_t ts, uint32_t pid, uint32_t tid, uint16_t nr, uint64_t key,
					  int32_t fd)
{
	struct ior_rec_async_submit r = { .h = { ts, pid, tid, IOR_REC_ASYNC_SUBMIT, nr, IOR_REC_ASYNC_SUBMIT_BASE },
					  .key = key, .fd = fd, .comm = "ring", .dirfd = -1 };
	return r;
}

static struct ior_rec_async_done done(uint64_t ts, uint32_t pid, uint32_t tid, uint16_t nr, uint64_t key,
				      int64_t res)
{
	struct ior_rec_async_done d = { { ts, pid, tid, IOR_REC_ASYNC_DONE, nr, sizeof d }, key, res, 0, 0 };
	return d;
}

/* Two reads overlap a syscall on one thread and complete out of order on
 * another CPU: each is its own pair (submission to completion), charged
 * to the submitter, named through its fd table, out of the gap chain:
 * the syscalls' gaps are exactly what they are without them. */
TEST(async_ops_pair_by_key_outside_the_gap_chain)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_enter e1 = enter(100, 3, 3, NR_READ, 4, 0, 0);
	struct ior_rec_exit x1 = exit_(200, 3, 3, NR_READ, 10);
	struct ior_rec_async_submit s1 = submit(300, 3, 3, NR_UR_READ, 0xaaa0, 4);
	struct ior_rec_async_submit s2 = submit(310, 3, 3, NR_UR_READ, 0xbbb0, 4);
	struct ior_rec_enter e2 = enter(400, 3, 3, NR_READ, 4, 0, 0);
	struct ior_rec_async_done d2 = done(450, 3, 3, NR_UR_READ, 0xbbb0, 4096);
	struct ior_rec_exit x2 = exit_(500, 3, 3, NR_READ, 20);
	struct ior_rec_async_done d1 = done(700, 3, 3, NR_UR_READ, 0xaaa0, -9);
	struct ior_rec_enter e3 = enter(900, 3, 3, NR_READ, 4, 0, 0);
	struct ior_rec_exit x3 = exit_(950, 3, 3, NR_READ, 0);
	struct ior_pair_stats st;

	ior_fdtab_set(r->fds, 3, 4, "/data/f", O_RDONLY);
	push(r, 0, &e1, sizeof e1);
	push(r, 0, &x1, SHORT_EXIT);
	push(r, 0, &s1, IOR_REC_ASYNC_SUBMIT_BASE);
	push(r, 0, &s2, IOR_REC_ASYNC_SUBMIT_BASE);
	push(r, 0, &e2, sizeof e2);
	push(r, 1, &d2, sizeof d2);
	push(r, 0, &x2, SHORT_EXIT);
	push(r, 1, &d1, sizeof d1);
	push(r, 0, &e3, sizeof e3);
	push(r, 0, &x3, SHORT_EXIT);
	flush(r, 600);
	ior_pair_get_stats(r->pr, &st);
	CHECK_EQ_INT(st.t.in_flight, 1); /* 0xaaa0 is not done yet */
	flush(r, ~0ull);
	CHECK_EQ_INT(r->g.n, 5);
	CHECK_EQ_INT(r->g.p[1].sys, ior_syscall_index(ior_syscall_by_name("uring:read")));
	CHECK_EQ_INT(r->g.p[1].enter_ns, 310);
	CHECK_EQ_INT(r->g.p[1].duration_ns, 140);
	CHECK_EQ_INT(r->g.p[1].gap_ns, 0);
	CHECK_EQ_INT(r->g.p[1].bytes, 4096);
	CHECK_EQ_INT(r->g.p[1].fd, 4);
	CHECK_EQ_STR(r->g.path[1], "/data/f");
	CHECK_EQ_STR(r->g.comm[1], "ring");
	CHECK_EQ_INT(r->g.p[1].tid, 3);
	CHECK_EQ_INT(r->g.p[2].gap_ns, 200); /* read 2: from read 1's exit, not an op's */
	CHECK_EQ_INT(r->g.p[3].enter_ns, 300);
	CHECK_EQ_INT(r->g.p[3].duration_ns, 400);
	CHECK_EQ_INT(r->g.p[3].ret, -9);
	CHECK_EQ_INT(r->g.p[3].bytes, 0);
	CHECK_EQ_INT(r->g.p[3].gap_ns, 0);
	CHECK_EQ_INT(r->g.p[4].gap_ns, 400); /* read 3: from read 2's exit at 500 */
	ior_pair_get_stats(r->pr, &st);
	CHECK_EQ_INT(st.t.pairs, 5);
	CHECK_EQ_INT(st.t.in_flight, 0);
	CHECK_EQ_INT(st.t.unpaired_exits, 0);
	rig_free(r);
}

/* An openat op's fd enters the fd table (its path made absolute against
 * its dirfd); a close op takes it out; a completion without submission is
 * an unpaired exit; an op in flight at stop is listed with its file; a
 * resubmitted key whose completion was lost is an overwritten enter. */
TEST(async_open_close_unpaired_in_flight)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_async_submit so = submit(10, 3, 3, NR_UR_OPENAT, 0x10, -1);
	struct ior_rec_async_done dop = done(20, 3, 3, NR_UR_OPENAT, 0x10, 7);
	struct ior_rec_async_submit sr = submit(30, 3, 3, NR_UR_READ, 0x10, 7);
	struct ior_rec_async_done dr = done(40, 3, 3, NR_UR_READ, 0x10, 5);
	struct ior_rec_async_submit sc = submit(50, 3, 3, NR_UR_CLOSE, 0x20, 7);
	struct ior_rec_async_done dc = done(60, 3, 3, NR_UR_CLOSE, 0x20, 0);
	struct ior_rec_async_done stray = done(70, 3, 3, NR_UR_READ, 0x99, 1);
	struct ior_rec_async_submit lost = submit(80, 3, 3, NR_UR_READ, 0x30, 4);
	struct ior_rec_async_submit again = submit(90, 3, 3, NR_UR_READ, 0x30, 4);
	struct ior_in_flight f[4];
	struct ior_pair_stats st;
	int64_t fl;

	so.flags = O_RDWR | O_CREAT;
	so.dirfd = -100;
	so.path_len[0] = 5;
	so.npaths = 1;
	memcpy(so.path, "out/x", 5);
	ior_fdtab_set(r->fds, 3, 4, "/data/in", O_RDONLY);
	push(r, 0, &so, IOR_REC_ASYNC_SUBMIT_BASE + 5 + 3);
	push(r, 0, &dop, sizeof dop);
	push(r, 0, &sr, IOR_REC_ASYNC_SUBMIT_BASE);
	push(r, 0, &dr, sizeof dr);
	push(r, 0, &sc, IOR_REC_ASYNC_SUBMIT_BASE);
	push(r, 0, &dc, sizeof dc);
	push(r, 0, &stray, sizeof stray);
	push(r, 0, &lost, IOR_REC_ASYNC_SUBMIT_BASE);
	push(r, 0, &again, IOR_REC_ASYNC_SUBMIT_BASE);
	flush(r, ~0ull);
	CHECK_EQ_INT(r->g.n, 3);
	CHECK_EQ_STR(r->g.path[0], "/work/out/x");
	CHECK_EQ_INT(r->g.p[0].fd, 7);
	CHECK_EQ_INT(r->g.p[0].flags, O_RDWR | O_CREAT);
	CHECK_EQ_STR(r->g.path[1], "/work/out/x");
	CHECK_EQ_INT(r->g.p[1].bytes, 5);
	CHECK_EQ_STR(r->g.path[2], "/work/out/x");
	CHECK_EQ_STR(ior_fdtab_get(r->fds, 3, 7, &fl), "");
	ior_pair_get_stats(r->pr, &st);
	CHECK_EQ_INT(st.t.unpaired_exits, 1);
	CHECK_EQ_INT(st.t.overwritten_enters, 1);
	CHECK_EQ_INT(st.t.in_flight, 1);
	CHECK_EQ_INT(ior_pair_in_flight(r->pr, f, 4), 1);
	CHECK_EQ_INT(f[0].enter_ns, 90);
	CHECK_EQ_INT(f[0].fd, 4);
	CHECK_EQ_STR(f[0].path, "/data/in");
	CHECK_EQ_INT(f[0].sys, ior_syscall_index(ior_syscall_by_name("uring:read")));
	rig_free(r);
}

/* libaio: iocb keys are user addresses, so two processes may use the
 * same one; an iocb io_submit refused is withdrawn: no pair, no op. */
TEST(aio_keys_per_process_and_withdrawn)
{
	struct rig *r = rig_new(NULL);
	uint16_t pread_nr = IOR_NR_AIO + 0;
	struct ior_rec_async_submit a = submit(10, 3, 3, pread_nr, 0x7000, 4);
	struct ior_rec_async_submit b = submit(11, 5, 5, pread_nr, 0x7000, 4);
	struct ior_rec_async_submit c = submit(12, 3, 3, pread_nr, 0x7040, 999);
	struct ior_rec_async_done wc = done(13, 3, 3, pread_nr, 0x7040, 0);
	struct ior_rec_async_done db = done(20, 5, 5, pread_nr, 0x7000, 7);
	struct ior_rec_async_done da = done(30, 3, 3, pread_nr, 0x7000, 9);
	struct ior_pair_stats st;

	wc.more = IOR_ASYNC_DONE_WITHDRAWN;
	ior_fdtab_set(r->fds, 3, 4, "/a", O_RDONLY);
	ior_fdtab_set(r->fds, 5, 4, "/b", O_RDONLY);
	push(r, 0, &a, IOR_REC_ASYNC_SUBMIT_BASE);
	push(r, 0, &b, IOR_REC_ASYNC_SUBMIT_BASE);
	push(r, 0, &c, IOR_REC_ASYNC_SUBMIT_BASE);
	push(r, 0, &wc, sizeof wc);
	push(r, 1, &db, sizeof db);
	push(r, 1, &da, sizeof da);
	flush(r, ~0ull);
	CHECK_EQ_INT(r->g.n, 2);
	CHECK_EQ_STR(r->g.path[0], "/b");
	CHECK_EQ_INT(r->g.p[0].bytes, 7);
	CHECK_EQ_INT(r->g.p[0].duration_ns, 9);
	CHECK_EQ_STR(r->g.path[1], "/a");
	CHECK_EQ_INT(r->g.p[1].bytes, 9);
	CHECK_EQ_INT(r->g.p[1].sys, ior_syscall_index(ior_syscall_by_name("aio:pread")));
	ior_pair_get_stats(r->pr, &st);
	CHECK_EQ_INT(st.t.in_flight, 0);
	CHECK_EQ_INT(st.t.unpaired_exits, 0);
	CHECK_EQ_INT(st.t.pairs, 2);
	rig_free(r);
}

static size_t uring_files(struct ior_rec_uring_files *u, uint64_t ts, uint32_t pid, uint64_t ring, uint32_t op,
			  uint32_t offset, const int32_t *fds, uint32_t n)
{
	memset(u, 0, sizeof *u);
	u->h = (struct ior_rec_head){ ts, pid, pid, IOR_REC_URING_FILES, 0, 0 };
	u->ring = ring;
	u->op = op;
	u->offset = offset;
	u->nfds = n;
	if (n)
		memcpy(u->fds, fds, n * sizeof *fds);
	return u->h.len = IOR_REC_URING_FILES_BASE + n * sizeof *fds;
}

/* Fixed files: named through the ring's registered table as io_uring_
 * register left it (set, updated, skipped with -2, cleared), per ring;
 * a slot no table has is counted. */
TEST(fixed_files_named_through_the_ring_table)
{
	struct rig *r = rig_new(NULL);
	struct ior_rec_uring_files set, upd, clr;
	size_t ls = uring_files(&set, 5, 3, 0x5000, IOR_URING_FILES_SET, 0, (int32_t[]){ 4, -1, 5 }, 3);
	size_t lu = uring_files(&upd, 6, 3, 0x5000, IOR_URING_FILES_UPDATE, 1, (int32_t[]){ 4, -2 }, 2);
	size_t lc = uring_files(&clr, 90, 3, 0x5000, IOR_URING_FILES_CLEAR, 0, NULL, 0);
	struct ior_rec_async_submit s[5];
	struct ior_rec_async_done d[5];
	static const int32_t slot[5] = { 0, 1, 2, 3, 0 };
	static const uint64_t ring[5] = { 0x5000, 0x5000, 0x5000, 0x5000, 0x6000 };
	struct ior_pair_stats st;

	ior_fdtab_set(r->fds, 3, 4, "/f4", O_RDONLY);
	ior_fdtab_set(r->fds, 3, 5, "/f5", O_RDONLY);
	push(r, 0, &set, ls);
	push(r, 0, &upd, lu);
	for (int i = 0; i < 5; i++) {
		s[i] = submit(10 + 10 * (uint64_t)i, 3, 3, NR_UR_READ, 0x100 + (uint64_t)i, slot[i]);
		s[i].ring = ring[i];
		s[i].sqe_flags = IOR_ASYNC_FIXED;
		d[i] = done(15 + 10 * (uint64_t)i, 3, 3, NR_UR_READ, 0x100 + (uint64_t)i, 1);
		push(r, 0, &s[i], IOR_REC_ASYNC_SUBMIT_BASE);
		push(r, 0, &d[i], sizeof d[i]);
	}
	push(r, 0, &clr, lc);
	struct ior_rec_async_submit late = submit(100, 3, 3, NR_UR_READ, 0x200, 0);
	struct ior_rec_async_done late_d = done(110, 3, 3, NR_UR_READ, 0x200, 1);
	late.ring = 0x5000;
	late.sqe_flags = IOR_ASYNC_FIXED;
	push(r, 0, &late, IOR_REC_ASYNC_SUBMIT_BASE);
	push(r, 0, &late_d, sizeof late_d);
	flush(r, ~0ull);
	CHECK_EQ_INT(r->g.n, 6);
	CHECK_EQ_STR(r->g.path[0], "/f4");
	CHECK_EQ_STR(r->g.path[1], "/f4"); /* slot 1: updated from empty */
	CHECK_EQ_STR(r->g.path[2], "/f5"); /* slot 2: skipped by the update (-2) */
	CHECK_EQ_STR(r->g.path[3], "");	   /* slot 3: none */
	CHECK_EQ_STR(r->g.path[4], "");	   /* another ring */
	CHECK_EQ_STR(r->g.path[5], "");	   /* after the table was cleared */
	CHECK_EQ_INT(r->g.p[0].fd, -1);
	ior_pair_get_stats(r->pr, &st);
	CHECK_EQ_INT(st.async_fixed, 3);
	CHECK_EQ_INT(st.bad_records, 0);
	rig_free(r);
}

/* A submission with paths, placed as the kernel side places them. */
static size_t with_paths(struct ior_rec_async_submit *s, int32_t dirfd, uint64_t flags, const char *p0,
			 const char *p1)
{
	size_t n0 = strlen(p0), off = IOR_PATH1_OFF(n0), n1 = p1 ? strlen(p1) : 0;

	s->dirfd = dirfd;
	s->flags = flags;
	s->npaths = p1 ? 2 : 1;
	s->path_len[0] = (uint16_t)n0;
	s->path_len[1] = (uint16_t)n1;
	memcpy(s->path, p0, n0);
	if (p1)
		memcpy(s->path + off, p1, n1);
	return IOR_REC_ASYNC_SUBMIT_BASE + (p1 ? off + n1 : n0);
}

/* Ops that take paths name them as their syscalls do: statx and unlinkat
 * against their dirfd, renameat's second path against its second dirfd
 * (and the fd table follows the rename), linkat the same, symlinkat's
 * target as content and its link against its dirfd; a record that lies
 * about its second path's length is read only as far as it goes. */
TEST(async_path_ops_named_like_their_syscalls)
{
	struct rig *r = rig_new(NULL);
	static const char *const ops[] = { "uring:statx", "uring:unlinkat", "uring:mkdirat", "uring:renameat",
					   "uring:linkat", "uring:symlinkat", "uring:renameat" };
	struct ior_rec_async_submit s[7];
	struct ior_rec_async_done d[7];
	size_t len[7];
	int64_t fl;

	ior_fdtab_set(r->fds, 3, 8, "/w", O_RDONLY | O_DIRECTORY);
	ior_fdtab_set(r->fds, 3, 9, "/w/a", O_RDONLY);
	for (int i = 0; i < 7; i++) {
		uint16_t nr = (uint16_t)ior_syscall_by_name(ops[i])->nr;
		s[i] = submit(10 + 10 * (uint64_t)i, 3, 3, nr, 0x300 + (uint64_t)i, -1);
		d[i] = done(15 + 10 * (uint64_t)i, 3, 3, nr, 0x300 + (uint64_t)i, 0);
	}
	len[0] = with_paths(&s[0], 8, 0, "st", NULL);
	len[1] = with_paths(&s[1], -100, 0, "gone", NULL);
	len[2] = with_paths(&s[2], 8, 0, "dir", NULL);
	len[3] = with_paths(&s[3], 8, 0, "a", "b");
	s[3].fd = -100; /* newdirfd: the cwd */
	len[4] = with_paths(&s[4], -100, 0, "/w/b", "c");
	s[4].fd = 8;
	len[5] = with_paths(&s[5], 8, 0, "../target", "ln");
	len[6] = with_paths(&s[6], 8, 0, "x", "yyyy");
	s[6].fd = 8;
	s[6].path_len[1] = 60000;
	len[6] -= 2; /* the record ends two bytes into path 1 */
	for (int i = 0; i < 7; i++) {
		push(r, 0, &s[i], len[i]);
		push(r, 0, &d[i], sizeof d[i]);
	}
	flush(r, ~0ull);
	CHECK_EQ_INT(r->g.n, 7);
	CHECK_EQ_STR(r->g.path[0], "/w/st");
	CHECK_EQ_STR(r->g.path[1], "/work/gone");
	CHECK_EQ_STR(r->g.path[2], "/w/dir");
	CHECK_EQ_STR(r->g.path[3], "/w/a");
	CHECK_EQ_STR(r->g.path2[3], "/work/b");
	CHECK_EQ_INT(r->g.p[3].fd, -1); /* a dirfd is no file acted on */
	CHECK_EQ_STR(ior_fdtab_get(r->fds, 3, 9, &fl), "/work/b"); /* the open fd follows */
	CHECK_EQ_STR(r->g.path[4], "/w/b");
	CHECK_EQ_STR(r->g.path2[4], "/w/c");
	CHECK_EQ_STR(r->g.path[5], "../target");
	CHECK_EQ_STR(r->g.path2[5], "/w/ln");
	CHECK_EQ_STR(r->g.path[6], "/w/x");
	CHECK_EQ_STR(r->g.path2[6], "/w/yy");
	rig_free(r);
}

/* Direct descriptors: an openat into a fixed slot (given, or picked by
 * the kernel: the result) enters the ring's table, not the fd table;
 * later ops on the slot name its file; a close of the slot empties it;
 * an accept into a slot names the listener's connection. */
TEST(async_direct_descriptors_fill_the_ring_table)
{
	struct rig *r = rig_new(NULL);
	uint16_t nr_accept = (uint16_t)ior_syscall_by_name("uring:accept")->nr;
	struct ior_rec_async_submit o1 = submit(10, 3, 3, NR_UR_OPENAT, 0x1, -1);
	struct ior_rec_async_submit o2 = submit(20, 3, 3, NR_UR_OPENAT, 0x2, -1);
	struct ior_rec_async_submit rd[3], cl = submit(60, 3, 3, NR_UR_CLOSE, 0x6, 0);
	struct ior_rec_async_submit ac = submit(80, 3, 3, nr_accept, 0x8, 4);
	struct ior_rec_async_done d1 = done(11, 3, 3, NR_UR_OPENAT, 0x1, 0);
	struct ior_rec_async_done d2 = done(21, 3, 3, NR_UR_OPENAT, 0x2, 5); /* the slot picked */
	struct ior_rec_async_done rdd[3], cld = done(61, 3, 3, NR_UR_CLOSE, 0x6, 0);
	struct ior_rec_async_done acd = done(81, 3, 3, nr_accept, 0x8, 1);
	size_t l1 = with_paths(&o1, -100, O_RDONLY, "one", NULL), l2 = with_paths(&o2, -100, O_RDWR, "/two", NULL);
	int64_t fl;

	ior_fdtab_set(r->fds, 3, 4, "socket:TCP", O_RDWR);
	o1.file_slot = 3; /* slot 2 */
	o1.ring = o2.ring = cl.ring = ac.ring = 0x5000;
	o2.file_slot = IOR_URING_SLOT_ALLOC;
	cl.file_slot = 3;
	ac.file_slot = 2; /* slot 1 */
	push(r, 0, &o1, l1);
	push(r, 0, &d1, sizeof d1);
	push(r, 0, &o2, l2);
	push(r, 0, &d2, sizeof d2);
	static const int32_t slot[3] = { 2, 5, 2 };
	for (int i = 0; i < 3; i++) {
		rd[i] = submit(30 + 10 * (uint64_t)i + (i == 2) * 20, 3, 3, NR_UR_READ, 0x10 + (uint64_t)i, slot[i]);
		rd[i].ring = 0x5000;
		rd[i].sqe_flags = IOR_ASYNC_FIXED;
		rdd[i] = done(rd[i].h.ts + 1, 3, 3, NR_UR_READ, 0x10 + (uint64_t)i, 7);
		if (i == 2) {
			push(r, 0, &cl, IOR_REC_ASYNC_SUBMIT_BASE);
			push(r, 0, &cld, sizeof cld);
		}
		push(r, 0, &rd[i], IOR_REC_ASYNC_SUBMIT_BASE);
		push(r, 0, &rdd[i], sizeof rdd[i]);
	}
	push(r, 0, &ac, IOR_REC_ASYNC_SUBMIT_BASE);
	push(r, 0, &acd, sizeof acd);
	flush(r, ~0ull);
	CHECK_EQ_INT(r->g.n, 7);
	CHECK_EQ_STR(r->g.path[0], "/work/one");
	CHECK_EQ_INT(r->g.p[0].fd, -1);
	CHECK_EQ_INT(r->g.p[0].ret, 0);
	CHECK_EQ_STR(ior_fdtab_get(r->fds, 3, 0, &fl), ""); /* no fd entered */
	CHECK_EQ_STR(r->g.path[1], "/two");
	CHECK_EQ_STR(ior_fdtab_get(r->fds, 3, 5, &fl), "");
	CHECK_EQ_STR(r->g.path[2], "/work/one"); /* fixed slot 2 */
	CHECK_EQ_STR(r->g.path[3], "/two");      /* the slot the kernel picked */
	CHECK_EQ_STR(r->g.path[4], "/work/one"); /* the close names its slot */
	CHECK_EQ_INT(r->g.p[4].fd, -1);
	CHECK_EQ_STR(r->g.path[5], "");          /* slot 2 after its close */
	CHECK_EQ_STR(r->g.path[6], "socket:TCP"); /* the listener's connection, in slot 1 */
	/* in flight on a slot: listed with the slot's file, no fd */
	struct ior_rec_async_submit hang = submit(90, 3, 3, NR_UR_READ, 0x40, 5);
	struct ior_in_flight f[2];
	struct ior_pair_stats st;
	hang.ring = 0x5000;
	hang.sqe_flags = IOR_ASYNC_FIXED;
	push(r, 0, &hang, IOR_REC_ASYNC_SUBMIT_BASE);
	flush(r, ~0ull);
	CHECK_EQ_INT(ior_pair_in_flight(r->pr, f, 2), 1);
	CHECK_EQ_INT(f[0].fd, -1);
	CHECK_EQ_STR(f[0].path, "/two");
	ior_pair_get_stats(r->pr, &st);
	CHECK_EQ_INT(st.async_in_flight, 1);
	CHECK_EQ_INT(st.t.in_flight, 1);
	rig_free(r);
}

/* A socket op names its fd or direct slot as the socket syscall does
 * (domain and type from the request); fixed_fd_install enters a slot's
 * file in the fd table as a new fd, its open flags with O_CLOEXEC as
 * the op asked (set unless IORING_FIXED_FD_NO_CLOEXEC), and later ops on
 * that fd name it; a failed install or one of an unknown slot enters
 * nothing known. */
TEST(async_socket_and_fixed_fd_install)
{
	struct rig *r = rig_new(NULL);
	uint16_t nr_sock = (uint16_t)ior_syscall_by_name("uring:socket")->nr;
	uint16_t nr_inst = (uint16_t)ior_syscall_by_name("uring:fixed_fd_install")->nr;
	struct ior_rec_async_submit sk = submit(10, 3, 3, nr_sock, 0x1, 1), sd = submit(20, 3, 3, nr_sock, 0x2, 2);
	struct ior_rec_async_submit op = submit(30, 3, 3, NR_UR_OPENAT, 0x3, -1);
	struct ior_rec_async_submit i1 = submit(40, 3, 3, nr_inst, 0x4, 1), i2 = submit(50, 3, 3, nr_inst, 0x5, 2);
	struct ior_rec_async_submit i3 = submit(60, 3, 3, nr_inst, 0x6, 3), i4 = submit(70, 3, 3, nr_inst, 0x7, 1);
	struct ior_rec_async_done d[7] = {
		done(11, 3, 3, nr_sock, 0x1, 0), done(21, 3, 3, nr_sock, 0x2, 7), done(31, 3, 3, NR_UR_OPENAT, 0x3, 0),
		done(41, 3, 3, nr_inst, 0x4, 8), done(51, 3, 3, nr_inst, 0x5, 9), done(61, 3, 3, nr_inst, 0x6, 10),
		done(71, 3, 3, nr_inst, 0x7, -EBADF),
	};
	struct ior_rec_enter e = enter(80, 3, 3, NR_READ, 9, 0, 0);
	struct ior_rec_exit x = exit_(90, 3, 3, NR_READ, 5);
	size_t lo = with_paths(&op, -100, O_RDONLY | O_LARGEFILE, "/f", NULL);
	struct ior_rec_async_submit *subs[7] = { &sk, &sd, &op, &i1, &i2, &i3, &i4 };
	int64_t fl;

	sk.dirfd = sd.dirfd = AF_INET; /* domain */
	sk.flags = SOCK_STREAM | SOCK_CLOEXEC, sd.flags = SOCK_DGRAM | SOCK_NONBLOCK; /* type */
	sk.file_slot = 2; /* slot 1 */
	op.file_slot = 1; /* slot 0 */
	i1.sqe_flags = i2.sqe_flags = i3.sqe_flags = i4.sqe_flags = IOR_ASYNC_FIXED;
	i1.fd = 1, i2.fd = 0, i3.fd = 3, i4.fd = 1; /* slots */
	i1.flags = 0;                          /* IORING_FIXED_FD_NO_CLOEXEC */
	i2.flags = i3.flags = i4.flags = O_CLOEXEC;
	for (int i = 0; i < 7; i++) {
		subs[i]->ring = 0x5000;
		push(r, 0, subs[i], i == 2 ? lo : IOR_REC_ASYNC_SUBMIT_BASE);
		push(r, 0, &d[i], sizeof d[i]);
	}
	push(r, 0, &e, sizeof e);
	push(r, 0, &x, SHORT_EXIT);
	flush(r, ~0ull);
	CHECK_EQ_INT(r->g.n, 8);
	CHECK_EQ_STR(r->g.path[0], "socket:tcp"); /* into slot 1: no fd */
	CHECK_EQ_INT(r->g.p[0].fd, -1);
	CHECK_EQ_STR(r->g.path[1], "socket:udp"); /* a plain fd, 7 */
	CHECK_EQ_INT(r->g.p[1].fd, 7);
	CHECK_EQ_STR(ior_fdtab_get(r->fds, 3, 7, &fl), "socket:udp");
	CHECK_EQ_INT(fl, O_RDWR | O_NONBLOCK);
	CHECK_EQ_STR(r->g.path[3], "socket:tcp"); /* slot 1 as fd 8, without O_CLOEXEC */
	CHECK_EQ_INT(r->g.p[3].fd, 8);
	CHECK_EQ_STR(ior_fdtab_get(r->fds, 3, 8, &fl), "socket:tcp");
	CHECK_EQ_INT(fl, O_RDWR);
	CHECK_EQ_STR(r->g.path[4], "/f"); /* slot 0 as fd 9, with it */
	CHECK_EQ_INT(r->g.p[4].fd, 9);
	CHECK_EQ_INT(r->g.p[4].flags, O_RDONLY | O_LARGEFILE | O_CLOEXEC);
	CHECK_EQ_STR(r->g.path[5], ""); /* slot 3 holds nothing known: fd 10 unknown */
	CHECK_EQ_INT(r->g.p[5].fd, 10);
	CHECK_EQ_STR(ior_fdtab_get(r->fds, 3, 10, &fl), "");
	CHECK_EQ_STR(r->g.path[6], "socket:tcp"); /* a failed install: no fd */
	CHECK_EQ_INT(r->g.p[6].fd, -1);
	CHECK_EQ_STR(r->g.path[7], "/f"); /* read(9): the installed file */
	rig_free(r);
}

int main(void)
{
	RUN(enter_and_exit_on_different_cpus_exit_first);
	RUN(async_socket_and_fixed_fd_install);
	RUN(async_path_ops_named_like_their_syscalls);
	RUN(async_direct_descriptors_fill_the_ring_table);
	RUN(long_paths_whole_and_cut);
	RUN(unpaired_overwritten_mismatched_counted);
	RUN(thread_reuse_after_exit_starts_fresh);
	RUN(comm_ids_follow_the_comm);
	RUN(open_read_close_resolve_file);
	RUN(sockets_and_epolls_are_named);
	RUN(path_filter_counts_but_hides);
	RUN(lifecycle_records);
	RUN(opened_files_get_canonical_names);
	RUN(enters_of_gone_threads_are_not_in_flight);
	RUN(hidden_syscalls_keep_fds_but_are_not_pairs);
	RUN(truncated_records_are_bad_not_read);
	RUN(exits_after_stop_are_not_unpaired);
	RUN(late_record_counted);
	RUN(merge_sorts_within_a_cpu_and_forces_when_full);
	RUN(streak_completes_gaps_and_summaries_are_rows);
	RUN(streak_edges);
	RUN(summary_rows_filtered_by_path);
	RUN(async_ops_pair_by_key_outside_the_gap_chain);
	RUN(async_open_close_unpaired_in_flight);
	RUN(aio_keys_per_process_and_withdrawn);
	RUN(fixed_files_named_through_the_ring_table);
	return t_done();
}
