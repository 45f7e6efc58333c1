// SPDX-License-Identifier: GPL-2.0
/* A program the verifier must reject (a map value used without the NULL
 * check), to test that the error names the program and carries the log's
 * last lines with source. The stores before it make the log longer than
 * the 20 lines a non-verbose error keeps. Rebuild with build.sh. */
#include <linux/types.h>
#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name

static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)BPF_FUNC_map_lookup_elem;

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} arr SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getpid")
int no_null_check(void *ctx)
{
	volatile __u64 pad[16];
	__u32 k = 0;
	__u64 *v;

	(void)ctx;
#pragma unroll
	for (int i = 0; i < 16; i++)
		pad[i] = i;
	v = bpf_map_lookup_elem(&arr, &k);
	*v += 1; /* the verifier wants: if (!v) return 0; */
	return 0;
}
