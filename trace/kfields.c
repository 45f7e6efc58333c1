#include "trace/kfields.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "loader/loader.h"
#include "trace/event.h"

static const struct {
	const char *type, *member, *global;
	uint32_t size;
} fields[] = {
	{ "task_struct", "pid", "task_pid_off", 4 },   /* the thread id */
	{ "task_struct", "tgid", "task_tgid_off", 4 }, /* the process id */
	{ "task_struct", "comm", "task_comm_off", IOR_COMM_LEN },
};

int ior_kfields_set(struct ior_bpf_obj *obj, char *why, size_t whylen)
{
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		uint32_t off, size;
		int r = ior_loader_kernel_member(obj, fields[i].type, fields[i].member, &off, &size,
						 why, whylen);
		if (!r && size != fields[i].size) {
			snprintf(why, whylen, "kernel BTF: %s.%s is %u bytes, ior reads %u",
				 fields[i].type, fields[i].member, size, fields[i].size);
			return 0;
		}
		if (!r)
			r = ior_loader_set_global(obj, fields[i].global, &off, sizeof off, why, whylen);
		if (r)
			return 0;
	}
	return 1;
}
