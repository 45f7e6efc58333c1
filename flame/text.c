/* Frame names and values as people read them. */
#include "flame.h"
#include "text/escape.h"

#include <string.h>

/* The escape notation (text/escape.h) plus ';' as \x3b: lossless and
 * reversible, and ';' never appears inside a frame name, so a folded line
 * splits at every ';'. */
size_t ior_flame_sanitize(char *dst, size_t cap, const char *src, size_t n)
{
	return ior_escape_name(dst, cap, src, n, ';');
}

static void thousands(char *buf, size_t len, uint64_t v)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
	size_t o = 0;
	for (int i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = 0;
}

void ior_flame_format_value(char *buf, size_t len, enum ior_flame_metric m, uint64_t v)
{
	switch (m) {
	case IOR_METRIC_COUNT: {
		char num[40];
		thousands(num, sizeof num, v);
		snprintf(buf, len, "%s call%s", num, v == 1 ? "" : "s");
		return;
	}
	case IOR_METRIC_DURATION:
	case IOR_METRIC_DURATION_TO_PREV:
	case IOR_METRIC_DEVICE_TIME:
		if (v < 1000000000000ull)
			snprintf(buf, len, "%.3f ms", (double)v / 1e6);
		else
			snprintf(buf, len, "%.3f s", (double)v / 1e9);
		return;
	case IOR_METRIC_BYTES:
		if (v < 1024)
			snprintf(buf, len, "%llu B", (unsigned long long)v);
		else if (v < 1024 * 1024)
			snprintf(buf, len, "%.1f KiB", (double)v / 1024);
		else if (v < 1024ull * 1024 * 1024)
			snprintf(buf, len, "%.1f MiB", (double)v / (1024 * 1024));
		else
			snprintf(buf, len, "%.2f GiB", (double)v / (1024.0 * 1024 * 1024));
		return;
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
}
