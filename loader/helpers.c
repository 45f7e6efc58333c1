/* BPF helper names by id, from the UAPI header's own list, so that a
 * verifier that refuses an unknown helper by number ("invalid func
 * unknown#158", before 5.13 or so) is reported by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "loader/internal.h"

/* The mapper lists "FN(name)," up to 6.1's header and "FN(name, id)"
 * without commas from 6.2's on. */
#ifdef ___BPF_FUNC_MAPPER
#define HELPER_NAME(x, ...) [BPF_FUNC_##x] = "bpf_" #x,
#else
#define HELPER_NAME(x) [BPF_FUNC_##x] = "bpf_" #x
#endif
static const char *const helper_names[] = { __BPF_FUNC_MAPPER(HELPER_NAME) };
#undef HELPER_NAME

const char *ior_loader_helper_name(unsigned long id)
{
	if (id == 0 || id >= sizeof helper_names / sizeof helper_names[0])
		return NULL;
	return helper_names[id];
}

/* The helper a verifier log says is unknown: "invalid func unknown#N" or
 * "unknown func bpf_NAME#N". The name (or "helper #N") into out; 0 when
 * the log names none. */
int ior_loader_unknown_helper(const char *log, char *out, size_t outlen)
{
	const char *at = log ? strstr(log, "invalid func unknown#") : NULL;

	if (at) {
		at += strlen("invalid func unknown#");
	} else if (log && (at = strstr(log, "unknown func ")) != NULL) {
		size_t line = strcspn(at, "\n");
		const char *hash = memchr(at, '#', line);
		at = hash ? hash + 1 : NULL;
	}
	if (!at || *at < '0' || *at > '9')
		return 0;
	unsigned long id = strtoul(at, NULL, 10);
	const char *name = ior_loader_helper_name(id);
	if (id == IOR_KFUNC_POISON)
		snprintf(out, outlen, "a kernel function (kfunc) the kernel lacks, called unguarded");
	else if (name)
		snprintf(out, outlen, "%s (#%lu)", name, id);
	else
		snprintf(out, outlen, "helper #%lu", id);
	return 1;
}
