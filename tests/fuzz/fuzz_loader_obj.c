/* libFuzzer target for the loader's parse-only path: ior_loader_open (ELF,
 * BTF, .BTF.ext, maps, programs, relocations) and the lookups after it.
 * Never touches the kernel. */
#include <stddef.h>
#include <stdint.h>

#include "loader/loader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ior_bpf_obj *o = NULL;
	char err[256];
	if (ior_loader_open(data, size, &o, err, sizeof err))
		return 0;
	for (unsigned i = 0; i < ior_loader_prog_count(o); i++)
		(void)ior_loader_prog_fd(o, ior_loader_prog_name(o, i));
	for (unsigned i = 0; i < ior_loader_map_count(o); i++) {
		struct ior_loader_map_info mi;
		(void)ior_loader_map_info(o, ior_loader_map_name(o, i), &mi);
	}
	uint64_t v = 1;
	(void)ior_loader_set_global(o, "filter_pid", &v, sizeof v, err, sizeof err);
	ior_loader_close(o);
	return 0;
}
