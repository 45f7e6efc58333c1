/* The index space of event pairs (syscalls.h, ior_sys): this arch's rows,
 * the other arches' names it lacks, then names recordings defined. */
#include "syscalls/syscalls.h"
#include "bpf/event.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#define OTHER_ROWS ior_syscalls_arm64
#define OTHER_N ior_nsyscalls_arm64
#else
#define OTHER_ROWS ior_syscalls_x86_64
#define OTHER_N ior_nsyscalls_x86_64
#endif

static const struct ior_syscall *rows[IOR_SYS_MAX];
static unsigned nrows;
static const struct ior_syscall unknown = { .name = "?", .cls = IOR_SC_OTHER, .family = IOR_FAM_Misc };

static int find(const char *name)
{
	for (unsigned i = 0; i < nrows; i++)
		if (!strcmp(rows[i]->name, name))
			return (int)i;
	return -1;
}

/* Built before main() so a lookup never sees a half-built table. */
__attribute__((constructor)) static void build_rows(void)
{
	for (unsigned i = 0; i < ior_nsyscalls; i++)
		rows[nrows++] = &ior_syscalls[i];
	for (unsigned i = 0; i < OTHER_N; i++)
		if (find(OTHER_ROWS[i].name) < 0)
			rows[nrows++] = &OTHER_ROWS[i];
}

const struct ior_syscall *ior_sys(unsigned sys)
{
	return sys < nrows ? rows[sys] : &unknown;
}

unsigned ior_sys_count(void)
{
	return nrows;
}

int ior_sys_find(const char *name)
{
	return find(name);
}

/* A row of its own for a name no table knows: what reading needs of it
 * (name, family, class); it is never traced. Kept to the end. */
int ior_sys_define(const char *name)
{
	int i = find(name);

	if (i >= 0)
		return i;
	if (nrows >= IOR_SYS_MAX)
		return -ENOSPC;
	struct ior_syscall *row = calloc(1, sizeof *row);
	char *copy = strdup(name);
	if (!row || !copy) {
		free(row);
		free(copy);
		return -ENOMEM;
	}
	row->name = copy;
	row->cls = IOR_SC_OTHER;
	row->family = IOR_FAM_Misc;
	row->fd_arg = row->flags_arg = row->aux_arg = IOR_ARG_NONE;
	row->path_arg[0] = row->path_arg[1] = IOR_ARG_NONE;
	rows[nrows] = row;
	return (int)nrows++;
}
