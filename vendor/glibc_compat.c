/* Debian's libzstd.a is built against glibc with _FORTIFY_SOURCE; its
 * (never called by ior) dictionary-builder diagnostics reference the
 * fortified fprintf. musl has no __fprintf_chk, so forward it. */
#include <stdarg.h>
#include <stdio.h>

int __fprintf_chk(FILE *stream, int flag, const char *fmt, ...);

int __fprintf_chk(FILE *stream, int flag, const char *fmt, ...)
{
	va_list ap;
	int n;

	(void)flag;
	va_start(ap, fmt);
	n = vfprintf(stream, fmt, ap);
	va_end(ap);
	return n;
}
