/* The kernel's CPU lists ("0-7", "0,2-3\n"): the one parser ior has. A
 * per-CPU map packs the possible CPUs in order, so the index of a CPU in
 * the list, not its number, is where its value sits. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/loader.h"

#define CPU_MAX 65536 /* beyond any kernel's NR_CPUS: the list is corrupt */

static const char *range(const char *p, long *lo, long *hi)
{
	char *end;

	if (*p < '0' || *p > '9')
		return NULL;
	*lo = *hi = strtol(p, &end, 10);
	if (*end == '-') {
		if (end[1] < '0' || end[1] > '9')
			return NULL;
		*hi = strtol(end + 1, &end, 10);
	}
	return *lo <= *hi && *hi < CPU_MAX ? end : NULL;
}

long ior_cpulist_parse(const char *s, int cpu, long *index)
{
	long n = 0, below = 0;

	if (index)
		*index = -1;
	for (const char *p = s; *p && *p != '\n';) {
		long lo, hi;
		if (!(p = range(p, &lo, &hi)))
			return -EINVAL;
		if (index && cpu >= lo && cpu <= hi)
			*index = below + (cpu - lo);
		below += hi - lo + 1;
		n = hi + 1 > n ? hi + 1 : n;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return n ? n : -EINVAL;
}

long ior_possible_cpus(int cpu, long *index)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	long n = -errno;

	if (index)
		*index = -1;
	if (!f)
		return n;
	n = fgets(buf, sizeof buf, f) ? ior_cpulist_parse(buf, cpu, index) : -EIO;
	fclose(f);
	return n;
}
