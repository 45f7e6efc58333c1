/* The loader's parser on hostile input: copies of the real build/bpf.o
 * with one field broken each. Every case must fail with a message that
 * names the problem, never crash (this also runs under ASan+UBSan). */
#include <linux/btf.h>

#include "t.h"
#include "loader_util.h"

static struct blob real;

#define EXPECT_ERR(b, want)                                                   \
	do {                                                                  \
		char e_[512];                                                 \
		int r_ = try_open(b, e_, sizeof e_);                          \
		if (r_ >= 0 || !strstr(e_, want))                             \
			T_FAIL("open: %d \"%s\", want an error with \"%s\"", r_, e_, want); \
	} while (0)

/* ---- locating fields to break ------------------------------------------- */

static size_t sec_file_off(const uint8_t *buf, const char *name)
{
	return shdr_of(buf, find_sec(buf, name)).sh_offset;
}

/* Parses .BTF of buf into b; returns the file offset of its type section. */
static size_t btf_of(const uint8_t *buf, struct ior_btf *b)
{
	Elf64_Shdr s = shdr_of(buf, find_sec(buf, ".BTF"));
	if (ior_btf_parse(b, buf + s.sh_offset, s.sh_size, NULL, 0)) {
		fprintf(stderr, "real .BTF does not parse\n");
		exit(2);
	}
	return s.sh_offset + b->hdr_len + b->type_off;
}

static size_t type_file_off(const uint8_t *buf, uint32_t id)
{
	struct ior_btf b;
	size_t types = btf_of(buf, &b);
	size_t off = types + b.type_at[id];
	ior_btf_free(&b);
	return off;
}

static uint32_t first_of_kind(const uint8_t *buf, unsigned kind)
{
	struct ior_btf b;
	btf_of(buf, &b);
	uint32_t id = 0;
	for (uint32_t i = 1; i < b.ntypes && !id; i++)
		if (BTF_INFO_KIND(ior_btf_type(&b, i)->info) == kind)
			id = i;
	ior_btf_free(&b);
	return id;
}

/* File offset of the btf_member called field in map var's definition. */
static size_t map_member_off(const uint8_t *buf, const char *map, const char *field,
			     uint32_t *member_type)
{
	struct ior_btf b;
	size_t types = btf_of(buf, &b);
	uint32_t var = ior_btf_find(&b, BTF_KIND_VAR, map);
	uint32_t def = ior_btf_resolve(&b, ior_btf_type(&b, var)->type);
	const struct btf_type *t = ior_btf_type(&b, def);
	const struct btf_member *m = (const void *)(t + 1);
	size_t off = 0;
	for (unsigned i = 0; i < BTF_INFO_VLEN(t->info); i++)
		if (!strcmp(ior_btf_name(&b, m[i].name_off), field)) {
			off = types + b.type_at[def] + sizeof *t + i * sizeof *m;
			*member_type = m[i].type;
		}
	ior_btf_free(&b);
	return off;
}

static size_t rel_file_off(const uint8_t *buf, const char *relsec, unsigned i)
{
	return sec_file_off(buf, relsec) + i * sizeof(Elf64_Rel);
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* ---- ELF ------------------------------------------------------------------ */

TEST(the_real_object_parses)
{
	char err[512];
	CHECK_EQ_INT(try_open(real, err, sizeof err), 0);
}

/* One truncation at n: refused, and said. (The loader parses its own
 * copy of exactly n bytes, so ASan sees any read past the end.) */
static unsigned truncated_ok(size_t n)
{
	char err[512];
	struct blob b = { real.data, n };
	int r = n < real.size ? try_open(b, err, sizeof err) : -1;

	return n >= real.size || (r < 0 && strstr(err, "bpf object"));
}

/* Every offset in the headers, every section's first and last bytes (and
 * one either side), and an even stride through the rest: the object is
 * ~0.5 MB, and each try copies it (every 13th offset took 4-5 min of the
 * unit run under ASan and arm64 emulation). */
TEST(truncated_at_every_offset)
{
	unsigned bad = 0, tries = 0;
	size_t stride = real.size / 2048 > 13 ? real.size / 2048 : 13;
	struct ior_elf e;
	char err[512];

	for (size_t n = 0; n < real.size; n += n < 2048 ? 1 : stride, tries++)
		bad += !truncated_ok(n);
	if (ior_elf_parse(&e, real.data, real.size, err, sizeof err)) {
		CHECK(!"the real object parses");
		return;
	}
	for (unsigned i = 1; i < e.nsecs; i++) {
		size_t at[2] = { (size_t)(e.secs[i].data ? e.secs[i].data - real.data : 0),
				 (size_t)(e.secs[i].data ? e.secs[i].data - real.data : 0) + e.secs[i].size };
		for (int k = 0; k < 2; k++)
			for (size_t d = at[k] ? at[k] - 1 : 0; d <= at[k] + 1; d++, tries++)
				bad += !truncated_ok(d);
	}
	ior_elf_free(&e);
	CHECK(tries > 2048 + 2 * 2048 / 2);
	CHECK_EQ_INT(bad, 0);
	struct blob empty = { real.data, 0 };
	EXPECT_ERR(empty, "smaller than an ELF header");
}

TEST(wrong_identity)
{
	struct blob b = copy_blob(real);
	b.data[EI_CLASS] = ELFCLASS32;
	EXPECT_ERR(b, "not a 64-bit ELF");
	b.data[EI_CLASS] = ELFCLASS64;
	b.data[EI_DATA] = ELFDATA2MSB;
	EXPECT_ERR(b, "little-endian");
	b.data[EI_DATA] = ELFDATA2LSB;
	uint16_t machine = EM_X86_64, type = ET_EXEC;
	memcpy(b.data + offsetof(Elf64_Ehdr, e_machine), &machine, 2);
	EXPECT_ERR(b, "not a BPF object");
	memcpy(b.data, real.data, sizeof(Elf64_Ehdr));
	memcpy(b.data + offsetof(Elf64_Ehdr, e_type), &type, 2);
	EXPECT_ERR(b, "not a relocatable object");
	memcpy(b.data, "\x7f" "ELG", 4);
	EXPECT_ERR(b, "not an ELF file");
	free(b.data);
}

TEST(section_headers_out_of_range)
{
	struct blob b = copy_blob(real);
	put64(b.data + offsetof(Elf64_Ehdr, e_shoff), b.size - 64);
	EXPECT_ERR(b, "section headers");
	memcpy(b.data, real.data, sizeof(Elf64_Ehdr));
	uint16_t idx = 0xfff0;
	memcpy(b.data + offsetof(Elf64_Ehdr, e_shstrndx), &idx, 2);
	EXPECT_ERR(b, "section name table index");
	free(b.data);
}

TEST(section_offset_or_size_out_of_range)
{
	struct blob b = copy_blob(real);
	unsigned btf = find_sec(b.data, ".BTF");
	Elf64_Shdr s = shdr_of(b.data, btf), orig = s;
	s.sh_offset = b.size - 8;
	put_shdr(b.data, btf, &s);
	EXPECT_ERR(b, "outside the file");
	s = orig;
	s.sh_size = UINT64_MAX - 4;
	put_shdr(b.data, btf, &s);
	EXPECT_ERR(b, "outside the file");
	free(b.data);
}

TEST(bad_string_offsets)
{
	struct blob b = copy_blob(real);
	unsigned sec = find_sec(b.data, ".maps");
	Elf64_Shdr s = shdr_of(b.data, sec);
	s.sh_name = 0x7fffffff;
	put_shdr(b.data, sec, &s);
	EXPECT_ERR(b, "bad name offset");
	free(b.data);
}

TEST(bad_symbol_table)
{
	struct blob b = copy_blob(real);
	unsigned sec = find_sec(b.data, ".symtab");
	Elf64_Shdr s = shdr_of(b.data, sec);
	s.sh_entsize = 7;
	put_shdr(b.data, sec, &s);
	EXPECT_ERR(b, "symbol table");
	free(b.data);
}

/* ---- BTF ------------------------------------------------------------------ */

TEST(btf_bad_header)
{
	struct blob b = copy_blob(real);
	size_t btf = sec_file_off(b.data, ".BTF");
	put32(b.data + btf + 20, 0x7fffffff); /* str_len */
	EXPECT_ERR(b, ".BTF: string section");
	memcpy(b.data, real.data, real.size);
	b.data[btf] ^= 0xff; /* magic */
	EXPECT_ERR(b, ".BTF: bad magic");
	free(b.data);
}

TEST(btf_bad_type_id)
{
	struct blob b = copy_blob(real);
	uint32_t ptr = first_of_kind(b.data, BTF_KIND_PTR);
	size_t off = type_file_off(b.data, ptr);
	put32(b.data + off + 8, 0x00ffffff); /* btf_type.type */
	EXPECT_ERR(b, "bad type id");
	free(b.data);
}

TEST(btf_bad_name_offset)
{
	struct blob b = copy_blob(real);
	size_t off = type_file_off(b.data, 1);
	put32(b.data + off, 0x7ffffff0); /* name_off */
	EXPECT_ERR(b, "bad name offset");
	free(b.data);
}

TEST(btf_unknown_kind_and_truncated_type)
{
	struct blob b = copy_blob(real);
	size_t off = type_file_off(b.data, 1);
	uint32_t info = 31u << 24;
	put32(b.data + off + 4, info);
	EXPECT_ERR(b, "unknown kind");
	uint32_t st = first_of_kind(real.data, BTF_KIND_STRUCT);
	memcpy(b.data, real.data, real.size);
	off = type_file_off(b.data, st);
	info = (BTF_KIND_STRUCT << 24) | 0xffff; /* vlen past the end */
	put32(b.data + off + 4, info);
	EXPECT_ERR(b, "truncated");
	free(b.data);
}

TEST(btf_ext_bad_record_size)
{
	struct blob b = copy_blob(real);
	size_t ext = sec_file_off(b.data, ".BTF.ext");
	uint32_t hdr_len, func_off;
	memcpy(&hdr_len, b.data + ext + 4, 4);
	memcpy(&func_off, b.data + ext + 8, 4);
	put32(b.data + ext + hdr_len + func_off, 3);
	EXPECT_ERR(b, "record size");
	free(b.data);
}

/* ---- maps ------------------------------------------------------------------- */

TEST(unknown_map_type)
{
	struct blob b = copy_blob(real);
	uint32_t ptr;
	CHECK(map_member_off(b.data, "events", "type", &ptr));
	/* int (*type)[N]: the array's nelems is N */
	struct ior_btf btf;
	btf_of(b.data, &btf);
	uint32_t arr = ior_btf_type(&btf, ptr)->type;
	ior_btf_free(&btf);
	put32(b.data + type_file_off(b.data, arr) + 12 + 8, 99); /* btf_array.nelems */
	EXPECT_ERR(b, "map type 99 is not supported");
	free(b.data);
}

TEST(unknown_map_field)
{
	struct blob b = copy_blob(real);
	uint32_t ty;
	size_t off = map_member_off(b.data, "events", "max_entries", &ty);
	/* rename the member to the string "key_size"'s neighbour: 'events' */
	struct ior_btf btf;
	btf_of(b.data, &btf);
	uint32_t var = ior_btf_find(&btf, BTF_KIND_VAR, "events");
	uint32_t name = ior_btf_type(&btf, var)->name_off;
	ior_btf_free(&btf);
	put32(b.data + off, name);
	EXPECT_ERR(b, "unknown field 'events'");
	free(b.data);
}

TEST(map_field_not_a_pointer)
{
	struct blob b = copy_blob(real);
	uint32_t ty;
	size_t off = map_member_off(b.data, "sys_conf", "max_entries", &ty);
	put32(b.data + off + 4, first_of_kind(b.data, BTF_KIND_INT)); /* member type */
	EXPECT_ERR(b, "is not __uint(max_entries, N)");
	free(b.data);
}

/* ---- programs and relocations ------------------------------------------------ */

TEST(relocation_outside_section)
{
	struct blob b = copy_blob(real);
	size_t rel = rel_file_off(b.data, ".reltracepoint/syscalls/sys_enter", 0);
	put64(b.data + rel, 0x100000);
	EXPECT_ERR(b, "outside section");
	free(b.data);
}

TEST(relocation_bad_symbol)
{
	struct blob b = copy_blob(real);
	size_t rel = rel_file_off(b.data, ".reltracepoint/syscalls/sys_enter", 1);
	put64(b.data + rel + 8, ((uint64_t)0xfffff << 32) | 1);
	EXPECT_ERR(b, "bad symbol index");
	free(b.data);
}

TEST(relocation_not_at_a_64bit_load)
{
	struct blob b = copy_blob(real);
	size_t rel = rel_file_off(b.data, ".reltracepoint/syscalls/sys_enter", 0);
	uint8_t first = b.data[sec_file_off(b.data, "tracepoint/syscalls/sys_enter")];
	CHECK(first != (BPF_LD | BPF_IMM | BPF_DW));
	put64(b.data + rel, 0);
	EXPECT_ERR(b, "not a 64-bit load");
	free(b.data);
}

TEST(relocation_unsupported_type)
{
	struct blob b = copy_blob(real);
	size_t rel = rel_file_off(b.data, ".reltracepoint/syscalls/sys_enter", 0);
	uint64_t info;
	memcpy(&info, b.data + rel + 8, 8);
	put64(b.data + rel + 8, (info & ~0xffffffffull) | 3); /* R_BPF_64_ABS32 */
	EXPECT_ERR(b, "relocation type 3");
	free(b.data);
}

TEST(unsupported_program_section)
{
	struct blob b = copy_blob(real);
	unsigned prog = find_sec(b.data, "tracepoint/syscalls/sys_enter");
	Elf64_Shdr s = shdr_of(b.data, prog);
	s.sh_name = shdr_of(b.data, find_sec(b.data, "license")).sh_name;
	put_shdr(b.data, prog, &s);
	EXPECT_ERR(b, "unsupported program type");
	free(b.data);
}

TEST(program_symbol_outside_section)
{
	struct blob b = copy_blob(real);
	unsigned symtab = find_sec(b.data, ".symtab");
	Elf64_Shdr st = shdr_of(b.data, symtab), strs = shdr_of(b.data, st.sh_link);
	size_t n = st.sh_size / sizeof(Elf64_Sym), hit = 0;
	for (size_t i = 0; i < n; i++) {
		Elf64_Sym s;
		size_t off = st.sh_offset + i * sizeof s;
		memcpy(&s, b.data + off, sizeof s);
		if (!strcmp((char *)b.data + strs.sh_offset + s.st_name, "ior_exit")) {
			s.st_size = 1u << 30;
			memcpy(b.data + off, &s, sizeof s);
			hit = 1;
		}
	}
	CHECK(hit);
	EXPECT_ERR(b, "outside section");
	free(b.data);
}

/* Random byte damage: any result is fine except a crash or a silent error. */
TEST(random_damage)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	unsigned silent = 0, ok = 0;
	char err[512];
	struct blob b = copy_blob(real); /* damaged, then mended, in place */
	for (int iter = 0; iter < 3000; iter++) {
		size_t at[8];
		int flips = 1 + iter % 8;
		for (int f = 0; f < flips; f++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			at[f] = (x >> 8) % b.size;
			b.data[at[f]] = (uint8_t)x;
		}
		int r = try_open(b, err, sizeof err);
		ok += r == 0;
		silent += r < 0 && !err[0];
		for (int f = 0; f < flips; f++)
			b.data[at[f]] = real.data[at[f]];
	}
	free(b.data);
	CHECK_EQ_INT(silent, 0);
	CHECK(ok > 0); /* damage in debug sections is harmless */
}

int main(void)
{
	real = read_blob(IOR_BPF_OBJ);
	RUN(the_real_object_parses);
	RUN(truncated_at_every_offset);
	RUN(wrong_identity);
	RUN(section_headers_out_of_range);
	RUN(section_offset_or_size_out_of_range);
	RUN(bad_string_offsets);
	RUN(bad_symbol_table);
	RUN(btf_bad_header);
	RUN(btf_bad_type_id);
	RUN(btf_bad_name_offset);
	RUN(btf_unknown_kind_and_truncated_type);
	RUN(btf_ext_bad_record_size);
	RUN(unknown_map_type);
	RUN(unknown_map_field);
	RUN(map_field_not_a_pointer);
	RUN(relocation_outside_section);
	RUN(relocation_bad_symbol);
	RUN(relocation_not_at_a_64bit_load);
	RUN(relocation_unsupported_type);
	RUN(unsupported_program_section);
	RUN(program_symbol_outside_section);
	RUN(random_damage);
	free(real.data);
	return t_done();
}
