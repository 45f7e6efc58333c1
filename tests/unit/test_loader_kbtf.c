/* The kernel-BTF reader (loader/kbtf.c) on a small vmlinux-like BTF built
 * here: member offsets through anonymous unions and structs, bit-fields,
 * missing names, the btf_trace_ typedefs, and the file truncated at every
 * length. No root needed. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <linux/btf.h>

#include "t.h"
#include "loader_util.h"

struct buf {
	uint8_t data[1024];
	size_t len;
};

static void put32(struct buf *b, uint32_t v)
{
	memcpy(b->data + b->len, &v, 4);
	b->len += 4;
}

static void type(struct buf *b, uint32_t name, uint32_t kind, uint32_t vlen, bool kflag,
		 uint32_t size_or_type)
{
	put32(b, name);
	put32(b, (kflag ? 1u << 31 : 0) | kind << 24 | vlen);
	put32(b, size_or_type);
}

static void member(struct buf *b, uint32_t name, uint32_t type_id, uint32_t offset)
{
	put32(b, name);
	put32(b, type_id);
	put32(b, offset);
}

static const char strs[] = "\0int\0char\0pid\0alias\0task_struct\0x\0comm\0bf\0"
			   "btf_trace_sys_enter\0odd";
/* Offset of name in strs (NUL-separated, so not strstr). */
static uint32_t S(const char *name)
{
	for (size_t off = 1; off < sizeof strs; off += strlen(strs + off) + 1)
		if (!strcmp(strs + off, name))
			return (uint32_t)off;
	abort();
}

/* Ids: 1 int, 2 char, 3 char[16], 4 struct { int pid; },
 * 5 union { struct {int pid;}; int alias; }, 6 task_struct
 * { int x; union {...}; char comm[16]; int bf:3; }, 7 typedef
 * btf_trace_sys_enter -> 8 ptr -> 9 func_proto, 10 struct odd { int x at bit 4 }. */
static size_t build(uint8_t *out)
{
	struct buf t = { .len = 0 };
	type(&t, S("int"), BTF_KIND_INT, 0, false, 4);
	put32(&t, BTF_INT_SIGNED << 24 | 32);
	type(&t, S("char"), BTF_KIND_INT, 0, false, 1);
	put32(&t, 8);
	type(&t, 0, BTF_KIND_ARRAY, 0, false, 0);
	put32(&t, 2), put32(&t, 1), put32(&t, 16);
	type(&t, 0, BTF_KIND_STRUCT, 1, false, 4);
	member(&t, S("pid"), 1, 0);
	type(&t, 0, BTF_KIND_UNION, 2, false, 4);
	member(&t, 0, 4, 0);
	member(&t, S("alias"), 1, 0);
	type(&t, S("task_struct"), BTF_KIND_STRUCT, 4, true, 32);
	member(&t, S("x"), 1, 0);
	member(&t, 0, 5, 32);
	member(&t, S("comm"), 3, 64);
	member(&t, S("bf"), 1, 3u << 24 | 192);
	type(&t, S("btf_trace_sys_enter"), BTF_KIND_TYPEDEF, 0, false, 8);
	type(&t, 0, BTF_KIND_PTR, 0, false, 9);
	type(&t, 0, BTF_KIND_FUNC_PROTO, 0, false, 0);
	type(&t, S("odd"), BTF_KIND_STRUCT, 1, false, 8);
	member(&t, S("x"), 1, 4);

	struct btf_header h = {
		.magic = 0xeB9F, .version = 1, .hdr_len = sizeof h,
		.type_off = 0, .type_len = (uint32_t)t.len,
		.str_off = (uint32_t)t.len, .str_len = sizeof strs,
	};
	memcpy(out, &h, sizeof h);
	memcpy(out + sizeof h, t.data, t.len);
	memcpy(out + sizeof h + t.len, strs, sizeof strs);
	return sizeof h + t.len + sizeof strs;
}

static char path[] = "/tmp/ior-kbtf-XXXXXX";

static void write_file(const uint8_t *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_EQ_INT(fwrite(data, 1, len, f), len);
	fclose(f);
}

static int open_built(struct ior_btf *b)
{
	uint8_t raw[2048];
	char err[256] = "";
	write_file(raw, build(raw));
	int r = ior_kbtf_open(b, path, err, sizeof err);
	if (r)
		printf("      %s\n", err);
	return r;
}

TEST(member_offsets_through_anonymous_members)
{
	struct ior_btf b;
	uint32_t off = 0, size = 0;
	CHECK_EQ_INT(open_built(&b), 0);
	CHECK_EQ_INT(ior_kbtf_member(&b, "task_struct", "pid", &off, &size), 0);
	CHECK_EQ_INT(off, 4);
	CHECK_EQ_INT(size, 4);
	CHECK_EQ_INT(ior_kbtf_member(&b, "task_struct", "alias", &off, &size), 0);
	CHECK_EQ_INT(off, 4);
	CHECK_EQ_INT(ior_kbtf_member(&b, "task_struct", "comm", &off, &size), 0);
	CHECK_EQ_INT(off, 8);
	CHECK_EQ_INT(size, 16);
	ior_btf_free(&b);
}

TEST(missing_and_bitfield_members_are_refused)
{
	struct ior_btf b;
	uint32_t off = 77, size = 77;
	CHECK_EQ_INT(open_built(&b), 0);
	CHECK_EQ_INT(ior_kbtf_member(&b, "task_struct", "tgid", &off, &size), -ENOENT);
	CHECK_EQ_INT(ior_kbtf_member(&b, "mm_struct", "pid", &off, &size), -ENOENT);
	CHECK_EQ_INT(ior_kbtf_member(&b, "task_struct", "bf", &off, &size), -EINVAL);
	CHECK_EQ_INT(ior_kbtf_member(&b, "odd", "x", &off, &size), -EINVAL);
	CHECK_EQ_INT(off, 77);
	ior_btf_free(&b);
}

TEST(raw_tracepoint_typedefs)
{
	struct ior_btf b;
	char longname[200];
	CHECK_EQ_INT(open_built(&b), 0);
	CHECK_EQ_INT(ior_kbtf_raw_tp(&b, "sys_enter"), 7);
	CHECK_EQ_INT(ior_kbtf_raw_tp(&b, "sys_exit"), 0);
	memset(longname, 'a', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	CHECK_EQ_INT(ior_kbtf_raw_tp(&b, longname), 0);
	ior_btf_free(&b);
}

TEST(missing_file_says_what_to_do)
{
	struct ior_btf b;
	char err[256] = "";
	CHECK_EQ_INT(ior_kbtf_open(&b, "/nonexistent/vmlinux", err, sizeof err), -ENOENT);
	CHECK(strstr(err, "/nonexistent/vmlinux") != NULL);
	CHECK(strstr(err, "CONFIG_DEBUG_INFO_BTF") != NULL);
}

/* Every prefix of the file is either refused with a message or parses to
 * types whose lookups stay in bounds (ASan watches). */
TEST(truncated_files_are_refused_or_safe)
{
	uint8_t raw[2048];
	size_t len = build(raw);
	unsigned refused = 0;
	for (size_t n = 0; n < len; n++) {
		struct ior_btf b;
		char err[256] = "";
		uint32_t off, size;
		write_file(raw, n);
		if (ior_kbtf_open(&b, path, err, sizeof err)) {
			refused++;
			CHECK(strstr(err, "kernel BTF") != NULL);
			continue;
		}
		ior_kbtf_member(&b, "task_struct", "comm", &off, &size);
		ior_kbtf_raw_tp(&b, "sys_enter");
		ior_btf_free(&b);
	}
	CHECK_EQ_INT(refused, len); /* the string section ends the file */
}

int main(void)
{
	int fd = mkstemp(path);
	if (fd < 0)
		return perror("mkstemp"), 1;
	close(fd);
	RUN(member_offsets_through_anonymous_members);
	RUN(missing_and_bitfield_members_are_refused);
	RUN(raw_tracepoint_typedefs);
	RUN(missing_file_says_what_to_do);
	RUN(truncated_files_are_refused_or_safe);
	unlink(path);
	return t_done();
}
