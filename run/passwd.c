/* /etc/passwd and /etc/group lines: fields split at ':', numbers in
 * decimal, lines of any length, NIS "+"/"-" lines and anything malformed
 * skipped. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "run/passwd.h"

#define MAX_FIELDS 8

struct field {
	const char *s;
	size_t n;
};

/* Splits s[0..n) at sep into f[0..max); returns the number of fields. */
static unsigned split(const char *s, size_t n, char sep, struct field *f, unsigned max)
{
	unsigned k = 0;
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != sep)
			continue;
		if (k < max)
			f[k] = (struct field){ s + start, i - start };
		k++;
		start = i + 1;
	}
	return k;
}

/* A decimal id below 2^32 - 1 (-1 is "no id" to the kernel). */
static int number(struct field f, uint32_t *v)
{
	uint64_t x = 0;

	if (!f.n || f.n > 10)
		return -1;
	for (size_t i = 0; i < f.n; i++) {
		if (f.s[i] < '0' || f.s[i] > '9')
			return -1;
		x = x * 10 + (uint64_t)(f.s[i] - '0');
	}
	if (x >= UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static bool is(struct field f, const char *s)
{
	return strlen(s) == f.n && !memcmp(f.s, s, f.n);
}

static int copy(char *dst, size_t cap, struct field f)
{
	if (f.n >= cap || memchr(f.s, 0, f.n))
		return -1;
	memcpy(dst, f.s, f.n);
	dst[f.n] = 0;
	return 0;
}

/* Calls line() on each line of text until it returns non-zero. */
static int each_line(const char *text, size_t len, int (*line)(const char *, size_t, void *), void *ctx)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		int r = line(p, n, ctx);
		if (r)
			return r;
		p += n + 1;
	}
	return 0;
}

struct pw_find {
	const char *name;
	uint32_t uid;
	struct ior_passwd *out;
};

/* name:password:uid:gid:gecos:home:shell */
static int pw_line(const char *s, size_t n, void *ctx)
{
	struct pw_find *q = ctx;
	struct field f[MAX_FIELDS];
	struct ior_passwd e;

	if (split(s, n, ':', f, MAX_FIELDS) != 7 || !f[0].n || f[0].s[0] == '+' || f[0].s[0] == '-')
		return 0;
	if (copy(e.name, sizeof e.name, f[0]) || number(f[2], &e.uid) || number(f[3], &e.gid))
		return 0;
	if (q->name ? !is(f[0], q->name) : e.uid != q->uid)
		return 0;
	if (copy(e.home, sizeof e.home, f[5]))
		e.home[0] = 0;
	*q->out = e;
	return 1;
}

int ior_passwd_find(const char *text, size_t len, const char *name, uint32_t uid, struct ior_passwd *out)
{
	struct pw_find q = { name, uid, out };

	return each_line(text, len, pw_line, &q) ? 0 : -ENOENT;
}

struct gr_list {
	const char *user;
	uint32_t *out;
	unsigned n, max;
};

static void add_group(struct gr_list *q, uint32_t gid)
{
	for (unsigned i = 0; i < q->n; i++)
		if (q->out[i] == gid)
			return;
	if (q->n < q->max)
		q->out[q->n++] = gid;
}

/* name:password:gid:member,member,... */
static int gr_line(const char *s, size_t n, void *ctx)
{
	struct gr_list *q = ctx;
	struct field f[MAX_FIELDS];
	uint32_t gid;
	const char *m, *end;

	if (split(s, n, ':', f, MAX_FIELDS) != 4 || !f[0].n || f[0].s[0] == '+' || f[0].s[0] == '-' ||
	    number(f[2], &gid))
		return 0;
	for (m = f[3].s, end = f[3].s + f[3].n; m < end;) {
		const char *c = memchr(m, ',', (size_t)(end - m));
		struct field member = { m, c ? (size_t)(c - m) : (size_t)(end - m) };
		if (is(member, q->user))
			add_group(q, gid);
		m += member.n + 1;
	}
	return 0;
}

unsigned ior_group_list(const char *text, size_t len, const char *user, uint32_t gid, uint32_t *out,
			unsigned max)
{
	struct gr_list q = { user, out, 0, max };

	add_group(&q, gid);
	if (user[0])
		each_line(text, len, gr_line, &q);
	return q.n;
}

static int parse_id(const char *s, uint32_t *v)
{
	return number((struct field){ s, strlen(s) }, v);
}

/* The entry of uid if there is one; its groups, or gid alone. */
static void fill(struct ior_cred *c, const char *passwd, size_t plen, const char *group, size_t glen)
{
	c->has_pw = !ior_passwd_find(passwd, plen, NULL, c->uid, &c->pw);
	c->ngroups = ior_group_list(group, glen, c->has_pw ? c->pw.name : "", c->gid, c->groups, IOR_CRED_GROUPS);
}

static int by_user(struct ior_cred *c, const char *user, const char *passwd, size_t plen, char *err,
		   size_t errlen)
{
	struct ior_passwd pw;

	if (!ior_passwd_find(passwd, plen, user, 0, &pw)) {
		c->uid = pw.uid;
		c->gid = pw.gid;
		return 0;
	}
	if (!parse_id(user, &c->uid)) { /* a uid: its entry's group, else its own number */
		c->gid = ior_passwd_find(passwd, plen, NULL, c->uid, &pw) ? c->uid : pw.gid;
		return 0;
	}
	snprintf(err, errlen, "-u %.64s: no such user in /etc/passwd (give a name listed there, or a uid)", user);
	return -ENOENT;
}

static int by_sudo(struct ior_cred *c, const char *sudo_uid, const char *sudo_gid, const char *passwd,
		   size_t plen, char *err, size_t errlen)
{
	struct ior_passwd pw;

	if (parse_id(sudo_uid, &c->uid)) {
		snprintf(err, errlen, "SUDO_UID \"%.32s\": not a user id (unset it, or use -u USER)", sudo_uid);
		return -EINVAL;
	}
	if (sudo_gid && *sudo_gid) {
		if (parse_id(sudo_gid, &c->gid)) {
			snprintf(err, errlen, "SUDO_GID \"%.32s\": not a group id (unset it, or use -u USER)",
				 sudo_gid);
			return -EINVAL;
		}
	} else {
		c->gid = ior_passwd_find(passwd, plen, NULL, c->uid, &pw) ? c->uid : pw.gid;
	}
	return 0;
}

int ior_cred_resolve(struct ior_cred *c, const char *user, const char *sudo_uid, const char *sudo_gid,
		     const char *passwd, size_t plen, const char *group, size_t glen, char *err,
		     size_t errlen)
{
	int r = 0;

	memset(c, 0, sizeof *c);
	if (user && *user)
		r = by_user(c, user, passwd, plen, err, errlen);
	else if (sudo_uid && *sudo_uid)
		r = by_sudo(c, sudo_uid, sudo_gid, passwd, plen, err, errlen);
	else
		return 0;
	if (r < 0)
		return r;
	if (c->uid == 0 && !(user && *user)) {
		memset(c, 0, sizeof *c);
		return 0;
	}
	c->change = 1;
	fill(c, passwd, plen, group, glen);
	return 0;
}
