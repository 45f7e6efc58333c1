/* Triggers of the flight recorder (-trigger EXPR): what makes it keep the
 * seconds around a moment. The parser treats EXPR as hostile (it comes
 * from a command line or a runbook): bounded, strict, one error line.
 *
 *   [SYSCALL:]duration>D   or SYSCALL>D   a pair slower than D
 *   [SYSCALL:]errno=NAME|any              a pair that failed (ret < 0)
 *   [SYSCALL:]inflight>D                  entered D ago and not returned
 *   pairs/s>N, errors/s>N                 over a sliding second
 * then any of ",path=GLOB" (fnmatch on the pair's path), ",comm=NAME"
 * (exact), ",syscall=NAME", ",cooldown=D" (quiet after a dump).
 * D: a number and ns, us, ms, s, m or h ("500ms", "1.5s"; bare: seconds).
 * A rate counts the pairs its filters pass. */
#ifndef IOR_RECORDER_TRIGGER_H
#define IOR_RECORDER_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pair/event_pair.h"

#define IOR_TRIGGER_TEXT 256   /* longest expression */
#define IOR_TRIGGER_GLOB 256   /* longest path glob */
#define IOR_TRIGGER_COOLDOWN_DEFAULT UINT64_MAX /* the recorder's window */

enum ior_trigger_kind {
	IOR_TRIGGER_DURATION,
	IOR_TRIGGER_ERRNO,
	IOR_TRIGGER_INFLIGHT,
	IOR_TRIGGER_PAIRS_RATE,
	IOR_TRIGGER_ERRORS_RATE,
};

#define IOR_RATE_BUCKETS 10 /* a second in tenths */

struct ior_trigger {
	char text[IOR_TRIGGER_TEXT + 1];
	enum ior_trigger_kind kind;
	int sys;                /* an ior_sys() index; -1: any syscall */
	uint64_t ns;            /* duration and inflight thresholds (pair >, strictly) */
	int err;                /* errno: its number; 0: any error */
	uint64_t rate;          /* rates: fires above this many per second */
	char glob[IOR_TRIGGER_GLOB + 1]; /* "": any path */
	char comm[16];          /* "": any command */
	uint64_t cooldown_ns;   /* IOR_TRIGGER_COOLDOWN_DEFAULT: the window */
	/* rates: the sliding second */
	uint64_t bucket_at;     /* enter_ns / 100 ms of buckets' newest */
	uint64_t buckets[IOR_RATE_BUCKETS], sum;
};

/* 0, or -EINVAL with err saying what it could not read ("want ..."). */
int ior_trigger_parse(struct ior_trigger *t, const char *expr, char *err, size_t errlen);
/* Whether the filters (syscall, path, comm) take p. */
bool ior_trigger_filters(const struct ior_trigger *t, const struct ior_event_pair *p);
/* Whether p fires t (rates count it, and fire when over). */
bool ior_trigger_pair(struct ior_trigger *t, const struct ior_event_pair *p);
/* Whether a syscall entered at enter_ns and still running at now_ns
 * fires t (inflight only); comm and path as known so far. */
bool ior_trigger_in_flight(const struct ior_trigger *t, uint16_t sys, const char *comm,
			   const char *path, uint64_t enter_ns, uint64_t now_ns);
/* A strict duration, as in EXPR: 0 or -1. */
int ior_trigger_duration(const char *s, size_t n, uint64_t *ns);

#endif
