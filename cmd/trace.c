/* ior's trace command: load bpf.c, attach it to the selected syscall
 * tracepoints, then one consumer thread loops drain -> merge -> pair ->
 * sinks (-plain CSV, -flamegraph recording, -live flamegraph) until Ctrl-C,
 * SIGTERM, SIGHUP, the -duration, or a closed stdout. One thread owns every stage,
 * so the hot path takes no lock; the kernel side fills per-CPU rings in
 * parallel. Mode wiring: it uses loader/, trace/, flame/ and http/. (The
 * drain, summaries and statistics belong in trace/ behind a sink
 * interface; they move there next.)
 *
 * -live: every pair is added to an in-memory aggregate (flame/live.h, the
 * -ior=FILE aggregation, bounded by its key cap). The embedded HTTP server
 * serves "/" (http's reload page) and LIVE_SVG_ROUTE. Its fds join the
 * rings' poll, and ior_http_poll(srv, 0) runs when one is ready or every
 * HTTP_TICK_NS for its deadlines, so serving never blocks the drain. The
 * SVG is regenerated on this thread at most every LIVE_INTERVAL_NS and only
 * when pairs arrived; the page reloads it every LIVE_PAGE_S seconds. A
 * polling page rather than SSE push: no connection held per open tab, and a
 * failed reload (ior stopped) keeps the last graph on screen. */
#include "trace/clock.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "flame/live.h"
#include "http/http.h"
#include "loader/loader.h"
#include "opts.h"
#include "trace/csv.h"
#include "trace/event.h"
#include "trace/fdtab.h"
#include "trace/snapshot.h"
#include "trace/canon.h"
#include "trace/kfields.h"
#include "trace/merge.h"
#include "trace/pair.h"
#include "trace/rec.h"
#include "trace/ring.h"
#include "trace/select.h"
#include "trace/summary.h"
#include "trace/syscalls.h"

#define POLL_MS 75                  /* timed poll: latency bound at low rates */
#define SLACK_NS 5000000ull         /* a record's ts may precede its ring write by this much */
#define STDOUT_FLUSH_NS 1000000000ull
#define MIN_RING_BYTES (64u << 10)
#define MAX_CPUS 1024               /* size of bpf.c's events map */
#define IN_FLIGHT_SHOWN 10
#define FD_ENTRIES 65536
#define PROC_ENTRIES 16384
#define CANON_ENTRIES 16384             /* opened paths whose canonical name is cached */
#define LIVE_INTERVAL_NS 2000000000ull /* least time between two live SVGs */
#define LIVE_PAGE_S 2                   /* the live page reloads this often */
#define LIVE_SVG_ROUTE "/live.svg"
#define HTTP_TICK_NS 100000000ull       /* server deadlines checked this often */
#define FLUSH_TRIES 1000                /* ior_flush retries while a CPU's batch is busy */
#define SUMMARY_NS 1000000000ull        /* the summary map is read this often */

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}


/* ---- the trace ----------------------------------------------------------- */

struct trace {
	const struct ior_opts *o;
	enum ior_escape esc;
	unsigned char sel[IOR_NR_MAX];
	unsigned nsel;
	struct ior_bpf_obj *obj;
	int *tp_fds;               /* attached perf events (closing detaches) */
	unsigned ntp;
	unsigned nattached;        /* syscalls with enter and exit attached */
	struct ior_ring *rings;
	int *ring_cpu;
	unsigned nrings;
	struct ior_merge *merge;
	struct ior_fdtab *fds;
	struct ior_pairer *pairer;
	struct ior_rec_writer *rec;
	char rec_path[PATH_MAX];
	int merge_full;
	uint64_t forced_flushes;
	int use_btf;                /* attach the tp_btf programs (else the raw ones) */
	int task_offsets;           /* task_struct's pid/tgid offsets known: forks tracked */
	int file_idents;            /* opens carry the file's identity: fds get canonical names */
	struct ior_canon *canon;
	int flush_fd;               /* bpf.c's ior_flush program */
	int flush_error;            /* errno of a failed flush, warned once */
	uint64_t flush_busy;        /* flushes given up: the batch stayed busy */
	uint64_t malformed_samples; /* samples whose records do not add up */
	unsigned char *ring_full;   /* per ring: its CPU's batch is held (ring full) */
	struct ior_sumtab *sums;    /* what the summary map held at the last read */
	uint64_t sums_read_ns;
	uint64_t sums_untracked;    /* summary keys past what user space could remember */
	uint64_t csv_summarized;    /* -plain: pairs summarized, not printed as rows, since the last note */
	uint64_t summary_in_flight; /* summarized enters without exit at stop */
	int out_error;             /* errno of a failed stdout write */
	int rec_error;
	uint64_t rows_since_flush;
	uint64_t start_ns, stop_ns;
	struct ior_flame_spec spec;  /* -live: -fields and -count */
	struct ior_flame_live *live;
	struct ior_http *http;       /* NULL once stopped (or failed) */
	uint64_t http_polled_ns;
	int live_error;              /* errno of the first failed update, warned once */
	uint64_t live_failed;        /* pairs the live aggregate could not count */
	struct ior_snapshot_stats snap;
	char err[1024];
};

/* -plain rows are formatted straight into one buffer and handed to stdio
 * a few hundred KiB at a time: a row's own fwrite (a lock check and a
 * memcpy) cost a fifth of the row. flush_stdout empties it first. */
#define CSV_BUF_BYTES (256u << 10)
static char csv_buf[CSV_BUF_BYTES];
static size_t csv_len;

static void csv_out(struct trace *t)
{
	if (!csv_len || t->out_error)
		return;
	errno = 0; /* a failed write's errno, not an older one */
	if (fwrite(csv_buf, 1, csv_len, stdout) != csv_len || ferror(stdout))
		t->out_error = errno ? errno : EIO;
	csv_len = 0;
}

static void sink(void *ctx, const struct ior_event_pair *p)
{
	struct trace *t = ctx;

	if (t->o->plain && p->summary) {
		t->csv_summarized += p->pairs; /* no fabricated row: said on stderr */
	} else if (t->o->plain && !t->out_error) {
		_Static_assert(CSV_BUF_BYTES > IOR_CSV_ROW_MAX, "a row fits the buffer");
		if (CSV_BUF_BYTES - csv_len < IOR_CSV_ROW_MAX)
			csv_out(t);
		csv_len += ior_csv_format_pair(csv_buf + csv_len, p, t->esc);
		t->rows_since_flush++;
	}
	if (t->rec && !t->rec_error) {
		int r = ior_rec_write(t->rec, p);
		if (r < 0)
			t->rec_error = -r;
	}
	if (t->live && ior_flame_live_add(t->live, p) < 0)
		t->live_failed++;
}

static void deliver(void *ctx, const void *rec, size_t len)
{
	struct trace *t = ctx;
	ior_pair_feed(t->pairer, rec, len);
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("ior: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs(" (see ior -help)\n", stderr);
	return 2;
}

static int check_opts(struct trace *t)
{
	const struct ior_opts *o = t->o;
	char n[32];

	if (ior_csv_parse_escape(o->escape, &t->esc))
		return usage_error("-escape \"%s\": want auto, always or never", o->escape);
	if (strlen(o->comm) >= IOR_COMM_LEN)
		return usage_error("-comm \"%s\": longer than a command name can be (15 bytes)", o->comm);
	snprintf(n, sizeof n, "%llu", (unsigned long long)o->map_size);
	if (o->map_size > (1ull << 30))
		return usage_error("-mapSize %s: at most 1G per CPU", n);
	if (o->map_size && o->map_size < MIN_RING_BYTES)
		return usage_error("-mapSize %s: at least 64K (a ring holds whole batches of up to 8 KiB)", n);
	if (o->map_size && (o->map_size & (o->map_size - 1)))
		return usage_error("-mapSize %s: must be a power of two (e.g. 256K, 1M, 4M)", n);
	if (!o->plain && !o->flamegraph && !o->live && !o->bench_empty)
		return usage_error("%snothing to do: add -plain (CSV on stdout), -flamegraph (recording) "
				   "or -live (flamegraph served over HTTP)", "");
	if (o->live && o->nohttp)
		return usage_error("%s-live serves its flamegraph over HTTP: drop -nohttp", "");
	if (o->live && ior_flame_spec_parse(&t->spec, o->fields, o->count, t->err, sizeof t->err))
		return usage_error("%s", t->err);
	return 0;
}

/* Default ring size: 8 MiB per CPU absorbs a core issuing syscalls flat
 * out (~60 ms of records: 128 bytes a pair, 1.1 M pairs/s per CPU here)
 * while ior is descheduled: with 4 MiB, a 2-CPU
 * VM whose host took CPU 0 away lost a few hundred records in one of the
 * bench's runs. On larger machines the total stays near 32 MiB of locked
 * kernel memory, never below 256 KiB per CPU. */
static uint64_t default_ring_bytes(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t n = 8u << 20;

	while (n > (256u << 10) && cpus > 0 && n * (uint64_t)cpus > (32u << 20))
		n >>= 1;
	return n;
}

/* Bytes per ring: -mapSize (a power of two, at least MIN_RING_BYTES), or
 * the default when -mapSize is 0. */
static uint64_t ring_bytes(const struct ior_opts *o)
{
	return o->map_size ? o->map_size : default_ring_bytes();
}

static int check_targets(const struct ior_opts *o)
{
	char p[64];

	if (o->pid >= 0) {
		snprintf(p, sizeof p, "/proc/%lld", (long long)o->pid);
		if (o->pid > INT_MAX || access(p, F_OK)) {
			fprintf(stderr, "ior: -pid %lld: no such process\n", (long long)o->pid);
			return 1;
		}
	}
	if (o->tid >= 0) {
		snprintf(p, sizeof p, "/proc/%lld", (long long)o->tid);
		if (o->tid > INT_MAX || access(p, F_OK)) {
			fprintf(stderr, "ior: -tid %lld: no such thread\n", (long long)o->tid);
			return 1;
		}
	}
	return 0;
}

static int set_globals(struct trace *t)
{
	const struct ior_opts *o = t->o;
	uint32_t self = (uint32_t)getpid(), comm_len = (uint32_t)strlen(o->comm);
	int64_t pid = o->pid, tid = o->tid;
	char comm[IOR_COMM_LEN] = { 0 };
	int r;

	memcpy(comm, o->comm, comm_len);
	r = ior_loader_set_global(t->obj, "ior_pid", &self, sizeof self, t->err, sizeof t->err);
	if (!r)
		r = ior_loader_set_global(t->obj, "filter_pid", &pid, sizeof pid, t->err, sizeof t->err);
	if (!r)
		r = ior_loader_set_global(t->obj, "filter_tid", &tid, sizeof tid, t->err, sizeof t->err);
	if (!r)
		r = ior_loader_set_global(t->obj, "filter_comm_len", &comm_len, sizeof comm_len,
					  t->err, sizeof t->err);
	if (!r)
		r = ior_loader_set_global(t->obj, "filter_comm", comm, sizeof comm, t->err, sizeof t->err);
	return r;
}

/* Syscalls the fd table needs (ior_syscall_keeps_fds) are traced even when
 * -tps leaves them out: their pairs stay hidden (struct ior_pair_cfg.visible). */
static int fill_sys_conf(struct trace *t)
{
	int fd = ior_loader_map_fd(t->obj, "sys_conf");

	if (fd < 0) {
		snprintf(t->err, sizeof t->err, "map 'sys_conf': not in the BPF object: %s", strerror(-fd));
		return fd;
	}
	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		const struct ior_syscall *s = &ior_syscalls[i];
		struct ior_sys_conf c = {
			.traced = 1, .fd_arg = s->fd_arg, .flags_arg = s->flags_arg,
			.aux_arg = s->aux_arg, .path_arg = { s->path_arg[0], s->path_arg[1] },
			.flags_is_open_how = s->flags_is_open_how, .ret_is_fd = s->cls == IOR_SC_OPEN,
			/* what changes the fd table is never summarized: later
			 * pairs are named by it */
			.fold = t->sel[i] && !ior_syscall_keeps_fds(s),
			.ret_is_bytes = s->cls == IOR_SC_READ || s->cls == IOR_SC_WRITE ||
					s->cls == IOR_SC_TRANSFER,
		};
		uint32_t key = s->nr;
		int r;
		if (!t->sel[i] && !ior_syscall_keeps_fds(s))
			continue;
		r = ior_sys_map_update_elem(fd, &key, &c, 0);
		if (r < 0) {
			snprintf(t->err, sizeof t->err, "map 'sys_conf': update of %s: %s", s->name, strerror(-r));
			return r;
		}
	}
	return 0;
}

static void drop_missing(struct trace *t);
static int fail(struct trace *t, int r, const char *what);

static int load(struct trace *t)
{
	struct ior_load_opts lo = { .verbose = t->o->verbose };
	const char *w;
	int r;

	r = ior_loader_open(ior_bpf_object, (size_t)(ior_bpf_object_end - ior_bpf_object), &t->obj,
			    t->err, sizeof t->err);
	if (!r)
		r = set_globals(t);
	if (!r && !t->o->bench_empty) {
		char why[256];
		t->use_btf = t->task_offsets = ior_kfields_set(t->obj, why, sizeof why);
		if (!t->use_btf)
			fprintf(stderr, "ior: warning: %s; tracing with raw tracepoints (slower)\n", why);
		else if (!(t->file_idents = ior_kfields_set_ident(t->obj, why, sizeof why)))
			fprintf(stderr, "ior: warning: %s; fds are named by the path their open used "
					"(symlinks not resolved)\n", why);
	}
	lo.skip_tp_btf = !t->use_btf;
	if (!r)
		r = ior_loader_load(t->obj, &lo, t->err, sizeof t->err);
	if (!r && t->use_btf)
		t->use_btf = ior_loader_prog_fd(t->obj, "ior_btf_enter") >= 0 &&
			     ior_loader_prog_fd(t->obj, "ior_btf_exit") >= 0;
	if (!r && (w = ior_loader_warning(t->obj)))
		fprintf(stderr, "ior: warning: %s\n", w);
	if (!r)
		drop_missing(t);
	if (!r && !t->nattached)
		return snprintf(t->err, sizeof t->err, "none of the selected syscalls has a tracepoint on this kernel"), -ENOENT;
	if (!r && !t->o->bench_empty)
		r = fill_sys_conf(t);
	if (!r)
		t->flush_fd = ior_loader_prog_fd(t->obj, "ior_flush");
	return r;
}

/* Reads /sys/devices/system/cpu/possible ("0-7", "0,2-3"): returns the
 * highest possible CPU + 1 and sets *index (when not NULL) to the number
 * of possible CPUs below cpu, where a per-CPU map lookup puts cpu's value
 * (the kernel packs the possible CPUs in order), -1 when cpu is not one.
 * Not sysconf: musl answers with the affinity mask, and under taskset ior
 * would miss the CPUs it does not run on. */
static long possible_scan(int cpu, long *index)
{
	char buf[256];
	long n = 0, below = 0;
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");

	if (index)
		*index = -1;
	if (f) {
		if (fgets(buf, sizeof buf, f))
			for (char *p = buf; *p;) {
				char *end;
				long lo = strtol(p, &end, 10), hi = lo;
				if (end == p)
					break;
				if (*end == '-')
					hi = strtol(end + 1, &end, 10);
				if (index && cpu >= lo && cpu <= hi)
					*index = below + (cpu - lo);
				below += hi >= lo ? hi - lo + 1 : 0;
				if (hi + 1 > n)
					n = hi + 1;
				p = end + strspn(end, ", \n");
			}
		fclose(f);
	}
	return n > 0 ? n : -1;
}

/* Without the sysfs list, the configured count (opening rings only: a
 * per-CPU map read needs the kernel's exact count, see push_batch_leftovers). */
static long possible_cpus(void)
{
	long n = possible_scan(-1, NULL);
	return n > 0 ? n : sysconf(_SC_NPROCESSORS_CONF);
}

/* One ring per online CPU, stored in the events map at the CPU's index. */
static int open_rings(struct trace *t)
{
	long ncpu = possible_cpus();
	uint64_t size = ring_bytes(t->o);
	int map = ior_loader_map_fd(t->obj, "events");

	if (ncpu < 1)
		ncpu = 1;
	if (ncpu > MAX_CPUS)
		ncpu = MAX_CPUS;
	if (map < 0) {
		snprintf(t->err, sizeof t->err, "map 'events': not in the BPF object: %s", strerror(-map));
		return map;
	}
	t->rings = calloc((size_t)ncpu, sizeof *t->rings);
	t->ring_cpu = calloc((size_t)ncpu, sizeof *t->ring_cpu);
	t->ring_full = calloc((size_t)ncpu, 1);
	if (!t->rings || !t->ring_cpu || !t->ring_full)
		return snprintf(t->err, sizeof t->err, "out of memory for %ld rings", ncpu), -ENOMEM;
	for (int cpu = 0; cpu < ncpu; cpu++) {
		struct ior_ring *r = &t->rings[t->nrings];
		uint32_t key = (uint32_t)cpu;
		int e = ior_ring_open(r, cpu, size, (uint32_t)(size / 4), t->err, sizeof t->err);
		if (e == -ENODEV || e == -EINVAL) /* offline CPU: nothing runs there */
			continue;
		if (e < 0)
			return e;
		e = ior_sys_map_update_elem(map, &key, &r->fd, 0);
		if (e < 0) {
			snprintf(t->err, sizeof t->err, "map 'events': storing the ring of CPU %d: %s",
				 cpu, strerror(-e));
			ior_ring_close(r);
			return e;
		}
		t->ring_cpu[t->nrings++] = cpu;
	}
	if (!t->nrings)
		return snprintf(t->err, sizeof t->err, "no perf ring could be opened"), -ENODEV;
	return 0;
}

/* BPF_RAW_TRACEPOINT_OPEN: the returned fd holds the attachment. A tp_btf
 * program names its tracepoint at load, so tp is not passed for it. */
static int raw_attach(struct trace *t, const char *prog, const char *tp, int btf)
{
	union bpf_attr a;
	int pfd = ior_loader_prog_fd(t->obj, prog), fd;

	if (pfd < 0) {
		snprintf(t->err, sizeof t->err, "prog '%s': not in the BPF object", prog);
		return pfd;
	}
	memset(&a, 0, sizeof a);
	a.raw_tracepoint.name = btf ? 0 : (uint64_t)(uintptr_t)tp;
	a.raw_tracepoint.prog_fd = (uint32_t)pfd;
	fd = (int)syscall(SYS_bpf, BPF_RAW_TRACEPOINT_OPEN, &a, sizeof a);
	if (fd < 0) {
		int e = errno;
		snprintf(t->err, sizeof t->err, "raw tracepoint '%s' (prog '%s'): %s", tp, prog, strerror(e));
		return -e;
	}
	t->tp_fds[t->ntp++] = fd;
	return 0;
}

/* Drops selected syscalls whose tracepoints this kernel lacks (one warning
 * line names them all), so sys_conf and the count tell the truth. */
static void drop_missing(struct trace *t)
{
	char missing[2048] = "", tp[96], why[256];

	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		if (!t->sel[i])
			continue;
		snprintf(tp, sizeof tp, "sys_enter_%s", ior_syscalls[i].name);
		int r = ior_loader_tracepoint_id("syscalls", tp, why, sizeof why);
		if (r >= 0) {
			t->nattached++;
			continue;
		}
		if (r != -ENOENT) { /* no tracefs: cannot tell, trace them all */
			fprintf(stderr, "ior: warning: cannot check which syscalls this kernel has: %s\n", why);
			t->nattached = 0;
			for (unsigned j = 0; j < ior_nsyscalls; j++)
				t->nattached += t->sel[j];
			return;
		}
		t->sel[i] = 0;
		size_t n = strlen(missing);
		snprintf(missing + n, sizeof missing - n, "%s%s", n ? ", " : "", ior_syscalls[i].name);
	}
	if (missing[0])
		fprintf(stderr, "ior: warning: tracepoints missing on this kernel, not traced: %s\n", missing);
}

/* Two raw tracepoints serve every syscall (bpf.c explains why not one perf
 * tracepoint per syscall); sched_process_exit frees per-thread state. Exit
 * is attached before enter so no enter of ours misses its exit. */
static int attach(struct trace *t)
{
	int bench = t->o->bench_empty, btf = t->use_btf, r;

	t->tp_fds = calloc(5, sizeof *t->tp_fds);
	if (!t->tp_fds)
		return snprintf(t->err, sizeof t->err, "out of memory"), -ENOMEM;
	r = raw_attach(t, bench ? "ior_raw_empty" : btf ? "ior_btf_exit" : "ior_raw_exit", "sys_exit", btf);
	if (!r)
		r = raw_attach(t, bench ? "ior_raw_empty" : btf ? "ior_btf_enter" : "ior_raw_enter",
			       "sys_enter", btf);
	if (!r && !bench)
		r = raw_attach(t, "ior_raw_task_exit", "sched_process_exit", 0);
	if (!r && !bench)
		r = raw_attach(t, "ior_raw_exec", "sched_process_exec", 0);
	if (!r && !bench && t->task_offsets)
		r = raw_attach(t, "ior_raw_fork", "sched_process_fork", 0);
	if (!r) { /* detach order: enter, then exit */
		int x = t->tp_fds[0];
		t->tp_fds[0] = t->tp_fds[1];
		t->tp_fds[1] = x;
	}
	return r;
}

/* Enter first, so syscalls in progress still deliver their exits; the
 * pairing learns when enters stopped. */
static void detach(struct trace *t)
{
	for (unsigned i = 0; i < t->ntp; i++) {
		close(t->tp_fds[i]);
		if (i == 0 && t->pairer)
			ior_pair_stop_enters(t->pairer, ior_mono_ns());
	}
	t->ntp = 0;
}

/* ---- -live: the aggregate and its server --------------------------------- */

/* Renders the SVG when due and serves it; a failure is warned about once
 * and the page keeps showing the last graph. */
static void publish_live(struct trace *t, uint64_t now)
{
	size_t len;
	int r = ior_flame_live_tick(t->live, now);

	if (r > 0) {
		const char *svg = ior_flame_live_svg(t->live, &len);
		r = ior_http_set(t->http, LIVE_SVG_ROUTE, "image/svg+xml", svg, len);
	}
	if (r < 0 && !t->live_error) {
		t->live_error = -r;
		fprintf(stderr, "ior: warning: live flamegraph not updated: %s (the page keeps the last one)\n",
			strerror(-r));
	}
}

static int64_t realtime_offset_ns(void)
{
	struct timespec rt;

	clock_gettime(CLOCK_REALTIME, &rt);
	return (int64_t)rt.tv_sec * 1000000000ll + rt.tv_nsec - (int64_t)ior_mono_ns();
}

/* The aggregate, the server, its page and a first (empty) SVG. Returns 0,
 * or 1 after printing why. */
static int open_live(struct trace *t)
{
	struct ior_flame_live_cfg cfg = { .spec = t->spec, .interval_ns = LIVE_INTERVAL_NS };
	char fields[128], title[200];
	struct utsname u;
	size_t len;
	char *page;
	int r;

	cfg.host = uname(&u) ? NULL : u.nodename;
	cfg.realtime_offset_ns = realtime_offset_ns();
	if ((r = ior_flame_live_new(&t->live, &cfg)) < 0)
		return t->err[0] = 0, fail(t, r, "setting up the live flamegraph");
	if (ior_http_open(&t->http, t->o->http_addr, t->err, sizeof t->err) < 0) {
		fprintf(stderr, "ior: live flamegraph: %s (try -http=127.0.0.1:0)\n", t->err);
		return 1;
	}
	ior_flame_fields_str(&t->spec, ',', fields, sizeof fields);
	snprintf(title, sizeof title, "ior -live: %s by %s", fields, ior_flame_metric_name(t->spec.metric));
	page = ior_http_reload_page(LIVE_SVG_ROUTE, title, LIVE_PAGE_S, &len);
	r = page ? ior_http_set(t->http, "/", "text/html; charset=utf-8", page, len) : -errno;
	free(page);
	if (r < 0)
		return t->err[0] = 0, fail(t, r, "setting up the live page");
	publish_live(t, ior_mono_ns());
	return 0;
}

static bool any_ready(const struct pollfd *pfd, nfds_t n)
{
	for (nfds_t i = 0; i < n; i++)
		if (pfd[i].revents)
			return true;
	return false;
}

/* After a drain: a new SVG when due, then whatever the server's fds (in
 * pfd[0..n)) have ready, and its deadlines now and then. */
static void serve_live(struct trace *t, const struct pollfd *pfd, nfds_t n, uint64_t now)
{
	publish_live(t, now);
	if (!any_ready(pfd, n) && now - t->http_polled_ns < HTTP_TICK_NS)
		return;
	t->http_polled_ns = now;
	int r = ior_http_poll(t->http, 0);
	if (r < 0) {
		fprintf(stderr, "ior: warning: the live flamegraph's HTTP server failed: %s; tracing goes on without it\n",
			strerror(-r));
		ior_http_close(t->http);
		t->http = NULL;
	}
}

static void stop_serving(struct trace *t)
{
	ior_http_close(t->http);
	t->http = NULL;
}

/* ---- the consumer loop -------------------------------------------------- */

struct push_ctx {
	struct trace *t;
	unsigned src;
};

/* One perf sample: its records go into the merge whole or not at all. */
static int push(void *ctx, const void *raw, size_t len)
{
	struct push_ctx *c = ctx;
	struct trace *t = c->t;
	int r = ior_merge_push_sample(t->merge, c->src, raw, len);

	if (r == -ENOSPC) {
		t->merge_full = 1;
		return 1; /* stop: flush, then this sample is read again */
	}
	if (r == -EBADMSG)
		t->malformed_samples++;
	return 0;
}

/* At stop, after detach: what the CPUs' batches still hold, read from the
 * map and merged after the rest of each CPU's records. Nothing when the
 * last ior_flush worked; on kernels where it cannot run (< 5.10) these
 * are the records of each CPU's last partial batch. */
static void push_batch_leftovers(struct trace *t)
{
	int fd = ior_loader_map_fd(t->obj, "batches");
	long ncpu = possible_scan(-1, NULL); /* the kernel writes this many values */
	size_t stride = (sizeof(struct ior_batch) + 7) & ~(size_t)7;
	uint32_t zero = 0;
	char *all;
	int r;

	if (fd < 0)
		return;
	if (ncpu <= 0) {
		fprintf(stderr, "ior: warning: /sys/devices/system/cpu/possible unreadable: records the CPUs' "
				"batches held at stop are not read (mount sysfs)\n");
		return;
	}
	all = calloc((size_t)ncpu, stride);
	r = all ? ior_sys_map_lookup_elem(fd, &zero, all) : -ENOMEM;
	if (r) {
		fprintf(stderr, "ior: warning: reading the BPF batches at stop: %s; records a CPU had "
				"not sent yet are missing\n", strerror(-r));
		free(all);
		return;
	}
	for (unsigned i = 0; i < t->nrings; i++) {
		struct push_ctx ctx = { t, i };
		long at;
		const struct ior_batch *b;
		uint32_t len;

		possible_scan(t->ring_cpu[i], &at);
		if (at < 0 || at >= ncpu)
			continue;
		b = (const void *)(all + (size_t)at * stride);
		len = b->len < IOR_BATCH_BYTES ? b->len : IOR_BATCH_BYTES;
		if (len && push(&ctx, b->data, len)) { /* merge full: deliver, then again */
			ior_merge_flush(t->merge, UINT64_MAX, deliver, t);
			push(&ctx, b->data, len);
		}
	}
	free(all);
}

/* Sends what each CPU's batch holds to its ring (bpf.c, ior_flush), so a
 * drain that starts afterwards sees every record older than the call. */
static void flush_batches(struct trace *t)
{
	for (unsigned i = 0; i < t->nrings && t->flush_fd >= 0; i++) {
		uint32_t busy = 1;
		int r = 0;
		for (int n = 0; n < FLUSH_TRIES && busy == 1 && !r; n++)
			r = ior_sys_prog_run_on_cpu(t->flush_fd, t->ring_cpu[i], &busy);
		if (r == -ENXIO) /* went offline: nothing runs there */
			continue;
		if (r < 0 && !t->flush_error) {
			t->flush_error = -r;
			fprintf(stderr, "ior: warning: flushing the BPF batch of CPU %d: %s; records "
					"wait until the batch fills\n", t->ring_cpu[i], strerror(-r));
		}
		if (!r && busy == 1)
			t->flush_busy++;
		if (t->ring_full)
			t->ring_full[i] = !r && busy == 2;
	}
}

/* Offers the held batches again now that their rings were read. */
static int reflush_full(struct trace *t)
{
	int again = 0;

	for (unsigned i = 0; i < t->nrings && t->ring_full && t->flush_fd >= 0; i++) {
		uint32_t busy = 1;
		int r = 0;
		if (!t->ring_full[i])
			continue;
		for (int n = 0; n < FLUSH_TRIES && busy == 1 && !r; n++)
			r = ior_sys_prog_run_on_cpu(t->flush_fd, t->ring_cpu[i], &busy);
		t->ring_full[i] = !r && busy == 2;
		again = 1;
	}
	return again;
}

/* Drains every ring into the merge, then delivers what every ring has
 * caught up with: records older than the drain's start minus the slack. */
static uint64_t bpf_counter(struct trace *t, const char *name);

static void drain_rings(struct trace *t, uint64_t watermark);

/* A CPU whose ring was full holds a batch of records older than the
 * watermark: it is sent once its ring was read, and read before the
 * watermark passes it. */
static void drain(struct trace *t, uint64_t watermark)
{
	if (t->canon && t->use_btf) /* name changes up to now, before the records older than now */
		ior_canon_generation(t->canon, bpf_counter(t, "names_changed"));
	drain_rings(t, watermark);
	for (int n = 0; n < 4 && reflush_full(t); n++)
		drain_rings(t, watermark);
	ior_merge_flush(t->merge, watermark, deliver, t);
}

static void drain_rings(struct trace *t, uint64_t watermark)
{
	for (unsigned i = 0; i < t->nrings; i++) {
		struct push_ctx ctx = { t, i };
		for (;;) {
			t->merge_full = 0;
			ior_ring_drain(&t->rings[i], push, &ctx);
			if (!t->merge_full)
				break;
			size_t held = ior_merge_pending(t->merge);
			ior_merge_flush(t->merge, watermark, deliver, t);
			if (ior_merge_pending(t->merge) * 4 > held * 3) {
				/* mostly records newer than the watermark: give up
				 * their ordering rather than stall the rings */
				t->forced_flushes++;
				ior_merge_flush(t->merge, UINT64_MAX, deliver, t);
			}
		}
	}
}

/* ---- summaries ----------------------------------------------------------- */

/* Delivers what the kernel summarized since the last read, as summary
 * rows named by the fd table now. Read only once a ring was ever full. */
static void read_summaries(struct trace *t, uint64_t now)
{
	int fd = ior_loader_map_fd(t->obj, "summary");
	struct ior_sum_key k, next;
	const struct ior_sum_key *prev = NULL;

	t->sums_read_ns = now;
	if (fd < 0 || !bpf_counter(t, "held_batches"))
		return;
	if (!t->sums && !(t->sums = ior_sumtab_new()))
		return;
	while (!ior_sys_map_get_next_key(fd, prev, &next)) {
		struct ior_sum_val v, d;
		int r;
		k = next;
		prev = &k;
		if (ior_sys_map_lookup_elem(fd, &k, &v))
			continue;
		r = ior_sumtab_delta(t->sums, &k, &v, &d);
		if (r > 0)
			ior_pair_summary(t->pairer, &k, &d, now);
		else if (r < 0)
			t->sums_untracked++;
	}
}

/* At stop: streaks no later record of their thread ended (it made no
 * syscall since), ended here as the kernel would have; summarized
 * enters still open are counted. */
static uint64_t end_open_streaks(struct trace *t)
{
	int fd = ior_loader_map_fd(t->obj, "pending");
	uint32_t tid, next;
	const uint32_t *prev = NULL;
	uint64_t open = 0;

	while (fd >= 0 && !ior_sys_map_get_next_key(fd, prev, &next)) {
		struct ior_pending pe;
		struct ior_rec_streak r = { 0 };
		tid = next;
		prev = &tid;
		if (ior_sys_map_lookup_elem(fd, &tid, &pe))
			continue;
		open += pe.open;
		r.h = (struct ior_rec_head){ .ts = t->stop_ns, .pid = pe.pid, .tid = tid,
					     .kind = IOR_REC_STREAK, .nr = pe.first_nr, .len = sizeof r };
		r.first_enter = pe.first_enter;
		r.last_exit = pe.last_exit;
		r.first_fd = pe.first_fd;
		r.pairs = pe.pairs;
		ior_pair_feed(t->pairer, &r, sizeof r);
	}
	return open;
}

static void flush_stdout(struct trace *t)
{
	if (!t->o->plain || t->out_error)
		return;
	csv_out(t);
	if (t->out_error)
		return;
	errno = 0;
	if (fflush(stdout) || ferror(stdout))
		t->out_error = errno ? errno : EIO;
	t->rows_since_flush = 0;
}

/* The rings' fds first, then (with -live) the server's, refilled before
 * every wait. */
static int loop(struct trace *t)
{
	size_t cap = t->nrings + (t->http ? IOR_HTTP_MAX_CONNS + 1 : 0);
	struct pollfd *pfd = calloc(cap ? cap : 1, sizeof *pfd);
	uint64_t deadline = t->start_ns + t->o->duration_ns, last_flush = t->start_ns;
	nfds_t nhttp = 0;

	if (!pfd)
		return -ENOMEM;
	for (unsigned i = 0; i < t->nrings; i++)
		pfd[i] = (struct pollfd){ .fd = t->rings[i].fd, .events = POLLIN };
	while (!stop_signal && !t->out_error && !t->rec_error) {
		uint64_t now = ior_mono_ns();
		if (now >= deadline)
			break;
		uint64_t left_ms = (deadline - now + 999999) / 1000000;
		nhttp = t->http ? (nfds_t)ior_http_pollfds(t->http, pfd + t->nrings) : 0;
		poll(pfd, t->nrings + nhttp, (int)(left_ms < POLL_MS ? left_ms : POLL_MS));
		if (t->o->bench_empty)
			continue;
		now = ior_mono_ns();
		flush_batches(t);
		drain(t, now - SLACK_NS);
		if (now - t->sums_read_ns >= SUMMARY_NS)
			read_summaries(t, now);
		if (t->csv_summarized) {
			fprintf(stderr, "ior: %llu pairs summarized, not printed (rings full: detail "
					"dropped, totals kept in the statistics and recording)\n",
				(unsigned long long)t->csv_summarized);
			t->csv_summarized = 0;
		}
		if (t->rec && !t->rec_error) {
			int r = ior_rec_tick(t->rec, now);
			if (r < 0)
				t->rec_error = -r;
		}
		if (t->rows_since_flush && now - last_flush >= STDOUT_FLUSH_NS) {
			flush_stdout(t);
			last_flush = now;
		}
		if (t->http)
			serve_live(t, pfd + t->nrings, nhttp, now);
	}
	free(pfd);
	return 0;
}

/* ---- statistics ---------------------------------------------------------- */

/* A counter bpf.c keeps in .bss; 0 when it cannot be read (warned). */
static uint64_t bpf_counter(struct trace *t, const char *name)
{
	uint64_t v = 0;

	if (ior_loader_read_global(t->obj, name, &v, sizeof v, t->err, sizeof t->err) < 0)
		fprintf(stderr, "ior: warning: %s; statistics may be short\n", t->err);
	return v;
}

/* Records lost on their way to user space: batches the perf rings had no
 * room for (and per-CPU sample counts the kernel reported), and records
 * dropped because their CPU's batch was busy. */
static uint64_t lost_records(struct trace *t, uint64_t *busy)
{
	*busy = bpf_counter(t, "batch_busy_records");
	return *busy + bpf_counter(t, "reserve_full") +
	       bpf_counter(t, "summary_full") + t->sums_untracked;
}

/* Perf samples the rings reported lost beyond the kernel's own refused
 * sends (which kept their batch): nothing should be there. */
static uint64_t samples_lost_unexplained(struct trace *t)
{
	uint64_t samples = 0, refused = bpf_counter(t, "held_batches") + bpf_counter(t, "resend_refused");

	for (unsigned i = 0; i < t->nrings; i++)
		samples += t->rings[i].lost;
	return samples > refused ? samples - refused : 0;
}

static void print_lost(struct trace *t, const struct ior_pair_stats *s)
{
	uint64_t busy, lost = lost_records(t, &busy), reserve = bpf_counter(t, "reserve_full");
	uint64_t full = bpf_counter(t, "summary_full"), odd = samples_lost_unexplained(t);

	fprintf(stderr, "ior: lost: %llu records in the perf buffers", (unsigned long long)lost);
	if (reserve || full || t->sums_untracked)
		fprintf(stderr, " (%llu found a full ring's reserve full, %llu pairs found the summary "
				"maps full, %llu summaries could not be tracked; try a larger -mapSize)",
			(unsigned long long)reserve, (unsigned long long)full,
			(unsigned long long)t->sums_untracked);
	if (busy)
		fprintf(stderr, ", %llu of them dropped because their CPU's batch was busy "
				"(a program interrupted another on the same CPU)", (unsigned long long)busy);
	if (odd)
		fprintf(stderr, "; the rings also reported %llu perf samples lost", (unsigned long long)odd);
	fprintf(stderr, "; summarized: %llu pairs (detail dropped, totals kept)",
		(unsigned long long)s->t.summarized);
	if (t->summary_in_flight)
		fprintf(stderr, ", %llu summarized enters in flight at stop",
			(unsigned long long)t->summary_in_flight);
	fputc('\n', stderr);
}

/* Whether a thread still runs (/proc/PID/task/TID): a gone one's enter is
 * no syscall in flight, its exit record was lost. */
static int thread_alive(void *ctx, uint32_t pid, uint32_t tid)
{
	char p[64];

	(void)ctx;
	snprintf(p, sizeof p, "/proc/%u/task/%u", pid, tid);
	return access(p, F_OK) == 0 || errno != ENOENT;
}

static void print_in_flight(const struct trace *t)
{
	struct ior_in_flight f[IN_FLIGHT_SHOWN];
	size_t n = ior_pair_in_flight(t->pairer, f, IN_FLIGHT_SHOWN);
	char comm[80];

	for (size_t i = 0; i < n && i < IN_FLIGHT_SHOWN; i++) {
		uint64_t age = t->stop_ns > f[i].enter_ns ? t->stop_ns - f[i].enter_ns : 0;
		ior_csv_escape(comm, sizeof comm, f[i].comm, strnlen(f[i].comm, sizeof f[i].comm),
			       IOR_ESCAPE_AUTO);
		fprintf(stderr, "ior:   %s by %s %u.%u, in the syscall for %.3f s\n",
			ior_syscalls[f[i].sys].name, comm, f[i].pid, f[i].tid, age / 1e9);
	}
	if (n > IN_FLIGHT_SHOWN)
		fprintf(stderr, "ior:   ... and %zu more\n", n - IN_FLIGHT_SHOWN);
}

static void print_live(const struct trace *t)
{
	const struct ior_flame_agg *a = ior_flame_live_agg(t->live);
	uint64_t other = ior_flame_agg_other_pairs(a);

	fprintf(stderr, "ior: live flamegraph: %llu pairs in %u distinct stacks",
		(unsigned long long)ior_flame_agg_pairs(a), ior_flame_agg_keys(a));
	if (other)
		fprintf(stderr, " (%llu of them in \"" IOR_FLAME_OTHER "\": past %u stacks or %u MiB of names)",
			(unsigned long long)other, IOR_FLAME_LIVE_MAX_KEYS, IOR_FLAME_LIVE_MAX_STRING_BYTES >> 20);
	if (t->live_failed)
		fprintf(stderr, ", %llu pairs not counted: out of memory", (unsigned long long)t->live_failed);
	fputc('\n', stderr);
}

/* "fds without a path: N (reason: n, ...)", the most frequent reason first. */
static void print_unattributed(const struct ior_pair_stats *s)
{
	uint64_t left[IOR_FD_NREASONS];
	int any = 0;

	memcpy(left, s->unattributed_why, sizeof left);
	fprintf(stderr, "ior: fds without a path: %llu", (unsigned long long)s->unattributed);
	for (;;) {
		unsigned top = 0;
		for (unsigned i = 1; i < IOR_FD_NREASONS; i++)
			top = left[i] > left[top] ? i : top;
		if (!left[top])
			break;
		fprintf(stderr, "%s%s: %llu", any++ ? ", " : " (", ior_fd_unknown_name(top),
			(unsigned long long)left[top]);
		left[top] = 0;
	}
	fputs(any ? ")\n" : "\n", stderr);
}

static void print_stats(struct trace *t)
{
	struct ior_pair_stats s;
	double secs = (t->stop_ns - t->start_ns) / 1e9;
	uint64_t full = bpf_counter(t, "path_args_full");

	ior_pair_close_gone(t->pairer, thread_alive, NULL);
	ior_pair_get_stats(t->pairer, &s);
	fprintf(stderr, "ior: traced %.2f s: %llu syscall pairs (%.0f/s), %llu after filters\n", secs,
		(unsigned long long)s.t.pairs_seen, secs > 0 ? s.t.pairs_seen / secs : 0.0,
		(unsigned long long)s.t.pairs);
	print_lost(t, &s);
	fprintf(stderr, "ior: exits without an enter: %llu, enters overwritten: %llu, "
			"enters in flight at stop: %llu\n",
		(unsigned long long)s.t.unpaired_exits, (unsigned long long)s.t.overwritten_enters,
		(unsigned long long)s.t.in_flight);
	print_in_flight(t);
	if (s.mismatched_exits || s.enters_at_thread_exit || s.bad_records)
		fprintf(stderr, "ior: exits of another syscall than the enter: %llu, enters unpaired "
				"at exit (the thread ended, or ended and its exit was lost): %llu, "
				"malformed records: %llu\n",
			(unsigned long long)s.mismatched_exits,
			(unsigned long long)s.enters_at_thread_exit, (unsigned long long)s.bad_records);
	if (t->malformed_samples || t->flush_busy)
		fprintf(stderr, "ior: perf samples with malformed records: %llu, batch flushes given up "
				"(busy): %llu\n",
			(unsigned long long)t->malformed_samples, (unsigned long long)t->flush_busy);
	if (ior_merge_late(t->merge) || t->forced_flushes)
		fprintf(stderr, "ior: records merged out of order: %llu late, %llu forced flushes\n",
			(unsigned long long)ior_merge_late(t->merge),
			(unsigned long long)t->forced_flushes);
	if (full)
		fprintf(stderr, "ior: %llu syscalls without their path: their path pointers could not "
				"be kept from enter to exit (path_args full, or no memory for task storage)\n",
			(unsigned long long)full);
	if (t->live)
		print_live(t);
	uint64_t bad = 0;
	for (unsigned i = 0; i < t->nrings; i++)
		bad += t->rings[i].bad;
	if (bad)
		fprintf(stderr, "ior: malformed perf records: %llu (the rest of those rings was skipped)\n",
			(unsigned long long)bad);
	print_unattributed(&s);
	if (t->o->verbose) {
		struct ior_fdtab_stats f;
		ior_fdtab_get_stats(t->fds, &f);
		fprintf(stderr, "ior: fd table: %llu fds of %llu processes, %llu evicted, %llu resets, "
				"%llu forks, %llu execs, %llu renamed; snapshot: %llu processes, %llu fds "
				"(%llu gone meanwhile) in %.1f ms, %llu applied; %llu threads; %llu exits of "
				"syscalls begun after the stop\n",
			(unsigned long long)f.fds, (unsigned long long)f.procs,
			(unsigned long long)f.evicted, (unsigned long long)f.resets,
			(unsigned long long)f.forks, (unsigned long long)f.execs,
			(unsigned long long)f.renamed, (unsigned long long)t->snap.procs,
			(unsigned long long)t->snap.fds, (unsigned long long)t->snap.failed,
			t->snap.ns / 1e6, (unsigned long long)f.snapshots, (unsigned long long)s.threads,
			(unsigned long long)s.exits_after_stop);
	}
}

/* ---- recording ----------------------------------------------------------- */

static int open_recording(struct trace *t)
{
	struct utsname u;
	const char *host = uname(&u) ? "localhost" : u.nodename;
	int r = ior_rec_default_name(t->rec_path, sizeof t->rec_path, host, t->o->name, time(NULL));

	if (r < 0) {
		snprintf(t->err, sizeof t->err, "recording name for -name \"%s\": %s", t->o->name,
			 strerror(-r));
		return r;
	}
	return ior_rec_writer_open(&t->rec, t->rec_path, NULL, t->err, sizeof t->err);
}

static const char *rec_hint(int e)
{
	if (e == ENOSPC || e == EDQUOT || e == EFBIG)
		return " (free some space, or run ior from a directory on another file system)";
	if (e == EACCES || e == EROFS || e == ENOENT || e == EPERM)
		return " (run ior from a directory it can write to)";
	return "";
}

static int close_recording(struct trace *t)
{
	struct ior_pair_stats s;
	struct stat st;
	uint64_t busy, pairs;
	int r;

	ior_pair_get_stats(t->pairer, &s);
	s.t.lost = lost_records(t, &busy);
	pairs = ior_rec_writer_pairs(t->rec);
	r = ior_rec_writer_close(t->rec, &s.t, t->err, sizeof t->err);
	t->rec = NULL;
	if (r < 0 || t->rec_error) {
		int e = t->rec_error ? t->rec_error : -r;
		/* the writer's message already names the file */
		fprintf(stderr, "ior: %s%s\n", r < 0 ? t->err : strerror(e), rec_hint(e));
		return 1;
	}
	fprintf(stderr, "Wrote %s (%llu pairs, %lld bytes)\n", t->rec_path, (unsigned long long)pairs,
		stat(t->rec_path, &st) ? -1LL : (long long)st.st_size);
	return 0;
}

/* ---- the command ---------------------------------------------------------- */

static int fail(struct trace *t, int r, const char *what)
{
	const char *hint = r == -EPERM || r == -EACCES ? " (run as root, or with CAP_BPF and CAP_PERFMON)" : "";
	fprintf(stderr, "ior: %s: %s%s\n", what, t->err[0] ? t->err : strerror(-r), hint);
	return 1;
}

static const char *canon_path(void *ctx, const char *path, uint32_t kdev, uint64_t ino, const char *leaf)
{
	return ior_canon_get(ctx, path, kdev, ino, leaf);
}

static int setup(struct trace *t)
{
	struct ior_pair_cfg pc = { NULL, t->o->path, sink, t, t->sel, NULL, NULL };
	size_t arena;
	int r;

	r = ior_trace_select(t->o->tps, t->o->tps_exclude, t->sel, t->err, sizeof t->err);
	if (r < 0) {
		fprintf(stderr, "ior: %s (see ior -help)\n", t->err);
		return 2;
	}
	if (r == 0) {
		fprintf(stderr, "ior: -tps \"%s\" -tpsExclude \"%s\" select no syscall (see ior -help)\n",
			t->o->tps, t->o->tps_exclude);
		return 2;
	}
	if ((r = load(t)) < 0)
		return fail(t, r, "loading the BPF programs");
	if (!t->o->bench_empty) {
		if ((r = open_rings(t)) < 0)
			return fail(t, r, "opening the perf buffers");
		arena = 2 * t->nrings * ring_bytes(t->o);
		arena = arena < (1u << 20) ? (1u << 20) : arena > (256u << 20) ? (256u << 20) : arena;
		t->merge = ior_merge_new(t->nrings, arena);
		t->fds = ior_fdtab_new(FD_ENTRIES, PROC_ENTRIES);
		pc.fds = t->fds;
		if (t->file_idents && !(t->canon = ior_canon_new(CANON_ENTRIES, t->use_btf)))
			return t->err[0] = 0, fail(t, -ENOMEM, "setting up the pairing");
		pc.canon = t->canon ? canon_path : NULL;
		pc.canon_ctx = t->canon;
		t->pairer = t->fds ? ior_pair_new(&pc) : NULL;
		if (!t->merge || !t->pairer)
			return t->err[0] = 0, fail(t, -ENOMEM, "setting up the pairing");
		if (t->o->flamegraph && (r = open_recording(t)) < 0) {
			fprintf(stderr, "ior: -flamegraph: %s%s\n", t->err, rec_hint(-r));
			return 1;
		}
		if (t->o->live && (r = open_live(t)))
			return r;
	}
	if ((r = attach(t)) < 0)
		return fail(t, r, "attaching to the tracepoints");
	return 0;
}

static void teardown(struct trace *t)
{
	detach(t);
	for (unsigned i = 0; i < t->nrings; i++)
		ior_ring_close(&t->rings[i]);
	if (t->rec)
		ior_rec_writer_close(t->rec, NULL, t->err, sizeof t->err);
	ior_pair_free(t->pairer);
	ior_fdtab_free(t->fds);
	ior_canon_free(t->canon);
	ior_merge_free(t->merge);
	ior_loader_close(t->obj);
	stop_serving(t);
	ior_flame_live_free(t->live);
	t->live = NULL;
	free(t->rings);
	free(t->ring_cpu);
	free(t->ring_full);
	ior_sumtab_free(t->sums);
	free(t->tp_fds);
}

/* Drains the rings while the snapshot reads /proc: the records it leaves
 * alone belong to processes whose snapshot is registered already. */
static void snapshot_tick(void *ctx)
{
	struct trace *t = ctx;

	flush_batches(t);
	drain(t, ior_mono_ns() - SLACK_NS);
}

/* The descriptors that predate the trace, before "tracing" is said. */
static int take_snapshot(struct trace *t)
{
	const struct ior_opts *o = t->o;
	struct ior_snapshot_scope sc = { o->pid, o->tid, o->comm, (uint32_t)getpid() };
	int r = ior_snapshot_take(t->fds, &sc, snapshot_tick, t, &t->snap);

	if (r < 0) {
		fprintf(stderr, "ior: reading the descriptors of running processes from /proc: %s\n",
			strerror(-r));
		return 1;
	}
	if (!t->task_offsets)
		fprintf(stderr, "ior: warning: task_struct's layout is unknown (no kernel BTF): forks are not "
				"tracked, so descriptors a new process inherits show without a path\n");
	return 0;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal; /* no SA_RESTART: poll returns at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* the ssh session dropped: finish, like Ctrl-C */
	signal(SIGPIPE, SIG_IGN);  /* a closed stdout shows up as EPIPE */
}

int ior_cmd_trace(const struct ior_opts *o)
{
	static struct trace t;
	static char outbuf[1 << 16];
	int rc;

	memset(&t, 0, sizeof t);
	t.o = o;
	t.flush_fd = -1;
	if ((rc = check_opts(&t)) || (rc = check_targets(o)))
		return rc;
	install_signals();
	rc = setup(&t);
	if (rc) {
		teardown(&t);
		return rc;
	}
	if (o->plain) { /* only now: a usage or setup error leaves stdout empty */
		setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
		ior_csv_write_header(stdout);
	}
	if (!o->bench_empty && (rc = take_snapshot(&t))) {
		teardown(&t);
		return rc;
	}
	t.start_ns = ior_mono_ns();
	fprintf(stderr, "ior: tracing %u syscalls on %u CPUs (%s tracepoints), Ctrl-C to stop\n",
		t.nattached, o->bench_empty ? (unsigned)possible_cpus() : t.nrings,
		t.use_btf ? "BTF" : "raw");
	if (t.http)
		fprintf(stderr, "Live flamegraph at %s/\n", ior_http_url(t.http));
	t.http_polled_ns = t.start_ns;
	if ((rc = loop(&t)) < 0) {
		fprintf(stderr, "ior: tracing stopped: %s\n", strerror(-rc));
		rc = 1;
	}
	stop_serving(&t);
	detach(&t); /* no new records; then read what the batches and rings still hold */
	t.stop_ns = ior_mono_ns();
	if (!o->bench_empty) {
		flush_batches(&t);
		drain(&t, t.stop_ns - SLACK_NS);
		push_batch_leftovers(&t);
		drain(&t, UINT64_MAX);
		t.summary_in_flight = end_open_streaks(&t);
		read_summaries(&t, t.stop_ns);
		flush_stdout(&t);
		print_stats(&t);
		if (t.rec && close_recording(&t))
			rc = 1;
	} else {
		fprintf(stderr, "ior: traced %.2f s with the empty program\n", (t.stop_ns - t.start_ns) / 1e9);
	}
	if (t.live_failed)
		rc = 1;
	if (t.out_error && t.out_error != EPIPE) {
		fprintf(stderr, "ior: writing the CSV to stdout: %s\n", strerror(t.out_error));
		rc = 1;
	}
	teardown(&t);
	return rc;
}
