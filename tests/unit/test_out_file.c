/* Private output files (out/out.h) in a fresh directory under /tmp: the
 * mode whatever the umask, links planted at the temporary or the final
 * name never written through, no-replace, the sudo user's ids. */
#include "out/out.h"
#include "t.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[64];

static const char *at(const char *name)
{
	static char p[4][128];
	static int i;
	i = (i + 1) % 4;
	snprintf(p[i], sizeof p[i], "%s/%s", dir, name);
	return p[i];
}

static int file_is(const char *path, const char *want)
{
	char buf[256] = "";
	int fd = open(path, O_RDONLY | O_NOFOLLOW);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
	if (fd >= 0)
		close(fd);
	return n >= 0 && !strcmp(buf, want);
}

static unsigned mode_of(const char *path)
{
	struct stat st;
	return lstat(path, &st) ? 0 : (unsigned)(st.st_mode & 07777);
}

TEST(mode_0600_whatever_the_umask)
{
	const mode_t masks[] = { 0, 022, 077, 0277 };
	char err[256];
	for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
		mode_t old = umask(masks[i]);
		int r = ior_out_write_file(at("m"), IOR_OUT_REPLACE, "abc", 3, err, sizeof err);
		umask(old);
		if (r || mode_of(at("m")) != 0600 || !file_is(at("m"), "abc"))
			T_FAIL("umask %03o: r=%d mode %03o err '%s'", masks[i], r, mode_of(at("m")), err);
	}
	CHECK_EQ_INT(access(at("m.tmp"), F_OK), -1);
}

TEST(link_at_tmp_not_followed)
{
	char err[256];
	CHECK_EQ_INT(ior_out_write_file(at("victim"), IOR_OUT_REPLACE, "victim", 6, err, sizeof err), 0);
	CHECK_EQ_INT(symlink(at("victim"), at("l.tmp")), 0);
	CHECK_EQ_INT(ior_out_write_file(at("l"), IOR_OUT_REPLACE, "mine", 4, err, sizeof err), 0);
	CHECK(file_is(at("victim"), "victim"));
	CHECK(file_is(at("l"), "mine"));
	CHECK_EQ_INT(mode_of(at("l")), 0600);
	CHECK_EQ_INT(access(at("l.tmp"), F_OK), -1);
}

TEST(link_at_path_replaced_not_written_through)
{
	char err[256];
	CHECK_EQ_INT(symlink(at("victim"), at("p")), 0);
	CHECK_EQ_INT(ior_out_write_file(at("p"), IOR_OUT_REPLACE, "new", 3, err, sizeof err), 0);
	struct stat st;
	CHECK(!lstat(at("p"), &st) && S_ISREG(st.st_mode));
	CHECK(file_is(at("victim"), "victim"));
	CHECK(file_is(at("p"), "new"));
}

TEST(no_replace_keeps_existing)
{
	char err[256] = "";
	CHECK_EQ_INT(ior_out_write_file(at("victim"), IOR_OUT_NO_REPLACE, "x", 1, err, sizeof err), -EEXIST);
	CHECK(strstr(err, "victim") != NULL);
	CHECK(file_is(at("victim"), "victim"));
	CHECK_EQ_INT(access(at("victim.tmp"), F_OK), -1);
	CHECK_EQ_INT(ior_out_write_file(at("fresh"), IOR_OUT_NO_REPLACE, "f", 1, err, sizeof err), 0);
	CHECK(file_is(at("fresh"), "f"));
}

TEST(published_early_keeps_writing)
{
	struct ior_out o;
	char err[256];
	CHECK_EQ_INT(ior_out_create(&o, at("early"), IOR_OUT_REPLACE, err, sizeof err), 0);
	CHECK_EQ_INT(access(at("early.tmp"), F_OK), 0);
	CHECK_EQ_INT(access(at("early"), F_OK), -1);
	CHECK_EQ_INT(write(o.fd, "ab", 2), 2);
	CHECK_EQ_INT(ior_out_publish(&o, err, sizeof err), 0);
	CHECK_EQ_INT(write(o.fd, "cd", 2), 2);
	CHECK_EQ_INT(ior_out_close(&o, err, sizeof err), 0);
	CHECK(file_is(at("early"), "abcd"));
	CHECK_EQ_INT(access(at("early.tmp"), F_OK), -1);
}

TEST(abort_removes_tmp)
{
	struct ior_out o;
	char err[256];
	CHECK_EQ_INT(ior_out_create(&o, at("ab"), IOR_OUT_REPLACE, err, sizeof err), 0);
	ior_out_abort(&o);
	ior_out_abort(&o);
	CHECK_EQ_INT(access(at("ab.tmp"), F_OK), -1);
	CHECK_EQ_INT(access(at("ab"), F_OK), -1);
}

TEST(fifo_not_replaced)
{
	char err[256] = "";
	struct stat st;
	CHECK_EQ_INT(mkfifo(at("fifo"), 0600), 0);
	CHECK_EQ_INT(ior_out_write_file(at("fifo"), IOR_OUT_REPLACE, "x", 1, err, sizeof err), -EEXIST);
	CHECK(strstr(err, "not a regular file") != NULL);
	CHECK(!lstat(at("fifo"), &st) && S_ISFIFO(st.st_mode));
	CHECK_EQ_INT(access(at("fifo.tmp"), F_OK), -1);
}

TEST(create_fails_in_missing_dir)
{
	struct ior_out o;
	char err[256] = "";
	CHECK_EQ_INT(ior_out_create(&o, "/nonexistent/dir/x", IOR_OUT_REPLACE, err, sizeof err), -ENOENT);
	CHECK(strstr(err, "/nonexistent/dir/x.tmp: cannot create: ") != NULL);
}

/* As root the ids come from SUDO_UID/SUDO_GID; as anyone else they are
 * left alone (ior cannot give a file away then). */
TEST(owner_from_sudo)
{
	uid_t u;
	gid_t g;
	char err[256] = "";
	setenv("SUDO_UID", "65534", 1);
	setenv("SUDO_GID", "65533", 1);
	CHECK_EQ_INT(ior_out_owner(&u, &g, err, sizeof err), 0);
	CHECK_EQ_INT(u, geteuid() == 0 ? 65534 : (uid_t)-1);
	CHECK_EQ_INT(g, geteuid() == 0 ? 65533 : (gid_t)-1);
	const char *bad[] = { "abc", "-1", "4294967295", "12x", " 1" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0] && geteuid() == 0; i++) {
		setenv("SUDO_UID", bad[i], 1);
		if (ior_out_owner(&u, &g, err, sizeof err) != -EINVAL || !strstr(err, bad[i]))
			T_FAIL("SUDO_UID '%s' accepted (err '%s')", bad[i], err);
	}
	unsetenv("SUDO_UID");
	unsetenv("SUDO_GID");
	CHECK_EQ_INT(ior_out_owner(&u, &g, err, sizeof err), 0);
	CHECK_EQ_INT(u, (uid_t)-1);
	CHECK_EQ_INT(g, (gid_t)-1);
}

static int swept_name(const char *name, size_t len)
{
	return len >= 4 && !memcmp(name, "dump", 4);
}

static void old_file(const char *path, const char *text)
{
	struct timespec t[2] = { { time(NULL) - 10, 0 }, { time(NULL) - 10, 0 } };
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	CHECK_EQ_INT(utimensat(AT_FDCWD, path, t, 0), 0);
}

/* The .tmp a killed writer left goes; one a live writer holds, one just
 * written, one of a name not asked for, a link and a directory stay. */
TEST(sweep_removes_only_dead_tmp)
{
	struct ior_out live;
	char err[256];

	old_file(at("dump-1.tmp"), "dead");
	old_file(at("dump-2.tmp"), "dead");
	old_file(at("other.tmp"), "not mine");
	old_file(at("dump-3"), "no suffix");
	CHECK_EQ_INT(symlink(at("other.tmp"), at("dump-link.tmp")), 0);
	CHECK_EQ_INT(mkdir(at("dump-dir.tmp"), 0700), 0);
	CHECK_EQ_INT(ior_out_create(&live, at("dump-live"), IOR_OUT_NO_REPLACE, err, sizeof err), 0);
	struct timespec t[2] = { { time(NULL) - 10, 0 }, { time(NULL) - 10, 0 } };
	CHECK_EQ_INT(utimensat(AT_FDCWD, at("dump-live.tmp"), t, 0), 0); /* old, but locked */
	old_file(at("dump-new.tmp"), "young");
	CHECK_EQ_INT(utimensat(AT_FDCWD, at("dump-new.tmp"), NULL, 0), 0); /* now: maybe not locked yet */
	CHECK_EQ_INT(ior_out_sweep(dir, swept_name, err, sizeof err), 2);
	CHECK(access(at("dump-1.tmp"), F_OK) && access(at("dump-2.tmp"), F_OK));
	CHECK(!access(at("other.tmp"), F_OK) && !access(at("dump-3"), F_OK) && !access(at("dump-live.tmp"), F_OK));
	CHECK(!access(at("dump-new.tmp"), F_OK) && !access(at("dump-dir.tmp"), F_OK));
	struct stat st;
	CHECK(!lstat(at("dump-link.tmp"), &st) && S_ISLNK(st.st_mode));
	ior_out_abort(&live);
	CHECK(access(at("dump-live.tmp"), F_OK)); /* the writer's own abort */
	CHECK_EQ_INT(ior_out_sweep(at("missing"), swept_name, err, sizeof err), -ENOENT);
	CHECK(strstr(err, "missing"));
	unlink(at("other.tmp"));
	unlink(at("dump-3"));
	unlink(at("dump-new.tmp"));
	unlink(at("dump-link.tmp"));
	rmdir(at("dump-dir.tmp"));
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/ior-test-out-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	unsetenv("SUDO_UID");
	unsetenv("SUDO_GID");
	RUN(mode_0600_whatever_the_umask);
	RUN(link_at_tmp_not_followed);
	RUN(link_at_path_replaced_not_written_through);
	RUN(no_replace_keeps_existing);
	RUN(published_early_keeps_writing);
	RUN(abort_removes_tmp);
	RUN(fifo_not_replaced);
	RUN(create_fails_in_missing_dir);
	RUN(owner_from_sudo);
	RUN(sweep_removes_only_dead_tmp);
	int rc = t_done();
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd))
		rc = 1;
	return rc;
}
