#!/bin/sh
# Installs the Debian packages a purpose needs, only those missing.
# usage: scripts/deps.sh build|arm64|test|bench|vm ...
# arm64 (the cross build, make ARCH=arm64) and test (its arm64 table test)
# add Debian's arm64 architecture to dpkg first when it is missing.
set -eu

pkgs_build="make gcc clang llvm musl-tools libzstd-dev linux-libc-dev libc6-dev"
pkgs_arm64="gcc-aarch64-linux-gnu musl-dev:arm64 libzstd-dev:arm64 linux-libc-dev:arm64"
pkgs_test="$pkgs_build linux-libc-dev:arm64 libclang-rt-14-dev libxml2-utils curl zstd util-linux python3 strace tmux time nodejs npm qemu-user-static fio chromium"
pkgs_vm="qemu-system-x86 qemu-system-arm busybox-static cpio gzip python3"
pkgs_bench="bpftrace strace linux-perf time valgrind nodejs npm"

want=""
for purpose in "$@"; do
	case "$purpose" in
	build) want="$want $pkgs_build" ;;
	arm64) want="$want $pkgs_build $pkgs_arm64" ;;
	test) want="$want $pkgs_test $pkgs_vm $pkgs_arm64" ;;
	vm) want="$want $pkgs_build $pkgs_vm $pkgs_arm64" ;;
	bench) want="$want $pkgs_build $pkgs_bench" ;;
	*) echo "deps.sh: unknown purpose '$purpose': use build, arm64, test, vm or bench" >&2; exit 2 ;;
	esac
done

# npm ships inside nodesource's nodejs, which conflicts with Debian's npm
# package: a working npm command is enough.
have_command() { # package
	case "$1" in
	npm) command -v npm >/dev/null 2>&1 ;;
	*) return 1 ;;
	esac
}

missing=""
for p in $want; do
	have_command "$p" && continue
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*" installed") ;;
	*) case " $missing " in *" $p "*) ;; *) missing="$missing $p" ;; esac ;;
	esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: missing Debian packages:$missing; run as root (sudo) to install them" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
case "$missing" in
*:arm64*)
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		echo "deps.sh: dpkg --add-architecture arm64" >&2
		dpkg --add-architecture arm64
	fi
	;;
esac
echo "deps.sh: installing$missing" >&2
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
