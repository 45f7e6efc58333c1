/* The trigger parser and matcher (trigger.h). EXPR is hostile: it is
 * copied into a bounded buffer, split on ',', and every part must be
 * read whole or the expression is refused. */
#include "recorder/trigger.h"
#include "syscalls/errnos.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define RATE_MAX 1000000000000ull
#define BUCKET_NS 100000000ull

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const struct {
	const char *name;
	uint64_t mult;
} units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000ull },
	{ "m", 60000000000ull }, { "h", 3600000000000ull }, { "", 1000000000ull },
};

/* Digits [. digits] unit, nothing else; at most 12 integer and 9 fraction
 * digits, and no overflow. */
int ior_trigger_duration(const char *s, size_t n, uint64_t *ns)
{
	uint64_t whole = 0, frac = 0, scale = 1;
	size_t i = 0, nd = 0, nf = 0;

	for (; i < n && s[i] >= '0' && s[i] <= '9' && nd < 13; i++, nd++)
		whole = whole * 10 + (uint64_t)(s[i] - '0');
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9' && nf < 10; i++, nf++, scale *= 10)
			frac = frac * 10 + (uint64_t)(s[i] - '0');
	if ((!nd && !nf) || nd > 12 || nf > 9)
		return -1;
	for (size_t u = 0; u < sizeof units / sizeof *units; u++) {
		if (strlen(units[u].name) != n - i || memcmp(units[u].name, s + i, n - i))
			continue;
		uint64_t m = units[u].mult;
		if (whole > (UINT64_MAX / 2) / m)
			return -1;
		*ns = whole * m + (uint64_t)((long double)frac * (long double)m / (long double)scale);
		return 0;
	}
	return -1;
}

static int rate_of(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > RATE_MAX / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return x <= RATE_MAX ? 0 : -1;
}

static int syscall_of(const char *name, int *sys, char *err, size_t errlen)
{
	const struct ior_syscall *s = ior_syscall_by_name(name);

	if (!s)
		return bad(err, errlen, "unknown syscall \"%.64s\" (ior -list names them)", name);
	*sys = (int)ior_syscall_index(s);
	return 0;
}

static int errno_of(const char *v, int *e, char *err, size_t errlen)
{
	if (!strcmp(v, "any")) {
		*e = 0;
		return 0;
	}
	*e = ior_errno_by_name(v, strlen(v));
	if (*e < 0)
		return bad(err, errlen, "unknown errno \"%.64s\" (want a name like EIO or ENOENT, or any)", v);
	return 0;
}

/* The condition's kind from its key and operator ('>' or '='). */
static int kind_of(struct ior_trigger *t, const char *key, char op, const char *v, char *err, size_t errlen)
{
	static const struct {
		const char *key;
		char op;
		enum ior_trigger_kind kind;
	} keys[] = {
		{ "duration", '>', IOR_TRIGGER_DURATION }, { "errno", '=', IOR_TRIGGER_ERRNO },
		{ "inflight", '>', IOR_TRIGGER_INFLIGHT }, { "pairs/s", '>', IOR_TRIGGER_PAIRS_RATE },
		{ "errors/s", '>', IOR_TRIGGER_ERRORS_RATE },
	};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		if (strcmp(key, keys[i].key))
			continue;
		if (op != keys[i].op)
			return bad(err, errlen, "\"%s\" wants %s%c...", key, key, keys[i].op);
		t->kind = keys[i].kind;
		if (t->kind == IOR_TRIGGER_ERRNO)
			return errno_of(v, &t->err, err, errlen);
		if (t->kind == IOR_TRIGGER_PAIRS_RATE || t->kind == IOR_TRIGGER_ERRORS_RATE)
			return rate_of(v, &t->rate) ? bad(err, errlen, "\"%.32s\": want a whole number per second",
							  v) : 0;
		return ior_trigger_duration(v, strlen(v), &t->ns) ?
			       bad(err, errlen, "\"%.32s\": want a duration like 200ms, 1.5s or 1m", v) : 0;
	}
	return 1; /* no such key */
}

/* "SYSCALL>D": a syscall's duration. */
static int syscall_duration(struct ior_trigger *t, const char *name, const char *v, char *err, size_t errlen)
{
	int r = syscall_of(name, &t->sys, err, errlen);

	t->kind = IOR_TRIGGER_DURATION;
	if (r)
		return r;
	return ior_trigger_duration(v, strlen(v), &t->ns) ?
		       bad(err, errlen, "\"%.32s\": want a duration like 200ms, 1.5s or 1m", v) : 0;
}

/* "[SYSCALL:]KEY>V", "[SYSCALL:]KEY=V" or "SYSCALL>D". */
static int head(struct ior_trigger *t, char *h, char *err, size_t errlen)
{
	char *op = strpbrk(h, ">=");

	if (!op || op == h)
		return bad(err, errlen, "\"%.64s\": want a condition like duration>200ms, errno=EIO, "
				      "inflight>5s, pairs/s>1000 or errors/s>10", h);
	char o = *op, *v = op + 1;
	*op = 0;
	if (!*v || *v == '=' || *v == '>')
		return bad(err, errlen, "\"%.64s%c\": want a value after '%c'", h, o, o);
	if (o == '>' && ior_syscall_by_name(h)) /* "fsync>200ms", "uring:read>1ms" */
		return syscall_duration(t, h, v, err, errlen);
	char *colon = strrchr(h, ':'), *key = colon ? colon + 1 : h;
	if (colon) {
		*colon = 0;
		int r = syscall_of(h, &t->sys, err, errlen);
		if (r)
			return r;
	}
	int r = kind_of(t, key, o, v, err, errlen);
	if (r <= 0)
		return r;
	if (colon || o != '>')
		return bad(err, errlen, "unknown condition \"%.64s\" (want duration, errno, inflight, pairs/s "
				      "or errors/s)", key);
	return syscall_duration(t, key, v, err, errlen); /* says the syscall is unknown */
}

static int option(struct ior_trigger *t, char *kv, unsigned *seen, char *err, size_t errlen)
{
	static const char *const names[] = { "path", "comm", "syscall", "cooldown" };
	char *eq = strchr(kv, '=');
	size_t i = 0;

	if (eq)
		*eq = 0;
	while (i < 4 && strcmp(kv, names[i]))
		i++;
	if (i == 4 || !eq)
		return bad(err, errlen, "\"%.64s\": want path=GLOB, comm=NAME, syscall=NAME or cooldown=DURATION", kv);
	const char *v = eq + 1;
	if (!*v)
		return bad(err, errlen, "%s= wants a value", kv);
	if (*seen & (1u << i) || (i == 2 && t->sys >= 0))
		return bad(err, errlen, "%s given twice", kv);
	*seen |= 1u << i;
	switch (i) {
	case 0:
		if (strlen(v) > IOR_TRIGGER_GLOB)
			return bad(err, errlen, "path= longer than %d bytes", IOR_TRIGGER_GLOB);
		strcpy(t->glob, v);
		return 0;
	case 1:
		if (strlen(v) >= sizeof t->comm)
			return bad(err, errlen, "comm=\"%.32s\": longer than a command name can be (15 bytes)", v);
		strcpy(t->comm, v);
		return 0;
	case 2:
		return syscall_of(v, &t->sys, err, errlen);
	default:
		return ior_trigger_duration(v, strlen(v), &t->cooldown_ns) ?
			       bad(err, errlen, "cooldown=\"%.32s\": want a duration like 30s", v) : 0;
	}
}

int ior_trigger_parse(struct ior_trigger *t, const char *expr, char *err, size_t errlen)
{
	char buf[IOR_TRIGGER_TEXT + 1], *save = NULL;
	unsigned seen = 0;
	size_t n = strnlen(expr, IOR_TRIGGER_TEXT + 1);

	memset(t, 0, sizeof *t);
	t->sys = -1;
	t->cooldown_ns = IOR_TRIGGER_COOLDOWN_DEFAULT;
	if (n > IOR_TRIGGER_TEXT)
		return bad(err, errlen, "longer than %d bytes", IOR_TRIGGER_TEXT);
	if (!n)
		return bad(err, errlen, "empty: want a condition like duration>200ms or errno=EIO");
	memcpy(t->text, expr, n + 1);
	memcpy(buf, expr, n + 1);
	if (buf[n - 1] == ',' || strstr(buf, ",,"))
		return bad(err, errlen, "an empty part between commas");
	char *part = strtok_r(buf, ",", &save);
	if (!part)
		return bad(err, errlen, "empty: want a condition like duration>200ms or errno=EIO");
	int r = head(t, part, err, errlen);
	while (!r && (part = strtok_r(NULL, ",", &save)))
		r = option(t, part, &seen, err, errlen);
	return r;
}

bool ior_trigger_filters(const struct ior_trigger *t, const struct ior_event_pair *p)
{
	if (t->sys >= 0 && p->sys != (unsigned)t->sys)
		return false;
	if (t->comm[0] && (!p->comm || strcmp(t->comm, p->comm)))
		return false;
	return !t->glob[0] || (p->path && !fnmatch(t->glob, p->path, 0));
}

/* The sliding second: ten buckets of 100 ms by enter time; n added to
 * the newest. True when the second holds more than the rate. */
static bool rate_add(struct ior_trigger *t, uint64_t enter_ns, uint64_t n)
{
	uint64_t b = enter_ns / BUCKET_NS;

	if (b > t->bucket_at) {
		uint64_t steps = b - t->bucket_at;
		for (uint64_t i = 1; i <= steps && i <= IOR_RATE_BUCKETS; i++) {
			uint64_t *slot = &t->buckets[(t->bucket_at + i) % IOR_RATE_BUCKETS];
			t->sum -= *slot;
			*slot = 0;
		}
		t->bucket_at = b;
	}
	/* a pair older than the newest bucket (merge order is by enter time,
	 * so at most one bucket back) counts in the newest */
	t->buckets[t->bucket_at % IOR_RATE_BUCKETS] += n;
	t->sum += n;
	return t->sum > t->rate;
}

bool ior_trigger_pair(struct ior_trigger *t, const struct ior_event_pair *p)
{
	bool error = !p->summary && p->ret < 0;

	if (!ior_trigger_filters(t, p))
		return false;
	switch (t->kind) {
	case IOR_TRIGGER_DURATION:
		return !p->summary && p->duration_ns > t->ns;
	case IOR_TRIGGER_ERRNO:
		return error && (!t->err || p->ret == -(int64_t)t->err);
	case IOR_TRIGGER_PAIRS_RATE:
		return rate_add(t, p->enter_ns, ior_pair_count(p));
	case IOR_TRIGGER_ERRORS_RATE:
		return error && rate_add(t, p->enter_ns, 1);
	default:
		return false;
	}
}

bool ior_trigger_in_flight(const struct ior_trigger *t, uint16_t sys, const char *comm,
			   const char *path, uint64_t enter_ns, uint64_t now_ns)
{
	struct ior_event_pair p = { .sys = sys, .comm = comm, .path = path ? path : "" };

	return t->kind == IOR_TRIGGER_INFLIGHT && now_ns > enter_ns && now_ns - enter_ns > t->ns &&
	       ior_trigger_filters(t, &p);
}
