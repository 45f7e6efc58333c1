/* Open flags as text: "O_WRONLY|O_CREAT|O_CLOEXEC". */
#include "syscalls/open_flags.h"
#include "text/buf.h"

#include <fcntl.h>
#include <stdio.h>

struct flag_name {
	long long bit;
	const char *name;
};

/* O_SYNC and O_TMPFILE include another flag's bit; they come first so the
 * shared bit is consumed by the longer name. */
static const struct flag_name open_flags[] = {
	{ O_SYNC, "O_SYNC" },         { O_TMPFILE, "O_TMPFILE" },
	{ O_CREAT, "O_CREAT" },       { O_EXCL, "O_EXCL" },
	{ O_NOCTTY, "O_NOCTTY" },     { O_TRUNC, "O_TRUNC" },
	{ O_APPEND, "O_APPEND" },     { O_NONBLOCK, "O_NONBLOCK" },
	{ O_DSYNC, "O_DSYNC" },       { O_ASYNC, "O_ASYNC" },
	{ O_DIRECT, "O_DIRECT" },     { 0100000, "O_LARGEFILE" },
	{ O_DIRECTORY, "O_DIRECTORY" }, { O_NOFOLLOW, "O_NOFOLLOW" },
	{ O_NOATIME, "O_NOATIME" },   { O_CLOEXEC, "O_CLOEXEC" },
	{ O_PATH, "O_PATH" },
};

/* The kernel's access mode is the low two bits on every architecture.
 * musl's O_ACCMODE also holds O_PATH (as O_SEARCH): indexing a table with
 * it read out of bounds on every O_PATH open. */
#define KERNEL_ACCMODE 3LL

void ior_open_flags_str(char *buf, size_t len, long long flags)
{
	static const char *const acc[KERNEL_ACCMODE + 1] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
	struct ior_text_buf b = { buf, 0, len ? len - 1 : 0, 0, 0 };
	long long rest = flags & ~KERNEL_ACCMODE;

	if (!len)
		return;
	ior_text_puts(&b, acc[flags & KERNEL_ACCMODE]);
	for (size_t i = 0; i < sizeof open_flags / sizeof *open_flags; i++) {
		if ((rest & open_flags[i].bit) != open_flags[i].bit)
			continue;
		ior_text_put(&b, "|", 1);
		ior_text_puts(&b, open_flags[i].name);
		rest &= ~open_flags[i].bit;
	}
	if (rest) {
		char hex[24];
		snprintf(hex, sizeof hex, "|0x%llx", (unsigned long long)rest);
		ior_text_puts(&b, hex);
	}
	buf[b.len] = 0;
}
