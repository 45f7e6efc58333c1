/* ior -- CMD's user: /etc/passwd and /etc/group parsing, SUDO_UID and -u. */
#include <errno.h>
#include <string.h>

#include "t.h"
#include "run/passwd.h"

static const char passwd[] =
	"root:x:0:0:root:/root:/bin/bash\n"
	"+nisuser::::::\n"
	"broken:x:12\n"
	"bad:x:notanumber:1:gecos:/home/bad:/bin/sh\n"
	"huge:x:4294967295:1:x:/:/bin/sh\n"
	"alice:x:1000:1000:Alice,,,:/home/alice:/bin/bash\n"
	"\n"
	"nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
	"alice:x:1001:1001:second alice:/home/other:/bin/sh\n"
	"noeol:x:2000:2000::/home/noeol:/bin/sh";

static const char group[] =
	"root:x:0:\n"
	"adm:x:4:syslog,alice\n"
	"cdrom:x:24:alice\n"
	"sudo:x:27:bob,alice,carol\n"
	"alices:x:28:alicesmith\n"
	"dup:x:24:alice\n"
	"bad:x:zz:alice\n"
	"-nis:x:99:alice\n"
	"alice:x:1000:\n"
	"nogroup:x:65534:\n";

#define P(s) s, sizeof s - 1

TEST(passwd_by_name_and_uid)
{
	struct ior_passwd pw;

	CHECK_EQ_INT(ior_passwd_find(P(passwd), "alice", 0, &pw), 0);
	CHECK_EQ_INT(pw.uid, 1000); /* the first of two */
	CHECK_EQ_INT(pw.gid, 1000);
	CHECK_EQ_STR(pw.home, "/home/alice");
	CHECK_EQ_INT(ior_passwd_find(P(passwd), NULL, 65534, &pw), 0);
	CHECK_EQ_STR(pw.name, "nobody");
	CHECK_EQ_INT(ior_passwd_find(P(passwd), "noeol", 0, &pw), 0);
	CHECK_EQ_STR(pw.home, "/home/noeol");
	CHECK_EQ_INT(ior_passwd_find(P(passwd), "bad", 0, &pw), -ENOENT);
	CHECK_EQ_INT(ior_passwd_find(P(passwd), "broken", 0, &pw), -ENOENT);
	CHECK_EQ_INT(ior_passwd_find(P(passwd), "huge", 0, &pw), -ENOENT);
	CHECK_EQ_INT(ior_passwd_find(P(passwd), "+nisuser", 0, &pw), -ENOENT);
	CHECK_EQ_INT(ior_passwd_find(P(passwd), "alic", 0, &pw), -ENOENT);
	CHECK_EQ_INT(ior_passwd_find(P(passwd), NULL, 4242, &pw), -ENOENT);
	CHECK_EQ_INT(ior_passwd_find("", 0, "root", 0, &pw), -ENOENT);
}

TEST(groups_of_a_user)
{
	uint32_t g[8];
	unsigned n = ior_group_list(P(group), "alice", 1000, g, 8);

	CHECK_EQ_INT(n, 4); /* the primary first, each once, no NIS or bad lines */
	CHECK_EQ_INT(g[0], 1000);
	CHECK_EQ_INT(g[1], 4);
	CHECK_EQ_INT(g[2], 24);
	CHECK_EQ_INT(g[3], 27);
	CHECK_EQ_INT(ior_group_list(P(group), "alice", 1000, g, 2), 2);
	CHECK_EQ_INT(ior_group_list(P(group), "", 7, g, 8), 1);
	CHECK_EQ_INT(g[0], 7);
}

TEST(cred_from_sudo)
{
	struct ior_cred c;
	char err[256];

	CHECK_EQ_INT(ior_cred_resolve(&c, "", "1000", "1000", P(passwd), P(group), err, sizeof err), 0);
	CHECK(c.change);
	CHECK_EQ_INT(c.uid, 1000);
	CHECK_EQ_INT(c.gid, 1000);
	CHECK_EQ_INT(c.ngroups, 4);
	CHECK(c.has_pw);
	CHECK_EQ_STR(c.pw.home, "/home/alice");
	/* no SUDO_GID: the entry's group */
	CHECK_EQ_INT(ior_cred_resolve(&c, NULL, "65534", NULL, P(passwd), P(group), err, sizeof err), 0);
	CHECK_EQ_INT(c.gid, 65534);
	CHECK_EQ_INT(c.ngroups, 1);
	/* a uid without an entry: its own number as group, no groups file */
	CHECK_EQ_INT(ior_cred_resolve(&c, NULL, "4242", NULL, P(passwd), P(group), err, sizeof err), 0);
	CHECK_EQ_INT(c.gid, 4242);
	CHECK(!c.has_pw);
	/* sudo run by root, or no sudo at all: nothing changes */
	CHECK_EQ_INT(ior_cred_resolve(&c, NULL, "0", "0", P(passwd), P(group), err, sizeof err), 0);
	CHECK(!c.change);
	CHECK_EQ_INT(ior_cred_resolve(&c, NULL, NULL, NULL, P(passwd), P(group), err, sizeof err), 0);
	CHECK(!c.change);
	CHECK_EQ_INT(ior_cred_resolve(&c, NULL, "12x", NULL, P(passwd), P(group), err, sizeof err), -EINVAL);
	CHECK(strstr(err, "SUDO_UID \"12x\": not a user id") != NULL);
	CHECK_EQ_INT(ior_cred_resolve(&c, NULL, "1000", "-1", P(passwd), P(group), err, sizeof err), -EINVAL);
	CHECK_EQ_INT(ior_cred_resolve(&c, NULL, "4294967295", NULL, P(passwd), P(group), err, sizeof err),
		     -EINVAL);
}

TEST(cred_from_u)
{
	struct ior_cred c;
	char err[256];

	/* -u wins over SUDO_UID */
	CHECK_EQ_INT(ior_cred_resolve(&c, "nobody", "1000", "1000", P(passwd), P(group), err, sizeof err), 0);
	CHECK_EQ_INT(c.uid, 65534);
	CHECK_EQ_INT(c.gid, 65534);
	CHECK_EQ_STR(c.pw.name, "nobody");
	CHECK_EQ_INT(ior_cred_resolve(&c, "root", NULL, NULL, P(passwd), P(group), err, sizeof err), 0);
	CHECK(c.change); /* asked for */
	CHECK_EQ_INT(c.uid, 0);
	CHECK_EQ_INT(ior_cred_resolve(&c, "1000", NULL, NULL, P(passwd), P(group), err, sizeof err), 0);
	CHECK_EQ_STR(c.pw.name, "alice");
	CHECK_EQ_INT(c.gid, 1000);
	CHECK_EQ_INT(ior_cred_resolve(&c, "mallory", NULL, NULL, P(passwd), P(group), err, sizeof err), -ENOENT);
	CHECK(strstr(err, "-u mallory: no such user") != NULL);
}

int main(void)
{
	RUN(passwd_by_name_and_uid);
	RUN(groups_of_a_user);
	RUN(cred_from_sudo);
	RUN(cred_from_u);
	return t_done();
}
