/* iorprogstat: BPF run-time statistics for scripts/bench.sh.
 *
 *   iorprogstat enable     turns the kernel's BPF run-time statistics on
 *                          (BPF_ENABLE_STATS) until it is killed or its
 *                          stdin closes; prints "iorprogstat: enabled"
 *   iorprogstat PID        one line per BPF program PID holds (a program
 *                          or link fd), named ior_*:
 *                          NAME ID RUN_CNT RUN_TIME_NS XLATED_INSNS JITED_BYTES
 *   iorprogstat probe KIND CMD...
 *                          attaches a tiny raw tracepoint program to
 *                          sys_enter and sys_exit, runs CMD, and prints
 *                          "iorprogstat: KIND runs=N ns_per_run=X": what
 *                          one helper costs a program on this machine.
 *                          KIND: empty, clock (bpf_ktime_get_ns), pidtgid
 *                          (bpf_get_current_pid_tgid), comm
 *                          (bpf_get_current_comm), task
 *                          (bpf_get_current_task)
 *   iorprogstat floor KIND|pid=PID MS BLOCKS CMD...
 *                          the same program's wall-clock cost, A/B in one
 *                          run: attached for MS ms, detached for MS, and
 *                          so on while CMD (iorbench -t S -blocks BLOCKS)
 *                          loops; then each attached stretch's median ns
 *                          per syscall against the detached stretches on
 *                          either side. Prints "iorprogstat: floor KIND
 *                          added_ns=X q1=X q3=X segments=N attach_ms=X
 *                          detach_ms=X". A shared VM's speed drifts by tens
 *                          of percent over seconds: separate traced and
 *                          untraced runs see the drift, stretches of a few
 *                          ms next to each other do not. pid=PID toggles
 *                          the syscall programs of an ior started with
 *                          -benchDetached instead of a probe.
 *
 * Statistics through an fd rather than the sysctl: they end with this
 * process, whatever happens to the bench, and cost the other programs on
 * the machine nothing afterwards. */
#include "loader/internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <linux/bpf.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_IDS 256

static long sys_bpf(int cmd, union bpf_attr *a, unsigned size)
{
	return syscall(SYS_bpf, cmd, a, size);
}

static int enable(void)
{
	union bpf_attr a;
	char buf[64];
	int fd;

	memset(&a, 0, sizeof a);
	a.enable_stats.type = BPF_STATS_RUN_TIME;
	fd = (int)sys_bpf(BPF_ENABLE_STATS, &a, sizeof a);
	if (fd < 0) {
		fprintf(stderr, "iorprogstat: BPF_ENABLE_STATS: %s (needs root and Linux >= 5.8)\n",
			strerror(errno));
		return 1;
	}
	printf("iorprogstat: enabled\n");
	fflush(stdout);
	while (read(0, buf, sizeof buf) > 0)
		;
	return 0;
}

/* The prog_id lines of every fdinfo of pid, deduplicated. */
static int collect_ids(const char *pid, uint32_t *ids, int max)
{
	char path[320], line[256];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof path, "/proc/%s/fdinfo", pid);
	if (!(dir = opendir(path)))
		return -1;
	while ((d = readdir(dir)) && n < max) {
		FILE *f;
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof path, "/proc/%s/fdinfo/%s", pid, d->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		while (fgets(line, sizeof line, f)) {
			unsigned long id;
			int seen = 0;
			if (sscanf(line, "prog_id: %lu", &id) != 1)
				continue;
			for (int i = 0; i < n; i++)
				seen |= ids[i] == id;
			if (!seen && n < max)
				ids[n++] = (uint32_t)id;
		}
		fclose(f);
	}
	closedir(dir);
	return n;
}

/* An fd for program id and its info; -1 when it is gone or unreadable. */
static int prog_by_id(uint32_t id, struct bpf_prog_info *info)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof a);
	a.prog_id = id;
	if ((fd = (int)sys_bpf(BPF_PROG_GET_FD_BY_ID, &a, sizeof a)) < 0)
		return -1;
	memset(info, 0, sizeof *info);
	memset(&a, 0, sizeof a);
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof *info;
	a.info.info = (uint64_t)(uintptr_t)info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof a)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void show(uint32_t id)
{
	struct bpf_prog_info info;
	int fd = prog_by_id(id, &info);

	if (fd < 0)
		return;
	if (!strncmp(info.name, "ior_", 4))
		printf("%s %u %llu %llu %u %u\n", info.name, id, (unsigned long long)info.run_cnt,
		       (unsigned long long)info.run_time_ns, info.xlated_prog_len / 8, info.jited_prog_len);
	close(fd);
}

#define INSN(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define CALL(f) INSN(BPF_JMP | BPF_CALL, 0, 0, 0, (f))

/* The probe's program: at most one helper call, then return 0. */
static int probe_insns(const char *kind, struct bpf_insn *p)
{
	int n = 0;

	if (!strcmp(kind, "clock"))
		p[n++] = CALL(BPF_FUNC_ktime_get_ns);
	else if (!strcmp(kind, "pidtgid"))
		p[n++] = CALL(BPF_FUNC_get_current_pid_tgid);
	else if (!strcmp(kind, "task"))
		p[n++] = CALL(BPF_FUNC_get_current_task);
	else if (!strcmp(kind, "comm")) {
		p[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_10, 0, 0);
		p[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, -16);
		p[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 16);
		p[n++] = CALL(BPF_FUNC_get_current_comm);
	} else if (strcmp(kind, "empty"))
		return -1;
	p[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	p[n++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return n;
}

static int probe_load(const char *kind, struct bpf_insn *insns)
{
	int n = probe_insns(kind, insns);

	if (n < 0)
		return -EINVAL;
	const struct ior_sys_prog_def def = { .name = "ior_probe", .license = "GPL",
					      .type = BPF_PROG_TYPE_RAW_TRACEPOINT, .insns = insns,
					      .ninsns = (uint32_t)n, .btf_fd = -1 };
	return ior_sys_prog_load(&def);
}

/* ---- floor ------------------------------------------------------------ */

#define MAX_TOGGLES 8192
#define WARMUP_MS 100
#define MIN_BLOCKS 5 /* a stretch with fewer blocks has no median */

/* A toggle: attached or detached between begin and end (CLOCK_MONOTONIC,
 * as iorbench's blocks); attached is the state after it. */
struct toggle {
	uint64_t begin, end;
	int attached;
};

/* A block of the workload, in the stretch after toggle k. */
struct sample {
	int k;
	double ns;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };
	nanosleep(&ts, NULL);
}

/* The stretch holding [from, to], or -1 when it spans a toggle or comes
 * before the first: the toggles' stretches are [t[k].end, t[k+1].begin]. */
static int stretch_of(const struct toggle *t, int n, uint64_t from, uint64_t to)
{
	int lo = 0, hi = n - 1;

	if (n == 0 || from < t[0].end)
		return -1;
	while (lo < hi) { /* the last toggle ending at or before from */
		int mid = (lo + hi + 1) / 2;
		if (t[mid].end <= from)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo + 1 < n && to > t[lo + 1].begin ? -1 : lo;
}

static int cmp_sample(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Reads BLOCKS, BLOCKS.1, ...: every block that lies in one stretch. */
static size_t read_blocks(const char *path, const struct toggle *t, int n, struct sample **out)
{
	size_t count = 0, cap = 0;
	struct sample *s = NULL;
	char name[4096];

	for (int f = 0;; f++) {
		unsigned long long end, sys, pend = 0, psys = 0;
		int first = 1;
		FILE *in;
		snprintf(name, sizeof name, f ? "%s.%d" : "%s", path, f);
		if (!(in = fopen(name, "r")))
			break;
		while (fscanf(in, "%llu %llu", &end, &sys) == 2) {
			int k = first ? -1 : stretch_of(t, n, pend, end);
			if (k >= 0 && sys > psys) {
				if (count == cap && !(s = realloc(s, (cap = cap ? 2 * cap : 4096) * sizeof *s)))
					return 0;
				s[count++] = (struct sample){ k, (double)(end - pend) / (double)(sys - psys) };
			}
			first = 0;
			pend = end;
			psys = sys;
		}
		fclose(in);
	}
	*out = s;
	return count;
}

/* Median ns/syscall of each stretch (NAN with too few blocks). */
static void stretch_medians(struct sample *s, size_t count, double *med, int n)
{
	qsort(s, count, sizeof *s, cmp_sample);
	for (int k = 0; k < n; k++)
		med[k] = NAN;
	for (size_t i = 0, j; i < count; i = j) {
		for (j = i; j < count && s[j].k == s[i].k; j++)
			;
		if (j - i >= MIN_BLOCKS)
			med[s[i].k] = s[i + (j - i) / 2].ns;
	}
}

static double quantile(double *v, int n, double q)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return v[(int)(q * (n - 1) + 0.5)];
}

/* Each attached stretch against the mean of its two detached neighbours. */
static int floor_report(const char *kind, const char *blocks, const struct toggle *t, int n)
{
	static double med[MAX_TOGGLES], diff[MAX_TOGGLES], att[MAX_TOGGLES], det[MAX_TOGGLES];
	struct sample *s = NULL;
	size_t count = read_blocks(blocks, t, n, &s);
	int nd = 0, na = 0, nt = 0;

	stretch_medians(s, count, med, n);
	free(s);
	for (int k = 1; k + 1 < n; k++)
		if (t[k].attached && !isnan(med[k]) && !isnan(med[k - 1]) && !isnan(med[k + 1]))
			diff[nd++] = med[k] - (med[k - 1] + med[k + 1]) / 2;
	for (int k = 0; k < n; k++) /* toggle k's duration, by direction */
		if (t[k].attached)
			att[na++] = (double)(t[k].end - t[k].begin) / 1e6;
		else
			det[nt++] = (double)(t[k].end - t[k].begin) / 1e6;
	if (nd < 3 || !na || !nt) {
		fprintf(stderr, "iorprogstat: floor %s: %d attached stretches with enough blocks (%zu blocks in %d stretches): run the workload longer or with -blocks\n",
			kind, nd, count, n);
		return 1;
	}
	printf("iorprogstat: floor %s added_ns=%.1f q1=%.1f q3=%.1f segments=%d attach_ms=%.2f detach_ms=%.2f\n",
	       kind, quantile(diff, nd, 0.5), quantile(diff, nd, 0.25), quantile(diff, nd, 0.75), nd,
	       quantile(att, na, 0.5), quantile(det, nt, 0.5));
	return 0;
}

/* What floor toggles: a program for sys_enter and one for sys_exit, and
 * the tracepoint to name (NULL: a tp_btf program names its own). */
struct pair_progs {
	int fd[2];
	const char *tp[2];
};

/* The exit first, as ior attaches (and floor_cmd detaches the enter
 * first): a syscall in between is an exit without an enter, which ior
 * counts and drops, never a half pair. */
static int attach_both(const struct pair_progs *pp, int *fds)
{
	if ((fds[1] = ior_sys_raw_tracepoint_open(pp->tp[1], pp->fd[1])) < 0)
		return fds[1];
	if ((fds[0] = ior_sys_raw_tracepoint_open(pp->tp[0], pp->fd[0])) < 0) {
		close(fds[1]);
		return fds[0];
	}
	return 0;
}

/* KIND pid=PID: the syscall programs of an ior started with
 * -benchDetached (loaded, not attached), found by name in PID's fds. */
static int ior_progs(const char *pid, struct pair_progs *pp)
{
	static const char *const names[2][2] = { { "ior_btf_enter", "ior_raw_enter" },
						 { "ior_btf_exit", "ior_raw_exit" } };
	uint32_t ids[MAX_IDS];
	int n = collect_ids(pid, ids, MAX_IDS);

	pp->fd[0] = pp->fd[1] = -1;
	for (int i = 0; i < n; i++) {
		struct bpf_prog_info info;
		int fd = prog_by_id(ids[i], &info);
		if (fd < 0)
			continue;
		for (int d = 0; d < 2; d++)
			for (int raw = 0; raw < 2; raw++)
				if (!strcmp(info.name, names[d][raw]) && pp->fd[d] < 0) {
					pp->fd[d] = fd;
					pp->tp[d] = raw ? (d ? "sys_exit" : "sys_enter") : NULL;
				}
		if (fd != pp->fd[0] && fd != pp->fd[1])
			close(fd);
	}
	return pp->fd[0] >= 0 && pp->fd[1] >= 0 ? 0 : -ENOENT;
}

/* KIND: a probe kind (one program on both) or pid=PID. */
static int floor_progs(const char *kind, struct pair_progs *pp)
{
	struct bpf_insn insns[8];

	if (!strncmp(kind, "pid=", 4))
		return ior_progs(kind + 4, pp);
	pp->fd[0] = pp->fd[1] = probe_load(kind, insns);
	pp->tp[0] = "sys_enter";
	pp->tp[1] = "sys_exit";
	return pp->fd[0] < 0 ? pp->fd[0] : 0;
}

static int floor_cmd(const char *kind, int ms, const char *blocks, char **cmd)
{
	static struct toggle t[MAX_TOGGLES];
	struct pair_progs pp = { { -1, -1 }, { NULL, NULL } };
	int r = floor_progs(kind, &pp), fds[2] = { -1, -1 }, n = 0, attached = 0, st, e = 0;
	pid_t child;

	if (r < 0 || ms < 1) {
		fprintf(stderr, "iorprogstat: floor %s: %s\n", kind,
			ms < 1 ? "MS must be >= 1" : r == -ENOENT ? "no ior syscall programs in that process (start ior with -benchDetached)" : strerror(-r));
		return r == -EINVAL || ms < 1 ? 2 : 1;
	}
	if ((child = fork()) == 0) {
		execvp(cmd[0], cmd);
		_exit(127);
	}
	if (child < 0)
		return 1;
	sleep_ms(WARMUP_MS);
	while (n < MAX_TOGGLES && waitpid(child, &st, WNOHANG) == 0) {
		t[n].begin = mono_ns();
		if (attached) {
			close(fds[0]);
			close(fds[1]);
		} else if ((e = attach_both(&pp, fds)) < 0) {
			break;
		}
		t[n].end = mono_ns();
		t[n++].attached = attached = !attached;
		sleep_ms(ms);
	}
	if (attached) {
		close(fds[0]);
		close(fds[1]);
	}
	if (e < 0) {
		kill(child, SIGKILL);
		fprintf(stderr, "iorprogstat: floor %s: attach: %s\n", kind, strerror(-e));
	}
	if (waitpid(child, &st, 0) == child && (!WIFEXITED(st) || WEXITSTATUS(st))) {
		fprintf(stderr, "iorprogstat: floor %s: %s failed\n", kind, cmd[0]);
		return 1;
	}
	return e < 0 ? 1 : floor_report(kind, blocks, t, n);
}

static int probe(const char *kind, char **cmd)
{
	struct bpf_insn insns[8];
	struct bpf_prog_info info;
	union bpf_attr a;
	int fd, st;
	pid_t child;

	int e = fd = probe_load(kind, insns);
	if (e == -EINVAL) {
		fprintf(stderr, "iorprogstat: unknown probe '%s'\n", kind);
		return 2;
	}
	if (fd >= 0 && (e = ior_sys_raw_tracepoint_open("sys_enter", fd)) >= 0)
		e = ior_sys_raw_tracepoint_open("sys_exit", fd);
	if (e < 0) {
		fprintf(stderr, "iorprogstat: probe %s: %s\n", kind, strerror(-e));
		return 1;
	}
	if ((child = fork()) == 0) {
		execvp(cmd[0], cmd);
		_exit(127);
	}
	if (child < 0 || waitpid(child, &st, 0) < 0)
		return 1;
	memset(&info, 0, sizeof info);
	memset(&a, 0, sizeof a);
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof info;
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof a) || !info.run_cnt) {
		fprintf(stderr, "iorprogstat: probe %s: no runs counted (run 'iorprogstat enable' first)\n", kind);
		return 1;
	}
	printf("iorprogstat: %s runs=%llu ns_per_run=%.1f\n", kind, (unsigned long long)info.run_cnt,
	       (double)info.run_time_ns / (double)info.run_cnt);
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : 1;
}

int main(int argc, char **argv)
{
	uint32_t ids[MAX_IDS];
	int n;

	if (argc >= 4 && !strcmp(argv[1], "probe"))
		return probe(argv[2], argv + 3);
	if (argc >= 6 && !strcmp(argv[1], "floor"))
		return floor_cmd(argv[2], atoi(argv[3]), argv[4], argv + 5);
	if (argc != 2) {
		fprintf(stderr, "usage: iorprogstat enable | PID | probe KIND CMD... | floor KIND MS BLOCKS CMD...\n");
		return 2;
	}
	if (!strcmp(argv[1], "enable"))
		return enable();
	if ((n = collect_ids(argv[1], ids, MAX_IDS)) < 0) {
		fprintf(stderr, "iorprogstat: /proc/%s/fdinfo: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (int i = 0; i < n; i++)
		show(ids[i]);
	return 0;
}
