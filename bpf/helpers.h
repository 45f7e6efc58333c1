/* What libbpf's bpf_helpers.h would give bpf.c, spelled out because ior
 * builds without libbpf: the section and map-definition macros, and the
 * few helpers the programs call (by their number in <linux/bpf.h>). */
#ifndef IOR_BPF_HELPERS_H
#define IOR_BPF_HELPERS_H

#include <linux/types.h>
#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name
#define INLINE static inline __attribute__((always_inline))
#define NULL ((void *)0)

static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)BPF_FUNC_map_lookup_elem;
static long (*bpf_map_update_elem)(void *map, const void *key, const void *value,
				   __u64 flags) = (void *)BPF_FUNC_map_update_elem;
static long (*bpf_map_delete_elem)(void *map, const void *key) = (void *)BPF_FUNC_map_delete_elem;
static __u64 (*bpf_ktime_get_ns)(void) = (void *)BPF_FUNC_ktime_get_ns;
static __u64 (*bpf_get_current_pid_tgid)(void) = (void *)BPF_FUNC_get_current_pid_tgid;
static long (*bpf_get_current_comm)(void *buf, __u32 size) = (void *)BPF_FUNC_get_current_comm;
static long (*bpf_perf_event_output)(void *ctx, void *map, __u64 flags, void *data,
				     __u64 size) = (void *)BPF_FUNC_perf_event_output;
static long (*bpf_probe_read_kernel)(void *dst, __u32 size,
				     const void *src) = (void *)BPF_FUNC_probe_read_kernel;
static long (*bpf_probe_read_kernel_str)(void *dst, __u32 size, const void *src) =
	(void *)BPF_FUNC_probe_read_kernel_str;
static long (*bpf_probe_read_user)(void *dst, __u32 size, const void *src) = (void *)BPF_FUNC_probe_read_user;
static long (*bpf_probe_read_user_str)(void *dst, __u32 size,
				       const void *src) = (void *)BPF_FUNC_probe_read_user_str;
struct task_struct;
static struct task_struct *(*bpf_get_current_task_btf)(void) = (void *)BPF_FUNC_get_current_task_btf;
static __u64 (*bpf_get_current_task)(void) = (void *)BPF_FUNC_get_current_task;

/* Kernel functions (kfuncs), resolved by name in the kernel's BTF at load.
 * On a kernel without one, its call must be unreachable: each use is
 * guarded by a .rodata value user space sets only when it exists. */
#define __ksym __attribute__((section(".ksyms"), weak))
/* obj as a read-only typed pointer (6.2): its fields are then plain loads
 * the JIT makes fault-safe, not helper calls; the call itself is inlined. */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

#endif
