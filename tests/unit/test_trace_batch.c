/* Splitting perf samples into records (trace/batch.h), as bpf.c's batches
 * lay them out, and the merge taking one sample whole or not at all. */
#include "trace/batch.h"
#include "bpf/event.h"
#include "trace/merge.h"
#include "t.h"

#include <errno.h>
#include <string.h>

struct seen {
	size_t n;
	size_t len[16];
	uint32_t tid[16];
	size_t stop_after; /* 0: never */
};

static int collect(void *ctx, const void *rec, size_t len)
{
	struct seen *s = ctx;
	struct ior_rec_head h;

	memcpy(&h, rec, sizeof h);
	if (s->n < 16) {
		s->len[s->n] = len;
		s->tid[s->n] = h.tid;
	}
	s->n++;
	return s->stop_after && s->n == s->stop_after;
}

/* Appends a record of len bytes (head included) for tid at *off, then
 * moves *off to the next 8-byte boundary, as batch_commit does. */
static void put(char *buf, size_t *off, uint32_t len, uint32_t tid)
{
	struct ior_rec_head h = { 1000 + tid, 7, tid, IOR_REC_EXIT, 0, len };

	memset(buf + *off, 0xab, len);
	memcpy(buf + *off, &h, sizeof h);
	*off += (len + 7) & ~(size_t)7;
}

TEST(splits_records_at_aligned_strides)
{
	char buf[512] = { 0 };
	size_t off = 0;
	struct seen s = { 0 };

	put(buf, &off, sizeof(struct ior_rec_enter), 1);
	put(buf, &off, IOR_REC_EXIT_BASE + 5, 2); /* a path of 5 bytes: 45, stride 48 */
	put(buf, &off, sizeof(struct ior_rec_head), 3);
	struct ior_batch_walk w = ior_batch_each(buf, off + 4, collect, &s); /* + raw padding */
	CHECK_EQ_INT(w.records, 3);
	CHECK_EQ_INT(w.malformed, 0);
	CHECK_EQ_INT(s.len[0], sizeof(struct ior_rec_enter));
	CHECK_EQ_INT(s.len[1], IOR_REC_EXIT_BASE + 5);
	CHECK_EQ_INT(s.len[2], sizeof(struct ior_rec_head));
	CHECK_EQ_INT(s.tid[0], 1);
	CHECK_EQ_INT(s.tid[2], 3);
}

TEST(single_unpadded_record_is_one_record)
{
	char buf[64] = { 0 };
	size_t off = 0;
	struct seen s = { 0 };

	put(buf, &off, IOR_REC_EXIT_BASE + 3, 9);
	struct ior_batch_walk w = ior_batch_each(buf, IOR_REC_EXIT_BASE + 3, collect, &s);
	CHECK_EQ_INT(w.records, 1);
	CHECK_EQ_INT(w.malformed, 0);
	CHECK_EQ_INT(s.len[0], IOR_REC_EXIT_BASE + 3);
}

TEST(hostile_lengths_stop_the_walk)
{
	char buf[128] = { 0 };
	size_t off = 0;
	struct seen s = { 0 };

	put(buf, &off, 32, 1);
	put(buf, &off, 32, 2);
	struct ior_rec_head h;
	memcpy(&h, buf + 32, sizeof h);
	h.len = 4000; /* runs past the sample */
	memcpy(buf + 32, &h, sizeof h);
	struct ior_batch_walk w = ior_batch_each(buf, 64, collect, &s);
	CHECK_EQ_INT(w.records, 1);
	CHECK_EQ_INT(w.malformed, 1);

	h.len = 3; /* shorter than its head: no progress possible */
	memcpy(buf + 32, &h, sizeof h);
	s.n = 0;
	w = ior_batch_each(buf, 64, collect, &s);
	CHECK_EQ_INT(w.records, 1);
	CHECK_EQ_INT(w.malformed, 1);

	s.n = 0; /* all zeroes: a head with len 0 */
	memset(buf, 0, sizeof buf);
	w = ior_batch_each(buf, sizeof buf, collect, &s);
	CHECK_EQ_INT(w.records, 0);
	CHECK_EQ_INT(w.malformed, 1);
	CHECK_EQ_INT(s.n, 0);
}

TEST(callback_can_stop)
{
	char buf[128] = { 0 };
	size_t off = 0;
	struct seen s = { .stop_after = 1 };

	put(buf, &off, 32, 1);
	put(buf, &off, 32, 2);
	struct ior_batch_walk w = ior_batch_each(buf, off, collect, &s);
	CHECK_EQ_INT(w.stopped, 1);
	CHECK_EQ_INT(w.records, 0); /* the stopping record is not delivered */
	CHECK_EQ_INT(s.n, 1);
}

TEST(max_records_bounds_any_sample)
{
	CHECK_EQ_INT(ior_batch_max_records(0), 0);
	CHECK_EQ_INT(ior_batch_max_records(23), 0);
	CHECK_EQ_INT(ior_batch_max_records(IOR_BATCH_BYTES), IOR_BATCH_BYTES / 24);
}

static void count(void *ctx, const void *rec, size_t len)
{
	(void)rec;
	(void)len;
	++*(size_t *)ctx;
}

/* A sample's records go in whole or not at all; a malformed record keeps
 * those before it. */
TEST(merge_push_sample_is_all_or_nothing)
{
	struct ior_merge *m = ior_merge_new(2, 4096);
	char buf[IOR_BATCH_BYTES] = { 0 };
	size_t off = 0, got = 0;

	CHECK(m != NULL);
	if (!m)
		return;
	while (off + 48 <= 2000)
		put(buf, &off, 45, (uint32_t)off); /* 41 records, 1968 bytes */
	CHECK_EQ_INT(ior_merge_push_sample(m, 0, buf, off), 0);
	CHECK_EQ_INT(ior_merge_pending(m), 41);
	CHECK_EQ_INT(ior_merge_push_sample(m, 1, buf, off), 0); /* 3936 <= 4096 - 8 */
	CHECK_EQ_INT(ior_merge_push_sample(m, 1, buf, off), -ENOSPC); /* 160 bytes left */
	CHECK_EQ_INT(ior_merge_pending(m), 82);
	CHECK_EQ_INT(ior_merge_push_sample(m, 2, buf, 48), -EINVAL);
	ior_merge_flush(m, UINT64_MAX, count, &got);
	CHECK_EQ_INT(got, 82);
	struct ior_rec_head h;
	memcpy(&h, buf + 96, sizeof h);
	h.len = 4000; /* the third record runs past the sample */
	memcpy(buf + 96, &h, sizeof h);
	CHECK_EQ_INT(ior_merge_push_sample(m, 0, buf, off), -EBADMSG);
	CHECK_EQ_INT(ior_merge_pending(m), 2);
	ior_merge_free(m);
}

int main(void)
{
	RUN(splits_records_at_aligned_strides);
	RUN(single_unpadded_record_is_one_record);
	RUN(hostile_lengths_stop_the_walk);
	RUN(callback_can_stop);
	RUN(max_records_bounds_any_sample);
	RUN(merge_push_sample_is_all_or_nothing);
	return t_done();
}
