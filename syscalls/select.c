#include "syscalls/select.h"
#include "syscalls/syscalls.h"
#include "text/list.h"

#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ITEM_MAX 256

/* The next entry of a comma-separated list (text/list.h) into item;
 * *p moves past it. 0 at the end of the list, -1 when too long. */
static int next_item(const char **p, char *item)
{
	const char *s;
	size_t n;

	if (!ior_list_next(p, &s, &n))
		return 0;
	if (n >= ITEM_MAX)
		return -1;
	memcpy(item, s, n);
	item[n] = 0;
	return 1;
}

/* Does any regex of the comma-separated list match name or sys_enter_name?
 * 1, 0, or -EINVAL (err filled) for a regex that does not compile. */
static int list_matches(const char *list, const char *flag, const char *name,
			char *err, size_t errlen)
{
	char full[96], re_src[ITEM_MAX];
	int hit = 0, r;

	snprintf(full, sizeof full, "sys_enter_%s", name);
	for (const char *p = list; !hit && (r = next_item(&p, re_src));) {
		regex_t re;
		if (r < 0) {
			snprintf(err, errlen, "-%s: regex \"%.40s...\" is too long", flag, p);
			return -EINVAL;
		}
		r = regcomp(&re, re_src, REG_EXTENDED | REG_NOSUB);
		if (r) {
			char why[128];
			regerror(r, &re, why, sizeof why);
			snprintf(err, errlen, "-%s: bad regex \"%s\": %s", flag, re_src, why);
			return -EINVAL;
		}
		hit = !regexec(&re, name, 0, NULL, 0) || !regexec(&re, full, 0, NULL, 0);
		regfree(&re);
	}
	return hit;
}

const struct ior_syscall *ior_select_syscall(const char *name)
{
	static const char *const alias[][2] = {
		{ "stat", "newstat" }, { "fstat", "newfstat" }, { "lstat", "newlstat" },
		{ "uname", "newuname" }, { "sendfile", "sendfile64" }, { "umount2", "umount" },
	};

	for (size_t i = 0; i < sizeof alias / sizeof *alias; i++)
		if (!strcmp(name, alias[i][0]))
			name = alias[i][1];
	return ior_syscall_by_name(name);
}

static int unknown(const char *flag, const char *what, const char *item, char *err, size_t errlen)
{
	int n = snprintf(err, errlen, "-%s: unknown %s \"%s\"; valid: ", flag, what, item);
	size_t off = n < 0 ? 0 : (size_t)n;

	if (!strcmp(what, "family"))
		for (unsigned f = 0; f < IOR_NFAMILIES && off < errlen; f++)
			off += (size_t)snprintf(err + off, errlen - off, "%s,", ior_family_name(f));
	else
		for (unsigned i = 0; i < ior_nsyscalls && off < errlen; i++)
			off += (size_t)snprintf(err + off, errlen - off, "%s,", ior_syscalls[i].name);
	if (!strcmp(what, "family") && off < errlen)
		off += (size_t)snprintf(err + off, errlen - off, "all,");
	if (off > 0 && off <= errlen)
		err[off - 1] = 0; /* the last comma */
	return -EINVAL;
}

/* Sets mark[i] = v for the syscalls of each family in list. */
static int mark_families(const char *list, const char *flag, unsigned char *mark, unsigned char v,
			 char *err, size_t errlen)
{
	char item[ITEM_MAX];
	int r;

	for (const char *p = list ? list : ""; (r = next_item(&p, item));) {
		int f = r < 0 ? -1 : ior_family_by_name(item);
		int all = r > 0 && !strcasecmp(item, "all");
		if (f < 0 && !all)
			return unknown(flag, "family", r < 0 ? "(too long)" : item, err, errlen);
		for (unsigned i = 0; i < ior_nsyscalls; i++)
			if (all || ior_syscalls[i].family == (unsigned)f)
				mark[i] = v;
	}
	return 0;
}

static int mark_syscalls(const char *list, const char *flag, unsigned char *mark, unsigned char v,
			 char *err, size_t errlen)
{
	char item[ITEM_MAX];
	int r;

	for (const char *p = list ? list : ""; (r = next_item(&p, item));) {
		const struct ior_syscall *s = r < 0 ? NULL : ior_select_syscall(item);
		if (!s)
			return unknown(flag, "syscall", r < 0 ? "(too long)" : item, err, errlen);
		mark[ior_syscall_index(s)] = v;
	}
	return 0;
}

static int empty(const char *s)
{
	return !s || !s[strspn(s, " \t,")];
}

/* sel = the base set: families and syscalls, or the default families. */
static int base(const struct ior_select *o, unsigned char *sel, char *err, size_t errlen)
{
	int r;

	memset(sel, 0, ior_nsyscalls);
	if (empty(o->families) && empty(o->syscalls))
		return mark_families(IOR_DEFAULT_FAMILIES, "trace-families", sel, 1, err, errlen);
	r = mark_families(o->families, "trace-families", sel, 1, err, errlen);
	return r ? r : mark_syscalls(o->syscalls, "trace-syscalls", sel, IOR_SEL_NAMED, err, errlen);
}

int ior_trace_select(const struct ior_select *o, unsigned char *sel, char *err, size_t errlen)
{
	int count = 0, r = base(o, sel, err, errlen);

	if (!r)
		r = mark_families(o->no_families, "no-trace-families", sel, 0, err, errlen);
	if (!r)
		r = mark_syscalls(o->no_syscalls, "no-trace-syscalls", sel, 0, err, errlen);
	for (unsigned i = 0; i < ior_nsyscalls && !r; i++) {
		const char *name = ior_syscalls[i].name;
		int in = 1, out = 0;
		if (!sel[i])
			continue;
		if (!empty(o->tps) && (in = list_matches(o->tps, "tps", name, err, errlen)) < 0)
			return in;
		if (!empty(o->tps_exclude) &&
		    (out = list_matches(o->tps_exclude, "tpsExclude", name, err, errlen)) < 0)
			return out;
		sel[i] = in && !out ? sel[i] : 0;
		count += sel[i] != 0;
	}
	return r ? r : count;
}
