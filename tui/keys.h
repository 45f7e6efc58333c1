/* Terminal input bytes to keys.
 *
 * Understands what xterm, VTE, tmux, screen, rxvt and the Linux console
 * send: UTF-8 characters, C0 controls (Enter, Tab, Backspace, Ctrl-letter),
 * CSI and SS3 sequences for the cursor and editing keys and F1..F12 (with
 * xterm's modifier parameter), Alt as an ESC prefix. A sequence may be
 * split across reads: the decoder keeps what it has seen (a bounded state,
 * never more than IOR_TUI_KEYS_MAX bytes). An ESC with nothing after it is
 * either the Esc key or the start of a sequence still in flight; the caller
 * decides how long to wait (25-50 ms is usual) and then calls
 * ior_tui_keys_flush. Input is treated as hostile: invalid UTF-8, unknown
 * or overlong sequences and stray bytes are consumed and yield no key.
 * Pure: no I/O; one decoder per input stream. */
#ifndef IOR_TUI_KEYS_H
#define IOR_TUI_KEYS_H

#include <stddef.h>

#define IOR_TUI_KEYS_MAX 32 /* bytes of a sequence kept between reads */

/* The keys that type no character, numbered past Unicode's last code
 * point, so a code below 0x110000 is always the character typed. */
enum ior_tui_keycode {
	IOR_TUI_KEY_NONE = 0,
	IOR_TUI_KEY_ENTER = 0x110000,
	IOR_TUI_KEY_TAB,
	IOR_TUI_KEY_BACKTAB, /* Shift-Tab */
	IOR_TUI_KEY_BACKSPACE,
	IOR_TUI_KEY_ESC,
	IOR_TUI_KEY_UP,
	IOR_TUI_KEY_DOWN,
	IOR_TUI_KEY_LEFT,
	IOR_TUI_KEY_RIGHT,
	IOR_TUI_KEY_HOME,
	IOR_TUI_KEY_END,
	IOR_TUI_KEY_PGUP,
	IOR_TUI_KEY_PGDN,
	IOR_TUI_KEY_INSERT,
	IOR_TUI_KEY_DELETE,
	IOR_TUI_KEY_F1,
	/* F2..F12 follow F1 */
	IOR_TUI_KEY_F12 = IOR_TUI_KEY_F1 + 11,
};

#define IOR_TUI_MOD_SHIFT 1
#define IOR_TUI_MOD_ALT 2
#define IOR_TUI_MOD_CTRL 4

struct ior_tui_key {
	/* A character (a printable Unicode code point; for Ctrl-letter the
	 * lower-case letter with IOR_TUI_MOD_CTRL), an enum ior_tui_keycode,
	 * or IOR_TUI_KEY_NONE. */
	int code;
	unsigned mods;  /* IOR_TUI_MOD_* */
	char text[5];   /* what the key types (UTF-8, NUL-terminated): set only
			 * for a printable character without Ctrl or Alt */
};

struct ior_tui_keys {
	unsigned char seq[IOR_TUI_KEYS_MAX]; /* the sequence in progress */
	size_t len;
	int state;
	unsigned alt; /* an ESC prefix applies to the key in progress */
};

void ior_tui_keys_init(struct ior_tui_keys *k);

/* Decodes from data[0..len) until one key is complete or the bytes run
 * out; returns the bytes consumed and sets *key (code IOR_TUI_KEY_NONE
 * when no key was completed). Call it again on the rest: it never returns
 * 0 without a key, so the loop
 *     for (size_t off = 0; off < n;) {
 *             off += ior_tui_keys_decode(&k, buf + off, n - off, &key);
 *             if (key.code) handle(&key);
 *     }
 * ends. */
size_t ior_tui_keys_decode(struct ior_tui_keys *k, const void *data, size_t len,
			   struct ior_tui_key *key);

/* 1 when bytes of an incomplete sequence are waiting (a lone ESC among
 * them): wait a little for more, then flush. */
int ior_tui_keys_pending(const struct ior_tui_keys *k);

/* Ends what is pending: a lone ESC is the Esc key (returns 1 with *key set),
 * anything else incomplete is dropped (returns 0, key NONE). */
int ior_tui_keys_flush(struct ior_tui_keys *k, struct ior_tui_key *key);

/* A name for key, such as "Ctrl-C", "Alt-x", "Shift-Up", "F5", "é", into
 * buf (NUL-terminated); for help screens and tests. Returns buf. */
const char *ior_tui_key_name(const struct ior_tui_key *key, char *buf, size_t len);

#endif
