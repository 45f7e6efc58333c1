/* Fuzzes the texts ior reads to learn block devices and tracepoint
 * records: tracefs format files (trace/tpformat.c), sysfs uevent files
 * and /proc/partitions (pair/devname.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pair/devname.h"
#include "trace/tpformat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const fields[] = { "dev", "sector", "nr_sector", "rwbs", "error", "cmd", "" };
	const char *text = (const char *)data;
	char name[16];
	uint32_t off, size_out;

	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
		if (!ior_tpformat_field(text, size, fields[i], &off, &size_out) && (!size_out || size_out > 0xffffff))
			abort();
	if (!ior_devname_uevent(text, size, name, sizeof name) && strlen(name) >= sizeof name)
		abort();
	for (uint32_t major = 0; major < 3; major++)
		if (!ior_devname_partitions(text, size, major * 7, size ? data[0] : 0, name, sizeof name) &&
		    (strlen(name) >= sizeof name || !name[0]))
			abort();
	return 0;
}
