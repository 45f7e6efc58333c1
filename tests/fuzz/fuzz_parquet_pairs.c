/* Hostile pairs into the Parquet writer: every field from the input
 * (any sys index, negative rets, summary rows, unknown flags) and
 * strings of any bytes up to 4 KiB (control bytes, invalid UTF-8, quotes)
 * for comm, path, path2 and the header. The file must always be framed
 * (magic at both ends, the footer's length inside the file). Aborts
 * otherwise; must never crash. Input: a header string, then records of
 * 32 bytes of numbers and three length-prefixed strings. */
#include "parquet/pairs.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct in {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct in *in, size_t k)
{
	uint64_t v = 0;
	k = k < in->n ? k : in->n;
	memcpy(&v, in->p, k);
	in->p += k;
	in->n -= k;
	return v;
}

/* A string of up to 4095 bytes, NUL-terminated into buf. */
static char *take_str(struct in *in, char *buf, size_t max)
{
	size_t k = (size_t)take(in, 2) & 0xfff;
	k = k < in->n ? k : in->n;
	k = k < max - 1 ? k : max - 1;
	memcpy(buf, in->p, k);
	buf[k] = 0;
	in->p += k;
	in->n -= k;
	return buf;
}

static void check(const char *b, size_t len)
{
	uint32_t flen;
	if (len < 12 || memcmp(b, "PAR1", 4) || memcmp(b + len - 4, "PAR1", 4))
		abort();
	memcpy(&flen, b + len - 8, 4);
	if (flen > len - 12)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char host[4096], comm[16], path[4096], path2[4096];
	struct in in = { data, size };
	struct ior_pq_info info = { .host = take_str(&in, host, sizeof host), .ior_version = "fuzz",
				    .cmdline = host, .start_realtime_ns = take(&in, 8) };
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct ior_pq_pairs *pp;

	if (!f || ior_pq_pairs_new(&pp, f, &info)) {
		if (f)
			fclose(f);
		free(buf);
		return 0;
	}
	while (in.n) {
		struct ior_event_pair p = {
			.enter_ns = take(&in, 8), .duration_ns = take(&in, 4), .gap_ns = take(&in, 4),
			.ret = (int64_t)take(&in, 8), .flags = (int8_t)take(&in, 1) < 0 ? IOR_FLAGS_UNKNOWN : (int64_t)take(&in, 4),
			.pid = (uint32_t)take(&in, 2), .tid = (uint32_t)take(&in, 2), .fd = (int8_t)take(&in, 1),
			.sys = (uint16_t)take(&in, 1), .summary = (uint8_t)take(&in, 1) & 1, .pairs = take(&in, 1),
		};
		p.bytes = p.ret > 0 ? (uint64_t)p.ret : 0;
		p.comm = take_str(&in, comm, sizeof comm);
		p.path = take_str(&in, path, sizeof path);
		p.path2 = take_str(&in, path2, sizeof path2);
		if (ior_pq_pairs_add(pp, &p))
			break;
	}
	int r = ior_pq_pairs_close(pp, NULL, err, sizeof err);
	fclose(f);
	if (!r)
		check(buf, len);
	free(buf);
	return 0;
}
