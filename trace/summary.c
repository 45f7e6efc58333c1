/* Open addressing, linear probing, doubling at half full; keys are never
 * removed (neither are the kernel's). */
#include "trace/summary.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct slot {
	struct ior_sum_key k;
	struct ior_sum_val v;
	uint8_t used;
};

struct ior_sumtab {
	struct slot *s;
	uint32_t mask, count;
};

struct ior_sumtab *ior_sumtab_new(void)
{
	struct ior_sumtab *t = calloc(1, sizeof *t);

	if (!t)
		return NULL;
	t->mask = 255;
	t->s = calloc(t->mask + 1, sizeof *t->s);
	if (!t->s)
		return free(t), NULL;
	return t;
}

void ior_sumtab_free(struct ior_sumtab *t)
{
	if (!t)
		return;
	free(t->s);
	free(t);
}

static uint32_t hash_key(const struct ior_sum_key *k)
{
	uint64_t h = ((uint64_t)k->tid << 32 | k->nr) * 0x9e3779b97f4a7c15ull;
	h ^= (uint64_t)(uint32_t)k->fd * 0xc2b2ae3d27d4eb4full;
	h ^= (uint64_t)k->pid * 0x165667b19e3779f9ull;
	return (uint32_t)(h >> 32);
}

static int same_key(const struct ior_sum_key *a, const struct ior_sum_key *b)
{
	return a->pid == b->pid && a->tid == b->tid && a->nr == b->nr && a->fd == b->fd;
}

static struct slot *find_slot(struct slot *s, uint32_t mask, const struct ior_sum_key *k)
{
	uint32_t i = hash_key(k) & mask;

	while (s[i].used && !same_key(&s[i].k, k))
		i = (i + 1) & mask;
	return &s[i];
}

static int grow(struct ior_sumtab *t)
{
	uint32_t mask = t->mask * 2 + 1;
	struct slot *s = calloc((size_t)mask + 1, sizeof *s);

	if (!s)
		return -ENOMEM;
	for (uint32_t i = 0; i <= t->mask; i++)
		if (t->s[i].used)
			*find_slot(s, mask, &t->s[i].k) = t->s[i];
	free(t->s);
	t->s = s;
	t->mask = mask;
	return 0;
}

static uint64_t gain(uint64_t now, uint64_t before)
{
	return now > before ? now - before : 0;
}

int ior_sumtab_delta(struct ior_sumtab *t, const struct ior_sum_key *k, const struct ior_sum_val *now,
		     struct ior_sum_val *d)
{
	struct slot *s = find_slot(t->s, t->mask, k);

	if (!s->used) {
		if ((t->count + 1) * 2 > t->mask + 1)
			grow(t); /* on failure, fill up to 3/4 */
		if ((t->count + 1) * 4 > (t->mask + 1) * 3) {
			memset(d, 0, sizeof *d);
			return -ENOMEM;
		}
		s = find_slot(t->s, t->mask, k);
		memset(s, 0, sizeof *s);
		s->used = 1;
		s->k = *k;
		t->count++;
	}
	d->pairs = gain(now->pairs, s->v.pairs);
	d->bytes = gain(now->bytes, s->v.bytes);
	d->duration_ns = gain(now->duration_ns, s->v.duration_ns);
	d->gap_ns = gain(now->gap_ns, s->v.gap_ns);
	d->errors = gain(now->errors, s->v.errors);
	memcpy(d->comm, now->comm, sizeof d->comm);
	d->first_enter = now->first_enter;
	d->last_exit = now->last_exit;
	s->v = *now;
	return d->pairs || d->bytes || d->duration_ns || d->gap_ns || d->errors;
}

uint32_t ior_sumtab_keys(const struct ior_sumtab *t)
{
	return t->count;
}
