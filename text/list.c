#include "text/list.h"

#include <ctype.h>
#include <string.h>

int ior_list_next(const char **p, const char **item, size_t *n)
{
	while (**p) {
		size_t len = strcspn(*p, ",");
		const char *s = *p, *e = s + len;

		*p += len + ((*p)[len] == ',');
		while (s < e && isspace((unsigned char)*s))
			s++;
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
		if (e > s) {
			*item = s;
			*n = (size_t)(e - s);
			return 1;
		}
	}
	return 0;
}
