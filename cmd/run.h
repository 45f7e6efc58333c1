/* What a trace is about, for cmd/trace.c: the command ior -- CMD starts
 * (held until the programs are attached, then released), the followed
 * processes (-follow, and CMD's descendants), and the end of the target
 * (CMD exited, the -pid/-tid process or thread exited, the followed tree
 * is gone), said in one line. */
#ifndef IOR_CMD_RUN_H
#define IOR_CMD_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "opts.h"
#include "run/follow.h"
#include "run/launch.h"
#include "trace/session.h"

struct run_target {
	const struct ior_opts *o;
	bool follow;            /* the followed set filters the trace */
	bool launched;          /* CMD was started (held, then released) */
	bool forwarded;         /* a stop signal was passed on to CMD already */
	uint32_t root;          /* CMD's pid, or -pid's */
	size_t descendants;     /* -follow: the ones it had at the start */
	struct ior_launch launch;
	struct ior_watch watch; /* -pid/-tid without -follow; pidfd -1 when unused */
	bool watching;
	bool keep;              /* the trace outlives its target */
	bool said;              /* the end of the target was said (keep: once) */
	uint64_t next_count_ns;
	struct ior_session *session;
	char err[512];
};

/* The options about the target, and whether it exists: 0, 1 or 2. */
int run_check(const struct ior_opts *o);
/* Starts CMD held, or opens the watch of -pid/-tid. keep: the trace goes
 * on when its target ended (-live, the text reports: a person watches).
 * 0, or 1 (said why). */
int run_start(struct run_target *r, const struct ior_opts *o, bool keep);
/* After the session is open, before attach: the followed set's root. */
int run_seed(struct run_target *r, struct ior_session *s);
/* After attach: the descendants -follow finds. The pid the snapshot of
 * descriptors is for (-1: all processes). */
int64_t run_attached(struct run_target *r, struct ior_session *s);
/* Lets CMD exec. 0, or 1 (said why). */
int run_release(struct run_target *r);
/* Whether the trace ends because its target did (said in one line on
 * stderr); with keep the line is said and the trace goes on. */
bool run_ended(struct run_target *r, uint64_t now);
/* A stop signal came (from_tty: the terminal sent it to CMD too): passed
 * on to CMD the first time (true: trace on until CMD exits). */
bool run_forward(struct run_target *r, volatile sig_atomic_t *sig, bool from_tty);
/* After the trace: waits for CMD and returns its exit code (128 + N for
 * signal N; rc when it is 0), or rc when there is no CMD. */
int run_finish(struct run_target *r, int rc, volatile sig_atomic_t *sig, volatile sig_atomic_t *from_tty);
/* Setup failed: CMD, held, is killed. */
void run_abort(struct run_target *r);
/* The dashboard's title: what is traced. */
const char *run_title(const struct ior_opts *o);

#endif
