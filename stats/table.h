/* stats/ internal: a bounded table of rows keyed by a uint64 (a pid, a tid,
 * a path's id), found through an open-addressing index. It never holds
 * more than max rows: the owner folds it (table_fold) when it is full,
 * which sums the half with the least time into the (other) row. */
#ifndef IOR_STATS_TABLE_H
#define IOR_STATS_TABLE_H

#include "stats.h"

struct trow {
	uint64_t key;
	uint32_t pid;
	char comm[16];
	struct ior_stats_sums s;
};

struct table {
	struct trow *rows;
	uint32_t n, cap, max;   /* rows used, allocated, at most */
	uint32_t *index;        /* slot -> row + 1, 0: empty */
	uint32_t mask;          /* slots - 1: twice max or more, a power of two */
	uint32_t last;          /* row of the latest lookup + 1, 0: none */
	struct trow other;
	uint64_t folds;
};

int table_init(struct table *t, uint32_t max);
void table_free(struct table *t);
/* The row of key, NULL when it has none. */
struct trow *table_find(struct table *t, uint64_t key);
/* A new zeroed row for key (not in the table), NULL when the table is
 * full or out of memory. Pointers to rows move when one is added. */
struct trow *table_add(struct table *t, uint64_t key);
/* Folds the half of the rows with the least time into (other); the rows
 * kept keep their order. Call table_reindex after changing their keys. */
void table_fold(struct table *t);
void table_reindex(struct table *t);

#endif
