/* Big recordings: folded output written from the tree in byte order, and
 * the bounds that keep reading small (the "(other)" frame) exact in their
 * totals. */
#include "t.h"
#include "flame/flame.h"
#include "trace/rec.h"
#include "trace/syscalls.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/ior-test-scale-XXXXXX";

static uint64_t rng_state = 1;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static char *folded(const struct ior_flame_tree *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	CHECK_EQ_INT(ior_flame_write_folded(t, m), 0);
	fclose(m);
	return buf;
}

/* ---- the reference: every line built whole, then sorted -------------- */

struct line {
	char *text;
	uint64_t value;
};

static int by_text(const void *x, const void *y)
{
	return strcmp(((const struct line *)x)->text, ((const struct line *)y)->text);
}

static char *stack_of(const struct ior_flame_tree *t, uint32_t n)
{
	if (!t->nodes[n].parent)
		return strdup(ior_flame_node_name(t, n));
	char *up = stack_of(t, t->nodes[n].parent), *s;
	if (asprintf(&s, "%s;%s", up, ior_flame_node_name(t, n)) < 0)
		s = NULL;
	free(up);
	return s;
}

static char *folded_reference(const struct ior_flame_tree *t)
{
	struct line *lines = calloc(t->nnodes, sizeof *lines);
	size_t n = 0, len = 0;
	for (uint32_t i = 1; i < t->nnodes; i++)
		if (t->nodes[i].self)
			lines[n++] = (struct line){ stack_of(t, i), t->nodes[i].self };
	qsort(lines, n, sizeof *lines, by_text);
	char *buf = NULL;
	FILE *m = open_memstream(&buf, &len);
	for (size_t i = 0; i < n; i++) {
		fprintf(m, "%s %llu\n", lines[i].text, (unsigned long long)lines[i].value);
		free(lines[i].text);
	}
	fclose(m);
	free(lines);
	return buf;
}

/* Names that are prefixes of each other and differ in bytes below and
 * above ';' (' ', '!', '-', digits, '_', UTF-8) sort as whole lines do. */
TEST(folded_lines_in_byte_order)
{
	static const char *parts[] = { "a", "ab", "ab!", "ab-1", "ab 2", "ab0", "ab_", "b", "\xc3\xa9", "1", "10", "" };
	struct ior_flame_spec spec;
	char err[256], path[128];
	CHECK_EQ_INT(ior_flame_spec_parse(&spec, "comm,path,pid", "count", err, sizeof err), 0);
	for (int round = 0; round < 20; round++) {
		struct ior_flame_agg *a;
		struct ior_flame_tree *t = NULL;
		CHECK_EQ_INT(ior_flame_agg_new(&a, &spec), 0);
		for (int i = 0; i < 300; i++) {
			size_t n = 0;
			for (uint64_t k = rnd() % 4; k--;)
				n += (size_t)snprintf(path + n, sizeof path - n, "%s%s", rnd() % 3 ? "/" : "",
						      parts[rnd() % 12]);
			path[n] = 0;
			struct ior_event_pair p = { .pid = (uint32_t)(rnd() % 3), .flags = IOR_FLAGS_UNKNOWN,
						    .comm = parts[rnd() % 4], .path = path, .path2 = "" };
			CHECK_EQ_INT(ior_flame_agg_add(a, &p), 0);
		}
		CHECK_EQ_INT(ior_flame_tree_build(a, &t), 0);
		char *got = t ? folded(t) : NULL, *want = t ? folded_reference(t) : NULL;
		CHECK_EQ_STR(got, want);
		free(got);
		free(want);
		ior_flame_tree_free(t);
		ior_flame_agg_free(a);
		if (t_cur_failed)
			break;
	}
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(folded_lines_in_byte_order);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	if (system(cmd))
		return 1;
	return t_done();
}
