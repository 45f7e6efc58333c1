/* Growing an array by doubling, the one way every room does it: the
 * element count and the byte size are checked for overflow before
 * realloc, so a hostile count (a recording's, an ELF's) fails cleanly. */
#ifndef IOR_MEM_GROW_H
#define IOR_MEM_GROW_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Makes *p hold at least need elements of size bytes: *cap doubles from
 * first (or from *cap) until it does. 0, or -ENOMEM (then *p and *cap are
 * as they were). */
static inline int ior_grow(void **p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t c = *cap ? *cap : first ? first : 1;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -ENOMEM;
		c *= 2;
	}
	if (size && c > SIZE_MAX / size)
		return -ENOMEM;
	if (!(q = realloc(*p, c * size)))
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

#endif
