/* Recordings (.ior.zst): every event pair of a trace, compactly encoded in
 * a stream of independent zstd frames. Format: docs/format.md.
 *
 * Writer: single-threaded (the trace loop owns it). A frame is written at
 * least once a second (ior_rec_tick) and whenever 1 MiB of encoded pairs is
 * buffered, so a recording cut by SIGKILL, power loss or a full disk reads
 * back up to its last complete frame.
 *
 * Reader: treats the file as hostile. Every length, id and table size is
 * bounded; a corrupt file is an error, never a crash. Only pairs from
 * complete frames are delivered. A file without its trailer reads as
 * "truncated" (ior_rec_reader_truncated), not as an error.
 *
 * Functions returning int: 0 (or 1 for "a pair was read") on success,
 * negative errno on failure with a message in err / ior_rec_reader_error. */
#ifndef IOR_REC_REC_H
#define IOR_REC_REC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "pair/block.h"
#include "pair/event_pair.h"

#define IOR_RECORDING_VERSION 6 /* 2: summary rows; 3: wait timeouts; 4: triggers; 5: where io_uring ops ran; 6: block requests; reads 1 to 5 too */
#define IOR_RECORDING_SUFFIX ".ior.zst"

/* What a recording says about itself (its header). */
struct ior_rec_info {
	unsigned version;            /* reader: the file's format version */
	const char *host;            /* writer: NULL = uname nodename */
	const char *kernel;          /* writer: NULL = uname release */
	const char *cmdline;         /* the flags the recording was made with;
				      * writer: NULL = this process's command line */
	uint64_t start_realtime_ns;  /* writer: 0 = now (CLOCK_REALTIME) */
	uint64_t start_monotonic_ns; /* writer: 0 = now (CLOCK_MONOTONIC) */
};

struct ior_rec_writer;
struct ior_rec_reader;
struct ior_rec_trigger;

/* "<host>-<name>-<YYYY-MM-DD_HH:MM:SS>.ior.zst" in local time; '/' and
 * control characters in host and name become '_'. -ENAMETOOLONG when it
 * does not fit in len bytes. */
int ior_rec_default_name(char *buf, size_t len, const char *host, const char *name, time_t t);

/* The command line this process runs with, arguments joined by spaces
 * (what a header's cmdline defaults to; a Parquet file says it too). */
void ior_rec_own_cmdline(char *buf, size_t len);

/* Creates path private to its owner (out/out.h: PATH.tmp, 0600, the sudo
 * user's, never through a link), writes the header frame and renames it
 * over path at once, so a cut run leaves a readable recording. info may be
 * NULL (all defaults). Strings in info are copied. */
int ior_rec_writer_open(struct ior_rec_writer **w, const char *path,
			const struct ior_rec_info *info, char *err, size_t errlen);
/* Appends one pair (strings are copied as needed). Errors are sticky: after
 * a failed write (ENOSPC, EIO) nothing more is written, and every later call
 * returns the same error; the file stays readable up to its last frame. */
int ior_rec_write(struct ior_rec_writer *w, const struct ior_event_pair *p);
/* Call from the poll loop with CLOCK_MONOTONIC ns: writes the buffered
 * pairs as one frame when the last frame is 1 s old. */
int ior_rec_tick(struct ior_rec_writer *w, uint64_t now_ns);
/* Appends one completed block request (version 6), and the name of its
 * device (pair/devname.h, this host's) the first time it appears; in
 * frames mode (ior_rec_writer_open_frames) nothing: frames keep pairs. */
int ior_rec_write_block(struct ior_rec_writer *w, const struct ior_block_req *r);
uint64_t ior_rec_writer_pairs(const struct ior_rec_writer *w);
uint64_t ior_rec_writer_bytes(const struct ior_rec_writer *w); /* written so far */
/* Writes the buffered pairs and the trailer (totals may be NULL: zeros
 * except pairs), closes the file and frees w (always, even on error). */
int ior_rec_writer_close(struct ior_rec_writer *w, const struct ior_trace_totals *totals,
			 char *err, size_t errlen);

/* ---- frames to memory: the recorder's ring (recorder/) ------------------
 * The same encoding, but every frame stands alone: it starts with a RESET,
 * so strings and thread state never reach back into an earlier frame, and
 * any run of consecutive frames after a header frame is a recording. Each
 * frame goes to fn (data valid during the call) with the enter times of
 * its first and last pairs; fn's -errno is sticky like a write error. */
typedef int (*ior_rec_frame_fn)(void *ctx, const void *data, size_t len, uint64_t first_ns,
				uint64_t last_ns, uint64_t pairs);
/* flush_ns: a frame at least this often (ior_rec_tick), besides every
 * 1 MiB of records. */
int ior_rec_writer_open_frames(struct ior_rec_writer **w, ior_rec_frame_fn fn, void *ctx,
			       uint64_t flush_ns);
/* Closes the frame being filled now (if it holds anything). */
int ior_rec_writer_cut(struct ior_rec_writer *w);
/* Frames mode: frees w (nothing buffered is kept: cut first). */
void ior_rec_writer_free(struct ior_rec_writer *w);
/* The bytes w has allocated. A frames writer allocates them all when it
 * opens (its buffers, its zstd context's workspace, its string table for
 * a frame's strings) and never more, whatever it is given. */
size_t ior_rec_writer_memory(const struct ior_rec_writer *w);
/* Frames mode, between frames (cut first; else -EBUSY): a header frame
 * (info as for ior_rec_writer_open) or a trailer frame (as
 * ior_rec_trailer_frame) made in w's own buffers, so that a dump costs the
 * recorder no memory; *data is valid until the next call on w. */
int ior_rec_writer_header(struct ior_rec_writer *w, const struct ior_rec_info *info, const void **data, size_t *len);
int ior_rec_writer_trailer(struct ior_rec_writer *w, const struct ior_trace_totals *totals,
			   const struct ior_rec_trigger *trigger, const void **data, size_t *len);

/* What fired a dump (its trailer, version 4): the trigger's text, when it
 * fired, and the pair that fired it, if one did. */
enum ior_rec_trigger_kind {
	IOR_REC_TRIGGER_NONE,      /* no pair: a signal, a key, a rate */
	IOR_REC_TRIGGER_PAIR,      /* pair is the one that fired */
	IOR_REC_TRIGGER_IN_FLIGHT, /* pair had entered and not returned: duration is its age, ret 0 */
};
struct ior_rec_trigger {
	const char *expr;       /* at most 1024 bytes are kept */
	uint64_t fired_ns;      /* CLOCK_MONOTONIC */
	enum ior_rec_trigger_kind kind;
	struct ior_event_pair pair; /* comm and path used; not a summary row */
};
/* A whole zstd frame holding a header (info as for ior_rec_writer_open),
 * or a trailer (totals may be NULL; trigger may be NULL), in *buf
 * (malloc'd, the caller frees it). */
int ior_rec_header_frame(const struct ior_rec_info *info, void **buf, size_t *len);
int ior_rec_trailer_frame(const struct ior_trace_totals *totals, const struct ior_rec_trigger *trigger,
			  void **buf, size_t *len);

/* Opens a recording and reads its header. */
int ior_rec_reader_open(struct ior_rec_reader **r, const char *path, char *err, size_t errlen);
/* Same over memory (not copied: data must outlive the reader). */
int ior_rec_reader_open_mem(struct ior_rec_reader **r, const void *data, size_t len,
			    char *err, size_t errlen);
/* 1: *p holds the next pair (its strings stay valid until the next call);
 * 0: end of recording (clean or truncated); <0: corrupt or I/O error, see
 * ior_rec_reader_error. p->sys is an ior_sys() index (syscalls.h): the
 * names come from the file, whatever arch wrote it; a name no ior table
 * knows is defined on its first use (ior_rec_reader_unknown). */
int ior_rec_read(struct ior_rec_reader *r, struct ior_event_pair *p);

/* Fast path for aggregation: like ior_rec_read, also returns the string ids
 * of comm/path/path2. Ids are small dense integers (0 = ""), stable until
 * gen changes (the writer may reset its string table in long recordings). */
struct ior_rec_ids {
	uint32_t comm, path, path2;
	uint32_t gen;
};
int ior_rec_read_ids(struct ior_rec_reader *r, struct ior_event_pair *p, struct ior_rec_ids *ids);
/* The string for an id of the current generation; NULL when out of range
 * (and always with a define hook). */
const char *ior_rec_reader_string(const struct ior_rec_reader *r, uint32_t id);
uint32_t ior_rec_reader_nstrings(const struct ior_rec_reader *r);
/* Strings kept once, by the caller: from this call on the reader keeps no
 * string bytes (a generation may hold 64 MiB of them). define is called
 * with every string the reader holds, then with each one the file defines
 * as it is read (NUL-terminated, n bytes, valid during the call), and
 * gives the 32-bit value the reader then returns in ior_rec_ids for that
 * id (gen still counts the file's resets, after which ids are defined
 * anew). p->comm, p->path and p->path2 are NULL from then on. define
 * returns 0 or a negative errno, which fails the read. Calling it again
 * with the same define and ctx does nothing; with others: -EINVAL. */
typedef int (*ior_rec_define_cb)(void *ctx, const char *s, size_t n, uint32_t *value);
int ior_rec_reader_map_strings(struct ior_rec_reader *r, ior_rec_define_cb define, void *ctx);

/* Block requests and device names (version 6) are handed to these as
 * they are read, between the pairs, when set (else skipped). r's strings
 * live for the call; with a define hook (ior_rec_reader_map_strings) comm
 * and path are "". A hook returning nonzero fails the read with it. */
struct ior_rec_block_hooks {
	int (*block)(void *ctx, const struct ior_block_req *r);
	int (*devname)(void *ctx, uint32_t dev, const char *name);
	void *ctx;
};
void ior_rec_reader_block_hooks(struct ior_rec_reader *r, const struct ior_rec_block_hooks *h);

/* How many syscall names the pairs read so far used that no ior table
 * knows (a newer kernel's): they read under their names, family Misc.
 * *names (may be NULL): those names, escaped, comma-separated, "..." when
 * too many to list; valid until the reader is closed. Readers say so in
 * one warning line. */
unsigned ior_rec_reader_unknown(const struct ior_rec_reader *r, const char **names);
const struct ior_rec_info *ior_rec_reader_info(const struct ior_rec_reader *r);
/* What fired a dump: NULL until its trailer was read, or when the
 * recording is no dump. Strings valid until the reader is closed. */
const struct ior_rec_trigger *ior_rec_reader_trigger(const struct ior_rec_reader *r);
/* NULL until the trailer has been read (so: NULL for truncated files). */
const struct ior_trace_totals *ior_rec_reader_totals(const struct ior_rec_reader *r);
/* After ior_rec_read returned 0: true when the file ended without a
 * trailer; *pairs = pairs and summary rows delivered, *last_frame_end = file offset just
 * after the last complete frame. Either pointer may be NULL. */
bool ior_rec_reader_truncated(const struct ior_rec_reader *r, uint64_t *pairs,
			      uint64_t *last_frame_end);
/* After the trailer was read: bytes the file holds after its last frame
 * (appended, or damaged), 0 when none. Readers must say so. */
uint64_t ior_rec_reader_trailing(const struct ior_rec_reader *r);
const char *ior_rec_reader_error(const struct ior_rec_reader *r);
void ior_rec_reader_close(struct ior_rec_reader *r);

#endif
