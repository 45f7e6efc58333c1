/* ior -list: the syscalls this kernel and arch can trace, with number,
 * family and whether the selection flags trace them; and the selection
 * itself, shared with the tracer. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loader/loader.h"
#include "opts.h"
#include "bpf/event.h"
#include "syscalls/select.h"
#include "syscalls/syscalls.h"

int ior_cmd_select(const struct ior_opts *o, unsigned char *sel)
{
	struct ior_select s = { o->trace_families, o->trace_syscalls, o->no_trace_families,
				o->no_trace_syscalls, o->tps, o->tps_exclude };
	const struct { const char *name, *v; } flags[] = {
		{ "trace-families", o->trace_families }, { "trace-syscalls", o->trace_syscalls },
		{ "no-trace-families", o->no_trace_families }, { "no-trace-syscalls", o->no_trace_syscalls },
		{ "tps", o->tps }, { "tpsExclude", o->tps_exclude },
	};
	char err[8192];
	int r = ior_trace_select(&s, sel, err, sizeof err);

	if (r < 0) {
		fprintf(stderr, "ior: %s\n", err);
		return 2;
	}
	if (r == 0) {
		fprintf(stderr, "ior: the selection flags select no syscall:");
		for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
			if (flags[i].v && *flags[i].v)
				fprintf(stderr, " -%s \"%s\"", flags[i].name, flags[i].v);
		fprintf(stderr, " (-tps filters the selected families, by default " IOR_DEFAULT_FAMILIES
				"; -trace-families=all selects every one; see ior -list)\n");
		return 2;
	}
	return 0;
}

/* "yes", "no", or "fds": not selected but traced, unseen, to keep the fd
 * table right (trace/probe.h). */
static const char *traced(const struct ior_syscall *s, int selected)
{
	return selected ? "yes" : ior_syscall_keeps_fds(s) ? "fds" : "no";
}

int ior_cmd_list(const struct ior_opts *o)
{
	static unsigned char sel[IOR_NR_MAX];
	char err[512], missing[4096] = "";
	unsigned present = 0, nsel = 0, nasync = 0, nasync_here = 0;
	bool mounted = false;
	int r = ior_cmd_select(o, sel);

	if (r)
		return r;
	if (!ior_loader_tracefs(&mounted, err, sizeof err)) {
		fprintf(stderr, "ior -list: %s\n", err);
		return 1;
	}
	printf("%-4s %-24s %-9s %s\n", "NR", "SYSCALL", "FAMILY", "TRACED");
	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		const struct ior_syscall *s = &ior_syscalls[i];
		char tp[96];
		const char *cat;
		ior_syscall_tracepoint(s, &cat, tp, sizeof tp);
		r = ior_loader_tracepoint_id(cat, tp, err, sizeof err);
		if (r == -ENOENT) {
			size_t n = strlen(missing);
			snprintf(missing + n, sizeof missing - n, " %s", s->name);
			continue;
		}
		if (r < 0) {
			fprintf(stderr, "ior -list: %s\n", err);
			return 1;
		}
		present++;
		nsel += sel[i];
		nasync_here += ior_syscall_async(s) != 0;
		printf("%-4u %-24s %-9s %s\n", s->nr, s->name, ior_family_name(s->family), traced(s, sel[i]));
	}
	for (unsigned i = 0; i < ior_nsyscalls; i++)
		nasync += ior_syscall_async(&ior_syscalls[i]) != 0;
	printf("# %u of ior's %u syscalls and %u of its %u async ops have tracepoints here, %u traced with "
	       "these flags; not here:%s\n", present - nasync_here, ior_nsyscalls - nasync, nasync_here, nasync,
	       nsel, missing[0] ? missing : " none");
	return 0;
}
