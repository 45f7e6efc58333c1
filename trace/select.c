#include "select.h"
#include "syscalls.h"

#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does any regex of the comma-separated list match name or sys_enter_name?
 * 1, 0, or -EINVAL (err filled) for a regex that does not compile. */
static int list_matches(const char *list, const char *flag, const char *name,
			char *err, size_t errlen)
{
	char full[96], re_src[256];
	int hit = 0;

	snprintf(full, sizeof full, "sys_enter_%s", name);
	for (const char *p = list; *p && !hit;) {
		size_t n = strcspn(p, ",");
		regex_t re;
		int rc;
		if (n >= sizeof re_src) {
			snprintf(err, errlen, "-%s: regex \"%.40s...\" is too long", flag, p);
			return -EINVAL;
		}
		memcpy(re_src, p, n);
		re_src[n] = 0;
		p += n + (p[n] == ',');
		if (!n)
			continue;
		rc = regcomp(&re, re_src, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char why[128];
			regerror(rc, &re, why, sizeof why);
			snprintf(err, errlen, "-%s: bad regex \"%s\": %s", flag, re_src, why);
			return -EINVAL;
		}
		hit = !regexec(&re, name, 0, NULL, 0) || !regexec(&re, full, 0, NULL, 0);
		regfree(&re);
	}
	return hit;
}

int ior_trace_select(const char *tps, const char *exclude, unsigned char *sel,
		     char *err, size_t errlen)
{
	int count = 0;

	for (unsigned i = 0; i < ior_nsyscalls; i++) {
		const char *name = ior_syscalls[i].name;
		int in = 1, out = 0;
		if (tps && *tps && (in = list_matches(tps, "tps", name, err, errlen)) < 0)
			return in;
		if (exclude && *exclude &&
		    (out = list_matches(exclude, "tpsExclude", name, err, errlen)) < 0)
			return out;
		sel[i] = in && !out;
		count += sel[i];
	}
	return count;
}
