#!/bin/sh
# Stages the headers the musl and BPF builds take from Debian packages into
# one include directory, and checks their versions. musl-gcc does not search
# /usr/include, so the kernel UAPI (linux-libc-dev) and zstd (libzstd-dev)
# headers are linked in explicitly.
# usage: vendor/stage.sh OUTDIR [TRIPLET]   (x86_64-linux-gnu, aarch64-linux-gnu)
set -eu
out=$1
triplet=${2:-x86_64-linux-gnu}
multiarch=/usr/include/$triplet
arch=$(echo "$triplet" | sed 's/aarch64-.*/arm64/; s/x86_64-.*/amd64/')

die() { echo "vendor/stage.sh: $*" >&2; exit 1; }

[ -f /usr/include/zstd.h ] || die "zstd.h not found: install libzstd-dev (scripts/deps.sh build)"
[ -f /usr/include/linux/bpf.h ] || die "linux/bpf.h not found: install linux-libc-dev (scripts/deps.sh build)"
[ -f "/usr/lib/$triplet/libzstd.a" ] || die "/usr/lib/$triplet/libzstd.a not found: install libzstd-dev:$arch (scripts/deps.sh build $arch)"
[ -d "$multiarch/asm" ] || die "$multiarch/asm not found: install linux-libc-dev:$arch (scripts/deps.sh build $arch)"

zver=$(sed -n 's/^#define ZSTD_VERSION_\(MAJOR\|MINOR\)[[:space:]]*\([0-9]*\).*/\2/p' /usr/include/zstd.h | tr '\n' ' ')
set -- $zver
[ "$1" -ge 1 ] && [ "$2" -ge 4 ] || die "zstd $1.$2 is too old: ior needs zstd >= 1.4 (ZSTD_compressStream2)"

grep -q BPF_F_TEST_STATE_FREQ /usr/include/linux/bpf.h ||
	die "linux/bpf.h is older than Linux 5.9: install a newer linux-libc-dev"

mkdir -p "$out"
for d in linux asm-generic mtd; do ln -sfn "/usr/include/$d" "$out/$d"; done
ln -sfn "$multiarch/asm" "$out/asm"
ln -sf /usr/include/zstd.h /usr/include/zstd_errors.h "$out/"
ln -sf "/usr/lib/$triplet/libzstd.a" "$out/libzstd.a"
