/* Which syscalls to trace: -tps / -tpsExclude, comma-separated POSIX
 * extended regexes matched (unanchored, like the original ior) against the
 * tracepoint name without prefix ("openat") or with it
 * ("sys_enter_openat"); either matching counts. Empty -tps selects all;
 * an exclude match always wins. Pure. */
#ifndef IOR_TRACE_SELECT_H
#define IOR_TRACE_SELECT_H

#include <stddef.h>

/* sel[i] = 1 when ior_syscalls[i] is selected (sel has ior_nsyscalls
 * entries). Returns how many are selected, or -EINVAL with err naming the
 * bad regex. */
int ior_trace_select(const char *tps, const char *exclude, unsigned char *sel,
		     char *err, size_t errlen);

#endif
