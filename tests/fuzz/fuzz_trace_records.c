/* Fuzzes the consumer stages on hostile kernel records: per-CPU batches ->
 * sample splitting -> merge -> pairing (with the fd table) -> CSV. Input:
 * chunks of
 *   [sel][syscall][thread][ts lo][ts hi][n] + n payload bytes
 * sel picks the CPU (bit 0), record kind (streaks, async submissions and
 * completions, registered files included), (bit 6) a
 * summary read from the map made of the same bytes, and (bit 7) a head
 * length that lies; the payload fills the record after its head (fd, flags, aux, comm /
 * ret, path lengths, paths), so lengths and paths are whatever the fuzzer
 * makes of them. Records are batched per CPU as bpf.c does and each batch
 * goes through ior_batch_each as cmd/trace.c's push does. */
#include "csv/csv.h"
#include "bpf/event.h"
#include "pair/fdtab.h"
#include "trace/merge.h"
#include "pair/pair.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *out;

static void sink(void *ctx, const struct ior_event_pair *p)
{
	(void)ctx;
	ior_csv_write_pair(out, p, (enum ior_escape)(p->tid % 3));
}

static void deliver(void *ctx, const void *rec, size_t len)
{
	ior_pair_feed(ctx, rec, len);
}

/* Snapshots of pids 1 and 2 (the records use pids 1-3), pending until
 * ts 3000, so records before and after they apply both happen. */
static void snapshots(struct ior_fdtab *fds)
{
	static const struct ior_fd_snap one[] = {
		{ 0, 2, "/dev/pts/0" }, { 3, 0, "/snap/a" }, { 4, 02000000, "/snap/cloexec" },
	};
	ior_fdtab_snapshot(fds, 1, 1500, 3000, "/cwd/1", one, 3);
	ior_fdtab_snapshot(fds, 2, 1600, 3000, "", one, 1);
	ior_fdtab_snapshot_until(fds, 3000);
}

static const char *canon(void *ctx, const char *path, uint32_t kdev, uint64_t ino, const char *leaf)
{
	(void)ctx, (void)path, (void)kdev, (void)leaf;
	return ino & 1 ? "/canonical" : NULL;
}

struct batch {
	uint64_t buf[IOR_BATCH_BYTES / 8];
	size_t used;
};

static void send(struct ior_merge *m, struct ior_pairer *p, unsigned cpu, struct batch *b)
{
	if (b->used && ior_merge_push_sample(m, cpu, b->buf, b->used) == -ENOSPC) {
		ior_merge_flush(m, UINT64_MAX, deliver, p);
		ior_merge_push_sample(m, cpu, b->buf, b->used);
	}
	b->used = 0;
}

/* A block request's strings are read like a sink would. */
static void block(void *ctx, const struct ior_block_req *r)
{
	(void)ctx;
	if (strlen(r->comm) >= 16 || (r->path && strlen(r->path) >= IOR_FD_PATH_MAX))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct batch batch[2];
	static uint64_t rec[(sizeof(struct ior_rec_exit) + 64) / 8];
	struct ior_fdtab *fds = ior_fdtab_new(64, 8);
	struct ior_pair_cfg cfg = { fds, (size && data[0] & 1) ? "a" : NULL, sink, NULL, NULL, canon, NULL, block };
	struct ior_pairer *p = fds ? ior_pair_new(&cfg) : NULL;
	struct ior_merge *m = ior_merge_new(2, 3 * IOR_BATCH_BYTES);
	uint64_t ts = 1000;
	unsigned chunks = 0;

	batch[0].used = batch[1].used = 0;
	if (!out)
		out = fopen("/dev/null", "w");
	if (!p || !m || !out)
		goto done;
	snapshots(fds);
	for (size_t i = 0; i + 6 <= size;) {
		const uint8_t *c = data + i;
		size_t n = c[5];
		struct ior_rec_head h = {
			.ts = ts += (uint64_t)(c[3] | c[4] << 8) - 200, /* may go backwards */
			.pid = 1 + c[2] % 3,
			.tid = 1 + c[2] % 5,
			.kind = (uint16_t)(1 + (c[0] >> 1) % 13), /* enter .. cache, and one unknown */
		};
		/* async records: mostly the async rows at the table's end */
		h.nr = ior_syscalls[h.kind >= IOR_REC_ASYNC_SUBMIT ? ior_nsyscalls - 1 - c[1] % 80 : c[1] % ior_nsyscalls].nr;
		i += 6;
		if (n > size - i)
			n = size - i;
		memset(rec, 0, sizeof rec);
		memcpy(rec, &h, sizeof h);
		memcpy((char *)rec + sizeof h, data + i, n);
		/* a long path: the payload's last byte says how far to extend */
		size_t len = sizeof h + n + (n ? (size_t)data[i + n - 1] * 2 : 0);
		if (len > IOR_REC_MAX) /* what a batch slot holds */
			len = IOR_REC_MAX;
		i += n;
		h.len = (uint32_t)len;
		if (c[0] & 0x80) /* a lying length */
			h.len = (uint32_t)(c[3] | c[4] << 8);
		memcpy(rec, &h, sizeof h);
		if (c[0] & 0x40) {
			struct ior_sum_key k;
			struct ior_sum_val v;
			memcpy(&k, (char *)rec + 8, sizeof k);
			memcpy(&v, (char *)rec + 8 + sizeof k, sizeof v);
			k.nr = h.nr ^ (k.nr & 1); /* mostly known syscalls */
			ior_pair_summary(p, &k, &v, ts);
		}
		struct batch *b = &batch[c[0] & 1];
		if (IOR_BATCH_BYTES - b->used < IOR_REC_MAX)
			send(m, p, c[0] & 1, b);
		memcpy((char *)b->buf + b->used, rec, len);
		b->used += (len + 7) & ~(size_t)7;
		if (++chunks % 8 == 0) {
			send(m, p, 0, &batch[0]);
			send(m, p, 1, &batch[1]);
			ior_merge_flush(m, ts - 300, deliver, p);
		}
	}
	send(m, p, 0, &batch[0]);
	send(m, p, 1, &batch[1]);
	ior_merge_flush(m, UINT64_MAX, deliver, p);
	struct ior_pair_stats st;
	struct ior_in_flight f[4];
	ior_pair_get_stats(p, &st);
	ior_pair_in_flight(p, f, 4);
done:
	ior_merge_free(m);
	ior_pair_free(p);
	ior_fdtab_free(fds);
	return 0;
}
