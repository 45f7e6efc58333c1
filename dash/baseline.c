/* The change columns of -baseline FILE: each row of the Syscalls, Files
 * and Processes tabs against the same key in a recording (a syscall or a
 * file by name, a process by command), BASE's sums scaled into the
 * trace's units by the normalization (pair/norm.h), the factor taken
 * again each frame as the trace grows. Rates are per second of each
 * run's own span whatever the normalization. A row BASE lacks reads
 * "new"; what cannot compare reads "-": percentiles without a histogram,
 * groups by mount point (they nest), the tables of a picked process
 * (BASE is every process's). */
#include "dash_int.h"
#include "stats/diff.h"
#include "stats/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dash_base {
	struct ior_stats *stats; /* the caller's, read only */
	struct ior_stats_side side[3]; /* SYSCALLS, FILES, PROCESSES */
	enum ior_norm norm;
	struct ior_norm_side have;     /* BASE's span and total */
	double base_span_s;
	double f;                      /* this frame's factor; valid when ok */
	int ok;
	char why[200];                 /* when not ok */
	char name[256];
};

int ior_dash_base_new(struct ior_dash *d, const struct ior_dash_cfg *cfg)
{
	struct dash_base *b;

	if (!cfg->baseline)
		return 0;
	if (!(b = calloc(1, sizeof *b)))
		return -ENOMEM;
	d->base = b;
	b->stats = cfg->baseline;
	b->norm = cfg->baseline_norm;
	snprintf(b->name, sizeof b->name, "%s", cfg->baseline_name ? cfg->baseline_name : "baseline");
	ior_stats_norm_side(b->stats, b->norm, &b->have);
	struct ior_norm_side span;
	ior_stats_norm_side(b->stats, IOR_NORM_RATE, &span);
	b->base_span_s = (double)span.span_ns / 1e9;
	for (int t = 0; t < 3; t++) {
		int rc = ior_stats_side_of(b->stats, (enum ior_stats_table)t, &b->side[t]);
		if (rc)
			return rc;
	}
	return 0;
}

void ior_dash_base_free(struct ior_dash *d)
{
	if (!d->base)
		return;
	for (int t = 0; t < 3; t++)
		ior_stats_side_free(&d->base->side[t]);
	free(d->base);
	d->base = NULL;
}

/* The factor for this frame, from every process's totals over their
 * span (live: up to now, as the rates). */
void ior_dash_base_frame(struct ior_dash *d)
{
	struct dash_base *b = d->base;
	struct ior_stats_totals t;
	struct ior_norm_side now;

	if (!b)
		return;
	ior_stats_norm_side(d->all, b->norm, &now);
	ior_stats_totals(d->all, &t);
	uint64_t end = d->in_flight && d->now_ns > t.last_ns ? d->now_ns : t.last_ns;
	now.span_ns = end > t.first_ns ? end - t.first_ns : 0;
	b->ok = !ior_norm_factor(b->norm, &b->have, &now, "time", &b->f, b->why, sizeof b->why);
}

/* "vs FILE (rate)", or why the changes cannot be taken yet. */
void ior_dash_base_label(const struct ior_dash *d, char *buf, size_t len)
{
	const struct dash_base *b = d->base;

	if (!b)
		snprintf(buf, len, "%s", "");
	else if (!b->ok)
		snprintf(buf, len, "  vs %s: %s", b->name, b->why);
	else
		snprintf(buf, len, "  vs %s (%s)", b->name, ior_norm_name(b->norm));
}

static const struct ior_stats_side *side_of(const struct ior_dash *d)
{
	if (d->tab == IOR_DASH_SYSCALLS)
		return &d->base->side[IOR_STATS_SYSCALLS];
	if (d->tab == IOR_DASH_FILES)
		return &d->base->side[IOR_STATS_FILES];
	return &d->base->side[IOR_STATS_PROCESSES];
}

/* A directory group's BASE: the sum of BASE's files under it. */
static int group_sums(const struct ior_stats_side *s, const char *dir, struct ior_stats_row *out)
{
	size_t n = strlen(dir);
	unsigned lo = 0, hi = s->n;
	int found = 0;

	while (lo < hi) { /* the first name >= dir ((other) is last) */
		unsigned mid = lo + (hi - lo) / 2;
		if (strcmp(s->rows[mid].name, dir) < 0 && strcmp(s->rows[mid].name, IOR_STATS_OTHER))
			lo = mid + 1;
		else
			hi = mid;
	}
	memset(out, 0, sizeof *out);
	for (unsigned i = lo; i < s->n && !strncmp(s->rows[i].name, dir, n); i++, found = 1)
		ior_stats_sums_merge(&out->sums, &s->rows[i].sums);
	return found;
}

/* BASE's row for r into *out; 1 found, 0 absent (new), -1 not comparable. */
static int base_row(const struct ior_dash *d, const struct ior_stats_row *r, struct ior_stats_row *out)
{
	const struct ior_stats_side *s;
	const struct ior_stats_row *b;
	int other = !strcmp(r->name, IOR_STATS_OTHER);

	if (!d->base || !d->base->ok || (d->tab != IOR_DASH_PROCESSES && d->pick_pid >= 0))
		return -1;
	s = side_of(d);
	if (d->tab == IOR_DASH_FILES && d->dirs && !other) {
		size_t n = strlen(r->name);
		if (d->dirs == 2)
			return -1;
		if (n && r->name[n - 1] == '/')
			return group_sums(s, r->name, out);
	}
	b = ior_stats_side_find(s, d->tab == IOR_DASH_PROCESSES && !other ? r->comm : r->name);
	if (!b)
		return 0;
	*out = *b;
	return 1;
}

static double rate(uint64_t pairs, double span_s)
{
	return span_s > 0 ? (double)pairs / span_s : 0.0;
}

static int64_t minus(uint64_t a, uint64_t b)
{
	if (a >= b)
		return a - b > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)(a - b);
	return b - a > (uint64_t)INT64_MAX ? -INT64_MAX : -(int64_t)(b - a);
}

/* The change of value v of r, in ns (time, p99, max, mean) or in calls
 * per second scaled by 1000 (rate). 1 known, 0 r is new, -1 unknown. */
static int delta(const struct ior_dash *d, const struct ior_stats_row *r, enum dash_value v, int64_t *out)
{
	struct ior_stats_row b;
	int have = base_row(d, r, &b);

	*out = 0;
	if (have < 0)
		return -1;
	switch (v) {
	case V_DTIME:
		*out = minus(r->sums.time_ns, have ? ior_norm_scale(b.sums.time_ns, d->base->f) : 0);
		return have;
	case V_DRATE:
		*out = (int64_t)(1000.0 * (rate(r->sums.pairs, d->span_s) -
					   (have ? rate(b.sums.pairs, d->base->base_span_s) : 0.0)));
		return have;
	case V_DP99:
		if (have && !(r->hist && b.hist))
			return -1;
		*out = have ? minus(r->p99_ns, b.p99_ns) : (int64_t)r->p99_ns;
		return have;
	case V_DMAX:
		*out = minus(r->sums.max_ns, have ? b.sums.max_ns : 0);
		return have;
	case V_DMEAN: {
		uint64_t nm = r->sums.pairs ? r->sums.time_ns / r->sums.pairs : 0;
		uint64_t bm = have && b.sums.pairs ? b.sums.time_ns / b.sums.pairs : 0;
		*out = minus(nm, bm);
		return have;
	}
	default: return -1;
	}
}

const char *ior_dash_base_cell(const struct ior_dash *d, const struct ior_stats_row *r, enum dash_value v,
			       char *buf, size_t len)
{
	int64_t x;
	int known = delta(d, r, v, &x);
	char mag[32];

	if (known < 0)
		return "-";
	if (!known)
		return "new";
	if (v == V_DRATE) {
		snprintf(buf, len, "%+.1f", (double)x / 1000.0);
		return buf;
	}
	if (d->raw) {
		snprintf(buf, len, "%lld", (long long)x);
		return buf;
	}
	if (!x)
		return "0";
	ior_stats_format_ns(mag, sizeof mag, x < 0 ? (uint64_t)-x : (uint64_t)x, d->ascii);
	snprintf(buf, len, "%c%s", x < 0 ? '-' : '+', mag);
	return buf;
}

struct keyed {
	int64_t key;
	struct ior_stats_row row;
};

static int by_key_desc(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? 1 : -1;
	return strcmp(a->row.name, b->row.name);
}

/* Sorted by a change column: d->rows by the change, (other) kept last; a
 * new row weighs its whole value, an unknown change sorts as 0. */
int ior_dash_base_sort(struct ior_dash *d, const struct dash_view *v)
{
	enum dash_value col = v->cols[v->sort].v;
	unsigned n = d->nrows, other = n && !strcmp(d->rows[n - 1].name, IOR_STATS_OTHER);
	struct keyed *k;

	if (n - other < 2)
		return 0;
	if (!(k = malloc((n - other) * sizeof *k)))
		return -ENOMEM;
	for (unsigned i = 0; i < n - other; i++) {
		k[i].row = d->rows[i];
		delta(d, &d->rows[i], col, &k[i].key);
		if (v->ascending)
			k[i].key = k[i].key == INT64_MIN ? INT64_MAX : -k[i].key;
	}
	qsort(k, n - other, sizeof *k, by_key_desc);
	for (unsigned i = 0; i < n - other; i++)
		d->rows[i] = k[i].row;
	free(k);
	return 0;
}
