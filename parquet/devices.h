/* The device table as Parquet, beside the pairs file (docs/parquet.md):
 * OUT's stem + ".devices.parquet", one row per device and operation
 * (requests, bytes, queue and device latency min/p50/p95/p99/max), and
 * ".device_hist.parquet", one row per non-empty log2 latency bucket of
 * each (the histogram biolatency prints). The rows come from the caller
 * (cmd/ builds them from stats/devices.h): this room only writes them.
 * Each file is written as PATH.tmp and renamed when complete. */
#ifndef IOR_PARQUET_DEVICES_H
#define IOR_PARQUET_DEVICES_H

#include "parquet/pairs.h"

#include <stdbool.h>
#include <stdint.h>

#define IOR_PQ_LOG2_BUCKETS 65 /* [0], then [2^(i-1), 2^i) ns for i in 1..64 */

struct ior_pq_dev_row {
	const char *device;    /* the name (raw: escaped in the file) */
	uint32_t major, minor;
	const char *op;        /* read, write, discard, flush, other */
	uint64_t requests, bytes, errors;
	uint64_t in_syscalls, syscall_bytes; /* charged to a traced syscall */
	uint64_t not_issued;   /* of requests: never at the device, not in the latencies */
	bool issued;           /* some were: the latency columns are known */
	uint64_t queue_lat[5], device_lat[5]; /* ns: min, p50, p95, p99, max */
	uint64_t device_sum_ns; /* the issued requests' device times added */
	uint64_t queue_log2[IOR_PQ_LOG2_BUCKETS], device_log2[IOR_PQ_LOG2_BUCKETS];
};

/* The two paths for a pairs file PATH ("x.parquet" -> "x.devices.parquet",
 * "x.device_hist.parquet"; a PATH without ".parquet" gets them appended).
 * -ENAMETOOLONG when they do not fit len. */
int ior_pq_devices_paths(const char *pairs_path, char *devices, char *hist, size_t len);

/* Writes both files (rows in the order given). info: the pairs file's
 * (host column and metadata). 0, or a negative errno with err naming the
 * file; a failed file leaves no PATH. */
int ior_pq_devices_write(const char *devices_path, const char *hist_path, const struct ior_pq_info *info,
			 const struct ior_pq_dev_row *rows, unsigned n, char *err, size_t errlen);

#endif
