#!/bin/sh
# Rebuilds the committed test objects (unit tests use them without clang).
# They are named .elf because .gitignore ignores *.o.
# usage: tests/unit/bpf/build.sh   (from the repository root, after make build/bpf.o)
set -eu
cd "$(dirname "$0")"
for src in *.c; do
	clang -target bpf -O2 -g -Wall -Werror -I../../../build/vendor/include -c "$src" -o "${src%.c}.elf"
done
