#include "table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static inline uint32_t hash_key(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (uint32_t)k;
}

int table_init(struct table *t, uint32_t max)
{
	uint32_t slots = 16;

	memset(t, 0, sizeof *t);
	while (slots < 2 * max)
		slots *= 2;
	t->max = max;
	t->mask = slots - 1;
	t->index = calloc(slots, sizeof *t->index);
	return t->index ? 0 : -ENOMEM;
}

void table_free(struct table *t)
{
	free(t->rows);
	free(t->index);
	memset(t, 0, sizeof *t);
}

struct trow *table_find(struct table *t, uint64_t key)
{
	if (t->last && t->rows[t->last - 1].key == key)
		return &t->rows[t->last - 1];
	for (uint32_t i = hash_key(key) & t->mask; t->index[i]; i = (i + 1) & t->mask)
		if (t->rows[t->index[i] - 1].key == key) {
			t->last = t->index[i];
			return &t->rows[t->last - 1];
		}
	return NULL;
}

static void index_row(struct table *t, uint32_t row)
{
	uint32_t i = hash_key(t->rows[row].key) & t->mask;

	while (t->index[i])
		i = (i + 1) & t->mask;
	t->index[i] = row + 1;
}

struct trow *table_add(struct table *t, uint64_t key)
{
	if (t->n == t->max)
		return NULL;
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? 2 * t->cap : 64;
		struct trow *r = realloc(t->rows, (size_t)(cap < t->max ? cap : t->max) * sizeof *r);
		if (!r)
			return NULL;
		t->rows = r;
		t->cap = cap < t->max ? cap : t->max;
	}
	memset(&t->rows[t->n], 0, sizeof *t->rows);
	t->rows[t->n].key = key;
	index_row(t, t->n);
	t->last = ++t->n;
	return &t->rows[t->n - 1];
}

void ior_stats_sums_merge(struct ior_stats_sums *a, const struct ior_stats_sums *b)
{
	a->pairs += b->pairs;
	a->errors += b->errors;
	a->summarized += b->summarized;
	a->bytes_read += b->bytes_read;
	a->bytes_written += b->bytes_written;
	a->time_ns += b->time_ns;
	a->gap_ns += b->gap_ns;
	if (b->max_ns > a->max_ns)
		a->max_ns = b->max_ns;
}

static void swap(uint64_t *a, uint64_t *b)
{
	uint64_t x = *a;
	*a = *b;
	*b = x;
}

/* The k-th smallest of v[0..n) (k < n), reordering v: quickselect with a
 * three-way partition, linear however many values are equal. */
static uint64_t select_kth(uint64_t *v, uint32_t n, uint32_t k)
{
	uint32_t lo = 0, hi = n; /* the k-th is in v[lo..hi) */

	while (hi - lo > 1) {
		uint64_t pivot = v[lo + (hi - lo) / 2];
		uint32_t lt = lo, i = lo, gt = hi;
		while (i < gt) {
			if (v[i] < pivot)
				swap(&v[lt++], &v[i++]);
			else if (v[i] > pivot)
				swap(&v[i], &v[--gt]);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return pivot;
	}
	return v[k];
}

/* Keeps the n/2 rows with the most time: those above the (n - n/2)-th
 * smallest time, then rows with that time, in row order, up to n/2. */
void table_fold(struct table *t)
{
	uint32_t keep = t->n / 2, kept = 0, above = 0, ties = 0;
	uint64_t *times = keep ? malloc((size_t)t->n * sizeof *times) : NULL, cut = 0;
	bool ranked = times; /* else (one row, or out of memory) every row is folded */

	if (ranked) {
		for (uint32_t i = 0; i < t->n; i++)
			times[i] = t->rows[i].s.time_ns;
		cut = select_kth(times, t->n, t->n - keep);
		free(times);
		for (uint32_t i = 0; i < t->n; i++)
			above += t->rows[i].s.time_ns > cut;
		ties = keep - above;
	}
	for (uint32_t i = 0; i < t->n; i++) {
		struct trow *r = &t->rows[i];
		bool tie = ranked && r->s.time_ns == cut && ties;
		if (tie)
			ties--;
		if (tie || (ranked && r->s.time_ns > cut))
			t->rows[kept++] = *r;
		else
			ior_stats_sums_merge(&t->other.s, &r->s);
	}
	t->n = kept;
	t->folds++;
	table_reindex(t);
}

void table_reindex(struct table *t)
{
	memset(t->index, 0, ((size_t)t->mask + 1) * sizeof *t->index);
	for (uint32_t i = 0; i < t->n; i++)
		index_row(t, i);
	t->last = 0;
}
