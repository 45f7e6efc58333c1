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
 *
 * Statistics through an fd rather than the sysctl: they end with this
 * process, whatever happens to the bench, and cost the other programs on
 * the machine nothing afterwards. */
#include "loader/internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

static void show(uint32_t id)
{
	struct bpf_prog_info info;
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof a);
	a.prog_id = id;
	if ((fd = (int)sys_bpf(BPF_PROG_GET_FD_BY_ID, &a, sizeof a)) < 0)
		return;
	memset(&info, 0, sizeof info);
	memset(&a, 0, sizeof a);
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof info;
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (!sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof a) && !strncmp(info.name, "ior_", 4))
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

static int probe(const char *kind, char **cmd)
{
	struct bpf_insn insns[8];
	struct bpf_prog_info info;
	union bpf_attr a;
	int n = probe_insns(kind, insns), fd, st;
	pid_t child;

	if (n < 0) {
		fprintf(stderr, "iorprogstat: unknown probe '%s'\n", kind);
		return 2;
	}
	const struct ior_sys_prog_def def = { .name = "ior_probe", .license = "GPL",
					      .type = BPF_PROG_TYPE_RAW_TRACEPOINT, .insns = insns,
					      .ninsns = (uint32_t)n, .btf_fd = -1 };
	int e = fd = ior_sys_prog_load(&def);
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
	if (argc != 2) {
		fprintf(stderr, "usage: iorprogstat enable | PID | probe KIND CMD...\n");
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
