/* The frame tree as JSON, in the {name, value, children} shape d3-flame-graph
 * reads; the root also carries what the graph shows. */
#include "flame.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

/* Names are sanitised (valid UTF-8, no control characters); <, > and &
 * are escaped too so the JSON can be embedded in HTML. */
static void put_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		switch (*s) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '<':
			fputs("\\u003c", out);
			break;
		case '>':
			fputs("\\u003e", out);
			break;
		case '&':
			fputs("\\u0026", out);
			break;
		default:
			if ((unsigned char)*s < 0x20)
				fprintf(out, "\\u%04x", (unsigned char)*s);
			else
				fputc(*s, out);
		}
	}
	fputc('"', out);
}

static void put_meta(const struct ior_flame_tree *t, FILE *out);

static void put_node(const struct ior_flame_tree *t, uint32_t n, FILE *out)
{
	const struct ior_flame_node *node = &t->nodes[n];
	fputs("{\"name\":", out);
	put_json_str(out, ior_flame_node_name(t, n));
	fprintf(out, ",\"value\":%" PRIu64, node->value);
	if (node->self != node->value)
		fprintf(out, ",\"self\":%" PRIu64, node->self);
	if (n == 0)
		put_meta(t, out);
	bool first = true;
	for (uint32_t i = 0; i < node->nchild; i++) {
		uint32_t c = t->kids[node->child0 + i];
		if (!t->nodes[c].value)
			continue;
		fputs(first ? ",\"children\":[" : ",", out);
		first = false;
		put_node(t, c, out);
	}
	if (!first)
		fputc(']', out);
	fputc('}', out);
}

static const char *unit(enum ior_flame_metric m)
{
	return m == IOR_METRIC_COUNT ? "calls" : m == IOR_METRIC_BYTES ? "bytes" : "ns";
}

static void put_meta(const struct ior_flame_tree *t, FILE *out)
{
	char fields[128], host[1024];
	ior_flame_fields_str(&t->spec, ',', fields, sizeof fields);
	const char *h = t->meta.host ? t->meta.host : "";
	ior_flame_sanitize(host, sizeof host, h, strlen(h));
	fputs(",\"fields\":", out);
	put_json_str(out, fields);
	fputs(",\"count\":", out);
	put_json_str(out, ior_flame_metric_name(t->spec.metric));
	fprintf(out, ",\"unit\":\"%s\",\"host\":", unit(t->spec.metric));
	put_json_str(out, host);
	fprintf(out, ",\"pairs\":%" PRIu64 ",\"firstRealtimeNs\":%" PRIu64 ",\"lastRealtimeNs\":%" PRIu64
		     ",\"truncated\":%s",
		t->pairs, t->meta.first_realtime_ns, t->meta.last_realtime_ns,
		t->meta.truncated ? "true" : "false");
}

int ior_flame_write_json(const struct ior_flame_tree *t, FILE *out)
{
	put_node(t, 0, out);
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}
