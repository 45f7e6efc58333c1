/* The text report (report.h). Each table is formatted into a grid of
 * cells first, so every column can be as wide as its widest cell; the
 * last column (a path, a comm) is left-aligned and unpadded. */
#include "report.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 13
#define CELL 32
#define DEFAULT_ROWS 20

struct line {
	char c[MAX_COLS][CELL];
	char *tail; /* the escaped last column (malloc'd), or NULL */
};

struct grid {
	const char *const *head; /* column names; the tail's last */
	unsigned ncols;          /* columns before the tail */
	bool tail, left0;        /* a tail column; the first is a name (left-aligned) */
	struct line *lines;
	unsigned n, cap;
	bool ascii;
};

void ior_stats_format_ns(char *buf, size_t len, uint64_t ns, bool ascii)
{
	static const struct {
		uint64_t div;
		const char *unit;
	} units[] = { { 1000000000ull, "s" }, { 1000000, "ms" }, { 1000, "µs" } };

	for (unsigned i = 0; i < 3; i++) {
		if (ns < units[i].div)
			continue;
		double v = (double)ns / (double)units[i].div;
		const char *u = i == 2 && ascii ? "us" : units[i].unit;
		/* 3 significant digits, but never round up into the next unit's range */
		if (v < 9.995)
			snprintf(buf, len, "%.2f%s", v, u);
		else if (v < 99.95)
			snprintf(buf, len, "%.1f%s", v, u);
		else
			snprintf(buf, len, "%.0f%s", v, u);
		return;
	}
	snprintf(buf, len, "%lluns", (unsigned long long)ns);
}

/* s[0..n) escaped whole (ior_csv_escape takes 256 bytes at a time: the
 * cuts fall between UTF-8 sequences). NULL when out of memory. */
static char *escape_all(const char *s, size_t n, enum ior_escape esc)
{
	char *out = malloc(4 * n + 1), chunk[4 * 256 + 1];
	size_t len = 0;

	if (!out)
		return NULL;
	out[0] = 0;
	while (n) {
		size_t k = n > 256 ? 256 : n;
		while (k < n && k > 252 && ((unsigned char)s[k] & 0xc0) == 0x80)
			k--;
		size_t w = ior_escape_str(chunk, sizeof chunk, s, k, esc);
		memcpy(out + len, chunk, w + 1);
		len += w;
		s += k, n -= k;
	}
	return out;
}

static struct line *grid_line(struct grid *g)
{
	if (g->n == g->cap) {
		unsigned cap = g->cap ? 2 * g->cap : 32;
		struct line *l = realloc(g->lines, cap * sizeof *l);
		if (!l)
			return NULL;
		g->lines = l;
		g->cap = cap;
	}
	memset(&g->lines[g->n], 0, sizeof *g->lines);
	return &g->lines[g->n++];
}

static void grid_free(struct grid *g)
{
	for (unsigned i = 0; i < g->n; i++)
		free(g->lines[i].tail);
	free(g->lines);
}

/* Columns on a terminal: UTF-8 continuation bytes take none (cells hold
 * ASCII and µ). */
static int width(const char *v)
{
	int w = 0;

	for (; *v; v++)
		w += ((unsigned char)*v & 0xc0) != 0x80;
	return w;
}

static int grid_print(const struct grid *g, FILE *out)
{
	int w[MAX_COLS] = { 0 };

	for (unsigned c = 0; c < g->ncols; c++) {
		w[c] = width(g->head[c]);
		for (unsigned i = 0; i < g->n; i++)
			if (width(g->lines[i].c[c]) > w[c])
				w[c] = width(g->lines[i].c[c]);
	}
	for (int i = -1; i < (int)g->n; i++) {
		for (unsigned c = 0; c < g->ncols; c++) {
			const char *v = i < 0 ? g->head[c] : g->lines[i].c[c];
			int pad = w[c] - width(v);
			bool left = c == 0 && g->left0;
			fprintf(out, "%s%*s%s%*s", c ? "  " : "", left ? 0 : pad, "", v, left ? pad : 0, "");
		}
		if (g->tail)
			fprintf(out, "  %s", i < 0 ? g->head[g->ncols] : g->lines[i].tail);
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

static void u64(char *c, uint64_t v)
{
	snprintf(c, CELL, "%llu", (unsigned long long)v);
}

static void ns(const struct grid *g, char *c, uint64_t v, bool known)
{
	if (known)
		ior_stats_format_ns(c, CELL, v, g->ascii);
	else
		snprintf(c, CELL, "-");
}

static void percent(char *c, uint64_t part, uint64_t whole)
{
	if (whole)
		snprintf(c, CELL, "%.1f", 100.0 * (double)part / (double)whole);
	else
		snprintf(c, CELL, "-");
}

/* ---- the tables ----------------------------------------------------------- */

static const char *const syscall_head[] = { "syscall", "calls", "errors", "read", "written", "total", "%time",
					    "min", "mean", "p50", "p95", "p99", "max" };

static void syscall_line(struct grid *g, struct line *l, const struct ior_stats_row *r, uint64_t total)
{
	bool any = r->sums.pairs > r->sums.summarized;

	snprintf(l->c[0], CELL, "%s", r->name);
	u64(l->c[1], r->sums.pairs);
	u64(l->c[2], r->sums.errors);
	u64(l->c[3], r->sums.bytes_read);
	u64(l->c[4], r->sums.bytes_written);
	ns(g, l->c[5], r->sums.time_ns, true);
	percent(l->c[6], r->sums.time_ns, total);
	ns(g, l->c[7], r->min_ns, r->hist);
	ns(g, l->c[8], r->mean_ns, r->sums.pairs);
	ns(g, l->c[9], r->p50_ns, r->hist);
	ns(g, l->c[10], r->p95_ns, r->hist);
	ns(g, l->c[11], r->p99_ns, r->hist);
	ns(g, l->c[12], r->sums.max_ns, any);
}

static int syscalls_table(struct ior_stats *s, FILE *out, const struct ior_stats_totals *tot, bool ascii)
{
	struct grid g = { .head = syscall_head, .ncols = 13, .left0 = true, .ascii = ascii };
	struct ior_stats_row *rows = calloc(ior_sys_count(), sizeof *rows), other, all;
	struct line *l;
	int n = rows ? ior_stats_select(s, IOR_STATS_SYSCALLS, IOR_STATS_BY_TIME, false, rows, ior_sys_count(),
					&other) : -ENOMEM;

	for (int i = 0; i < n; i++) {
		if (!(l = grid_line(&g)))
			n = -ENOMEM;
		else
			syscall_line(&g, l, &rows[i], tot->sums.time_ns);
	}
	if (n >= 0 && (l = grid_line(&g))) {
		const struct ior_hist *h = ior_stats_latency(s, -1);
		static const double q[] = { 50, 95, 99 };
		uint64_t v[3] = { 0 };
		memset(&all, 0, sizeof all);
		all.name = "total";
		all.sums = tot->sums;
		all.mean_ns = all.sums.pairs ? all.sums.time_ns / all.sums.pairs : 0;
		all.hist = h && h->count;
		if (all.hist)
			ior_hist_percentiles(h, q, v, 3), all.min_ns = h->min;
		all.p50_ns = v[0], all.p95_ns = v[1], all.p99_ns = v[2];
		syscall_line(&g, l, &all, tot->sums.time_ns);
	} else if (n >= 0)
		n = -ENOMEM;
	if (n >= 0) {
		fprintf(out, "\nSyscalls\n");
		n = grid_print(&g, out);
	}
	grid_free(&g);
	free(rows);
	return n < 0 ? n : 0;
}

static const char *const family_head[] = { "family", "calls", "errors", "read", "written", "total", "%time",
					   "min", "mean", "p50", "p95", "p99", "max" };

/* Adds a syscall's row and latency histogram into its family's. */
static int add_to_family(struct ior_stats_row *f, struct ior_hist *h, const struct ior_stats_row *r,
			 const struct ior_hist *lat)
{
	ior_stats_sums_merge(&f->sums, &r->sums);
	return lat && lat->count ? ior_hist_merge(h, lat) : 0;
}

/* Mean and percentiles of a family from its merged histogram. */
static void finish_family(struct ior_stats_row *f, const struct ior_hist *h, unsigned family)
{
	static const double q[] = { 50, 95, 99 };
	uint64_t v[3] = { 0 };

	f->name = ior_family_name(family);
	f->mean_ns = f->sums.pairs ? f->sums.time_ns / f->sums.pairs : 0;
	f->hist = h->count > 0;
	if (f->hist)
		ior_hist_percentiles(h, q, v, 3), f->min_ns = h->min;
	f->p50_ns = v[0], f->p95_ns = v[1], f->p99_ns = v[2];
}

/* The Syscalls rows summed by family (FS, Network, ...), by time. */
static int families_table(struct ior_stats *s, FILE *out, const struct ior_stats_totals *tot, bool ascii)
{
	struct grid g = { .head = family_head, .ncols = 13, .left0 = true, .ascii = ascii };
	struct ior_stats_row *rows = calloc(ior_sys_count(), sizeof *rows), other, fam[IOR_NFAMILIES];
	struct ior_hist h[IOR_NFAMILIES];
	bool done[IOR_NFAMILIES] = { 0 };
	int n = rows ? ior_stats_select(s, IOR_STATS_SYSCALLS, IOR_STATS_BY_TIME, false, rows, ior_sys_count(),
					&other) : -ENOMEM;

	memset(fam, 0, sizeof fam);
	for (unsigned f = 0; f < IOR_NFAMILIES; f++)
		ior_hist_init(&h[f]);
	for (int i = 0; i < n; i++) {
		unsigned f = ior_sys((unsigned)rows[i].key)->family;
		if (f < IOR_NFAMILIES &&
		    add_to_family(&fam[f], &h[f], &rows[i], ior_stats_latency(s, (int)rows[i].key)))
			n = -ENOMEM;
	}
	for (unsigned k = 0; n >= 0 && k < IOR_NFAMILIES; k++) {
		unsigned best = IOR_NFAMILIES;
		for (unsigned f = 0; f < IOR_NFAMILIES; f++)
			if (!done[f] && fam[f].sums.pairs &&
			    (best == IOR_NFAMILIES || fam[f].sums.time_ns > fam[best].sums.time_ns))
				best = f;
		if (best == IOR_NFAMILIES)
			break;
		done[best] = true;
		finish_family(&fam[best], &h[best], best);
		struct line *l = grid_line(&g);
		if (!l)
			n = -ENOMEM;
		else
			syscall_line(&g, l, &fam[best], tot->sums.time_ns);
	}
	if (n >= 0) {
		fprintf(out, "\nFamilies\n");
		n = grid_print(&g, out);
	}
	for (unsigned f = 0; f < IOR_NFAMILIES; f++)
		ior_hist_free(&h[f]);
	grid_free(&g);
	free(rows);
	return n < 0 ? n : 0;
}

static const char *const file_head[] = { "accesses", "errors", "read", "written", "total", "max", "path" };
static const char *const proc_head[] = { "pid", "calls", "errors", "read", "written", "total", "mean", "max",
					 "comm" };

static void file_line(const struct grid *g, struct line *l, const struct ior_stats_row *r)
{
	u64(l->c[0], r->sums.pairs);
	u64(l->c[1], r->sums.errors);
	u64(l->c[2], r->sums.bytes_read);
	u64(l->c[3], r->sums.bytes_written);
	ns(g, l->c[4], r->sums.time_ns, true);
	ns(g, l->c[5], r->sums.max_ns, r->sums.pairs > r->sums.summarized);
}

static void process_line(const struct grid *g, struct line *l, const struct ior_stats_row *r, bool other)
{
	if (other)
		snprintf(l->c[0], CELL, "-");
	else
		u64(l->c[0], r->pid);
	u64(l->c[1], r->sums.pairs);
	u64(l->c[2], r->sums.errors);
	u64(l->c[3], r->sums.bytes_read);
	u64(l->c[4], r->sums.bytes_written);
	ns(g, l->c[5], r->sums.time_ns, true);
	ns(g, l->c[6], r->mean_ns, r->sums.pairs);
	ns(g, l->c[7], r->sums.max_ns, r->sums.pairs > r->sums.summarized);
}

/* The last column: the path or the comm, escaped. NULL: out of memory. */
static char *tail_of(enum ior_stats_table table, const struct ior_stats_row *r, bool other, enum ior_escape esc)
{
	char comm[4 * 16];

	if (other)
		return strdup(IOR_STATS_OTHER);
	if (table == IOR_STATS_FILES)
		return escape_all(r->name, strlen(r->name), esc);
	ior_escape_str(comm, sizeof comm, r->comm, strlen(r->comm), esc);
	return strdup(comm);
}

/* Files or Processes: the first rows by time, then (other). */
static int keyed_table(struct ior_stats *s, FILE *out, enum ior_stats_table table,
		       const struct ior_stats_report_cfg *cfg, bool ascii)
{
	bool files = table == IOR_STATS_FILES;
	struct grid g = { .head = files ? file_head : proc_head, .ncols = files ? 6 : 8, .tail = true,
			  .ascii = ascii };
	unsigned max = cfg->rows ? cfg->rows : DEFAULT_ROWS;
	struct ior_stats_row *rows = calloc(max + 1, sizeof *rows), *other = rows ? &rows[max] : NULL;
	int n = rows ? ior_stats_select(s, table, IOR_STATS_BY_TIME, false, rows, max, other) : -ENOMEM;
	unsigned shown = n < 0 ? 0 : (unsigned)n + (other->sums.pairs > 0);

	for (unsigned i = 0; i < shown && n >= 0; i++) {
		const struct ior_stats_row *r = i < (unsigned)n ? &rows[i] : other;
		struct line *l = grid_line(&g);
		if (l && files)
			file_line(&g, l, r);
		else if (l)
			process_line(&g, l, r, r == other);
		if (!l || !(l->tail = tail_of(table, r, r == other, cfg->esc)))
			n = -ENOMEM;
	}
	if (n >= 0) {
		fprintf(out, "\n%s\n", files ? "Files" : "Processes");
		n = grid_print(&g, out);
	}
	grid_free(&g);
	free(rows);
	return n < 0 ? n : 0;
}

/* "56 pairs in 3.09ms (18123/s); 0 errors; 3280 bytes read, 66536 written;
 * 3.01ms in syscalls": the span from the first enter to the last exit. */
static void totals_line(FILE *out, const struct ior_stats_totals *t, bool ascii)
{
	char span[CELL], busy[CELL];
	uint64_t ns = t->last_ns - t->first_ns;

	ior_stats_format_ns(span, sizeof span, ns, ascii);
	ior_stats_format_ns(busy, sizeof busy, t->sums.time_ns, ascii);
	fprintf(out, "%llu pairs in %s", (unsigned long long)t->sums.pairs, span);
	if (ns >= 1000000)
		fprintf(out, " (%.0f/s)", (double)t->sums.pairs * 1e9 / (double)ns);
	fprintf(out, "; %llu errors; %llu bytes read, %llu written; %s in syscalls\n",
		(unsigned long long)t->sums.errors, (unsigned long long)t->sums.bytes_read,
		(unsigned long long)t->sums.bytes_written, busy);
	if (t->sums.summarized)
		fprintf(out, "%llu of the pairs came in summary rows (the kernel's ring was full): they are in the "
			     "counts, bytes and times, not in min, max and the percentiles\n",
			(unsigned long long)t->sums.summarized);
	if (t->not_in_hist)
		fprintf(out, "%llu pairs are missing from the percentiles: out of memory\n",
			(unsigned long long)t->not_in_hist);
}

int ior_stats_report(struct ior_stats *s, FILE *out, const struct ior_stats_report_cfg *cfg)
{
	bool ascii = cfg->esc == IOR_ESCAPE_ALWAYS;
	struct ior_stats_totals t;
	int r;

	ior_stats_totals(s, &t);
	totals_line(out, &t, ascii);
	if (!t.sums.pairs)
		return ior_stats_report_devices(s, out, cfg);
	if ((r = syscalls_table(s, out, &t, ascii)) || (r = families_table(s, out, &t, ascii)) ||
	    (r = keyed_table(s, out, IOR_STATS_FILES, cfg, ascii)) ||
	    (r = keyed_table(s, out, IOR_STATS_PROCESSES, cfg, ascii)))
		return r;
	return ior_stats_report_devices(s, out, cfg);
}
