/* The flight recorder (-recorder): every pair encoded into self-contained
 * recording frames kept in a bounded ring (ring.h); when a trigger fires
 * (trigger.h, or ior_recorder_dump_now: SIGUSR1, the dashboard's key), a
 * dump: HOST-NAME-TIME-trigger.ior.zst in dir, holding the window before
 * and -after after, its trailer naming the trigger and its pair
 * (rec/rec.h). The dump file is written through out/ (PATH.tmp, renamed
 * when complete: a SIGKILL leaves a complete dump or none); the ring's
 * frames go to it when the trigger fires, later frames as they are cut.
 * A dump that cannot be written is said in one line and the recorder
 * goes on. Each dump's line goes through ior_log (INFO); nothing else
 * prints. Single-threaded, like the session that feeds it. */
#ifndef IOR_RECORDER_RECORDER_H
#define IOR_RECORDER_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pair/pair.h"
#include "pair/sink.h"
#include "recorder/ring.h"
#include "recorder/trigger.h"

#define IOR_RECORDER_MIN_BYTES (4u << 20)

struct ior_recorder_cfg {
	uint64_t window_ns;       /* -recorder */
	uint64_t max_bytes;       /* -recorder-size: all the recorder owns, at least IOR_RECORDER_MIN_BYTES */
	uint64_t after_ns;        /* -after */
	unsigned max_dumps;       /* -max-dumps; 0: no limit */
	const struct ior_trigger *triggers; /* copied */
	size_t ntriggers;
	const char *dir;          /* where dumps go; NULL: "." */
	const char *host, *name;  /* of the file names (NULL host: uname's) */
	/* the session's in-flight syscalls (inflight triggers; NULL: none) and
	 * totals (each frame's, for a dump's trailer; NULL: zeros) */
	size_t (*in_flight)(void *ctx, struct ior_in_flight *out, size_t max);
	void (*totals)(void *ctx, struct ior_trace_totals *t);
	void *ctx;
};

/* What the dashboard and -summary show. */
struct ior_recorder_state {
	uint64_t covers_ns;   /* the time the ring holds */
	uint64_t bytes;       /* owned: the frames held, the encoder, the recorder itself */
	uint64_t max_bytes, window_ns;
	uint64_t frames_max;  /* of max_bytes, the ring's (the rest: the encoder and the recorder) */
	size_t armed;         /* triggers that can fire now (0 during a dump, a cooldown, past -max-dumps) */
	size_t ntriggers;
	unsigned dumps, failed; /* written, and failed */
	bool dumping;         /* a dump is waiting for its -after */
	uint64_t dropped_pairs; /* dropped by the size bound before the window was full */
	char last[4096];      /* the last dump's path, "" when none */
};

struct ior_recorder;

/* 0, or -errno with err filled. */
int ior_recorder_new(struct ior_recorder **out, const struct ior_recorder_cfg *cfg, char *err, size_t errlen);
struct ior_sink ior_recorder_sink(struct ior_recorder *r);
/* A dump now (why: "SIGUSR1", "key"): 0, or -EBUSY while one is being
 * written, -EDQUOT past -max-dumps. */
int ior_recorder_dump_now(struct ior_recorder *r, const char *why);
/* At the end of the trace: a dump waiting for its -after is written
 * with what there is. 0, or 1 when a dump failed (said already). */
int ior_recorder_close(struct ior_recorder *r);
void ior_recorder_state(const struct ior_recorder *r, struct ior_recorder_state *s);
void ior_recorder_free(struct ior_recorder *r);

#endif
