/* Loading an opened object into the kernel: BTF, maps (with their global
 * data), programs. The verifier is first asked without a log (cheap); only
 * a rejected program is loaded again with one. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/btf.h>

#include "loader/internal.h"
#include "log/log.h"

#define LOG_MIN (64u << 10)
#define LOG_MAX (16u << 20)
#define LOG_TAIL_LINES 20

static void load_btf(struct ior_bpf_obj *o)
{
	if (!o->has_btf)
		return;
	int fd = ior_sys_btf_load(o->btf.raw, o->btf.size, NULL, 0);
	if (fd >= 0) {
		o->btf_fd = fd;
		return;
	}
	ior_log(IOR_LOG_WARN, "kernel rejected the BPF object's BTF (%s): loading without it, so verifier "
			      "messages carry no source lines", strerror(-fd));
}

/* PERF_EVENT_ARRAY with max_entries 0: one slot per possible CPU (the
 * kernel's limit when sysfs is unreadable). */
static uint32_t possible_cpus(void)
{
	long n = ior_possible_cpus(-1, NULL);
	return n > 0 ? (uint32_t)n : 1024;
}

static int create_map(struct ior_bpf_obj *o, struct ior_loader_map *m, bool memlock_ok,
		      char *err, size_t errlen)
{
	struct ior_sys_map_def d = {
		.name = m->name, .type = m->type, .key_size = m->key_size,
		.value_size = m->value_size, .max_entries = m->max_entries, .flags = m->flags,
		.btf_fd = o->btf_fd, .btf_key_id = m->btf_key_id, .btf_value_id = m->btf_value_id,
	};
	if (d.type == BPF_MAP_TYPE_PERF_EVENT_ARRAY && !d.max_entries)
		d.max_entries = possible_cpus();
	int fd = ior_sys_map_create(&d);
	if (fd < 0 && d.btf_fd >= 0 && fd != -EPERM) {
		d.btf_fd = -1; /* some kernels refuse BTF for some map types */
		fd = ior_sys_map_create(&d);
	}
	if (fd < 0)
		return ior_loader_fail(err, errlen, -fd, "map '%s': failed to create: %s%s%s", m->name,
				       strerror(-fd), ior_loader_hint(-fd),
				       fd == -EPERM && !memlock_ok
					       ? " (RLIMIT_MEMLOCK could not be raised either: "
						 "ulimit -l unlimited)"
					       : "");
	m->fd = fd;
	return 0;
}

static int fill_data_map(struct ior_loader_map *m, char *err, size_t errlen)
{
	uint32_t zero = 0;
	int r = ior_sys_map_update_elem(m->fd, &zero, m->data, BPF_ANY);
	if (r)
		return ior_loader_fail(err, errlen, -r, "map '%s': failed to write its value: %s",
				       m->name, strerror(-r));
	if (!m->rodata)
		return 0;
	r = ior_sys_map_freeze(m->fd);
	if (r)
		return ior_loader_fail(err, errlen, -r, "map '%s': failed to freeze: %s", m->name,
				       strerror(-r));
	return 0;
}

static bool uses_map(const struct ior_loader_prog *p, unsigned map)
{
	for (uint32_t i = 0; i < p->nrelocs; i++)
		if (p->relocs[i].kind != RELOC_KFUNC && p->relocs[i].map == map)
			return true;
	return false;
}

static bool wanted(const struct ior_load_opts *opts, const char *name)
{
	if (!opts || !opts->progs)
		return true;
	for (const char *const *p = opts->progs; *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}

/* A map the loaded programs do not use is not created (programs nobody
 * uses have none); one only tp_btf programs use is as optional as they
 * are. Maps no program uses are for user space: always created. */
static void map_role(const struct ior_bpf_obj *o, const struct ior_load_opts *opts, unsigned map,
		     bool *needed, bool *optional)
{
	bool used = false, by_loaded = false, by_required = false;
	for (unsigned i = 0; i < o->nprogs; i++) {
		if (!uses_map(&o->progs[i], map))
			continue;
		used = true;
		if (!wanted(opts, o->progs[i].name))
			continue;
		by_loaded = true;
		by_required |= !o->progs[i].attach_target;
	}
	*needed = !used || by_loaded;
	*optional = by_loaded && !by_required;
}

static int create_maps(struct ior_bpf_obj *o, const struct ior_load_opts *opts, bool memlock_ok,
		       char *err, size_t errlen)
{
	for (unsigned i = 0; i < o->nmaps; i++) {
		struct ior_loader_map *m = &o->maps[i];
		bool needed, optional;
		char why[256];
		map_role(o, opts, i, &needed, &optional);
		if (!needed)
			continue;
		int r = create_map(o, m, memlock_ok, optional ? why : err,
				   optional ? sizeof why : errlen);
		if (!r && m->kind == MAP_DATA)
			r = fill_data_map(m, err, errlen);
		if (r && optional && r != -EPERM) {
			ior_log(IOR_LOG_WARN, "%s: the tp_btf programs using it are left unloaded", why);
			continue;
		}
		if (r)
			return optional ? ior_loader_fail(err, errlen, -r, "%s", why) : r;
	}
	return 0;
}

static const struct ior_btf *kernel_btf(struct ior_bpf_obj *o);

/* A kernel function's call: its id in the kernel's BTF (vmlinux: off 0),
 * or, where the kernel lacks it, a helper id no kernel has (see
 * IOR_KFUNC_POISON). */
static void patch_kfunc(struct ior_bpf_obj *o, struct bpf_insn *in, const char *name)
{
	const struct ior_btf *k = kernel_btf(o);
	uint32_t id = k ? ior_btf_find(k, BTF_KIND_FUNC, name) : 0;

	in->off = 0;
	in->src_reg = id ? BPF_PSEUDO_KFUNC_CALL : 0;
	in->imm = id ? (int32_t)id : IOR_KFUNC_POISON;
}

static void patch_relocs(struct ior_bpf_obj *o, struct ior_loader_prog *p)
{
	for (uint32_t i = 0; i < p->nrelocs; i++) {
		const struct ior_loader_reloc *r = &p->relocs[i];
		if (r->kind == RELOC_KFUNC)
			patch_kfunc(o, &p->insns[r->insn], r->kfunc);
		else
			p->insns[r->insn].imm = o->maps[r->map].fd;
	}
}

static void prog_def(const struct ior_bpf_obj *o, const struct ior_loader_prog *p,
		     struct ior_sys_prog_def *d)
{
	*d = (struct ior_sys_prog_def){
		.name = p->name, .license = o->license, .type = p->type, .insns = p->insns,
		.ninsns = p->ninsns, .btf_fd = o->btf_fd, .func_info = p->func_info,
		.nfunc = p->nfunc, .line_info = p->line_info, .nline = p->nline,
		.attach_type = p->attach_type,
	};
	if (!p->nfunc)
		d->btf_fd = -1;
}

/* Loads again with a log that grows on ENOSPC; returns the kernel's errno
 * of that attempt (which is the one the log explains). */
static int load_with_log(struct ior_bpf_obj *o, struct ior_sys_prog_def *d)
{
	int fd = -ENOMEM;
	for (uint32_t size = LOG_MIN; size <= LOG_MAX; size *= 4) {
		char *log = realloc(o->log, size);
		if (!log)
			return -ENOMEM;
		o->log = log;
		log[0] = '\0';
		d->log = log;
		d->log_size = size;
		d->log_level = 1;
		fd = ior_sys_prog_load(d);
		if (fd != -ENOSPC)
			break;
	}
	return fd;
}

/* Appends the last lines of the log (all when verbose) to err. */
static void log_tail(const char *log, bool verbose, char *err, size_t errlen)
{
	size_t len = strlen(log), start = 0;
	unsigned kept = 0, omitted = 0;
	while (len && log[len - 1] == '\n')
		len--;
	if (!verbose)
		for (start = len; start > 0; start--)
			if (log[start - 1] == '\n' && ++kept == LOG_TAIL_LINES)
				break;
	for (size_t i = 0; i < start; i++)
		omitted += log[i] == '\n';
	size_t used = strlen(err);
	if (omitted && used < errlen)
		used += (size_t)snprintf(err + used, errlen - used,
					 "\n(%u lines omitted; -verbose shows the whole log)", omitted);
	if (used < errlen)
		snprintf(err + used, errlen - used, "\n%.*s", (int)(len - start), log + start);
}

/* The kernel's BTF, read on first use; NULL (and o->kbtf_why) when it
 * has none or it is unusable. */
static const struct ior_btf *kernel_btf(struct ior_bpf_obj *o)
{
	const char *path = getenv("IOR_KERNEL_BTF");
	if (!o->kbtf_err) {
		snprintf(o->kbtf_path, sizeof o->kbtf_path, "%s", path && *path ? path : IOR_KBTF_PATH);
		o->kbtf_err = ior_kbtf_open(&o->kbtf, o->kbtf_path, o->kbtf_why,
					    sizeof o->kbtf_why) ?: 1;
	}
	return o->kbtf_err > 0 ? &o->kbtf : NULL;
}

int ior_loader_kernel_btf(struct ior_bpf_obj *o, char *why, size_t whylen)
{
	if (!kernel_btf(o))
		return ior_loader_fail(why, whylen, -o->kbtf_err, "%s", o->kbtf_why);
	snprintf(why, whylen, "%s", o->kbtf_path);
	return 0;
}

int ior_loader_kernel_member(struct ior_bpf_obj *o, const char *type, const char *member,
			     uint32_t *off, uint32_t *size, char *err, size_t errlen)
{
	const struct ior_btf *k = kernel_btf(o);
	if (!k)
		return ior_loader_fail(err, errlen, -o->kbtf_err, "%s", o->kbtf_why);
	int r = ior_kbtf_member(k, type, member, off, size);
	if (r)
		return ior_loader_fail(err, errlen, -r, "kernel BTF %s: no %s.%s%s", o->kbtf_path, type,
				       member, r == -EINVAL ? " at a whole byte (a bit-field)" : "");
	return 0;
}

int ior_loader_kernel_type_id(struct ior_bpf_obj *o, const char *kind, const char *name,
			      uint32_t *id, char *err, size_t errlen)
{
	unsigned k_kind = !strcmp(kind, "struct") ? BTF_KIND_STRUCT
			  : !strcmp(kind, "func") ? BTF_KIND_FUNC : 0;
	if (!k_kind)
		return ior_loader_fail(err, errlen, EINVAL, "kernel BTF: no kind '%s'", kind);
	const struct ior_btf *k = kernel_btf(o);
	if (!k)
		return ior_loader_fail(err, errlen, -o->kbtf_err, "%s", o->kbtf_why);
	*id = ior_btf_find(k, k_kind, name);
	if (!*id)
		return ior_loader_fail(err, errlen, ENOENT, "kernel BTF %s: no %s %s", o->kbtf_path, kind,
				       name);
	return 0;
}

static int try_load(struct ior_bpf_obj *o, struct ior_loader_prog *p,
		    struct ior_sys_prog_def *d, bool verbose, char *err, size_t errlen)
{
	int fd = ior_sys_prog_load(d);
	if (fd >= 0) {
		p->fd = fd;
		return 0;
	}
	int e = -fd;
	fd = load_with_log(o, d);
	if (fd >= 0) { /* accepted the second time: keep it */
		p->fd = fd;
		return 0;
	}
	if (!o->log || !o->log[0]) {
		free(o->log);
		o->log = NULL;
		return ior_loader_fail(err, errlen, e, "prog '%s': failed to load: %s%s", p->name,
				       strerror(e), ior_loader_hint(e));
	}
	/* An unknown helper in an unchanged object means the kernel withholds
	 * it: too old, or lockdown=confidentiality (which hides the probe
	 * helpers). */
	char helper[64], hint[256] = "";
	if (ior_loader_unknown_helper(o->log, helper, sizeof helper))
		snprintf(hint, sizeof hint,
			 " (the kernel lacks helper %s: too old, or kernel lockdown in confidentiality"
			 " mode; see /sys/kernel/security/lockdown)", helper);
	ior_loader_fail(err, errlen, -fd, "prog '%s': rejected by the verifier: %s%s", p->name,
			strerror(-fd), hint);
	if (err && errlen)
		log_tail(o->log, verbose, err, errlen);
	return fd;
}

/* tp_btf programs are optional: a kernel without BTF, or one that refuses
 * them, leaves them unloaded (fd -1, said in the warning) and the caller
 * uses their raw_tracepoint twins. */
static int load_optional(struct ior_bpf_obj *o, struct ior_loader_prog *p,
			 struct ior_sys_prog_def *d, char *err, size_t errlen)
{
	for (unsigned i = 0; i < o->nmaps; i++)
		if (o->maps[i].fd < 0 && uses_map(p, i))
			return 0; /* its map was not created: said then */
	const struct ior_btf *k = kernel_btf(o);
	if (!k) {
		if (!o->kbtf_warned)
			ior_log(IOR_LOG_WARN, "tp_btf programs not loaded: %s", o->kbtf_why);
		o->kbtf_warned = true;
		return 0;
	}
	d->attach_btf_id = ior_kbtf_raw_tp(k, p->attach_target);
	if (!d->attach_btf_id) {
		ior_log(IOR_LOG_WARN, "prog '%s' not loaded: kernel BTF %s has no tracepoint '%s'",
			    p->name, o->kbtf_path, p->attach_target);
		return 0;
	}
	char why[256];
	int r = try_load(o, p, d, false, why, sizeof why);
	why[strcspn(why, "\n")] = '\0';
	if (r == -EPERM || r == -ENOMEM) /* not about BTF: the others would fail alike */
		return ior_loader_fail(err, errlen, -r, "%s", why);
	if (r)
		ior_log(IOR_LOG_WARN, "%s (ior -check -v shows the verifier log)", why);
	return 0;
}

static int load_prog(struct ior_bpf_obj *o, struct ior_loader_prog *p, bool verbose, char *err,
		     size_t errlen)
{
	struct ior_sys_prog_def d;
	patch_relocs(o, p);
	prog_def(o, p, &d);
	if (p->attach_target)
		return load_optional(o, p, &d, err, errlen);
	return try_load(o, p, &d, verbose, err, errlen);
}

int ior_loader_load(struct ior_bpf_obj *o, const struct ior_load_opts *opts, char *err,
		    size_t errlen)
{
	if (o->loaded)
		return ior_loader_fail(err, errlen, EBUSY, "bpf object: already loaded");
	o->loaded = true;
	bool memlock_ok = ior_sys_raise_memlock();
	load_btf(o);
	int r = create_maps(o, opts, memlock_ok, err, errlen);
	for (unsigned i = 0; !r && i < o->nprogs; i++)
		if (wanted(opts, o->progs[i].name))
			r = load_prog(o, &o->progs[i], opts && opts->verbose, err, errlen);
	ior_btf_free(&o->kbtf); /* 6+ MiB the programs no longer need; read again if asked */
	o->kbtf_err = 0;
	return r;
}

int ior_loader_load_prog(struct ior_bpf_obj *o, const char *name, bool verbose, char *err,
			 size_t errlen)
{
	struct ior_loader_prog *p = NULL;
	for (unsigned i = 0; i < o->nprogs && !p; i++)
		p = strcmp(o->progs[i].name, name) ? NULL : &o->progs[i];
	if (!p)
		return ior_loader_fail(err, errlen, ENOENT, "prog '%s': not in the BPF object", name);
	if (!o->loaded)
		return ior_loader_fail(err, errlen, EBADF, "prog '%s': the object is not loaded", name);
	if (p->fd >= 0)
		return 0;
	for (unsigned i = 0; i < o->nmaps; i++)
		if (o->maps[i].fd < 0 && uses_map(p, i))
			return ior_loader_fail(err, errlen, ENOENT, "prog '%s': its map '%s' was not created",
					       name, o->maps[i].name);
	int r = load_prog(o, p, verbose, err, errlen);
	ior_btf_free(&o->kbtf);
	o->kbtf_err = 0;
	return r;
}
