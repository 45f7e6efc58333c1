/* The escape notation of everything ior shows a person: strict UTF-8
 * (RFC 3629: no overlongs, surrogates or code points past U+10FFFF),
 * \\xHH for control bytes and invalid UTF-8, \\uHHHH for C1 controls and
 * bidi overrides, \\\\ for the backslash. */
#include "text/escape.h"

#include <string.h>

int ior_escape_parse(const char *s, enum ior_escape *e)
{
	if (!strcmp(s, "auto"))
		*e = IOR_ESCAPE_AUTO;
	else if (!strcmp(s, "always"))
		*e = IOR_ESCAPE_ALWAYS;
	else if (!strcmp(s, "never"))
		*e = IOR_ESCAPE_NEVER;
	else
		return -1;
	return 0;
}

int ior_utf8_seq(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned c = s[0], lo = 0x80, hi = 0xbf;
	int len;

	if (!n)
		return 0;
	if (c < 0x80)
		return *cp = c, 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, *cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, *cp = c & 0x0f, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, *cp = c & 0x07, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if ((size_t)len > n || s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 1; i < len; i++) {
		if (i > 1 && (s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	return len;
}

int ior_cp_is_unsafe(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x200e || cp == 0x200f || cp == 0x2028 || cp == 0x2029 ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

const unsigned char ior_escape_stop[256] = {
	[0 ... 0x1f] = 1, ['"'] = 1, [','] = 1, ['\\'] = 1, [0x7f ... 0xff] = 1,
};

/* The notation of esc: control bytes and invalid UTF-8 as \\xHH, unsafe
 * code points as \\uHHHH, the backslash as \\\\ so the notation stays
 * unambiguous. A UTF-8 sequence never spans a NUL (a continuation byte is
 * not 0), so max bounds ior_utf8_seq as strnlen did. */
size_t ior_escape_byte(struct ior_text_buf *b, const char *s, size_t i, size_t max, int nul_ends, enum ior_escape esc)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned c = u[i], cp;
	int len;

	if (!c && nul_ends)
		return max;
	if (c == '"' || c == ',') {
		ior_text_put(b, b->quoting && c == '"' ? "\"\"" : s + i, b->quoting && c == '"' ? 2 : 1);
		b->special = 1;
		return i + 1;
	}
	if (esc == IOR_ESCAPE_NEVER) {
		b->special |= c == '\n' || c == '\r';
		ior_text_put(b, s + i, 1);
		return i + 1;
	}
	if (c < 0x80) {
		if (c < 0x20 || c == 0x7f)
			ior_text_put_hex(b, 'x', c, 2);
		else /* the backslash */
			ior_text_put(b, "\\\\", 2);
		return i + 1;
	}
	if (esc == IOR_ESCAPE_ALWAYS || !(len = ior_utf8_seq(u + i, max - i, &cp))) {
		ior_text_put_hex(b, 'x', c, 2);
		return i + 1;
	}
	if (ior_cp_is_unsafe(cp))
		ior_text_put_hex(b, 'u', cp, 4);
	else
		ior_text_put(b, s + i, (size_t)len);
	return i + (size_t)len;
}

size_t ior_escape_str(char *dst, size_t len, const char *s, size_t n, enum ior_escape esc)
{
	char tmp[4 * 256 + 8];
	struct ior_text_buf b = { tmp, 0, sizeof tmp, 0, 0 };
	size_t out;

	if (!len)
		return 0;
	if (n > 256)
		n = 256;
	ior_escape_put(&b, s, n, 0, esc);
	out = b.len < len - 1 ? b.len : len - 1;
	memcpy(dst, tmp, out);
	dst[out] = 0;
	return out;
}

size_t ior_escape_all(char *dst, size_t cap, const char *s, size_t n, enum ior_escape esc)
{
	struct ior_text_buf b = { dst, 0, cap, 0, 0 };

	ior_escape_put(&b, s, n, 0, esc);
	return b.len;
}


/* The notation of the character at s[0..n) into out (at most 6 bytes);
 * *used: the bytes it took. */
static size_t escape_one(char *out, const unsigned char *s, size_t n, unsigned char also, size_t *used)
{
	struct ior_text_buf b = { out, 0, 8, 0, 0 };
	unsigned cp;
	int len = ior_utf8_seq(s, n, &cp);

	*used = len ? (size_t)len : 1;
	if (s[0] == '\\')
		ior_text_put(&b, "\\\\", 2);
	else if (!len || s[0] == also || s[0] < 0x20 || s[0] == 0x7f)
		ior_text_put_hex(&b, 'x', s[0], 2);
	else if (ior_cp_is_unsafe(cp))
		ior_text_put_hex(&b, 'u', cp, 4);
	else
		ior_text_put(&b, (const char *)s, (size_t)len);
	return b.len;
}

size_t ior_escape_name(char *dst, size_t cap, const char *src, size_t n, unsigned char also)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0;

	if (!cap)
		return 0;
	for (size_t i = 0; i < n && s[i];) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != also && s[i] != '\\') { /* most names: a byte at a time */
			if (o + 1 >= cap)
				break;
			dst[o++] = (char)s[i++];
			continue;
		}
		char one[8];
		size_t used, k = escape_one(one, s + i, n - i, also, &used);
		if (o + k >= cap)
			break; /* never half an escape or a character */
		memcpy(dst + o, one, k);
		o += k;
		i += used;
	}
	dst[o] = 0;
	return o;
}
