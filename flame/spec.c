/* The aggregation's spec: -fields and -count parsed, and the live filters. */
#include "flame.h"

#include <errno.h>
#include <string.h>

static const char *field_names[] = { "comm", "path", "tracepoint", "pid", "tid", "flags" };
static const char *metric_names[] = { "count", "duration", "durationToPrev", "bytes" };

const char *ior_flame_metric_name(enum ior_flame_metric m)
{
	return metric_names[m];
}

static int parse_field(const char *s, size_t n, enum ior_flame_field *f)
{
	for (unsigned i = 0; i < sizeof field_names / sizeof *field_names; i++)
		if (strlen(field_names[i]) == n && !memcmp(field_names[i], s, n)) {
			*f = (enum ior_flame_field)i;
			return 0;
		}
	return -1;
}

int ior_flame_spec_parse(struct ior_flame_spec *spec, const char *fields, const char *metric,
			 char *err, size_t errlen)
{
	memset(spec, 0, sizeof *spec);
	spec->pid = spec->tid = -1;
	unsigned seen = 0;
	for (const char *p = fields;;) {
		size_t n = strcspn(p, ",");
		enum ior_flame_field f;
		if (parse_field(p, n, &f)) {
			snprintf(err, errlen, "-fields: unknown field \"%.*s\": use comm, path, tracepoint, pid, tid, flags",
				 (int)(n > 64 ? 64 : n), p);
			return -EINVAL;
		}
		if (seen & 1u << f) {
			snprintf(err, errlen, "-fields: \"%s\" given twice", field_names[f]);
			return -EINVAL;
		}
		seen |= 1u << f;
		spec->fields[spec->nfields++] = f;
		if (!p[n])
			break;
		p += n + 1;
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
				      field_names[spec->fields[i]]);
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
