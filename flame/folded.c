/* Folded stacks ("a;b;c 42"), the input format of flamegraph.pl and inferno.
 * The tree already merged identical stacks; lines are sorted in byte order
 * so output is stable and diffable. They are written walking the tree,
 * never all held at once: under a node, a child's own line ("...;name")
 * sorts before every line through it ("...;name;..."), and those sort as
 * name + ";" among the siblings' lines (a sibling "name!" comes between:
 * '!' < ';'). Frame names hold no ';' (flame.h). */
#include "flame.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A node's own line (below false), or all the lines through its children. */
struct item {
	uint32_t node;
	bool below;
};

struct folder {
	const struct ior_flame_tree *t;
	FILE *out;
	struct item *items; /* a level's items, the deeper levels' after them */
	char *line;         /* the stack down to the current node */
	size_t len, cap;
};

static const struct ior_flame_tree *sort_tree;

/* name + (below ? ";" : "") in byte order */
static int by_line(const void *x, const void *y)
{
	const struct item *a = x, *b = y;
	const char *s = ior_flame_node_name(sort_tree, a->node), *t = ior_flame_node_name(sort_tree, b->node);
	size_t i = 0;
	while (s[i] && s[i] == t[i])
		i++;
	unsigned char c = s[i] ? (unsigned char)s[i] : a->below ? ';' : 0;
	unsigned char d = t[i] ? (unsigned char)t[i] : b->below ? ';' : 0;
	if (c != d || !c)
		return c - d;
	return s[i] ? 1 : t[i] ? -1 : 0; /* one ended in its ';': the shorter first */
}

/* Appends ";name" (or "name" at the top) to the line; its old length. */
static int push(struct folder *f, const char *name, size_t *old)
{
	size_t n = strlen(name), need = f->len + n + 2;
	if (need > f->cap) {
		size_t cap = f->cap ? f->cap : 256;
		while (cap < need)
			cap *= 2;
		char *l = realloc(f->line, cap);
		if (!l)
			return -ENOMEM;
		f->line = l;
		f->cap = cap;
	}
	*old = f->len;
	if (f->len)
		f->line[f->len++] = ';';
	memcpy(f->line + f->len, name, n + 1);
	f->len += n;
	return 0;
}

/* The lines under node n, in order; items[0..) is free to use. */
static int fold(struct folder *f, uint32_t n, struct item *items)
{
	const struct ior_flame_node *node = &f->t->nodes[n];
	uint32_t m = 0;
	for (uint32_t i = 0; i < node->nchild; i++) {
		uint32_t c = f->t->kids[node->child0 + i];
		if (f->t->nodes[c].self || (f->t->base && f->t->base[c].self))
			items[m++] = (struct item){ c, false };
		if (f->t->nodes[c].nchild)
			items[m++] = (struct item){ c, true };
	}
	sort_tree = f->t;
	qsort(items, m, sizeof *items, by_line);
	int rc = 0;
	for (uint32_t i = 0; !rc && i < m; i++) {
		size_t old;
		rc = push(f, ior_flame_node_name(f->t, items[i].node), &old);
		if (rc)
			break;
		if (items[i].below)
			rc = fold(f, items[i].node, items + m);
		else if (f->t->base) /* difffolded.pl's "stack before after" */
			fprintf(f->out, "%s %llu %llu\n", f->line, (unsigned long long)f->t->base[items[i].node].self,
				(unsigned long long)f->t->nodes[items[i].node].self);
		else
			fprintf(f->out, "%s %llu\n", f->line, (unsigned long long)f->t->nodes[items[i].node].self);
		f->len = old;
		f->line[old] = 0;
	}
	return rc;
}

int ior_flame_write_folded(const struct ior_flame_tree *t, FILE *out)
{
	/* each node is at most two items, at one level */
	struct folder f = { .t = t, .out = out, .items = malloc(2 * (size_t)(t->nnodes ? t->nnodes : 1) * sizeof *f.items) };
	int rc = f.items ? fold(&f, 0, f.items) : -ENOMEM;
	free(f.items);
	free(f.line);
	if (rc)
		return rc;
	return ferror(out) ? -EIO : 0;
}
