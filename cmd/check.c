/* ior -check: can this machine trace? One line per requirement, then the
 * verdict. Exit 0 when tracing can work, 1 with the first reason when not.
 * Mode wiring: it sees the loader and trace. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/bpf.h>

#include "loader/loader.h"
#include "log/log.h"
#include "opts.h"
#include "bpf/event.h"
#include "trace/features.h"
#include "trace/probe.h"
#include "syscalls/syscalls.h"

#define RING_PAGES 8 /* data pages of the probe ring: any power of two */

struct check {
	char reason[1024]; /* first failure */
	/* the syscalls whose tracepoints exist (all when that is unknown):
	 * what the bpf object line brings up, the missing ones said once */
	unsigned char sel[IOR_NR_MAX];
};

static void line(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(const char *what, const char *fmt, ...)
{
	va_list ap;
	printf("%-13s", what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void failed(struct check *c, const char *what, const char *why)
{
	line(what, "FAILED: %s", why);
	size_t first_line = strcspn(why, "\n");
	if (!c->reason[0])
		snprintf(c->reason, sizeof c->reason, "%s %.*s", what,
			 (int)(first_line < 900 ? first_line : 900), why);
}

static void check_kernel(void)
{
	struct utsname u;
	if (uname(&u))
		line("kernel:", "unknown (uname: %s)", strerror(errno));
	else
		line("kernel:", "%s %s %s", u.sysname, u.release, u.machine);
}

static void check_bpf(struct check *c)
{
	char why[256];
	if (!ior_loader_probe_bpf(why, sizeof why)) {
		line("bpf(2):", "ok");
		return;
	}
	failed(c, "bpf(2):", why);
}

/* The kernel features table (trace/features.h) as the probe left it:
 * each present or not, and what ior does without it. */
static void check_features(void)
{
	static const char *const state[] = { "unknown", "no", "yes" };

	for (unsigned i = 0; i < IOR_NFEATURES; i++) {
		const struct ior_feature *f = ior_feature(i);
		line(i ? "" : "features:", "%s: %s%s%s%s%s%s", f->name, state[f->state], f->detail[0] ? " (" : "",
		     f->detail, f->detail[0] ? ")" : "", f->state == IOR_FEAT_PRESENT ? "" : "; without it: ",
		     f->state == IOR_FEAT_PRESENT ? "" : f->without);
	}
}

/* Lockdown's confidentiality mode withholds bpf_probe_read_kernel and
 * tracefs; the verifier then reports an unknown helper, which would point
 * at the wrong cause. Integrity mode (Secure Boot's default) is fine. */
static void check_lockdown(struct check *c)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/security/lockdown", "r");

	if (!f)
		return; /* no securityfs or no lockdown LSM: nothing to say */
	if (!fgets(buf, sizeof buf, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	if (strstr(buf, "[confidentiality]"))
		failed(c, "lockdown:", "confidentiality mode forbids what ior's BPF programs read "
		       "(bpf_probe_read_kernel, tracefs): boot with lockdown=integrity or without lockdown");
	else
		line("lockdown:", "%s", buf[0] ? buf : "unknown");
}

static const char *check_tracefs(struct check *c)
{
	char err[512];
	bool mounted = false;
	const char *root = ior_loader_tracefs(&mounted, err, sizeof err);
	if (!root)
		failed(c, "tracefs:", err);
	else
		line("tracefs:", "%s%s", root, mounted ? " (mounted by ior -check)" : "");
	return root;
}

/* 1 present, 0 missing, <0 cannot tell (err filled). */
static int has_tracepoint(const char *category, const char *prefix, const char *name, char *err, size_t errlen)
{
	char tp[128];
	snprintf(tp, sizeof tp, "%s%s", prefix, name);
	int id = ior_loader_tracepoint_id(category, tp, err, errlen);
	return id >= 0 ? 1 : id == -ENOENT ? 0 : id;
}

/* An async op's row: its kind's tracepoint (the probe says more). */
static int has_async(const struct ior_syscall *s, char *err, size_t errlen)
{
	char tp[96];
	const char *cat;
	ior_syscall_tracepoint(s, &cat, tp, sizeof tp);
	return has_tracepoint(cat, "", tp, err, errlen);
}

static void check_tracepoints(struct check *c)
{
	char err[512], missing[4096] = ""; /* every name: a kernel lacks a family's newest */
	unsigned present = 0, nmissing = 0, nasync = 0;
	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		const char *name = ior_syscalls[i].name;
		if (ior_syscall_async(&ior_syscalls[i])) {
			int in = has_async(&ior_syscalls[i], err, sizeof err);
			c->sel[i] = in > 0;
			nasync++;
			continue;
		}
		int in = has_tracepoint("syscalls", "sys_enter_", name, err, sizeof err);
		int out = in > 0 ? has_tracepoint("syscalls", "sys_exit_", name, err, sizeof err) : in;
		if (in < 0 || out < 0) {
			failed(c, "tracepoints:", err);
			return;
		}
		c->sel[i] = in && out;
		if (in && out) {
			present++;
			continue;
		}
		size_t n = strlen(missing);
		nmissing++;
		snprintf(missing + n, sizeof missing - n, "%s%s", n ? " " : "", name);
	}
	if (!present) {
		failed(c, "tracepoints:", "none of ior's syscall tracepoints exist "
					  "(kernel without CONFIG_FTRACE_SYSCALLS?)");
		return;
	}
	if (nmissing)
		line("tracepoints:", "%u/%u syscalls (missing %u: %s)", present, ior_nsyscalls - nasync, nmissing,
		     missing);
	else
		line("tracepoints:", "%u/%u syscalls", present, ior_nsyscalls - nasync);
}

static void check_perf_buffer(struct check *c)
{
	char err[512];
	int fd = ior_loader_bpf_output_open(0, 0, err, sizeof err);
	if (fd < 0) {
		failed(c, "perf buffer:", err);
		return;
	}
	size_t len = (size_t)(1 + RING_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
	void *ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		snprintf(err, sizeof err, "mmap of a %zu-byte ring: %s%s", len, strerror(errno),
			 errno == EPERM ? "; raise perf_event_mlock_kb or run as root" : "");
		failed(c, "perf buffer:", err);
	} else {
		munmap(ring, len);
		line("perf buffer:", "ok (BPF output event + mmap on cpu 0)");
	}
	close(fd);
}

/* The probe's warnings (log/log.h) as -check lines. */
static void probe_warning(void *ctx, enum ior_log_level level, const char *msg)
{
	(void)ctx;
	if (level != IOR_LOG_DEBUG)
		line("", "%s%s", level == IOR_LOG_WARN ? "warning: " : "", msg);
}

/* Brings bpf.c up exactly as the tracer does (trace/probe.h: the same
 * programs, filters, sys_conf and attach table) for every syscall this
 * kernel has, then detaches: proves the kernel accepts them where tracing
 * puts them. */
static void check_object(struct check *c, bool verbose)
{
	static char err[64 << 10];
	size_t size = (size_t)(ior_bpf_object_end - ior_bpf_object);
	struct ior_probe_cfg cfg = { .object = ior_bpf_object, .object_size = size, .pid = -1, .tid = -1,
				     .comm = "", .sel = c->sel, .verbose = verbose };
	struct ior_probe p;
	const char *names[IOR_PROBE_MAX_ATTACH + 4];

	void *out;
	ior_log_fn print = ior_log_set(probe_warning, NULL, &out);
	int r = ior_probe_load(&p, &cfg, err, sizeof err);
	if (!r)
		r = ior_probe_attach(&p, err, sizeof err);
	ior_log_set(print, out, NULL);
	if (r) {
		failed(c, "bpf object:", err); /* a rejection brings its log (all of it with -verbose) */
		ior_probe_close(&p);
		return;
	}
	unsigned n = ior_probe_programs(&p, names, IOR_PROBE_MAX_ATTACH + 4);
	line("bpf object:", "loads, verifies and attaches (%u of its %u programs, %u maps, %zu bytes)", n,
	     ior_loader_prog_count(p.obj), ior_loader_map_count(p.obj), size);
	line("programs:", "%s", p.use_btf ? "BTF (tp_btf: direct reads, cheapest)"
					  : "raw (the BTF programs are not usable here: see the warning)");
	line("async ops:", "io_uring %s%s%s%s, libaio %s", p.uring_tp ? p.uring_tp : "not traced (see the warning)",
	     p.uring_files ? " + registered files" : "", p.uring_failed ? " + refused requests" : "",
	     p.uring_where ? " + where they ran" : "",
	     p.aio ? "io_submit/io_getevents" : "not traced (see the warning)");
	if (verbose && ior_loader_verifier_log(p.obj))
		printf("%s\n", ior_loader_verifier_log(p.obj));
	ior_probe_close(&p);
}

int ior_cmd_check(const struct ior_opts *o)
{
	static struct check c;

	memset(c.sel, 1, ior_nsyscalls);
	check_kernel();
	check_lockdown(&c);
	check_bpf(&c);
	if (check_tracefs(&c))
		check_tracepoints(&c);
	check_perf_buffer(&c);
	check_object(&c, o->verbose);
	check_features();
	fflush(stdout);
	if (c.reason[0]) {
		fprintf(stderr, "ior -check: tracing cannot work: %s\n", c.reason);
		return 1;
	}
	printf("ior -check: tracing can work\n");
	return 0;
}
