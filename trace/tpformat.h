/* A tracefs format file (events/CAT/NAME/format) read for one field's
 * offset and size: the layout of a classic tracepoint's record when the
 * kernel has no BTF to say it. Pure: the text is hostile input. */
#ifndef IOR_TRACE_TPFORMAT_H
#define IOR_TRACE_TPFORMAT_H

#include <stddef.h>
#include <stdint.h>

/* 0 and *off, *size of field ("dev", "rwbs", ... an array's name without
 * its brackets) in text[0..len); -ENOENT when absent, -EINVAL when its
 * line is malformed. */
int ior_tpformat_field(const char *text, size_t len, const char *field, uint32_t *off, uint32_t *size);

#endif
