/* ior -- CMD: the command, started held so that its first syscall is
 * traced. The child takes its user (run/passwd.h), then stops itself
 * with SIGSTOP; the stop happens after its kill() syscall returned, so no
 * syscall of it straddles the attach. The caller seeds the followed set
 * with its pid, attaches, then releases it (SIGCONT): it execs CMD at
 * once. Nothing here prints: errors come back in err. */
#ifndef IOR_RUN_LAUNCH_H
#define IOR_RUN_LAUNCH_H

#include <stddef.h>
#include <sys/types.h>

#include "run/passwd.h"

struct ior_launch {
	pid_t pid;     /* the child, 0 when none (reaped) */
	int errfd;     /* read end of the child's close-on-exec error pipe, or -1 */
	int status;    /* waitpid's, once reaped */
	char path[4096]; /* CMD as found in PATH */
};

/* Who CMD runs as, from -u, SUDO_UID/SUDO_GID (root only) and the files
 * under etc ("/etc"). 0, or -errno with err filled. */
int ior_launch_cred(struct ior_cred *c, const char *user, const char *etc, char *err, size_t errlen);
/* Finds argv[0] in PATH, forks, waits for the child to stop. 0, or
 * -errno with err filled (the child is gone then). */
int ior_launch_start(struct ior_launch *l, char *const argv[], const struct ior_cred *c, char *err,
		     size_t errlen);
/* Lets it run: 0 once it exec'd CMD, or -errno with err filled (it could
 * not: it is reaped). */
int ior_launch_release(struct ior_launch *l, char *err, size_t errlen);
/* 1 when it exited (l->status holds how; reaped), 0 while it runs. block:
 * waits for it, but returns 0 when a signal interrupts (the caller may
 * pass it on). */
int ior_launch_wait(struct ior_launch *l, int block);
/* Kills and reaps a child that is not to run (setup failed). */
void ior_launch_abort(struct ior_launch *l);
/* The shell's view of a wait status: the exit code, 128 + a signal. */
int ior_launch_exit_code(int status);

#endif
