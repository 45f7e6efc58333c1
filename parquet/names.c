/* Names the Parquet rows carry that the syscall table does not (yet):
 * errno names and syscall families. */
#include "names.h"
#include "syscalls/errnos.h"
#include "syscalls/syscalls.h"

#include <stdio.h>
#include <string.h>

const char *ior_pq_errno_name(int64_t ret, char *buf, size_t len)
{
	uint64_t e = ret < 0 ? (uint64_t)0 - (uint64_t)ret : 0;
	const char *name = e ? ior_errno_name(e) : NULL;

	if (name)
		return name;
	snprintf(buf, len, "E%llu", (unsigned long long)e); /* kernel-internal (ERESTARTSYS: 512) */
	return buf;
}

/* The syscall table's family (FS, Network, ...), as -fields=family says it. */
const char *ior_pq_family(unsigned sys)
{
	const char *name = ior_family_name(ior_sys(sys)->family);
	return name ? name : "?";
}
