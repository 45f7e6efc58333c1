/* The merge's delivery order against a model of its contract: each source
 * sorted stably by ts among its held records, and every flush delivering
 * the records <= the watermark by repeatedly taking the oldest source head
 * (the last of equal heads, or the first head at ts 0). The model is the
 * per-record algorithm the merge used before it delivered runs and indexed
 * whole samples, in place or copied; random streams with ties, zeros, inversions, malformed
 * records and random watermarks must come out in the same order. */
#include "bpf/event.h"
#include "trace/merge.h"
#include "t.h"

#include <errno.h>
#include <stdlib.h>

#define NSRC 3
#define MAXREC 4096

struct model {
	uint64_t ts[NSRC][MAXREC];
	uint32_t id[NSRC][MAXREC];
	unsigned head[NSRC], n[NSRC];
};

struct out {
	uint32_t id[MAXREC * NSRC];
	size_t n;
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t below)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)((rng >> 33) % below);
}

static void model_push(struct model *m, unsigned src, uint64_t ts, uint32_t id)
{
	unsigned i;

	for (i = m->n[src]; i > m->head[src] && m->ts[src][i - 1] > ts; i--) {
		m->ts[src][i] = m->ts[src][i - 1];
		m->id[src][i] = m->id[src][i - 1];
	}
	m->ts[src][i] = ts;
	m->id[src][i] = id;
	m->n[src]++;
}

static void model_flush(struct model *m, uint64_t w, struct out *o)
{
	for (;;) {
		int best = -1;
		uint64_t ts = w;
		for (unsigned i = 0; i < NSRC; i++) {
			if (m->head[i] < m->n[i] && m->ts[i][m->head[i]] <= ts) {
				ts = m->ts[i][m->head[i]];
				best = (int)i;
				if (ts == 0)
					break;
			}
		}
		if (best < 0)
			return;
		o->id[o->n++] = m->id[best][m->head[best]++];
	}
}

static void collect(void *ctx, const void *rec, size_t len)
{
	struct out *o = ctx;
	struct ior_rec_head h;

	(void)len;
	memcpy(&h, rec, sizeof h);
	o->id[o->n++] = h.tid;
}

/* Samples pushed in place (ior_merge_push_ref): where they lie and their
 * ring positions. The space before ior_merge_held_pos goes back to the
 * "kernel", which writes over it: a record read from there after a flush
 * would come out wrong. */
struct refs {
	char *buf[64];
	size_t len[64];
	uint64_t pos[64];
	unsigned src[64], n;
};

static void give_back(struct refs *r, const struct ior_merge *m)
{
	for (unsigned k = 0; k < r->n; k++)
		if (r->buf[k] && r->pos[k] < ior_merge_held_pos(m, r->src[k])) {
			memset(r->buf[k], 0xee, r->len[k]);
			r->buf[k] = NULL;
		}
}

/* A sample of k records for src: ts near *clock (ties, steps back, zeros). */
static size_t make_sample(char *buf, unsigned k, uint64_t *clock, uint32_t *next_id,
			  struct model *m, unsigned src, int corrupt_at)
{
	size_t off = 0;

	for (unsigned r = 0; r < k; r++) {
		uint32_t len = rnd(2) ? 24 + rnd(40) : 64;
		uint64_t ts = *clock;
		switch (rnd(8)) {
		case 0: ts = ts > 3 ? ts - rnd(4) : ts; break; /* a small inversion */
		case 1: ts = rnd(3) ? ts : 0; break;          /* 0: oldest() takes the first */
		default: *clock += rnd(3); ts = *clock;       /* ties across sources */
		}
		struct ior_rec_head h = { ts, 1, *next_id, IOR_REC_EXIT, 0, len };
		if ((int)r == corrupt_at)
			h.len = 10000;
		memset(buf + off, 0x5a, len);
		memcpy(buf + off, &h, sizeof h);
		if ((int)r == corrupt_at)
			return off + len;
		model_push(m, src, ts, (*next_id)++);
		off += (len + 7) & ~(size_t)7;
	}
	return off + 4; /* the raw sample's padding */
}

TEST(order_matches_model)
{
	for (int round = 0; round < 200; round++) {
		struct model *md = calloc(1, sizeof *md);
		struct out *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
		struct ior_merge *m = ior_merge_new(NSRC, round % 2 ? 1 << 20 : 48 << 10);
		char *ring = malloc(60 * (size_t)IOR_BATCH_BYTES); /* samples read in place stay here */
		struct refs *refs = calloc(1, sizeof *refs);
		uint64_t clock = 100;
		uint32_t id = 1;

		CHECK(md && a && b && m && ring && refs);
		if (!md || !a || !b || !m || !ring || !refs)
			return;
		for (int step = 0; step < 60 && id + 64 < MAXREC; step++) {
			unsigned src = rnd(NSRC), k = 1 + rnd(24);
			int corrupt = rnd(30) ? -1 : (int)rnd(k);
			char *buf = ring + (size_t)step * IOR_BATCH_BYTES + 4 * (unsigned)rnd(2); /* 4-aligned too */
			size_t len = make_sample(buf, k, &clock, &id, md, src, corrupt);
			int in_place = rnd(2), r;
			if (in_place) {
				r = ior_merge_push_ref(m, src, buf, len, 1000 + (uint64_t)step);
				refs->buf[refs->n] = buf;
				refs->len[refs->n] = len;
				refs->pos[refs->n] = 1000 + (uint64_t)step;
				refs->src[refs->n++] = src;
			} else {
				r = ior_merge_push_sample(m, src, buf, len);
				memset(buf, 0, len); /* copied: the caller may reuse it */
			}
			CHECK_EQ_INT(r, corrupt < 0 ? 0 : -EBADMSG);
			if (rnd(3) == 0) {
				uint64_t w = rnd(4) ? clock - rnd(20) : UINT64_MAX;
				ior_merge_flush(m, w, collect, a);
				model_flush(md, w, b);
				give_back(refs, m);
			}
		}
		ior_merge_flush(m, UINT64_MAX, collect, a);
		model_flush(md, UINT64_MAX, b);
		CHECK_EQ_INT(a->n, b->n);
		CHECK(a->n == b->n && !memcmp(a->id, b->id, a->n * sizeof a->id[0]));
		for (unsigned i = 0; i < NSRC; i++)
			CHECK_EQ_INT(ior_merge_held_pos(m, i), UINT64_MAX);
		free(md);
		free(a);
		free(b);
		free(ring);
		free(refs);
		ior_merge_free(m);
		if (t_cur_failed)
			return;
	}
}

/* Records keep 8-byte alignment in the arena, whatever the sample's. */
static void aligned(void *ctx, const void *rec, size_t len)
{
	(void)len;
	*(int *)ctx |= ((uintptr_t)rec & 7) != 0;
}

TEST(records_delivered_aligned)
{
	struct ior_merge *m = ior_merge_new(1, 1 << 16);
	char raw[512] __attribute__((aligned(8)));
	int misaligned = 0;
	size_t off = 0;

	CHECK(m != NULL);
	if (!m)
		return;
	for (int r = 0; r < 5; r++) { /* lengths 25..29: strides of 32 */
		struct ior_rec_head h = { 10 + (uint64_t)r, 1, (uint32_t)r, IOR_REC_EXIT, 0, 25 + (uint32_t)r };
		memcpy(raw + 4 + off, &h, sizeof h); /* a ring hands samples 4 bytes off */
		off += 32;
	}
	CHECK_EQ_INT(ior_merge_push_sample(m, 0, raw + 4, off), 0);
	CHECK_EQ_INT(ior_merge_push_sample(m, 0, raw + 4, off - 3), 0); /* last record unpadded */
	ior_merge_flush(m, UINT64_MAX, aligned, &misaligned);
	CHECK_EQ_INT(misaligned, 0);
	CHECK_EQ_INT(ior_merge_pending(m), 0);
	ior_merge_free(m);
}

/* A flush copies the records it keeps out of the ring while the arena
 * has room; the rest stay in the ring, which held_pos tells. */
TEST(held_in_ring_when_arena_full)
{
	struct ior_merge *m = ior_merge_new(1, 64);
	char a[48], b[48];
	struct out *o = calloc(1, sizeof *o);

	CHECK(m && o);
	if (!m || !o)
		return;
	for (int r = 0; r < 2; r++) {
		struct ior_rec_head h = { 10 + 10 * (uint64_t)r, 1, 1 + (uint32_t)r, IOR_REC_EXIT, 0, 24 };
		memcpy(a + 24 * r, &h, sizeof h);
		h.ts += 20, h.tid += 2;
		memcpy(b + 24 * r, &h, sizeof h);
	}
	CHECK_EQ_INT(ior_merge_push_ref(m, 0, a, 48, 100), 0);
	CHECK_EQ_INT(ior_merge_push_ref(m, 0, b, 48, 200), 0);
	ior_merge_flush(m, 15, collect, o);
	CHECK_EQ_INT(o->n, 1);
	CHECK_EQ_INT(ior_merge_held_pos(m, 0), 200); /* ts 20 and 30 copied, 40 left in b */
	memset(a, 0, sizeof a);                      /* a went back to the kernel */
	ior_merge_flush(m, UINT64_MAX, collect, o);
	CHECK_EQ_INT(o->n, 4);
	CHECK(o->id[1] == 2 && o->id[2] == 3 && o->id[3] == 4);
	CHECK_EQ_INT(ior_merge_held_pos(m, 0), UINT64_MAX);
	free(o);
	ior_merge_free(m);
}

int main(void)
{
	RUN(order_matches_model);
	RUN(records_delivered_aligned);
	RUN(held_in_ring_when_arena_full);
	return t_done();
}
