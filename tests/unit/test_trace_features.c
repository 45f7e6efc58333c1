/* The kernel features table: unknown until said, then as said; pidfd is
 * the host's own fact, probed on first ask. */
#include "t.h"
#include "trace/features.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

TEST(unknown_until_set)
{
	const struct ior_feature *f = ior_feature(IOR_FEAT_SOCK_ADDR);

	CHECK(f && f->state == IOR_FEAT_UNKNOWN && !ior_feature_has(IOR_FEAT_SOCK_ADDR));
	CHECK(f->name[0] && f->without[0]);
	ior_feature_set(IOR_FEAT_SOCK_ADDR, false, "no sock_common");
	CHECK_EQ_INT(f->state, IOR_FEAT_ABSENT);
	CHECK_EQ_STR(f->detail, "no sock_common");
	ior_feature_set(IOR_FEAT_SOCK_ADDR, true, NULL);
	CHECK(ior_feature_has(IOR_FEAT_SOCK_ADDR));
	CHECK_EQ_STR(f->detail, "");
	CHECK(!ior_feature(IOR_NFEATURES));
}

TEST(every_row_says_what_ior_does_without)
{
	for (unsigned i = 0; i < IOR_NFEATURES; i++)
		CHECK(ior_feature(i)->name && ior_feature(i)->without && ior_feature(i)->without[0]);
}

TEST(pidfd_probed_on_first_ask)
{
	int fd = (int)syscall(434 /* pidfd_open */, getpid(), 0);

	CHECK_EQ_INT(ior_feature_has(IOR_FEAT_PIDFD), fd >= 0);
	CHECK(ior_feature(IOR_FEAT_PIDFD)->state != IOR_FEAT_UNKNOWN);
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	RUN(unknown_until_set);
	RUN(every_row_says_what_ior_does_without);
	RUN(pidfd_probed_on_first_ask);
	return t_done();
}
