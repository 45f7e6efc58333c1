/* Bounds-checked access to an ELF64 relocatable BPF object in memory.
 * The input is hostile: every offset and size is checked against the
 * buffer before use, and structures are copied out with memcpy because a
 * corrupt header can point anywhere, aligned or not. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/internal.h"

#define FAIL(e, ...) ior_loader_fail(err, errlen, e, "bpf object: " __VA_ARGS__)

/* [off, off + len) lies within a buffer of size bytes (no overflow). */
static bool in_bounds(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

static int check_header(const Elf64_Ehdr *h, size_t size, char *err, size_t errlen)
{
	if (memcmp(h->e_ident, ELFMAG, SELFMAG))
		return FAIL(EINVAL, "not an ELF file (bad magic)");
	if (h->e_ident[EI_CLASS] != ELFCLASS64)
		return FAIL(EINVAL, "not a 64-bit ELF object (class %u)", h->e_ident[EI_CLASS]);
	if (h->e_ident[EI_DATA] != ELFDATA2LSB)
		return FAIL(EINVAL, "not a little-endian ELF object");
	if (h->e_type != ET_REL)
		return FAIL(EINVAL, "not a relocatable object (ELF type %u)", h->e_type);
	if (h->e_machine != EM_BPF)
		return FAIL(EINVAL, "not a BPF object (machine %u, want %u)", h->e_machine, EM_BPF);
	if (h->e_shentsize != sizeof(Elf64_Shdr))
		return FAIL(EINVAL, "bad section header size %u", h->e_shentsize);
	if (h->e_shnum == 0 || h->e_shnum >= SHN_LORESERVE)
		return FAIL(EINVAL, "unsupported section count %u", h->e_shnum);
	if (!in_bounds(h->e_shoff, (uint64_t)h->e_shnum * sizeof(Elf64_Shdr), size))
		return FAIL(EINVAL, "section headers (offset %llu, %u entries) outside the file",
			    (unsigned long long)h->e_shoff, h->e_shnum);
	if (h->e_shstrndx == SHN_UNDEF || h->e_shstrndx >= h->e_shnum)
		return FAIL(EINVAL, "bad section name table index %u", h->e_shstrndx);
	return 0;
}

static int read_sections(struct ior_elf *e, const Elf64_Ehdr *h, Elf64_Shdr *sh, char *err,
			 size_t errlen)
{
	for (unsigned i = 0; i < e->nsecs; i++) {
		memcpy(&sh[i], e->buf + h->e_shoff + (uint64_t)i * sizeof *sh, sizeof *sh);
		struct ior_elf_sec *s = &e->secs[i];
		s->type = sh[i].sh_type;
		s->link = sh[i].sh_link;
		s->info = sh[i].sh_info;
		s->flags = sh[i].sh_flags;
		s->size = sh[i].sh_size;
		s->entsize = sh[i].sh_entsize;
		if (s->type == SHT_NOBITS || s->type == SHT_NULL || !s->size)
			continue;
		if (!in_bounds(sh[i].sh_offset, s->size, e->size))
			return FAIL(EINVAL, "section %u: offset %llu size %llu outside the file (%zu bytes)",
				    i, (unsigned long long)sh[i].sh_offset,
				    (unsigned long long)s->size, e->size);
		s->data = e->buf + sh[i].sh_offset;
	}
	return 0;
}

static int name_sections(struct ior_elf *e, const Elf64_Shdr *sh, unsigned shstrndx, char *err,
			 size_t errlen)
{
	if (e->secs[shstrndx].type != SHT_STRTAB)
		return FAIL(EINVAL, "section name table %u is not a string table", shstrndx);
	for (unsigned i = 0; i < e->nsecs; i++) {
		e->secs[i].name = ior_elf_str(e, shstrndx, sh[i].sh_name);
		if (!e->secs[i].name)
			return FAIL(EINVAL, "section %u: bad name offset %u", i, sh[i].sh_name);
	}
	return 0;
}

static int find_symtab(struct ior_elf *e, char *err, size_t errlen)
{
	for (unsigned i = 1; i < e->nsecs; i++) {
		const struct ior_elf_sec *s = &e->secs[i];
		if (s->type != SHT_SYMTAB)
			continue;
		if (s->entsize != sizeof(Elf64_Sym) || s->size % sizeof(Elf64_Sym) || !s->data)
			return FAIL(EINVAL, "symbol table: bad entry size %llu or size %llu",
				    (unsigned long long)s->entsize, (unsigned long long)s->size);
		if (s->link == 0 || s->link >= e->nsecs || e->secs[s->link].type != SHT_STRTAB)
			return FAIL(EINVAL, "symbol table: bad string table index %u", s->link);
		e->symtab = i;
		e->nsyms = s->size / sizeof(Elf64_Sym);
		return 0;
	}
	return FAIL(EINVAL, "no symbol table");
}

int ior_elf_parse(struct ior_elf *e, const uint8_t *buf, size_t size, char *err, size_t errlen)
{
	Elf64_Ehdr h;
	memset(e, 0, sizeof *e);
	e->buf = buf;
	e->size = size;
	if (size < sizeof h)
		return FAIL(EINVAL, "truncated: %zu bytes is smaller than an ELF header", size);
	memcpy(&h, buf, sizeof h);
	int r = check_header(&h, size, err, errlen);
	if (r)
		return r;
	e->nsecs = h.e_shnum;
	e->secs = calloc(e->nsecs, sizeof *e->secs);
	Elf64_Shdr *sh = calloc(e->nsecs, sizeof *sh);
	if (!e->secs || !sh) {
		free(sh);
		return FAIL(ENOMEM, "out of memory for %u sections", e->nsecs);
	}
	r = read_sections(e, &h, sh, err, errlen);
	if (!r)
		r = name_sections(e, sh, h.e_shstrndx, err, errlen);
	if (!r)
		r = find_symtab(e, err, errlen);
	free(sh);
	return r;
}

void ior_elf_free(struct ior_elf *e)
{
	free(e->secs);
	e->secs = NULL;
	e->nsecs = 0;
}

const char *ior_elf_str(const struct ior_elf *e, unsigned strsec, uint64_t off)
{
	if (strsec >= e->nsecs)
		return NULL;
	const struct ior_elf_sec *s = &e->secs[strsec];
	if (s->type != SHT_STRTAB || !s->data || off >= s->size)
		return NULL;
	const char *p = (const char *)s->data + off;
	return memchr(p, '\0', s->size - off) ? p : NULL;
}

int ior_elf_sym(const struct ior_elf *e, size_t i, Elf64_Sym *sym, const char **name)
{
	if (!e->symtab || i >= e->nsyms)
		return -EINVAL;
	const struct ior_elf_sec *s = &e->secs[e->symtab];
	memcpy(sym, s->data + i * sizeof *sym, sizeof *sym);
	if (name)
		*name = ior_elf_str(e, s->link, sym->st_name);
	return 0;
}

unsigned ior_elf_sec_by_name(const struct ior_elf *e, const char *name)
{
	for (unsigned i = 1; i < e->nsecs; i++)
		if (!strcmp(e->secs[i].name, name))
			return i;
	return 0;
}
