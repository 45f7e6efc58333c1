/* Comma-separated lists as every flag takes them (-fields, -trace-families,
 * -tps, -ior=A,B): blanks around an entry are trimmed and empty entries
 * skipped, so "comm, path" and "comm,,path" both mean comm then path. */
#ifndef IOR_TEXT_LIST_H
#define IOR_TEXT_LIST_H

#include <stddef.h>

/* The next entry of the list at *p: *item points at it (not
 * NUL-terminated) and *n is its length; *p moves past it. 1, or 0 at the
 * end of the list. */
int ior_list_next(const char **p, const char **item, size_t *n);

#endif
