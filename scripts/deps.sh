#!/bin/sh
# Installs the Debian packages a purpose needs, only those missing.
# usage: scripts/deps.sh build|test|bench|vm ...
set -eu

pkgs_build="make gcc clang llvm musl-tools libzstd-dev linux-libc-dev libc6-dev"
pkgs_test="$pkgs_build libclang-rt-14-dev libxml2-utils curl zstd util-linux python3 strace tmux time nodejs npm"
pkgs_vm="qemu-system-x86 busybox-static cpio gzip python3"
pkgs_bench="bpftrace strace linux-perf time nodejs npm"

want=""
for purpose in "$@"; do
	case "$purpose" in
	build) want="$want $pkgs_build" ;;
	test) want="$want $pkgs_test $pkgs_vm" ;;
	vm) want="$want $pkgs_build $pkgs_vm" ;;
	bench) want="$want $pkgs_build $pkgs_bench" ;;
	*) echo "deps.sh: unknown purpose '$purpose': use build, test, vm or bench" >&2; exit 2 ;;
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
echo "deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
