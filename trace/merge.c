/* Each source keeps an index of its held records sorted by ts (a record is
 * inserted from the back, so an in-order stream costs one comparison; a
 * ring can be slightly out of order when a program was preempted between
 * bpf_ktime_get_ns and perf_event_output). Flush is a k-way merge over the
 * sources' heads: linear in k, fine for the CPU counts ior meets; a heap
 * would pay off beyond a few dozen CPUs. After a flush the records still
 * held are copied to the front of a second arena (few: only those newer
 * than the watermark) and the arenas swap. */
#include "trace/merge.h"
#include "trace/batch.h"
#include "bpf/event.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NO_POS UINT64_MAX /* a record in the arena, not in a ring */

struct ent {
	uint64_t ts;
	const char *p;
	uint64_t pos; /* ring position of its sample, or NO_POS */
	uint32_t len;
};

struct src {
	struct ent *e;
	uint32_t head, n, cap;
	uint64_t held_pos; /* lowest pos of its records held in a ring, NO_POS none */
};

struct ior_merge {
	unsigned nsrc;
	struct src *src;
	char *arena, *spare;
	size_t cap, used;
	uint64_t passed; /* highest watermark flushed so far */
	uint64_t late;
	int flushed;
};

struct ior_merge *ior_merge_new(unsigned nsrc, size_t arena_bytes)
{
	struct ior_merge *m = calloc(1, sizeof *m);

	if (!m || !nsrc)
		return free(m), NULL;
	m->nsrc = nsrc;
	m->cap = arena_bytes;
	m->src = calloc(nsrc, sizeof *m->src);
	for (unsigned i = 0; m->src && i < nsrc; i++)
		m->src[i].held_pos = NO_POS;
	m->arena = aligned_alloc(8, (arena_bytes + 7) & ~(size_t)7);
	m->spare = aligned_alloc(8, (arena_bytes + 7) & ~(size_t)7);
	if (!m->src || !m->arena || !m->spare) {
		ior_merge_free(m);
		return NULL;
	}
	return m;
}

void ior_merge_free(struct ior_merge *m)
{
	if (!m)
		return;
	for (unsigned i = 0; m->src && i < m->nsrc; i++)
		free(m->src[i].e);
	free(m->src);
	free(m->arena);
	free(m->spare);
	free(m);
}

/* Records are 24 to 552 bytes; musl's memcpy starts with rep movs, slow
 * for that size, and two copies per record were a fifth of ior's CPU. */
static void copy_rec(char *dst, const char *src, size_t len)
{
	size_t i = 0;

	for (; i + 8 <= len; i += 8)
		memcpy(dst + i, src + i, 8);
	for (; i < len; i++)
		dst[i] = src[i];
}

static int src_reserve(struct src *s, size_t more)
{
	if (more <= s->cap - s->n)
		return 0;
	size_t cap = s->cap ? s->cap : 4096;
	while (cap - s->n < more)
		cap *= 2;
	if (cap > UINT32_MAX)
		return -ENOMEM;
	struct ent *e = realloc(s->e, cap * sizeof *e);
	if (!e)
		return -ENOMEM;
	s->e = e;
	s->cap = (uint32_t)cap;
	return 0;
}

/* Room for nrec records of bytes in all (each rounded up to 8, the last
 * by at most 7), so that many pushes cannot fail with -ENOSPC. */
static int reserve(struct ior_merge *m, unsigned src, size_t bytes, size_t nrec)
{
	if (bytes > m->cap - m->used || m->cap - m->used - bytes < 8 ||
	    src_reserve(&m->src[src], nrec))
		return -ENOSPC;
	return 0;
}

/* Indexes the record at p, sorted into its source. */
static inline void index_rec(struct ior_merge *m, struct src *s, uint64_t ts, const char *p, uint64_t pos,
			     uint32_t len)
{
	uint32_t i;

	if (m->flushed && ts <= m->passed)
		m->late++;
	for (i = s->n; i > s->head && s->e[i - 1].ts > ts; i--)
		s->e[i] = s->e[i - 1];
	s->e[i] = (struct ent){ ts, p, pos, len };
	s->n++;
}

/* Indexes the records of a sample at a (8-byte strides from a, as
 * ior_batch_each walks a sample): the bytes walked, the last record's
 * padding included; *bad when a record does not fit. */
static size_t index_sample(struct ior_merge *m, struct src *s, const char *a, size_t len, uint64_t pos, int *bad)
{
	struct ior_rec_head h;
	size_t off = 0;

	while (off + sizeof h <= len) { /* off passes len by the last padding at most */
		memcpy(&h, a + off, sizeof h);
		if (h.len < sizeof h || h.len > len - off) {
			*bad = 1;
			break;
		}
		index_rec(m, s, h.ts, a + off, pos, h.len);
		off += ((size_t)h.len + 7) & ~(size_t)7;
	}
	return off;
}

/* The sample is copied whole (one memcpy, not one per record) and its
 * records keep their 8-byte strides, so they stay 8-aligned in the arena. */
int ior_merge_push_sample(struct ior_merge *m, unsigned src, const void *sample, size_t len)
{
	size_t base = m->used;
	int bad = 0;

	if (src >= m->nsrc)
		return -EINVAL;
	if (reserve(m, src, len, ior_batch_max_records(len)))
		return -ENOSPC;
	memcpy(m->arena + base, sample, len);
	/* reserve left room for the last record's padding */
	m->used = base + index_sample(m, &m->src[src], m->arena + base, len, NO_POS, &bad);
	return bad ? -EBADMSG : 0;
}

int ior_merge_push_ref(struct ior_merge *m, unsigned src, const void *sample, size_t len, uint64_t pos)
{
	int bad = 0;

	if (src >= m->nsrc || pos == NO_POS)
		return -EINVAL;
	struct src *s = &m->src[src];
	if (src_reserve(s, ior_batch_max_records(len)))
		return -ENOSPC;
	s->held_pos = pos < s->held_pos ? pos : s->held_pos;
	index_sample(m, s, sample, len, pos, &bad);
	return bad ? -EBADMSG : 0;
}

uint64_t ior_merge_held_pos(const struct ior_merge *m, unsigned src)
{
	return src < m->nsrc ? m->src[src].held_pos : NO_POS;
}

int ior_merge_push(struct ior_merge *m, unsigned src, const void *rec, size_t len)
{
	size_t need = (len + 7) & ~(size_t)7;
	struct ior_rec_head h;
	struct src *s;

	if (src >= m->nsrc || len < sizeof h || len > UINT32_MAX)
		return -EINVAL;
	if (need > m->cap - m->used)
		return -ENOSPC;
	s = &m->src[src];
	if (src_reserve(s, 1))
		return -ENOSPC;
	memcpy(&h, rec, sizeof h);
	copy_rec(m->arena + m->used, rec, len);
	index_rec(m, s, h.ts, m->arena + m->used, NO_POS, (uint32_t)len);
	m->used += need;
	return 0;
}

/* Index of the source whose next record is oldest and <= w, or -1. */
static int oldest(const struct ior_merge *m, uint64_t w)
{
	int best = -1;
	uint64_t ts = w;

	for (unsigned i = 0; i < m->nsrc; i++) {
		const struct src *s = &m->src[i];
		if (s->head < s->n && s->e[s->head].ts <= ts) {
			ts = s->e[s->head].ts;
			best = (int)i;
			if (ts == 0)
				break;
		}
	}
	return best;
}

/* Records still held move to the front of the spare arena, those read
 * in a ring too, so that the ring's space can go back to the kernel (a
 * small ring cannot hold what waits for the watermark); one that finds
 * no room stays in its ring, and the lowest ring position still held is
 * noted for the caller's ior_ring_release. */
static void compact(struct ior_merge *m)
{
	size_t used = 0;

	for (unsigned i = 0; i < m->nsrc; i++) {
		struct src *s = &m->src[i];
		uint32_t n = s->n - s->head;
		if (n && s->head)
			memmove(s->e, s->e + s->head, (size_t)n * sizeof *s->e);
		s->head = 0;
		s->n = n;
		s->held_pos = NO_POS;
	}
	/* the arena's own first: they fit, as they did in it */
	for (int ring = 0; ring < 2; ring++)
		for (unsigned i = 0; i < m->nsrc; i++) {
			struct src *s = &m->src[i];
			for (uint32_t j = 0; j < s->n; j++) {
				struct ent *e = &s->e[j];
				size_t need = (e->len + 7) & ~(size_t)7;
				if ((e->pos != NO_POS) != ring)
					continue;
				if (ring && need > m->cap - used) {
					s->held_pos = e->pos < s->held_pos ? e->pos : s->held_pos;
					continue;
				}
				copy_rec(m->spare + used, e->p, e->len);
				e->p = m->spare + used;
				e->pos = NO_POS;
				used += need;
			}
		}
	char *t = m->arena;
	m->arena = m->spare;
	m->spare = t;
	m->used = used;
}

/* How far source i's records can be delivered in a row, each one being
 * what oldest() would pick: not after w, not after an earlier source's
 * head (oldest() lets the last of equal heads win), before a later one's.
 * 0 when no record can follow. */
static uint64_t run_limit(const struct ior_merge *m, unsigned i, uint64_t w)
{
	uint64_t lim = w;

	for (unsigned j = 0; j < m->nsrc; j++) {
		const struct src *s = &m->src[j];
		if (j == i || s->head >= s->n)
			continue;
		uint64_t ts = s->e[s->head].ts;
		if (j > i && ts-- == 0)
			return 0;
		lim = ts < lim ? ts : lim;
	}
	return lim;
}

/* Runs of one source go without a scan of the others per record: a
 * thread's records mostly follow each other on one CPU. (A run at ts 0 is
 * right too: oldest() takes the first of several zero heads, and an
 * earlier source's head cannot be 0 when this one was picked.) */
void ior_merge_flush(struct ior_merge *m, uint64_t watermark, ior_merge_cb cb, void *ctx)
{
	int i;

	while ((i = oldest(m, watermark)) >= 0) {
		struct src *s = &m->src[i];
		uint64_t lim = run_limit(m, (unsigned)i, watermark);
		do {
			const struct ent *e = &s->e[s->head++];
			cb(ctx, e->p, e->len);
		} while (s->head < s->n && s->e[s->head].ts <= lim);
	}
	if (!m->flushed || watermark > m->passed)
		m->passed = watermark;
	m->flushed = 1;
	compact(m);
}

size_t ior_merge_pending(const struct ior_merge *m)
{
	size_t n = 0;

	for (unsigned i = 0; i < m->nsrc; i++)
		n += m->src[i].n - m->src[i].head;
	return n;
}

uint64_t ior_merge_late(const struct ior_merge *m)
{
	return m->late;
}
