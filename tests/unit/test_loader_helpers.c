/* Naming the helper a verifier refuses: 5.10 says "invalid func
 * unknown#158" (captured from Debian's 5.10 in the VM test), newer kernels
 * "unknown func bpf_NAME#N". */
#include "loader/internal.h"
#include "t.h"

#include <string.h>

TEST(names_by_id)
{
	CHECK_EQ_STR(ior_loader_helper_name(1), "bpf_map_lookup_elem");
	CHECK_EQ_STR(ior_loader_helper_name(158), "bpf_get_current_task_btf");
	CHECK(ior_loader_helper_name(0) == NULL);
	CHECK(ior_loader_helper_name(100000) == NULL);
}

TEST(old_kernel_log)
{
	char out[64];
	const char *log = "arg#0 type is not a struct\n; t = bpf_get_current_task_btf();\n"
			  "1: (85) call unknown#158\ninvalid func unknown#158\nprocessed 2 insns\n";
	CHECK_EQ_INT(ior_loader_unknown_helper(log, out, sizeof out), 1);
	CHECK_EQ_STR(out, "bpf_get_current_task_btf (#158)");
}

TEST(new_kernel_log)
{
	char out[64];
	CHECK_EQ_INT(ior_loader_unknown_helper("0: (85) call bpf_ktime_get_boot_ns#125\n"
					       "unknown func bpf_ktime_get_boot_ns#125\n", out, sizeof out), 1);
	CHECK_EQ_STR(out, "bpf_ktime_get_boot_ns (#125)");
	CHECK_EQ_INT(ior_loader_unknown_helper("unknown func bpf_x#99999\n", out, sizeof out), 1);
	CHECK_EQ_STR(out, "helper #99999");
}

TEST(logs_without_one)
{
	char out[64] = "";
	CHECK_EQ_INT(ior_loader_unknown_helper(NULL, out, sizeof out), 0);
	CHECK_EQ_INT(ior_loader_unknown_helper("R1 invalid mem access 'scalar'\n", out, sizeof out), 0);
	CHECK_EQ_INT(ior_loader_unknown_helper("unknown func \n#5", out, sizeof out), 0); /* # on another line */
	CHECK_EQ_INT(ior_loader_unknown_helper("invalid func unknown#x", out, sizeof out), 0);
	CHECK_EQ_INT(ior_loader_unknown_helper("invalid func unknown#", out, sizeof out), 0);
}

int main(void)
{
	RUN(names_by_id);
	RUN(old_kernel_log);
	RUN(new_kernel_log);
	RUN(logs_without_one);
	return t_done();
}
