#include "buf.h"

#include <errno.h>
#include <stdlib.h>

int ior_pq_buf_reserve(struct ior_pq_buf *b, size_t n)
{
	if (b->err)
		return b->err;
	if (n <= b->cap - b->len)
		return 0;
	size_t cap = b->cap ? b->cap : 256;
	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2)
			return b->err = -ENOMEM;
		cap *= 2;
	}
	uint8_t *p = realloc(b->p, cap);
	if (!p)
		return b->err = -ENOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

void ior_pq_buf_free(struct ior_pq_buf *b)
{
	free(b->p);
	*b = (struct ior_pq_buf){ 0 };
}
