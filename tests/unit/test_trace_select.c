#include "trace/select.h"
#include "trace/syscalls.h"
#include "t.h"

static unsigned char sel[1024];

static int selected(const char *name)
{
	return sel[ior_syscall_index(ior_syscall_by_name(name))];
}

TEST(default_all)
{
	char err[128];
	CHECK_EQ_INT(ior_trace_select("", "", sel, err, sizeof err), ior_nsyscalls);
}

TEST(include_exclude)
{
	char err[128];
	CHECK_EQ_INT(ior_trace_select("^open", "", sel, err, sizeof err), 4); /* open openat openat2 open_by_handle_at */
	CHECK(selected("openat") && selected("openat2") && !selected("read"));
	CHECK_EQ_INT(ior_trace_select("sys_enter_read$,^write$", "", sel, err, sizeof err), 2);
	CHECK(selected("read") && selected("write") && !selected("pread64"));
	CHECK_EQ_INT(ior_trace_select("read", "^pread|v2$", sel, err, sizeof err) > 0, 1);
	CHECK(selected("read") && selected("readv") && !selected("pread64") && !selected("preadv2"));
	CHECK_EQ_INT(ior_trace_select("", "sys_enter_", sel, err, sizeof err), 0); /* exclude wins */
	CHECK_EQ_INT(ior_trace_select(",,close,", "", sel, err, sizeof err), 2); /* close close_range */
}

TEST(bad_regex)
{
	char err[128] = "";
	CHECK_EQ_INT(ior_trace_select("(open", "", sel, err, sizeof err), -22);
	CHECK(strstr(err, "-tps: bad regex \"(open\"") != NULL);
	CHECK_EQ_INT(ior_trace_select("", "[x", sel, err, sizeof err), -22);
	CHECK(strstr(err, "-tpsExclude") != NULL);
}

int main(void)
{
	RUN(default_all);
	RUN(include_exclude);
	RUN(bad_regex);
	return t_done();
}
