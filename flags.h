/* Go-style flag parsing: -name, --name, -name=value, -name value.
 * Booleans take no separate value (-plain, -plain=false). Parsing stops at
 * "--" or the first argument that is not a flag. Pure: no printing. */
#ifndef IOR_FLAGS_H
#define IOR_FLAGS_H

#include <stddef.h>
#include <stdint.h>

enum ior_flag_type {
	IOR_FLAG_BOOL,     /* bool */
	IOR_FLAG_INT,      /* int64_t */
	IOR_FLAG_STRING,   /* const char * */
	IOR_FLAG_DURATION, /* uint64_t ns: "5" (seconds), "1.5s", "200ms", "2m", "1h" */
	IOR_FLAG_SIZE,     /* uint64_t bytes: "4096", "256K", "8M" */
	IOR_FLAG_LIST,     /* struct ior_flag_list: repeatable, each use one more value */
};

#define IOR_FLAG_LIST_MAX 32

struct ior_flag_list {
	const char *v[IOR_FLAG_LIST_MAX];
	size_t n;
};

struct ior_flag {
	const char *name;
	enum ior_flag_type type;
	void *value;
	const char *usage; /* NULL: hidden from help */
};

/* Parses argv[1..argc). Returns the index of the first positional argument
 * on success, or -1 with a message in err naming the flag. */
int ior_flags_parse(const struct ior_flag *flags, size_t nflags, int argc,
		    char **argv, char *err, size_t errlen);
/* The same, and whether parsing stopped at "--" (*dashdash 1: what
 * follows, from the returned index on, is a command and its arguments,
 * never flags; 0: flags ended at a positional argument or argv's end). */
int ior_flags_parse_cmd(const struct ior_flag *flags, size_t nflags, int argc,
			char **argv, int *dashdash, char *err, size_t errlen);

/* Parsers for single values; 0 on success, -1 on a bad value. */
int ior_parse_duration(const char *s, uint64_t *ns);
int ior_parse_size(const char *s, uint64_t *bytes);
int ior_parse_int(const char *s, int64_t *v);

#endif
