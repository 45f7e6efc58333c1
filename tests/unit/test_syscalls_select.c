#include "syscalls/select.h"
#include "syscalls/syscalls.h"
#include "t.h"

static unsigned char sel[1024];
/* the io_uring and libaio ops (uring:OP, aio:OP rows) in FS, Network and Polling */
#define U_FS (27 + 6)
#define U_NET 15
#define U_POLL (4 + 1)
static char err[8192];

static int selected(const char *name)
{
	return sel[ior_syscall_index(ior_syscall_by_name(name))];
}

static int tps(const char *in, const char *out)
{
	struct ior_select o = { .tps = in, .tps_exclude = out };
	return ior_trace_select(&o, sel, err, sizeof err);
}

static int fams(const char *f, const char *s, const char *nof, const char *nos)
{
	struct ior_select o = { f, s, nof, nos, NULL, NULL };
	return ior_trace_select(&o, sel, err, sizeof err);
}

static unsigned in_family(const char *f)
{
	unsigned n = 0;
	for (unsigned i = 0; i < ior_nsyscalls; i++)
		n += sel[i] && ior_syscalls[i].family == (unsigned)ior_family_by_name(f);
	return n;
}

TEST(default_is_fs_network_polling_aio)
{
	unsigned want = ior_family_count(IOR_FAM_FS) + ior_family_count(IOR_FAM_Network) +
			ior_family_count(IOR_FAM_Polling) + ior_family_count(IOR_FAM_AIO);
	CHECK_EQ_INT(tps("", ""), want);
	CHECK(selected("openat") && selected("sendto") && selected("epoll_pwait") && selected("io_submit"));
	CHECK(selected("mmap")); /* ior traced it before families: it stays in FS */
	CHECK(!selected("getpid") && !selected("futex") && !selected("nanosleep") && !selected("pipe2"));
	CHECK_EQ_INT(fams(NULL, NULL, NULL, NULL), want);
	CHECK_EQ_INT(fams(" , ", "", ",", ""), want); /* blank lists are no lists */
}

TEST(include_exclude)
{
	/* -tps filters the selected families: the FS opens, not mq_open or pidfd_open */
	/* open (x86_64 only) openat openat2 open_by_handle_at open_tree open_tree_attr */
#ifdef __x86_64__
	CHECK_EQ_INT(tps("^open", ""), 6);
#else
	CHECK_EQ_INT(tps("^open", ""), 5);
#endif
	CHECK(selected("openat") && selected("openat2") && !selected("read") && !selected("mq_open"));
	CHECK_EQ_INT(tps("sys_enter_read$,^write$", ""), 2);
	CHECK(selected("read") && selected("write") && !selected("pread64"));
	CHECK_EQ_INT(tps("read", "^pread|v2$") > 0, 1);
	CHECK(selected("read") && selected("readv") && !selected("pread64") && !selected("preadv2"));
	CHECK_EQ_INT(tps("", "sys_enter_"), 0); /* exclude wins */
	CHECK_EQ_INT(tps(",,close,", ""), 3);   /* close close_range uring:close */
	CHECK_EQ_INT(tps(" close ", ""), 3);    /* blanks around entries ignored */
}

/* The counts per family are the table's (README states them, and
 * test_syscalls_table.c checks README): none is repeated here. */
#define FS ior_family_count(IOR_FAM_FS)
#define NET ior_family_count(IOR_FAM_Network)
#define POLL ior_family_count(IOR_FAM_Polling)
#define AIO ior_family_count(IOR_FAM_AIO)

TEST(families_and_names)
{
	CHECK_EQ_INT(fams("FS", NULL, NULL, NULL), FS);
	CHECK(!selected("sendto") && !selected("ppoll") && selected("read"));
	CHECK_EQ_INT(fams("network,Polling", NULL, NULL, NULL), NET + POLL); /* any case */
	CHECK_EQ_INT(in_family("Network"), NET);
	CHECK_EQ_INT(fams("all", NULL, NULL, NULL), ior_nsyscalls);
	CHECK_EQ_INT(fams("", "read,sendto", "", ""), 2);
	CHECK(selected("read") == IOR_SEL_NAMED && selected("sendto") == IOR_SEL_NAMED);
	CHECK_EQ_INT(fams("FS", "read", "", ""), FS);
	CHECK(selected("read") == IOR_SEL_NAMED && selected("write") == 1); /* named: warned about when missing */
	CHECK_EQ_INT(fams("Time", "read", "", ""), ior_family_count(IOR_FAM_Time) + 1); /* a union */
#ifdef __x86_64__ /* stat: newstat, which arm64 lacks */
	CHECK_EQ_INT(fams("", "stat,sendfile,umount2,uname", "", ""), 4); /* libc's names */
	CHECK(selected("newstat") && selected("sendfile64") && selected("umount") && selected("newuname"));
#else
	CHECK_EQ_INT(fams("", "fstat,sendfile,umount2,uname", "", ""), 4); /* libc's names */
	CHECK(selected("newfstat") && selected("sendfile64") && selected("umount") && selected("newuname"));
#endif
	CHECK_EQ_INT(fams("", "", "Network", ""), FS + POLL + AIO); /* the default minus a family */
	CHECK_EQ_INT(fams("", "", "", "read,write"), FS + NET + POLL + AIO - 2);
	CHECK(!selected("read") && selected("pread64"));
	/* exclusions win over names */
	CHECK_EQ_INT(fams("FS", "sendto", "Network", "read"), FS - 1);
	CHECK(!selected("sendto") && !selected("read"));
	struct ior_select o = { .families = "Network", .tps = "send" };
	CHECK_EQ_INT(ior_trace_select(&o, sel, err, sizeof err), 4 + 4); /* sendfile64 sendto sendmsg sendmmsg, uring:send sendmsg send_zc sendmsg_zc */
	CHECK(selected("sendto") && !selected("recvfrom"));
}

TEST(unknown_names_list_the_valid_ones)
{
	CHECK_EQ_INT(fams("FS,Disk", NULL, NULL, NULL), -22);
	CHECK_EQ_STR(err, "-trace-families: unknown family \"Disk\"; valid: "
			  "FS,Network,Polling,Memory,Process,Signals,Sched,IPC,Time,Security,AIO,Misc,all");
	CHECK_EQ_INT(fams(NULL, NULL, "Nope", NULL), -22);
	CHECK(!strncmp(err, "-no-trace-families: unknown family \"Nope\"", 41));
	CHECK_EQ_INT(fams(NULL, "read,bogus", NULL, NULL), -22);
	/* in the table's order: x86_64's starts read,write,open,close, arm64's io_setup */
	CHECK(!strncmp(err, "-trace-syscalls: unknown syscall \"bogus\"; valid: ", 49));
#ifdef __x86_64__
	CHECK(strstr(err, "valid: read,write,open,close,"));
#else
	CHECK(strstr(err, "valid: io_setup,io_destroy,"));
#endif
	CHECK(strstr(err, ",listns") && !strchr(err, '\n') && err[strlen(err) - 1] != ',');
	CHECK_EQ_INT(fams(NULL, NULL, NULL, "sys_enter_read"), -22);
	CHECK(!strncmp(err, "-no-trace-syscalls: unknown syscall \"sys_enter_read\"", 51));
}

TEST(bad_regex)
{
	err[0] = 0;
	CHECK_EQ_INT(tps("(open", ""), -22);
	CHECK(strstr(err, "-tps: bad regex \"(open\"") != NULL);
	CHECK_EQ_INT(tps("", "[x"), -22);
	CHECK(strstr(err, "-tpsExclude") != NULL);
}

int main(void)
{
	RUN(default_is_fs_network_polling_aio);
	RUN(include_exclude);
	RUN(families_and_names);
	RUN(unknown_names_list_the_valid_ones);
	RUN(bad_regex);
	return t_done();
}
