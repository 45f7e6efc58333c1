/* BTF (.BTF and .BTF.ext) parsing, validation and the fix-ups the kernel
 * wants before BPF_BTF_LOAD. The input is hostile: the header, every type
 * record, every type id and every string offset are checked once in
 * ior_btf_parse, so the accessors after it can trust them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/btf.h>

#include "loader/internal.h"

/* The caller says whose BTF it is ("bpf object: ", "kernel BTF PATH: "). */
#define FAIL(e, ...) ior_loader_fail(err, errlen, e, __VA_ARGS__)
#define BTF_MAGIC_NR 0xeB9F
#define MAX_TYPES (1u << 20)
#define MAX_CHAIN 32

static bool in_bounds(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

static uint8_t *types_start(const struct ior_btf *b)
{
	return b->raw + b->hdr_len + b->type_off;
}

static struct btf_type *type_mut(const struct ior_btf *b, uint32_t id)
{
	if (id == 0 || id >= b->ntypes)
		return NULL;
	return (struct btf_type *)(types_start(b) + b->type_at[id]);
}

const struct btf_type *ior_btf_type(const struct ior_btf *b, uint32_t id)
{
	return type_mut(b, id);
}

const char *ior_btf_name(const struct ior_btf *b, uint32_t off)
{
	if (off >= b->str_len)
		return NULL;
	return (const char *)b->raw + b->hdr_len + b->str_off + off; /* str section ends in NUL */
}

/* Bytes that follow struct btf_type for this kind, or -1 if unknown. */
static int64_t extra_size(const struct btf_type *t)
{
	uint64_t vlen = BTF_INFO_VLEN(t->info);
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
		return 4;
	case BTF_KIND_PTR: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST: case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		return (int64_t)(vlen * sizeof(struct btf_member));
	case BTF_KIND_ENUM:
		return (int64_t)(vlen * sizeof(struct btf_enum));
	case BTF_KIND_FUNC_PROTO:
		return (int64_t)(vlen * sizeof(struct btf_param));
	case BTF_KIND_VAR:
		return sizeof(struct btf_var);
	case BTF_KIND_DATASEC:
		return (int64_t)(vlen * sizeof(struct btf_var_secinfo));
	case BTF_KIND_DECL_TAG:
		return sizeof(struct btf_decl_tag);
	case BTF_KIND_ENUM64:
		return (int64_t)(vlen * sizeof(struct btf_enum64));
	default:
		return -1;
	}
}

static int check_header(struct ior_btf *b, size_t size, char *err, size_t errlen)
{
	struct btf_header h;
	if (size < sizeof h)
		return FAIL(EINVAL, ".BTF: truncated header (%zu bytes)", size);
	memcpy(&h, b->raw, sizeof h);
	if (h.magic != BTF_MAGIC_NR || h.version != 1)
		return FAIL(EINVAL, ".BTF: bad magic 0x%x or version %u", h.magic, h.version);
	if (h.hdr_len < sizeof h || h.hdr_len > size || h.hdr_len % 4)
		return FAIL(EINVAL, ".BTF: bad header length %u", h.hdr_len);
	uint64_t body = size - h.hdr_len;
	if (!in_bounds(h.type_off, h.type_len, body) || (h.type_off % 4) || (h.type_len % 4))
		return FAIL(EINVAL, ".BTF: type section (offset %u, length %u) out of range",
			    h.type_off, h.type_len);
	if (!in_bounds(h.str_off, h.str_len, body) || h.str_len == 0)
		return FAIL(EINVAL, ".BTF: string section (offset %u, length %u) out of range",
			    h.str_off, h.str_len);
	const uint8_t *strs = b->raw + h.hdr_len + h.str_off;
	if (strs[0] || strs[h.str_len - 1])
		return FAIL(EINVAL, ".BTF: string section does not start and end with NUL");
	b->hdr_len = h.hdr_len;
	b->type_off = h.type_off;
	b->type_len = h.type_len;
	b->str_off = h.str_off;
	b->str_len = h.str_len;
	return 0;
}

static int index_types(struct ior_btf *b, char *err, size_t errlen)
{
	uint32_t cap = 64, pos = 0;
	b->type_at = malloc(cap * sizeof *b->type_at);
	if (!b->type_at)
		return FAIL(ENOMEM, ".BTF: out of memory");
	b->type_at[0] = 0;
	b->ntypes = 1;
	while (pos < b->type_len) {
		if (b->type_len - pos < sizeof(struct btf_type))
			return FAIL(EINVAL, ".BTF: type %u truncated", b->ntypes);
		const struct btf_type *t = (const struct btf_type *)(types_start(b) + pos);
		int64_t extra = extra_size(t);
		if (extra < 0)
			return FAIL(EINVAL, ".BTF: type %u has unknown kind %u", b->ntypes,
				    BTF_INFO_KIND(t->info));
		uint64_t len = sizeof *t + (uint64_t)extra;
		if (len > b->type_len - pos)
			return FAIL(EINVAL, ".BTF: type %u truncated", b->ntypes);
		if (b->ntypes == cap) {
			if (cap >= MAX_TYPES)
				return FAIL(EINVAL, ".BTF: more than %u types", MAX_TYPES);
			uint32_t *n = realloc(b->type_at, 2 * cap * sizeof *n);
			if (!n)
				return FAIL(ENOMEM, ".BTF: out of memory");
			b->type_at = n;
			cap *= 2;
		}
		b->type_at[b->ntypes++] = pos;
		pos += (uint32_t)len;
	}
	return 0;
}

static bool bad_id(const struct ior_btf *b, uint32_t id)
{
	return id >= b->ntypes;
}

/* Type ids and name offsets inside the records that follow t. */
static bool refs_ok(const struct ior_btf *b, const struct btf_type *t)
{
	unsigned vlen = BTF_INFO_VLEN(t->info);
	const void *extra = t + 1;
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_VAR: case BTF_KIND_TYPE_TAG:
	case BTF_KIND_DECL_TAG:
		return !bad_id(b, t->type);
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = extra;
		return !bad_id(b, a->type) && !bad_id(b, a->index_type);
	}
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: {
		const struct btf_member *m = extra;
		for (unsigned i = 0; i < vlen; i++)
			if (bad_id(b, m[i].type) || m[i].name_off >= b->str_len)
				return false;
		return true;
	}
	case BTF_KIND_ENUM: {
		const struct btf_enum *e = extra;
		for (unsigned i = 0; i < vlen; i++)
			if (e[i].name_off >= b->str_len)
				return false;
		return true;
	}
	case BTF_KIND_ENUM64: {
		const struct btf_enum64 *e = extra;
		for (unsigned i = 0; i < vlen; i++)
			if (e[i].name_off >= b->str_len)
				return false;
		return true;
	}
	case BTF_KIND_FUNC_PROTO: {
		const struct btf_param *p = extra;
		if (bad_id(b, t->type))
			return false;
		for (unsigned i = 0; i < vlen; i++)
			if (bad_id(b, p[i].type) || p[i].name_off >= b->str_len)
				return false;
		return true;
	}
	case BTF_KIND_DATASEC: {
		const struct btf_var_secinfo *v = extra;
		for (unsigned i = 0; i < vlen; i++)
			if (bad_id(b, v[i].type))
				return false;
		return true;
	}
	default:
		return true;
	}
}

static int check_types(const struct ior_btf *b, char *err, size_t errlen)
{
	for (uint32_t id = 1; id < b->ntypes; id++) {
		const struct btf_type *t = ior_btf_type(b, id);
		if (t->name_off >= b->str_len)
			return FAIL(EINVAL, ".BTF: type %u: bad name offset %u", id, t->name_off);
		if (!refs_ok(b, t))
			return FAIL(EINVAL, ".BTF: type %u: bad type id or name offset in its members",
				    id);
	}
	return 0;
}

int ior_btf_adopt(struct ior_btf *b, uint8_t *raw, size_t size, char *err, size_t errlen)
{
	memset(b, 0, sizeof *b);
	b->raw = raw;
	if (size > UINT32_MAX)
		return FAIL(EINVAL, ".BTF: too large");
	b->size = (uint32_t)size;
	int r = check_header(b, size, err, errlen);
	if (!r)
		r = index_types(b, err, errlen);
	if (!r)
		r = check_types(b, err, errlen);
	return r;
}

int ior_btf_parse(struct ior_btf *b, const uint8_t *data, size_t size, char *err, size_t errlen)
{
	memset(b, 0, sizeof *b);
	if (size > UINT32_MAX)
		return FAIL(EINVAL, ".BTF: too large");
	uint8_t *raw = malloc(size ? size : 1);
	if (!raw)
		return FAIL(ENOMEM, ".BTF: out of memory");
	if (size)
		memcpy(raw, data, size);
	return ior_btf_adopt(b, raw, size, err, errlen);
}

void ior_btf_free(struct ior_btf *b)
{
	free(b->raw);
	free(b->type_at);
	memset(b, 0, sizeof *b);
}

uint32_t ior_btf_find(const struct ior_btf *b, unsigned kind, const char *name)
{
	for (uint32_t id = 1; id < b->ntypes; id++) {
		const struct btf_type *t = ior_btf_type(b, id);
		if (BTF_INFO_KIND(t->info) == kind && !strcmp(ior_btf_name(b, t->name_off), name))
			return id;
	}
	return 0;
}

uint32_t ior_btf_resolve(const struct ior_btf *b, uint32_t id)
{
	for (int i = 0; i < MAX_CHAIN; i++) {
		const struct btf_type *t = ior_btf_type(b, id);
		if (!t)
			return 0;
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		default:
			return id;
		}
	}
	return 0;
}

static int64_t size_of(const struct ior_btf *b, uint32_t id, int depth)
{
	id = ior_btf_resolve(b, id);
	const struct btf_type *t = ior_btf_type(b, id);
	if (!t || depth > MAX_CHAIN)
		return -EINVAL;
	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT: case BTF_KIND_ENUM: case BTF_KIND_STRUCT: case BTF_KIND_UNION:
	case BTF_KIND_DATASEC: case BTF_KIND_FLOAT: case BTF_KIND_ENUM64:
		return t->size;
	case BTF_KIND_PTR:
		return 8;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = (const void *)(t + 1);
		int64_t elem = size_of(b, a->type, depth + 1);
		if (elem < 0 || (elem && a->nelems > UINT32_MAX / elem))
			return -EINVAL;
		return elem * a->nelems;
	}
	default:
		return -EINVAL;
	}
}

int64_t ior_btf_sizeof(const struct ior_btf *b, uint32_t id)
{
	return size_of(b, id, 0);
}

/* st_value of the symbol called name defined in section sec, or -1. */
static int64_t sym_value(const struct ior_elf *e, unsigned sec, const char *name)
{
	for (size_t i = 1; i < e->nsyms; i++) {
		Elf64_Sym s;
		const char *n;
		if (ior_elf_sym(e, i, &s, &n) || !n || s.st_shndx != sec || strcmp(n, name))
			continue;
		return s.st_value <= UINT32_MAX ? (int64_t)s.st_value : -1;
	}
	return -1;
}

static void sort_secinfo(struct btf_var_secinfo *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		struct btf_var_secinfo x = v[i];
		unsigned j = i;
		for (; j > 0 && v[j - 1].offset > x.offset; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static int fix_datasec(struct ior_btf *b, struct btf_type *t, const struct ior_elf *e,
		       char *err, size_t errlen)
{
	const char *name = ior_btf_name(b, t->name_off);
	unsigned sec = ior_elf_sec_by_name(e, name);
	if (!sec)
		return 0; /* e.g. .kconfig: left for the kernel to judge */
	if (e->secs[sec].size > UINT32_MAX)
		return FAIL(EINVAL, ".BTF: section '%s' too large", name);
	t->size = (uint32_t)e->secs[sec].size;
	struct btf_var_secinfo *v = (struct btf_var_secinfo *)(t + 1);
	unsigned n = BTF_INFO_VLEN(t->info);
	for (unsigned i = 0; i < n; i++) {
		const struct btf_type *var = ior_btf_type(b, v[i].type);
		if (!var || BTF_INFO_KIND(var->info) != BTF_KIND_VAR)
			return FAIL(EINVAL, ".BTF: DATASEC '%s' entry %u is not a variable", name, i);
		int64_t off = sym_value(e, sec, ior_btf_name(b, var->name_off));
		if (off >= 0)
			v[i].offset = (uint32_t)off;
	}
	sort_secinfo(v, n);
	return 0;
}

static uint32_t find_int(const struct ior_btf *b)
{
	for (uint32_t id = 1; id < b->ntypes; id++) {
		const struct btf_type *t = ior_btf_type(b, id);
		if (BTF_INFO_KIND(t->info) == BTF_KIND_INT && t->size == 4)
			return id;
	}
	return 0;
}

/* Whether t is a DATASEC of extern functions only (.ksyms: the kernel
 * functions the programs call). */
static bool is_kfunc_datasec(const struct ior_btf *b, const struct btf_type *t)
{
	const struct btf_var_secinfo *v = (const struct btf_var_secinfo *)(t + 1);
	unsigned n = BTF_INFO_VLEN(t->info);

	for (unsigned i = 0; i < n; i++) {
		const struct btf_type *f = ior_btf_type(b, v[i].type);
		if (!f || BTF_INFO_KIND(f->info) != BTF_KIND_FUNC)
			return false;
	}
	return n > 0;
}

/* The kernel accepts neither an extern FUNC nor a DATASEC of functions:
 * in the copy it loads, the DATASEC becomes an anonymous union of ints
 * (same size in the file) and each extern FUNC a TYPEDEF of its
 * prototype. The programs' calls are resolved by name, not by these. */
#define TYPE_INFO(kind, vlen) ((uint32_t)(kind) << 24 | (vlen))

static void fix_kfuncs(struct ior_btf *b)
{
	uint32_t int_id = find_int(b);

	for (uint32_t id = 1; int_id && id < b->ntypes; id++) {
		struct btf_type *t = type_mut(b, id);
		if (BTF_INFO_KIND(t->info) != BTF_KIND_DATASEC || !is_kfunc_datasec(b, t))
			continue;
		struct btf_member *m = (struct btf_member *)(t + 1);
		unsigned n = BTF_INFO_VLEN(t->info);
		for (unsigned i = 0; i < n; i++)
			m[i] = (struct btf_member){ .name_off = 0, .type = int_id, .offset = 0 };
		t->name_off = 0;
		t->info = TYPE_INFO(BTF_KIND_UNION, n);
		t->size = 4;
	}
	for (uint32_t id = 1; int_id && id < b->ntypes; id++) {
		struct btf_type *t = type_mut(b, id);
		if (BTF_INFO_KIND(t->info) == BTF_KIND_FUNC && BTF_INFO_VLEN(t->info) == BTF_FUNC_EXTERN)
			t->info = TYPE_INFO(BTF_KIND_TYPEDEF, 0);
	}
}

int ior_btf_fixup(struct ior_btf *b, const struct ior_elf *e, char *err, size_t errlen)
{
	for (uint32_t id = 1; id < b->ntypes; id++) {
		struct btf_type *t = type_mut(b, id);
		if (BTF_INFO_KIND(t->info) != BTF_KIND_DATASEC)
			continue;
		int r = fix_datasec(b, t, e, err, errlen);
		if (r)
			return r;
	}
	fix_kfuncs(b);
	return 0;
}

/* ---- .BTF.ext ------------------------------------------------------------ */

struct ext_header {
	uint16_t magic;
	uint8_t version, flags;
	uint32_t hdr_len;
	uint32_t func_info_off, func_info_len, line_info_off, line_info_len;
};

/* One info block: rec_size, then {sec_name_off, num_info, records}... */
static int parse_info(struct ior_btf_ext *x, const struct ior_btf *b, uint32_t off, uint32_t len,
		      uint32_t min_rec, const char *what, uint32_t *rec_size,
		      struct ior_btf_ext_sec **out, unsigned *nout, char *err, size_t errlen)
{
	if (!len)
		return 0;
	if (off % 4 || len < 4)
		return FAIL(EINVAL, ".BTF.ext: %s at offset %u length %u misaligned or short", what,
			    off, len);
	const uint8_t *p = x->raw + off, *end = p + len;
	memcpy(rec_size, p, 4);
	if (*rec_size < min_rec || *rec_size % 4 || *rec_size > 1024)
		return FAIL(EINVAL, ".BTF.ext: %s record size %u", what, *rec_size);
	p += 4;
	while (p < end) {
		uint32_t hdr[2];
		if ((size_t)(end - p) < sizeof hdr)
			return FAIL(EINVAL, ".BTF.ext: %s section header truncated", what);
		memcpy(hdr, p, sizeof hdr);
		p += sizeof hdr;
		const char *name = ior_btf_name(b, hdr[0]);
		if (!name || !*name || !hdr[1])
			return FAIL(EINVAL, ".BTF.ext: %s: bad section name offset %u or count %u",
				    what, hdr[0], hdr[1]);
		if ((uint64_t)hdr[1] * *rec_size > (uint64_t)(end - p))
			return FAIL(EINVAL, ".BTF.ext: %s for '%s': %u records overrun", what, name,
				    hdr[1]);
		struct ior_btf_ext_sec *n = realloc(*out, (*nout + 1) * sizeof *n);
		if (!n)
			return FAIL(ENOMEM, ".BTF.ext: out of memory");
		*out = n;
		n[(*nout)++] = (struct ior_btf_ext_sec){ name, p, hdr[1] };
		p += (uint64_t)hdr[1] * *rec_size;
	}
	return 0;
}

int ior_btf_ext_parse(struct ior_btf_ext *x, const struct ior_btf *b, const uint8_t *data,
		      size_t size, char *err, size_t errlen)
{
	struct ext_header h;
	memset(x, 0, sizeof *x);
	if (size < sizeof h)
		return FAIL(EINVAL, ".BTF.ext: truncated header (%zu bytes)", size);
	memcpy(&h, data, sizeof h);
	if (h.magic != BTF_MAGIC_NR || h.version != 1)
		return FAIL(EINVAL, ".BTF.ext: bad magic 0x%x or version %u", h.magic, h.version);
	if (h.hdr_len < sizeof h || h.hdr_len > size || h.hdr_len % 4)
		return FAIL(EINVAL, ".BTF.ext: bad header length %u", h.hdr_len);
	uint64_t body = size - h.hdr_len;
	if (!in_bounds(h.func_info_off, h.func_info_len, body) ||
	    !in_bounds(h.line_info_off, h.line_info_len, body))
		return FAIL(EINVAL, ".BTF.ext: func_info or line_info out of range");
	x->raw = malloc(body ? body : 1);
	if (!x->raw)
		return FAIL(ENOMEM, ".BTF.ext: out of memory");
	memcpy(x->raw, data + h.hdr_len, body);
	int r = parse_info(x, b, h.func_info_off, h.func_info_len, sizeof(struct bpf_func_info),
			   "func_info", &x->func_rec_size, &x->func, &x->nfunc, err, errlen);
	if (!r)
		r = parse_info(x, b, h.line_info_off, h.line_info_len, sizeof(struct bpf_line_info),
			       "line_info", &x->line_rec_size, &x->line, &x->nline, err, errlen);
	return r;
}

void ior_btf_ext_free(struct ior_btf_ext *x)
{
	free(x->raw);
	free(x->func);
	free(x->line);
	memset(x, 0, sizeof *x);
}
