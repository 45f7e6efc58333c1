/* Fuzzes the key decoder. The first byte picks a read size; the rest is
 * terminal input. It is decoded whole and in reads of that size, and both
 * must give the same keys; the decoder must always make progress, keep
 * nothing pending after a flush, and give only well-formed keys: a
 * drawable character (with its UTF-8 as text exactly when no modifier is
 * held) or one of the named keys. */
#include "tui/keys.h"
#include "tui/utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 4096

struct run {
	size_t n;
	struct ior_tui_key keys[MAX_KEYS];
};

static void check(const struct ior_tui_key *k)
{
	char enc[4];

	if (k->mods & ~7u)
		abort();
	if (k->code >= IOR_TUI_KEY_ENTER) {
		if (k->code > IOR_TUI_KEY_F12 || k->text[0])
			abort();
		return;
	}
	if (k->code < 0x20 || ior_tui_cp_width((uint32_t)k->code) < 0)
		abort();
	if (k->mods) {
		if (k->text[0])
			abort();
		return;
	}
	int len = ior_tui_utf8_encode((uint32_t)k->code, enc);
	if (strlen(k->text) != (size_t)len || memcmp(k->text, enc, (size_t)len))
		abort();
}

static void record(struct run *run, const struct ior_tui_key *k)
{
	check(k);
	if (run->n < MAX_KEYS)
		run->keys[run->n++] = *k;
}

static void decode(const uint8_t *data, size_t size, size_t chunk, struct run *run)
{
	static struct ior_tui_keys k;
	struct ior_tui_key key;

	run->n = 0;
	ior_tui_keys_init(&k);
	for (size_t off = 0; off < size;) {
		size_t end = size - off < chunk ? size : off + chunk;
		while (off < end) {
			size_t used = ior_tui_keys_decode(&k, data + off, end - off, &key);
			if (used > end - off || (!used && !key.code))
				abort();
			off += used;
			if (key.code)
				record(run, &key);
		}
	}
	if (ior_tui_keys_flush(&k, &key))
		record(run, &key);
	if (ior_tui_keys_pending(&k))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run whole, split;

	if (size < 1)
		return 0;
	decode(data + 1, size - 1, size, &whole);
	decode(data + 1, size - 1, (size_t)data[0] % 7 + 1, &split);
	if (whole.n != split.n)
		abort();
	for (size_t i = 0; i < whole.n; i++) {
		const struct ior_tui_key *a = &whole.keys[i], *b = &split.keys[i];
		if (a->code != b->code || a->mods != b->mods || strcmp(a->text, b->text))
			abort();
	}
	return 0;
}
