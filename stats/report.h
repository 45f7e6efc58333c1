/* The text report of a trace's statistics (ior -summary, ior summary
 * FILE): a totals line, then the Syscalls, Files and Processes tables as
 * aligned text, like strace -c with percentiles and files.
 *
 * Columns are separated by spaces and hold no space themselves: counts
 * and bytes exact, times human-readable ("850ns", "12.3µs", "4.56ms",
 * "1.23s"; "us" under IOR_ESCAPE_ALWAYS), "-" for unknown. The last
 * column of Files (the path) and Processes (the comm) is escaped as in
 * the CSV (csv/csv.h), so a name from the traced system cannot forge a
 * line or a terminal escape. Rows by total time, most first; Files and
 * Processes end with an "(other)" row for what did not fit. */
#ifndef IOR_STATS_REPORT_H
#define IOR_STATS_REPORT_H

#include <stdio.h>

#include "stats/stats.h"
#include "text/escape.h"

struct ior_stats_report_cfg {
	enum ior_escape esc;
	unsigned rows; /* rows of Files and Processes before (other); 0: 20 */
	/* A device's name (a recording's); NULL: this host's (pair/devname.h) */
	const char *(*dev_name)(void *ctx, uint32_t dev);
	void *dev_ctx;
};

/* Writes the report to out. 0, -ENOMEM, or -EIO when out reports an error. */
int ior_stats_report(struct ior_stats *s, FILE *out, const struct ior_stats_report_cfg *cfg);

/* The Devices table (stats/devices.h) after the report, when block
 * requests were seen: a line per device and op (requests and bytes as
 * /proc/diskstats counts them), its device-time histogram by powers of
 * two, the top processes and files; devices named by cfg->dev_name.
 * 0 or -EIO. */
int ior_stats_report_devices(struct ior_stats *s, FILE *out, const struct ior_stats_report_cfg *cfg);

/* "850ns", "12.3µs" (3 significant digits from µs on), "4.56ms", "1.23s",
 * "1234s"; ascii: "us". */
void ior_stats_format_ns(char *buf, size_t len, uint64_t ns, bool ascii);

#endif
