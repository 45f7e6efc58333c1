/* The trigger parser on good and hostile expressions, and what fires. */
#include "recorder/trigger.h"
#include "syscalls/syscalls.h"
#include "t.h"

#include <errno.h>

static int sys_of(const char *name)
{
	return (int)ior_syscall_index(ior_syscall_by_name(name));
}

TEST(parses_every_form)
{
	struct ior_trigger t;
	char err[256];

	CHECK_EQ_INT(ior_trigger_parse(&t, "fsync>200ms", err, sizeof err), 0);
	CHECK_EQ_INT(t.kind, IOR_TRIGGER_DURATION);
	CHECK_EQ_INT(t.sys, sys_of("fsync"));
	CHECK_EQ_INT(t.ns, 200000000);
	CHECK_EQ_INT(ior_trigger_parse(&t, "duration>1s,path=/var/lib/postgresql/*", err, sizeof err), 0);
	CHECK_EQ_INT(t.sys, -1);
	CHECK_EQ_INT(t.ns, 1000000000);
	CHECK_EQ_STR(t.glob, "/var/lib/postgresql/*");
	CHECK_EQ_INT(ior_trigger_parse(&t, "duration>50ms,comm=nginx", err, sizeof err), 0);
	CHECK_EQ_STR(t.comm, "nginx");
	CHECK_EQ_INT(ior_trigger_parse(&t, "errno=EIO", err, sizeof err), 0);
	CHECK_EQ_INT(t.kind, IOR_TRIGGER_ERRNO);
	CHECK_EQ_INT(t.err, EIO);
	CHECK_EQ_INT(ior_trigger_parse(&t, "errno=any", err, sizeof err), 0);
	CHECK_EQ_INT(t.err, 0);
	CHECK_EQ_INT(ior_trigger_parse(&t, "openat:errno=ENOENT", err, sizeof err), 0);
	CHECK_EQ_INT(t.sys, sys_of("openat"));
	CHECK_EQ_INT(t.err, ENOENT);
	CHECK_EQ_INT(ior_trigger_parse(&t, "pairs/s>500000", err, sizeof err), 0);
	CHECK_EQ_INT(t.kind, IOR_TRIGGER_PAIRS_RATE);
	CHECK_EQ_INT(t.rate, 500000);
	CHECK_EQ_INT(ior_trigger_parse(&t, "errors/s>100", err, sizeof err), 0);
	CHECK_EQ_INT(t.kind, IOR_TRIGGER_ERRORS_RATE);
	CHECK_EQ_INT(ior_trigger_parse(&t, "inflight>5s", err, sizeof err), 0);
	CHECK_EQ_INT(t.kind, IOR_TRIGGER_INFLIGHT);
	CHECK_EQ_INT(t.ns, 5000000000ll);
	CHECK_EQ_INT(ior_trigger_parse(&t, "read:inflight>1.5s,cooldown=1m", err, sizeof err), 0);
	CHECK_EQ_INT(t.sys, sys_of("read"));
	CHECK_EQ_INT(t.ns, 1500000000ll);
	CHECK_EQ_INT(t.cooldown_ns, 60000000000ll);
	CHECK_EQ_INT(ior_trigger_parse(&t, "duration>2,syscall=write", err, sizeof err), 0);
	CHECK_EQ_INT(t.ns, 2000000000ll);
	CHECK_EQ_INT(t.sys, sys_of("write"));
	CHECK_EQ_STR(t.text, "duration>2,syscall=write");
	CHECK_EQ_INT(ior_trigger_parse(&t, "uring:read>1ms", err, sizeof err), 0);
	CHECK_EQ_INT(t.sys, sys_of("uring:read"));
	CHECK_EQ_INT(ior_trigger_parse(&t, "uring:read:inflight>1s", err, sizeof err), 0);
	CHECK_EQ_INT(t.kind, IOR_TRIGGER_INFLIGHT);
	CHECK_EQ_INT(t.sys, sys_of("uring:read"));
	CHECK_EQ_INT(t.cooldown_ns, IOR_TRIGGER_COOLDOWN_DEFAULT);
}

TEST(refuses_what_it_cannot_read)
{
	static const struct {
		const char *expr, *says;
	} bad[] = {
		{ "", "empty" },
		{ "fsync", "want a condition" },
		{ ">200ms", "want a condition" },
		{ "fsync>", "want a value" },
		{ "fsync>=200ms", "want a value" },
		{ "fsync>200", NULL }, /* bare seconds: fine */
		{ "fsync>200xs", "want a duration" },
		{ "fsync>-1s", "want a duration" },
		{ "fsync>1e3s", "want a duration" },
		{ "fsync>9999999999999s", "want a duration" },
		{ "fsync>4000000000h", "want a duration" },
		{ "fsync>.s", "want a duration" },
		{ "nosuchcall>1s", "unknown syscall \"nosuchcall\"" },
		{ "read:nosuch>1s", "unknown condition" },
		{ "nosuch:duration>1s", "unknown syscall" },
		{ "errno>EIO", "wants errno=" },
		{ "duration=1s", "wants duration>" },
		{ "errno=EFOO", "unknown errno \"EFOO\"" },
		{ "errno=", "want a value" },
		{ "pairs/s>1.5", "whole number" },
		{ "pairs/s>99999999999999999999", "whole number" },
		{ "errors/s>-1", "whole number" },
		{ "duration>1s,", "empty part" },
		{ "duration>1s,,comm=x", "empty part" },
		{ "duration>1s,path", "want path=GLOB" },
		{ "duration>1s,color=red", "want path=GLOB" },
		{ "duration>1s,comm=", "wants a value" },
		{ "duration>1s,comm=a,comm=b", "given twice" },
		{ "read>1s,syscall=write", "given twice" },
		{ "duration>1s,comm=averyverylongcommandname", "15 bytes" },
		{ "duration>1s,cooldown=soon", "cooldown=" },
		{ "duration>1s,syscall=nope", "unknown syscall" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct ior_trigger t;
		char err[256] = "";
		int rc = ior_trigger_parse(&t, bad[i].expr, err, sizeof err);
		if (!bad[i].says) {
			CHECK_EQ_INT(rc, 0);
			continue;
		}
		if (rc != -EINVAL || !strstr(err, bad[i].says))
			T_FAIL("\"%s\": rc %d, \"%s\", want \"%s\"", bad[i].expr, rc, err, bad[i].says);
	}
	char big[400];
	struct ior_trigger t;
	char err[256];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = 0;
	CHECK_EQ_INT(ior_trigger_parse(&t, big, err, sizeof err), -EINVAL);
	CHECK(strstr(err, "longer than 256 bytes"));
}

static struct ior_event_pair pair(const char *sys, uint64_t enter, uint64_t dur, int64_t ret, const char *comm,
				  const char *path)
{
	return (struct ior_event_pair){ .enter_ns = enter, .duration_ns = dur, .ret = ret, .sys = (uint16_t)sys_of(sys),
					.comm = comm, .path = path, .path2 = "", .pid = 1, .tid = 1, .fd = 3 };
}

TEST(fires_on_what_it_says)
{
	struct ior_trigger t;
	char err[256];
	struct ior_event_pair p;

	ior_trigger_parse(&t, "fsync>200ms", err, sizeof err);
	p = pair("fsync", 0, 200000000, 0, "pg", "/x");
	CHECK(!ior_trigger_pair(&t, &p)); /* strictly above */
	p.duration_ns++;
	CHECK(ior_trigger_pair(&t, &p));
	p = pair("read", 0, 900000000, 0, "pg", "/x");
	CHECK(!ior_trigger_pair(&t, &p));

	ior_trigger_parse(&t, "duration>1ms,path=/var/lib/*,comm=pg", err, sizeof err);
	p = pair("read", 0, 2000000, 0, "pg", "/var/lib/db/f");
	CHECK(ior_trigger_pair(&t, &p));
	p.path = "/tmp/f";
	CHECK(!ior_trigger_pair(&t, &p));
	p.path = "/var/lib/x";
	p.comm = "pgx";
	CHECK(!ior_trigger_pair(&t, &p));

	ior_trigger_parse(&t, "openat:errno=ENOENT", err, sizeof err);
	p = pair("openat", 0, 10, -ENOENT, "w", "/nope");
	CHECK(ior_trigger_pair(&t, &p));
	p.ret = -EACCES;
	CHECK(!ior_trigger_pair(&t, &p));
	p.ret = 3;
	CHECK(!ior_trigger_pair(&t, &p));
	p = pair("stat", 0, 10, -ENOENT, "w", "/nope");
	CHECK(!ior_trigger_pair(&t, &p));
	ior_trigger_parse(&t, "errno=any", err, sizeof err);
	p = pair("write", 0, 10, -EIO, "w", "/f");
	CHECK(ior_trigger_pair(&t, &p));
	p.summary = 1; /* a summary row has no ret of its own */
	CHECK(!ior_trigger_pair(&t, &p));
}

TEST(rates_over_a_sliding_second)
{
	struct ior_trigger t;
	char err[256];
	struct ior_event_pair p;

	ior_trigger_parse(&t, "pairs/s>10", err, sizeof err);
	uint64_t base = 50000000000ull;
	/* 10 pairs a second for 5 s: never above 10 */
	for (int i = 0; i < 50; i++) {
		p = pair("read", base + (uint64_t)i * 100000000ull, 1, 1, "w", "");
		CHECK(!ior_trigger_pair(&t, &p));
	}
	/* an 11th within the last second */
	p = pair("read", base + 49 * 100000000ull + 50000000, 1, 1, "w", "");
	CHECK(ior_trigger_pair(&t, &p));
	/* 2 s later the second is empty again */
	p = pair("read", base + 70 * 100000000ull, 1, 1, "w", "");
	CHECK(!ior_trigger_pair(&t, &p));
	/* a summary row weighs its pairs */
	p.summary = 1;
	p.pairs = 20;
	CHECK(ior_trigger_pair(&t, &p));

	ior_trigger_parse(&t, "errors/s>2", err, sizeof err);
	p = pair("read", base, 1, 1, "w", "");
	for (int i = 0; i < 5; i++)
		CHECK(!ior_trigger_pair(&t, &p)); /* successes do not count */
	p.ret = -EIO;
	CHECK(!ior_trigger_pair(&t, &p));
	CHECK(!ior_trigger_pair(&t, &p));
	CHECK(ior_trigger_pair(&t, &p));
}

TEST(in_flight_age)
{
	struct ior_trigger t;
	char err[256];

	ior_trigger_parse(&t, "read:inflight>5s", err, sizeof err);
	uint16_t rd = (uint16_t)sys_of("read"), wr = (uint16_t)sys_of("write");
	CHECK(!ior_trigger_in_flight(&t, rd, "w", "/f", 1000000000ull, 6000000000ull));
	CHECK(ior_trigger_in_flight(&t, rd, "w", "/f", 1000000000ull, 6000000001ull));
	CHECK(!ior_trigger_in_flight(&t, wr, "w", "/f", 0, 60000000000ull));
	CHECK(!ior_trigger_in_flight(&t, rd, "w", "/f", 9000000000ull, 6000000001ull)); /* entered later */
	ior_trigger_parse(&t, "duration>1s", err, sizeof err);
	CHECK(!ior_trigger_in_flight(&t, rd, "w", "/f", 0, 60000000000ull));
	struct ior_event_pair p = pair("read", 0, 5000000000ull, 1, "w", "/f");
	ior_trigger_parse(&t, "inflight>1s", err, sizeof err);
	CHECK(!ior_trigger_pair(&t, &p)); /* a completed pair is no in-flight one */
}

int main(void)
{
	RUN(parses_every_form);
	RUN(refuses_what_it_cannot_read);
	RUN(fires_on_what_it_says);
	RUN(rates_over_a_sliding_second);
	RUN(in_flight_age);
	return t_done();
}
