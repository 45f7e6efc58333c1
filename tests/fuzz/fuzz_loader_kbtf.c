/* libFuzzer target for the kernel-BTF reader: the bytes stand for
 * /sys/kernel/btf/vmlinux; ior looks up task_struct members and the
 * btf_trace_ typedefs in what parses. Never touches the kernel. */
#include <stddef.h>
#include <stdint.h>

#include "loader/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const members[] = { "pid", "tgid", "comm", "alias", "x" };
	struct ior_btf b;
	char err[256];
	uint32_t off, len;
	if (ior_btf_parse(&b, data, size, err, sizeof err)) {
		ior_btf_free(&b);
		return 0;
	}
	for (size_t i = 0; i < sizeof members / sizeof members[0]; i++)
		(void)ior_kbtf_member(&b, "task_struct", members[i], &off, &len);
	(void)ior_kbtf_raw_tp(&b, "sys_enter");
	ior_btf_free(&b);
	return 0;
}
