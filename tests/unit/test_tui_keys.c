/* The key decoder: a table of byte strings and the keys they are, decoded
 * whole, split at every offset and byte by byte; a lone Esc; hostile
 * input. */
#include "tui/keys.h"
#include "t.h"

#include <stdlib.h>

/* Decodes in[0..len) in reads of at most chunk bytes, then flushes; the
 * names of the keys, space-separated. */
static const char *decode(const char *in, size_t len, size_t chunk)
{
	static char out[1024];
	struct ior_tui_keys k;
	struct ior_tui_key key;
	size_t n = 0;
	char name[32];

	out[0] = '\0';
	ior_tui_keys_init(&k);
	for (size_t off = 0; off < len;) {
		size_t end = off + chunk < len ? off + chunk : len, calls = 0;
		while (off < end) {
			size_t used = ior_tui_keys_decode(&k, in + off, end - off, &key);
			if (used > end - off || (!used && !key.code) || ++calls > 2 * len + 2)
				return "decoder made no progress";
			off += used;
			if (key.code)
				n += (size_t)snprintf(out + n, sizeof out - n, "%s%s", n ? " " : "",
						      ior_tui_key_name(&key, name, sizeof name));
		}
	}
	if (ior_tui_keys_flush(&k, &key))
		n += (size_t)snprintf(out + n, sizeof out - n, "%s%s", n ? " " : "",
				      ior_tui_key_name(&key, name, sizeof name));
	if (ior_tui_keys_pending(&k))
		return "pending after flush";
	return out;
}

static const struct {
	const char *in;
	const char *keys;
	size_t len; /* 0: strlen(in) */
} cases[] = {
	{ "q", "q", 0 },
	{ "aZ~ ", "a Z ~ Space", 0 },
	{ "\xc3\xa9\xe6\x97\xa5", "\xc3\xa9 \xe6\x97\xa5", 0 },
	{ "\r\n\t\x7f\x08", "Enter Enter Tab Backspace Backspace", 0 },
	{ "\x03\x01\x1a\x1c\x1f", "Ctrl-C Ctrl-A Ctrl-Z Ctrl-\\ Ctrl-_", 0 },
	{ "\0", "Ctrl-Space", 1 },
	{ "\x1b", "Esc", 0 },
	{ "\x1b\x1b", "Esc Esc", 0 },
	{ "\x1b[A\x1b[B\x1b[C\x1b[D", "Up Down Right Left", 0 },
	{ "\x1bOA\x1bOB\x1bOC\x1bOD", "Up Down Right Left", 0 },
	{ "\x1b[H\x1b[F\x1bOH\x1bOF", "Home End Home End", 0 },
	{ "\x1b[1~\x1b[4~\x1b[7~\x1b[8~", "Home End Home End", 0 },
	{ "\x1b[5~\x1b[6~\x1b[2~\x1b[3~", "PgUp PgDn Insert Delete", 0 },
	{ "\x1bOP\x1bOQ\x1bOR\x1bOS", "F1 F2 F3 F4", 0 },
	{ "\x1b[11~\x1b[12~\x1b[13~\x1b[14~\x1b[15~", "F1 F2 F3 F4 F5", 0 },
	{ "\x1b[17~\x1b[18~\x1b[19~\x1b[20~\x1b[21~\x1b[23~\x1b[24~", "F6 F7 F8 F9 F10 F11 F12", 0 },
	{ "\x1b[[A\x1b[[E", "F1 F5", 0 },
	{ "\x1b[Z", "BackTab", 0 },
	{ "\x1b[1;5A\x1b[1;2B\x1b[1;3C\x1b[1;8D", "Ctrl-Up Shift-Down Alt-Right Ctrl-Alt-Shift-Left", 0 },
	{ "\x1b[5;5~\x1b[3;2~\x1b[1;5P\x1b[15;2~", "Ctrl-PgUp Shift-Delete Ctrl-F1 Shift-F5", 0 },
	{ "\x1bOM", "Enter", 0 },
	{ "\x1bx\x1b\xc3\xa9\x1b\r\x1b\x7f", "Alt-x Alt-\xc3\xa9 Alt-Enter Alt-Backspace", 0 },
	{ "\x1b\x1b[A", "Esc Up", 0 },
	/* hostile or unknown: consumed, no key */
	{ "\x1b[12;40R", "", 0 },                    /* a cursor position report */
	{ "\x1b[?1;2c\x1b[>0;95;0c", "", 0 },        /* device attributes */
	{ "\x1b[2A\x1b[99~\x1b[200~x", "x", 0 },     /* numbers that name no key */
	{ "\x1b[1;5;7A.", ".", 0 },
	{ "\x1b[<0;10;5M", "", 0 },                  /* an SGR mouse report */
	{ "\xff\xfe\x80\xbf" "a", "a", 0 },          /* no UTF-8 at all */
	{ "\xc3" "a", "a", 0 },                      /* a cut character */
	{ "\xe6\x97" "\x1b[A", "Up", 0 },
	{ "\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80!", "!", 0 }, /* overlong, surrogate, > U+10FFFF */
	{ "\xcc\x81\xe2\x80\xae\xef\xbb\xbf" "b", "b", 0 },  /* combining, RLO, BOM: not keys */
	{ "\x1b[1\x03", "Ctrl-C", 0 },               /* a control byte ends a sequence */
	{ "\x1b[1\x1b[B", "Down", 0 },
	{ "\x1bO\x1bOA", "Up", 0 },
	{ "\x1b[", "", 0 },                          /* cut short, flushed */
	{ "\x1b[1;", "", 0 },
	{ "\xe6\x97", "", 0 },
};

TEST(table_whole_and_split)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t len = cases[i].len ? cases[i].len : strlen(cases[i].in);
		const char *got = decode(cases[i].in, len, len ? len : 1);
		if (strcmp(got, cases[i].keys))
			T_FAIL("case %zu whole: \"%s\", want \"%s\"", i, got, cases[i].keys);
		for (size_t chunk = 1; chunk < len; chunk++) {
			got = decode(cases[i].in, len, chunk);
			if (strcmp(got, cases[i].keys))
				T_FAIL("case %zu in reads of %zu: \"%s\", want \"%s\"", i, chunk, got, cases[i].keys);
		}
	}
}

TEST(overlong_sequence_is_bounded)
{
	char in[5000];
	size_t n = 0;

	n += (size_t)snprintf(in, sizeof in, "\x1b[");
	while (n < 4000)
		in[n] = n % 2 ? ';' : '9', n++;
	memcpy(in + n, "Az\x1b[", 4); /* and a sequence cut short at the end */
	CHECK_EQ_STR(decode(in, n + 4, n + 4), "z");
	CHECK_EQ_STR(decode(in, n + 4, 7), "z");
	memset(in + 2, '9', 4000); /* one huge number */
	memcpy(in + 2 + 4000, "~y", 2);
	CHECK_EQ_STR(decode(in, 2 + 4000 + 2, 3), "y");
}

TEST(lone_esc_waits_for_flush)
{
	struct ior_tui_keys k;
	struct ior_tui_key key;

	ior_tui_keys_init(&k);
	CHECK_EQ_INT(ior_tui_keys_decode(&k, "\x1b", 1, &key), 1);
	CHECK_EQ_INT(key.code, IOR_TUI_KEY_NONE);
	CHECK(ior_tui_keys_pending(&k));
	/* more comes in time: a sequence */
	CHECK_EQ_INT(ior_tui_keys_decode(&k, "[B", 2, &key), 2);
	CHECK_EQ_INT(key.code, IOR_TUI_KEY_DOWN);
	CHECK(!ior_tui_keys_pending(&k));
	/* nothing comes: flush says Esc, once */
	ior_tui_keys_decode(&k, "\x1b", 1, &key);
	CHECK_EQ_INT(ior_tui_keys_flush(&k, &key), 1);
	CHECK_EQ_INT(key.code, IOR_TUI_KEY_ESC);
	CHECK_EQ_INT(ior_tui_keys_flush(&k, &key), 0);
	CHECK_EQ_INT(key.code, IOR_TUI_KEY_NONE);
	/* the Esc of "Esc then x" arrives with x when the caller flushed in between */
	ior_tui_keys_decode(&k, "\x1b", 1, &key);
	ior_tui_keys_flush(&k, &key);
	CHECK_EQ_INT(ior_tui_keys_decode(&k, "x", 1, &key), 1);
	CHECK(key.code == 'x' && key.mods == 0 && !strcmp(key.text, "x"));
}

TEST(text_only_for_typing_keys)
{
	struct ior_tui_keys k;
	struct ior_tui_key key;

	ior_tui_keys_init(&k);
	ior_tui_keys_decode(&k, "\xc3\xa9", 2, &key);
	CHECK(key.code == 0xe9 && !strcmp(key.text, "\xc3\xa9"));
	ior_tui_keys_decode(&k, "\x1bq", 2, &key);
	CHECK(key.code == 'q' && key.mods == IOR_TUI_MOD_ALT && !key.text[0]);
	ior_tui_keys_decode(&k, "\x05", 1, &key);
	CHECK(key.code == 'e' && key.mods == IOR_TUI_MOD_CTRL && !key.text[0]);
	ior_tui_keys_decode(&k, "\r", 1, &key);
	CHECK(key.code == IOR_TUI_KEY_ENTER && !key.text[0]);
}

TEST(key_names)
{
	char buf[32];
	struct ior_tui_key k = { IOR_TUI_KEY_F1 + 11, IOR_TUI_MOD_SHIFT, "" };
	CHECK_EQ_STR(ior_tui_key_name(&k, buf, sizeof buf), "Shift-F12");
	k = (struct ior_tui_key){ 0, 0, "" };
	CHECK_EQ_STR(ior_tui_key_name(&k, buf, sizeof buf), "none");
	k = (struct ior_tui_key){ IOR_TUI_KEY_DELETE, IOR_TUI_MOD_CTRL | IOR_TUI_MOD_ALT, "" };
	CHECK_EQ_STR(ior_tui_key_name(&k, buf, 6), "Ctrl-");
}

int main(void)
{
	RUN(table_whole_and_split);
	RUN(overlong_sequence_is_bounded);
	RUN(lone_esc_waits_for_flush);
	RUN(text_only_for_typing_keys);
	RUN(key_names);
	return t_done();
}
