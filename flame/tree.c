/* The frame tree of an aggregation: each key drawn bottom up by its
 * fields' frames (field.c), identical frames merged, children sorted by
 * name; what folded, SVG and JSON render. */
#include "agg.h"
#include "field.h"
#include "mem/grow.h"
#include "text/strtab.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A frame of the key drawn last: the same bytes under the same parent
 * are the same node, found without sanitising, interning and looking it
 * up again (keys share their first frames: the comm, "/", "usr", ...). */
struct last_frame {
	uint32_t parent, node;
	size_t off, len; /* its bytes in builder.last_bytes */
};

struct builder {
	struct ior_flame_tree *t;
	struct ior_strtab names;
	uint32_t ncap;
	/* every node but the root, + 1 (0 empty), by its parent and name:
	 * the node holds both, so a slot is 4 bytes */
	uint32_t *children;
	uint32_t ccap;
	struct last_frame *last; /* by depth from the root, nlast of them */
	uint32_t nlast, last_cap;
	char *last_bytes;
	size_t last_bytes_cap;
	char buf[4 * 4096 + 16];
};

/* name: the name's offset in the arena, as a node holds it */
static uint32_t child_slot(uint32_t parent, uint32_t name, uint32_t cap)
{
	return (uint32_t)((((uint64_t)parent << 32 | name) * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

static int grow_children(struct builder *b)
{
	uint32_t cap = b->ccap * 2;
	uint32_t *c = calloc(cap, sizeof *c);
	if (!c)
		return -ENOMEM;
	for (uint32_t i = 0; i < b->ccap; i++) {
		if (!b->children[i])
			continue;
		const struct ior_flame_node *n = &b->t->nodes[b->children[i] - 1];
		uint32_t j = child_slot(n->parent, n->name, cap);
		while (c[j])
			j = (j + 1) & (cap - 1);
		c[j] = b->children[i];
	}
	free(b->children);
	b->children = c;
	b->ccap = cap;
	return 0;
}

static int new_node(struct builder *b, uint32_t parent, uint32_t name, uint32_t *id)
{
	struct ior_flame_tree *t = b->t;
	if (t->nnodes == b->ncap) {
		if (b->ncap >= UINT32_MAX / 4)
			return -ENOMEM;
		struct ior_flame_node *n = realloc(t->nodes, 2 * (size_t)b->ncap * sizeof *n);
		if (!n)
			return -ENOMEM;
		t->nodes = n;
		b->ncap *= 2;
	}
	uint32_t depth = t->nnodes ? t->nodes[parent].depth + 1 : 0;
	t->nodes[t->nnodes] = (struct ior_flame_node){ .name = name, .parent = parent, .depth = depth };
	if (depth > t->max_depth)
		t->max_depth = depth;
	*id = t->nnodes++;
	return 0;
}

/* The child of parent named name, created when missing. */
static int child(struct builder *b, uint32_t parent, uint32_t name, uint32_t *id)
{
	uint32_t off = b->names.off[name], j = child_slot(parent, off, b->ccap);
	for (; b->children[j]; j = (j + 1) & (b->ccap - 1)) {
		const struct ior_flame_node *n = &b->t->nodes[b->children[j] - 1];
		if (n->parent == parent && n->name == off) {
			*id = b->children[j] - 1;
			return 0;
		}
	}
	int rc = new_node(b, parent, off, id);
	if (rc)
		return rc;
	b->children[j] = *id + 1;
	if (b->t->nnodes * 2 > b->ccap)
		return grow_children(b);
	return 0;
}

static bool same_as_last(const struct builder *b, uint32_t depth, uint32_t parent, const char *s, size_t n,
			 uint32_t *node)
{
	if (depth >= b->nlast)
		return false;
	const struct last_frame *l = &b->last[depth];
	if (l->parent != parent || l->len != n || !ior_strtab_same_bytes(b->last_bytes + l->off, s, n))
		return false;
	*node = l->node;
	return true;
}

/* Frame depth of the key being drawn; the deeper ones followed another. */
static int remember(struct builder *b, uint32_t depth, uint32_t parent, const char *s, size_t n, uint32_t node)
{
	size_t cap = b->last_cap, off = depth ? b->last[depth - 1].off + b->last[depth - 1].len : 0;
	if (ior_grow((void **)&b->last, &cap, (size_t)depth + 1, sizeof *b->last, 64) ||
	    ior_grow((void **)&b->last_bytes, &b->last_bytes_cap, off + n, 1, 64))
		return -ENOMEM;
	b->last_cap = (uint32_t)cap;
	memcpy(b->last_bytes + off, s, n);
	b->last[depth] = (struct last_frame){ parent, node, off, n };
	b->nlast = depth + 1;
	return 0;
}

static void add_to(struct ior_flame_node *n, const struct ior_flame_sums *w)
{
	n->value = ior_flame_sat_add(n->value, w->value);
	n->time_ns = ior_flame_sat_add(n->time_ns, w->time_ns);
	n->device_ns = ior_flame_sat_add(n->device_ns, w->device_ns);
}

/* Descends one frame, the depth-th of a key, from *node, adding w. */
static int frame(struct builder *b, uint32_t *node, uint32_t depth, const char *s, size_t n,
		 const struct ior_flame_sums *w)
{
	uint32_t parent = *node;
	if (!same_as_last(b, depth, parent, s, n, node)) {
		size_t len = ior_flame_sanitize(b->buf, sizeof b->buf, s, n);
		uint32_t name = ior_strtab_intern(&b->names, b->buf, len);
		int rc = name == UINT32_MAX ? -ENOMEM : child(b, parent, name, node);
		if (!rc)
			rc = remember(b, depth, parent, s, n, *node);
		if (rc)
			return rc;
	}
	add_to(&b->t->nodes[*node], w);
	return 0;
}

/* A field's frames go up from node, each adding w (field.h); without a
 * builder they are only counted, in depth. */
struct ior_flame_frames {
	struct builder *b;
	uint32_t node, depth;
	const struct ior_flame_sums *w;
};

int ior_flame_frame(struct ior_flame_frames *out, const char *s, size_t n)
{
	return out->b ? frame(out->b, &out->node, out->depth++, s, n, out->w) : (out->depth++, 0);
}

uint32_t ior_flame_count_frames(const struct ior_flame_field *f, const char *text, uint64_t number)
{
	struct ior_flame_frames out = { NULL, 0, 0, NULL };
	f->frames(&out, text, number);
	return out.depth;
}

static const struct ior_flame_tree *sort_tree;

static int by_name(const void *x, const void *y)
{
	const struct ior_flame_tree *t = sort_tree;
	return strcmp(ior_flame_node_name(t, *(const uint32_t *)x), ior_flame_node_name(t, *(const uint32_t *)y));
}

/* Children lists in one array, each sorted by name. */
static int link_children(struct ior_flame_tree *t)
{
	t->kids = malloc((t->nnodes ? t->nnodes : 1) * sizeof *t->kids);
	if (!t->kids)
		return -ENOMEM;
	for (uint32_t i = 1; i < t->nnodes; i++)
		t->nodes[t->nodes[i].parent].nchild++;
	uint32_t next = 0;
	for (uint32_t i = 0; i < t->nnodes; i++) {
		t->nodes[i].child0 = next;
		next += t->nodes[i].nchild;
		t->nodes[i].nchild = 0;
	}
	for (uint32_t i = 1; i < t->nnodes; i++) {
		struct ior_flame_node *p = &t->nodes[t->nodes[i].parent];
		t->kids[p->child0 + p->nchild++] = i;
	}
	sort_tree = t;
	for (uint32_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].nchild > 1)
			qsort(t->kids + t->nodes[i].child0, t->nodes[i].nchild, sizeof *t->kids, by_name);
	return 0;
}

struct walk {
	struct builder *b;
	const struct ior_flame_agg *a;
};

/* One key's frames, bottom up. */
static int add_key(void *ctx, const uint64_t *key, const struct ior_flame_sums *sums)
{
	struct walk *w = ctx;
	struct ior_flame_tree *t = w->b->t;
	const struct ior_flame_spec *spec = ior_flame_agg_spec(w->a);
	struct ior_flame_frames out = { w->b, 0, 0, sums };
	int rc = 0;
	add_to(&t->nodes[0], sums);
	for (unsigned i = 0; !rc && i < spec->nfields; i++) {
		const struct ior_flame_field *f = &ior_flame_fields[spec->fields[i]];
		const char *text = f->text ? ior_flame_agg_string(w->a, key[i]) : NULL;
		rc = f->frames(&out, text, key[i]);
	}
	if (!rc)
		t->nodes[out.node].self = ior_flame_sat_add(t->nodes[out.node].self, sums->value);
	return rc;
}

static int build(struct builder *b, const struct ior_flame_agg *a)
{
	struct ior_flame_tree *t = b->t;
	struct walk w = { b, a };
	uint32_t root;
	int rc = ior_strtab_intern(&b->names, "all", 3) == UINT32_MAX ? -ENOMEM : 0;
	if (!rc)
		rc = new_node(b, 0, 0, &root);
	if (!rc)
		rc = ior_flame_agg_each(a, add_key, &w);
	struct ior_flame_sums other = ior_flame_agg_other_sums(a);
	if (!rc && ior_flame_agg_other_pairs(a)) {
		uint32_t node = 0;
		add_to(&t->nodes[0], &other);
		rc = frame(b, &node, 0, IOR_FLAME_OTHER, strlen(IOR_FLAME_OTHER), &other);
		if (!rc)
			t->nodes[node].self = ior_flame_sat_add(t->nodes[node].self, other.value);
	}
	t->names = b->names.arena; /* final: no more names are added */
	if (!rc)
		rc = link_children(t);
	return rc;
}

int ior_flame_tree_build(const struct ior_flame_agg *a, struct ior_flame_tree **tp)
{
	*tp = NULL;
	struct ior_flame_tree *t = calloc(1, sizeof *t);
	struct builder b = { .t = t, .ncap = 1024, .ccap = 2048 };
	if (!t)
		return -ENOMEM;
	t->spec = *ior_flame_agg_spec(a);
	t->pairs = ior_flame_agg_pairs(a);
	uint64_t first, last;
	ior_flame_agg_span(a, &first, &last);
	t->meta.span_ns = last > first ? last - first : 0;
	t->nodes = malloc(b.ncap * sizeof *t->nodes);
	b.children = calloc(b.ccap, sizeof *b.children);
	int rc = -ENOMEM;
	if (t->nodes && b.children && !ior_strtab_init(&b.names))
		rc = build(&b, a);
	free(b.children);
	free(b.last);
	free(b.last_bytes);
	t->names = b.names.arena;
	b.names.arena = NULL;
	ior_strtab_free(&b.names);
	if (rc) {
		ior_flame_tree_free(t);
		return rc;
	}
	*tp = t;
	return 0;
}

void ior_flame_tree_free(struct ior_flame_tree *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t->kids);
	free(t->names);
	free(t->base);
	if (t->diff) {
		free(t->diff->base_name);
		free(t->diff->new_name);
		free(t->diff);
	}
	free(t);
}
