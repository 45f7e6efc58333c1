#include "log/log.h"

#include <stdarg.h>
#include <stdio.h>

static ior_log_fn printer;
static void *printer_ctx;

ior_log_fn ior_log_set(ior_log_fn fn, void *ctx, void **old_ctx)
{
	ior_log_fn old = printer;

	if (old_ctx)
		*old_ctx = printer_ctx;
	printer = fn;
	printer_ctx = ctx;
	return old;
}

void ior_log(enum ior_log_level level, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	if (!printer)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	printer(printer_ctx, level, msg);
}
