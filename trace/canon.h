/* The name the kernel gives an fd (what /proc/PID/fd and strace -y show)
 * for a file opened by another path: symlinks resolved, "." and ".."
 * folded. Given only when the resolved path still leads to the very file
 * the open returned (same device and inode): else the caller keeps the
 * path as opened. Resolutions are cached by path. A cached one is used
 * again without a syscall when it is for the same file and no name changed
 * since (ior_canon_names_changed, which the caller must see every rename,
 * link and symlink for: trust mode); else it is verified (one stat). */
#ifndef IOR_TRACE_CANON_H
#define IOR_TRACE_CANON_H

#include <stddef.h>
#include <stdint.h>

struct ior_canon;

struct ior_canon_stats {
	uint64_t hits, verified_hits, resolved, unverified, clears;
};

/* NULL on allocation failure. max: entries kept (the cache is cleared when
 * full). trust: every name change on the host is reported (no filter). */
struct ior_canon *ior_canon_new(size_t max, int trust);
/* A rename, link or symlink succeeded: cached resolutions need a check. */
void ior_canon_names_changed(struct ior_canon *c);
void ior_canon_free(struct ior_canon *c);
/* The canonical name of absolute path if it names (kdev, ino) now, else
 * NULL. kdev is the kernel's dev_t (major << 20 | minor). The string lives
 * until the next call. */
const char *ior_canon_get(struct ior_canon *c, const char *path, uint32_t kdev, uint64_t ino);
void ior_canon_get_stats(const struct ior_canon *c, struct ior_canon_stats *s);

#endif
