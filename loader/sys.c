/* One thin wrapper per bpf(2) command. Each zeroes its attr and passes
 * offsetofend(union bpf_attr, last field used) as the size, so a kernel
 * older than our headers (6.1 in the VM test) sees no unknown tail. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "loader/internal.h"

#define offsetofend(T, m) (offsetof(T, m) + sizeof(((T *)0)->m))

int ior_loader_fail(char *err, size_t errlen, int e, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -e;
}

const char *ior_loader_hint(int e)
{
	switch (e) {
	case EPERM:
	case EACCES:
		return "; run as root or grant CAP_BPF and CAP_PERFMON";
	case ENOSYS:
		return "; this kernel has no bpf(2) (built without CONFIG_BPF_SYSCALL)";
	default:
		return "";
	}
}

static uint64_t ptr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static int sys_bpf(int cmd, union bpf_attr *attr, size_t size)
{
	long r = syscall(__NR_bpf, cmd, attr, (unsigned)size);
	return r < 0 ? -errno : (int)r;
}

static void copy_name(char dst[BPF_OBJ_NAME_LEN], const char *name)
{
	if (name)
		strncpy(dst, name, BPF_OBJ_NAME_LEN - 1);
}

int ior_sys_map_create(const struct ior_sys_map_def *d)
{
	union bpf_attr a;
	memset(&a, 0, sizeof a);
	a.map_type = d->type;
	a.key_size = d->key_size;
	a.value_size = d->value_size;
	a.max_entries = d->max_entries;
	a.map_flags = d->flags;
	copy_name(a.map_name, d->name);
	if (d->btf_fd >= 0 && d->btf_value_id) {
		a.btf_fd = (uint32_t)d->btf_fd;
		a.btf_key_type_id = d->btf_key_id;
		a.btf_value_type_id = d->btf_value_id;
	}
	return sys_bpf(BPF_MAP_CREATE, &a, offsetofend(union bpf_attr, btf_value_type_id));
}

static int map_elem(int cmd, int fd, const void *key, const void *value, uint64_t flags)
{
	union bpf_attr a;
	memset(&a, 0, sizeof a);
	a.map_fd = (uint32_t)fd;
	a.key = ptr(key);
	a.value = ptr(value);
	a.flags = flags;
	int r = sys_bpf(cmd, &a, offsetofend(union bpf_attr, flags));
	return r < 0 ? r : 0;
}

int ior_sys_map_update_elem(int fd, const void *key, const void *value, uint64_t flags)
{
	return map_elem(BPF_MAP_UPDATE_ELEM, fd, key, value, flags);
}

int ior_sys_map_lookup_elem(int fd, const void *key, void *value)
{
	return map_elem(BPF_MAP_LOOKUP_ELEM, fd, key, value, 0);
}

int ior_sys_map_delete_elem(int fd, const void *key)
{
	return map_elem(BPF_MAP_DELETE_ELEM, fd, key, NULL, 0);
}

/* next_key shares the attribute's value slot. */
int ior_sys_map_get_next_key(int fd, const void *key, void *next)
{
	return map_elem(BPF_MAP_GET_NEXT_KEY, fd, key, next, 0);
}

int ior_sys_prog_run_on_cpu(int prog_fd, int cpu, uint32_t *retval)
{
	uint64_t ctx = 0; /* raw tracepoint programs take an array of u64 */
	union bpf_attr a;
	memset(&a, 0, sizeof a);
	a.test.prog_fd = (uint32_t)prog_fd;
	a.test.ctx_in = ptr(&ctx);
	a.test.ctx_size_in = sizeof ctx;
	a.test.flags = BPF_F_TEST_RUN_ON_CPU;
	a.test.cpu = (uint32_t)cpu;
	int r = sys_bpf(BPF_PROG_TEST_RUN, &a, offsetofend(union bpf_attr, test.cpu));
	if (r < 0)
		return r;
	*retval = a.test.retval;
	return 0;
}

int ior_sys_map_freeze(int fd)
{
	union bpf_attr a;
	memset(&a, 0, sizeof a);
	a.map_fd = (uint32_t)fd;
	int r = sys_bpf(BPF_MAP_FREEZE, &a, offsetofend(union bpf_attr, map_fd));
	return r < 0 ? r : 0;
}

int ior_sys_btf_load(const void *btf, uint32_t size, char *log, uint32_t log_size)
{
	union bpf_attr a;
	memset(&a, 0, sizeof a);
	a.btf = ptr(btf);
	a.btf_size = size;
	if (log && log_size) {
		a.btf_log_buf = ptr(log);
		a.btf_log_size = log_size;
		a.btf_log_level = 1;
	}
	return sys_bpf(BPF_BTF_LOAD, &a, offsetofend(union bpf_attr, btf_log_level));
}

int ior_sys_prog_load(const struct ior_sys_prog_def *d)
{
	union bpf_attr a;
	memset(&a, 0, sizeof a);
	a.prog_type = d->type;
	a.insns = ptr(d->insns);
	a.insn_cnt = d->ninsns;
	a.license = ptr(d->license);
	copy_name(a.prog_name, d->name);
	a.expected_attach_type = d->attach_type;
	a.attach_btf_id = d->attach_btf_id;
	if (d->log && d->log_size) {
		a.log_level = d->log_level;
		a.log_buf = ptr(d->log);
		a.log_size = d->log_size;
	}
	if (d->btf_fd >= 0) {
		a.prog_btf_fd = (uint32_t)d->btf_fd;
		a.func_info_rec_size = sizeof(struct bpf_func_info);
		a.func_info = ptr(d->func_info);
		a.func_info_cnt = d->nfunc;
		a.line_info_rec_size = sizeof(struct bpf_line_info);
		a.line_info = ptr(d->line_info);
		a.line_info_cnt = d->nline;
	}
	int fd, tries = 5;
	do
		fd = sys_bpf(BPF_PROG_LOAD, &a, offsetofend(union bpf_attr, attach_btf_id));
	while (fd == -EAGAIN && --tries);
	return fd;
}

int ior_sys_raw_tracepoint_open(const char *name, int prog_fd)
{
	union bpf_attr a;
	memset(&a, 0, sizeof a);
	a.raw_tracepoint.name = ptr(name);
	a.raw_tracepoint.prog_fd = (uint32_t)prog_fd;
	return sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &a,
		       offsetofend(union bpf_attr, raw_tracepoint.prog_fd));
}

int ior_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			    unsigned long flags)
{
	long r = syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
	return r < 0 ? -errno : (int)r;
}

int ior_loader_bpf_output_open(int cpu, uint32_t wakeup_bytes, char *err, size_t errlen)
{
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_BPF_OUTPUT;
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.sample_period = 1;
	if (wakeup_bytes) {
		attr.watermark = 1;
		attr.wakeup_watermark = wakeup_bytes;
	} else {
		attr.wakeup_events = 1;
	}
	int fd = ior_sys_perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return ior_loader_fail(err, errlen, -fd,
				       "perf event (BPF output) on cpu %d: failed to open: %s%s", cpu,
				       strerror(-fd), ior_loader_hint(-fd));
	return fd;
}

/* Kernels before 5.11 charge BPF memory to RLIMIT_MEMLOCK, per user, and
 * keep charging an exited ior's maps until they are freed: a second run
 * right after a first was refused its first map (EPERM, seen on 5.10).
 * Raising it costs nothing on any kernel, so every path raises it before
 * its first bpf(2), and a failure is mentioned only when a map then
 * cannot be created. */
bool ior_sys_raise_memlock(void)
{
	struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };
	return setrlimit(RLIMIT_MEMLOCK, &r) == 0;
}

int ior_loader_probe_bpf(char *err, size_t errlen)
{
	ior_sys_raise_memlock();
	struct ior_sys_map_def d = { .name = "ior_check", .type = BPF_MAP_TYPE_ARRAY, .key_size = 4,
				     .value_size = 4, .max_entries = 1, .btf_fd = -1 };
	int fd = ior_sys_map_create(&d);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return ior_loader_fail(err, errlen, -fd, "creating a map: %s%s", strerror(-fd), ior_loader_hint(-fd));
}
