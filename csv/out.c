#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "csv/out.h"

#define BUF_BYTES (256u << 10)
#define FLUSH_NS 1000000000ull

_Static_assert(BUF_BYTES > IOR_CSV_ROW_MAX, "a row fits the buffer");

struct ior_csv_out {
	FILE *out, *notes;
	enum ior_escape esc;
	struct ior_csv_columns cols; /* -plainColumns */
	int error;             /* errno of the first failed write */
	uint64_t rows_since_flush, flushed_ns;
	uint64_t summarized;   /* pairs summarized since the last note */
	size_t len;
	char buf[BUF_BYTES];
};

static void write_buf(struct ior_csv_out *c)
{
	if (!c->len || c->error)
		return;
	errno = 0; /* a failed write's errno, not an older one */
	if (fwrite(c->buf, 1, c->len, c->out) != c->len || ferror(c->out))
		c->error = errno ? errno : EIO;
	c->len = 0;
}

static void flush(struct ior_csv_out *c)
{
	write_buf(c);
	if (c->error)
		return;
	errno = 0;
	if (fflush(c->out) || ferror(c->out))
		c->error = errno ? errno : EIO;
	c->rows_since_flush = 0;
}

static void pair(void *ctx, const struct ior_event_pair *p)
{
	struct ior_csv_out *c = ctx;

	if (p->summary) {
		c->summarized += p->pairs;
		return;
	}
	if (c->error)
		return;
	if (BUF_BYTES - c->len < IOR_CSV_ROW_MAX)
		write_buf(c);
	size_t n = ior_csv_format_pair(c->buf + c->len, p, c->esc);
	if (c->cols.n)
		n = ior_csv_add_columns(c->buf + c->len, n, p, &c->cols);
	c->len += n;
	c->rows_since_flush++;
}

static int tick(void *ctx, uint64_t now)
{
	struct ior_csv_out *c = ctx;

	if (c->summarized) {
		fprintf(c->notes, "ior: %llu pairs summarized, not printed (rings full: detail dropped, "
				  "totals kept in the statistics and recording)\n",
			(unsigned long long)c->summarized);
		c->summarized = 0;
	}
	if (!c->flushed_ns)
		c->flushed_ns = now;
	if (c->rows_since_flush && now - c->flushed_ns >= FLUSH_NS) {
		flush(c);
		c->flushed_ns = now;
	}
	return -c->error;
}

struct ior_csv_out *ior_csv_out_new(FILE *out, enum ior_escape esc, FILE *notes, const struct ior_csv_columns *cols)
{
	struct ior_csv_out *c = calloc(1, sizeof *c);

	if (!c)
		return NULL;
	c->out = out;
	c->notes = notes;
	c->esc = esc;
	if (cols)
		c->cols = *cols;
	ior_csv_write_header_with(out, &c->cols);
	return c;
}

struct ior_sink ior_csv_out_sink(struct ior_csv_out *c)
{
	return (struct ior_sink){ pair, tick, c, NULL };
}

int ior_csv_out_close(struct ior_csv_out *c)
{
	int e;

	if (!c)
		return 0;
	flush(c);
	e = c->error;
	free(c);
	return -e;
}
