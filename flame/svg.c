/* A self-contained interactive SVG flame graph in the style of
 * flamegraph.pl: tooltips, click to zoom, Reset Zoom, regex search with
 * "Matched: X%". Everything from the traced system is XML-escaped (names
 * are already valid UTF-8 without control characters); the script reads
 * names from the DOM text only and never evaluates them. */
#include "flame.h"
#include "flame/diff.h"
#include "text/xml.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define IMAGE_WIDTH 1200
#define XPAD 10
#define FRAME_HEIGHT 16
#define FONT_SIZE 12
#define FONT_WIDTH 0.59
#define MIN_WIDTH_PX 0.1
#define YPAD_TOP (FONT_SIZE * 4)
#define YPAD_BOTTOM (FONT_SIZE * 2 + 10)

static void put_xml(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		const char *entity = ior_xml_entity(s[i]);
		if (entity)
			fputs(entity, out);
		else
			fputc(s[i], out);
	}
}

/* Bytes of the first max code points of s, or strlen(s) if it is shorter. */
static size_t utf8_prefix(const char *s, size_t max)
{
	size_t i = 0;
	for (size_t cps = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && cps++ == max)
			break;
	}
	return i;
}

static size_t utf8_count(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The label that fits in width pixels, as flamegraph.pl shortens it. */
static void put_label(FILE *out, const char *name, double width)
{
	if (width < 6 + 3 * FONT_SIZE * FONT_WIDTH)
		return;
	size_t fit = (size_t)((width - 6) / (FONT_SIZE * FONT_WIDTH));
	if (utf8_count(name) <= fit) {
		put_xml(out, name, strlen(name));
		return;
	}
	put_xml(out, name, utf8_prefix(name, fit - 2));
	fputs("..", out);
}

/* Warm colours from the name, stable across runs. */
static void put_color(FILE *out, const char *name)
{
	uint32_t h = 2166136261u;
	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	fprintf(out, "rgb(%u,%u,%u)", 205 + h % 50, (h >> 8) % 230, (h >> 20) % 55);
}

/* A differential frame: red grew, blue shrank, by how much of the larger
 * of the two; purple when BASE had none of it. */
static void put_diff_color(FILE *out, const struct ior_flame_tree *t, uint32_t n)
{
	uint64_t b = t->base[n].value, v = t->nodes[n].value;
	double big = (double)(b > v ? b : v), r = big > 0 ? ((double)v - (double)b) / big : 0;
	unsigned fade = (unsigned)(225.0 * (1.0 - (r < 0 ? -r : r)) + 0.5);

	if (!b && v)
		fputs("rgb(170,85,220)", out);
	else if (r >= 0)
		fprintf(out, "rgb(255,%u,%u)", fade, fade);
	else
		fprintf(out, "rgb(%u,%u,255)", fade, fade);
}

static void put_fill(FILE *out, const struct ior_flame_tree *t, uint32_t n)
{
	if (t->base)
		put_diff_color(out, t, n);
	else
		put_color(out, ior_flame_node_name(t, n));
}

/* "base 1,200 calls, +34 calls (+2.8%)" after a differential frame's value. */
static void put_change(FILE *out, const struct ior_flame_tree *t, uint32_t n)
{
	uint64_t b = t->base[n].value, v = t->nodes[n].value;
	char bs[64], ds[64];

	ior_flame_format_value(bs, sizeof bs, t->spec.metric, b);
	ior_flame_format_value(ds, sizeof ds, t->spec.metric, v > b ? v - b : b - v);
	if (!b)
		fprintf(out, "; base 0: new in NEW (+%s)", ds);
	else
		fprintf(out, "; base %s, %s%s (%+.1f%%)", bs, v >= b ? "+" : "-", ds, ior_flame_diff_pct(b, v));
}

static void put_time(FILE *out, uint64_t ns, bool date)
{
	time_t s = (time_t)(ns / 1000000000u);
	struct tm tm;
	char buf[64];
	if (!gmtime_r(&s, &tm) || !strftime(buf, sizeof buf, date ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S", &tm))
		return;
	fputs(buf, out);
}

static void put_subtitle(FILE *out, const struct ior_flame_tree *t)
{
	char host[512], v[64];
	const char *h = t->meta.host ? t->meta.host : "";
	ior_flame_sanitize(host, sizeof host, h, strlen(h));
	fputs("host ", out);
	put_xml(out, host, strlen(host));
	if (t->meta.first_realtime_ns) {
		uint64_t a = t->meta.first_realtime_ns, b = t->meta.last_realtime_ns;
		fputs(", ", out);
		put_time(out, a, true);
		fputs(" \xe2\x80\x93 ", out);
		put_time(out, b, b / 86400000000000ull != a / 86400000000000ull);
		fprintf(out, " UTC (%.3f s)", b > a ? (double)(b - a) / 1e9 : 0.0);
	}
	ior_flame_format_value(v, sizeof v, IOR_METRIC_COUNT, t->pairs);
	fprintf(out, ", %s", v);
	ior_flame_format_value(v, sizeof v, t->spec.metric, t->nodes[0].value);
	if (t->spec.metric != IOR_METRIC_COUNT)
		fprintf(out, ", total %s", v);
	if (t->meta.truncated)
		fputs(", recording truncated", out);
}

#define GONE_SHOWN 8 /* frames only in BASE listed under a differential graph */

static const struct ior_flame_tree *gone_tree;

static int by_base_desc(const void *x, const void *y)
{
	uint64_t a = gone_tree->base[*(const uint32_t *)x].value, b = gone_tree->base[*(const uint32_t *)y].value;

	return a < b ? 1 : a > b ? -1 : 0;
}

/* The frames only BASE has whose parent NEW has: the largest first. n of
 * them into *list (the caller frees it); -ENOMEM. */
static int gone_frames(const struct ior_flame_tree *t, uint32_t **list, uint32_t *n)
{
	*n = 0;
	*list = malloc(((size_t)t->nnodes + 1) * sizeof **list);
	if (!*list)
		return -ENOMEM;
	for (uint32_t i = 1; i < t->nnodes; i++)
		if (!t->nodes[i].value && t->base[i].value && t->nodes[t->nodes[i].parent].value)
			(*list)[(*n)++] = i;
	gone_tree = t;
	qsort(*list, *n, sizeof **list, by_base_desc);
	return 0;
}

/* The frame's stack from the root, ';' between names, escaped, cut. */
static void put_stack(FILE *out, const struct ior_flame_tree *t, uint32_t n)
{
	uint32_t path[64], depth = 0;
	char buf[400];
	size_t len = 0;

	for (uint32_t i = n; i && depth < 64; i = t->nodes[i].parent)
		path[depth++] = i;
	for (uint32_t d = depth; d-- > 0 && len < sizeof buf - 1;)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", d + 1 < depth ? ";" : "",
					ior_flame_node_name(t, path[d]));
	len = len < sizeof buf ? len : sizeof buf - 1;
	put_xml(out, buf, utf8_prefix(buf, 150));
	if (utf8_count(buf) > 150)
		fputs("..", out);
}

static void put_name(FILE *out, const char *file)
{
	char s[512];

	ior_flame_sanitize(s, sizeof s, file, strlen(file));
	put_xml(out, s, strlen(s));
}

/* Under a differential graph: which file is which, the colours, the
 * normalization, and the frames gone from NEW. y: the first line's. */
static void put_legend(FILE *out, const struct ior_flame_tree *t, const uint32_t *gone, uint32_t ngone, int y)
{
	const struct ior_flame_diff_meta *d = t->diff;
	static const char *const how[] = { "per second of each recording's span", "as recorded",
					   "as shares of each total" };
	char v[64];

	fprintf(out, "<text class=\"legend\" x=\"%d\" y=\"%d\">widths: NEW ", XPAD, y);
	put_name(out, d->new_name);
	fputs(". Colour by change against BASE ", out);
	put_name(out, d->base_name);
	fputs(": <tspan fill=\"#d00\">red grew</tspan>, <tspan fill=\"#00d\">blue shrank</tspan> "
	      "(deeper: larger), <tspan fill=\"rgb(150,60,200)\">purple: not in BASE</tspan>.</text>\n", out);
	fprintf(out, "<text class=\"legend\" x=\"%d\" y=\"%d\">-normalize=%s (%s): BASE's values &#215; %.4g "
		     "(BASE %.3f s, NEW %.3f s).</text>\n",
		XPAD, y + FRAME_HEIGHT, ior_norm_name(d->norm), how[d->norm], d->factor,
		(double)d->base_span_ns / 1e9, (double)t->meta.span_ns / 1e9);
	for (uint32_t i = 0; i < ngone && i < GONE_SHOWN; i++) {
		ior_flame_format_value(v, sizeof v, t->spec.metric, t->base[gone[i]].value);
		fprintf(out, "<text class=\"legend gone\" x=\"%d\" y=\"%d\">gone (only in BASE): ", XPAD,
			y + (int)(i + 2) * FRAME_HEIGHT);
		put_stack(out, t, gone[i]);
		fprintf(out, " \xe2\x80\x94 %s</text>\n", v);
	}
	if (ngone > GONE_SHOWN)
		fprintf(out, "<text class=\"legend gone\" x=\"%d\" y=\"%d\">and %u more frames only in BASE "
			     "(ior diff -folded lists every stack)</text>\n",
			XPAD, y + (GONE_SHOWN + 2) * FRAME_HEIGHT, ngone - GONE_SHOWN);
}

static int legend_lines(const struct ior_flame_tree *t, uint32_t ngone)
{
	return t->diff ? 2 + (int)(ngone < GONE_SHOWN ? ngone : GONE_SHOWN + 1) : 0;
}

static const char style[] =
	"text{font-family:Verdana,DejaVu Sans,sans-serif;font-size:12px;fill:#000}\n"
	"#title{font-size:17px}\n"
	"#subtitle{fill:#555}\n"
	".legend{fill:#333}\n"
	".gone{fill:#00a}\n"
	"#frames g{cursor:pointer}\n"
	"#frames g:hover rect{stroke:#000;stroke-width:0.5}\n"
	"#frames text{pointer-events:none}\n"
	".parent{opacity:0.5}\n"
	".button{cursor:pointer;fill:#333}\n"
	".button:hover{text-decoration:underline}\n"
	".hide{display:none}\n";

/* The viewer. Geometry lives in data-x (offset), data-w (value) and
 * data-d (depth) of each frame's <g>; the name is the <title> text up to
 * its last newline. */
static const char script[] =
	"\"use strict\";\n"
	"window.addEventListener('load', function () {\n"
	"var W = IMAGE_W, PAD = 10, FW = 12 * 0.59, TOTAL = TOTAL_V;\n"
	"var frames = document.getElementById('frames');\n"
	"var gs = frames.getElementsByTagName('g');\n"
	"var details = document.getElementById('details');\n"
	"var matched = document.getElementById('matched');\n"
	"var unzoomBtn = document.getElementById('unzoom');\n"
	"var searchBtn = document.getElementById('search');\n"
	"var caseBtn = document.getElementById('ignorecase');\n"
	"var term = null, ignoreCase = false, zoomed = null;\n"
	"function num(g, a) { return +g.getAttribute(a); }\n"
	"function rectOf(g) { return g.getElementsByTagName('rect')[0]; }\n"
	"function titleOf(g) { return g.getElementsByTagName('title')[0].textContent; }\n"
	"function nameOf(g) { var t = titleOf(g), i = t.lastIndexOf('\\n'); return i < 0 ? t : t.slice(0, i); }\n"
	"function fit(g) {\n"
	"  var r = rectOf(g), t = g.getElementsByTagName('text')[0];\n"
	"  var w = +r.getAttribute('width'), cs = Array.from(nameOf(g));\n"
	"  var n = Math.floor((w - 6) / FW);\n"
	"  t.setAttribute('x', +r.getAttribute('x') + 3);\n"
	"  if (w < 6 || n < 3) t.textContent = '';\n"
	"  else if (cs.length <= n) t.textContent = cs.join('');\n"
	"  else t.textContent = cs.slice(0, n - 2).join('') + '..';\n"
	"}\n"
	"function place(g, x, w) {\n"
	"  var r = rectOf(g);\n"
	"  r.setAttribute('x', x);\n"
	"  r.setAttribute('width', w);\n"
	"  g.style.display = '';\n"
	"  fit(g);\n"
	"}\n"
	"function saveState() {\n"
	"  var q = [];\n"
	"  if (zoomed) q.push('x=' + zoomed.getAttribute('data-x'), 'd=' + zoomed.getAttribute('data-d'));\n"
	"  if (term !== null) q.push('s=' + encodeURIComponent(term));\n"
	"  if (ignoreCase) q.push('i=1');\n"
	"  try { history.replaceState(null, '', (q.length ? '?' + q.join('&') : location.pathname) + location.hash); } catch (e) {}\n"
	"}\n"
	"function loadState() {\n"
	"  var p = new URLSearchParams(location.search);\n"
	"  if (p.get('i') === '1') { ignoreCase = true; caseBtn.textContent = 'IC'; }\n"
	"  for (var i = 0; p.has('x') && i < gs.length; i++)\n"
	"    if (gs[i].getAttribute('data-x') === p.get('x') && gs[i].getAttribute('data-d') === p.get('d')) { zoom(gs[i]); break; }\n"
	"  if (p.get('s')) search(p.get('s'));\n"
	"}\n"
	"function zoom(z) {\n"
	"  var zx = num(z, 'data-x'), zw = num(z, 'data-w'), zd = num(z, 'data-d');\n"
	"  var eps = zw * 1e-9, scale = (W - 2 * PAD) / zw;\n"
	"  zoomed = z;\n"
	"  unzoomBtn.classList.remove('hide');\n"
	"  for (var i = 0; i < gs.length; i++) {\n"
	"    var g = gs[i], x = num(g, 'data-x'), w = num(g, 'data-w'), d = num(g, 'data-d');\n"
	"    g.classList.remove('parent');\n"
	"    if (d < zd && x <= zx + eps && x + w >= zx + zw - eps) {\n"
	"      g.classList.add('parent');\n"
	"      place(g, PAD, W - 2 * PAD);\n"
	"    } else if (d >= zd && x >= zx - eps && x + w <= zx + zw + eps) {\n"
	"      place(g, PAD + (x - zx) * scale, w * scale);\n"
	"    } else {\n"
	"      g.style.display = 'none';\n"
	"    }\n"
	"  }\n"
	"  if (term !== null) search(term);\n"
	"  saveState();\n"
	"}\n"
	"function unzoom() {\n"
	"  var scale = (W - 2 * PAD) / TOTAL;\n"
	"  zoomed = null;\n"
	"  unzoomBtn.classList.add('hide');\n"
	"  for (var i = 0; i < gs.length; i++) {\n"
	"    gs[i].classList.remove('parent');\n"
	"    place(gs[i], PAD + num(gs[i], 'data-x') * scale, num(gs[i], 'data-w') * scale);\n"
	"  }\n"
	"  if (term !== null) search(term);\n"
	"  saveState();\n"
	"}\n"
	"function resetSearch() {\n"
	"  term = null;\n"
	"  for (var i = 0; i < gs.length; i++) {\n"
	"    var r = rectOf(gs[i]);\n"
	"    r.setAttribute('fill', r.getAttribute('data-fill'));\n"
	"  }\n"
	"  matched.textContent = '';\n"
	"  searchBtn.textContent = 'Search';\n"
	"  saveState();\n"
	"}\n"
	"function search(t) {\n"
	"  var re;\n"
	"  try { re = new RegExp(t, ignoreCase ? 'i' : ''); }\n"
	"  catch (e) { alert('Invalid regular expression: ' + e.message); return; }\n"
	"  term = t;\n"
	"  var spans = [];\n"
	"  for (var i = 0; i < gs.length; i++) {\n"
	"    var g = gs[i], r = rectOf(g);\n"
	"    if (re.test(nameOf(g))) {\n"
	"      r.setAttribute('fill', 'rgb(230,0,230)');\n"
	"      spans.push([num(g, 'data-x'), num(g, 'data-w')]);\n"
	"    } else {\n"
	"      r.setAttribute('fill', r.getAttribute('data-fill'));\n"
	"    }\n"
	"  }\n"
	"  spans.sort(function (a, b) { return a[0] - b[0]; });\n"
	"  var sum = 0, end = -1;\n"
	"  for (var j = 0; j < spans.length; j++) {\n"
	"    var s = spans[j][0], e = s + spans[j][1];\n"
	"    if (e <= end) continue;\n"
	"    sum += e - Math.max(s, end);\n"
	"    end = e;\n"
	"  }\n"
	"  var base = zoomed ? num(zoomed, 'data-w') : TOTAL;\n"
	"  if (zoomed) {\n"
	"    var zx = num(zoomed, 'data-x'); sum = 0; end = -1;\n"
	"    for (var k = 0; k < spans.length; k++) {\n"
	"      var s2 = Math.max(spans[k][0], zx), e2 = Math.min(spans[k][0] + spans[k][1], zx + base);\n"
	"      if (e2 <= s2 || e2 <= end) continue;\n"
	"      sum += e2 - Math.max(s2, end); end = e2;\n"
	"    }\n"
	"  }\n"
	"  matched.textContent = 'Matched: ' + (base > 0 ? (100 * sum / base).toFixed(1) : '0.0') + '%';\n"
	"  searchBtn.textContent = 'Reset Search';\n"
	"  saveState();\n"
	"}\n"
	"function askSearch() {\n"
	"  var t = prompt('Search frames (regular expression)' + (ignoreCase ? ', ignoring case' : ''), term === null ? '' : term);\n"
	"  if (t !== null && t !== '') search(t);\n"
	"}\n"
	"frames.addEventListener('click', function (e) {\n"
	"  var g = e.target.closest('g');\n"
	"  if (g) zoom(g);\n"
	"});\n"
	"frames.addEventListener('mouseover', function (e) {\n"
	"  var g = e.target.closest('g');\n"
	"  if (g) details.textContent = titleOf(g).replace('\\n', ' \\u2014 ');\n"
	"});\n"
	"frames.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
	"unzoomBtn.addEventListener('click', unzoom);\n"
	"searchBtn.addEventListener('click', function () { if (term === null) askSearch(); else resetSearch(); });\n"
	"caseBtn.addEventListener('click', function () {\n"
	"  ignoreCase = !ignoreCase;\n"
	"  caseBtn.textContent = ignoreCase ? 'IC' : 'ic';\n"
	"  if (term !== null) search(term); else saveState();\n"
	"});\n"
	"window.addEventListener('keydown', function (e) {\n"
	"  if ((e.ctrlKey || e.metaKey) && (e.key === 'f' || e.key === 'F') || e.key === 'F3') { e.preventDefault(); askSearch(); }\n"
	"  else if ((e.ctrlKey || e.metaKey) && (e.key === 'i' || e.key === 'I')) { e.preventDefault(); caseBtn.dispatchEvent(new Event('click')); }\n"
	"  else if (e.key === 'Escape') { if (term !== null) resetSearch(); else if (zoomed) unzoom(); }\n"
	"});\n"
	"for (var i = 0; i < gs.length; i++) fit(gs[i]);\n"
	"loadState();\n"
	"});\n";

static void put_script(FILE *out, uint64_t total)
{
	/* The script is a constant; only two numbers are substituted. */
	const char *s = script;
	const char *a = strstr(s, "IMAGE_W"), *b = strstr(s, "TOTAL_V");
	fputs("<script type=\"text/ecmascript\"><![CDATA[\n", out);
	fwrite(s, 1, (size_t)(a - s), out);
	fprintf(out, "%d", IMAGE_WIDTH);
	a += strlen("IMAGE_W");
	fwrite(a, 1, (size_t)(b - a), out);
	fprintf(out, "%" PRIu64, total);
	fputs(b + strlen("TOTAL_V"), out);
	fputs("]]></script>\n", out);
}

/* "; device 1.234 ms (10.0% of its 12.345 ms)": the time the block
 * requests under the frame were at the device, as a share of the time
 * its pairs took (their durationNs), whatever the metric. Only frames
 * with device time say it (a recording or trace without block requests:
 * none does). */
static void put_device(FILE *out, const struct ior_flame_node *node)
{
	char dev[64], time[64];

	if (!node->device_ns)
		return;
	ior_flame_format_value(dev, sizeof dev, IOR_METRIC_DEVICE_TIME, node->device_ns);
	ior_flame_format_value(time, sizeof time, IOR_METRIC_DURATION, node->time_ns);
	fprintf(out, "; device %s (%.1f%% of its %s)", dev,
		node->time_ns ? 100.0 * (double)node->device_ns / (double)node->time_ns : 0.0, time);
}

static void put_frame(FILE *out, const struct ior_flame_tree *t, uint32_t n, uint64_t off,
		      double scale, int base_y)
{
	const struct ior_flame_node *node = &t->nodes[n];
	const char *name = ior_flame_node_name(t, n);
	double x = XPAD + (double)off * scale, w = (double)node->value * scale;
	int y = base_y - (int)(node->depth + 1) * FRAME_HEIGHT;
	char v[64];
	ior_flame_format_value(v, sizeof v, t->spec.metric, node->value);
	double pct = t->nodes[0].value ? 100.0 * (double)node->value / (double)t->nodes[0].value : 0;
	fprintf(out, "<g data-x=\"%" PRIu64 "\" data-w=\"%" PRIu64 "\" data-d=\"%u\"><title>", off,
		node->value, node->depth);
	put_xml(out, name, strlen(name));
	fprintf(out, "\n%s, %.2f%%", v, pct);
	put_device(out, node);
	if (t->base)
		put_change(out, t, n);
	fprintf(out, "</title><rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" rx=\"2\" fill=\"",
		x, y, w, FRAME_HEIGHT - 1);
	put_fill(out, t, n);
	fputs("\" data-fill=\"", out);
	put_fill(out, t, n);
	fprintf(out, "\"/><text x=\"%.2f\" y=\"%.1f\">", x + 3, y + 10.5);
	put_label(out, name, w);
	fputs("</text></g>\n", out);
}

struct visit {
	uint32_t node;
	uint64_t off;
};

/* Depth-first, children left to right; frames under min_value are left out
 * together with everything above them. */
static int walk(FILE *out, const struct ior_flame_tree *t, uint64_t min_value, double scale,
		int base_y, uint32_t *max_depth)
{
	struct visit *stack = malloc(((size_t)t->nnodes + 1) * sizeof *stack);
	if (!stack)
		return -ENOMEM;
	size_t sp = 0;
	stack[sp++] = (struct visit){ 0, 0 };
	while (sp) {
		struct visit v = stack[--sp];
		const struct ior_flame_node *node = &t->nodes[v.node];
		if (node->depth > *max_depth)
			*max_depth = node->depth;
		if (out)
			put_frame(out, t, v.node, v.off, scale, base_y);
		uint64_t off = v.off + node->value - node->self;
		/* push right to left so the leftmost child is drawn first */
		for (uint32_t i = node->nchild; i-- > 0;) {
			uint32_t c = t->kids[node->child0 + i];
			off -= t->nodes[c].value;
			if (t->nodes[c].value && t->nodes[c].value >= min_value)
				stack[sp++] = (struct visit){ c, off };
		}
	}
	free(stack);
	return 0;
}

int ior_flame_write_svg(const struct ior_flame_tree *t, FILE *out)
{
	uint64_t total = t->nodes[0].value;
	double scale = total ? (double)(IMAGE_WIDTH - 2 * XPAD) / (double)total : 0;
	uint64_t min_value = scale > 0 ? (uint64_t)(MIN_WIDTH_PX / scale) : 0;
	uint32_t depth = 0;
	/* children are laid out from the parent's left edge: off = v.off + sum
	 * of left siblings; walk computes it from the right end. */
	int rc = walk(NULL, t, min_value, scale, 0, &depth);
	uint32_t *gone = NULL, ngone = 0;
	if (!rc && t->diff)
		rc = gone_frames(t, &gone, &ngone);
	if (rc)
		return rc;
	int legend = legend_lines(t, ngone) * FRAME_HEIGHT;
	int height = (int)(depth + 1) * FRAME_HEIGHT + YPAD_TOP + YPAD_BOTTOM + legend;
	char fields[128];
	ior_flame_fields_str(&t->spec, ',', fields, sizeof fields);

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		     "<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		     "xmlns=\"http://www.w3.org/2000/svg\">\n<style>\n%s</style>\n",
		IMAGE_WIDTH, height, IMAGE_WIDTH, height, style);
	put_script(out, total);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fdfaf3\"/>\n", IMAGE_WIDTH, height);
	fprintf(out, "<text id=\"title\" x=\"%d\" y=\"22\" text-anchor=\"middle\">I/O %sflame graph: %s by %s</text>\n",
		IMAGE_WIDTH / 2, t->diff ? "differential " : "", fields, ior_flame_metric_name(t->spec.metric));
	fprintf(out, "<text id=\"subtitle\" x=\"%d\" y=\"40\" text-anchor=\"middle\">", IMAGE_WIDTH / 2);
	if (t->diff) {
		fputs("BASE ", out);
		put_name(out, t->diff->base_name);
		fputs(" \xe2\x86\x92 NEW ", out);
		put_name(out, t->diff->new_name);
		fputs(": ", out);
	}
	put_subtitle(out, t);
	fputs("</text>\n", out);
	fprintf(out, "<text id=\"unzoom\" class=\"button hide\" x=\"%d\" y=\"22\">Reset Zoom</text>\n", XPAD);
	fprintf(out, "<text id=\"search\" class=\"button\" x=\"%d\" y=\"22\">Search</text>\n", IMAGE_WIDTH - XPAD - 110);
	fprintf(out, "<text id=\"ignorecase\" class=\"button\" x=\"%d\" y=\"22\">ic</text>\n", IMAGE_WIDTH - XPAD - 16);
	fprintf(out, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n", XPAD, height - 12);
	fprintf(out, "<text id=\"matched\" x=\"%d\" y=\"%d\" text-anchor=\"end\"> </text>\n",
		IMAGE_WIDTH - XPAD, height - 12);
	if (t->diff)
		put_legend(out, t, gone, ngone, height - YPAD_BOTTOM - legend + FRAME_HEIGHT + 4);
	free(gone);
	fputs("<g id=\"frames\">\n", out);
	if (total)
		walk(out, t, min_value, scale, height - YPAD_BOTTOM - legend, &depth);
	else if (!t->pairs)
		fprintf(out, "</g>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no data: no syscall pairs (yet)</text>\n<g>\n",
			IMAGE_WIDTH / 2, YPAD_TOP + FRAME_HEIGHT);
	else
		fprintf(out, "</g>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no data: every pair weighs 0 by %s</text>\n<g>\n",
			IMAGE_WIDTH / 2, YPAD_TOP + FRAME_HEIGHT, ior_flame_metric_name(t->spec.metric));
	fputs("</g>\n</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}
