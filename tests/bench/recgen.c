/* iorrecgen: writes a synthetic recording, to measure and test the
 * reading side (ior collapsed, ior -ior=FILE) on big files.
 *
 *   iorrecgen FILE PAIRS DISTINCT [overlay|deep]
 *
 * PAIRS newstat pairs by one process ("stat-er", 4 threads) on DISTINCT
 * paths, path i % DISTINCT for pair i, through the recording writer ior
 * uses (rec/rec.h). overlay (the default): long container overlay paths
 * that share their first components; deep: ten components, each one
 * distinct per path (the most frames a path can add to a flamegraph).
 * Deterministic: the same arguments give the same file. Prints nothing on
 * success. */
#include "rec/rec.h"
#include "syscalls/syscalls.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long positive(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	return *s && !*end && v > 0 ? v : -1;
}

static void path_of(char *buf, size_t len, long i, bool deep)
{
	if (deep)
		snprintf(buf, len, "/v%ld/l%ld/c%ld/o%ld/%08lx/d%ld/u%ld/l%ld/x%ld/file-%ld", i, i, i, i,
			 (unsigned long)i * 2654435761ul % 0xffffffff, i, i, i, i, i);
	else
		snprintf(buf, len, "/var/lib/containers/overlay/%08lx/diff/usr/lib/file-%ld",
			 (unsigned long)i * 2654435761ul % 0xffffffff, i);
}

int main(int argc, char **argv)
{
	bool args = argc == 4 || argc == 5, deep = argc == 5 && !strcmp(argv[4], "deep");
	long n = args ? positive(argv[2]) : -1, d = args ? positive(argv[3]) : -1;
	struct ior_rec_writer *w;
	char err[256], path[256];

	if (n < 0 || d < 0 || (argc == 5 && !deep && strcmp(argv[4], "overlay"))) {
		fprintf(stderr, "usage: iorrecgen FILE PAIRS DISTINCT [overlay|deep] (PAIRS, DISTINCT positive)\n");
		return 2;
	}
	struct ior_rec_info info = { .host = "recgen", .kernel = "recgen", .cmdline = "",
				     .start_realtime_ns = 1764672000000000000ull, .start_monotonic_ns = 1 };
	if (ior_rec_writer_open(&w, argv[1], &info, err, sizeof err)) {
		fprintf(stderr, "iorrecgen: %s\n", err);
		return 1;
	}
	uint16_t sys = (uint16_t)ior_syscall_index(ior_syscall_by_name("newstat"));
	for (long i = 0; i < n; i++) {
		path_of(path, sizeof path, i % d, deep);
		struct ior_event_pair p = {
			.enter_ns = 1000 + (uint64_t)i * 1000, .duration_ns = 500 + (uint64_t)(i % 7),
			.gap_ns = 500, .flags = IOR_FLAGS_UNKNOWN, .pid = 100, .tid = 100 + (uint32_t)(i % 4),
			.fd = -1, .sys = sys, .comm = "stat-er", .path = path, .path2 = "",
		};
		if (ior_rec_write(w, &p)) {
			ior_rec_writer_close(w, NULL, err, sizeof err);
			fprintf(stderr, "iorrecgen: %s: write failed\n", argv[1]);
			return 1;
		}
	}
	if (ior_rec_writer_close(w, NULL, err, sizeof err)) {
		fprintf(stderr, "iorrecgen: %s\n", err);
		return 1;
	}
	return 0;
}
