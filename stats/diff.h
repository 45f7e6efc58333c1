/* What changed between two runs' statistics (ior diff -summary): per
 * syscall, file and command, BASE's counts, time and bytes scaled by a
 * factor into NEW's units (the caller's normalization), percentiles as
 * they are, sorted by the absolute change in time. Text for people,
 * JSON for scripts; names from the traced system are escaped in both. */
#ifndef IOR_STATS_DIFF_H
#define IOR_STATS_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/stats.h"
#include "pair/norm.h"

/* One key's two sides. */
struct ior_stats_change {
	const char *name;            /* raw: escape before showing; valid while both stats
				      * and this change live (a command's is in comm) */
	char comm[16];
	struct ior_stats_sums base, new_; /* base scaled */
	uint64_t base_p50, new_p50, base_p99, new_p99; /* syscalls, when known (hist) */
	bool base_hist, new_hist;
};

/* The changes of one table (SYSCALLS, FILES, or PROCESSES by command
 * name), largest absolute change in time first, into *out (the caller
 * frees it); *n of them. 0, -ENOMEM or -EINVAL. */
int ior_stats_diff(struct ior_stats *base, struct ior_stats *new_, enum ior_stats_table table, double factor,
		   struct ior_stats_change **out, unsigned *n);

/* What ior_norm_factor needs of a run's statistics: its span, and its
 * total by the normalization's measure (share: time; rate: pairs, which
 * only say why a span is 0). */
void ior_stats_norm_side(struct ior_stats *s, enum ior_norm n, struct ior_norm_side *side);

/* One run's table by key, to look another run's rows up in: syscalls and
 * files by name, processes (and threads) by command with their pids
 * merged; the (other) row found as IOR_STATS_OTHER. The rows' names point
 * into s: keep it, unchanged, while the side is used. */
struct ior_stats_side {
	struct ior_stats_row *rows; /* sorted by key */
	unsigned n;
	enum ior_stats_table table; /* SYSCALLS, FILES or PROCESSES */
};

/* table THREADS is taken as PROCESSES. 0, -ENOMEM or -EINVAL. */
int ior_stats_side_of(struct ior_stats *s, enum ior_stats_table table, struct ior_stats_side *side);
/* The row of key (a name, or a command for processes); NULL when absent. */
const struct ior_stats_row *ior_stats_side_find(const struct ior_stats_side *side, const char *key);
void ior_stats_side_free(struct ior_stats_side *side);

/* One device and operation's two sides (the Devices table, by the
 * device's name: the recording's, else this host's, as -summary names
 * it). BASE's requests, bytes and device time scaled by the factor;
 * device-time percentiles as they are, known when that side had requests
 * at the device. */
struct ior_stats_dev_change {
	char device[64];   /* raw: escape before showing */
	uint8_t op;        /* enum ior_blk_op */
	uint64_t base_requests, new_requests, base_bytes, new_bytes, base_device_ns, new_device_ns;
	uint64_t base_p50, new_p50, base_p99, new_p99;
	bool base_lat, new_lat;
};

/* Every device row of either run, sorted by device name, then op, into
 * *out (the caller frees it); *n of them. 0 or -ENOMEM. */
int ior_stats_diff_devices(struct ior_stats *base, struct ior_stats *new_, double factor,
			   struct ior_stats_dev_change **out, unsigned *n);

struct ior_stats_diff_cfg {
	const char *base_name, *new_name; /* the files */
	const char *normalize;            /* its name, said once */
	double factor;
	unsigned top;                     /* rows per table; 0: 10 */
	bool json;
};

/* The report of the three tables, then the devices (text: when either
 * run had block requests; JSON: always, maybe empty): 0, or -ENOMEM /
 * -EIO. */
int ior_stats_diff_report(struct ior_stats *base, struct ior_stats *new_, FILE *out,
			  const struct ior_stats_diff_cfg *cfg);

#endif
