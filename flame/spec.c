/* The aggregation's spec: -fields and -count parsed, and the live filters. */
#include "field.h"
#include "flame.h"
#include "text/list.h"

#include <errno.h>
#include <string.h>

static const char *metric_names[] = { "count", "duration", "durationToPrev", "bytes", "devicetime" };

const char *ior_flame_metric_name(enum ior_flame_metric m)
{
	return metric_names[m];
}

static int parse_field(const char *s, size_t n, uint8_t *f)
{
	for (unsigned i = 0; i < ior_flame_nfields; i++)
		if (strlen(ior_flame_fields[i].name) == n && !memcmp(ior_flame_fields[i].name, s, n)) {
			*f = (uint8_t)i;
			return 0;
		}
	return -1;
}

/* "-fields: unknown field "x": use comm, path, ..." */
static void unknown_field(char *err, size_t errlen, const char *s, size_t n)
{
	size_t len = (size_t)snprintf(err, errlen, "-fields: unknown field \"%.*s\": use ",
				      (int)(n > 64 ? 64 : n), s);
	for (unsigned i = 0; i < ior_flame_nfields && len < errlen; i++)
		len += (size_t)snprintf(err + len, errlen - len, "%s%s", i ? ", " : "",
					ior_flame_fields[i].name);
}

int ior_flame_spec_parse(struct ior_flame_spec *spec, const char *fields, const char *metric,
			 char *err, size_t errlen)
{
	memset(spec, 0, sizeof *spec);
	spec->pid = spec->tid = -1;
	uint32_t seen = 0;
	const char *p = fields, *item;
	size_t n;
	while (ior_list_next(&p, &item, &n)) {
		uint8_t f;
		if (parse_field(item, n, &f)) {
			unknown_field(err, errlen, item, n);
			return -EINVAL;
		}
		if (seen & 1u << f) {
			snprintf(err, errlen, "-fields: \"%s\" given twice", ior_flame_fields[f].name);
			return -EINVAL;
		}
		seen |= 1u << f;
		spec->fields[spec->nfields++] = f;
	}
	if (!spec->nfields) {
		unknown_field(err, errlen, "", 0);
		return -EINVAL;
	}
	for (unsigned i = 0; i < sizeof metric_names / sizeof *metric_names; i++)
		if (!strcmp(metric, metric_names[i])) {
			spec->metric = (enum ior_flame_metric)i;
			return 0;
		}
	snprintf(err, errlen, "-count: unknown metric \"%.64s\": use count, duration, durationToPrev, bytes", metric);
	return -EINVAL;
}

void ior_flame_fields_str(const struct ior_flame_spec *spec, char sep, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < spec->nfields && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? (char[]){ sep, 0 } : "",
				      ior_flame_fields[spec->fields[i]].name);
}

bool ior_flame_spec_match(const struct ior_flame_spec *s, const struct ior_event_pair *p)
{
	const char *comm = p->comm ? p->comm : "", *path = p->path ? p->path : "";
	const char *path2 = p->path2 ? p->path2 : "";
	if (s->pid >= 0 && p->pid != (uint64_t)s->pid)
		return false;
	if (s->tid >= 0 && p->tid != (uint64_t)s->tid)
		return false;
	if (s->comm && *s->comm && !strstr(comm, s->comm))
		return false;
	if (s->path && *s->path && !strstr(path, s->path) && !strstr(path2, s->path))
		return false;
	return true;
}
