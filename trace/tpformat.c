/* Lines look like
 *	field:char rwbs[10];	offset:34;	size:10;	signed:0;
 * The name is the last word before the first ';', an array's brackets
 * cut ("__data_loc char[] cmd" is cmd). */
#include "trace/tpformat.h"

#include <errno.h>
#include <string.h>

/* The decimal after key in line[0..n), or -1. */
static long number_after(const char *line, size_t n, const char *key)
{
	size_t k = strlen(key);
	long v = 0;
	size_t i;

	for (i = 0; i + k <= n && memcmp(line + i, key, k); i++)
		;
	if (i + k > n)
		return -1;
	i += k;
	if (i >= n || line[i] < '0' || line[i] > '9')
		return -1;
	for (; i < n && line[i] >= '0' && line[i] <= '9'; i++) {
		v = v * 10 + (line[i] - '0');
		if (v > 0xffffff)
			return -1;
	}
	return v;
}

/* Whether the declaration line[0..n) (up to its ';') names field. */
static int names(const char *line, size_t n, const char *field)
{
	size_t end = 0, start, f = strlen(field);

	while (end < n && line[end] != ';')
		end++;
	if (end == n)
		return 0;
	if (end > 0 && line[end - 1] == ']') /* an array: its brackets are not its name */
		while (end > 0 && line[end - 1] != '[')
			end--;
	if (end > 0 && line[end - 1] == '[')
		end--;
	start = end;
	while (start > 0 && line[start - 1] != ' ' && line[start - 1] != '\t' && line[start - 1] != ':')
		start--;
	return end - start == f && !memcmp(line + start, field, f);
}

int ior_tpformat_field(const char *text, size_t len, const char *field, uint32_t *off, uint32_t *size)
{
	size_t i = 0;

	while (i < len) {
		const char *line = text + i;
		const char *nl = memchr(line, '\n', len - i);
		size_t n = nl ? (size_t)(nl - line) : len - i;
		const char *decl = n >= 6 ? memmem(line, n, "field:", 6) : NULL;
		i += n + 1;
		if (!decl || !names(decl + 6, n - (size_t)(decl + 6 - line), field))
			continue;
		long o = number_after(line, n, "offset:"), s = number_after(line, n, "size:");
		if (o < 0 || s <= 0)
			return -EINVAL;
		*off = (uint32_t)o;
		*size = (uint32_t)s;
		return 0;
	}
	return -ENOENT;
}
