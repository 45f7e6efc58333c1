/* The e key: the table shown, as CSV. */
#include "dash_int.h"
#include "text/escape.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD_MAX (4 * 4096 * 2 + 16) /* a 4 KiB path escaped (x4), quotes doubled */

const char *ior_dash_table_name(const struct ior_dash *d)
{
	switch (d->tab) {
	case IOR_DASH_SYSCALLS: return "syscalls";
	case IOR_DASH_FILES: return "files";
	case IOR_DASH_PROCESSES: return d->threads ? "threads" : "processes";
	case IOR_DASH_IN_FLIGHT: return d->in_flight ? "in-flight" : NULL;
	case IOR_DASH_STREAM: return "stream";
	case IOR_DASH_DEVICES: return "devices";
	default: return NULL;
	}
}

/* text escaped as in the CSV (in pieces that end on a character), then
 * quoted when it holds a comma, a quote or a line end. */
static void csv_field(FILE *out, const char *text, char *field)
{
	size_t n = text ? strlen(text) : 0, len = 0;
	char piece[1100];

	for (size_t off = 0; off < n && len < FIELD_MAX / 2;) {
		size_t take = n - off < 200 ? n - off : 200;
		while (take > 1 && off + take < n && ((unsigned char)text[off + take] & 0xc0) == 0x80)
			take--;
		size_t m = ior_escape_str(piece, sizeof piece, text + off, take, IOR_ESCAPE_AUTO);
		memcpy(field + len, piece, m);
		len += m;
		off += take;
	}
	field[len] = 0;
	if (!strpbrk(field, ",\"\r\n")) {
		fputs(field, out);
		return;
	}
	fputc('"', out);
	for (const char *p = field; *p; p++)
		fputs(*p == '"' ? "\"\"" : (char[2]){ *p, 0 }, out);
	fputc('"', out);
}

static void csv_rows(const struct ior_tui_table *t, FILE *out, char *field)
{
	char buf[IOR_TUI_CELL_MAX];

	for (int c = 0; c < t->ncols; c++) {
		fputs(c ? "," : "", out);
		csv_field(out, t->cols[c].title, field);
	}
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			fputs(c ? "," : "", out);
			csv_field(out, t->cell(t->ctx, r, c, buf, sizeof buf), field);
		}
		fputc('\n', out);
	}
}

int ior_dash_export(struct ior_dash *d, FILE *out)
{
	struct ior_tui_table *t = d->tab == IOR_DASH_IN_FLIGHT ? &d->flight_table :
				  d->tab == IOR_DASH_STREAM ? &d->stream_table :
				  d->tab == IOR_DASH_DEVICES ? &d->dev_table : &d->views[d->tab].table;

	char *field;
	int r = 0;

	if (!ior_dash_table_name(d))
		return -ENOTSUP;
	if (!(field = malloc(FIELD_MAX)))
		return -ENOMEM;
	if (t == &d->views[d->tab].table && (r = ior_dash_select_rows(d, &d->views[d->tab])) == 0)
		t->nrows = d->nrows;
	if (d->tab == IOR_DASH_STREAM) {
		ior_dash_stream_titles(d, 0);
		ior_dash_stream_filter(d);
		t->nrows = d->nshown;
	}
	d->raw = 1;
	if (d->tab == IOR_DASH_DEVICES)
		ior_dash_devices_select(d); /* raw: the names unchanged, times in ns */
	if (!r)
		csv_rows(t, out, field);
	d->raw = 0;
	free(field);
	if (r < 0)
		return r;
	return fflush(out) || ferror(out) ? -EIO : (int)t->nrows;
}
