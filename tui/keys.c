/* The key decoder: a byte-at-a-time state machine. A byte that ends a
 * sequence unexpectedly (a control byte inside a CSI, a non-continuation
 * byte inside a UTF-8 character) drops what came before and is decoded
 * afresh, as terminals do. */
#include "keys.h"
#include "utf8.h"

#include <stdio.h>
#include <string.h>

enum { GROUND, ESC, CSI, CSI_SKIP, SS3, LINUX_F, UTF8 };

#define NUM_MAX 9999 /* larger CSI parameters are clamped */

void ior_tui_keys_init(struct ior_tui_keys *k)
{
	memset(k, 0, sizeof *k);
}

int ior_tui_keys_pending(const struct ior_tui_keys *k)
{
	return k->state != GROUND;
}

static void reset(struct ior_tui_keys *k)
{
	k->state = GROUND;
	k->len = 0;
	k->alt = 0;
}

static void emit(struct ior_tui_key *key, int code, unsigned mods)
{
	key->code = code;
	key->mods = mods;
}

/* A C0 control or DEL byte as a key. */
static void control_key(unsigned char b, unsigned mods, struct ior_tui_key *key)
{
	if (b == '\r' || b == '\n')
		emit(key, IOR_TUI_KEY_ENTER, mods);
	else if (b == '\t')
		emit(key, IOR_TUI_KEY_TAB, mods);
	else if (b == 0x7f || b == 0x08)
		emit(key, IOR_TUI_KEY_BACKSPACE, mods);
	else if (b == 0)
		emit(key, ' ', mods | IOR_TUI_MOD_CTRL);
	else if (b <= 0x1a)
		emit(key, 'a' + b - 1, mods | IOR_TUI_MOD_CTRL);
	else /* 0x1c..0x1f: Ctrl-\ Ctrl-] Ctrl-^ Ctrl-_ */
		emit(key, b + 0x40, mods | IOR_TUI_MOD_CTRL);
}

/* A character; it types text unless Alt is held. Characters that cannot be
 * drawn (combining marks, format characters) are not keys. */
static void char_key(const unsigned char *s, int len, uint32_t cp, unsigned mods,
		     struct ior_tui_key *key)
{
	if (ior_tui_cp_width(cp) < 0)
		return;
	emit(key, (int)cp, mods);
	if (!mods)
		memcpy(key->text, s, (size_t)len);
}

static int ground(struct ior_tui_keys *k, unsigned char b, struct ior_tui_key *key)
{
	unsigned mods = k->alt ? IOR_TUI_MOD_ALT : 0;

	if (b == 0x1b) {
		k->state = ESC;
		return 1;
	}
	if (b >= 0x80 && ior_tui_utf8_lead_len(b)) {
		k->state = UTF8;
		k->seq[0] = b;
		k->len = 1;
		return 1;
	}
	reset(k);
	if (b < 0x20 || b == 0x7f)
		control_key(b, mods, key);
	else if (b < 0x80)
		char_key(&b, 1, b, mods, key);
	return 1;
}

static int utf8(struct ior_tui_keys *k, unsigned char b, struct ior_tui_key *key)
{
	uint32_t cp;
	int need = ior_tui_utf8_lead_len(k->seq[0]);

	if ((b & 0xc0) != 0x80) {
		reset(k);
		return 0;
	}
	k->seq[k->len++] = b;
	if ((int)k->len < need)
		return 1;
	if (ior_utf8_seq(k->seq, k->len, &cp))
		char_key(k->seq, need, cp, k->alt ? IOR_TUI_MOD_ALT : 0, key);
	reset(k);
	return 1;
}

static int esc(struct ior_tui_keys *k, unsigned char b, struct ior_tui_key *key)
{
	if (b == '[' || b == 'O') {
		k->state = b == '[' ? CSI : SS3;
		k->len = 0;
		return 1;
	}
	if (b == 0x1b) { /* the first was the Esc key */
		reset(k);
		emit(key, IOR_TUI_KEY_ESC, 0);
		return 0;
	}
	k->state = GROUND; /* Alt-b */
	k->alt = 1;
	return 0;
}

/* xterm's modifier parameter: 1 + (shift 1, alt 2, ctrl 4). */
static unsigned mods_of(int m)
{
	return m >= 2 && m <= 16 ? (unsigned)(m - 1) & 7 : 0;
}

/* The numbers of params "p1;p2" (missing ones are -1); 0 when params hold
 * anything else (private markers, intermediates, a third number). */
static int parse_params(const unsigned char *p, size_t n, int num[2])
{
	int i = 0;

	num[0] = num[1] = -1;
	for (size_t j = 0; j < n; j++) {
		if (p[j] == ';') {
			if (++i > 1)
				return 0;
		} else if (p[j] >= '0' && p[j] <= '9') {
			int v = num[i] < 0 ? 0 : num[i];
			num[i] = v * 10 + (p[j] - '0') > NUM_MAX ? NUM_MAX : v * 10 + (p[j] - '0');
		} else {
			return 0;
		}
	}
	return 1;
}

/* The key of "CSI num ~". */
static int tilde_key(int n)
{
	static const int keys[] = {
		[1] = IOR_TUI_KEY_HOME,      [2] = IOR_TUI_KEY_INSERT,      [3] = IOR_TUI_KEY_DELETE,
		[4] = IOR_TUI_KEY_END,       [5] = IOR_TUI_KEY_PGUP,        [6] = IOR_TUI_KEY_PGDN,
		[7] = IOR_TUI_KEY_HOME,      [8] = IOR_TUI_KEY_END,         [11] = IOR_TUI_KEY_F1,
		[12] = IOR_TUI_KEY_F1 + 1,   [13] = IOR_TUI_KEY_F1 + 2,     [14] = IOR_TUI_KEY_F1 + 3,
		[15] = IOR_TUI_KEY_F1 + 4,   [17] = IOR_TUI_KEY_F1 + 5,     [18] = IOR_TUI_KEY_F1 + 6,
		[19] = IOR_TUI_KEY_F1 + 7,   [20] = IOR_TUI_KEY_F1 + 8,     [21] = IOR_TUI_KEY_F1 + 9,
		[23] = IOR_TUI_KEY_F1 + 10,  [24] = IOR_TUI_KEY_F1 + 11,
	};
	return n >= 0 && n < (int)(sizeof keys / sizeof keys[0]) ? keys[n] : IOR_TUI_KEY_NONE;
}

/* The key of a final byte that names it alone (CSI or SS3). */
static int letter_key(unsigned char f)
{
	switch (f) {
	case 'A': return IOR_TUI_KEY_UP;
	case 'B': return IOR_TUI_KEY_DOWN;
	case 'C': return IOR_TUI_KEY_RIGHT;
	case 'D': return IOR_TUI_KEY_LEFT;
	case 'H': return IOR_TUI_KEY_HOME;
	case 'F': return IOR_TUI_KEY_END;
	case 'Z': return IOR_TUI_KEY_BACKTAB;
	case 'P': case 'Q': case 'R': case 'S': return IOR_TUI_KEY_F1 + (f - 'P');
	default: return IOR_TUI_KEY_NONE;
	}
}

/* A complete CSI or SS3 sequence: params in k->seq, final byte f. A
 * letter key takes no first number but 1 (so a cursor position report,
 * "CSI 12;40R", is not F3); SS3 M is the keypad's Enter. */
static void finish(struct ior_tui_keys *k, unsigned char f, struct ior_tui_key *key)
{
	int num[2], code;
	unsigned mods;

	if (!parse_params(k->seq, k->len, num))
		return;
	if (f == '~') {
		code = tilde_key(num[0]);
		mods = mods_of(num[1]);
	} else {
		code = k->state == SS3 && f == 'M' ? IOR_TUI_KEY_ENTER : letter_key(f);
		if (num[0] > 1 && num[1] < 0 && k->state == SS3) /* SS3 5 P */
			mods = mods_of(num[0]);
		else if (num[0] < 0 || num[0] == 1)
			mods = mods_of(num[1]);
		else
			code = IOR_TUI_KEY_NONE;
	}
	if (code == IOR_TUI_KEY_BACKTAB)
		mods &= ~(unsigned)IOR_TUI_MOD_SHIFT;
	if (code)
		emit(key, code, mods | (k->alt ? IOR_TUI_MOD_ALT : 0));
}

static int csi(struct ior_tui_keys *k, unsigned char b, struct ior_tui_key *key)
{
	if (b < 0x20 || b > 0x7e) { /* not part of a sequence: it ends one */
		reset(k);
		return 0;
	}
	if (k->state == CSI && k->len == 0 && b == '[') {
		k->state = LINUX_F;
		return 1;
	}
	if (b >= 0x40) {
		if (k->state != CSI_SKIP)
			finish(k, b, key);
		reset(k);
		return 1;
	}
	if (k->len == sizeof k->seq)
		k->state = CSI_SKIP;
	else
		k->seq[k->len++] = b;
	return 1;
}

/* The Linux console's F1..F5: ESC [ [ A..E. */
static int linux_f(struct ior_tui_keys *k, unsigned char b, struct ior_tui_key *key)
{
	if (b < 0x20 || b > 0x7e) {
		reset(k);
		return 0;
	}
	if (b >= 'A' && b <= 'E')
		emit(key, IOR_TUI_KEY_F1 + (b - 'A'), k->alt ? IOR_TUI_MOD_ALT : 0);
	if (b >= 0x40)
		reset(k);
	return 1;
}

/* Feeds b; returns 1 when consumed, 0 when b must be fed again (the state
 * has moved on, and a key may have been completed). */
static int step(struct ior_tui_keys *k, unsigned char b, struct ior_tui_key *key)
{
	switch (k->state) {
	case ESC: return esc(k, b, key);
	case CSI: case CSI_SKIP: case SS3: return csi(k, b, key);
	case LINUX_F: return linux_f(k, b, key);
	case UTF8: return utf8(k, b, key);
	default: return ground(k, b, key);
	}
}

size_t ior_tui_keys_decode(struct ior_tui_keys *k, const void *data, size_t len,
			   struct ior_tui_key *key)
{
	const unsigned char *d = data;
	size_t i = 0;

	memset(key, 0, sizeof *key);
	while (i < len && !key->code)
		i += (size_t)step(k, d[i], key);
	return i;
}

int ior_tui_keys_flush(struct ior_tui_keys *k, struct ior_tui_key *key)
{
	int lone_esc = k->state == ESC;

	memset(key, 0, sizeof *key);
	reset(k);
	if (lone_esc)
		emit(key, IOR_TUI_KEY_ESC, 0);
	return lone_esc;
}

static const char *special_name(int code)
{
	static const char *const names[] = {
		"Enter", "Tab", "BackTab", "Backspace", "Esc", "Up", "Down", "Left", "Right",
		"Home", "End", "PgUp", "PgDn", "Insert", "Delete",
	};
	size_t i = (size_t)(code - IOR_TUI_KEY_ENTER);
	return i < sizeof names / sizeof names[0] ? names[i] : NULL;
}

const char *ior_tui_key_name(const struct ior_tui_key *key, char *buf, size_t len)
{
	char ch[5] = "";
	const char *name = key->code == ' ' ? "Space" : special_name(key->code);
	int code = key->code;

	if ((key->mods & IOR_TUI_MOD_CTRL) && code >= 'a' && code <= 'z')
		code += 'A' - 'a';
	if (!name && code >= IOR_TUI_KEY_F1 && code <= IOR_TUI_KEY_F12)
		snprintf(ch, sizeof ch, "F%d", code - IOR_TUI_KEY_F1 + 1);
	else if (!name && code > 0 && code < 0x110000)
		ch[ior_tui_utf8_encode((uint32_t)code, ch)] = '\0';
	snprintf(buf, len, "%s%s%s%s%s", key->mods & IOR_TUI_MOD_CTRL ? "Ctrl-" : "",
		 key->mods & IOR_TUI_MOD_ALT ? "Alt-" : "", key->mods & IOR_TUI_MOD_SHIFT ? "Shift-" : "",
		 name ? name : ch, !name && !ch[0] ? "none" : "");
	return buf;
}
