/* Folded stacks ("a;b;c 42"), the input format of flamegraph.pl and inferno.
 * The tree already merged identical stacks; lines are sorted in byte order
 * so output is stable and diffable. */
#include "flame.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct line {
	size_t off;
	uint64_t value;
};

static const char *sort_arena;

static int by_text(const void *x, const void *y)
{
	return strcmp(sort_arena + ((const struct line *)x)->off, sort_arena + ((const struct line *)y)->off);
}

static size_t stack_len(const struct ior_flame_tree *t, uint32_t n)
{
	size_t len = 0;
	for (; n; n = t->nodes[n].parent)
		len += strlen(ior_flame_node_name(t, n)) + 1;
	return len;
}

/* Writes the frames from the root's child down to n, ';'-separated. */
static void put_stack(const struct ior_flame_tree *t, uint32_t n, char *dst, size_t len)
{
	dst[--len] = 0;
	for (bool last = true; n; n = t->nodes[n].parent, last = false) {
		const char *s = ior_flame_node_name(t, n);
		size_t k = strlen(s);
		if (!last)
			dst[--len] = ';';
		len -= k;
		memcpy(dst + len, s, k);
	}
}

int ior_flame_write_folded(const struct ior_flame_tree *t, FILE *out)
{
	size_t nlines = 0, bytes = 0;
	for (uint32_t i = 1; i < t->nnodes; i++)
		if (t->nodes[i].self) {
			nlines++;
			bytes += stack_len(t, i);
		}
	struct line *lines = malloc((nlines ? nlines : 1) * sizeof *lines);
	char *arena = malloc(bytes ? bytes : 1);
	if (!lines || !arena) {
		free(lines);
		free(arena);
		return -ENOMEM;
	}
	size_t k = 0, off = 0;
	for (uint32_t i = 1; i < t->nnodes; i++) {
		if (!t->nodes[i].self)
			continue;
		size_t len = stack_len(t, i);
		put_stack(t, i, arena + off, len);
		lines[k++] = (struct line){ off, t->nodes[i].self };
		off += len;
	}
	sort_arena = arena;
	qsort(lines, nlines, sizeof *lines, by_text);
	for (size_t i = 0; i < nlines; i++)
		fprintf(out, "%s %llu\n", arena + lines[i].off, (unsigned long long)lines[i].value);
	free(lines);
	free(arena);
	return ferror(out) ? -EIO : 0;
}
