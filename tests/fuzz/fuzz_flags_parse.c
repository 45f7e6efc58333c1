/* Fuzzes the flag parser: the input is split at NUL bytes into argv. */
#include "flags.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int64_t i;
	bool b;
	const char *s;
	uint64_t d, z;
	const struct ior_flag table[] = {
		{ "pid", IOR_FLAG_INT, &i, "" },
		{ "plain", IOR_FLAG_BOOL, &b, "" },
		{ "comm", IOR_FLAG_STRING, &s, "" },
		{ "duration", IOR_FLAG_DURATION, &d, "" },
		{ "mapSize", IOR_FLAG_SIZE, &z, "" },
	};
	char *buf = malloc(size + 1);
	char *argv[64];
	int argc = 0;
	char err[128];

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	argv[argc++] = "ior";
	for (char *p = buf; p <= buf + size && argc < 63; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	int dd, first = ior_flags_parse_cmd(table, sizeof table / sizeof *table, argc, argv, &dd, err, sizeof err);
	if (first > argc || (first < 0 && dd))
		abort(); /* past argv's end, or a failure after "--" */
	free(buf);
	return 0;
}
