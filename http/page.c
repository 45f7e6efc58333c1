/* The auto-reload page for -iorWatchInterval. The SVG is shown in an
 * <object> so its own script (zoom, search) keeps working; every interval
 * a fresh copy is loaded off-screen and swapped in once it has loaded, so
 * the page never flashes blank. The SVG's path comes from a file name, so
 * it is percent-encoded for the URL and HTML-escaped for the attribute, and
 * the script reads it from that attribute: nothing is interpolated into
 * JavaScript source. */
#include "http/http.h"
#include "http/parse.h"
#include "text/xml.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	char *p;
	size_t len, cap;
	bool oom;
};

static void put_n(struct buf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *np = realloc(b->p, cap);
		if (!np) {
			b->oom = true;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void put(struct buf *b, const char *s)
{
	put_n(b, s, strlen(s));
}

/* Escapes for HTML text and double- or single-quoted attributes. Control
 * characters other than tab and newline are dropped. */
static void put_html(struct buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		const char *entity = ior_xml_entity((char)*p);
		if (entity)
			put(b, entity);
		else if (*p >= 0x20 && *p != 0x7f)
			put_n(b, (const char *)p, 1);
	}
}

static const char page_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	"<title>";

static const char page_style[] =
	"</title>\n<style>\n"
	"html,body{margin:0;height:100%;background:#fff;font:12px sans-serif}\n"
	"#bar{position:fixed;right:6px;bottom:4px;color:#777}\n"
	"object{display:block;width:100%;height:100%;border:0}\n"
	"object.loading{position:absolute;visibility:hidden}\n"
	"</style>\n</head>\n<body>\n";

/* Reloads by loading a cache-busted copy hidden and swapping it in. A
 * failed load (server gone, file being rewritten) keeps the old copy. */
static const char page_script[] =
	"<script>\n"
	"(function () {\n"
	"  var cur = document.getElementById('svg');\n"
	"  var src = cur.getAttribute('data-src');\n"
	"  var every = parseInt(cur.getAttribute('data-interval'), 10) * 1000;\n"
	"  var bar = document.getElementById('bar');\n"
	"  function reload() {\n"
	"    var next = document.createElement('object');\n"
	"    next.type = 'image/svg+xml';\n"
	"    next.className = 'loading';\n"
	"    next.onload = function () {\n"
	"      next.className = '';\n"
	"      next.id = 'svg';\n"
	"      cur.parentNode.removeChild(cur);\n"
	"      cur = next;\n"
	"      bar.textContent = 'reloaded ' + new Date().toLocaleTimeString();\n"
	"      setTimeout(reload, every);\n"
	"    };\n"
	"    next.onerror = function () {\n"
	"      next.parentNode.removeChild(next);\n"
	"      bar.textContent = 'reload failed ' + new Date().toLocaleTimeString();\n"
	"      setTimeout(reload, every);\n"
	"    };\n"
	"    next.data = src + '?t=' + Date.now();\n"
	"    document.body.insertBefore(next, cur);\n"
	"  }\n"
	"  setTimeout(reload, every);\n"
	"})();\n"
	"</script>\n</body>\n</html>\n";

char *ior_http_reload_page(const char *svg_path, const char *title, unsigned interval_s,
			   size_t *len)
{
	struct buf b = { 0 };
	char num[16];
	if (!svg_path || !ior_http_path_ok(svg_path) || interval_s < 1 || interval_s > 86400) {
		errno = EINVAL;
		return NULL;
	}
	size_t cap = 3 * strlen(svg_path) + 1; /* every byte as %XX at worst */
	char *url = malloc(cap);
	if (!url) {
		errno = ENOMEM;
		return NULL;
	}
	ior_http_path_encode(svg_path, url, cap);
	snprintf(num, sizeof num, "%u", interval_s);
	put(&b, page_head);
	put_html(&b, title ? title : svg_path);
	put(&b, page_style);
	put(&b, "<object id=\"svg\" type=\"image/svg+xml\" data=\"");
	put_html(&b, url);
	put(&b, "\" data-src=\"");
	put_html(&b, url);
	free(url);
	put(&b, "\" data-interval=\"");
	put(&b, num);
	put(&b, "\"></object>\n<div id=\"bar\">reloads every ");
	put(&b, num);
	put(&b, " s</div>\n");
	put(&b, page_script);
	if (b.oom) {
		free(b.p);
		errno = ENOMEM;
		return NULL;
	}
	if (len)
		*len = b.len;
	return b.p;
}
