#!/bin/bash
# HACKING.md's recipes name the files a change takes: every backquoted
# repo path in it (dir/file.ext, as `pair/pair.c`; in a command too, as
# `tests/unit/nr_list.sh aarch64-linux-gnu`) must exist, so a file that is
# renamed or removed fails here until the recipe says where its idea went.
# Skipped: placeholders in capitals (`syscalls/table_ARCH.c`,
# `tests/unit/golden/flame_NAME-by-count.folded`), what the build makes
# (`build/...`, `dist/...`) and absolute paths (`/proc/...`).
# usage: tests/hacking.sh [FILE]   (default HACKING.md; another to see it fail)
cd "$(dirname "$0")/.." || exit 1
doc=${1:-HACKING.md}
[ -f "$doc" ] || { echo "FAIL: hacking: $doc: no such file"; exit 1; }
missing="" n=0
while IFS= read -r p; do
	case $p in build/* | dist/*) continue ;; esac
	[[ $p =~ [A-Z]{2,} && ! -e $p ]] && continue # a placeholder (ARCH, NAME)
	n=$((n + 1))
	[ -e "$p" ] || missing="$missing $p"
done < <(grep -o '`[^`]*`' "$doc" | tr -d '`' | tr -s ' \t()<>,;:"' '\n' |
	grep -E '^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*/[A-Za-z0-9_-][A-Za-z0-9_.-]*\.[A-Za-z0-9]+$' | sort -u)
if [ "$n" = 0 ]; then
	echo "FAIL: hacking: $doc names no repo path in backquotes"
	exit 1
elif [ -n "$missing" ]; then
	echo "FAIL: hacking: $doc names files that do not exist:$missing"
	exit 1
fi
echo "PASS: hacking: the $n repo paths $doc names exist"
