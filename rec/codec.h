/* What the recording writer (rec_write.c) and reader (rec_read.c) share:
 * the record encoding of docs/format.md. The encoding keeps a small state
 * per thread so a pair that repeats its thread's previous syscall, file
 * and return value costs one op byte plus two varints (gap and duration)
 * before zstd; zstd then removes most of what is left. Internal to trace/. */
#ifndef IOR_REC_CODEC_H
#define IOR_REC_CODEC_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pair/event_pair.h"
#include "text/strtab.h"

static const char magic[8] = { 'I', 'O', 'R', 'R', 'E', 'C', '\r', '\n' };

enum {
	OP_STR = 0x01,   /* varint len, bytes: defines the next string id */
	OP_END = 0x02,   /* trailer: seven varints (struct ior_trace_totals; six in version 1) */
	OP_RESET = 0x03, /* forget all strings and thread state */
	OP_SUMMARY = 0x04, /* a summary row (version 2): rec_write.c, encode_summary */
	OP_TRIGGER = 0x05, /* version 4, a dump's trailer: what fired it (docs/format.md) */
	OP_BLOCK = 0x06,   /* a block request (version 6): encode_block */
	OP_DEVNAME = 0x07, /* a device's name (version 6): varint dev, varint string id */
	OP_PAIR = 0x80,  /* low bits: PAIR_* */
};

enum {
	PAIR_TID = 0x01,  /* varint tid follows; else the previous record's tid */
	PAIR_SYS = 0x02,  /* varint syscall index; else the thread's previous */
	PAIR_RET = 0x04,  /* zigzag ret; else the thread's previous */
	PAIR_TIME = 0x08, /* zigzag enter delta to the previous record; else enter = prev exit + gap */
	PAIR_EXT = 0x10,  /* an EXT_* byte follows */
	PAIR_WAIT = 0x20, /* version 3: a zigzag timeout (ns, -1 for ever) follows the bytes */
	PAIR_MORE = 0x40, /* version 5: a MORE_* byte follows the EXT byte (or the op) */
};

/* The MORE byte: fields past the op and EXT bytes' room. Bits a
 * recording's version does not define are refused, so a field that needs
 * one more says so with MORE_NEXT (another such byte follows), never with
 * a second meaning of a bit. */
enum {
	MORE_WHERE_MASK = 0x03, /* version 5: where an io_uring op ran (enum ior_async_where) */
	MORE_DEVICE = 0x04,     /* version 6: varints blk_requests, blk_bytes, device_ns, blk_dev after the timeout */
	MORE_CACHE = 0x08,      /* version 6: varint cache_pages after those */
	MORE_NEXT = 0x80,       /* reserved: another MORE byte follows */
};

enum {
	EXT_PID = 0x01,
	EXT_COMM = 0x02,
	EXT_FD = 0x04,
	EXT_PATH = 0x08,
	EXT_PATH2 = 0x10,
	EXT_FLAGS = 0x20,
	EXT_BYTES_SHIFT = 6, /* 2 bits: BYTES_* */
};

enum {
	BYTES_KEEP = 0,     /* apply the thread's previous rule */
	BYTES_ZERO = 1,     /* bytes = 0 */
	BYTES_RET = 2,      /* bytes = ret > 0 ? ret : 0 */
	BYTES_EXPLICIT = 3, /* varint bytes */
};

#define MAX_STR_LEN 4096u           /* longest string (path) stored */
#define MAX_STRINGS (1u << 20)      /* string ids before a reset */
#define MAX_STR_BYTES (64u << 20)   /* string bytes before a reset */
#define MAX_SYSCALLS 1024u
#define MAX_SYSNAME 64u
#define MAX_HOST 256u
#define MAX_CMDLINE 65536u
#define MAX_TRIGGER 1024u          /* a trigger's text */
#define TID_SLOTS 4096u             /* direct-mapped per-thread state */

/* ---- shared state: per thread, strings ---------------------------------- */

/* The MORE bits a recording of this version may set. */
static inline uint8_t more_known(unsigned version)
{
	return version >= 6 ? MORE_WHERE_MASK | MORE_DEVICE | MORE_CACHE : MORE_WHERE_MASK;
}

enum { RULE_ZERO, RULE_RET, RULE_VALUE };

struct tid_state {
	uint32_t tid, pid;
	int32_t fd;
	uint16_t sys;
	uint8_t used, bytes_rule;
	int64_t ret, flags;
	uint64_t bytes, prev_exit;
	uint32_t comm, path, path2;
	uint64_t comm_src, path_src; /* writer: the pair's comm_id, path_id they came from */
};

struct codec {
	struct tid_state slots[TID_SLOTS];
	uint32_t last_tid;
	uint64_t last_enter;
};

static inline struct tid_state *slot_for(struct codec *c, uint32_t tid)
{
	struct tid_state *s = &c->slots[(tid * 2654435761u) >> 20 & (TID_SLOTS - 1)];
	if (!s->used || s->tid != tid) {
		*s = (struct tid_state){ .tid = tid, .used = 1, .fd = -1, .flags = IOR_FLAGS_UNKNOWN };
	}
	return s;
}

static inline uint64_t bytes_by_rule(const struct tid_state *s, int64_t ret)
{
	switch (s->bytes_rule) {
	case RULE_RET:
		return ret > 0 ? (uint64_t)ret : 0;
	case RULE_VALUE:
		return s->bytes;
	default:
		return 0;
	}
}

/* A string table as a generation starts: only id 0, "" (defined ids start
 * at 1). Cannot fail once the table has memory: a reset keeps it. */
static inline int strings_start(struct ior_strtab *t)
{
	ior_strtab_clear(t);
	return ior_strtab_append(t, "", 0) ? -ENOMEM : 0;
}

/* ---- primitive encodings ------------------------------------------------ */

static inline uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* A cursor over decoded bytes: the getters return 0, or -1 when the
 * bytes end or break a limit. */
struct cur {
	const uint8_t *p, *end;
};

static inline int get_varint(struct cur *c, uint64_t *v)
{
	if (c->p < c->end && *c->p < 0x80) {
		*v = *c->p++;
		return 0;
	}
	uint64_t x = 0;
	for (unsigned shift = 0; c->p < c->end && shift < 64; shift += 7) {
		uint8_t b = *c->p++;
		if (shift == 63 && b > 1)
			return -1;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

static inline int get_u32(struct cur *c, uint32_t *v)
{
	uint64_t x;
	if (get_varint(c, &x) || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static inline int get_str(struct cur *c, size_t max, const uint8_t **s, size_t *n)
{
	uint64_t len;
	if (get_varint(c, &len) || len > max || len > (uint64_t)(c->end - c->p))
		return -1;
	*s = c->p;
	*n = (size_t)len;
	if (memchr(*s, 0, *n))
		return -1;
	c->p += len;
	return 0;
}

/* ---- errors ------------------------------------------------------------- */

/* The message of a failed open or close (rec.h), when err is given. */
static inline void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

#endif
