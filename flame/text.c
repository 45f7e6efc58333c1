/* Frame names and values as people read them. */
#include "flame.h"
#include "text/escape.h"

#include <string.h>

/* The CSV's visible notation (csv/csv.h, escape auto) plus ';' as \x3b:
 * lossless and reversible (\\ is a backslash, \xHH a byte, \uHHHH a
 * code point in UTF-8), and ';' never appears inside a frame name, so a
 * folded line splits at every ';'. */
static size_t put_hex(char *out, char kind, unsigned v, int digits)
{
	static const char hex[] = "0123456789abcdef";

	out[0] = '\\';
	out[1] = kind;
	for (int i = 0; i < digits; i++)
		out[2 + i] = hex[(v >> (4 * (digits - 1 - i))) & 0xf];
	return 2 + (size_t)digits;
}

/* The notation of the character at s[0..n) into out (at most 6 bytes);
 * *used: the bytes it took. */
static size_t escape_one(char *out, const unsigned char *s, size_t n, size_t *used)
{
	unsigned cp;
	int len;

	*used = 1;
	if (s[0] == '\\')
		return memcpy(out, "\\\\", 2), 2;
	if (s[0] == ';' || s[0] < 0x20 || s[0] == 0x7f)
		return put_hex(out, 'x', s[0], 2);
	if (s[0] < 0x80)
		return out[0] = (char)s[0], 1;
	if (!(len = ior_utf8_seq(s, n, &cp)))
		return put_hex(out, 'x', s[0], 2);
	*used = (size_t)len;
	if (ior_cp_is_unsafe(cp))
		return put_hex(out, 'u', cp, 4);
	memcpy(out, s, (size_t)len);
	return (size_t)len;
}

size_t ior_flame_sanitize(char *dst, size_t cap, const char *src, size_t n)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0;
	if (!cap)
		return 0;
	for (size_t i = 0; i < n && s[i];) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != ';' && s[i] != '\\') { /* most names: a byte at a time */
			if (o + 1 >= cap)
				break;
			dst[o++] = (char)s[i++];
			continue;
		}
		char one[8];
		size_t used, k = escape_one(one, s + i, n - i, &used);
		if (o + k >= cap)
			break; /* never half an escape or a character */
		memcpy(dst + o, one, k);
		o += k;
		i += used;
	}
	dst[o] = 0;
	return o;
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
