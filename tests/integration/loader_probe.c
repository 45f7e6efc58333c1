/* Root-only probes of loader/ against the running kernel, driven by
 * tests/integration/loader.sh. Each mode prints "key=value" lines the
 * script checks, and exits 1 with a message on stderr when it cannot run.
 *
 *   loader_probe events OBJ    load ior's object, attach enter/exit to
 *                              syscalls:*_getpid and sched_process_exit,
 *                              run a child that calls getpid 5 times, and
 *                              count its records in the per-CPU perf rings
 *   loader_probe events-raw OBJ  the same through the raw tracepoints
 *                              sys_enter/sys_exit/sched_process_exit
 *   loader_probe events-map OBJ  the same, never flushed: after detaching,
 *                              the records are read from the batches map
 *                              (what ior does at stop)
 *   loader_probe features OBJ  load tests/unit/bpf/features.elf, set its
 *                              .rodata globals, let a child call getpid, and
 *                              read back what the programs computed
 *   loader_probe reject OBJ [v] load an object the verifier rejects and
 *                              print the error (v: verbose, the whole log)
 *   loader_probe btf-rejected OBJ  load OBJ with an INT in .BTF broken so
 *                              the kernel (not our parser) refuses the BTF
 *   loader_probe attach OBJ N  time attaching ior_empty/ior_exit to the
 *                              first N syscalls:sys_enter_X/sys_exit_X
 *                              tracepoints, and detaching them */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <linux/btf.h>

#include "loader/internal.h"
#include "log/log.h"
#include "trace/batch.h"
#include "bpf/event.h"

#define RING_PAGES 16

/* The loader's warnings (log/log.h), joined by "; " as loader.sh reads them. */
static char warnings[1024];

static void keep_warning(void *ctx, enum ior_log_level level, const char *msg)
{
	size_t n = strlen(warnings);

	(void)ctx;
	if (level == IOR_LOG_WARN && n + 2 < sizeof warnings)
		snprintf(warnings + n, sizeof warnings - n, "%s%s", n ? "; " : "", msg);
}
#define NR_GETPID 39
#define CALLS 5

static char err[64 << 10];

static void die(const char *what)
{
	fprintf(stderr, "loader_probe: %s: %s\n", what, err);
	exit(1);
}

static uint8_t buf[4 << 20];

static size_t read_obj(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, sizeof err, "%s", strerror(errno));
		die(path);
	}
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	return n;
}

static struct ior_bpf_obj *open_buf(size_t n)
{
	struct ior_bpf_obj *o;
	if (ior_loader_open(buf, n, &o, err, sizeof err))
		die("open");
	return o;
}

static struct ior_bpf_obj *open_obj(const char *path)
{
	return open_buf(read_obj(path));
}

static void load(struct ior_bpf_obj *o)
{
	if (ior_loader_load(o, NULL, err, sizeof err))
		die("load");
	if (warnings[0])
		printf("warning=%s\n", warnings);
}

static int attach(struct ior_bpf_obj *o, const char *prog, const char *cat, const char *tp)
{
	int fd = ior_loader_attach_tracepoint(ior_loader_prog_fd(o, prog), cat, tp, err,
					      sizeof err);
	if (fd < 0)
		die("attach");
	return fd;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A child that calls getpid CALLS times once the pipe says go. */
static pid_t spawn_getpid_child(int *go)
{
	int p[2];
	if (pipe(p))
		exit(1);
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(1);
		for (int i = 0; i < CALLS; i++)
			syscall(SYS_getpid);
		_exit(0);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

static void run_child(pid_t pid, int go)
{
	if (write(go, "g", 1) != 1)
		exit(1);
	close(go);
	waitpid(pid, NULL, 0);
}

/* ---- events: the real object through perf rings ------------------------- */

struct ring {
	int fd, cpu;
	struct perf_event_mmap_page *meta;
	uint8_t *data;
	uint64_t size;
};

struct counts {
	pid_t child;
	unsigned enter, exit, exit_ret_ok, proc_exit, malformed;
};

static int count_record(void *ctx, const void *raw, size_t len)
{
	struct counts *c = ctx;
	struct ior_rec_head h;
	if (len < sizeof h)
		return 0;
	memcpy(&h, raw, sizeof h);
	if (h.pid != (uint32_t)c->child)
		return 0;
	if (h.kind == IOR_REC_ENTER && h.nr == NR_GETPID)
		c->enter++;
	if (h.kind == IOR_REC_EXIT && h.nr == NR_GETPID && len >= sizeof h + 8) {
		int64_t ret;
		memcpy(&ret, (const uint8_t *)raw + sizeof h, 8);
		c->exit++;
		c->exit_ret_ok += ret == c->child;
	}
	if (h.kind == IOR_REC_PROC_EXIT)
		c->proc_exit++;
	return 0;
}

static void copy_out(const struct ring *r, uint64_t pos, void *dst, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((uint8_t *)dst)[i] = r->data[(pos + i) % r->size];
}

static void drain(struct ring *r, struct counts *c)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;
	static uint8_t rec[1 << 16];
	while (tail < head) {
		struct perf_event_header h;
		copy_out(r, tail, &h, sizeof h);
		if (h.size < sizeof h)
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof h + 4) {
			uint32_t len;
			copy_out(r, tail, rec, h.size);
			memcpy(&len, rec + sizeof h, 4);
			if (len <= h.size - sizeof h - 4 &&
			    ior_batch_each(rec + sizeof h + 4, len, count_record, c).malformed)
				c->malformed++;
		}
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
}

static int open_rings(struct ior_bpf_obj *o, struct ring *rings, int max)
{
	int events = ior_loader_map_fd(o, "events"), n = 0;
	long page = sysconf(_SC_PAGESIZE), ncpu = sysconf(_SC_NPROCESSORS_CONF);
	for (int cpu = 0; cpu < ncpu && n < max; cpu++) {
		int fd = ior_loader_bpf_output_open(cpu, 0, err, sizeof err);
		if (fd == -ENODEV)
			continue; /* offline */
		if (fd < 0)
			die("perf buffer");
		size_t len = (size_t)(RING_PAGES + 1) * (size_t)page;
		void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED) {
			snprintf(err, sizeof err, "%s", strerror(errno));
			die("mmap");
		}
		uint32_t key = (uint32_t)cpu, val = (uint32_t)fd;
		if (ior_sys_map_update_elem(events, &key, &val, 0)) {
			snprintf(err, sizeof err, "%s", strerror(errno));
			die("events map update");
		}
		rings[n++] = (struct ring){ fd, cpu, m, (uint8_t *)m + page, (uint64_t)RING_PAGES * page };
	}
	return n;
}

static void trace_getpid(struct ior_bpf_obj *o)
{
	struct ior_sys_conf conf = { .traced = 1, .fd_arg = IOR_ARG_NONE,
				     .flags_arg = IOR_ARG_NONE, .aux_arg = IOR_ARG_NONE,
				     .path_arg = { IOR_ARG_NONE, IOR_ARG_NONE } };
	uint32_t nr = NR_GETPID;
	if (ior_sys_map_update_elem(ior_loader_map_fd(o, "sys_conf"), &nr, &conf, 0)) {
		snprintf(err, sizeof err, "%s", strerror(errno));
		die("sys_conf update");
	}
}

static int raw_attach(struct ior_bpf_obj *o, const char *prog, const char *tp)
{
	int fd = ior_loader_attach_raw_tracepoint(ior_loader_prog_fd(o, prog), tp, err, sizeof err);
	if (fd < 0)
		die("raw attach");
	return fd;
}

/* Counts the records left in every CPU's batch (map "batches", read once:
 * one struct ior_batch per possible CPU, 8-byte aligned). */
static void count_batch_map(struct ior_bpf_obj *o, struct counts *c)
{
	size_t stride = (sizeof(struct ior_batch) + 7) & ~(size_t)7, n = 1024;
	uint8_t *all = calloc(n, stride);
	uint32_t zero = 0;
	if (!all || ior_sys_map_lookup_elem(ior_loader_map_fd(o, "batches"), &zero, all)) {
		snprintf(err, sizeof err, "%s", strerror(errno));
		die("batches lookup");
	}
	for (size_t i = 0; i < n; i++) {
		const struct ior_batch *b = (const void *)(all + i * stride);
		if (b->len <= IOR_BATCH_BYTES &&
		    ior_batch_each(b->data, b->len, count_record, c).malformed)
			c->malformed++;
	}
	free(all);
}

static int mode_events(const char *path, bool raw, bool from_map)
{
	struct ior_bpf_obj *o = open_obj(path);
	uint32_t self = (uint32_t)getpid();
	if (ior_loader_set_global(o, "ior_pid", &self, sizeof self, err, sizeof err))
		die("set ior_pid");
	load(o);
	struct ring rings[256];
	int nrings = open_rings(o, rings, 256);
	trace_getpid(o);
	int go, fds[3];
	struct counts c = { .child = spawn_getpid_child(&go) };
	if (raw) {
		fds[0] = raw_attach(o, "ior_raw_enter", "sys_enter");
		fds[1] = raw_attach(o, "ior_raw_exit", "sys_exit");
		fds[2] = raw_attach(o, "ior_raw_task_exit", "sched_process_exit");
	} else {
		fds[0] = attach(o, "ior_enter", "syscalls", "sys_enter_getpid");
		fds[1] = attach(o, "ior_exit", "syscalls", "sys_exit_getpid");
		fds[2] = attach(o, "ior_task_exit", "sched", "sched_process_exit");
	}
	run_child(c.child, go);
	if (raw) { /* the raw programs batch: nothing shows until a flush */
		usleep(100000);
		for (int i = 0; i < nrings; i++)
			drain(&rings[i], &c);
		printf("before_flush=%u\n", c.enter + c.exit + c.proc_exit);
	}
	int flush = ior_loader_prog_fd(o, "ior_flush"), flush_err = 0;
	if (from_map) {
		for (int i = 0; i < 3; i++)
			close(fds[i]);
		count_batch_map(o, &c);
		printf("rings=%d\nenter=%u\nexit=%u\nexit_ret_ok=%u\nproc_exit=%u\nmalformed=%u\n",
		       nrings, c.enter, c.exit, c.exit_ret_ok, c.proc_exit, c.malformed);
		ior_loader_close(o);
		return 0;
	}
	for (double end = now_ms() + 2000; now_ms() < end;) {
		for (int i = 0; i < nrings; i++) {
			uint32_t busy = 0;
			if (raw && ior_sys_prog_run_on_cpu(flush, rings[i].cpu, &busy))
				flush_err++;
			drain(&rings[i], &c);
		}
		if (c.enter >= CALLS && c.exit >= CALLS && c.proc_exit)
			break;
		usleep(10000);
	}
	printf("rings=%d\nenter=%u\nexit=%u\nexit_ret_ok=%u\nproc_exit=%u\nmalformed=%u\nflush_err=%d\n",
	       nrings, c.enter, c.exit, c.exit_ret_ok, c.proc_exit, c.malformed, flush_err);
	for (int i = 0; i < 3; i++)
		close(fds[i]);
	ior_loader_close(o);
	return 0;
}

/* ---- features: globals, subprograms and maps executed by the kernel ----- */

static int mode_features(const char *path)
{
	struct ior_bpf_obj *o = open_obj(path);
	uint32_t a = 5;
	uint64_t b = 1000;
	int go;
	pid_t child = spawn_getpid_child(&go);
	uint32_t tgid = (uint32_t)child; /* whoever else calls getpid meanwhile does not count */
	if (ior_loader_set_global(o, "cfg_a", &a, sizeof a, err, sizeof err) ||
	    ior_loader_set_global(o, "cfg_b", &b, sizeof b, err, sizeof err) ||
	    ior_loader_set_global(o, "cfg_tgid", &tgid, sizeof tgid, err, sizeof err))
		die("set_global");
	uint32_t cast_id = 0; /* 0 (the cast skipped) on kernels before 6.2 */
	if (!ior_loader_kernel_type_id(o, "func", "bpf_rdonly_cast", &cast_id, err, sizeof err) &&
	    (ior_loader_kernel_type_id(o, "struct", "task_struct", &cast_id, err, sizeof err) ||
	     ior_loader_set_global(o, "cfg_cast_id", &cast_id, sizeof cast_id, err, sizeof err)))
		die("cfg_cast_id");
	load(o);
	int fd = attach(o, "on_getpid", "syscalls", "sys_enter_getpid");
	run_child(child, go);
	close(fd);
	/* on_getpid stored helper(pid_tgid) under key 1: leaf(x + 1) + cfg_b with
	 * leaf(x) = x * cfg_a + static_data[x & 3], static_data = {1, 2, 3, 4}. */
	uint64_t x = ((uint64_t)child << 32 | (uint32_t)child) + 1, got = 0;
	uint64_t want = x * a + (x & 3) + 1 + b;
	uint32_t key = 1;
	int r = ior_sys_map_lookup_elem(ior_loader_map_fd(o, "sized"), &key, &got);
	printf("lookup=%d\nvalue_ok=%d\n", r, got == want);
	uint64_t casts = 0;
	if (ior_loader_read_global(o, "casts", &casts, sizeof casts, err, sizeof err))
		die("read casts");
	printf("kfunc=%d\ncasts=%llu\ncalls=%d\nwarning=%s\n", cast_id != 0, (unsigned long long)casts,
	       CALLS, warnings);
	/* .rodata is frozen: user space can no longer write it */
	uint32_t zero = 0;
	static uint8_t ro[64];
	r = ior_sys_map_update_elem(ior_loader_map_fd(o, ".rodata"), &zero, ro, 0);
	printf("rodata_write=%d\n", r);
	ior_loader_close(o);
	return 0;
}

/* ---- reject: the verifier's verdict as the user reads it ----------------- */

static int mode_reject(const char *path, bool verbose)
{
	struct ior_bpf_obj *o = open_obj(path);
	struct ior_load_opts lo = { .verbose = verbose };
	int r = ior_loader_load(o, &lo, err, sizeof err);
	const char *log = ior_loader_verifier_log(o);
	printf("load=%d\nlog_lines=", r);
	unsigned lines = 0;
	for (const char *p = log; p && *p; p++)
		lines += *p == '\n';
	printf("%u\n--- error\n%s\n", lines, err);
	ior_loader_close(o);
	return 0;
}

/* ---- btf-rejected: the kernel refuses .BTF, the load goes on ----------- */

/* Sets the bit count of the first INT in .BTF to 200: well-formed for our
 * parser, invalid for the kernel (at most 128). */
static void break_btf_int(size_t n)
{
	struct ior_elf e;
	struct ior_btf b;
	if (ior_elf_parse(&e, buf, n, err, sizeof err))
		die("elf");
	const struct ior_elf_sec *s = &e.secs[ior_elf_sec_by_name(&e, ".BTF")];
	if (ior_btf_parse(&b, s->data, s->size, err, sizeof err))
		die("btf");
	for (uint32_t id = 1; id < b.ntypes; id++) {
		const struct btf_type *t = ior_btf_type(&b, id);
		if (BTF_INFO_KIND(t->info) != BTF_KIND_INT)
			continue;
		size_t off = (size_t)(s->data - buf) + b.hdr_len + b.type_off + b.type_at[id] + sizeof *t;
		uint32_t v;
		memcpy(&v, buf + off, 4);
		v = (v & ~0xffu) | 200;
		memcpy(buf + off, &v, 4);
		break;
	}
	ior_btf_free(&b);
	ior_elf_free(&e);
}

static int mode_btf_rejected(const char *path)
{
	size_t n = read_obj(path);
	break_btf_int(n);
	struct ior_bpf_obj *o = open_buf(n);
	int r = ior_loader_load(o, NULL, err, sizeof err);
	printf("load=%d\nwarning=%s\nprog_fd_ok=%d\n", r, warnings, ior_loader_prog_fd(o, "ior_exit") >= 0);
	if (r)
		printf("error=%s\n", err);
	ior_loader_close(o);
	return 0;
}

/* ---- attach: how long N tracepoints take ------------------------------- */

static int mode_attach(const char *path, int max)
{
	struct ior_bpf_obj *o = open_obj(path);
	load(o);
	char dir[512];
	snprintf(dir, sizeof dir, "%s/events/syscalls", ior_loader_tracefs(NULL, err, sizeof err));
	DIR *d = opendir(dir);
	if (!d)
		die("tracefs events/syscalls");
	static int fds[4096];
	int n = 0;
	double t0 = now_ms();
	for (struct dirent *e; n < max && (e = readdir(d));) {
		const char *prog = !strncmp(e->d_name, "sys_enter_", 10) ? "ior_empty"
				   : !strncmp(e->d_name, "sys_exit_", 9) ? "ior_exit"
									  : NULL;
		if (prog)
			fds[n++] = attach(o, prog, "syscalls", e->d_name);
	}
	double t1 = now_ms();
	closedir(d);
	for (int i = 0; i < n; i++)
		close(fds[i]);
	double t2 = now_ms();
	printf("attached=%d\nattach_ms=%.0f\ndetach_ms=%.0f\n", n, t1 - t0, t2 - t1);
	ior_loader_close(o);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: loader_probe events|events-raw|events-map|features|reject|btf-rejected|attach OBJ [N|v]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	ior_log_set(keep_warning, NULL, NULL);
	if (!strcmp(argv[1], "events"))
		return mode_events(argv[2], false, false);
	if (!strcmp(argv[1], "events-raw"))
		return mode_events(argv[2], true, false);
	if (!strcmp(argv[1], "events-map"))
		return mode_events(argv[2], true, true);
	if (!strcmp(argv[1], "features"))
		return mode_features(argv[2]);
	if (!strcmp(argv[1], "btf-rejected"))
		return mode_btf_rejected(argv[2]);
	if (!strcmp(argv[1], "reject"))
		return mode_reject(argv[2], argc > 3);
	if (!strcmp(argv[1], "attach"))
		return mode_attach(argv[2], argc > 3 && atoi(argv[3]) > 0 && atoi(argv[3]) < 4096
						     ? atoi(argv[3]) : 240);
	fprintf(stderr, "loader_probe: unknown mode %s\n", argv[1]);
	return 2;
}
