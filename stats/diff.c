#include "stats/diff.h"
#include "stats/report.h"
#include "stats/devices.h"
#include "pair/devname.h"
#include "pair/norm.h"
#include "text/escape.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define ROWS_MAX 16384 /* more than any table keeps (stats/stats.h's bounds) */

static void scale_sums(struct ior_stats_sums *s, double f)
{
	s->pairs = ior_norm_scale(s->pairs, f);
	s->errors = ior_norm_scale(s->errors, f);
	s->summarized = ior_norm_scale(s->summarized, f);
	s->bytes_read = ior_norm_scale(s->bytes_read, f);
	s->bytes_written = ior_norm_scale(s->bytes_written, f);
	s->time_ns = ior_norm_scale(s->time_ns, f);
	s->gap_ns = ior_norm_scale(s->gap_ns, f);
}

void ior_stats_norm_side(struct ior_stats *s, enum ior_norm n, struct ior_norm_side *side)
{
	struct ior_stats_totals t;

	ior_stats_totals(s, &t);
	side->span_ns = t.last_ns > t.first_ns ? t.last_ns - t.first_ns : 0;
	side->total = n == IOR_NORM_RATE ? t.sums.pairs : t.sums.time_ns;
}

static const char *key_of(enum ior_stats_table t, const struct ior_stats_row *r)
{
	return t == IOR_STATS_PROCESSES && strcmp(r->name, IOR_STATS_OTHER) ? r->comm : r->name;
}

/* A table's rows by key (processes: by command, pids merged), the
 * (other) row last when it holds anything. */
static int rows_of(struct ior_stats *s, enum ior_stats_table t, struct ior_stats_row **rows, unsigned *n)
{
	struct ior_stats_row other;
	int k;

	*rows = malloc((ROWS_MAX + 1) * sizeof **rows);
	if (!*rows)
		return -ENOMEM;
	k = ior_stats_select(s, t, t == IOR_STATS_PROCESSES ? IOR_STATS_BY_COMM : IOR_STATS_BY_NAME, true, *rows,
			     ROWS_MAX, &other);
	if (k < 0)
		return k;
	unsigned m = 0;
	for (int i = 0; i < k; i++) {
		if (m && !strcmp(key_of(t, &(*rows)[m - 1]), key_of(t, &(*rows)[i])))
			ior_stats_sums_merge(&(*rows)[m - 1].sums, &(*rows)[i].sums);
		else
			(*rows)[m++] = (*rows)[i];
	}
	if (other.sums.pairs)
		(*rows)[m++] = other;
	*n = m;
	return 0;
}

/* "(other)" sorts among the names by its bytes; both sides were sorted
 * so, with it moved last: compare it last too. */
static int key_cmp(const char *a, const char *b)
{
	int oa = !strcmp(a, IOR_STATS_OTHER), ob = !strcmp(b, IOR_STATS_OTHER);

	return oa != ob ? oa - ob : strcmp(a, b);
}

int ior_stats_side_of(struct ior_stats *s, enum ior_stats_table table, struct ior_stats_side *side)
{
	memset(side, 0, sizeof *side);
	if (table == IOR_STATS_THREADS)
		table = IOR_STATS_PROCESSES;
	if ((unsigned)table >= IOR_STATS_THREADS)
		return -EINVAL;
	side->table = table;
	int rc = rows_of(s, table, &side->rows, &side->n);
	if (rc)
		ior_stats_side_free(side);
	return rc;
}

const struct ior_stats_row *ior_stats_side_find(const struct ior_stats_side *side, const char *key)
{
	unsigned lo = 0, hi = side->n;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		int c = key_cmp(key_of(side->table, &side->rows[mid]), key);
		if (!c)
			return &side->rows[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void ior_stats_side_free(struct ior_stats_side *side)
{
	free(side->rows);
	side->rows = NULL;
	side->n = 0;
}

static void change_of(struct ior_stats_change *c, enum ior_stats_table t, const struct ior_stats_row *b,
		      const struct ior_stats_row *n, double f)
{
	const struct ior_stats_row *r = n ? n : b;

	memset(c, 0, sizeof *c);
	c->name = r->name;
	if (t == IOR_STATS_PROCESSES && strcmp(r->name, IOR_STATS_OTHER)) {
		memcpy(c->comm, r->comm, sizeof c->comm);
		c->comm[sizeof c->comm - 1] = 0;
		c->name = c->comm;
	}
	if (b) {
		c->base = b->sums;
		scale_sums(&c->base, f);
		c->base_hist = b->hist && t == IOR_STATS_SYSCALLS;
		c->base_p50 = b->p50_ns, c->base_p99 = b->p99_ns;
	}
	if (n) {
		c->new_ = n->sums;
		c->new_hist = n->hist && t == IOR_STATS_SYSCALLS;
		c->new_p50 = n->p50_ns, c->new_p99 = n->p99_ns;
	}
}

static uint64_t abs_change(const struct ior_stats_change *c)
{
	return c->new_.time_ns > c->base.time_ns ? c->new_.time_ns - c->base.time_ns : c->base.time_ns - c->new_.time_ns;
}

static int by_change(const void *x, const void *y)
{
	const struct ior_stats_change *a = x, *b = y;
	uint64_t da = abs_change(a), db = abs_change(b);

	if (da != db)
		return da < db ? 1 : -1;
	return strcmp(a->name, b->name);
}

int ior_stats_diff(struct ior_stats *base, struct ior_stats *new_, enum ior_stats_table table, double factor,
		   struct ior_stats_change **out, unsigned *n)
{
	struct ior_stats_row *rb = NULL, *rn = NULL;
	unsigned nb = 0, nn = 0, i = 0, j = 0;
	int rc = rows_of(base, table, &rb, &nb);

	*out = NULL;
	*n = 0;
	if (!rc)
		rc = rows_of(new_, table, &rn, &nn);
	if (!rc && !(*out = malloc(((size_t)nb + nn + 1) * sizeof **out)))
		rc = -ENOMEM;
	while (!rc && (i < nb || j < nn)) {
		int c = i == nb ? 1 : j == nn ? -1 : key_cmp(key_of(table, &rb[i]), key_of(table, &rn[j]));
		change_of(&(*out)[(*n)++], table, c <= 0 ? &rb[i] : NULL, c >= 0 ? &rn[j] : NULL, factor);
		i += c <= 0;
		j += c >= 0;
	}
	free(rb);
	free(rn);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
		return rc;
	}
	qsort(*out, *n, sizeof **out, by_change);
	for (unsigned k = 0; k < *n; k++) /* qsort moved them */
		if ((*out)[k].comm[0])
			(*out)[k].name = (*out)[k].comm;
	return 0;
}

/* ---- devices --------------------------------------------------------------- */

static void dev_name(struct ior_devices *d, uint32_t dev, char *buf, size_t len)
{
	const char *name = ior_devices_name(d, dev);

	if (name)
		snprintf(buf, len, "%s", name);
	else
		ior_devname(dev, buf, len);
}

static int dev_cmp(const void *x, const void *y)
{
	const struct ior_stats_dev_change *a = x, *b = y;
	int c = strcmp(a->device, b->device);

	return c ? c : (int)a->op - (int)b->op;
}

/* The change of (name, op) in c[0..*n), added when new. */
static struct ior_stats_dev_change *dev_change(struct ior_stats_dev_change *c, unsigned *n, const char *name,
					       uint8_t op)
{
	for (unsigned i = 0; i < *n; i++)
		if (c[i].op == op && !strcmp(c[i].device, name))
			return &c[i];
	memset(&c[*n], 0, sizeof c[*n]);
	snprintf(c[*n].device, sizeof c[*n].device, "%s", name);
	c[*n].op = op;
	return &c[(*n)++];
}

static void dev_side(struct ior_devices *d, bool base, double f, struct ior_stats_dev_change *c, unsigned *n)
{
	static const double q[2] = { 50, 99 };

	for (unsigned i = 0; i < d->n; i++) {
		const struct ior_dev_row *r = &d->rows[i];
		char name[64];
		uint64_t p[2] = { 0, 0 };
		if (!r->requests)
			continue;
		dev_name(d, r->dev, name, sizeof name);
		struct ior_stats_dev_change *x = dev_change(c, n, name, r->op);
		ior_hist_percentiles(&r->device, q, p, 2);
		/* two numbers of one name (a recording's devices renumbered): added */
		if (base) {
			x->base_requests += ior_norm_scale(r->requests, f);
			x->base_bytes += ior_norm_scale(r->bytes, f);
			x->base_device_ns += ior_norm_scale(r->device.sum, f);
			x->base_p50 = p[0], x->base_p99 = p[1], x->base_lat = r->device.count > 0;
		} else {
			x->new_requests += r->requests;
			x->new_bytes += r->bytes;
			x->new_device_ns += r->device.sum;
			x->new_p50 = p[0], x->new_p99 = p[1], x->new_lat = r->device.count > 0;
		}
	}
}

int ior_stats_diff_devices(struct ior_stats *base, struct ior_stats *new_, double factor,
			   struct ior_stats_dev_change **out, unsigned *n)
{
	struct ior_devices *db = ior_stats_devices(base), *dn = ior_stats_devices(new_);

	*n = 0;
	if (!(*out = calloc((size_t)db->n + dn->n + 1, sizeof **out)))
		return -ENOMEM;
	dev_side(db, true, factor, *out, n);
	dev_side(dn, false, factor, *out, n);
	qsort(*out, *n, sizeof **out, dev_cmp);
	return 0;
}

/* ---- the report ---------------------------------------------------------- */

static const struct {
	enum ior_stats_table t;
	const char *title, *key;
} tables[] = {
	{ IOR_STATS_SYSCALLS, "syscalls", "syscall" },
	{ IOR_STATS_FILES, "files", "file" },
	{ IOR_STATS_PROCESSES, "commands", "command" },
};

static void fmt_bytes(char *buf, size_t len, uint64_t b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	unsigned u = 0;

	while (v >= 1024 && u < 4)
		v /= 1024, u++;
	snprintf(buf, len, u ? "%.1f%s" : "%.0f%s", v, unit[u]);
}

static double pct(uint64_t b, uint64_t n)
{
	return b ? 100.0 * ((double)n - (double)b) / (double)b : n ? 100.0 : 0.0;
}

static void text_row(FILE *out, const struct ior_stats_change *c)
{
	char name[1100], t0[32], t1[32], d[32], b0[32], b1[32], p[4][32];
	uint64_t bb = c->base.bytes_read + c->base.bytes_written, nb = c->new_.bytes_read + c->new_.bytes_written;

	ior_escape_str(name, sizeof name, c->name, strlen(c->name), IOR_ESCAPE_AUTO);
	ior_stats_format_ns(t0, sizeof t0, c->base.time_ns, true);
	ior_stats_format_ns(t1, sizeof t1, c->new_.time_ns, true);
	ior_stats_format_ns(d, sizeof d, abs_change(c), true);
	fmt_bytes(b0, sizeof b0, bb);
	fmt_bytes(b1, sizeof b1, nb);
	snprintf(p[0], sizeof p[0], "-"), snprintf(p[1], sizeof p[1], "-");
	snprintf(p[2], sizeof p[2], "-"), snprintf(p[3], sizeof p[3], "-");
	if (c->base_hist)
		ior_stats_format_ns(p[0], sizeof p[0], c->base_p50, true), ior_stats_format_ns(p[2], sizeof p[2], c->base_p99, true);
	if (c->new_hist)
		ior_stats_format_ns(p[1], sizeof p[1], c->new_p50, true), ior_stats_format_ns(p[3], sizeof p[3], c->new_p99, true);
	fprintf(out, "  %c%-9s (%+7.1f%%)  %9s -> %-9s  %10llu -> %-10llu  %9s -> %-9s  %7s -> %-7s  %7s -> %-7s  %6llu -> %-6llu  %s\n",
		c->new_.time_ns >= c->base.time_ns ? '+' : '-', d, pct(c->base.time_ns, c->new_.time_ns), t0, t1,
		(unsigned long long)c->base.pairs, (unsigned long long)c->new_.pairs, b0, b1, p[0], p[1], p[2], p[3],
		(unsigned long long)c->base.errors, (unsigned long long)c->new_.errors, name);
}

static void text_header(FILE *out, const struct ior_stats_diff_cfg *cfg)
{
	char b[600], n[600];

	ior_escape_str(b, sizeof b, cfg->base_name, strlen(cfg->base_name), IOR_ESCAPE_AUTO);
	ior_escape_str(n, sizeof n, cfg->new_name, strlen(cfg->new_name), IOR_ESCAPE_AUTO);
	fprintf(out, "ior diff: BASE %s -> NEW %s\n-normalize=%s: BASE's calls, time, bytes and errors x %.4g "
		     "(latencies as they are); sorted by the change in time\n",
		b, n, cfg->normalize, cfg->factor);
}

/* A JSON string: the escape notation (printable, no controls), then
 * JSON's own escapes for '"' and '\'. */
static void json_str(FILE *out, const char *s)
{
	char e[4 * 4096 + 8];
	size_t n = ior_escape_all(e, sizeof e, s, strnlen(s, 4096), IOR_ESCAPE_AUTO);

	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		if (e[i] == '"' || e[i] == '\\')
			fputc('\\', out);
		fputc(e[i], out);
	}
	fputc('"', out);
}

static void json_pair(FILE *out, const char *key, uint64_t b, uint64_t n, bool known)
{
	if (known)
		fprintf(out, ",\"%s\":[%llu,%llu]", key, (unsigned long long)b, (unsigned long long)n);
}

static void json_row(FILE *out, const struct ior_stats_change *c, bool first)
{
	fputs(first ? "{\"name\":" : ",{\"name\":", out);
	json_str(out, c->name);
	json_pair(out, "pairs", c->base.pairs, c->new_.pairs, true);
	json_pair(out, "time_ns", c->base.time_ns, c->new_.time_ns, true);
	json_pair(out, "bytes", c->base.bytes_read + c->base.bytes_written, c->new_.bytes_read + c->new_.bytes_written,
		  true);
	json_pair(out, "errors", c->base.errors, c->new_.errors, true);
	json_pair(out, "p50_ns", c->base_p50, c->new_p50, c->base_hist && c->new_hist);
	json_pair(out, "p99_ns", c->base_p99, c->new_p99, c->base_hist && c->new_hist);
	fputc('}', out);
}

static int one_table(struct ior_stats *base, struct ior_stats *new_, FILE *out, const struct ior_stats_diff_cfg *cfg,
		     unsigned k)
{
	struct ior_stats_change *c;
	unsigned n, top = cfg->top ? cfg->top : 10;
	int rc = ior_stats_diff(base, new_, tables[k].t, cfg->factor, &c, &n);

	if (rc)
		return rc;
	if (cfg->json) {
		fprintf(out, "%s\"%s\":[", k ? "," : "", tables[k].title);
		for (unsigned i = 0; i < n; i++)
			json_row(out, &c[i], !i);
		fputc(']', out);
	} else {
		fprintf(out, "\n%s, the %u of %u that changed most\n  %-20s  %-22s  %-24s  %-22s  %-18s  %-18s  %-16s  %s\n",
			tables[k].title, n < top ? n : top, n, "change in time", "time base -> new", "calls base -> new",
			"bytes base -> new", "p50 base -> new", "p99 base -> new", "errors", tables[k].key);
		for (unsigned i = 0; i < n && i < top; i++)
			text_row(out, &c[i]);
	}
	free(c);
	return 0;
}

static void dev_text_row(FILE *out, const struct ior_stats_dev_change *c)
{
	char name[300], t0[32], t1[32], b0[32], b1[32], p[4][32] = { "-", "-", "-", "-" };

	ior_escape_str(name, sizeof name, c->device, strlen(c->device), IOR_ESCAPE_AUTO);
	ior_stats_format_ns(t0, sizeof t0, c->base_device_ns, true);
	ior_stats_format_ns(t1, sizeof t1, c->new_device_ns, true);
	fmt_bytes(b0, sizeof b0, c->base_bytes);
	fmt_bytes(b1, sizeof b1, c->new_bytes);
	if (c->base_lat)
		ior_stats_format_ns(p[0], sizeof p[0], c->base_p50, true), ior_stats_format_ns(p[2], sizeof p[2], c->base_p99, true);
	if (c->new_lat)
		ior_stats_format_ns(p[1], sizeof p[1], c->new_p50, true), ior_stats_format_ns(p[3], sizeof p[3], c->new_p99, true);
	fprintf(out, "  %-12s %-7s  %10llu -> %-10llu  %9s -> %-9s  %9s -> %-9s  %7s -> %-7s  %7s -> %-7s\n", name,
		ior_blk_op_name(c->op), (unsigned long long)c->base_requests, (unsigned long long)c->new_requests, b0, b1,
		t0, t1, p[0], p[1], p[2], p[3]);
}

static void dev_json_row(FILE *out, const struct ior_stats_dev_change *c, bool first)
{
	fputs(first ? "{\"device\":" : ",{\"device\":", out);
	json_str(out, c->device);
	fprintf(out, ",\"op\":\"%s\"", ior_blk_op_name(c->op));
	json_pair(out, "requests", c->base_requests, c->new_requests, true);
	json_pair(out, "bytes", c->base_bytes, c->new_bytes, true);
	json_pair(out, "device_ns", c->base_device_ns, c->new_device_ns, true);
	json_pair(out, "device_p50_ns", c->base_p50, c->new_p50, c->base_lat && c->new_lat);
	json_pair(out, "device_p99_ns", c->base_p99, c->new_p99, c->base_lat && c->new_lat);
	fputc('}', out);
}

static int devices_table(struct ior_stats *base, struct ior_stats *new_, FILE *out, const struct ior_stats_diff_cfg *cfg)
{
	struct ior_stats_dev_change *c;
	unsigned n;
	int rc = ior_stats_diff_devices(base, new_, cfg->factor, &c, &n);

	if (rc)
		return rc;
	if (cfg->json) {
		fputs(",\"devices\":[", out);
		for (unsigned i = 0; i < n; i++)
			dev_json_row(out, &c[i], !i);
		fputc(']', out);
	} else if (n) {
		fprintf(out, "\ndevices (block requests; BASE's requests, bytes and device time x %.4g)\n"
			     "  %-12s %-7s  %-24s  %-22s  %-22s  %-18s  %s\n",
			cfg->factor, "device", "op", "requests base -> new", "bytes base -> new", "device time base -> new",
			"p50 base -> new", "p99 base -> new");
		for (unsigned i = 0; i < n; i++)
			dev_text_row(out, &c[i]);
	}
	free(c);
	return 0;
}

int ior_stats_diff_report(struct ior_stats *base, struct ior_stats *new_, FILE *out,
			  const struct ior_stats_diff_cfg *cfg)
{
	int rc = 0;

	if (cfg->json) {
		fputs("{\"base\":", out);
		json_str(out, cfg->base_name);
		fputs(",\"new\":", out);
		json_str(out, cfg->new_name);
		fprintf(out, ",\"normalize\":\"%s\",\"factor\":%.17g,", cfg->normalize, cfg->factor);
	} else {
		text_header(out, cfg);
	}
	for (unsigned k = 0; k < sizeof tables / sizeof *tables && !rc; k++)
		rc = one_table(base, new_, out, cfg, k);
	if (!rc)
		rc = devices_table(base, new_, out, cfg);
	if (cfg->json)
		fputs("}\n", out);
	return rc ? rc : ferror(out) ? -EIO : 0;
}
