#!/bin/sh
# Prints "name nr" for every __NR_ macro of an arch's kernel headers
# (linux-libc-dev:ARCH), the numbers resolved by the preprocessor.
# usage: tests/unit/nr_list.sh TRIPLET   (x86_64-linux-gnu, aarch64-linux-gnu)
set -eu
inc=/usr/include/$1
[ -f "$inc/asm/unistd.h" ] || {
	echo "nr_list.sh: $inc/asm/unistd.h not found: install linux-libc-dev for that arch (scripts/deps.sh test)" >&2
	exit 1
}
cpp_arch() { cpp -nostdinc -I"$inc" -I/usr/include -P "$@"; }
names=$(echo '#include <asm/unistd.h>' | cpp_arch -dM - | sed -n 's/^#define __NR_\([a-z0-9_]*\) .*/\1/p' | sort -u)
{
	echo '#include <asm/unistd.h>'
	for n in $names; do echo "IOR_NR $n __NR_$n"; done
} | cpp_arch - | sed -n 's/^IOR_NR \([a-z0-9_]*\) (*\([0-9]*\))*$/\1 \2/p' | sort -k2 -n
