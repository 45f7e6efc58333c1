/* The running kernel's BTF (/sys/kernel/btf/vmlinux): the ids tp_btf
 * programs attach to and the offsets of the kernel struct fields they read.
 * Parsed and validated like any other BTF (a patched kernel or a bind mount
 * can put anything there). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/btf.h>

#include "loader/internal.h"

#define KBTF_MAX (256u << 20) /* vmlinux BTF is ~6 MiB; refuse absurd files */
#define MEMBER_DEPTH 8         /* anonymous struct/union nesting searched */
#define MEMBER_VISITS 65536    /* members looked at per search: a hostile BTF
				* can nest a struct in itself many times over */

static int read_file(const char *path, uint8_t **out, size_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t cap = 8u << 20, len = 0;
	uint8_t *buf = NULL;
	int r = 0;
	for (;;) {
		if (len == cap && (cap *= 2) > KBTF_MAX) {
			r = -EFBIG;
			break;
		}
		uint8_t *nb = realloc(buf, cap);
		if (!nb) {
			r = -ENOMEM;
			break;
		}
		buf = nb;
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : 0;
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (r) {
		free(buf);
		return r;
	}
	*out = buf;
	*size = len;
	return 0;
}

int ior_kbtf_open(struct ior_btf *b, const char *path, char *err, size_t errlen)
{
	uint8_t *data = NULL;
	size_t size = 0;
	int r = read_file(path, &data, &size);
	if (r)
		return ior_loader_fail(err, errlen, -r, "kernel BTF %s: cannot read: %s%s", path,
				       strerror(-r), r == -ENOENT ?
				       " (kernel built without CONFIG_DEBUG_INFO_BTF)" : "");
	char why[192] = "";
	r = ior_btf_adopt(b, data, size, why, sizeof why);
	if (r) {
		ior_btf_free(b);
		return ior_loader_fail(err, errlen, -r, "kernel BTF %s: unusable: %s", path, why);
	}
	return 0;
}

/* Byte offset of member name in struct/union id, searching anonymous
 * members too; -ENOENT, or -EINVAL for a bit-field. */
static int member_in(const struct ior_btf *b, uint32_t id, const char *name, int depth,
		     unsigned *visits, uint32_t *off, uint32_t *type)
{
	const struct btf_type *t = ior_btf_type(b, ior_btf_resolve(b, id));
	if (!t || depth > MEMBER_DEPTH)
		return -ENOENT;
	unsigned kind = BTF_INFO_KIND(t->info);
	if (kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION)
		return -ENOENT;
	const struct btf_member *m = (const struct btf_member *)(t + 1);
	for (unsigned i = 0; i < BTF_INFO_VLEN(t->info); i++) {
		if (++*visits > MEMBER_VISITS)
			return -ENOENT;
		uint32_t bits = BTF_INFO_KFLAG(t->info) ? BTF_MEMBER_BIT_OFFSET(m[i].offset)
							 : m[i].offset;
		bool bitfield = BTF_INFO_KFLAG(t->info) && BTF_MEMBER_BITFIELD_SIZE(m[i].offset);
		const char *mname = ior_btf_name(b, m[i].name_off);
		if (mname && *mname && strcmp(mname, name))
			continue;
		if (mname && *mname) {
			if (bitfield || bits % 8)
				return -EINVAL;
			*off = bits / 8;
			*type = m[i].type;
			return 0;
		}
		uint32_t inner;
		if (!bitfield && bits % 8 == 0 &&
		    !member_in(b, m[i].type, name, depth + 1, visits, &inner, type)) {
			*off = bits / 8 + inner;
			return 0;
		}
	}
	return -ENOENT;
}

int ior_kbtf_member(const struct ior_btf *b, const char *type, const char *member,
		    uint32_t *off, uint32_t *size)
{
	uint32_t id = ior_btf_find(b, BTF_KIND_STRUCT, type), mtype = 0;
	if (!id)
		return -ENOENT;
	unsigned visits = 0;
	int r = member_in(b, id, member, 0, &visits, off, &mtype);
	if (r)
		return r;
	int64_t sz = ior_btf_sizeof(b, mtype);
	if (sz <= 0 || sz > UINT32_MAX)
		return -EINVAL;
	*size = (uint32_t)sz;
	return 0;
}

uint32_t ior_kbtf_raw_tp(const struct ior_btf *b, const char *tracepoint)
{
	char name[128];
	if ((size_t)snprintf(name, sizeof name, "btf_trace_%s", tracepoint) >= sizeof name)
		return 0;
	return ior_btf_find(b, BTF_KIND_TYPEDEF, name);
}
