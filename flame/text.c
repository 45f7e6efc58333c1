/* Frame names and values as people read them. */
#include "flame.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid:
 * no overlongs, no surrogates, nothing above U+10FFFF. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	unsigned cp, min;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static bool is_control(const unsigned char *s, size_t len)
{
	if (len == 1)
		return s[0] < 0x20 || s[0] == 0x7f;
	/* C1 controls U+0080..U+009F and the line/paragraph separators */
	if (len == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return true;
	return len == 3 && s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9);
}

size_t ior_flame_sanitize(char *dst, size_t cap, const char *src, size_t n)
{
	static const char fffd[] = "\xef\xbf\xbd";
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0;
	if (!cap)
		return 0;
	for (size_t i = 0; i < n && s[i];) {
		if (s[i] >= 0x20 && s[i] < 0x7f) { /* printable ASCII: most names, a byte at a time */
			if (o + 1 >= cap)
				break;
			dst[o++] = s[i] == ';' ? '_' : (char)s[i];
			i++;
			continue;
		}
		size_t len = utf8_len(s + i, n - i);
		const char *put = (const char *)s + i;
		size_t plen = len;
		if (!len || is_control(s + i, len)) {
			put = fffd;
			plen = 3;
			len = len ? len : 1;
		} else if (s[i] == ';') {
			put = "_";
		}
		if (o + plen >= cap)
			break;
		memcpy(dst + o, put, plen);
		o += plen;
		i += len;
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
