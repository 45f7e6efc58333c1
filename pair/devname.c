/* Both files are read whole (small) and parsed as hostile text: a name
 * keeps only the bytes a device name has. */
#include "pair/devname.h"

#include <stdio.h>
#include <string.h>

static int name_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
	       c == '_' || c == '.' || c == '!' || c == ':' || c == '+';
}

/* Copies the name at s[0..n) (up to the first byte no name has). */
static int take(const char *s, size_t n, char *buf, size_t len)
{
	size_t k = 0;

	while (k < n && k + 1 < len && name_byte(s[k]))
		k++;
	if (!k)
		return -1;
	memcpy(buf, s, k);
	buf[k] = 0;
	return 0;
}

int ior_devname_uevent(const char *text, size_t n, char *buf, size_t len)
{
	for (size_t i = 0; i < n;) {
		const char *line = text + i, *nl = memchr(line, '\n', n - i);
		size_t ln = nl ? (size_t)(nl - line) : n - i;
		if (ln > 8 && !memcmp(line, "DEVNAME=", 8))
			return take(line + 8, ln - 8, buf, len);
		i += ln + 1;
	}
	return -1;
}

/* An unsigned decimal at *i in s[0..n), skipping blanks first. */
static int number(const char *s, size_t n, size_t *i, unsigned long *v)
{
	size_t start;

	while (*i < n && (s[*i] == ' ' || s[*i] == '\t'))
		(*i)++;
	start = *i;
	*v = 0;
	while (*i < n && s[*i] >= '0' && s[*i] <= '9' && *v < 1ul << 32)
		*v = *v * 10 + (unsigned long)(s[(*i)++] - '0');
	return *i > start && *v < 1ul << 32 ? 0 : -1;
}

int ior_devname_partitions(const char *text, size_t n, uint32_t major, uint32_t minor, char *buf, size_t len)
{
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(text + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - text) : n, j = i;
		unsigned long ma, mi, blocks;
		if (!number(text, end, &j, &ma) && !number(text, end, &j, &mi) && !number(text, end, &j, &blocks) &&
		    ma == major && mi == minor) {
			while (j < end && (text[j] == ' ' || text[j] == '\t'))
				j++;
			return take(text + j, end - j, buf, len);
		}
		i = end + 1;
	}
	return -1;
}

static size_t slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, len, f);
	fclose(f);
	return n;
}

const char *ior_devname_at(const char *sysfs, const char *proc, uint32_t kdev, char *buf, size_t len)
{
	uint32_t major = kdev >> 20, minor = kdev & 0xfffff;
	char path[128], text[16384];
	size_t n;

	snprintf(path, sizeof path, "%s/dev/block/%u:%u/uevent", sysfs, major, minor);
	n = slurp(path, text, sizeof text);
	if (n && !ior_devname_uevent(text, n, buf, len))
		return buf;
	snprintf(path, sizeof path, "%s/partitions", proc);
	n = slurp(path, text, sizeof text);
	if (n && !ior_devname_partitions(text, n, major, minor, buf, len))
		return buf;
	snprintf(buf, len, "%u:%u", major, minor);
	return buf;
}

const char *ior_devname(uint32_t kdev, char *buf, size_t len)
{
	return ior_devname_at("/sys", "/proc", kdev, buf, len);
}
