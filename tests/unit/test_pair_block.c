/* Block requests: charging to pairs (pair/block.c), rwbs, device names,
 * tracefs formats and the device table, on synthetic input. */
#include "bpf/event.h"
#include "pair/block.h"
#include "pair/devname.h"
#include "pair/pair.h"
#include "stats/devices.h"
#include "syscalls/syscalls.h"
#include "trace/tpformat.h"
#include "t.h"

#include <errno.h>
#include <stdlib.h>

struct got {
	struct ior_event_pair p[16];
	int n;
	struct ior_block_req r[16];
	char comm[16][16], path[16][64];
	int nr;
};

static void sink(void *ctx, const struct ior_event_pair *p)
{
	struct got *g = ctx;
	if (g->n < 16)
		g->p[g->n++] = *p;
}

static void block(void *ctx, const struct ior_block_req *r)
{
	struct got *g = ctx;
	if (g->nr >= 16)
		return;
	g->r[g->nr] = *r;
	snprintf(g->comm[g->nr], 16, "%s", r->comm);
	snprintf(g->path[g->nr], 64, "%s", r->path);
	g->nr++;
}

static void feed_enter(struct ior_pairer *p, uint64_t ts, uint32_t tid, const char *sys, int64_t fd)
{
	struct ior_rec_enter e = { { ts, 5, tid, IOR_REC_ENTER, (uint16_t)ior_syscall_by_name(sys)->nr, 0 }, fd, "prog", 0, 0 };
	ior_pair_feed(p, &e, sizeof e);
}

static void feed_exit(struct ior_pairer *p, uint64_t ts, uint32_t tid, const char *sys, int64_t ret)
{
	struct ior_rec_exit x = { { ts, 5, tid, IOR_REC_EXIT, (uint16_t)ior_syscall_by_name(sys)->nr, 0 }, ret, { 0, 0 }, 0, 0, 0, { 0 } };
	ior_pair_feed(p, &x, IOR_REC_EXIT_SHORT);
}

static void feed_block(struct ior_pairer *p, uint32_t tid, uint64_t start, uint64_t issue, uint64_t done,
		       uint32_t bytes, const char *rwbs)
{
	struct ior_rec_block b = { { done, tid ? 5 : 0, tid, IOR_REC_BLOCK, 0, sizeof b }, start, 0, issue, 2048,
				   7u << 20 | 3, bytes, 0, 0, { 0 }, { 0 }, "prog" };
	const char *at_done = rwbs[0] == 'F' && rwbs[1] != 'F' ? rwbs + 1 : rwbs;
	memcpy(b.rwbs_start, rwbs, strnlen(rwbs, 8));
	memcpy(b.rwbs, at_done, strnlen(at_done, 8));
	ior_pair_feed(p, &b, sizeof b);
}

TEST(requests_inside_a_pair_are_charged_once)
{
	struct got g = { 0 };
	struct ior_fdtab *fds = ior_fdtab_new(64, 64);
	struct ior_pair_cfg cfg = { fds, NULL, sink, &g, NULL, NULL, NULL, block };
	struct ior_pairer *p = ior_pair_new(&cfg);
	struct ior_pair_stats st;

	ior_fdtab_set(fds, 5, 3, "/dev/loop3", 0);
	feed_block(p, 7, 900, 950, 1100, 4096, "RS");      /* began before the pair: the thread's */
	feed_enter(p, 1000, 7, "pread64", 3);
	feed_block(p, 7, 1100, 1200, 1500, 4096, "RS");
	feed_block(p, 7, 1150, 1300, 1600, 4096, "RA");    /* overlaps: counted once */
	feed_block(p, 7, 1700, 1800, 1900, 4096, "R");
	feed_block(p, 99, 1000, 1010, 1950, 65536, "W");   /* a kworker's */
	feed_exit(p, 2000, 7, "pread64", 12288);
	feed_enter(p, 3000, 7, "pread64", 3);
	feed_exit(p, 3100, 7, "pread64", 0);
	CHECK_EQ_INT(g.n, 2);
	CHECK_EQ_INT(g.p[0].blk_requests, 3);
	CHECK_EQ_INT(g.p[0].blk_bytes, 12288);
	CHECK_EQ_INT(g.p[0].device_ns, 400 + 100); /* [1200,1600) and [1800,1900) */
	CHECK_EQ_INT(g.p[0].blk_dev, 7u << 20 | 3);
	CHECK(g.p[0].device_ns <= g.p[0].duration_ns);
	CHECK_EQ_INT(g.p[1].blk_requests, 0); /* the next pair starts fresh */
	CHECK_EQ_INT(g.p[1].device_ns, 0);
	CHECK_EQ_INT(g.nr, 5);
	CHECK_EQ_INT(g.r[0].sys, -1);
	CHECK_EQ_INT(g.r[1].sys, ior_syscall_index(ior_syscall_by_name("pread64")));
	CHECK_EQ_STR(g.path[1], "/dev/loop3");
	CHECK_EQ_INT(g.r[2].flags, IOR_BLK_AHEAD);
	CHECK_EQ_INT(g.r[4].sys, -1);
	CHECK_EQ_INT(g.r[4].op, IOR_BLK_WRITE);
	CHECK_EQ_INT(ior_blk_device_ns(&g.r[4]), 940);
	CHECK_EQ_INT(ior_blk_queue_ns(&g.r[4]), 10);
	ior_pair_get_stats(p, &st);
	CHECK_EQ_INT(st.blk_requests, 5);
	CHECK_EQ_INT(st.blk_in_pairs, 3);
	ior_pair_free(p);
	ior_fdtab_free(fds);
}

TEST(a_flush_sequence_counts_its_unissued_write)
{
	struct got g = { 0 };
	struct ior_fdtab *fds = ior_fdtab_new(64, 64);
	struct ior_pair_cfg cfg = { fds, NULL, sink, &g, NULL, NULL, NULL, block };
	struct ior_pairer *p = ior_pair_new(&cfg);

	feed_enter(p, 1000, 7, "fsync", 3);
	feed_block(p, 7, 1100, 1200, 1800, 0, "FF");   /* the flush, charged to its owner */
	feed_block(p, 7, 1100, 0, 1810, 0, "FWS");     /* never issued */
	feed_exit(p, 2000, 7, "fsync", 0);
	CHECK_EQ_INT(g.p[0].blk_requests, 2);
	CHECK_EQ_INT(g.p[0].device_ns, 600);
	CHECK_EQ_INT(g.r[0].op, IOR_BLK_FLUSH);
	CHECK_EQ_INT(g.r[1].op, IOR_BLK_WRITE);
	CHECK_EQ_INT(g.r[1].flags, IOR_BLK_PREFLUSH | IOR_BLK_SYNC);
	CHECK(!ior_blk_issued(&g.r[1]));
	ior_pair_free(p);
	ior_fdtab_free(fds);
}

TEST(many_intervals_merge_in_order)
{
	struct got g = { 0 };
	struct ior_fdtab *fds = ior_fdtab_new(64, 64);
	struct ior_pair_cfg cfg = { fds, NULL, sink, &g, NULL, NULL, NULL, NULL };
	struct ior_pairer *p = ior_pair_new(&cfg);

	feed_enter(p, 1000, 7, "read", 3);
	/* out of issue order: completions in time order, issues not */
	for (int i = 0; i < 10; i++)
		feed_block(p, 7, 1001, 2000 + 100 * (9 - i), 3000 + 10 * i, 4096, "R");
	for (int i = 0; i < 10; i++) /* disjoint, after */
		feed_block(p, 7, 1001, 5000 + 100 * i, 5050 + 100 * i, 4096, "R");
	feed_exit(p, 9000, 7, "read", 0);
	CHECK_EQ_INT(g.p[0].blk_requests, 20);
	CHECK_EQ_INT(g.p[0].device_ns, (3090 - 2000) + 10 * 50);
	ior_pair_free(p);
	ior_fdtab_free(fds);
}

static void feed_cache(struct ior_pairer *p, uint64_t ts, uint32_t tid, uint32_t pages)
{
	struct ior_rec_cache c = { { ts, 5, tid, IOR_REC_CACHE, 0, sizeof c }, 42, 0, 8u << 20, pages };
	ior_pair_feed(p, &c, sizeof c);
}

/* Pages added inside a read are its misses; outside a syscall they are
 * counted apart; the next pair starts from none. */
TEST(page_cache_fills_are_the_open_pairs)
{
	struct got g = { 0 };
	struct ior_fdtab *fds = ior_fdtab_new(64, 64);
	struct ior_pair_cfg cfg = { fds, NULL, sink, &g, NULL, NULL, NULL, NULL };
	struct ior_pairer *p = ior_pair_new(&cfg);
	struct ior_pair_stats st;

	feed_cache(p, 900, 7, 4);                /* a page fault's, say */
	feed_enter(p, 1000, 7, "read", 3);
	feed_cache(p, 1100, 7, 16);              /* a folio of 16 pages */
	feed_cache(p, 1200, 8, 1);               /* another thread's */
	feed_cache(p, 1300, 7, 1);
	feed_exit(p, 2000, 7, "read", 65536);
	feed_enter(p, 3000, 7, "read", 3);
	feed_exit(p, 3100, 7, "read", 65536);
	feed_enter(p, 4000, 7, "read", 3);
	feed_cache(p, 4100, 7, 4);
	feed_exit(p, 4200, 7, "read", 65536);
	CHECK_EQ_INT(g.n, 3);
	CHECK_EQ_INT(g.p[0].cache_pages, 17);
	CHECK_EQ_INT(ior_pair_cache_kind(&g.p[0], 1), IOR_CACHE_MISS);
	CHECK_EQ_INT(g.p[1].cache_pages, 0);
	CHECK_EQ_INT(ior_pair_cache_kind(&g.p[1], 1), IOR_CACHE_HIT);
	CHECK_EQ_INT(ior_pair_cache_kind(&g.p[2], 1), IOR_CACHE_PARTIAL);
	CHECK_EQ_INT(ior_pair_cache_kind(&g.p[2], 0), IOR_CACHE_NONE);
	ior_pair_get_stats(p, &st);
	CHECK_EQ_INT(st.cache_pages, 26);
	CHECK_EQ_INT(st.cache_outside, 5);
	ior_pair_free(p);
	ior_fdtab_free(fds);
}

TEST(rwbs_letters)
{
	uint8_t op, fl;

	ior_blk_parse_rwbs("FWFSM\0\0\0", &op, &fl);
	CHECK_EQ_INT(op, IOR_BLK_WRITE);
	CHECK_EQ_INT(fl, IOR_BLK_PREFLUSH | IOR_BLK_FUA | IOR_BLK_SYNC | IOR_BLK_META);
	ior_blk_parse_rwbs("FF\0\0\0\0\0\0", &op, &fl);
	CHECK_EQ_INT(op, IOR_BLK_FLUSH);
	ior_blk_parse_rwbs("DE\0\0\0\0\0\0", &op, &fl);
	CHECK_EQ_INT(op, IOR_BLK_DISCARD);
	ior_blk_parse_rwbs("N\0\0\0\0\0\0\0", &op, &fl);
	CHECK_EQ_INT(op, IOR_BLK_OTHER);
	ior_blk_parse_rwbs("RASMRASM", &op, &fl); /* no NUL within 8 */
	CHECK_EQ_INT(op, IOR_BLK_READ);
	CHECK_EQ_INT(fl, IOR_BLK_AHEAD | IOR_BLK_SYNC | IOR_BLK_META);
	CHECK_EQ_STR(ior_blk_op_name(IOR_BLK_FLUSH), "flush");
	CHECK_EQ_STR(ior_blk_op_name(200), "other");
}

static const char format[] =
	"name: block_rq_complete\nID: 1234\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:int error;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n"
	"\tfield:__data_loc char[] cmd;\toffset:44;\tsize:4;\tsigned:0;\n"
	"\tfield:int bad;\toffset:x;\tsize:4;\n";

TEST(tracefs_format_fields)
{
	uint32_t off = 0, size = 0;

	CHECK_EQ_INT(ior_tpformat_field(format, sizeof format - 1, "sector", &off, &size), 0);
	CHECK_EQ_INT(off, 16);
	CHECK_EQ_INT(size, 8);
	CHECK_EQ_INT(ior_tpformat_field(format, sizeof format - 1, "rwbs", &off, &size), 0);
	CHECK_EQ_INT(off, 34);
	CHECK_EQ_INT(size, 10);
	CHECK_EQ_INT(ior_tpformat_field(format, sizeof format - 1, "cmd", &off, &size), 0);
	CHECK_EQ_INT(off, 44);
	CHECK_EQ_INT(ior_tpformat_field(format, sizeof format - 1, "dev", &off, &size), 0);
	CHECK_EQ_INT(off, 8);
	CHECK_EQ_INT(ior_tpformat_field(format, sizeof format - 1, "ev", &off, &size), -ENOENT);
	CHECK_EQ_INT(ior_tpformat_field(format, sizeof format - 1, "nr_sector", &off, &size), -ENOENT);
	CHECK_EQ_INT(ior_tpformat_field(format, sizeof format - 1, "bad", &off, &size), -EINVAL);
	CHECK_EQ_INT(ior_tpformat_field(format, 40, "dev", &off, &size), -ENOENT); /* cut */
}

TEST(device_names)
{
	static const char uevent[] = "MAJOR=259\nMINOR=2\nDEVNAME=nvme0n1p2\nDEVTYPE=partition\n";
	static const char parts[] = "major minor  #blocks  name\n\n 253        0   41943040 vda\n"
				    " 253        1   41942016 vda1\n   7        3      65536 loop3\n"
				    "   8        0        100 \x1b[31mevil\n";
	char b[32];

	CHECK_EQ_INT(ior_devname_uevent(uevent, sizeof uevent - 1, b, sizeof b), 0);
	CHECK_EQ_STR(b, "nvme0n1p2");
	CHECK_EQ_INT(ior_devname_uevent("DEVNAME=\n", 9, b, sizeof b), -1);
	CHECK_EQ_INT(ior_devname_partitions(parts, sizeof parts - 1, 7, 3, b, sizeof b), 0);
	CHECK_EQ_STR(b, "loop3");
	CHECK_EQ_INT(ior_devname_partitions(parts, sizeof parts - 1, 253, 1, b, sizeof b), 0);
	CHECK_EQ_STR(b, "vda1");
	CHECK_EQ_INT(ior_devname_partitions(parts, sizeof parts - 1, 8, 0, b, sizeof b), -1); /* not a name */
	CHECK_EQ_INT(ior_devname_partitions(parts, sizeof parts - 1, 9, 9, b, sizeof b), -1);
	CHECK_EQ_STR(ior_devname_at("/nonexistent", "/nonexistent", 7u << 20 | 9, b, sizeof b), "7:9");
	CHECK_EQ_INT(ior_devname_uevent("DEVNAME=abcdefghijklmnop", 24, b, 8), 0); /* cut to fit */
	CHECK_EQ_STR(b, "abcdefg");
}

TEST(device_table_counts_like_diskstats)
{
	struct ior_devices d;
	struct ior_block_req r = { 1500, 1000, 0, 1100, 0, 7u << 20, 4096, 0, IOR_BLK_READ, 0, 5, 5, "a", 3, "/f" };

	ior_devices_init(&d);
	for (uint32_t i = 0; i < 12; i++) {
		r.pid = i + 1;
		ior_devices_add(&d, &r);
	}
	r.op = IOR_BLK_WRITE;
	r.issue_ns = 0; /* a flush sequence's empty write */
	r.bytes = 0;
	ior_devices_add(&d, &r);
	ior_devices_sort(&d);
	CHECK_EQ_INT(d.n, 2);
	CHECK_EQ_INT(d.rows[0].op, IOR_BLK_READ);
	CHECK_EQ_INT(d.rows[0].requests, 12);
	CHECK_EQ_INT(d.rows[0].bytes, 12 * 4096);
	CHECK_EQ_INT(d.rows[0].in_pairs, 12);
	CHECK_EQ_INT(d.rows[0].device.count, 12);
	CHECK_EQ_INT(ior_hist_percentile(&d.rows[0].device, 50), 400);
	CHECK_EQ_INT(d.rows[0].nprocs, IOR_DEV_TOP);
	CHECK_EQ_INT(d.rows[0].procs[IOR_DEV_TOP].requests, 12 - IOR_DEV_TOP);
	CHECK_EQ_STR(d.rows[0].procs[IOR_DEV_TOP].name, "(other)");
	CHECK_EQ_INT(d.rows[0].files[0].requests, 12);
	CHECK_EQ_INT(d.rows[1].requests, 1);
	CHECK_EQ_INT(d.rows[1].not_issued, 1);
	CHECK_EQ_INT(d.rows[1].device.count, 0);
	ior_devices_free(&d);
}

int main(void)
{
	RUN(requests_inside_a_pair_are_charged_once);
	RUN(a_flush_sequence_counts_its_unissued_write);
	RUN(many_intervals_merge_in_order);
	RUN(page_cache_fills_are_the_open_pairs);
	RUN(rwbs_letters);
	RUN(tracefs_format_fields);
	RUN(device_names);
	RUN(device_table_counts_like_diskstats);
	return t_done();
}
