#include "flags.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ior_parse_int(const char *s, int64_t *v)
{
	char *end;
	long long n;

	if (!*s)
		return -1;
	errno = 0;
	n = strtoll(s, &end, 0);
	if (errno || *end)
		return -1;
	*v = n;
	return 0;
}

/* A number with an optional unit from units[] (name, multiplier). */
struct unit {
	const char *name;
	double mult;
};

static int parse_scaled(const char *s, const struct unit *units, double bare,
			uint64_t *out)
{
	char *end;
	double n;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	n = strtod(s, &end);
	if (errno || end == s || !isfinite(n))
		return -1;
	double mult = *end ? 0 : bare;
	for (; units->name && *end; units++)
		if (!strcmp(end, units->name))
			mult = units->mult;
	if (mult == 0 || n * mult >= 1.8e19)
		return -1;
	*out = (uint64_t)(n * mult + 0.5);
	return 0;
}

int ior_parse_duration(const char *s, uint64_t *ns)
{
	static const struct unit units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "m", 60e9 }, { "h", 3600e9 }, { 0, 0 },
	};
	return parse_scaled(s, units, 1e9, ns);
}

int ior_parse_size(const char *s, uint64_t *bytes)
{
	static const struct unit units[] = {
		{ "K", 1024.0 }, { "k", 1024.0 }, { "KiB", 1024.0 },
		{ "M", 1048576.0 }, { "MiB", 1048576.0 },
		{ "G", 1073741824.0 }, { "GiB", 1073741824.0 }, { 0, 0 },
	};
	return parse_scaled(s, units, 1, bytes);
}

static int parse_bool(const char *s, bool *b)
{
	static const char *const yes[] = { "1", "t", "T", "true", "TRUE", "True" };
	static const char *const no[] = { "0", "f", "F", "false", "FALSE", "False" };

	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
		if (!strcmp(s, yes[i]))
			return *b = true, 0;
		if (!strcmp(s, no[i]))
			return *b = false, 0;
	}
	return -1;
}

static int set_value(const struct ior_flag *f, const char *v)
{
	switch (f->type) {
	case IOR_FLAG_BOOL:
		return parse_bool(v, f->value);
	case IOR_FLAG_INT:
		return ior_parse_int(v, f->value);
	case IOR_FLAG_STRING:
		*(const char **)f->value = v;
		return 0;
	case IOR_FLAG_DURATION:
		return ior_parse_duration(v, f->value);
	case IOR_FLAG_SIZE:
		return ior_parse_size(v, f->value);
	case IOR_FLAG_LIST: {
		struct ior_flag_list *l = f->value;
		if (l->n >= IOR_FLAG_LIST_MAX)
			return -2;
		l->v[l->n++] = v;
		return 0;
	}
	}
	return -1;
}

static const struct ior_flag *find(const struct ior_flag *flags, size_t n,
				   const char *name, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(flags[i].name) == len && !strncmp(flags[i].name, name, len))
			return &flags[i];
	return NULL;
}

int ior_flags_parse(const struct ior_flag *flags, size_t nflags, int argc,
		    char **argv, char *err, size_t errlen)
{
	int dashdash;

	return ior_flags_parse_cmd(flags, nflags, argc, argv, &dashdash, err, errlen);
}

int ior_flags_parse_cmd(const struct ior_flag *flags, size_t nflags, int argc,
			char **argv, int *dashdash, char *err, size_t errlen)
{
	int i = 1;

	*dashdash = 0;
	while (i < argc) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1])
			break;
		i++;
		if (!strcmp(a, "--")) {
			*dashdash = 1;
			break;
		}
		const char *name = a + 1 + (a[1] == '-');
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		const struct ior_flag *f = find(flags, nflags, name, len);
		if (!f) {
			snprintf(err, errlen, "flag provided but not defined: -%.*s",
				 (int)(len > 64 ? 64 : len), name);
			return -1;
		}
		const char *v = eq ? eq + 1 : NULL;
		if (!v && f->type == IOR_FLAG_BOOL)
			v = "true";
		if (!v) {
			if (i >= argc) {
				snprintf(err, errlen, "flag needs an argument: -%s", f->name);
				return -1;
			}
			v = argv[i++];
		}
		int bad = set_value(f, v);
		if (bad == -2) {
			snprintf(err, errlen, "flag -%s given more than %d times", f->name, IOR_FLAG_LIST_MAX);
			return -1;
		}
		if (bad) {
			snprintf(err, errlen, "invalid value \"%.64s\" for flag -%s",
				 v, f->name);
			return -1;
		}
	}
	return i;
}
