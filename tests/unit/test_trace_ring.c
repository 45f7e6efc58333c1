/* The perf ring reader on a fake mmap page in plain memory. */
#include "trace/ring.h"
#include "t.h"

#include <linux/perf_event.h>
#include <stdlib.h>

#define SIZE 256

static struct perf_event_mmap_page meta;
static char data[SIZE];
static struct ior_ring ring;

/* Kernel side: writes a raw sample of n payload bytes (padded like the
 * kernel pads: header + u32 size + data rounded up to 8). */
static void put_bytes(uint64_t pos, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		data[(pos + i) % SIZE] = ((const char *)p)[i];
}

static void kernel_sample(const char *payload, uint32_t n)
{
	uint32_t raw = ((n + 4 + 7) & ~7u) - 4;
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, (uint16_t)(sizeof h + 4 + raw) };
	uint64_t pos = meta.data_head;
	char pad[64] = { 0 };

	put_bytes(pos, &h, sizeof h);
	put_bytes(pos + sizeof h, &raw, 4);
	put_bytes(pos + sizeof h + 4, payload, n);
	put_bytes(pos + sizeof h + 4 + n, pad, raw - n);
	meta.data_head += h.size;
}

static void kernel_lost(uint64_t lost)
{
	struct { struct perf_event_header h; uint64_t id, lost; } l = {
		{ PERF_RECORD_LOST, 0, sizeof l }, 1, lost
	};
	put_bytes(meta.data_head, &l, sizeof l);
	meta.data_head += sizeof l;
}

struct got {
	char s[16][64];
	size_t len[16];
	int n, stop_at;
};

static int cb(void *ctx, const void *raw, size_t len)
{
	struct got *g = ctx;
	if (g->n == g->stop_at)
		return 1;
	memcpy(g->s[g->n], raw, len < 64 ? len : 63);
	g->len[g->n++] = len;
	return 0;
}

static void reset(void)
{
	memset(&meta, 0, sizeof meta);
	memset(data, 0, sizeof data);
	ior_ring_init(&ring, &meta, data, SIZE);
}

TEST(reads_samples_with_padding)
{
	struct got g = { .stop_at = -1 };

	reset();
	kernel_sample("hello", 6);
	kernel_sample("0123456789abcdef0123456789abcdef", 33);
	CHECK_EQ_INT(ior_ring_pending(&ring), 24 + 48);
	CHECK_EQ_INT(ior_ring_drain(&ring, cb, &g), 2);
	CHECK_EQ_STR(g.s[0], "hello");
	CHECK_EQ_INT(g.len[0], 12); /* 6 bytes + padding: callers use their own lengths */
	CHECK_EQ_STR(g.s[1], "0123456789abcdef0123456789abcdef");
	CHECK_EQ_INT(meta.data_tail, meta.data_head);
	CHECK_EQ_INT(ior_ring_pending(&ring), 0);
}

TEST(record_wrapping_the_end_is_copied_out)
{
	struct got g = { .stop_at = -1 };
	char big[41];

	reset();
	meta.data_head = meta.data_tail = 5 * SIZE - 24; /* positions only grow */
	memset(big, 'w', 40);
	big[40] = 0;
	kernel_sample(big, 41);
	kernel_sample("after", 6);
	CHECK_EQ_INT(ior_ring_drain(&ring, cb, &g), 2);
	CHECK_EQ_STR(g.s[0], big);
	CHECK_EQ_STR(g.s[1], "after");
}

TEST(lost_records_counted)
{
	struct got g = { .stop_at = -1 };

	reset();
	kernel_sample("a", 2);
	kernel_lost(17);
	kernel_sample("b", 2);
	kernel_lost(3);
	CHECK_EQ_INT(ior_ring_drain(&ring, cb, &g), 2);
	CHECK_EQ_INT(ring.lost, 20);
	CHECK_EQ_STR(g.s[1], "b");
}

TEST(stop_keeps_record_for_next_drain)
{
	struct got g = { .stop_at = 1 };

	reset();
	kernel_sample("one", 4);
	kernel_sample("two", 4);
	CHECK_EQ_INT(ior_ring_drain(&ring, cb, &g), 1);
	CHECK(meta.data_tail < meta.data_head);
	g.stop_at = -1;
	CHECK_EQ_INT(ior_ring_drain(&ring, cb, &g), 1);
	CHECK_EQ_STR(g.s[1], "two");
}

TEST(corrupt_header_skips_rest)
{
	struct got g = { .stop_at = -1 };
	struct perf_event_header bad = { PERF_RECORD_SAMPLE, 0, 4 };

	reset();
	kernel_sample("ok", 3);
	put_bytes(meta.data_head, &bad, sizeof bad);
	meta.data_head += 64;
	CHECK_EQ_INT(ior_ring_drain(&ring, cb, &g), 1);
	CHECK_EQ_INT(ring.bad, 1);
	CHECK_EQ_INT(meta.data_tail, meta.data_head);
	/* a sample whose raw size overruns its record */
	uint32_t raw = 200;
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 16 };
	put_bytes(meta.data_head, &h, sizeof h);
	put_bytes(meta.data_head + 8, &raw, 4);
	meta.data_head += 16;
	CHECK_EQ_INT(ior_ring_drain(&ring, cb, &g), 0);
	CHECK_EQ_INT(ring.bad, 2);
}

struct refs {
	const char *raw[8];
	uint64_t pos[8];
	int in_place[8], n;
};

static int ref_cb(void *ctx, const void *raw, size_t len, uint64_t pos, int in_place)
{
	struct refs *r = ctx;
	(void)len;
	r->raw[r->n] = raw;
	r->pos[r->n] = pos;
	r->in_place[r->n++] = in_place;
	return 0;
}

/* ior_ring_read hands samples where they lie and gives nothing back; a
 * wrapping one comes from scratch; release gives back up to what was
 * read, never past it. */
TEST(read_in_place_then_release)
{
	struct refs r = { .n = 0 };
	char big[41];

	reset();
	meta.data_head = meta.data_tail = 5 * SIZE - 80;
	kernel_sample("first", 6);  /* 24 bytes at 5 * SIZE - 80 */
	memset(big, 'w', 40);
	big[40] = 0;
	kernel_sample(big, 41);     /* 56 bytes, ends at the wrap exactly */
	kernel_sample(big, 41);     /* 56 bytes from the start of the area */
	CHECK_EQ_INT(ior_ring_read(&ring, ref_cb, &r), 3);
	CHECK_EQ_INT(meta.data_tail, 5 * SIZE - 80);
	CHECK(r.in_place[0] && r.raw[0] == data + SIZE - 80 + 12);
	CHECK_EQ_STR(r.raw[0], "first");
	CHECK(r.in_place[1] && r.in_place[2] && r.raw[2] == data + 12);
	CHECK_EQ_INT(r.pos[1], 5 * SIZE - 56);
	kernel_sample("next", 5); /* 24 bytes after them */
	r.n = 0;
	CHECK_EQ_INT(ior_ring_read(&ring, ref_cb, &r), 1);
	CHECK_EQ_INT(r.pos[0], 5 * SIZE + 56);
	ior_ring_release(&ring, 5 * SIZE - 56);
	CHECK_EQ_INT(meta.data_tail, 5 * SIZE - 56);
	ior_ring_release(&ring, 5 * SIZE - 80); /* never backwards */
	CHECK_EQ_INT(meta.data_tail, 5 * SIZE - 56);
	ior_ring_release(&ring, UINT64_MAX);
	CHECK_EQ_INT(meta.data_tail, meta.data_head);
	/* a sample across the end comes copied */
	meta.data_head = meta.data_tail = 6 * SIZE - 24;
	kernel_sample(big, 41);
	r.n = 0;
	CHECK_EQ_INT(ior_ring_read(&ring, ref_cb, &r), 1);
	CHECK(!r.in_place[0] && r.raw[0] == ring.scratch + 12);
	CHECK_EQ_STR(r.raw[0], big);
}

int main(void)
{
	RUN(reads_samples_with_padding);
	RUN(record_wrapping_the_end_is_copied_out);
	RUN(lost_records_counted);
	RUN(stop_keeps_record_for_next_drain);
	RUN(corrupt_header_skips_rest);
	RUN(read_in_place_then_release);
	return t_done();
}
