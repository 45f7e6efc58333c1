/* Errno names, by Linux's numbers (asm-generic: x86_64 and arm64 alike). */
#ifndef IOR_SYSCALLS_ERRNOS_H
#define IOR_SYSCALLS_ERRNOS_H

#include <stddef.h>
#include <stdint.h>

/* "ENOENT" for 2; NULL for a number without a name (ERESTARTSYS, 512). */
const char *ior_errno_name(uint64_t e);
/* The number of the name name[0..n) ("EIO": 5), or -1. */
int ior_errno_by_name(const char *name, size_t n);

#endif
