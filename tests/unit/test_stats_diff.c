/* The tables of what changed: keys matched across two runs, BASE scaled,
 * commands merged over pids, sorted by the absolute change in time;
 * names escaped in text and JSON. */
#include "t.h"
#include "stats/diff.h"
#include "stats/devices.h"
#include "syscalls/syscalls.h"

#include <stdlib.h>

static void add(struct ior_stats *s, const char *sys, const char *comm, uint32_t pid, const char *path,
		uint64_t dur, int64_t ret)
{
	struct ior_event_pair p = { .enter_ns = 1000000000, .duration_ns = dur, .ret = ret, .flags = IOR_FLAGS_UNKNOWN,
				    .pid = pid, .tid = pid, .fd = 3, .comm = comm, .path = path, .path2 = "" };
	p.sys = (uint16_t)ior_sys_find(sys);
	p.bytes = ret > 0 ? (uint64_t)ret : 0;
	CHECK_EQ_INT(ior_stats_add(s, &p), 0);
}

static struct ior_stats *base_run(void)
{
	struct ior_stats *s;
	CHECK_EQ_INT(ior_stats_new(&s, NULL), 0);
	for (int i = 0; i < 10; i++)
		add(s, "read", "db", 10, "/data/x", 1000, 100);
	add(s, "openat", "db", 11, "/data/gone", 50000, -2);
	return s;
}

static struct ior_stats *new_run(void)
{
	struct ior_stats *s;
	CHECK_EQ_INT(ior_stats_new(&s, NULL), 0);
	for (int i = 0; i < 20; i++)
		add(s, "read", "db", 20 + (uint32_t)i % 2, "/data/x", 1000, 100); /* two pids, one command */
	add(s, "write", "<b>\x1b", 30, "/data/\"new\"\n", 90000, 5);
	return s;
}

TEST(matched_scaled_sorted)
{
	struct ior_stats *b = base_run(), *n = new_run();
	struct ior_stats_change *c;
	unsigned k;

	CHECK_EQ_INT(ior_stats_diff(b, n, IOR_STATS_SYSCALLS, 2.0, &c, &k), 0);
	CHECK_EQ_INT(k, 3);
	/* write +90us, openat -100us (50us x 2), read 20us -> 20us */
	CHECK_EQ_STR(c[0].name, "openat");
	CHECK_EQ_INT(c[0].base.time_ns, 100000);
	CHECK_EQ_INT(c[0].base.pairs, 2);
	CHECK_EQ_INT(c[0].base.errors, 2);
	CHECK_EQ_INT(c[0].new_.pairs, 0);
	CHECK_EQ_STR(c[1].name, "write");
	CHECK_EQ_INT(c[1].new_.time_ns, 90000);
	CHECK_EQ_STR(c[2].name, "read");
	CHECK_EQ_INT(c[2].base.pairs, 20);
	CHECK_EQ_INT(c[2].new_.pairs, 20);
	CHECK_EQ_INT(c[2].base.bytes_read, 2000);
	CHECK(c[2].base_hist && c[2].new_hist && c[2].new_p50 > 0);
	free(c);
	CHECK_EQ_INT(ior_stats_diff(b, n, IOR_STATS_PROCESSES, 1.0, &c, &k), 0);
	CHECK_EQ_INT(k, 2); /* db (pids 10, 11 / 20, 21) and the hostile one */
	CHECK_EQ_STR(c[0].name, "<b>\x1b");
	CHECK_EQ_STR(c[1].name, "db");
	CHECK_EQ_INT(c[1].base.pairs, 11);
	CHECK_EQ_INT(c[1].new_.pairs, 20);
	free(c);
	ior_stats_free(b);
	ior_stats_free(n);
}

static char *report(bool json)
{
	struct ior_stats *b = base_run(), *n = new_run();
	struct ior_stats_diff_cfg cfg = { .base_name = "a<\x01.ior.zst", .new_name = "b\".ior.zst", .normalize = "total",
					  .factor = 1.0, .json = json };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK_EQ_INT(ior_stats_diff_report(b, n, f, &cfg), 0);
	fclose(f);
	ior_stats_free(b);
	ior_stats_free(n);
	return buf;
}

/* The JSON report of b against n, then the text one, in one buffer. */
static char *report_json_and_text(struct ior_stats *b, struct ior_stats *n)
{
	struct ior_stats_diff_cfg cfg = { .base_name = "a", .new_name = "b", .normalize = "total", .factor = 1, .json = true };
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	CHECK_EQ_INT(ior_stats_diff_report(b, n, f, &cfg), 0);
	cfg.json = false;
	CHECK_EQ_INT(ior_stats_diff_report(b, n, f, &cfg), 0);
	fclose(f);
	return buf;
}

TEST(text_escapes)
{
	char *t = report(false);

	CHECK(t && !strchr(t, '\x1b') && !strchr(t, '\x01'));
	CHECK(t && strstr(t, "BASE a<\\x01.ior.zst -> NEW b\".ior.zst"));
	CHECK(t && strstr(t, "<b>\\x1b") && strstr(t, "/data/\"new\"\\x0a"));
	CHECK(t && strstr(t, "syscalls, the 3 of 3 that changed most"));
	free(t);
}

TEST(json_escapes)
{
	char *j = report(true);

	CHECK(j && !strchr(j, '\x1b') && !strchr(j, '\x01'));
	CHECK(j && strstr(j, "{\"base\":\"a<\\\\x01.ior.zst\",\"new\":\"b\\\".ior.zst\",\"normalize\":\"total\""));
	CHECK(j && strstr(j, "\"name\":\"/data/\\\"new\\\"\\\\x0a\""));
	CHECK(j && strstr(j, "{\"name\":\"openat\",\"pairs\":[1,0],\"time_ns\":[50000,0],\"bytes\":[0,0],\"errors\":[1,0]}"));
	free(j);
}

/* n requests of op on dev, each bytes long, device time dev_ns */
static void blocks(struct ior_stats *s, uint32_t dev, uint8_t op, int n, uint32_t bytes, uint64_t dev_ns)
{
	for (int i = 0; i < n; i++) {
		struct ior_block_req r = { .done_ns = 5000 + dev_ns, .start_ns = 4000, .issue_ns = 5000, .dev = dev,
					   .bytes = bytes, .op = op, .pid = 9, .tid = 9, .comm = "w", .sys = -1, .path = "" };
		ior_stats_add_block(s, &r);
	}
}

TEST(devices_by_name_scaled)
{
	struct ior_stats *b = base_run(), *n = new_run();
	struct ior_stats_dev_change *c;
	unsigned k;

	/* the same disk under two numbers (a renumbered loop device): one row by name */
	CHECK_EQ_INT(ior_devices_set_name(ior_stats_devices(b), 7u << 20 | 3, "loop3"), 0);
	CHECK_EQ_INT(ior_devices_set_name(ior_stats_devices(n), 7u << 20 | 5, "loop3"), 0);
	CHECK_EQ_INT(ior_devices_set_name(ior_stats_devices(n), 254u << 20, "v\x1b" "da"), 0);
	blocks(b, 7u << 20 | 3, IOR_BLK_READ, 4, 4096, 1000);
	blocks(n, 7u << 20 | 5, IOR_BLK_READ, 10, 4096, 3000);
	blocks(n, 7u << 20 | 5, IOR_BLK_WRITE, 1, 512, 8000);
	blocks(n, 254u << 20, IOR_BLK_FLUSH, 2, 0, 100);
	CHECK_EQ_INT(ior_stats_diff_devices(b, n, 2.0, &c, &k), 0);
	CHECK_EQ_INT(k, 3);
	CHECK_EQ_STR(c[0].device, "loop3");
	CHECK_EQ_INT(c[0].op, IOR_BLK_READ);
	CHECK_EQ_INT(c[0].base_requests, 8); /* 4 x 2 */
	CHECK_EQ_INT(c[0].base_bytes, 32768);
	CHECK_EQ_INT(c[0].base_device_ns, 8000);
	CHECK_EQ_INT(c[0].new_requests, 10);
	CHECK_EQ_INT(c[0].new_bytes, 40960);
	CHECK_EQ_INT(c[0].new_device_ns, 30000);
	CHECK(c[0].base_lat && c[0].new_lat);
	CHECK_EQ_INT(c[0].base_p50, 1000); /* as they are, not scaled */
	CHECK_EQ_INT(c[0].new_p99, 3000);
	CHECK_EQ_STR(c[1].device, "loop3");
	CHECK_EQ_INT(c[1].op, IOR_BLK_WRITE);
	CHECK_EQ_INT(c[1].base_requests, 0);
	CHECK(!c[1].base_lat && c[1].new_lat);
	CHECK_EQ_STR(c[2].device, "v\x1b" "da");
	CHECK_EQ_INT(c[2].new_requests, 2);
	free(c);

	char *buf = report_json_and_text(b, n);
	CHECK(buf && strstr(buf, ",\"devices\":[{\"device\":\"loop3\",\"op\":\"read\",\"requests\":[4,10],"
				 "\"bytes\":[16384,40960],\"device_ns\":[4000,30000],\"device_p50_ns\":[1000,3000],"
				 "\"device_p99_ns\":[1000,3000]}"));
	CHECK(buf && strstr(buf, "{\"device\":\"loop3\",\"op\":\"write\",\"requests\":[0,1],\"bytes\":[0,512],"
				 "\"device_ns\":[0,8000]}"));
	CHECK(buf && strstr(buf, "\"device\":\"v\\\\x1bda\""));
	CHECK(buf && !strchr(buf, '\x1b'));
	CHECK(buf && strstr(buf, "\ndevices (block requests; BASE's requests, bytes and device time x 1)\n"));
	CHECK(buf && strstr(buf, "  loop3        read              4 -> 10            16.0KiB -> 40.0KiB "));
	free(buf);
	ior_stats_free(b);
	ior_stats_free(n);
}

TEST(no_devices_no_table)
{
	struct ior_stats *b = base_run(), *n = new_run();
	char *buf = report_json_and_text(b, n);
	CHECK(buf && !strstr(buf, "\ndevices") && strstr(buf, ",\"devices\":[]}"));
	free(buf);
	ior_stats_free(b);
	ior_stats_free(n);
}

int main(void)
{
	RUN(devices_by_name_scaled);
	RUN(no_devices_no_table);
	RUN(matched_scaled_sorted);
	RUN(text_escapes);
	RUN(json_escapes);
	return t_done();
}
