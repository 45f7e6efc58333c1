/* Helpers the flame unit tests share. Include after t.h. */
#ifndef IOR_TEST_FLAME_UTIL_H
#define IOR_TEST_FLAME_UTIL_H

#include <stdio.h>

#include "flame/flame.h"

/* The tree's folded stacks as one malloc'd string. */
static inline char *folded(const struct ior_flame_tree *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	CHECK_EQ_INT(ior_flame_write_folded(t, m), 0);
	fclose(m);
	return buf;
}

#endif
