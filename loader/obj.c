/* Opening an object is a chain of steps that each return 0 or a negative
 * errno: ELF → license → BTF → maps → global data → programs → relocations
 * (loader/reloc.c).
 * Loading creates what the open step described. Nothing in open touches
 * the kernel, so the parser is unit-tested and fuzzed without root. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/btf.h>

#include "loader/internal.h"

#define FAIL(e, ...) ior_loader_fail(err, errlen, e, "bpf object: " __VA_ARGS__)

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static void copy_name(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src);
}

/* ---- license and BTF ----------------------------------------------------- */

static int collect_license(struct ior_bpf_obj *o, char *err, size_t errlen)
{
	unsigned sec = ior_elf_sec_by_name(&o->elf, "license");
	if (!sec)
		return 0; /* the verifier will name the GPL-only helpers it refuses */
	const struct ior_elf_sec *s = &o->elf.secs[sec];
	if (!s->data || !memchr(s->data, '\0', s->size))
		return FAIL(EINVAL, "license section is not a NUL-terminated string");
	copy_name(o->license, sizeof o->license, (const char *)s->data);
	return 0;
}

/* A BTF message (loader/btf.c) said as the object's: "bpf object: ...". */
static int in_object(int r, char *err, size_t errlen)
{
	static const char who[] = "bpf object: ";
	size_t n = strnlen(err, errlen), w = sizeof who - 1;

	if (!r || errlen <= w)
		return r;
	if (n + w >= errlen)
		n = errlen - w - 1;
	memmove(err + w, err, n);
	memcpy(err, who, w);
	err[n + w] = 0;
	return r;
}

static int collect_btf(struct ior_bpf_obj *o, char *err, size_t errlen)
{
	unsigned sec = ior_elf_sec_by_name(&o->elf, ".BTF");
	if (!sec)
		return 0;
	const struct ior_elf_sec *s = &o->elf.secs[sec];
	int r = in_object(ior_btf_parse(&o->btf, s->data, s->data ? s->size : 0, err, errlen), err, errlen);
	if (r)
		return r;
	o->has_btf = true;
	r = in_object(ior_btf_fixup(&o->btf, &o->elf, err, errlen), err, errlen);
	if (r)
		return r;
	sec = ior_elf_sec_by_name(&o->elf, ".BTF.ext");
	if (!sec)
		return 0;
	s = &o->elf.secs[sec];
	r = in_object(ior_btf_ext_parse(&o->ext, &o->btf, s->data, s->data ? s->size : 0, err, errlen), err, errlen);
	if (!r)
		o->has_btf_ext = true;
	return r;
}

/* ---- maps ---------------------------------------------------------------- */

static struct ior_loader_map *add_map(struct ior_bpf_obj *o)
{
	struct ior_loader_map *m = realloc(o->maps, (o->nmaps + 1) * sizeof *m);
	if (!m)
		return NULL;
	o->maps = m;
	m = &o->maps[o->nmaps++];
	memset(m, 0, sizeof *m);
	m->fd = -1;
	return m;
}

static bool map_type_supported(uint32_t t)
{
	switch (t) {
	case BPF_MAP_TYPE_HASH: case BPF_MAP_TYPE_ARRAY: case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_PERCPU_HASH: case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_STACK_TRACE: case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH: case BPF_MAP_TYPE_QUEUE: case BPF_MAP_TYPE_STACK:
	case BPF_MAP_TYPE_RINGBUF: case BPF_MAP_TYPE_TASK_STORAGE:
		return true;
	default:
		return false;
	}
}

/* `int (*name)[N]` → N. */
static int int_field(const struct ior_btf *b, uint32_t type, uint32_t *val)
{
	const struct btf_type *p = ior_btf_type(b, ior_btf_resolve(b, type));
	if (!p || BTF_INFO_KIND(p->info) != BTF_KIND_PTR)
		return -EINVAL;
	const struct btf_type *a = ior_btf_type(b, ior_btf_resolve(b, p->type));
	if (!a || BTF_INFO_KIND(a->info) != BTF_KIND_ARRAY)
		return -EINVAL;
	*val = ((const struct btf_array *)(a + 1))->nelems;
	return 0;
}

/* `T *name` → sizeof(T) and T's id. */
static int type_field(const struct ior_btf *b, uint32_t type, uint32_t *size, uint32_t *id)
{
	const struct btf_type *p = ior_btf_type(b, ior_btf_resolve(b, type));
	if (!p || BTF_INFO_KIND(p->info) != BTF_KIND_PTR)
		return -EINVAL;
	int64_t sz = ior_btf_sizeof(b, p->type);
	if (sz <= 0 || sz > UINT32_MAX)
		return -EINVAL;
	*size = (uint32_t)sz;
	*id = p->type;
	return 0;
}

static int map_member(const struct ior_btf *b, struct ior_loader_map *m, const char *field,
		      uint32_t type, char *err, size_t errlen)
{
	uint32_t v = 0, size = 0, id = 0;
	int r;
	if (!strcmp(field, "key") || !strcmp(field, "value")) {
		r = type_field(b, type, &size, &id);
		if (r)
			return FAIL(EINVAL, "map '%s': field '%s' is not a pointer to a sized type",
				    m->name, field);
		bool key = field[0] == 'k';
		uint32_t *have = key ? &m->key_size : &m->value_size;
		if (*have && *have != size)
			return FAIL(EINVAL, "map '%s': %s size %u conflicts with %s_size %u", m->name,
				    field, size, field, *have);
		*have = size;
		*(key ? &m->btf_key_id : &m->btf_value_id) = id;
		return 0;
	}
	if (int_field(b, type, &v))
		return FAIL(EINVAL, "map '%s': field '%s' is not __uint(%s, N)", m->name, field,
			    field);
	if (!strcmp(field, "type"))
		m->type = v;
	else if (!strcmp(field, "max_entries"))
		m->max_entries = v;
	else if (!strcmp(field, "map_flags"))
		m->flags = v;
	else if (!strcmp(field, "key_size") || !strcmp(field, "value_size")) {
		uint32_t *have = field[0] == 'k' ? &m->key_size : &m->value_size;
		if (*have && *have != v)
			return FAIL(EINVAL, "map '%s': %s %u conflicts with its type's size %u",
				    m->name, field, v, *have);
		*have = v;
	} else if (!strcmp(field, "pinning")) {
		if (v)
			return FAIL(ENOTSUP, "map '%s': pinning is not supported", m->name);
	} else
		return FAIL(ENOTSUP, "map '%s': unknown field '%s'", m->name, field);
	return 0;
}

static int map_from_var(struct ior_bpf_obj *o, unsigned sec, const struct btf_var_secinfo *vi,
			char *err, size_t errlen)
{
	const struct ior_btf *b = &o->btf;
	const struct btf_type *var = ior_btf_type(b, vi->type);
	if (!var || BTF_INFO_KIND(var->info) != BTF_KIND_VAR)
		return FAIL(EINVAL, ".maps: entry is not a variable");
	const char *name = ior_btf_name(b, var->name_off);
	const struct btf_type *def = ior_btf_type(b, ior_btf_resolve(b, var->type));
	if (!def || BTF_INFO_KIND(def->info) != BTF_KIND_STRUCT)
		return FAIL(EINVAL, "map '%s': definition is not a struct", name);
	struct ior_loader_map *m = add_map(o);
	if (!m)
		return FAIL(ENOMEM, "out of memory");
	copy_name(m->name, sizeof m->name, name);
	m->kind = MAP_DEF;
	m->sec = sec;
	m->sec_off = UINT64_MAX;
	for (size_t i = 1; i < o->elf.nsyms; i++) {
		Elf64_Sym s;
		const char *n;
		if (!ior_elf_sym(&o->elf, i, &s, &n) && n && s.st_shndx == sec && !strcmp(n, name))
			m->sec_off = s.st_value;
	}
	if (m->sec_off == UINT64_MAX)
		return FAIL(EINVAL, "map '%s': no symbol in .maps", name);
	const struct btf_member *mb = (const struct btf_member *)(def + 1);
	for (unsigned i = 0; i < BTF_INFO_VLEN(def->info); i++) {
		int r = map_member(b, m, ior_btf_name(b, mb[i].name_off), mb[i].type, err, errlen);
		if (r)
			return r;
	}
	if (!map_type_supported(m->type))
		return FAIL(ENOTSUP, "map '%s': map type %u is not supported by ior's loader",
			    name, m->type);
	if (m->type == BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
		m->key_size = m->key_size ? m->key_size : 4;
		m->value_size = m->value_size ? m->value_size : 4;
	}
	return 0;
}

static int collect_maps(struct ior_bpf_obj *o, char *err, size_t errlen)
{
	unsigned sec = ior_elf_sec_by_name(&o->elf, ".maps");
	if (!sec)
		return 0;
	if (!o->has_btf)
		return FAIL(EINVAL, ".maps needs .BTF to describe its maps (compile with -g)");
	uint32_t id = ior_btf_find(&o->btf, BTF_KIND_DATASEC, ".maps");
	if (!id)
		return FAIL(EINVAL, ".BTF has no DATASEC '.maps'");
	const struct btf_type *ds = ior_btf_type(&o->btf, id);
	const struct btf_var_secinfo *vi = (const struct btf_var_secinfo *)(ds + 1);
	for (unsigned i = 0; i < BTF_INFO_VLEN(ds->info); i++) {
		int r = map_from_var(o, sec, &vi[i], err, errlen);
		if (r)
			return r;
	}
	return 0;
}

static bool is_data_sec(const struct ior_elf_sec *s)
{
	return (s->flags & SHF_ALLOC) && !(s->flags & SHF_EXECINSTR) && s->size &&
	       (has_prefix(s->name, ".rodata") || has_prefix(s->name, ".data") ||
		has_prefix(s->name, ".bss"));
}

static int collect_data_maps(struct ior_bpf_obj *o, char *err, size_t errlen)
{
	for (unsigned i = 1; i < o->elf.nsecs; i++) {
		const struct ior_elf_sec *s = &o->elf.secs[i];
		if (!is_data_sec(s))
			continue;
		if (s->size > UINT32_MAX / 2)
			return FAIL(EINVAL, "section '%s': too large for a map", s->name);
		struct ior_loader_map *m = add_map(o);
		if (!m)
			return FAIL(ENOMEM, "out of memory");
		copy_name(m->name, sizeof m->name, s->name);
		m->kind = MAP_DATA;
		m->sec = i;
		m->type = BPF_MAP_TYPE_ARRAY;
		m->key_size = 4;
		m->value_size = (uint32_t)s->size;
		m->max_entries = 1;
		m->rodata = has_prefix(s->name, ".rodata");
		m->flags = m->rodata ? BPF_F_RDONLY_PROG : 0;
		if (o->has_btf)
			m->btf_value_id = ior_btf_find(&o->btf, BTF_KIND_DATASEC, s->name);
		m->data = calloc(1, s->size);
		if (!m->data)
			return FAIL(ENOMEM, "out of memory");
		if (s->data)
			memcpy(m->data, s->data, s->size);
	}
	return 0;
}

/* ---- programs ------------------------------------------------------------- */

/* What a section's name says about its programs. */
struct prog_kind {
	uint32_t type, attach; /* prog type, expected_attach_type */
	const char *target;    /* tp_btf: the tracepoint, else NULL */
};

static int prog_kind_of(const char *sec, struct prog_kind *k)
{
	*k = (struct prog_kind){ 0 };
	if (has_prefix(sec, "tracepoint/") || has_prefix(sec, "tp/")) {
		k->type = BPF_PROG_TYPE_TRACEPOINT;
		return 0;
	}
	if (has_prefix(sec, "raw_tracepoint/") || has_prefix(sec, "raw_tp/")) {
		k->type = BPF_PROG_TYPE_RAW_TRACEPOINT;
		return 0;
	}
	if (has_prefix(sec, "tp_btf/") && sec[7]) {
		k->type = BPF_PROG_TYPE_TRACING;
		k->attach = BPF_TRACE_RAW_TP;
		k->target = sec + 7;
		return 0;
	}
	return -ENOTSUP;
}

static int add_prog(struct ior_bpf_obj *o, unsigned sec, const struct prog_kind *k,
		    const Elf64_Sym *s, const char *name, char *err, size_t errlen)
{
	const struct ior_elf_sec *es = &o->elf.secs[sec];
	if (s->st_value % IOR_INSN_SZ || s->st_size % IOR_INSN_SZ || !s->st_size ||
	    s->st_value > es->size || s->st_size > es->size - s->st_value)
		return FAIL(EINVAL, "prog '%s': offset %llu size %llu outside section '%s'", name,
			    (unsigned long long)s->st_value, (unsigned long long)s->st_size,
			    es->name);
	struct ior_loader_prog *p = realloc(o->progs, (o->nprogs + 1) * sizeof *p);
	if (!p)
		return FAIL(ENOMEM, "out of memory");
	o->progs = p;
	p = &o->progs[o->nprogs++];
	memset(p, 0, sizeof *p);
	copy_name(p->name, sizeof p->name, name);
	p->sec_name = es->name;
	p->sec = sec;
	p->sec_off = s->st_value;
	p->size = s->st_size;
	p->type = k->type;
	p->attach_type = k->attach;
	p->attach_target = k->target;
	p->fd = -1;
	return 0;
}

static int collect_progs_in(struct ior_bpf_obj *o, unsigned sec, char *err, size_t errlen)
{
	const struct ior_elf_sec *es = &o->elf.secs[sec];
	struct prog_kind kind;
	if (prog_kind_of(es->name, &kind))
		return FAIL(ENOTSUP, "section '%s': unsupported program type (ior loads "
			    "SEC(\"tracepoint/...\"), SEC(\"raw_tracepoint/...\") and "
			    "SEC(\"tp_btf/...\") programs)", es->name);
	if (es->size % IOR_INSN_SZ || !es->data)
		return FAIL(EINVAL, "section '%s': size %llu is not whole instructions", es->name,
			    (unsigned long long)es->size);
	unsigned before = o->nprogs;
	for (size_t i = 1; i < o->elf.nsyms; i++) {
		Elf64_Sym s;
		const char *name;
		if (ior_elf_sym(&o->elf, i, &s, &name) || s.st_shndx != sec ||
		    ELF64_ST_TYPE(s.st_info) != STT_FUNC || ELF64_ST_BIND(s.st_info) != STB_GLOBAL)
			continue;
		if (!name || !*name)
			return FAIL(EINVAL, "section '%s': program symbol %zu has a bad name", es->name,
				    i);
		int r = add_prog(o, sec, &kind, &s, name, err, errlen);
		if (r)
			return r;
	}
	if (o->nprogs == before)
		return FAIL(EINVAL, "section '%s': no program symbol", es->name);
	return 0;
}

static int collect_progs(struct ior_bpf_obj *o, char *err, size_t errlen)
{
	for (unsigned i = 1; i < o->elf.nsecs; i++) {
		const struct ior_elf_sec *s = &o->elf.secs[i];
		if (s->type != SHT_PROGBITS || !(s->flags & SHF_EXECINSTR) || !s->size ||
		    !strcmp(s->name, ".text"))
			continue;
		int r = collect_progs_in(o, i, err, errlen);
		if (r)
			return r;
	}
	return 0;
}

/* ---- open, close, lookups ------------------------------------------------- */

int ior_loader_open(const void *data, size_t size, struct ior_bpf_obj **out, char *err,
		    size_t errlen)
{
	*out = NULL;
	struct ior_bpf_obj *o = calloc(1, sizeof *o);
	if (!o || !(o->buf = malloc(size ? size : 1))) {
		free(o);
		return FAIL(ENOMEM, "out of memory");
	}
	if (size)
		memcpy(o->buf, data, size);
	o->btf_fd = -1;
	int r = ior_elf_parse(&o->elf, o->buf, size, err, errlen);
	if (!r)
		r = collect_license(o, err, errlen);
	if (!r)
		r = collect_btf(o, err, errlen);
	if (!r)
		r = collect_maps(o, err, errlen);
	if (!r)
		r = collect_data_maps(o, err, errlen);
	if (!r)
		r = collect_progs(o, err, errlen);
	if (!r)
		r = ior_loader_relocate_progs(o, err, errlen);
	if (!r && !o->nprogs)
		r = FAIL(EINVAL, "no programs");
	if (r) {
		ior_loader_close(o);
		return r;
	}
	*out = o;
	return 0;
}

void ior_loader_close(struct ior_bpf_obj *o)
{
	if (!o)
		return;
	for (unsigned i = 0; i < o->nprogs; i++) {
		if (o->progs[i].fd >= 0)
			close(o->progs[i].fd);
		free(o->progs[i].insns);
		free(o->progs[i].relocs);
		free(o->progs[i].func_info);
		free(o->progs[i].line_info);
	}
	for (unsigned i = 0; i < o->nmaps; i++) {
		if (o->maps[i].fd >= 0)
			close(o->maps[i].fd);
		free(o->maps[i].data);
	}
	if (o->btf_fd >= 0)
		close(o->btf_fd);
	free(o->progs);
	free(o->maps);
	ior_btf_ext_free(&o->ext);
	ior_btf_free(&o->btf);
	ior_btf_free(&o->kbtf);
	ior_elf_free(&o->elf);
	free(o->log);
	free(o->buf);
	free(o);
}

int ior_loader_find_map(const struct ior_bpf_obj *o, enum map_kind kind, unsigned sec, uint64_t off)
{
	for (unsigned i = 0; i < o->nmaps; i++)
		if (o->maps[i].kind == kind && o->maps[i].sec == sec &&
		    (kind == MAP_DATA || o->maps[i].sec_off == off))
			return (int)i;
	return -1;
}

/* The data map holding global variable name and its offset there. */
static int find_global(const struct ior_bpf_obj *o, const char *name, size_t size, int *map,
		       uint64_t *off, char *err, size_t errlen)
{
	for (size_t i = 1; i < o->elf.nsyms; i++) {
		Elf64_Sym s;
		const char *n;
		if (ior_elf_sym(&o->elf, i, &s, &n) || !n || strcmp(n, name) ||
		    ELF64_ST_TYPE(s.st_info) != STT_OBJECT)
			continue;
		int m = s.st_shndx < o->elf.nsecs ? ior_loader_find_map(o, MAP_DATA, s.st_shndx, 0) : -1;
		if (m < 0)
			continue;
		if (s.st_size != size)
			return ior_loader_fail(err, errlen, EINVAL,
					       "global '%s': size %zu, want %llu", name, size,
					       (unsigned long long)s.st_size);
		if (s.st_value > o->maps[m].value_size || size > o->maps[m].value_size - s.st_value)
			return ior_loader_fail(err, errlen, EINVAL,
					       "global '%s': outside its section", name);
		*map = m;
		*off = s.st_value;
		return 0;
	}
	return ior_loader_fail(err, errlen, ENOENT, "global '%s': no such variable in the object",
			       name);
}

int ior_loader_set_global(struct ior_bpf_obj *o, const char *name, const void *val, size_t size,
			  char *err, size_t errlen)
{
	uint64_t off;
	int m, r;

	if (o->loaded)
		return ior_loader_fail(err, errlen, EBUSY, "global '%s': object already loaded",
				       name);
	if ((r = find_global(o, name, size, &m, &off, err, errlen)))
		return r;
	memcpy(o->maps[m].data + off, val, size);
	return 0;
}

int ior_loader_read_global(const struct ior_bpf_obj *o, const char *name, void *val, size_t size,
			   char *err, size_t errlen)
{
	uint32_t key = 0;
	uint64_t off;
	int m, r;

	if (!o->loaded)
		return ior_loader_fail(err, errlen, EBADF, "global '%s': object not loaded", name);
	if ((r = find_global(o, name, size, &m, &off, err, errlen)))
		return r;
	const struct ior_loader_map *mp = &o->maps[m];
	char *buf = malloc(mp->value_size);
	if (!buf)
		return ior_loader_fail(err, errlen, ENOMEM, "global '%s': out of memory", name);
	r = ior_sys_map_lookup_elem(mp->fd, &key, buf);
	if (!r)
		memcpy(val, buf + off, size);
	free(buf);
	return r ? ior_loader_fail(err, errlen, -r, "global '%s': reading map '%s': %s", name,
				   mp->name, strerror(-r))
		 : 0;
}

const char *ior_loader_verifier_log(const struct ior_bpf_obj *o)
{
	return o->log;
}

int ior_loader_map_fd(const struct ior_bpf_obj *o, const char *name)
{
	for (unsigned i = 0; i < o->nmaps; i++)
		if (!strcmp(o->maps[i].name, name))
			return o->maps[i].fd >= 0 ? o->maps[i].fd : -EBADF;
	return -ENOENT;
}

int ior_loader_prog_fd(const struct ior_bpf_obj *o, const char *name)
{
	for (unsigned i = 0; i < o->nprogs; i++)
		if (!strcmp(o->progs[i].name, name))
			return o->progs[i].fd >= 0 ? o->progs[i].fd : -EBADF;
	return -ENOENT;
}

unsigned ior_loader_prog_count(const struct ior_bpf_obj *o)
{
	return o->nprogs;
}

const char *ior_loader_prog_name(const struct ior_bpf_obj *o, unsigned i)
{
	return i < o->nprogs ? o->progs[i].name : NULL;
}

const char *ior_loader_prog_section(const struct ior_bpf_obj *o, unsigned i)
{
	return i < o->nprogs ? o->progs[i].sec_name : NULL;
}

unsigned ior_loader_map_count(const struct ior_bpf_obj *o)
{
	return o->nmaps;
}

const char *ior_loader_map_name(const struct ior_bpf_obj *o, unsigned i)
{
	return i < o->nmaps ? o->maps[i].name : NULL;
}

int ior_loader_map_info(const struct ior_bpf_obj *o, const char *name,
			struct ior_loader_map_info *info)
{
	for (unsigned i = 0; i < o->nmaps; i++) {
		const struct ior_loader_map *m = &o->maps[i];
		if (strcmp(m->name, name))
			continue;
		*info = (struct ior_loader_map_info){ m->type, m->key_size, m->value_size,
						      m->max_entries, m->flags };
		return 0;
	}
	return -ENOENT;
}

const char *ior_loader_license(const struct ior_bpf_obj *o)
{
	return o->license;
}
