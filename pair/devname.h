/* A block device's name as a person knows it (vda, nvme0n1p2, loop3,
 * dm-0) from its number: /sys/dev/block/MAJ:MIN/uevent's DEVNAME, else
 * /proc/partitions (rescue shells without sysfs), else "MAJ:MIN". */
#ifndef IOR_PAIR_DEVNAME_H
#define IOR_PAIR_DEVNAME_H

#include <stddef.h>
#include <stdint.h>

/* kdev: the kernel's encoding (major << 20 | minor). Writes a
 * NUL-terminated name into buf[0..len) and returns buf. sysfs and proc
 * name the root for tests ("/sys", "/proc" when NULL). */
const char *ior_devname(uint32_t kdev, char *buf, size_t len);
const char *ior_devname_at(const char *sysfs, const char *proc, uint32_t kdev, char *buf, size_t len);

/* The name in a uevent file's text (DEVNAME=...), or -1; pure. */
int ior_devname_uevent(const char *text, size_t n, char *buf, size_t len);
/* The name of major:minor in /proc/partitions' text, or -1; pure. */
int ior_devname_partitions(const char *text, size_t n, uint32_t major, uint32_t minor, char *buf, size_t len);

#endif
