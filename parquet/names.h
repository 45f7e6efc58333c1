/* Names for the Parquet columns errno_name and family. */
#ifndef IOR_PARQUET_NAMES_H
#define IOR_PARQUET_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* "ENOENT" for ret = -2; an unnamed number as "E512" in buf. */
const char *ior_pq_errno_name(int64_t ret, char *buf, size_t len);
/* The family of ior_syscalls[sys] (FS, Network, Polling, ...: the
 * table's), "?" for an unknown index. */
const char *ior_pq_family(unsigned sys);

#endif
