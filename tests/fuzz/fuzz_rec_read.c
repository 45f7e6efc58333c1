/* Recording reader on arbitrary bytes: open, read every pair, touch every
 * string, ask for totals and truncation. Must never crash or hang. */
#include "rec/rec.h"
#include "syscalls/syscalls.h"

#include <stdint.h>
#include <string.h>

static size_t touched;

/* Block requests and device names: their strings touched like a report's. */
static int block(void *ctx, const struct ior_block_req *b)
{
	(void)ctx;
	touched += strlen(b->comm) + strlen(b->path) + ior_blk_device_ns(b) + ior_blk_queue_ns(b);
	return 0;
}

static int devname(void *ctx, uint32_t dev, const char *name)
{
	(void)ctx;
	touched += strlen(name) + dev;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ior_rec_reader *r;
	char err[256];
	if (ior_rec_reader_open_mem(&r, data, size, err, sizeof err))
		return 0;
	if (size & 1)
		ior_rec_reader_block_hooks(r, &(struct ior_rec_block_hooks){ block, devname, NULL });
	const struct ior_rec_info *info = ior_rec_reader_info(r);
	size_t sink = strlen(info->host) + strlen(info->kernel) + strlen(info->cmdline);
	struct ior_event_pair p;
	struct ior_rec_ids ids;
	while (ior_rec_read_ids(r, &p, &ids) == 1) {
		sink += strlen(p.comm) + strlen(p.path) + strlen(p.path2) + strlen(ior_sys(p.sys)->name);
		const char *s = ior_rec_reader_string(r, ids.path);
		sink += s ? strlen(s) : 0;
	}
	const char *names;
	sink += ior_rec_reader_unknown(r, &names) + strlen(names);
	sink += strlen(ior_rec_reader_error(r));
	ior_rec_reader_truncated(r, NULL, NULL);
	ior_rec_reader_totals(r);
	ior_rec_reader_close(r);
	return sink == (size_t)-1;
}
