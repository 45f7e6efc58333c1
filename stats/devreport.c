/* The Devices part of the text report (report.h): one line per device
 * and op with fixed columns, then its device-time histogram by powers of
 * two (biolatency's) and who waited on it. */
#include "stats/report.h"
#include "stats/devices.h"
#include "pair/devname.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static void lat5(char *buf, size_t len, const struct ior_hist *h, bool ascii)
{
	static const double q[3] = { 50, 95, 99 };
	uint64_t p[3];
	char v[5][32];

	ior_hist_percentiles(h, q, p, 3);
	ior_stats_format_ns(v[0], sizeof v[0], h->count ? h->min : 0, ascii);
	for (int i = 0; i < 3; i++)
		ior_stats_format_ns(v[i + 1], sizeof v[i + 1], p[i], ascii);
	ior_stats_format_ns(v[4], sizeof v[4], h->max, ascii);
	snprintf(buf, len, "%s/%s/%s/%s/%s", v[0], v[1], v[2], v[3], v[4]);
}

static void histogram(FILE *out, const struct ior_hist *h, bool ascii)
{
	uint64_t pow2[65], most = 0;
	int lo = 65, hi = -1;

	ior_hist_log2(h, pow2);
	for (int i = 0; i < 65; i++)
		if (pow2[i]) {
			lo = i < lo ? i : lo;
			hi = i;
			most = pow2[i] > most ? pow2[i] : most;
		}
	for (int i = lo; i <= hi; i++) {
		char a[32], b[32], bar[41];
		int w = most ? (int)(pow2[i] * 40 / most) : 0;
		ior_stats_format_ns(a, sizeof a, i ? 1ull << (i - 1) : 0, ascii);
		ior_stats_format_ns(b, sizeof b, i ? (i < 64 ? 1ull << i : UINT64_MAX) : 1, ascii);
		memset(bar, '*', (size_t)w);
		bar[w] = 0;
		fprintf(out, "    %8s .. %-8s %10" PRIu64 " |%-40s|\n", a, b, pow2[i], bar);
	}
}

static void who(FILE *out, const char *title, const struct ior_dev_who *w, unsigned n, enum ior_escape esc)
{
	char name[1100];

	for (unsigned i = 0; i <= n && i <= IOR_DEV_TOP; i++) {
		if (!w[i].requests)
			continue;
		size_t k = ior_escape_all(name, sizeof name - 1, w[i].name, strnlen(w[i].name, sizeof w[i].name), esc);
		name[k] = 0;
		if (w[i].pid)
			fprintf(out, "    %s %" PRIu64 " requests %" PRIu64 " bytes %s[%u]\n", title, w[i].requests,
				w[i].bytes, name, w[i].pid);
		else
			fprintf(out, "    %s %" PRIu64 " requests %" PRIu64 " bytes %s\n", title, w[i].requests,
				w[i].bytes, name);
	}
}

int ior_stats_report_devices(struct ior_stats *s, FILE *out, const struct ior_stats_report_cfg *cfg)
{
	struct ior_devices *d = ior_stats_devices(s);
	bool ascii = cfg->esc == IOR_ESCAPE_ALWAYS;

	if (d->cache_pages || d->cache[IOR_CACHE_HIT]) {
		fprintf(out, "\nPage cache: %" PRIu64 " reads: %" PRIu64 " hits, %" PRIu64 " partial, %" PRIu64
			     " misses; %" PRIu64 " pages added\n",
			d->cache[IOR_CACHE_HIT] + d->cache[IOR_CACHE_PARTIAL] + d->cache[IOR_CACHE_MISS],
			d->cache[IOR_CACHE_HIT], d->cache[IOR_CACHE_PARTIAL], d->cache[IOR_CACHE_MISS], d->cache_pages);
	}
	if (!d->n)
		return ferror(out) ? -EIO : 0;
	if (d->blk_pairs) {
		char t[32];
		ior_stats_format_ns(t, sizeof t, d->device_ns, ascii);
		fprintf(out, "\n%" PRIu64 " pairs waited on block requests: %s at the device\n", d->blk_pairs, t);
	}
	fprintf(out, "\nDevices (block requests; latency min/p50/p95/p99/max)\n");
	fprintf(out, "%-12s %-7s %10s %14s %6s %11s %14s  %-40s %s\n", "device", "op", "requests", "bytes",
		"errors", "in-syscalls", "syscall-bytes", "queue", "device");
	for (unsigned i = 0; i < d->n; i++) {
		const struct ior_dev_row *r = &d->rows[i];
		char dn[64], raw[64], q[200], v[200];
		if (!r->requests)
			continue;
		/* a recording's names, or this host's sysfs: escaped either way */
		const char *name = cfg->dev_name ? cfg->dev_name(cfg->dev_ctx, r->dev) : ior_devname(r->dev, raw, sizeof raw);
		ior_escape_str(dn, sizeof dn, name, strlen(name), cfg->esc);
		lat5(q, sizeof q, &r->queue, ascii);
		lat5(v, sizeof v, &r->device, ascii);
		fprintf(out, "%-12s %-7s %10" PRIu64 " %14" PRIu64 " %6" PRIu64 " %11" PRIu64 " %14" PRIu64 "  %-40s %s\n",
			dn, ior_blk_op_name(r->op), r->requests, r->bytes, r->errors, r->in_pairs, r->in_pairs_bytes,
			q, v);
		histogram(out, &r->device, ascii);
		who(out, "process", r->procs, r->nprocs, cfg->esc);
		who(out, "file", r->files, r->nfiles, cfg->esc);
	}
	if (d->dropped)
		fprintf(out, "%" PRIu64 " requests of devices past %u rows are not in the table\n", d->dropped,
			IOR_DEV_MAX_ROWS);
	return ferror(out) ? -EIO : 0;
}
