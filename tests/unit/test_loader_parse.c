/* The loader's parser and relocation step on real compiled objects: ior's
 * build/bpf.o and the committed tests/unit/bpf/ objects. No root needed. */
#include <linux/btf.h>

#include "t.h"
#include "loader_util.h"
#include "bpf/event.h"

static struct ior_bpf_obj *open_path(const char *path)
{
	struct blob b = read_blob(path);
	struct ior_bpf_obj *o = NULL;
	char err[512] = "";
	int r = ior_loader_open(b.data, b.size, &o, err, sizeof err);
	free(b.data); /* the object must keep its own copy */
	if (r)
		printf("      open %s: %s\n", path, err);
	return o;
}

static const struct ior_loader_prog *prog_named(const struct ior_bpf_obj *o, const char *name)
{
	for (unsigned i = 0; i < o->nprogs; i++)
		if (!strcmp(o->progs[i].name, name))
			return &o->progs[i];
	return NULL;
}

static const struct ior_loader_map *map_named(const struct ior_bpf_obj *o, const char *name)
{
	for (unsigned i = 0; i < o->nmaps; i++)
		if (!strcmp(o->maps[i].name, name))
			return &o->maps[i];
	return NULL;
}

static int64_t sym_value(const struct ior_bpf_obj *o, const char *name)
{
	for (size_t i = 1; i < o->elf.nsyms; i++) {
		Elf64_Sym s;
		const char *n;
		if (!ior_elf_sym(&o->elf, i, &s, &n) && n && !strcmp(n, name))
			return (int64_t)s.st_value;
	}
	return -1;
}

/* Number of R_BPF_64_64 entries the ELF has for prog's section. */
static unsigned elf_ld64_relocs(const struct ior_bpf_obj *o, unsigned sec)
{
	unsigned n = 0;
	for (unsigned i = 1; i < o->elf.nsecs; i++) {
		const struct ior_elf_sec *s = &o->elf.secs[i];
		if (s->type != SHT_REL || s->info != sec)
			continue;
		for (uint64_t off = 0; off < s->size; off += sizeof(Elf64_Rel)) {
			Elf64_Rel r;
			memcpy(&r, s->data + off, sizeof r);
			n += ELF64_R_TYPE(r.r_info) == 1;
		}
	}
	return n;
}

TEST(real_object_programs)
{
	struct ior_bpf_obj *o = open_path(IOR_BPF_OBJ);
	CHECK(o);
	if (!o)
		return;
	CHECK_EQ_STR(ior_loader_license(o), "GPL");
	const struct ior_loader_prog *e = prog_named(o, "ior_enter");
	const struct ior_loader_prog *x = prog_named(o, "ior_exit");
	CHECK(e && x && prog_named(o, "ior_task_exit"));
	if (e && x) {
		CHECK_EQ_STR(e->sec_name, "tracepoint/syscalls/sys_enter");
		CHECK_EQ_INT(e->type, BPF_PROG_TYPE_TRACEPOINT);
		CHECK_EQ_INT(e->ninsns, e->size / 8);
		CHECK(e->nfunc >= 1 && e->func_info[0].insn_off == 0);
		CHECK(e->nline > 10 && e->line_info[0].insn_off == 0);
		for (uint32_t i = 1; i < e->nline; i++)
			CHECK(e->line_info[i].insn_off >= e->line_info[i - 1].insn_off &&
			      e->line_info[i].insn_off < e->ninsns);
	}
	CHECK_EQ_INT(ior_loader_prog_fd(o, "ior_enter"), -EBADF);
	CHECK_EQ_INT(ior_loader_prog_fd(o, "nope"), -ENOENT);
	ior_loader_close(o);
}

TEST(real_object_maps)
{
	struct ior_bpf_obj *o = open_path(IOR_BPF_OBJ);
	if (!o) {
		CHECK(o);
		return;
	}
	struct ior_loader_map_info mi;
	CHECK_EQ_INT(ior_loader_map_info(o, "events", &mi), 0);
	CHECK_EQ_INT(mi.type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	CHECK(mi.key_size == 4 && mi.value_size == 4);
	CHECK_EQ_INT(ior_loader_map_info(o, "sys_conf", &mi), 0);
	CHECK_EQ_INT(mi.type, BPF_MAP_TYPE_ARRAY);
	CHECK_EQ_INT(mi.key_size, 4);
	CHECK_EQ_INT(mi.value_size, sizeof(struct ior_sys_conf));
	CHECK_EQ_INT(mi.max_entries, IOR_NR_MAX);
	const struct ior_loader_map *ro = map_named(o, ".rodata");
	CHECK(ro);
	if (ro) {
		CHECK_EQ_INT(ro->flags, BPF_F_RDONLY_PROG);
		CHECK(ro->rodata && ro->max_entries == 1 && ro->btf_value_id);
		CHECK_EQ_INT(ro->value_size, o->elf.secs[ro->sec].size);
	}
	const struct ior_loader_map *sc = map_named(o, "sys_conf");
	CHECK(sc && sc->btf_key_id && sc->btf_value_id);
	CHECK_EQ_INT(ior_loader_map_fd(o, "events"), -EBADF);
	ior_loader_close(o);
}

/* Every ld_imm64 the ELF relocates became a map reference, with the
 * variable's offset in the second half for global data. */
TEST(real_object_relocations)
{
	struct ior_bpf_obj *o = open_path(IOR_BPF_OBJ);
	if (!o) {
		CHECK(o);
		return;
	}
	unsigned kfuncs = 0;
	for (unsigned i = 0; i < o->nprogs; i++) {
		const struct ior_loader_prog *p = &o->progs[i];
		uint32_t ld64 = 0;
		for (uint32_t j = 0; j < p->nrelocs; j++)
			ld64 += p->relocs[j].kind != RELOC_KFUNC;
		CHECK_EQ_INT(ld64, elf_ld64_relocs(o, p->sec));
		for (uint32_t j = 0; j < p->nrelocs; j++) {
			const struct ior_loader_reloc *r = &p->relocs[j];
			const struct bpf_insn *in = &p->insns[r->insn];
			if (r->kind == RELOC_KFUNC) { /* bpf_rdonly_cast, in ior_btf_exit */
				CHECK(!strcmp(r->kfunc, "bpf_rdonly_cast") && in->code == (BPF_JMP | BPF_CALL) &&
				      in->src_reg == BPF_PSEUDO_KFUNC_CALL && !strcmp(p->name, "ior_btf_exit"));
				kfuncs++;
				continue;
			}
			CHECK(r->insn + 1 < p->ninsns && r->map < o->nmaps);
			CHECK_EQ_INT(in->code, BPF_LD | BPF_IMM | BPF_DW);
			if (r->kind == RELOC_MAP_FD) {
				CHECK_EQ_INT(in->src_reg, BPF_PSEUDO_MAP_FD);
				CHECK_EQ_INT(o->maps[r->map].kind, MAP_DEF);
			} else {
				CHECK_EQ_INT(in->src_reg, BPF_PSEUDO_MAP_VALUE);
				CHECK((uint32_t)in[1].imm < o->maps[r->map].value_size);
			}
		}
	}
	CHECK_EQ_INT(kfuncs, 1);
	/* filter_pid sits at its symbol's offset in .rodata */
	const struct ior_loader_prog *e = prog_named(o, "ior_enter");
	int64_t want = sym_value(o, "filter_pid");
	int found = 0;
	for (uint32_t j = 0; e && j < e->nrelocs; j++) {
		const struct ior_loader_reloc *r = &e->relocs[j];
		if (r->kind == RELOC_MAP_VALUE && !strcmp(o->maps[r->map].name, ".rodata") &&
		    e->insns[r->insn + 1].imm == want)
			found = 1;
	}
	CHECK(want > 0 && found);
	ior_loader_close(o);
}

/* clang leaves DATASEC sizes and VAR offsets 0; the kernel wants them. */
TEST(btf_datasec_fixed_up)
{
	struct ior_bpf_obj *o = open_path(IOR_BPF_OBJ);
	if (!o) {
		CHECK(o);
		return;
	}
	uint32_t id = ior_btf_find(&o->btf, BTF_KIND_DATASEC, ".rodata");
	const struct btf_type *t = ior_btf_type(&o->btf, id);
	CHECK(t);
	if (t) {
		CHECK_EQ_INT(t->size, o->elf.secs[ior_elf_sec_by_name(&o->elf, ".rodata")].size);
		const struct btf_var_secinfo *v = (const void *)(t + 1);
		for (unsigned i = 0; i < BTF_INFO_VLEN(t->info); i++) {
			const struct btf_type *var = ior_btf_type(&o->btf, v[i].type);
			const char *name = ior_btf_name(&o->btf, var->name_off);
			CHECK_EQ_INT(v[i].offset, sym_value(o, name));
			if (i)
				CHECK(v[i].offset > v[i - 1].offset);
		}
	}
	ior_loader_close(o);
}

TEST(set_global)
{
	struct ior_bpf_obj *o = open_path(IOR_BPF_OBJ);
	if (!o) {
		CHECK(o);
		return;
	}
	char err[256];
	int64_t pid = 4242;
	CHECK_EQ_INT(ior_loader_set_global(o, "filter_pid", &pid, sizeof pid, err, sizeof err), 0);
	const struct ior_loader_map *ro = map_named(o, ".rodata");
	int64_t got = 0;
	memcpy(&got, ro->data + sym_value(o, "filter_pid"), sizeof got);
	CHECK_EQ_INT(got, 4242);
	uint32_t small = 1;
	CHECK_EQ_INT(ior_loader_set_global(o, "filter_pid", &small, sizeof small, err, sizeof err),
		     -EINVAL);
	CHECK(strstr(err, "filter_pid") && strstr(err, "size"));
	CHECK_EQ_INT(ior_loader_set_global(o, "no_such", &small, sizeof small, err, sizeof err),
		     -ENOENT);
	CHECK(strstr(err, "no_such"));
	ior_loader_close(o);
}

/* features.elf: .text subprograms appended (transitively, once), calls
 * re-pointed, func_info per function, static variables via section
 * symbols, two programs in one section, SEC("tp/..."). */
TEST(subprograms_appended)
{
	struct ior_bpf_obj *o = open_path(FEATURES_OBJ);
	if (!o) {
		CHECK(o);
		return;
	}
	const struct ior_loader_prog *p = prog_named(o, "on_getpid");
	CHECK(p && prog_named(o, "on_getpid2") && prog_named(o, "on_getpid_exit"));
	if (!p)
		goto out;
	CHECK(p->ninsns > p->size / 8);
	CHECK_EQ_INT(p->nfunc, 3); /* on_getpid, helper, leaf */
	for (uint32_t i = 0; i < p->nfunc; i++)
		CHECK(p->func_info[i].insn_off < p->ninsns &&
		      (i == 0 || p->func_info[i].insn_off > p->func_info[i - 1].insn_off));
	/* every pseudo call lands on a function start */
	for (uint32_t i = 0; i < p->ninsns; i++) {
		const struct bpf_insn *in = &p->insns[i];
		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != BPF_PSEUDO_CALL)
			continue;
		int64_t target = (int64_t)i + in->imm + 1;
		int starts = 0;
		for (uint32_t f = 0; f < p->nfunc; f++)
			starts += p->func_info[f].insn_off == target;
		CHECK(starts == 1);
	}
	const struct ior_loader_prog *x = prog_named(o, "on_getpid_exit");
	CHECK(x && x->nfunc == 2 && !strcmp(x->sec_name, "tp/syscalls/sys_exit_getpid"));
	const struct ior_loader_prog *p2 = prog_named(o, "on_getpid2");
	CHECK(p2 && p2->nfunc == 1 && p2->sec_off > 0);
out:
	ior_loader_close(o);
}

/* features.elf's kernel functions: each call is a kfunc call named for
 * load, and the BTF the kernel gets has no extern FUNC or .ksyms DATASEC
 * (it refuses both): a TYPEDEF and an anonymous union stand in. */
TEST(kfunc_calls_recorded)
{
	struct ior_bpf_obj *o = open_path(FEATURES_OBJ);
	if (!o) {
		CHECK(o);
		return;
	}
	const struct ior_loader_prog *p = prog_named(o, "on_getpid");
	int cast = 0, missing = 0;
	for (uint32_t j = 0; p && j < p->nrelocs; j++) {
		const struct ior_loader_reloc *r = &p->relocs[j];
		if (r->kind != RELOC_KFUNC)
			continue;
		const struct bpf_insn *in = &p->insns[r->insn];
		CHECK(in->code == (BPF_JMP | BPF_CALL) && in->src_reg == BPF_PSEUDO_KFUNC_CALL);
		cast += !strcmp(r->kfunc, "bpf_rdonly_cast");
		missing += !strcmp(r->kfunc, "ior_no_such_kfunc");
	}
	CHECK_EQ_INT(cast, 1);
	CHECK_EQ_INT(missing, 1);
	CHECK(ior_btf_find(&o->btf, BTF_KIND_TYPEDEF, "bpf_rdonly_cast"));
	CHECK(!ior_btf_find(&o->btf, BTF_KIND_FUNC, "bpf_rdonly_cast"));
	CHECK(!ior_btf_find(&o->btf, BTF_KIND_DATASEC, ".ksyms"));
	for (uint32_t id = 1; id < o->btf.ntypes; id++) {
		const struct btf_type *t = ior_btf_type(&o->btf, id);
		CHECK(BTF_INFO_KIND(t->info) != BTF_KIND_FUNC || BTF_INFO_VLEN(t->info) != BTF_FUNC_EXTERN);
	}
	ior_loader_close(o);
}

TEST(static_variables_and_data)
{
	struct ior_bpf_obj *o = open_path(FEATURES_OBJ);
	if (!o) {
		CHECK(o);
		return;
	}
	const struct ior_loader_prog *p = prog_named(o, "on_getpid");
	int64_t want_bss = sym_value(o, "static_hits"), want_data = sym_value(o, "static_data");
	int bss = 0, data = 0;
	for (uint32_t j = 0; p && j < p->nrelocs; j++) {
		const struct ior_loader_reloc *r = &p->relocs[j];
		const char *m = o->maps[r->map].name;
		int32_t off = p->insns[r->insn + 1].imm;
		bss += r->kind == RELOC_MAP_VALUE && !strcmp(m, ".bss") && off == want_bss;
		data += r->kind == RELOC_MAP_VALUE && !strcmp(m, ".data") && off == want_data;
	}
	CHECK(want_bss > 0 && bss >= 1);
	CHECK(want_data > 0 && data >= 1);
	const struct ior_loader_map *d = map_named(o, ".data");
	uint64_t counter = 0;
	if (d)
		memcpy(&counter, d->data + sym_value(o, "counter"), sizeof counter);
	CHECK_EQ_INT(counter, 3);
	struct ior_loader_map_info mi;
	CHECK_EQ_INT(ior_loader_map_info(o, "sized", &mi), 0);
	CHECK(mi.type == BPF_MAP_TYPE_HASH && mi.key_size == 4 && mi.value_size == 8 &&
	      mi.max_entries == 64);
	CHECK_EQ_INT(ior_loader_map_info(o, "typed", &mi), 0);
	CHECK(mi.value_size == 16 && mi.max_entries == 4);
	ior_loader_close(o);
}

int main(void)
{
	RUN(real_object_programs);
	RUN(real_object_maps);
	RUN(real_object_relocations);
	RUN(btf_datasec_fixed_up);
	RUN(set_global);
	RUN(subprograms_appended);
	RUN(kfunc_calls_recorded);
	RUN(static_variables_and_data);
	return t_done();
}
