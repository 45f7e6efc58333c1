// SPDX-License-Identifier: GPL-2.0
/* Exercises what loader/ supports beyond what bpf.c happens to use today:
 * __uint(key_size)-style and typed maps, globals in .rodata/.data/.bss
 * (named and static, so both R_BPF_64_64 addend forms), BPF-to-BPF calls
 * into .text (global and static, nested), SEC("tp/...") and two programs
 * in one section, kernel functions (one the kernel has; one it lacks,
 * behind a guard). Rebuild with tests/unit/bpf/build.sh. */
#include <linux/types.h>
#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name

static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)BPF_FUNC_map_lookup_elem;
static long (*bpf_map_update_elem)(void *map, const void *key, const void *value,
				   __u64 flags) = (void *)BPF_FUNC_map_update_elem;
static __u64 (*bpf_get_current_pid_tgid)(void) = (void *)BPF_FUNC_get_current_pid_tgid;

#define __ksym __attribute__((section(".ksyms"), weak))
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;
extern void *ior_no_such_kfunc(const void *obj) __ksym;

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 cfg_a = 7;
const volatile __u64 cfg_b = 9;
const volatile __u32 cfg_tgid = 0; /* 0: any process; else only this one's getpid */
const volatile __u32 cfg_cast_id = 0; /* a kernel struct's BTF id: bpf_rdonly_cast exists */
const volatile __u32 cfg_missing = 0; /* never set: the missing kfunc's call is dead code */
__u64 casts;                          /* .bss */
__u64 counter = 3;             /* .data */
__u64 hits;                    /* .bss */
static __u64 static_hits;      /* .bss, referenced through the section symbol */
static volatile __u32 static_data[4] = { 1, 2, 3, 4 }; /* .data, static */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u64));
	__uint(max_entries, 64);
} sized SEC(".maps");

struct val {
	__u64 a, b;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, struct val);
} typed SEC(".maps");

static __attribute__((noinline)) __u64 leaf(__u64 x)
{
	static_hits++;
	return x * cfg_a + static_data[x & 3];
}

__attribute__((noinline)) __u64 helper(__u64 x)
{
	__u32 k = (__u32)x & 3;
	struct val *v = bpf_map_lookup_elem(&typed, &k);

	if (v)
		v->a += leaf(x);
	return leaf(x + 1) + cfg_b;
}

SEC("tracepoint/syscalls/sys_enter_getpid")
int on_getpid(void *ctx)
{
	__u32 k = 1;
	__u64 pid_tgid = bpf_get_current_pid_tgid(), v;

	(void)ctx;
	if (cfg_tgid && pid_tgid >> 32 != cfg_tgid) /* another process's getpid */
		return 0;
	v = helper(pid_tgid);
	bpf_map_update_elem(&sized, &k, &v, BPF_ANY);
	if (cfg_cast_id && bpf_rdonly_cast(ctx, cfg_cast_id))
		casts++;
	if (cfg_missing && ior_no_such_kfunc(ctx))
		casts += 100;
	hits++;
	counter += 2;
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getpid")
int on_getpid2(void *ctx)
{
	(void)ctx;
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("tp/syscalls/sys_exit_getpid")
int on_getpid_exit(void *ctx)
{
	(void)ctx;
	return (int)(leaf(2) & 0);
}
