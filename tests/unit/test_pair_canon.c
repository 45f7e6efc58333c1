/* Canonical fd names on a real directory of symlinks (no root needed). */
#include "pair/canon.h"
#include "t.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static char dir[64];

/* The identity of path as the kernel records it (dev_t major << 20 | minor). */
static void ident(const char *path, uint32_t *kdev, uint64_t *ino)
{
	struct stat st;
	CHECK_EQ_INT(stat(path, &st), 0);
	*kdev = (uint32_t)(major(st.st_dev) << 20 | minor(st.st_dev));
	*ino = st.st_ino;
}

static void at(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", dir, name);
}

TEST(symlinks_resolve_to_the_same_file)
{
	struct ior_canon *c = ior_canon_new(16, 1);
	char real[128], link[128], lnkdir[128], via[160], want[128];
	uint32_t kdev;
	uint64_t ino;

	at(real, sizeof real, "d/file");
	at(link, sizeof link, "d/link");
	at(lnkdir, sizeof lnkdir, "ld");
	snprintf(via, sizeof via, "%s/link", lnkdir);
	CHECK(realpath(dir, want) != NULL);
	strcat(want, "/d/file");
	CHECK_EQ_INT(symlink("file", link), 0);
	CHECK_EQ_INT(symlink("d", lnkdir), 0);
	ident(real, &kdev, &ino);
	CHECK_EQ_STR(ior_canon_get(c, via, kdev, ino, ""), want);
	CHECK_EQ_STR(ior_canon_get(c, via, kdev, ino, ""), want); /* cached */
	CHECK(ior_canon_get(c, via, kdev, ino + 1, "") == NULL);  /* another file now */
	/* once resolved, the name holds while it leads to the file */
	CHECK_EQ_INT(unlink(link), 0);
	ior_canon_generation(c, 1);
	CHECK_EQ_STR(ior_canon_get(c, via, kdev, ino, ""), want);
	ior_canon_free(c);
	/* the symlink removed before ior looked: the leaf name still finds it */
	c = ior_canon_new(16, 1);
	CHECK(ior_canon_get(c, via, kdev, ino, "") == NULL);
	CHECK(ior_canon_get(c, via, kdev, ino, "../d/file") == NULL); /* a name, not a path */
	CHECK(ior_canon_get(c, via, kdev, ino, "other") == NULL);
	CHECK_EQ_STR(ior_canon_get(c, via, kdev, ino, "file"), want);
	/* magic links would resolve in ior itself */
	CHECK(ior_canon_get(c, "/proc/self/exe", kdev, ino, "") == NULL);
	CHECK(ior_canon_get(c, "relative", kdev, ino, "") == NULL);
	CHECK_EQ_INT(unlink(lnkdir), 0);
	ior_canon_free(c);
}

/* A renamed directory: a cached name is checked again once the count of
 * name changes moved, or on every use when nobody counts. */
TEST(cached_names_are_verified)
{
	struct ior_canon *counted = ior_canon_new(16, 1), *uncounted = ior_canon_new(16, 0);
	struct ior_canon_stats s;
	char real[128], moved[128], movedfile[160], path[128];
	uint32_t kdev;
	uint64_t ino;

	at(real, sizeof real, "d/file");
	at(path, sizeof path, "d");
	at(moved, sizeof moved, "e");
	snprintf(movedfile, sizeof movedfile, "%s/file", moved);
	ident(real, &kdev, &ino);
	CHECK(ior_canon_get(counted, real, kdev, ino, "") != NULL);
	CHECK(ior_canon_get(uncounted, real, kdev, ino, "") != NULL);
	CHECK_EQ_INT(rename(path, moved), 0);
	CHECK(ior_canon_get(uncounted, real, kdev, ino, "") == NULL);
	ior_canon_generation(counted, 7);
	CHECK(ior_canon_get(counted, real, kdev, ino, "") == NULL);
	ior_canon_get_stats(counted, &s);
	CHECK_EQ_INT(s.resolved, 1);
	CHECK_EQ_INT(rename(moved, path), 0);
	ior_canon_free(counted);
	ior_canon_free(uncounted);
}

/* Full means cleared, never wrong. */
TEST(bounded)
{
	struct ior_canon *c = ior_canon_new(2, 1);
	struct ior_canon_stats s;
	char real[128];
	uint32_t kdev;
	uint64_t ino;

	at(real, sizeof real, "d/file");
	ident(real, &kdev, &ino);
	for (int i = 0; i < 10; i++) {
		char p[160]; /* ten spellings of one file */
		snprintf(p, sizeof p, "%s/d/%.*s../d/file", dir, i, "//////////");
		CHECK(ior_canon_get(c, p, kdev, ino, "") != NULL);
	}
	ior_canon_get_stats(c, &s);
	CHECK(s.clears >= 3);
	ior_canon_free(c);
}

int main(void)
{
	char d[96], f[128];

	snprintf(dir, sizeof dir, "/tmp/ior-canon.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(d, sizeof d, "%s/d", dir);
	snprintf(f, sizeof f, "%s/d/file", dir);
	if (mkdir(d, 0700) || close(open(f, O_CREAT | O_WRONLY, 0600)))
		return 1;
	RUN(symlinks_resolve_to_the_same_file);
	RUN(cached_names_are_verified);
	RUN(bounded);
	unlink(f);
	rmdir(d);
	rmdir(dir);
	return t_done();
}
