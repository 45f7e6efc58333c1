/* Following processes: bpf.c's "followed" set of tgids (a probe loaded
 * with cfg.follow traces only them; its fork program adds their new
 * processes, the exit of a process's last thread removes it), the descendants a
 * process has already (/proc/PID/task/TID/children), and the end of a
 * -pid/-tid target (a pidfd where the kernel has them, >= 5.3; /proc
 * otherwise). */
#ifndef IOR_RUN_FOLLOW_H
#define IOR_RUN_FOLLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/probe.h"

/* Adds pid to the followed set. 0, or -errno with err filled (-E2BIG: full). */
int ior_follow_add(const struct ior_probe *p, uint32_t pid, char *err, size_t errlen);
/* Processes in the set; entries of processes that are gone (they left
 * before the exit program could see them: seeded too late) are removed. */
size_t ior_follow_count(const struct ior_probe *p);

/* The pids in a children file ("12 34 "): up to max into out; returns
 * how many there are. Pure. */
size_t ior_follow_parse_children(const char *text, uint32_t *out, size_t max);
/* pid's descendants now, breadth first, up to max; returns how many were
 * stored. */
size_t ior_follow_descendants(uint32_t pid, uint32_t *out, size_t max);

/* The state letter in a /proc/PID/stat line (after the comm's last ')'),
 * or 0 when there is none. Pure. */
char ior_follow_stat_state(const char *text, size_t len);
/* Whether process or thread id is gone: no /proc entry, or a zombie. */
bool ior_follow_gone(uint32_t id);

/* A -pid or -tid target, watched for its end. */
struct ior_watch {
	uint32_t id;
	int pidfd; /* -1: /proc is polled */
};

void ior_watch_open(struct ior_watch *w, uint32_t id, bool thread);
bool ior_watch_ended(struct ior_watch *w);
void ior_watch_close(struct ior_watch *w);

#endif
