/* A directory of recordings (a -rotate series) read as one: files in the
 * order of their start times, each file's strings and threads its own,
 * totals summed, a file without its trailer said. */
#include "rec/rec.h"
#include "syscalls/syscalls.h"
#include "t.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/ior-test-series.XXXXXX";

/* n pairs of one file, path names the file; cut: no trailer. */
static void write_file(const char *name, uint64_t start_s, unsigned n, const char *path, int cut)
{
	char full[300], err[256];
	struct ior_rec_info info = { .host = "h", .kernel = "k", .cmdline = "c",
				     .start_realtime_ns = start_s * 1000000000ull,
				     .start_monotonic_ns = start_s * 1000000000ull };
	struct ior_rec_writer *w;

	snprintf(full, sizeof full, "%s/%s", tmpdir, name);
	if (ior_rec_writer_open(&w, full, &info, err, sizeof err)) {
		T_FAIL("open %s: %s", full, err);
		return;
	}
	for (unsigned i = 0; i < n; i++) {
		struct ior_event_pair p = { .enter_ns = start_s * 1000000000ull + i, .duration_ns = 5,
					    .ret = 1, .bytes = 1, .sys = (uint16_t)ior_syscall_index(ior_syscall_by_name("read")),
					    .tid = 9 + (uint32_t)start_s, .pid = 9, .fd = 3, .comm = "c", .path = path,
					    .path2 = "", .flags = IOR_FLAGS_UNKNOWN };
		ior_rec_write(w, &p);
	}
	ior_rec_tick(w, UINT64_MAX / 2); /* a frame now */
	uint64_t bytes = ior_rec_writer_bytes(w);
	ior_rec_writer_close(w, NULL, err, sizeof err);
	if (cut && truncate(full, (off_t)bytes))
		T_FAIL("truncate %s", full);
}

TEST(reads_a_directory_in_time_order)
{
	/* names sort the other way round from their start times */
	write_file("a.ior.zst", 300, 30, "/third", 0);
	write_file("b.ior.zst", 200, 20, "/second", 0);
	write_file("c.ior.zst", 100, 10, "/first", 0);
	write_file("notes.txt", 50, 1, "/not", 0); /* not a recording by name */

	struct ior_rec_reader *r;
	struct ior_event_pair p;
	struct ior_rec_ids ids;
	char err[256], order[64] = "", last[32] = "";
	unsigned n = 0;
	int rc;
	CHECK_EQ_INT(ior_rec_reader_open(&r, tmpdir, err, sizeof err), 0);
	while ((rc = ior_rec_read_ids(r, &p, &ids)) == 1) {
		n++;
		if (strcmp(p.path, last)) { /* the files' paths, as they change */
			snprintf(last, sizeof last, "%s", p.path);
			snprintf(order + strlen(order), sizeof order - strlen(order), "%s", p.path);
		}
		CHECK_EQ_STR(ior_rec_reader_string(r, ids.path), p.path);
	}
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(n, 60);
	CHECK_EQ_STR(order, "/first/second/third");
	CHECK(!ior_rec_reader_truncated(r, NULL, NULL));
	CHECK(ior_rec_reader_totals(r) != NULL);
	if (ior_rec_reader_totals(r))
		CHECK_EQ_INT(ior_rec_reader_totals(r)->pairs, 60);
	CHECK_EQ_INT(ior_rec_reader_info(r)->start_realtime_ns, 100000000000ull); /* the first's */
	CHECK_EQ_STR(ior_rec_reader_info(r)->host, "h");
	ior_rec_reader_close(r);

	/* the middle one cut (a crash): the others still read, and it is said */
	write_file("b.ior.zst", 200, 20, "/second", 1);
	CHECK_EQ_INT(ior_rec_reader_open(&r, tmpdir, err, sizeof err), 0);
	n = 0;
	while ((rc = ior_rec_read(r, &p)) == 1)
		n++;
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(n, 60);
	CHECK(ior_rec_reader_truncated(r, NULL, NULL));
	CHECK(ior_rec_reader_totals(r) == NULL);
	ior_rec_reader_close(r);

	/* a file that is no recording fails the read, naming it */
	FILE *f = fopen("/tmp/ior-test-series-bad", "w");
	fclose(f);
	char bad[300];
	snprintf(bad, sizeof bad, "%s/d.ior.zst", tmpdir);
	f = fopen(bad, "w");
	fputs("not zstd at all", f);
	fclose(f);
	rc = ior_rec_reader_open(&r, tmpdir, err, sizeof err);
	if (!rc) { /* it sorts first (no start time): the open fails, or the read */
		while ((rc = ior_rec_read(r, &p)) == 1)
			;
		snprintf(err, sizeof err, "%s", ior_rec_reader_error(r));
		ior_rec_reader_close(r);
	}
	CHECK(rc < 0);
	CHECK(strstr(err, "d.ior.zst") || strstr(err, "not an ior recording"));
	unlink(bad);
	unlink("/tmp/ior-test-series-bad");
}

TEST(an_empty_directory_is_an_error)
{
	char empty[300], err[256];
	struct ior_rec_reader *r;

	snprintf(empty, sizeof empty, "%s/empty", tmpdir);
	mkdir(empty, 0700);
	CHECK(ior_rec_reader_open(&r, empty, err, sizeof err) < 0);
	CHECK(strstr(err, "no *.ior.zst in the directory"));
	rmdir(empty);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(reads_a_directory_in_time_order);
	RUN(an_empty_directory_is_an_error);
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd))
		return 1;
	return t_done();
}
