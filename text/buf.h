/* A bounded output buffer and the small writers every text format of ior
 * shares (CSV rows, reports, names): copies of a few bytes without
 * memcpy's call, decimal numbers length first and two digits at a time,
 * \\xHH escapes.
 * Writes past cap are cut, never overrun. Header-only: these run per
 * field of every row. */
#ifndef IOR_TEXT_BUF_H
#define IOR_TEXT_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct ior_text_buf {
	char *p;
	size_t len, cap;
	int quoting; /* inside a quoted field: put_escaped doubles '"' */
	int special; /* put_escaped wrote '"', ',', CR or LF (the field needs quotes) */
};

/* n <= 64 bytes from s to d as two fixed-size moves from both ends
 * (overlapping in the middle): no loop for gcc to turn into rep movs. */
static inline void ior_text_copy_small(char *d, const char *s, size_t n)
{
	if (n >= 32) {
		memcpy(d, s, 32);
		memcpy(d + n - 32, s + n - 32, 32);
	} else if (n >= 16) {
		memcpy(d, s, 16);
		memcpy(d + n - 16, s + n - 16, 16);
	} else if (n >= 8) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n >= 2) {
		memcpy(d, s, 2);
		memcpy(d + n - 2, s + n - 2, 2);
	} else if (n) {
		*d = *s;
	}
}

static inline void ior_text_put(struct ior_text_buf *b, const char *s, size_t n)
{
	if (n > b->cap - b->len)
		n = b->cap - b->len;
	if (n <= 64)
		ior_text_copy_small(b->p + b->len, s, n);
	else
		memcpy(b->p + b->len, s, n);
	b->len += n;
}

static inline void ior_text_puts(struct ior_text_buf *b, const char *s)
{
	ior_text_put(b, s, strlen(s));
}

static const char ior_digit_pairs[] = "00010203040506070809101112131415161718192021222324"
				  "25262728293031323334353637383940414243444546474849"
				  "50515253545556575859606162636465666768697071727374"
				  "75767778798081828384858687888990919293949596979899";

/* Decimal digits of v (1..20), without a loop: from its bit length
 * (log10(2) ~ 1233/4096), corrected by one comparison. */
static inline unsigned ior_text_digits(uint64_t v)
{
	static const uint64_t pow10[20] = { 1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
					    10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
					    100000000000ull, 1000000000000ull, 10000000000000ull,
					    100000000000000ull, 1000000000000000ull, 10000000000000000ull,
					    100000000000000000ull, 1000000000000000000ull,
					    10000000000000000000ull };
	unsigned t = ((unsigned)(64 - __builtin_clzll(v | 1)) * 1233u) >> 12;

	return t + 1 - ((v | 1) < pow10[t]);
}

/* v in decimal at d (room for 20 bytes); returns the end. The length
 * first, then two digits per division from the last one, straight into
 * place: six numbers a row, most below 2^32, where the division by 100 is
 * a cheaper 32-bit multiply. */
static inline char *ior_text_u64_at(char *d, uint64_t v)
{
	char *end = d + ior_text_digits(v);

	d = end;
	while (v > UINT32_MAX) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		d -= 2;
		memcpy(d, ior_digit_pairs + 2 * r, 2);
	}
	uint32_t w = (uint32_t)v;
	while (w >= 100) {
		unsigned r = w % 100;
		w /= 100;
		d -= 2;
		memcpy(d, ior_digit_pairs + 2 * r, 2);
	}
	if (w >= 10)
		memcpy(d - 2, ior_digit_pairs + 2 * w, 2);
	else
		d[-1] = (char)('0' + w);
	return end;
}

static inline void ior_text_put_u64(struct ior_text_buf *b, uint64_t v)
{
	char tmp[72]; /* 72: see ior_text_put_hex */

	if (b->cap - b->len >= 20) {
		b->len = (size_t)(ior_text_u64_at(b->p + b->len, v) - b->p);
		return;
	}
	ior_text_put(b, tmp, (size_t)(ior_text_u64_at(tmp, v) - tmp));
}

static inline void ior_text_put_i64(struct ior_text_buf *b, int64_t v)
{
	if (v < 0) {
		ior_text_put(b, "-", 1);
		ior_text_put_u64(b, (uint64_t)0 - (uint64_t)v);
		return;
	}
	ior_text_put_u64(b, (uint64_t)v);
}

static inline void ior_text_put_hex(struct ior_text_buf *b, char kind, unsigned v, int digits)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[72] = { '\\', kind }; /* 72: keeps gcc's bounds check on put()'s memcpy (n > 64) quiet */

	for (int i = 0; i < digits; i++)
		tmp[2 + i] = hex[(v >> (4 * (digits - 1 - i))) & 0xf];
	ior_text_put(b, tmp, 2 + (size_t)digits);
}

#endif
