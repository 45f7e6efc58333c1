/* Files by directory (the d key): the rows summed per directory under a
 * prefix, drilled into with Enter and out with Backspace; or per mount
 * point (d again, when the caller gave the mounts: live only, a recording
 * keeps no mount table). */
#include "dash_int.h"

#include <stdlib.h>
#include <string.h>

/* The group a path falls in under prefix: the next directory ("/a/b/"),
 * or the file itself; its length, 0 when the path is not under prefix.
 * At the top, names that are no path ("pipe:[12]", "(other)") are their
 * own group. */
static size_t group_key(const char *prefix, const char *name)
{
	size_t plen = strlen(prefix);
	const char *slash;

	if (strncmp(name, prefix, plen))
		return !strcmp(prefix, "/") && name[0] != '/' ? strlen(name) : 0;
	slash = strchr(name + plen, '/');
	return slash ? (size_t)(slash - name) + 1 : strlen(name);
}

/* The mount point a path is on, as "/mnt/" (its longest mount point), or
 * the name itself when it is no path. */
static size_t mount_key(const struct ior_dash *d, const char *name)
{
	size_t best = 0;

	if (name[0] != '/')
		return strlen(name);
	for (unsigned i = 0; i < d->nmounts; i++) {
		const char *m = d->mounts[i];
		size_t n = strlen(m);
		if (n == 1 && m[0] == '/')
			best = best > 1 ? best : 1;
		else if (!strncmp(name, m, n) && name[n] == '/' && n + 1 > best)
			best = n + 1;
	}
	return best ? best : strlen(name);
}

void ior_dash_mounts_free(struct ior_dash *d)
{
	for (unsigned i = 0; i < d->nmounts; i++)
		free(d->mounts[i]);
	free(d->mounts);
	d->mounts = NULL;
	d->nmounts = 0;
}

void ior_dash_set_mounts(struct ior_dash *d, const char *const *mounts, unsigned n)
{
	ior_dash_mounts_free(d);
	n = n < MAX_MOUNTS ? n : MAX_MOUNTS;
	if (!n || !(d->mounts = calloc(n, sizeof *d->mounts)))
		return;
	for (unsigned i = 0; i < n; i++)
		if (strlen(mounts[i]) < NAME_MAX_BYTES && (d->mounts[d->nmounts] = strdup(mounts[i])))
			d->nmounts++;
}

static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The group of name[0..len) in d->groups, added when new; NULL when the
 * names' arena is full. */
static struct ior_stats_row *group_of(struct ior_dash *d, const char *name, size_t len, unsigned *n, size_t *used)
{
	uint32_t i = hash(name, len) & (GROUP_SLOTS - 1);

	for (; d->slots[i]; i = (i + 1) & (GROUP_SLOTS - 1)) {
		struct ior_stats_row *g = &d->groups[d->slots[i] - 1];
		if (!strncmp(g->name, name, len) && !g->name[len])
			return g;
	}
	if (*used + len + 1 > ARENA_BYTES || *n >= MAX_ROWS)
		return NULL;
	memcpy(d->arena + *used, name, len);
	d->arena[*used + len] = 0;
	d->groups[*n] = (struct ior_stats_row){ .name = d->arena + *used };
	*used += len + 1;
	d->slots[i] = ++*n;
	return &d->groups[*n - 1];
}

static void group_add(struct ior_stats_row *g, const struct ior_stats_row *r)
{
	ior_stats_sums_merge(&g->sums, &r->sums);
}

static enum dash_value sort_value;
static int sort_ascending;

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int group_cmp(const void *pa, const void *pb)
{
	const struct ior_stats_row *a = pa, *b = pb;
	int c;

	switch (sort_value) {
	case V_PAIRS: c = cmp_u64(a->sums.pairs, b->sums.pairs); break;
	case V_ERRORS: c = cmp_u64(a->sums.errors, b->sums.errors); break;
	case V_READ: c = cmp_u64(a->sums.bytes_read, b->sums.bytes_read); break;
	case V_WRITTEN: c = cmp_u64(a->sums.bytes_written, b->sums.bytes_written); break;
	case V_MAX: c = cmp_u64(a->sums.max_ns, b->sums.max_ns); break;
	case V_NAME: c = strcmp(a->name, b->name); break;
	default: c = cmp_u64(a->sums.time_ns, b->sums.time_ns); break;
	}
	c = sort_ascending ? c : -c;
	return c ? c : strcmp(a->name, b->name);
}

/* d->rows[0..n) (the files, (other) among them) summed per group under
 * d->prefix, sorted by the view's column, back into d->rows. */
void ior_dash_group_rows(struct ior_dash *d, const struct dash_view *v, unsigned n)
{
	unsigned groups = 0;
	size_t used = 0;

	memset(d->slots, 0, GROUP_SLOTS * sizeof *d->slots);
	for (unsigned i = 0; i < n; i++) {
		const char *name = strcmp(d->rows[i].name, IOR_STATS_OTHER) ? d->rows[i].name : IOR_STATS_OTHER;
		size_t len = d->dirs == 2 ? mount_key(d, name) : group_key(d->prefix, name);
		struct ior_stats_row *g = len ? group_of(d, name, len, &groups, &used) : NULL;
		if (!g && len)
			g = group_of(d, IOR_STATS_OTHER, strlen(IOR_STATS_OTHER), &groups, &used);
		if (g)
			group_add(g, &d->rows[i]);
	}
	sort_value = v->cols[v->sort].v;
	sort_ascending = v->ascending;
	qsort(d->groups, groups, sizeof *d->groups, group_cmp);
	memcpy(d->rows, d->groups, groups * sizeof *d->rows);
	d->nrows = groups;
}

int ior_dash_dirs_key(struct ior_dash *d, const struct ior_tui_key *k)
{
	struct ior_tui_table *t = &d->views[IOR_DASH_FILES].table;
	size_t len = strlen(d->prefix);

	if (k->code == IOR_TUI_KEY_ENTER) {
		const char *name = t->selected < d->nrows ? d->rows[t->selected].name : "";
		size_t n = strlen(name);
		if (n && name[n - 1] == '/' && n < sizeof d->prefix) {
			memcpy(d->prefix, name, n + 1);
			d->dirs = 1; /* a mount point opens as its directory */
		}
	} else if (k->code == IOR_TUI_KEY_BACKSPACE || k->code == IOR_TUI_KEY_LEFT) {
		while (len > 1 && d->prefix[len - 2] != '/')
			len--;
		d->prefix[len > 1 ? len - 1 : 1] = 0;
	} else {
		return 0;
	}
	t->selected = t->top = 0;
	return 1;
}

