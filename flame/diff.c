#include "flame/diff.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

double ior_flame_diff_pct(uint64_t base, uint64_t new_)
{
	if (!base)
		return new_ ? 100.0 : 0.0;
	return 100.0 * ((double)new_ - (double)base) / (double)base;
}

struct merger {
	const struct ior_flame_tree *a, *b; /* BASE, NEW */
	struct ior_flame_tree *t;
	uint32_t *from_a, *from_b;          /* per merged node: its source nodes, or NONE */
	uint32_t nkids;
	size_t names_len;
	double f;
};

static uint64_t scaled(const struct merger *m, uint64_t v)
{
	return ior_norm_scale(v, m->f);
}

/* A merged node from a's node ia and b's node ib (either NONE). */
static uint32_t add_node(struct merger *m, uint32_t ia, uint32_t ib, uint32_t parent, uint32_t depth)
{
	struct ior_flame_tree *t = m->t;
	uint32_t n = t->nnodes++;
	const char *name = ib != NONE ? ior_flame_node_name(m->b, ib) : ior_flame_node_name(m->a, ia);
	size_t len = strlen(name) + 1;
	const struct ior_flame_node *nb = ib != NONE ? &m->b->nodes[ib] : NULL;
	const struct ior_flame_node *na = ia != NONE ? &m->a->nodes[ia] : NULL;

	memcpy(t->names + m->names_len, name, len);
	t->nodes[n] = (struct ior_flame_node){ .value = nb ? nb->value : 0, .self = nb ? nb->self : 0,
					       .name = (uint32_t)m->names_len, .parent = parent, .depth = depth };
	t->base[n] = (struct ior_flame_base){ na ? scaled(m, na->value) : 0, na ? scaled(m, na->self) : 0 };
	m->names_len += len;
	m->from_a[n] = ia;
	m->from_b[n] = ib;
	if (depth > t->max_depth)
		t->max_depth = depth;
	return n;
}

static uint32_t kid(const struct ior_flame_tree *t, uint32_t n, uint32_t i)
{
	return t->kids[t->nodes[n].child0 + i];
}

/* The children of merged node n: both sides' children in name order
 * (byte order, as both trees keep them), equal names made one; then
 * theirs, depth first. */
static void merge(struct merger *m, uint32_t n)
{
	uint32_t ia = m->from_a[n], ib = m->from_b[n];
	uint32_t na = ia != NONE ? m->a->nodes[ia].nchild : 0, nb = ib != NONE ? m->b->nodes[ib].nchild : 0;
	uint32_t i = 0, j = 0, first = m->t->nnodes, depth = m->t->nodes[n].depth + 1;

	m->t->nodes[n].child0 = m->nkids;
	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 :
			strcmp(ior_flame_node_name(m->a, kid(m->a, ia, i)), ior_flame_node_name(m->b, kid(m->b, ib, j)));
		uint32_t ca = c <= 0 ? kid(m->a, ia, i++) : NONE, cb = c >= 0 ? kid(m->b, ib, j++) : NONE;
		m->t->kids[m->nkids++] = add_node(m, ca, cb, n, depth);
	}
	m->t->nodes[n].nchild = m->t->nnodes - first;
	for (uint32_t k = first, end = m->t->nnodes; k < end; k++)
		merge(m, k);
}

static size_t names_size(const struct ior_flame_tree *t)
{
	size_t n = 0;
	for (uint32_t i = 0; i < t->nnodes; i++)
		n += strlen(ior_flame_node_name(t, i)) + 1;
	return n;
}

/* BASE's values into NEW's units; -EINVAL with why when they cannot be. */
static int factor(const struct ior_flame_tree *a, const struct ior_flame_tree *b, enum ior_norm norm,
		  double *f, char *err, size_t errlen)
{
	struct ior_norm_side base = { a->meta.span_ns, a->nodes[0].value }, new_ = { b->meta.span_ns, b->nodes[0].value };

	if (norm == IOR_NORM_RATE) /* a span of 0 says why by its pairs */
		base.total = a->pairs, new_.total = b->pairs;
	return ior_norm_factor(norm, &base, &new_, ior_flame_metric_name(b->spec.metric), f, err, errlen);
}

static int diff_meta(struct ior_flame_tree *t, const struct ior_flame_tree *a, enum ior_norm norm,
		     double f, const char *base_name, const char *new_name)
{
	struct ior_flame_diff_meta *d = calloc(1, sizeof *d);

	if (!d)
		return -ENOMEM;
	t->diff = d;
	d->base_name = strdup(base_name);
	d->new_name = strdup(new_name);
	d->norm = norm;
	d->factor = f;
	d->base_total = a->nodes[0].value;
	d->base_pairs = a->pairs;
	d->base_span_ns = a->meta.span_ns;
	d->base_meta = a->meta;
	d->base_meta.host = NULL;
	return d->base_name && d->new_name ? 0 : -ENOMEM;
}

int ior_flame_diff(const struct ior_flame_tree *base, const struct ior_flame_tree *new_,
		   enum ior_norm norm, const char *base_name, const char *new_name,
		   struct ior_flame_tree **out, char *err, size_t errlen)
{
	struct merger m = { .a = base, .b = new_ };
	size_t cap = (size_t)base->nnodes + new_->nnodes;
	struct ior_flame_tree *t;
	int rc = factor(base, new_, norm, &m.f, err, errlen);

	*out = NULL;
	if (rc)
		return rc;
	if (!(t = m.t = calloc(1, sizeof *t)))
		return -ENOMEM;
	t->spec = new_->spec;
	t->pairs = new_->pairs;
	t->meta = new_->meta;
	t->meta.host = NULL; /* the caller's to set: it owns the string */
	t->nodes = malloc(cap * sizeof *t->nodes);
	t->base = malloc(cap * sizeof *t->base);
	t->kids = malloc(cap * sizeof *t->kids);
	t->names = malloc(names_size(base) + names_size(new_));
	m.from_a = malloc(cap * sizeof *m.from_a);
	m.from_b = malloc(cap * sizeof *m.from_b);
	rc = t->nodes && t->base && t->kids && t->names && m.from_a && m.from_b ? 0 : -ENOMEM;
	if (!rc) {
		add_node(&m, 0, 0, NONE, 0);
		merge(&m, 0);
		rc = diff_meta(t, base, norm, m.f, base_name, new_name);
	}
	free(m.from_a);
	free(m.from_b);
	if (rc) {
		ior_flame_tree_free(t);
		snprintf(err, errlen, "%s", strerror(-rc));
		return rc;
	}
	*out = t;
	return 0;
}
