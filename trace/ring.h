/* One per-CPU perf ring (PERF_COUNT_SW_BPF_OUTPUT, PERF_SAMPLE_RAW) that
 * bpf_perf_event_output writes into. The reader is pure over memory
 * (tests use a fake mmap page in plain memory); ior_ring_open/close add the
 * perf_event_open and mmap. One reader per ring; not thread-safe. */
#ifndef IOR_TRACE_RING_H
#define IOR_TRACE_RING_H

#include <stddef.h>
#include <stdint.h>

struct ior_ring {
	void *meta;          /* struct perf_event_mmap_page */
	char *data;          /* data area, size bytes (a power of two) */
	uint64_t size;
	size_t map_len;      /* 0 for rings over caller memory */
	int fd;              /* -1 for rings over caller memory */
	uint64_t lost;       /* samples dropped (PERF_RECORD_LOST): batches */
	uint64_t samples;    /* raw samples read */
	uint64_t bad;        /* malformed records (reader gave up the rest) */
	uint64_t read;       /* ior_ring_read's position: read up to here, >= data_tail */
	char scratch[65536]; /* a record wrapping the end (perf sizes are u16) */
};

/* Raw sample bytes (len includes the kernel's padding to 8 bytes); return
 * nonzero to stop before this record (it is delivered again next drain). */
typedef int (*ior_ring_cb)(void *ctx, const void *raw, size_t len);

/* A ring over memory: meta is the control page, data the area after it. */
void ior_ring_init(struct ior_ring *r, void *meta, void *data, uint64_t size);

/* Reads every record the kernel has published (head loaded with acquire),
 * hands samples to cb, counts LOST records, and gives the space back
 * (tail stored with release). Returns the number of samples delivered. */
size_t ior_ring_drain(struct ior_ring *r, ior_ring_cb cb, void *ctx);

/* Raw sample bytes at ring position pos; in_place: raw points into the
 * ring itself and stays valid until ior_ring_release passes pos, else
 * (a sample wrapping the end) into scratch, valid during the call only.
 * Return nonzero to stop before this sample (it comes again next read). */
typedef int (*ior_ring_ref_cb)(void *ctx, const void *raw, size_t len, uint64_t pos, int in_place);

/* ior_ring_drain without giving the space back: the records stay where
 * the kernel wrote them, so they are read in place, not copied; the
 * caller gives the space back with ior_ring_release once it is done with
 * them. Returns the number of samples delivered. */
size_t ior_ring_read(struct ior_ring *r, ior_ring_ref_cb cb, void *ctx);

/* Gives the kernel back the space before pos (at most what was read):
 * the caller holds no sample at or after pos. UINT64_MAX: all read. */
void ior_ring_release(struct ior_ring *r, uint64_t pos);

/* Bytes published and not yet given back. */
uint64_t ior_ring_pending(const struct ior_ring *r);

/* perf_event_open of a BPF output event on cpu with a data area of size
 * bytes (power of two, multiple of the page size), waking a poll()er when
 * wakeup_bytes are pending; then mmap. 0 or -errno with err filled. */
int ior_ring_open(struct ior_ring *r, int cpu, uint64_t size, uint32_t wakeup_bytes,
		  char *err, size_t errlen);
void ior_ring_close(struct ior_ring *r);

#endif
