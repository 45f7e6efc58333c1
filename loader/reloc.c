/* Relocation and linking: each program's instructions with their map
 * references, calls into .text and func/line info resolved, ready for
 * BPF_PROG_LOAD. Pure: nothing here touches the kernel. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/btf.h>

#include "loader/internal.h"
#include "mem/grow.h"

#define MAX_INSNS (1u << 20) /* the verifier's own limit */

/* BPF relocation types (not in every libc's elf.h). */
#ifndef R_BPF_NONE
#define R_BPF_NONE 0
#endif
#ifndef R_BPF_64_64
#define R_BPF_64_64 1
#endif
#ifndef R_BPF_64_32
#define R_BPF_64_32 10
#endif

/* ---- relocation ----------------------------------------------------------- *
 * A program is built from segments: its own function, then each .text
 * function it calls (transitively), appended once. Each segment brings its
 * relocations and its func/line info, rebased to the segment's position. */

struct segment {
	unsigned sec;
	uint64_t sec_off, size; /* bytes in sec */
	uint32_t base;          /* first instruction in the program */
};

/* A call whose target came from an R_BPF_64_32 relocation. */
struct call_target {
	uint32_t insn;
	uint64_t text_off;
};

struct builder {
	struct ior_bpf_obj *o;
	struct ior_loader_prog *p;
	struct segment *segs;
	unsigned nsegs;
	struct call_target *calls;
	unsigned ncalls;
	uint32_t cap_insns, cap_relocs, cap_func, cap_line, cap_calls;
	char *err;
	size_t errlen;
};

#define BFAIL(bd, e, fmt, ...) \
	ior_loader_fail((bd)->err, (bd)->errlen, e, "prog '%s': " fmt, (bd)->p->name, ##__VA_ARGS__)

/* The counts are uint32_t: bounded well below their overflow. */
static int grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	size_t c = *cap;
	int r = need > UINT32_MAX / 2 ? -ENOMEM : ior_grow(arr, &c, need, elem, 16);

	*cap = (uint32_t)c;
	return r;
}

static int add_reloc(struct builder *bd, uint32_t insn, uint32_t map, enum reloc_kind kind,
		     const char *kfunc)
{
	struct ior_loader_prog *p = bd->p;
	if (grow((void **)&p->relocs, &bd->cap_relocs, p->nrelocs + 1, sizeof *p->relocs))
		return BFAIL(bd, ENOMEM, "out of memory");
	p->relocs[p->nrelocs++] = (struct ior_loader_reloc){ insn, map, kind, kfunc };
	return 0;
}

static int reloc_ld64(struct builder *bd, uint32_t idx, uint32_t end, const Elf64_Sym *sym,
		      const char *name)
{
	struct bpf_insn *in = &bd->p->insns[idx];
	if (in->code != (BPF_LD | BPF_IMM | BPF_DW) || idx + 1 >= end)
		return BFAIL(bd, EINVAL, "relocation of '%s' at insn %u: not a 64-bit load", name,
			     idx);
	const struct ior_elf *e = &bd->o->elf;
	unsigned sec = sym->st_shndx;
	if (sec == SHN_UNDEF)
		return BFAIL(bd, ENOTSUP, "extern '%s' is not supported", name);
	if (sec >= e->nsecs)
		return BFAIL(bd, EINVAL, "relocation of '%s': bad section index %u", name, sec);
	int64_t off = (int64_t)sym->st_value + in->imm;
	if (!strcmp(e->secs[sec].name, ".maps")) {
		int m = ior_loader_find_map(bd->o, MAP_DEF, sec, (uint64_t)off);
		if (m < 0)
			return BFAIL(bd, EINVAL, "relocation of '%s': no map at .maps+%lld", name,
				     (long long)off);
		in->src_reg = BPF_PSEUDO_MAP_FD;
		in->imm = 0;
		return add_reloc(bd, idx, (uint32_t)m, RELOC_MAP_FD, NULL);
	}
	int m = ior_loader_find_map(bd->o, MAP_DATA, sec, 0);
	if (m < 0)
		return BFAIL(bd, EINVAL, "relocation of '%s' into section '%s': not a map or global "
			     "data", name, e->secs[sec].name);
	if (off < 0 || (uint64_t)off >= e->secs[sec].size)
		return BFAIL(bd, EINVAL, "relocation of '%s': offset %lld outside '%s'", name,
			     (long long)off, e->secs[sec].name);
	in->src_reg = BPF_PSEUDO_MAP_VALUE;
	in->imm = 0;
	in[1].imm = (int32_t)off;
	return add_reloc(bd, idx, (uint32_t)m, RELOC_MAP_VALUE, NULL);
}

/* A call to an extern function: a kernel function (kfunc), its id in the
 * kernel's BTF filled in at load. */
static int reloc_kfunc(struct builder *bd, uint32_t idx, const Elf64_Sym *sym, const char *name)
{
	unsigned bind = ELF64_ST_BIND(sym->st_info);
	if ((bind != STB_GLOBAL && bind != STB_WEAK) || !*name || strlen(name) > 127)
		return BFAIL(bd, EINVAL, "call at insn %u: extern symbol '%.64s' is not a global function",
			     idx, name);
	bd->p->insns[idx].src_reg = BPF_PSEUDO_KFUNC_CALL;
	bd->p->insns[idx].imm = 0;
	return add_reloc(bd, idx, 0, RELOC_KFUNC, name);
}

static int reloc_call(struct builder *bd, uint32_t idx, const Elf64_Sym *sym, const char *name)
{
	const struct bpf_insn *in = &bd->p->insns[idx];
	if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != BPF_PSEUDO_CALL)
		return BFAIL(bd, EINVAL, "call relocation of '%s' at insn %u: not a BPF call", name,
			     idx);
	const struct ior_elf *e = &bd->o->elf;
	if (sym->st_shndx == SHN_UNDEF)
		return reloc_kfunc(bd, idx, sym, name);
	if (sym->st_shndx >= e->nsecs || strcmp(e->secs[sym->st_shndx].name, ".text"))
		return BFAIL(bd, ENOTSUP, "call to '%s' outside .text is not supported", name);
	int64_t off = (int64_t)sym->st_value + ((int64_t)in->imm + 1) * IOR_INSN_SZ;
	if (sym->st_value % IOR_INSN_SZ || off < 0)
		return BFAIL(bd, EINVAL, "call to '%s': bad offset", name);
	if (grow((void **)&bd->calls, &bd->cap_calls, bd->ncalls + 1, sizeof *bd->calls))
		return BFAIL(bd, ENOMEM, "out of memory");
	bd->calls[bd->ncalls++] = (struct call_target){ idx, (uint64_t)off };
	return 0;
}

static unsigned rel_section(const struct ior_elf *e, unsigned sec)
{
	for (unsigned i = 1; i < e->nsecs; i++)
		if (e->secs[i].type == SHT_REL && e->secs[i].info == sec)
			return i;
	return 0;
}

static int apply_rel(struct builder *bd, const struct segment *sg, const Elf64_Rel *r)
{
	const struct ior_elf *e = &bd->o->elf;
	if (r->r_offset % IOR_INSN_SZ || r->r_offset >= e->secs[sg->sec].size)
		return BFAIL(bd, EINVAL, "relocation at offset %llu outside section '%s'",
			     (unsigned long long)r->r_offset, e->secs[sg->sec].name);
	if (r->r_offset < sg->sec_off || r->r_offset - sg->sec_off >= sg->size)
		return 0; /* another function in the same section */
	uint32_t idx = sg->base + (uint32_t)((r->r_offset - sg->sec_off) / IOR_INSN_SZ);
	Elf64_Sym sym;
	const char *name;
	size_t si = ELF64_R_SYM(r->r_info);
	if (si == 0 || ior_elf_sym(e, si, &sym, &name))
		return BFAIL(bd, EINVAL, "relocation at insn %u: bad symbol index %zu", idx, si);
	if (!name)
		return BFAIL(bd, EINVAL, "relocation at insn %u: symbol %zu has a bad name", idx, si);
	switch (ELF64_R_TYPE(r->r_info)) {
	case R_BPF_64_64:
		return reloc_ld64(bd, idx, sg->base + (uint32_t)(sg->size / IOR_INSN_SZ), &sym, name);
	case R_BPF_64_32:
		return reloc_call(bd, idx, &sym, name);
	case R_BPF_NONE:
		return 0;
	default:
		return BFAIL(bd, ENOTSUP, "relocation type %u of '%s' is not supported",
			     (unsigned)ELF64_R_TYPE(r->r_info), name);
	}
}

static int relocate_segment(struct builder *bd, const struct segment *sg)
{
	const struct ior_elf *e = &bd->o->elf;
	unsigned rs = rel_section(e, sg->sec);
	if (!rs)
		return 0;
	const struct ior_elf_sec *s = &e->secs[rs];
	if (s->entsize != sizeof(Elf64_Rel) || s->size % sizeof(Elf64_Rel) || !s->data ||
	    s->link != e->symtab)
		return BFAIL(bd, EINVAL, "relocation section '%s' is malformed", s->name);
	for (uint64_t off = 0; off < s->size; off += sizeof(Elf64_Rel)) {
		Elf64_Rel r;
		memcpy(&r, s->data + off, sizeof r);
		int err = apply_rel(bd, sg, &r);
		if (err)
			return err;
	}
	return 0;
}

/* Copies this segment's func_info and line_info, rebased to instructions. */
static int add_btf_ext(struct builder *bd, const struct segment *sg)
{
	const struct ior_btf_ext *x = &bd->o->ext;
	const char *sec = bd->o->elf.secs[sg->sec].name;
	struct ior_loader_prog *p = bd->p;
	for (int kind = 0; kind < 2; kind++) {
		const struct ior_btf_ext_sec *es = kind ? x->line : x->func;
		unsigned n = kind ? x->nline : x->nfunc;
		uint32_t rec = kind ? x->line_rec_size : x->func_rec_size;
		for (unsigned i = 0; i < n; i++) {
			if (strcmp(es[i].sec_name, sec))
				continue;
			for (uint32_t j = 0; j < es[i].num; j++) {
				struct bpf_line_info li; /* func_info is its first 8 bytes' shape */
				memset(&li, 0, sizeof li);
				memcpy(&li, es[i].recs + (size_t)j * rec, kind ? sizeof li : 8);
				if (li.insn_off % IOR_INSN_SZ)
					return BFAIL(bd, EINVAL, ".BTF.ext: insn_off %u misaligned",
						     li.insn_off);
				if (li.insn_off < sg->sec_off || li.insn_off - sg->sec_off >= sg->size)
					continue;
				uint32_t at = sg->base + (uint32_t)((li.insn_off - sg->sec_off) / 8);
				if (kind) {
					if (grow((void **)&p->line_info, &bd->cap_line, p->nline + 1,
						 sizeof li))
						return BFAIL(bd, ENOMEM, "out of memory");
					li.insn_off = at;
					p->line_info[p->nline++] = li;
				} else {
					if (grow((void **)&p->func_info, &bd->cap_func, p->nfunc + 1,
						 sizeof *p->func_info))
						return BFAIL(bd, ENOMEM, "out of memory");
					p->func_info[p->nfunc++] =
						(struct bpf_func_info){ at, li.file_name_off };
				}
			}
		}
	}
	return 0;
}

static int append_segment(struct builder *bd, unsigned sec, uint64_t off, uint64_t size)
{
	struct ior_loader_prog *p = bd->p;
	uint64_t n = size / IOR_INSN_SZ;
	if (!bd->o->elf.secs[sec].data) /* SHT_NOBITS: no instructions in the file */
		return BFAIL(bd, EINVAL, "section %u holds code but has no contents", sec);
	if (p->ninsns + n > MAX_INSNS)
		return BFAIL(bd, E2BIG, "more than %u instructions", MAX_INSNS);
	if (grow((void **)&p->insns, &bd->cap_insns, p->ninsns + (uint32_t)n, sizeof *p->insns))
		return BFAIL(bd, ENOMEM, "out of memory");
	struct segment *s = realloc(bd->segs, (bd->nsegs + 1) * sizeof *s);
	if (!s)
		return BFAIL(bd, ENOMEM, "out of memory");
	bd->segs = s;
	bd->segs[bd->nsegs++] = (struct segment){ sec, off, size, p->ninsns };
	memcpy(p->insns + p->ninsns, bd->o->elf.secs[sec].data + off, size);
	p->ninsns += (uint32_t)n;
	return 0;
}

/* The .text function starting at off, appended if it is not yet. */
static int text_func(struct builder *bd, unsigned text, uint64_t off, uint32_t *base)
{
	for (unsigned i = 0; i < bd->nsegs; i++) {
		const struct segment *s = &bd->segs[i];
		if (s->sec == text && off >= s->sec_off && off - s->sec_off < s->size) {
			*base = s->base + (uint32_t)((off - s->sec_off) / IOR_INSN_SZ);
			return 0;
		}
	}
	const struct ior_elf *e = &bd->o->elf;
	for (size_t i = 1; i < e->nsyms; i++) {
		Elf64_Sym s;
		if (ior_elf_sym(e, i, &s, NULL) || s.st_shndx != text ||
		    ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_value != off)
			continue;
		if (!s.st_size || s.st_size % IOR_INSN_SZ || s.st_size > e->secs[text].size - off)
			return BFAIL(bd, EINVAL, ".text function at %llu has a bad size",
				     (unsigned long long)off);
		*base = bd->p->ninsns;
		return append_segment(bd, text, off, s.st_size);
	}
	return BFAIL(bd, EINVAL, "call into .text+%llu: no function starts there",
		     (unsigned long long)off);
}

static const struct call_target *reloc_call_at(const struct builder *bd, uint32_t insn)
{
	for (unsigned i = 0; i < bd->ncalls; i++)
		if (bd->calls[i].insn == insn)
			return &bd->calls[i];
	return NULL;
}

/* Points every BPF-to-BPF call of segment sg at its (appended) callee. */
static int link_calls(struct builder *bd, unsigned sgi)
{
	struct segment sg = bd->segs[sgi];
	const struct ior_elf *e = &bd->o->elf;
	unsigned text = ior_elf_sec_by_name(e, ".text");
	for (uint32_t i = sg.base; i < sg.base + sg.size / IOR_INSN_SZ; i++) {
		struct bpf_insn *in = &bd->p->insns[i];
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW) && in->src_reg == BPF_PSEUDO_FUNC)
			return BFAIL(bd, ENOTSUP, "function pointers (insn %u) are not supported", i);
		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != BPF_PSEUDO_CALL)
			continue;
		const struct call_target *ct = reloc_call_at(bd, i);
		int64_t off = ct ? (int64_t)ct->text_off
				 : (int64_t)sg.sec_off + ((int64_t)(i - sg.base) + in->imm + 1) * 8;
		unsigned sec = ct ? text : sg.sec;
		uint32_t target = 0;
		if (!ct && off >= (int64_t)sg.sec_off && off < (int64_t)(sg.sec_off + sg.size))
			continue; /* within this function: already relative */
		if (!text || sec != text || off < 0 || (uint64_t)off >= e->secs[text].size)
			return BFAIL(bd, EINVAL, "call at insn %u targets no .text function", i);
		int r = text_func(bd, text, (uint64_t)off, &target);
		if (r)
			return r;
		in = &bd->p->insns[i]; /* insns may have moved */
		in->imm = (int32_t)target - (int32_t)i - 1;
	}
	return 0;
}

static int build_prog(struct ior_bpf_obj *o, struct ior_loader_prog *p, char *err, size_t errlen)
{
	struct builder bd = { .o = o, .p = p, .err = err, .errlen = errlen };
	int r = append_segment(&bd, p->sec, p->sec_off, p->size);
	for (unsigned i = 0; !r && i < bd.nsegs; i++) {
		bd.ncalls = 0;
		r = relocate_segment(&bd, &bd.segs[i]);
		if (!r && o->has_btf_ext)
			r = add_btf_ext(&bd, &bd.segs[i]);
		if (!r)
			r = link_calls(&bd, i);
	}
	free(bd.segs);
	free(bd.calls);
	return r;
}

int ior_loader_relocate_progs(struct ior_bpf_obj *o, char *err, size_t errlen)
{
	for (unsigned i = 0; i < o->nprogs; i++) {
		int r = build_prog(o, &o->progs[i], err, errlen);
		if (r)
			return r;
	}
	return 0;
}
