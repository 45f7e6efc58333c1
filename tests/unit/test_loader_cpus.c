#include "loader/loader.h"
#include "t.h"

#include <errno.h>

TEST(ranges_and_singles)
{
	long at;
	CHECK_EQ_INT(ior_cpulist_parse("0-7\n", 3, &at), 8);
	CHECK_EQ_INT(at, 3);
	CHECK_EQ_INT(ior_cpulist_parse("0", 0, &at), 1);
	CHECK_EQ_INT(at, 0);
	CHECK_EQ_INT(ior_cpulist_parse("0,2-3", 2, &at), 4); /* the one fscanf read as 1 */
	CHECK_EQ_INT(at, 1);
	CHECK_EQ_INT(ior_cpulist_parse("0,2-3", 3, &at), 4);
	CHECK_EQ_INT(at, 2);
	CHECK_EQ_INT(ior_cpulist_parse("0,2-3", 1, &at), 4);
	CHECK_EQ_INT(at, -1); /* a hole: no value for it */
	CHECK_EQ_INT(ior_cpulist_parse("4-5,8,10-11\n", 10, &at), 12);
	CHECK_EQ_INT(at, 3);
	CHECK_EQ_INT(ior_cpulist_parse("0-3", -1, NULL), 4);
}

TEST(garbage_is_refused)
{
	long at = 7;
	CHECK_EQ_INT(ior_cpulist_parse("", 0, &at), -EINVAL);
	CHECK_EQ_INT(at, -1);
	CHECK_EQ_INT(ior_cpulist_parse("\n", 0, NULL), -EINVAL);
	CHECK_EQ_INT(ior_cpulist_parse("x", 0, NULL), -EINVAL);
	CHECK_EQ_INT(ior_cpulist_parse("3-1", 0, NULL), -EINVAL);
	CHECK_EQ_INT(ior_cpulist_parse("0-", 0, NULL), -EINVAL);
	CHECK_EQ_INT(ior_cpulist_parse("0,,1", 0, NULL), -EINVAL);
	CHECK_EQ_INT(ior_cpulist_parse("0 1", 0, NULL), -EINVAL);
	CHECK_EQ_INT(ior_cpulist_parse("99999999999999999999", 0, NULL), -EINVAL);
	CHECK_EQ_INT(ior_cpulist_parse("-3", 0, NULL), -EINVAL);
}

TEST(this_machine_has_cpus)
{
	long at;
	long n = ior_possible_cpus(0, &at);
	CHECK(n >= 1);
	CHECK_EQ_INT(at, 0); /* CPU 0 is always possible */
}

int main(void)
{
	RUN(ranges_and_singles);
	RUN(garbage_is_refused);
	RUN(this_machine_has_cpus);
	return t_done();
}
