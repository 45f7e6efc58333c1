#include "flags.h"
#include "t.h"

#include <stdbool.h>

static int64_t pid;
static bool plain;
static const char *comm;
static uint64_t dur, size;

static const struct ior_flag table[] = {
	{ "pid", IOR_FLAG_INT, &pid, "" },
	{ "plain", IOR_FLAG_BOOL, &plain, "" },
	{ "comm", IOR_FLAG_STRING, &comm, "" },
	{ "duration", IOR_FLAG_DURATION, &dur, "" },
	{ "mapSize", IOR_FLAG_SIZE, &size, "" },
};

static int parse(int argc, char **argv, char *err)
{
	pid = -1, plain = false, comm = NULL, dur = size = 0;
	return ior_flags_parse(table, 5, argc, argv, err, 128);
}

TEST(go_style_forms)
{
	char err[128];
	char *argv[] = { "ior", "-pid=42", "--plain", "-comm", "cat", "-duration", "1.5s", "--mapSize=4M" };
	CHECK_EQ_INT(parse(8, argv, err), 8);
	CHECK_EQ_INT(pid, 42);
	CHECK(plain);
	CHECK_EQ_STR(comm, "cat");
	CHECK_EQ_INT(dur, 1500000000);
	CHECK_EQ_INT(size, 4 << 20);
}

TEST(bool_explicit_false_and_positional)
{
	char err[128];
	char *argv[] = { "ior", "-plain=false", "file.ior.zst", "-pid=1" };
	CHECK_EQ_INT(parse(4, argv, err), 2);
	CHECK(!plain);
	CHECK_EQ_INT(pid, -1);
}

TEST(double_dash_ends_flags)
{
	char err[128];
	char *argv[] = { "ior", "--", "-pid=1" };
	CHECK_EQ_INT(parse(3, argv, err), 2);
	CHECK_EQ_INT(pid, -1);
}

TEST(unknown_flag_is_named)
{
	char err[128];
	char *argv[] = { "ior", "-bogus=1" };
	CHECK_EQ_INT(parse(2, argv, err), -1);
	CHECK_EQ_STR(err, "flag provided but not defined: -bogus");
}

TEST(missing_value)
{
	char err[128];
	char *argv[] = { "ior", "-pid" };
	CHECK_EQ_INT(parse(2, argv, err), -1);
	CHECK_EQ_STR(err, "flag needs an argument: -pid");
}

TEST(bad_values)
{
	char err[128];
	char *a1[] = { "ior", "-pid=12x" };
	char *a2[] = { "ior", "-duration=-1" };
	char *a3[] = { "ior", "-duration=5parsecs" };
	char *a4[] = { "ior", "-plain=maybe" };
	char *a5[] = { "ior", "-mapSize=1e30" };
	CHECK_EQ_INT(parse(2, a1, err), -1);
	CHECK_EQ_STR(err, "invalid value \"12x\" for flag -pid");
	CHECK_EQ_INT(parse(2, a2, err), -1);
	CHECK_EQ_INT(parse(2, a3, err), -1);
	CHECK_EQ_INT(parse(2, a4, err), -1);
	CHECK_EQ_INT(parse(2, a5, err), -1);
}

TEST(duration_units)
{
	uint64_t ns;
	CHECK(!ior_parse_duration("10", &ns) && ns == 10000000000ULL);
	CHECK(!ior_parse_duration("200ms", &ns) && ns == 200000000ULL);
	CHECK(!ior_parse_duration("2m", &ns) && ns == 120000000000ULL);
	CHECK(!ior_parse_duration("1h", &ns) && ns == 3600000000000ULL);
	CHECK(!ior_parse_duration("750us", &ns) && ns == 750000ULL);
	CHECK(ior_parse_duration("", &ns) == -1);
	CHECK(ior_parse_duration("s", &ns) == -1);
	CHECK(ior_parse_duration("nan", &ns) == -1);
	CHECK(ior_parse_duration("inf", &ns) == -1);
}

/* The selection flags are named like the original ior's, with hyphens;
 * their lists are parsed by syscalls/select.c (test_syscalls_select). */
TEST(hyphenated_selection_flags)
{
	static const char *fam, *sys, *nofam, *nosys;
	static bool list;
	static const struct ior_flag sel[] = {
		{ "trace-families", IOR_FLAG_STRING, &fam, "" },
		{ "trace-syscalls", IOR_FLAG_STRING, &sys, "" },
		{ "no-trace-families", IOR_FLAG_STRING, &nofam, "" },
		{ "no-trace-syscalls", IOR_FLAG_STRING, &nosys, "" },
		{ "list", IOR_FLAG_BOOL, &list, "" },
	};
	char err[128];
	char *argv[] = { "ior", "-trace-families=FS,Network", "--trace-syscalls", "read,sendto",
			 "-no-trace-families=Polling", "--no-trace-syscalls=close", "-list" };
	CHECK_EQ_INT(ior_flags_parse(sel, 5, 7, argv, err, sizeof err), 7);
	CHECK_EQ_STR(fam, "FS,Network");
	CHECK_EQ_STR(sys, "read,sendto");
	CHECK_EQ_STR(nofam, "Polling");
	CHECK_EQ_STR(nosys, "close");
	CHECK(list);
	char *bad[] = { "ior", "-trace-family=FS" };
	CHECK_EQ_INT(ior_flags_parse(sel, 5, 2, bad, err, sizeof err), -1);
	CHECK_EQ_STR(err, "flag provided but not defined: -trace-family");
	char *novalue[] = { "ior", "-trace-families" };
	CHECK_EQ_INT(ior_flags_parse(sel, 5, 2, novalue, err, sizeof err), -1);
	CHECK_EQ_STR(err, "flag needs an argument: -trace-families");
}

static int parse_cmd(int argc, char **argv, int *dd)
{
	char err[128];

	pid = -1, plain = false, comm = NULL, dur = size = 0;
	return ior_flags_parse_cmd(table, 5, argc, argv, dd, err, sizeof err);
}

/* ior [flags] -- CMD ARGS: the command starts after the first "--" that
 * is no flag's value; its own flags and "--" are its arguments. */
TEST(command_after_double_dash)
{
	int dd;
	char *a1[] = { "ior", "-plain", "--", "ls", "-l", "--", "-pid=3" };
	CHECK_EQ_INT(parse_cmd(7, a1, &dd), 3);
	CHECK_EQ_INT(dd, 1);
	CHECK(plain);
	CHECK_EQ_INT(pid, -1);
	char *a2[] = { "ior", "-comm", "--", "ls" }; /* "--" is -comm's value */
	CHECK_EQ_INT(parse_cmd(4, a2, &dd), 3);
	CHECK_EQ_INT(dd, 0);
	CHECK_EQ_STR(comm, "--");
	char *a3[] = { "ior", "-plain", "ls" };
	CHECK_EQ_INT(parse_cmd(3, a3, &dd), 2);
	CHECK_EQ_INT(dd, 0);
	char *a4[] = { "ior", "--" }; /* nothing after it: the caller says so */
	CHECK_EQ_INT(parse_cmd(2, a4, &dd), 2);
	CHECK_EQ_INT(dd, 1);
	char *a5[] = { "ior", "-pid", "7", "--", "-" };
	CHECK_EQ_INT(parse_cmd(5, a5, &dd), 4);
	CHECK_EQ_INT(dd, 1);
	CHECK_EQ_INT(pid, 7);
}

int main(void)
{
	RUN(command_after_double_dash);
	RUN(go_style_forms);
	RUN(bool_explicit_false_and_positional);
	RUN(double_dash_ends_flags);
	RUN(unknown_flag_is_named);
	RUN(missing_value);
	RUN(bad_values);
	RUN(duration_units);
	RUN(hyphenated_selection_flags);
	return t_done();
}
