/* loader/ internals shared by elf.c, btf.c, obj.c, sys.c and attach.c.
 * Nothing here is part of the room's contract; see loader.h for that. */
#ifndef IOR_LOADER_INTERNAL_H
#define IOR_LOADER_INTERNAL_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>

#ifndef BPF_PSEUDO_KFUNC_CALL
#define BPF_PSEUDO_KFUNC_CALL 2
#endif

#include "loader/loader.h"

#define IOR_INSN_SZ 8u

/* ---- errors -------------------------------------------------------------- */

/* Formats into err (if errlen) and returns -e, so `return fail(...)` reads
 * as one step. e must be a positive errno. */
int ior_loader_fail(char *err, size_t errlen, int e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* What a person can do about errno e from bpf(2) or perf_event_open(2),
 * or "" when there is nothing specific to say. Starts with "; ". */
const char *ior_loader_hint(int e);

/* ---- ELF (elf.c): bounds-checked views into an object in memory -------- */

struct ior_elf_sec {
	const char *name;
	uint32_t type, link, info;
	uint64_t flags, size, entsize;
	const uint8_t *data; /* NULL for SHT_NOBITS and empty sections */
};

struct ior_elf {
	const uint8_t *buf;
	size_t size;
	struct ior_elf_sec *secs;
	unsigned nsecs;
	unsigned symtab;    /* section index of SHT_SYMTAB */
	size_t nsyms;
};

/* Parses the ELF header and section table of an ELF64 little-endian
 * relocatable EM_BPF object. buf must outlive e. Never reads outside
 * [buf, buf + size). */
int ior_elf_parse(struct ior_elf *e, const uint8_t *buf, size_t size, char *err, size_t errlen);
void ior_elf_free(struct ior_elf *e);
/* Symbol i (copied out: the table may be unaligned). -EINVAL when out of
 * range. *name is NULL for a bad name offset. */
int ior_elf_sym(const struct ior_elf *e, size_t i, Elf64_Sym *sym, const char **name);
/* NUL-terminated string at off in string table section strsec, or NULL. */
const char *ior_elf_str(const struct ior_elf *e, unsigned strsec, uint64_t off);
/* Index of the section called name, or 0 (the null section) if none. */
unsigned ior_elf_sec_by_name(const struct ior_elf *e, const char *name);

/* ---- BTF (btf.c) ---------------------------------------------------------- */

struct ior_btf {
	uint8_t *raw;        /* owned, 8-aligned copy of .BTF (fixed up in place) */
	uint32_t size;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
	uint32_t ntypes;     /* type ids are 1..ntypes-1; 0 is void */
	uint32_t *type_at;   /* byte offset of type id i from the type section */
};

/* Copies and validates .BTF: header, every type's size and kind, every
 * referenced type id and string offset. After this, ids and names from the
 * accessors below can be trusted. */
int ior_btf_parse(struct ior_btf *b, const uint8_t *data, size_t size, char *err, size_t errlen);
/* The same on raw (malloc'd, 8-aligned), which b then owns even on failure:
 * no copy of the kernel's 5+ MiB. */
int ior_btf_adopt(struct ior_btf *b, uint8_t *raw, size_t size, char *err, size_t errlen);
void ior_btf_free(struct ior_btf *b);
const struct btf_type *ior_btf_type(const struct ior_btf *b, uint32_t id);
const char *ior_btf_name(const struct ior_btf *b, uint32_t name_off);
/* Id of the first type of kind with this name, or 0. */
uint32_t ior_btf_find(const struct ior_btf *b, unsigned kind, const char *name);
/* Skips typedef/const/volatile/restrict/type_tag; 0 on a loop or void. */
uint32_t ior_btf_resolve(const struct ior_btf *b, uint32_t id);
/* Size in bytes of type id (arrays multiplied out), or -EINVAL. */
int64_t ior_btf_sizeof(const struct ior_btf *b, uint32_t id);

/* ---- the kernel's BTF (kbtf.c) ------------------------------------------- */

#define IOR_KBTF_PATH "/sys/kernel/btf/vmlinux"

/* Reads and validates the kernel's BTF from path into b. */
int ior_kbtf_open(struct ior_btf *b, const char *path, char *err, size_t errlen);
/* Byte offset and size of member (searched in anonymous members too) of
 * struct type: -ENOENT when missing, -EINVAL for a bit-field. */
int ior_kbtf_member(const struct ior_btf *b, const char *type, const char *member,
		    uint32_t *off, uint32_t *size);
/* Id of the typedef btf_trace_<tracepoint> a tp_btf program attaches to, or 0. */
uint32_t ior_kbtf_raw_tp(const struct ior_btf *b, const char *tracepoint);
/* Fills DATASEC sizes and VAR offsets from the ELF (clang leaves them 0)
 * and sorts each DATASEC's variables by offset, as the kernel requires. */
int ior_btf_fixup(struct ior_btf *b, const struct ior_elf *e, char *err, size_t errlen);

/* .BTF.ext: func_info and line_info per ELF section, insn_off in bytes. */
struct ior_btf_ext_sec {
	const char *sec_name;
	const uint8_t *recs; /* num records of rec_size bytes, 4-aligned */
	uint32_t num;
};

struct ior_btf_ext {
	uint8_t *raw;
	uint32_t func_rec_size, line_rec_size;
	struct ior_btf_ext_sec *func, *line;
	unsigned nfunc, nline;
};

int ior_btf_ext_parse(struct ior_btf_ext *x, const struct ior_btf *b, const uint8_t *data,
		      size_t size, char *err, size_t errlen);
void ior_btf_ext_free(struct ior_btf_ext *x);

/* ---- the object (obj.c) --------------------------------------------------- */

enum map_kind { MAP_DEF, MAP_DATA };

struct ior_loader_map {
	char name[64];
	enum map_kind kind;
	uint32_t type, key_size, value_size, max_entries, flags;
	uint32_t btf_key_id, btf_value_id;
	unsigned sec;        /* .maps or the data section */
	uint64_t sec_off;    /* MAP_DEF: offset of the definition in .maps */
	uint8_t *data;       /* MAP_DATA: initial value, value_size bytes */
	bool rodata;         /* MAP_DATA: frozen after its value is written */
	int fd;
};

enum reloc_kind { RELOC_MAP_FD, RELOC_MAP_VALUE, RELOC_KFUNC };

/* Patched at load: insns[insn].imm = maps[map].fd; RELOC_KFUNC: the call
 * of kernel function kfunc (named in the ELF), resolved in the kernel's BTF. */
struct ior_loader_reloc {
	uint32_t insn;
	uint32_t map;
	enum reloc_kind kind;
	const char *kfunc;
};

/* The helper id a call to a kernel function the kernel lacks becomes: the
 * program must never reach it (a .rodata flag user space set guards it),
 * so the verifier drops it as dead code; if reached, the log names it. */
#define IOR_KFUNC_POISON 0x7ffe0000

struct ior_loader_prog {
	char name[64];
	const char *sec_name;
	unsigned sec;
	uint64_t sec_off, size; /* bytes within the section */
	uint32_t type;
	uint32_t attach_type;      /* expected_attach_type (tp_btf: BPF_TRACE_RAW_TP) */
	const char *attach_target; /* tp_btf: the tracepoint, else NULL */
	struct bpf_insn *insns;
	uint32_t ninsns;
	struct ior_loader_reloc *relocs;
	uint32_t nrelocs;
	struct bpf_func_info *func_info; /* insn_off in instructions */
	uint32_t nfunc;
	struct bpf_line_info *line_info;
	uint32_t nline;
	int fd;
};

struct ior_bpf_obj {
	uint8_t *buf; /* owned copy of the ELF */
	struct ior_elf elf;
	char license[128];
	struct ior_loader_map *maps;
	unsigned nmaps;
	struct ior_loader_prog *progs;
	unsigned nprogs;
	bool has_btf, has_btf_ext;
	struct ior_btf btf;
	struct ior_btf_ext ext;
	int btf_fd;
	struct ior_btf kbtf; /* the kernel's, read once when first needed */
	int kbtf_err;        /* 0: not read yet; 1: read; < 0: unusable */
	char kbtf_why[256];
	char kbtf_path[256]; /* the file it was read from */
	bool kbtf_warned;    /* "tp_btf programs not loaded" said once */
	bool loaded;
	char *log; /* verifier log of the last program that failed */
};

/* ---- raw bpf(2) (sys.c) --------------------------------------------------- */

struct ior_sys_map_def {
	const char *name;
	uint32_t type, key_size, value_size, max_entries, flags;
	int btf_fd; /* < 0: none */
	uint32_t btf_key_id, btf_value_id;
};

struct ior_sys_prog_def {
	const char *name, *license;
	uint32_t type;
	const struct bpf_insn *insns;
	uint32_t ninsns;
	uint32_t log_level, log_size;
	char *log;
	uint32_t attach_type, attach_btf_id; /* tp_btf programs */
	int btf_fd; /* < 0: no func/line info */
	const struct bpf_func_info *func_info;
	uint32_t nfunc;
	const struct bpf_line_info *line_info;
	uint32_t nline;
};

int ior_sys_map_create(const struct ior_sys_map_def *d);
/* "bpf_NAME" of helper id, or NULL when this build's UAPI header lacks it. */
const char *ior_loader_helper_name(unsigned long id);
/* The helper a verifier log refuses as unknown, as "bpf_NAME (#N)" into
 * out: 1, or 0 when the log names none. */
int ior_loader_unknown_helper(const char *log, char *out, size_t outlen);
/* RLIMIT_MEMLOCK to infinity (kernels < 5.11 charge BPF memory to it); false when refused. */
bool ior_sys_raise_memlock(void);
int ior_sys_map_freeze(int fd);
int ior_sys_btf_load(const void *btf, uint32_t size, char *log, uint32_t log_size);
/* Retries on EAGAIN (the verifier gives up when interrupted). */
int ior_sys_prog_load(const struct ior_sys_prog_def *d);
int ior_sys_raw_tracepoint_open(const char *name, int prog_fd);

/* The map of that kind for section sec (and offset off, for map
 * definitions); -1 when none. */
int ior_loader_find_map(const struct ior_bpf_obj *o, enum map_kind kind, unsigned sec, uint64_t off);

/* loader/reloc.c: builds every collected program's instructions, map
 * relocations, .text calls and func/line info. */
int ior_loader_relocate_progs(struct ior_bpf_obj *o, char *err, size_t errlen);

#endif
