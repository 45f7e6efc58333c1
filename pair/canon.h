/* The name the kernel gives an fd (what /proc/PID/fd and strace -y show)
 * for a file opened by another path: symlinks resolved, "." and ".."
 * folded. Given only when the resolved path still leads to the very file
 * the open returned (same device and inode): else the caller keeps the
 * path as opened. Resolutions are cached by path. A cached one is used
 * again without a syscall when it is for the same file and no name on the
 * host changed since (ior_canon_generation: a count of every rename, link
 * and symlink, kept by bpf.c); without that count, it is verified (one
 * stat) on every use. */
#ifndef IOR_PAIR_CANON_H
#define IOR_PAIR_CANON_H

#include <stddef.h>
#include <stdint.h>

struct ior_canon;

struct ior_canon_stats {
	uint64_t hits, verified_hits, resolved, unverified, clears;
};

/* NULL on allocation failure. max: entries kept (the cache is cleared when
 * full). counted: ior_canon_generation will be told of every name change. */
struct ior_canon *ior_canon_new(size_t max, int counted);
/* The host's count of renames, links and symlinks so far: a resolution
 * made under another count is verified again before it is used. */
void ior_canon_generation(struct ior_canon *c, uint64_t gen);
void ior_canon_free(struct ior_canon *c);
/* The canonical name of absolute path if it names (kdev, ino) now, else
 * NULL. kdev is the kernel's dev_t (major << 20 | minor). leaf, the file's
 * own name ("" if unknown), finds the target of a symlink gone since when
 * it was in the same directory. The string lives until the next call. */
const char *ior_canon_get(struct ior_canon *c, const char *path, uint32_t kdev, uint64_t ino,
			  const char *leaf);
void ior_canon_get_stats(const struct ior_canon *c, struct ior_canon_stats *s);

#endif
