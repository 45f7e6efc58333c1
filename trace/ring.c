/* Perf ring reading, after the kernel's documented protocol
 * (include/uapi/linux/perf_event.h, "data_head"): the kernel publishes
 * data_head after writing records, so it is loaded with acquire; we hand
 * space back by storing data_tail with release after we are done reading
 * the records, so the kernel cannot overwrite them early. */
#include "trace/ring.h"
#include "loader/loader.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct raw_sample {
	struct perf_event_header h;
	uint32_t size;
};

struct lost_rec {
	struct perf_event_header h;
	uint64_t id, lost;
};

void ior_ring_init(struct ior_ring *r, void *meta, void *data, uint64_t size)
{
	memset(r, 0, offsetof(struct ior_ring, scratch));
	r->meta = meta;
	r->data = data;
	r->size = size;
	r->fd = -1;
}

uint64_t ior_ring_pending(const struct ior_ring *r)
{
	struct perf_event_mmap_page *m = r->meta;
	uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
	return head - m->data_tail;
}

/* Pointer to len bytes at position pos, copied to scratch if they wrap. */
static const void *at(struct ior_ring *r, uint64_t pos, size_t len)
{
	uint64_t off = pos & (r->size - 1);

	if (off + len <= r->size)
		return r->data + off;
	size_t first = (size_t)(r->size - off);
	memcpy(r->scratch, r->data + off, first);
	memcpy(r->scratch + first, r->data, len - first);
	return r->scratch;
}

/* Reads samples from pos up to head; cb says when to stop. Returns the
 * position reached. */
static uint64_t read_from(struct ior_ring *r, uint64_t tail, uint64_t head, ior_ring_ref_cb cb,
			  void *ctx, size_t *n)
{
	while (tail < head) {
		struct perf_event_header h;
		memcpy(&h, at(r, tail, sizeof h), sizeof h);
		if (h.size < sizeof h || h.size > head - tail) {
			r->bad++; /* cannot resynchronise inside a ring: skip what is there */
			return head;
		}
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(struct raw_sample)) {
			const char *rec = at(r, tail, h.size);
			uint32_t len;
			memcpy(&len, rec + sizeof h, sizeof len);
			if (len > h.size - sizeof(struct raw_sample)) {
				r->bad++;
			} else {
				if (cb(ctx, rec + sizeof(struct raw_sample), len, tail, rec != r->scratch))
					return tail;
				r->samples++;
				(*n)++;
			}
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(struct lost_rec)) {
			struct lost_rec l;
			memcpy(&l, at(r, tail, sizeof l), sizeof l);
			r->lost += l.lost;
		}
		tail += h.size;
	}
	return tail;
}

struct copy_ctx {
	ior_ring_cb cb;
	void *ctx;
};

static int copy_cb(void *ctx, const void *raw, size_t len, uint64_t pos, int in_place)
{
	struct copy_ctx *c = ctx;
	(void)pos, (void)in_place;
	return c->cb(c->ctx, raw, len);
}

size_t ior_ring_drain(struct ior_ring *r, ior_ring_cb cb, void *ctx)
{
	struct perf_event_mmap_page *m = r->meta;
	uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
	struct copy_ctx c = { cb, ctx };
	size_t n = 0;

	r->read = read_from(r, m->data_tail, head, copy_cb, &c, &n);
	__atomic_store_n(&m->data_tail, r->read, __ATOMIC_RELEASE);
	return n;
}

size_t ior_ring_read(struct ior_ring *r, ior_ring_ref_cb cb, void *ctx)
{
	struct perf_event_mmap_page *m = r->meta;
	uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
	size_t n = 0;

	if (r->read < m->data_tail) /* positions only grow: first read */
		r->read = m->data_tail;
	r->read = read_from(r, r->read, head, cb, ctx, &n);
	return n;
}

void ior_ring_release(struct ior_ring *r, uint64_t pos)
{
	struct perf_event_mmap_page *m = r->meta;
	uint64_t tail = pos < r->read ? pos : r->read;

	if (tail > m->data_tail)
		__atomic_store_n(&m->data_tail, tail, __ATOMIC_RELEASE);
}

int ior_ring_open(struct ior_ring *r, int cpu, uint64_t size, uint32_t wakeup_bytes,
		  char *err, size_t errlen)
{
	long page = sysconf(_SC_PAGESIZE);
	void *base;
	int fd = ior_loader_bpf_output_open(cpu, wakeup_bytes, err, errlen);

	if (fd < 0)
		return fd;
	base = mmap(NULL, (size_t)(size + (uint64_t)page), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		int e = errno;
		snprintf(err, errlen, "perf ring on CPU %d: mmap of %llu bytes: %s%s", cpu,
			 (unsigned long long)size, strerror(e),
			 e == EPERM || e == ENOMEM ? " (try a smaller -mapSize)" : "");
		close(fd);
		return -e;
	}
	ior_ring_init(r, base, (char *)base + page, size);
	r->fd = fd;
	r->map_len = (size_t)(size + (uint64_t)page);
	return 0;
}

void ior_ring_close(struct ior_ring *r)
{
	if (r->map_len)
		munmap(r->meta, r->map_len);
	if (r->fd >= 0)
		close(r->fd);
	r->map_len = 0;
	r->fd = -1;
}
