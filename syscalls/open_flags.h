/* Open flags as text, the names of <fcntl.h>. */
#ifndef IOR_SYSCALLS_OPEN_FLAGS_H
#define IOR_SYSCALLS_OPEN_FLAGS_H

#include <stddef.h>

/* "O_RDONLY|O_CLOEXEC" for open flags, unknown bits as "|0x..."; writes
 * at most len bytes (NUL included). */
void ior_open_flags_str(char *buf, size_t len, long long flags);

#endif
