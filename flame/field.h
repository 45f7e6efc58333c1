/* The flamegraph fields (-fields), one table: a field is its name, the key
 * word a pair gets for it, and the frames drawn for a key word. Adding a
 * field is one entry in flame/field.c plus its golden file
 * (tests/unit/test_flame_agg.c runs every entry). Internal to flame/. */
#ifndef IOR_FLAME_FIELD_H
#define IOR_FLAME_FIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pair/event_pair.h"

/* Where a field's frames go: a cursor in the tree being built (tree.c). */
struct ior_flame_frames;
struct ior_rec_ids;
/* Draws one frame named s[0..n) (sanitised) above the previous one.
 * 0 or -ENOMEM. */
int ior_flame_frame(struct ior_flame_frames *out, const char *s, size_t n);
struct ior_flame_field;
/* The frames field f draws for a key word (text: its string, or NULL), as
 * frames() below: what it may add to a tree (tree.c; agg.c's bounds). */
uint32_t ior_flame_count_frames(const struct ior_flame_field *f, const char *text, uint64_t number);

struct ior_flame_field {
	const char *name;
	/* The key word of a pair. A text field (text set) keys on a string,
	 * which the aggregation interns: text() gives it from a pair (NULL
	 * counts as ""), text_id() its string id in a recording, so the
	 * recording's fast path never reads the string. Any other field keys
	 * on number(). */
	const char *(*text)(const struct ior_event_pair *p);
	uint32_t (*text_id)(const struct ior_rec_ids *ids);
	/* A live pair's id for text's string (comm_id, path_id: equal ids,
	 * equal strings), 0 when not known; NULL for fields without one. */
	uint64_t (*live_id)(const struct ior_event_pair *p);
	uint64_t (*number)(const struct ior_event_pair *p);
	/* The frames of a key word, bottom up: text is a text field's string
	 * (never NULL; NULL for the others), number the others' key word. */
	int (*frames)(struct ior_flame_frames *out, const char *text, uint64_t number);
	/* A text field keyed on the recording a pair comes from (its host),
	 * not on the pair: the aggregation supplies the string. */
	bool per_source;
};

extern const struct ior_flame_field ior_flame_fields[];
extern const unsigned ior_flame_nfields;

#endif
