/* iorrecgen: writes a synthetic recording, to measure and test the
 * reading side (ior collapsed, ior -ior=FILE) on big files.
 *
 *   iorrecgen FILE PAIRS DISTINCT
 *
 * PAIRS newstat pairs by one process ("stat-er", 4 threads) on DISTINCT
 * long overlay-style paths, path i % DISTINCT for pair i, through the
 * recording writer ior uses (trace/rec.h). Deterministic: the same
 * arguments give the same file. Prints nothing on success. */
#include "trace/rec.h"
#include "trace/syscalls.h"

#include <stdio.h>
#include <stdlib.h>

static long positive(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	return *s && !*end && v > 0 ? v : -1;
}

static void path_of(char *buf, size_t len, long i)
{
	snprintf(buf, len, "/var/lib/containers/overlay/%08lx/diff/usr/lib/file-%ld",
		 (unsigned long)i * 2654435761ul % 0xffffffff, i);
}

int main(int argc, char **argv)
{
	long n = argc == 4 ? positive(argv[2]) : -1, d = argc == 4 ? positive(argv[3]) : -1;
	struct ior_rec_writer *w;
	char err[256], path[128];

	if (n < 0 || d < 0) {
		fprintf(stderr, "usage: iorrecgen FILE PAIRS DISTINCT (both positive)\n");
		return 2;
	}
	if (ior_rec_writer_open(&w, argv[1], NULL, err, sizeof err)) {
		fprintf(stderr, "iorrecgen: %s\n", err);
		return 1;
	}
	uint16_t sys = (uint16_t)ior_syscall_index(ior_syscall_by_name("newstat"));
	for (long i = 0; i < n; i++) {
		path_of(path, sizeof path, i % d);
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
