/* Block requests: each completion record becomes a struct ior_block_req,
 * charged to the pair its submitter is inside when that pair began before
 * the request did. A pair's device time is the union of its requests'
 * [issue, completion] intervals: kept per open pair as disjoint intervals
 * (requests of one syscall mostly overlap: a few entries). */
#include "pair/internal.h"
#include "pair/block.h"

#include <stdlib.h>
#include <string.h>

const char *ior_blk_op_name(unsigned op)
{
	static const char *const names[IOR_BLK_NOPS] = { "read", "write", "discard", "flush", "other" };

	return op < IOR_BLK_NOPS ? names[op] : "other";
}

static uint8_t op_of(char c)
{
	switch (c) {
	case 'R': return IOR_BLK_READ;
	case 'W': return IOR_BLK_WRITE;
	case 'D': return IOR_BLK_DISCARD;
	case 'F': return IOR_BLK_FLUSH;
	default: return IOR_BLK_OTHER;
	}
}

void ior_blk_parse_rwbs(const char rwbs[8], uint8_t *op, uint8_t *flags)
{
	size_t i = 0;

	*flags = 0;
	if (rwbs[0] == 'F' && rwbs[1] && rwbs[1] != 'F') { /* PREFLUSH, then the op */
		*flags |= IOR_BLK_PREFLUSH;
		i = 1;
	}
	*op = op_of(rwbs[i]);
	for (i++; i < 8 && rwbs[i]; i++) {
		switch (rwbs[i]) {
		case 'F': *flags |= *op == IOR_BLK_FLUSH ? IOR_BLK_PREFLUSH : IOR_BLK_FUA; break;
		case 'A': *flags |= IOR_BLK_AHEAD; break;
		case 'S': *flags |= IOR_BLK_SYNC; break;
		case 'M': *flags |= IOR_BLK_META; break;
		default: break;
		}
	}
}

/* The open pair of tid, or NULL. */
static struct blk_acc *acc_find(struct ior_pairer *p, uint32_t tid)
{
	for (uint32_t i = 0; i < p->nacc; i++)
		if (p->acc[i].tid == tid)
			return &p->acc[i];
	return NULL;
}

static struct blk_acc *acc_get(struct ior_pairer *p, const struct tid_st *t)
{
	struct blk_acc *a = acc_find(p, t->tid);

	if (a && a->enter_ts != t->enter_ts) { /* a pair that ended without its exit */
		a->n = 0;
		a->reqs = 0;
		a->bytes = 0;
	}
	if (!a) {
		if (p->nacc == p->acc_cap) {
			uint32_t cap = p->acc_cap ? 2 * p->acc_cap : 8;
			struct blk_acc *na = realloc(p->acc, cap * sizeof *na);
			if (!na)
				return NULL;
			memset(na + p->acc_cap, 0, (cap - p->acc_cap) * sizeof *na);
			p->acc = na;
			p->acc_cap = cap;
		}
		a = &p->acc[p->nacc++];
		a->tid = t->tid;
		a->n = a->reqs = 0;
		a->bytes = 0;
	}
	a->enter_ts = t->enter_ts;
	return a;
}

/* Adds [s, e) to the pair's disjoint sorted intervals, merging. */
static void acc_cover(struct ior_pairer *p, struct blk_acc *a, uint64_t s, uint64_t e)
{
	uint32_t i = 0, j;

	if (e <= s)
		return;
	while (i < a->n && a->iv[i].e < s)
		i++;
	j = i;
	while (j < a->n && a->iv[j].s <= e) {
		s = a->iv[j].s < s ? a->iv[j].s : s;
		e = a->iv[j].e > e ? a->iv[j].e : e;
		j++;
	}
	if (j == i) { /* a new interval at i */
		if (a->n == a->cap) {
			uint32_t cap = a->cap ? 2 * a->cap : 4;
			struct blk_iv *iv = cap <= IOR_BLK_IV_MAX ? realloc(a->iv, cap * sizeof *iv) : NULL;
			if (!iv) { /* bounded: merge into the neighbour, counted */
				p->st.blk_cover_merged++;
				if (i == a->n)
					i--;
				if (a->iv[i].s > s)
					a->iv[i].s = s;
				if (a->iv[i].e < e)
					a->iv[i].e = e;
				return;
			}
			a->iv = iv;
			a->cap = cap;
		}
		memmove(a->iv + i + 1, a->iv + i, (a->n - i) * sizeof *a->iv);
		a->n++;
	} else if (j > i + 1) {
		memmove(a->iv + i + 1, a->iv + j, (a->n - j) * sizeof *a->iv);
		a->n -= j - i - 1;
	}
	a->iv[i].s = s;
	a->iv[i].e = e;
}

/* tid's syscall open since at or before ts, or NULL. */
static struct tid_st *tid_find_open(struct ior_pairer *p, uint32_t tid, uint64_t ts)
{
	struct tid_st *t = tid ? tid_lookup(p, tid) : NULL;

	return t && t->open && t->enter_ts <= ts ? t : NULL;
}

/* The pair of t a request that started at start_ns belongs to, or NULL. */
static struct tid_st *charged_pair(struct ior_pairer *p, uint32_t tid, uint64_t start_ns)
{
	struct tid_st *t = tid ? tid_lookup(p, tid) : NULL;

	if (!t || !t->open || t->enter_ts > start_ns)
		return NULL;
	if (p->cfg.visible && !p->cfg.visible[ior_syscall_index(ior_syscall_by_nr(t->nr))])
		return NULL;
	return t;
}

static const char *pair_path(struct ior_pairer *p, const struct tid_st *t)
{
	const struct ior_syscall *s = ior_syscall_by_nr(t->nr);
	int64_t flags;

	if (!s || s->fd_arg == IOR_ARG_NONE || s->fd_is_dirfd2 || t->fd < 0 || t->fd > INT32_MAX)
		return "";
	return ior_fdtab_get(p->cfg.fds, t->pid, (int)t->fd, &flags);
}

void ior_pair_block(struct ior_pairer *p, const char *rec, size_t len)
{
	struct ior_rec_block b;
	struct ior_block_req r;
	struct tid_st *t;
	char comm[IOR_COMM_LEN];

	if (len < sizeof b) {
		p->st.bad_records++;
		return;
	}
	memcpy(&b, rec, sizeof b);
	memcpy(comm, b.comm, sizeof comm);
	comm[sizeof comm - 1] = 0;
	r = (struct ior_block_req){
		.done_ns = b.h.ts, .start_ns = b.start_ns, .insert_ns = b.insert_ns, .issue_ns = b.issue_ns,
		.sector = b.sector, .dev = b.dev, .bytes = b.bytes, .error = b.error,
		.pid = b.h.pid, .tid = b.h.tid, .comm = comm, .sys = -1, .path = "",
	};
	uint8_t op0, flags0;
	ior_blk_parse_rwbs(b.rwbs_start, &op0, &flags0);
	ior_blk_parse_rwbs(b.rwbs, &r.op, &r.flags);
	r.flags |= flags0 & IOR_BLK_PREFLUSH;
	p->st.blk_requests++;
	if ((t = charged_pair(p, b.h.tid, b.start_ns))) {
		struct blk_acc *a = acc_get(p, t);
		if (a) {
			a->reqs++;
			a->bytes += b.bytes;
			a->dev = b.dev;
			if (b.issue_ns)
				acc_cover(p, a, b.issue_ns > t->enter_ts ? b.issue_ns : t->enter_ts, b.h.ts);
			r.sys = (int32_t)ior_syscall_index(ior_syscall_by_nr(t->nr));
			r.path = pair_path(p, t);
			p->st.blk_in_pairs++;
		}
	}
	if (p->cfg.block)
		p->cfg.block(p->cfg.sink_ctx, &r);
}

void ior_pair_block_exit(struct ior_pairer *p, const struct tid_st *t, struct ior_event_pair *e)
{
	struct blk_acc *a = acc_find(p, t->tid);
	uint64_t dev = 0;

	if (!a)
		return;
	if (a->enter_ts == t->enter_ts) {
		for (uint32_t i = 0; i < a->n; i++)
			dev += a->iv[i].e - a->iv[i].s;
		e->blk_requests = a->reqs;
		e->blk_bytes = a->bytes;
		e->blk_dev = a->dev;
		e->device_ns = dev < e->duration_ns ? dev : e->duration_ns;
	}
	ior_pair_block_forget(p, t->tid);
}

void ior_pair_block_free(struct ior_pairer *p)
{
	for (uint32_t i = 0; i < p->nacc; i++)
		free(p->acc[i].iv);
	free(p->acc);
	p->acc = NULL;
	p->nacc = p->acc_cap = 0;
}

void ior_pair_block_forget(struct ior_pairer *p, uint32_t tid)
{
	struct blk_acc *a = acc_find(p, tid);

	if (!a)
		return;
	free(a->iv);
	*a = p->acc[--p->nacc];
	memset(&p->acc[p->nacc], 0, sizeof p->acc[p->nacc]);
}

/* Pages a traced thread added to the page cache: its open syscall's
 * (a read's misses, and the readahead it started), else counted apart. */
void ior_pair_cache(struct ior_pairer *p, const char *rec, size_t len)
{
	struct ior_rec_cache c;
	struct tid_st *t;

	if (len < sizeof c) {
		p->st.bad_records++;
		return;
	}
	memcpy(&c, rec, sizeof c);
	p->st.cache_pages += c.pages;
	if ((t = tid_find_open(p, c.h.tid, c.h.ts)))
		t->cache_pages += c.pages;
	else
		p->st.cache_outside += c.pages;
}
