/* loader/: a hand-written BPF object loader over raw bpf(2).
 *
 * Life of an object:
 *   ior_loader_open()        parse the ELF in memory (pure: no syscalls)
 *   ior_loader_set_global()  set `const volatile` / global variables
 *   ior_loader_load()        create maps, load BTF and programs
 *   ior_loader_map_fd() / ior_loader_prog_fd()
 *   ior_loader_attach_tracepoint() for each tracepoint
 *   ior_loader_close()       close every fd the object owns
 *
 * Every function that can fail returns a negative errno and, when err is
 * non-NULL, writes one line a person can act on into err (errlen bytes,
 * always NUL-terminated; a verifier failure adds the log's last lines).
 * Nothing here prints. An object is not thread-safe; the functions that
 * take no object are, except the first call that finds tracefs.
 *
 * The loader knows nothing about ior's events: the contract is the ELF.
 * Supported: SEC("tracepoint/CAT/NAME") and SEC("tp/CAT/NAME") programs,
 * SEC("raw_tracepoint/NAME") and SEC("raw_tp/NAME") programs,
 * SEC("tp_btf/NAME") programs (optional: see ior_loader_load),
 * BTF-defined maps in .maps, global data in .rodata* / .data* / .bss*
 * (array maps of one element; .rodata* frozen), R_BPF_64_64 map and
 * global-data references, R_BPF_64_32 calls to .text functions and to
 * kernel functions (extern __ksym: resolved by name in the kernel's BTF
 * at load; one the kernel lacks becomes a call the verifier must find
 * dead, so guard it with a .rodata value), .BTF / .BTF.ext (func and
 * line info). */
#ifndef IOR_LOADER_H
#define IOR_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ior_bpf_obj;
struct perf_event_attr;

/* The object compiled from bpf.c, embedded by loader/bpf_embed.S. */
extern const unsigned char ior_bpf_object[], ior_bpf_object_end[];

/* Parses an ELF object. data is copied; the caller may free it after.
 * Builds programs (relocated, with subprograms appended), map definitions
 * and global data. On success *out is owned by the caller (ior_loader_close).
 * -EINVAL on a malformed object, -ENOTSUP on a feature the loader lacks,
 * -ENOMEM. */
int ior_loader_open(const void *data, size_t size, struct ior_bpf_obj **out, char *err,
		    size_t errlen);

/* Sets global variable name (in .rodata*, .data* or .bss*) to size bytes
 * at val before load. size must equal the variable's size.
 * -ENOENT: no such variable; -EINVAL: size differs; -EBUSY: already loaded. */
int ior_loader_set_global(struct ior_bpf_obj *obj, const char *name, const void *val,
			  size_t size, char *err, size_t errlen);

/* Reads global variable name (size bytes, as declared) from its data map
 * after load: counters the programs keep. -ENOENT, -EINVAL as above,
 * -EBADF before load, or the lookup's -errno. */
int ior_loader_read_global(const struct ior_bpf_obj *obj, const char *name, void *val,
			   size_t size, char *err, size_t errlen);

struct ior_load_opts {
	bool verbose;            /* on a verifier failure, err gets the whole log */
	/* The programs to load, NULL-terminated; NULL: all. Others stay
	 * unloaded (fd -EBADF), and so do maps only they use, so a verifier
	 * quirk in a program a run does not attach cannot stop it. */
	const char *const *progs;
};

/* Raises RLIMIT_MEMLOCK, loads .BTF (if the kernel rejects it, continues
 * without, saying so through log/log.h), creates maps and writes global data,
 * loads every program. tp_btf programs need the kernel's BTF
 * (/sys/kernel/btf/vmlinux, or the file $IOR_KERNEL_BTF names); without it, or when the verifier refuses one,
 * that program is left unloaded (its prog fd is -EBADF) and a warning
 * (log/log.h) says why. On failure the object keeps what it created until
 * ior_loader_close. opts may be NULL. */
int ior_loader_load(struct ior_bpf_obj *obj, const struct ior_load_opts *opts, char *err,
		    size_t errlen);
/* After load, loads one more program (a fallback for a tp_btf program the
 * kernel refused); 0 when it is loaded already. -ENOENT when a map it
 * uses was not created. */
int ior_loader_load_prog(struct ior_bpf_obj *obj, const char *name, bool verbose, char *err,
			 size_t errlen);

/* The full verifier log of the program that failed to load, or NULL. */
const char *ior_loader_verifier_log(const struct ior_bpf_obj *obj);

/* fd of a map / program after load; -ENOENT when there is no such name,
 * -EBADF before load (and for a tp_btf program left unloaded). The object
 * owns the fd. */
int ior_loader_map_fd(const struct ior_bpf_obj *obj, const char *name);
int ior_loader_prog_fd(const struct ior_bpf_obj *obj, const char *name);

/* Whether the running kernel's BTF can be read (read once): 0 with its
 * file in why, or a negative errno with why it cannot. */
int ior_loader_kernel_btf(struct ior_bpf_obj *obj, char *why, size_t whylen);
/* Byte offset and size of member of the running kernel's struct type, from
 * its BTF (read once per object): for `const volatile` offsets set before
 * load. -ENOENT (no BTF, no such member), -EINVAL (bad BTF, bit-field). */
int ior_loader_kernel_member(struct ior_bpf_obj *obj, const char *type, const char *member,
			     uint32_t *off, uint32_t *size, char *err, size_t errlen);

/* The id in the running kernel's BTF of a struct type (kind "struct") or
 * a function (kind "func"): a kernel function (kfunc) the programs call
 * exists when it has one, and bpf_rdonly_cast takes a struct's. -ENOENT
 * (no BTF, no such type), -EINVAL (another kind). */
int ior_loader_kernel_type_id(struct ior_bpf_obj *obj, const char *kind, const char *name,
			      uint32_t *id, char *err, size_t errlen);

/* Introspection for callers and tests (valid after open). */
unsigned ior_loader_prog_count(const struct ior_bpf_obj *obj);
const char *ior_loader_prog_name(const struct ior_bpf_obj *obj, unsigned i);
/* The section the program came from, e.g. "tracepoint/syscalls/sys_enter". */
const char *ior_loader_prog_section(const struct ior_bpf_obj *obj, unsigned i);
unsigned ior_loader_map_count(const struct ior_bpf_obj *obj);
const char *ior_loader_map_name(const struct ior_bpf_obj *obj, unsigned i);
struct ior_loader_map_info {
	uint32_t type, key_size, value_size, max_entries, flags;
};
int ior_loader_map_info(const struct ior_bpf_obj *obj, const char *name,
			struct ior_loader_map_info *info);
const char *ior_loader_license(const struct ior_bpf_obj *obj);

/* Closes every map and program fd and frees the object. NULL is fine.
 * Attachments (perf fds) belong to the caller and stay until closed. */
void ior_loader_close(struct ior_bpf_obj *obj);

/* ---- tracepoints -------------------------------------------------------- */

/* The tracefs mount point: /sys/kernel/tracing, else
 * /sys/kernel/debug/tracing, else tracefs is mounted on /sys/kernel/tracing.
 * *mounted (may be NULL) tells whether this call mounted it. The result is
 * cached for the process. NULL with err filled when none can be found. */
const char *ior_loader_tracefs(bool *mounted, char *err, size_t errlen);

/* Tracepoint id from tracefs events/CATEGORY/NAME/id; -ENOENT when this
 * kernel lacks it. */
int ior_loader_tracepoint_id(const char *category, const char *name, char *err, size_t errlen);

/* Attaches prog_fd to tracepoint CATEGORY:NAME: perf_event_open
 * (PERF_TYPE_TRACEPOINT, pid -1, cpu 0), PERF_EVENT_IOC_SET_BPF, ENABLE.
 * Returns the perf event fd; closing it detaches. -ENOENT (err filled)
 * when this kernel lacks the tracepoint, so the caller can skip it. */
int ior_loader_attach_tracepoint(int prog_fd, const char *category, const char *name,
				 char *err, size_t errlen);

/* Attaches prog_fd (a SEC("raw_tracepoint/NAME") program) to raw tracepoint
 * NAME (e.g. "sys_enter", "sched_process_exit") with BPF_RAW_TRACEPOINT_OPEN
 * (Linux 4.17+); a SEC("tp_btf/NAME") program with NAME NULL. Returns the fd holding the attachment; closing it detaches.
 * -ENOENT when this kernel has no such tracepoint. */
int ior_loader_attach_raw_tracepoint(int prog_fd, const char *name, char *err, size_t errlen);

/* ---- perf events and maps, for the ring reader --------------------------- */

/* perf_event_open(2); returns the fd or -errno. */
int ior_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			    unsigned long flags);
/* A PERF_COUNT_SW_BPF_OUTPUT event on cpu for a PERF_EVENT_ARRAY slot;
 * poll wakes its reader once wakeup_bytes are waiting (0: every record).
 * The caller mmaps and closes it. Returns the fd or -errno with err filled. */
int ior_loader_bpf_output_open(int cpu, uint32_t wakeup_bytes, char *err, size_t errlen);

/* Whether bpf(2) works here (creates and closes a tiny map): 0, or
 * -errno with what to do in err. */
int ior_loader_probe_bpf(char *err, size_t errlen);

/* A kernel CPU list ("0-7", "0,2-3\n"): the highest CPU + 1, or -EINVAL.
 * *index (when not NULL): how many listed CPUs are below cpu, the slot of
 * cpu's value in a per-CPU map lookup when this is the possible list; -1
 * when cpu is not listed. */
long ior_cpulist_parse(const char *s, int cpu, long *index);
/* The same of /sys/devices/system/cpu/possible; -errno when unreadable.
 * Not sysconf: musl answers with the affinity mask, which under taskset
 * misses CPUs. */
long ior_possible_cpus(int cpu, long *index);

/* bpf(2) map element commands; return 0 or -errno. */
int ior_sys_map_update_elem(int fd, const void *key, const void *value, uint64_t flags);
int ior_sys_map_lookup_elem(int fd, const void *key, void *value);
int ior_sys_map_delete_elem(int fd, const void *key);
/* The key after key (NULL: the first); -ENOENT after the last. */
int ior_sys_map_get_next_key(int fd, const void *key, void *next);

/* Runs a raw tracepoint program once on cpu (BPF_PROG_TEST_RUN with
 * BPF_F_TEST_RUN_ON_CPU, Linux 5.10+: in an IPI when cpu is not the
 * caller's). 0 with the program's return value, or -errno (-ENXIO: cpu
 * offline). */
int ior_sys_prog_run_on_cpu(int prog_fd, int cpu, uint32_t *retval);

#endif
