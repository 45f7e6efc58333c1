/* ior's pairs as Parquet: one row per event pair or summary row, the
 * columns of docs/parquet.md, the recording's header and totals as
 * key-value metadata. Over a stdio stream (ior_pq_pairs_new) or a file
 * written as PATH.tmp and renamed to PATH only when it is complete
 * (ior_pq_pairs_open/close), so a run killed mid-way leaves no PATH, and
 * never a file an engine would read as shorter than it is.
 * Single-threaded; errors are negative errnos, sticky. */
#ifndef IOR_PARQUET_PAIRS_H
#define IOR_PARQUET_PAIRS_H

#include "pair/event_pair.h"
#include "rec/rec.h"

#include <stdint.h>
#include <stdio.h>

#define IOR_PQ_ZSTD_LEVEL 1
#define IOR_PQ_TMP_SUFFIX ".tmp"

/* What the file says about where its rows come from. Strings are copied. */
struct ior_pq_info {
	const char *host;        /* the host column; NULL: "" */
	const char *boot_id;     /* the boot_id column; NULL or "": null */
	const char *kernel;      /* metadata only, NULL: left out */
	const char *ior_version;
	const char *cmdline;     /* the flags (filters) the trace ran with */
	const char *source;      /* the recording converted, NULL when live */
	/* time_ns = enter_ns - start_monotonic_ns + start_realtime_ns;
	 * start_realtime_ns 0: time_ns is the monotonic time */
	uint64_t start_realtime_ns, start_monotonic_ns;
};

struct ior_pq_pairs;

int ior_pq_pairs_new(struct ior_pq_pairs **pp, FILE *out, const struct ior_pq_info *info);
/* Creates PATH.tmp; the message in err names it. */
int ior_pq_pairs_open(struct ior_pq_pairs **pp, const char *path, const struct ior_pq_info *info,
		      char *err, size_t errlen);
int ior_pq_pairs_add(struct ior_pq_pairs *pp, const struct ior_event_pair *p);
/* The same with a recording's string ids (rec/rec.h): a string met
 * before costs no hashing. */
int ior_pq_pairs_add_ids(struct ior_pq_pairs *pp, const struct ior_event_pair *p, const struct ior_rec_ids *ids);
/* A metadata entry beside the header's (say, "ior.truncated"). */
int ior_pq_pairs_set_meta(struct ior_pq_pairs *pp, const char *key, const char *value);
uint64_t ior_pq_pairs_rows(const struct ior_pq_pairs *pp);
/* Writes the footer with totals (NULL: none), and for an opened file
 * closes it and renames it to PATH (on failure, removes PATH.tmp). Frees
 * pp in every case. */
int ior_pq_pairs_close(struct ior_pq_pairs *pp, const struct ior_trace_totals *totals, char *err,
		       size_t errlen);
/* Drops pp; an opened file's PATH.tmp is removed. */
void ior_pq_pairs_abort(struct ior_pq_pairs *pp);

#endif
