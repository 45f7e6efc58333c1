/* Flamegraphs of recordings: aggregate event pairs by -fields and -count,
 * build a frame tree, write it as folded stacks, SVG or JSON.
 *
 * Frames, bottom up, one field after the other in -fields order; the
 * fields and the frames each draws are one table, flame/field.c.
 *
 * Frame names are written in one lossless, reversible notation, the CSV's
 * (csv/csv.h, escape auto) plus ';': "\\" is a backslash, "\xHH" a byte
 * (control bytes, invalid UTF-8, ';'), "\uHHHH" a code point a terminal
 * acts on (C1 controls, bidi formatting, line separators). So a folded line
 * splits at every ';', names are valid UTF-8 without controls, SVG/JSON
 * need only their ordinary escaping, and the traced bytes can be recovered.
 *
 * Nothing here prints except the writers, which write to the FILE given. */
#ifndef IOR_FLAME_FLAME_H
#define IOR_FLAME_FLAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pair/event_pair.h"
#include "pair/norm.h"

struct ior_rec_reader;

enum ior_flame_metric {
	IOR_METRIC_COUNT,          /* pairs */
	IOR_METRIC_DURATION,       /* durationNs */
	IOR_METRIC_DURATION_TO_PREV, /* durationToPrevNs */
	IOR_METRIC_BYTES,          /* bytes */
	IOR_METRIC_DEVICE_TIME,    /* device_ns: the time its block requests were at the device */
};

#define IOR_FLAME_MAX_FIELDS 12 /* at least the number of fields */

/* What to aggregate and which pairs to keep (the live filters). */
struct ior_flame_spec {
	uint8_t fields[IOR_FLAME_MAX_FIELDS]; /* indexes of ior_flame_fields[] (flame/field.h) */
	unsigned nfields;
	enum ior_flame_metric metric;
	int64_t pid, tid;          /* < 0: any */
	const char *comm, *path;   /* substring filters; NULL or "": any */
};

/* Parses "comm,path,tracepoint" (each field at most once) and a metric
 * name; fills spec (filters: none). -EINVAL with a message in err. */
int ior_flame_spec_parse(struct ior_flame_spec *spec, const char *fields, const char *metric,
			 char *err, size_t errlen);
const char *ior_flame_metric_name(enum ior_flame_metric m);
/* "comm:path:tracepoint" (sep ':') or "comm,path,tracepoint". */
void ior_flame_fields_str(const struct ior_flame_spec *spec, char sep, char *buf, size_t len);
/* true when the pair passes the spec's filters. */
bool ior_flame_spec_match(const struct ior_flame_spec *spec, const struct ior_event_pair *p);

/* Aggregation: sums the metric per distinct field tuple. */
struct ior_flame_agg;
int ior_flame_agg_new(struct ior_flame_agg **a, const struct ior_flame_spec *spec);
/* One pair (strings compared by content); filters applied. */
int ior_flame_agg_add(struct ior_flame_agg *a, const struct ior_event_pair *p);
/* Every remaining pair of a recording (fast): the reader hands each string
 * over once (ior_rec_reader_map_strings, so r serves this aggregation only)
 * and keeps none. Returns 0 at the end, or the reader's negative error. */
int ior_flame_agg_add_recording(struct ior_flame_agg *a, struct ior_rec_reader *r);
/* The host the next pairs come from, for -fields host (add_recording sets
 * the recording's). Until set: "". 0 or -ENOMEM. */
int ior_flame_agg_set_host(struct ior_flame_agg *a, const char *host);
/* Bounds the aggregation (0: unbounded, the default): at most max_keys
 * distinct field tuples, and no new comm/path string once the interned
 * strings take max_string_bytes (a recording's: every string it defines
 * while a text field is asked for, even of pairs the filters drop). A pair
 * whose tuple is new once a bound is reached is summed into one
 * IOR_FLAME_OTHER frame under the root (counted by
 * ior_flame_agg_other_pairs), so memory stays bounded however many
 * distinct files a trace or a recording sees; the tuples kept are the
 * first ones, with all their pairs. Call before the first add. */
#define IOR_FLAME_OTHER "(other)"
void ior_flame_agg_set_limits(struct ior_flame_agg *a, uint32_t max_keys, size_t max_string_bytes);
/* Also at most max_frames frames (0: unbounded): the sum over the distinct
 * tuples of the frames each draws (a path one per component), which bounds
 * the tree's nodes, and so its memory, however deep the paths. */
void ior_flame_agg_set_max_frames(struct ior_flame_agg *a, uint32_t max_frames);
/* The bounds of the flamegraphs ior draws (ior collapsed, ior -ior=FILE,
 * -live), all three set by ior_flame_agg_set_bounds: with them reading a
 * recording of any number of distinct files stays within 64 MiB (a frame
 * takes about 100 bytes in the tree; 30 MiB at most in all) and above
 * 1 M pairs/s (the tree's cost is the bound's, not the file's), and a
 * graph of more stacks would not be read anyway. */
#define IOR_FLAME_MAX_KEYS 65536
#define IOR_FLAME_MAX_FRAMES (1u << 18)
#define IOR_FLAME_MAX_STRING_BYTES (16u << 20)
void ior_flame_agg_set_bounds(struct ior_flame_agg *a);
uint64_t ior_flame_agg_other_pairs(const struct ior_flame_agg *a);
uint32_t ior_flame_agg_keys(const struct ior_flame_agg *a);    /* distinct tuples */
uint64_t ior_flame_agg_pairs(const struct ior_flame_agg *a);   /* pairs kept */
uint64_t ior_flame_agg_total(const struct ior_flame_agg *a);   /* metric sum */
/* Monotonic ns of the first enter and last exit of the kept pairs (0 if none). */
void ior_flame_agg_span(const struct ior_flame_agg *a, uint64_t *first_ns, uint64_t *last_ns);
void ior_flame_agg_free(struct ior_flame_agg *a);

/* The frame tree. Node 0 is the root ("all"); children are sorted by name
 * (byte order); value includes the children, self does not. */
struct ior_flame_node {
	uint64_t value, self;
	/* Of the pairs under it, whatever the metric: their durationNs and
	 * device time (device_ns, pair/event_pair.h), summed; 0 in a
	 * differential tree. */
	uint64_t time_ns, device_ns;
	uint32_t name;         /* offset into tree->names */
	uint32_t parent;
	uint32_t child0, nchild; /* children: tree->kids[child0 .. child0 + nchild) */
	uint32_t depth;        /* root 0 */
};

/* Shown in SVG/JSON headers. */
struct ior_flame_meta {
	const char *host;             /* may be NULL */
	uint64_t first_realtime_ns;   /* 0: unknown */
	uint64_t last_realtime_ns;
	uint64_t span_ns;             /* last exit - first enter of the pairs kept */
	bool truncated;
};


/* A frame's BASE value and self, in NEW's units. */
struct ior_flame_base {
	uint64_t value, self;
};

/* What a differential tree says about its two recordings. */
struct ior_flame_diff_meta {
	char *base_name, *new_name;   /* the files, as given */
	enum ior_norm norm;
	double factor;                /* BASE's values were multiplied by this */
	uint64_t base_total, base_pairs; /* BASE as recorded */
	uint64_t base_span_ns;
	struct ior_flame_meta base_meta; /* host NULL */
};

struct ior_flame_tree {
	struct ior_flame_node *nodes;
	uint32_t nnodes, max_depth;
	uint32_t *kids;
	char *names;
	struct ior_flame_spec spec;
	uint64_t pairs;
	struct ior_flame_meta meta;
	/* A differential tree (flame/diff.h): nodes[i]'s BASE beside it, and
	 * the two recordings; both NULL in an ordinary tree. */
	struct ior_flame_base *base;
	struct ior_flame_diff_meta *diff;
};

int ior_flame_tree_build(const struct ior_flame_agg *a, struct ior_flame_tree **t);
static inline const char *ior_flame_node_name(const struct ior_flame_tree *t, uint32_t n)
{
	return t->names + t->nodes[n].name;
}
void ior_flame_tree_free(struct ior_flame_tree *t);

/* Writers return 0 or -EIO when out reports an error. */
/* "a;b;c 42" lines, sorted in byte order, identical stacks summed. */
int ior_flame_write_folded(const struct ior_flame_tree *t, FILE *out);
int ior_flame_write_svg(const struct ior_flame_tree *t, FILE *out);
/* {"name":"all","value":N,"children":[...]} plus metadata on the root. */
int ior_flame_write_json(const struct ior_flame_tree *t, FILE *out);

/* A frame name in the notation above: at most cap-1 bytes + NUL to dst,
 * never cutting an escape or a character; returns the length written. */
size_t ior_flame_sanitize(char *dst, size_t cap, const char *src, size_t len);
/* "1,234 calls", "12.5 ms", "3.2 MiB" */
void ior_flame_format_value(char *buf, size_t len, enum ior_flame_metric m, uint64_t v);

#endif
