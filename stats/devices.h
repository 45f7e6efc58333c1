/* The device table: block requests (pair/block.h) per device and
 * operation, what biolatency prints and what /proc/diskstats counts:
 * requests, bytes, queue and device latency, and who waited on each
 * device (the top submitting processes and files). Requests never issued
 * (a flush sequence's empty write) count, as diskstats counts them, but
 * stay out of the latency histograms. Memory: a row per (device, op) seen, at most
 * IOR_DEV_MAX_ROWS (the rest counted in dropped); IOR_DEV_TOP
 * processes and files per row, the others summed in (other). */
#ifndef IOR_STATS_DEVICES_H
#define IOR_STATS_DEVICES_H

#include <stdint.h>

#include "pair/block.h"
#include "pair/event_pair.h"
#include "stats/hist.h"

#define IOR_DEV_MAX_ROWS 256
#define IOR_DEV_TOP 8
#define IOR_DEV_MAX_NAMES 256

struct ior_dev_who {
	uint64_t requests, bytes;
	uint32_t pid;      /* processes: the pid; files: 0 */
	char name[256];    /* processes: comm; files: the path (raw: escape to show) */
};

struct ior_dev_row {
	uint32_t dev;      /* kernel encoding: major << 20 | minor */
	uint8_t op;        /* enum ior_blk_op */
	uint64_t requests, bytes, errors;
	uint64_t in_pairs, in_pairs_bytes; /* charged to a traced syscall */
	uint64_t not_issued; /* of requests: never issued (flush sequences), not in the histograms */
	struct ior_hist queue, device; /* ns */
	struct ior_dev_who procs[IOR_DEV_TOP + 1], files[IOR_DEV_TOP + 1]; /* last: (other) */
	unsigned nprocs, nfiles;
};

struct ior_devices {
	struct ior_dev_row *rows;
	unsigned n;
	uint64_t dropped; /* requests of rows past IOR_DEV_MAX_ROWS */
	/* Of the pairs (ior_stats_add): read pairs by enum ior_cache_kind,
	 * the pages they added, the pairs with block requests and their
	 * device time. */
	uint64_t cache[4], cache_pages, blk_pairs, device_ns;
	/* Names a recording gave its devices (its host's), at most
	 * IOR_DEV_MAX_NAMES; raw: escape to show. */
	struct ior_dev_name { uint32_t dev; char name[64]; } *names;
	unsigned nnames;
};

void ior_devices_init(struct ior_devices *d);
void ior_devices_free(struct ior_devices *d);
/* One completed request. */
void ior_devices_add(struct ior_devices *d, const struct ior_block_req *r);
/* Keeps dev's name (a recording's, say); a second name replaces the
 * first. 0, or -ENOMEM / -ENOSPC past IOR_DEV_MAX_NAMES. */
int ior_devices_set_name(struct ior_devices *d, uint32_t dev, const char *name);
/* The name set for dev, or NULL. */
const char *ior_devices_name(const struct ior_devices *d, uint32_t dev);
/* Rows sorted by device, then op. */
void ior_devices_sort(struct ior_devices *d);

#endif
