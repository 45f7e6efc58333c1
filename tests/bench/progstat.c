/* iorprogstat: BPF run-time statistics for scripts/bench.sh.
 *
 *   iorprogstat enable     turns the kernel's BPF run-time statistics on
 *                          (BPF_ENABLE_STATS) until it is killed or its
 *                          stdin closes; prints "iorprogstat: enabled"
 *   iorprogstat PID        one line per BPF program PID holds (a program
 *                          or link fd), named ior_*:
 *                          NAME ID RUN_CNT RUN_TIME_NS XLATED_INSNS JITED_BYTES
 *
 * Statistics through an fd rather than the sysctl: they end with this
 * process, whatever happens to the bench, and cost the other programs on
 * the machine nothing afterwards. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
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

int main(int argc, char **argv)
{
	uint32_t ids[MAX_IDS];
	int n;

	if (argc != 2) {
		fprintf(stderr, "usage: iorprogstat enable | PID\n");
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
