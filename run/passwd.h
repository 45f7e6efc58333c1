/* The user ior -- CMD runs CMD as, from the text of /etc/passwd and
 * /etc/group, parsed here rather than through libc: the binary is static
 * musl, and NSS modules (LDAP, systemd's) are out of its reach anyway.
 * Pure: no file is read here; malformed lines are skipped. */
#ifndef IOR_RUN_PASSWD_H
#define IOR_RUN_PASSWD_H

#include <stddef.h>
#include <stdint.h>

#define IOR_PASSWD_NAME 64
#define IOR_PASSWD_HOME 256
#define IOR_CRED_GROUPS 64

struct ior_passwd {
	char name[IOR_PASSWD_NAME];
	uint32_t uid, gid;
	char home[IOR_PASSWD_HOME]; /* "" when longer than this */
};

/* The first entry named name, or (name NULL) with this uid. 0, or -ENOENT. */
int ior_passwd_find(const char *text, size_t len, const char *name, uint32_t uid, struct ior_passwd *out);
/* gid, then the groups whose member list names user, each once, at most
 * max in all; returns how many. */
unsigned ior_group_list(const char *text, size_t len, const char *user, uint32_t gid, uint32_t *out,
			unsigned max);

/* Who CMD runs as. */
struct ior_cred {
	int change;           /* 0: as ior itself (nothing below is set) */
	uint32_t uid, gid;
	uint32_t groups[IOR_CRED_GROUPS];
	unsigned ngroups;
	int has_pw;           /* pw holds the user's entry: HOME, USER, LOGNAME */
	struct ior_passwd pw;
};

/* user (-u: a name, or a number without an entry), else sudo_uid and
 * sudo_gid (the environment sudo leaves, trusted only when ior runs as
 * root: the caller passes NULL otherwise), else no change. A uid 0 target
 * changes nothing. 0, or -EINVAL/-ENOENT with err filled. */
int ior_cred_resolve(struct ior_cred *c, const char *user, const char *sudo_uid, const char *sudo_gid,
		     const char *passwd, size_t plen, const char *group, size_t glen, char *err,
		     size_t errlen);

#endif
