/* Helpers for the loader unit tests: read objects, find ELF pieces in a
 * raw buffer so a test can mutate exactly one field of a copy. */
#ifndef IOR_TEST_LOADER_UTIL_H
#define IOR_TEST_LOADER_UTIL_H

#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/internal.h"

#define FEATURES_OBJ "tests/unit/bpf/features.elf"
#define REJECT_OBJ "tests/unit/bpf/reject.elf"

struct blob {
	uint8_t *data;
	size_t size;
};

static inline struct blob read_blob(const char *path)
{
	struct blob b = { NULL, 0 };
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s (run from the repository root)\n", path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	b.size = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	b.data = malloc(b.size);
	if (!b.data || fread(b.data, 1, b.size, f) != b.size)
		exit(2);
	fclose(f);
	return b;
}

static inline struct blob copy_blob(struct blob b)
{
	struct blob c = { malloc(b.size), b.size };
	memcpy(c.data, b.data, b.size);
	return c;
}

static inline Elf64_Ehdr ehdr_of(const uint8_t *buf)
{
	Elf64_Ehdr h;
	memcpy(&h, buf, sizeof h);
	return h;
}

/* File offset of section header idx. */
static inline size_t shdr_off(const uint8_t *buf, unsigned idx)
{
	return ehdr_of(buf).e_shoff + (size_t)idx * sizeof(Elf64_Shdr);
}

static inline Elf64_Shdr shdr_of(const uint8_t *buf, unsigned idx)
{
	Elf64_Shdr s;
	memcpy(&s, buf + shdr_off(buf, idx), sizeof s);
	return s;
}

static inline void put_shdr(uint8_t *buf, unsigned idx, const Elf64_Shdr *s)
{
	memcpy(buf + shdr_off(buf, idx), s, sizeof *s);
}

static inline unsigned find_sec(const uint8_t *buf, const char *name)
{
	Elf64_Ehdr h = ehdr_of(buf);
	Elf64_Shdr strs = shdr_of(buf, h.e_shstrndx);
	for (unsigned i = 1; i < h.e_shnum; i++) {
		Elf64_Shdr s = shdr_of(buf, i);
		if (!strcmp((const char *)buf + strs.sh_offset + s.sh_name, name))
			return i;
	}
	return 0;
}

/* Opens a buffer; returns the result and leaves the message in err. */
static inline int try_open(struct blob b, char *err, size_t errlen)
{
	struct ior_bpf_obj *o = NULL;
	err[0] = '\0';
	int r = ior_loader_open(b.data, b.size, &o, err, errlen);
	ior_loader_close(o);
	return r;
}

#endif
