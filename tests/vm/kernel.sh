#!/bin/bash
# Fetches one of Debian's cloud kernels once and prints the path of its
# vmlinuz. For arm64 it also fetches busybox-static:arm64 into
# CACHE_DIR/busybox-arm64/bin/busybox (the host's busybox is amd64).
# usage: tests/vm/kernel.sh [CACHE_DIR] [SERIES] [ARCH]
#        CACHE_DIR: default build/vm; SERIES: 6.1 (default), 5.10, 6.12;
#        ARCH: amd64 (default), arm64 (6.1 only)
# The kernels are pinned here and only here, one per series, each from its
# Debian suite: 6.1 from bookworm (this machine's own lists), 5.10 from
# bullseye and 6.12 from trixie through a private apt configuration under
# CACHE_DIR/apt (the system's sources are never touched). When Debian
# drops a pinned build, the script says so and uses the newest build of
# the same series instead, so CI keeps testing that series.
set -euo pipefail

cache=${1:-build/vm}
series=${2:-6.1}
arch=${3:-amd64}
case $arch-$series in
amd64-* | arm64-6.1) ;;
*)
	echo "vm-kernel: no $arch $series kernel pinned (arm64: 6.1)" >&2
	exit 2
	;;
esac
case $series in
6.1) SUITE=bookworm KERNEL_ABI=6.1.0-50 KERNEL_VERSION=6.1.176-1 ;;
5.10) SUITE=bullseye KERNEL_ABI=5.10.0-32 KERNEL_VERSION=5.10.223-1 ;;
6.12) SUITE=trixie KERNEL_ABI=6.12.117+deb13 KERNEL_VERSION=6.12.117-1 ;;
*)
	echo "vm-kernel: unknown series '$series' (known: 6.1 5.10 6.12)" >&2
	exit 2
	;;
esac
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
# One at a time: tests/vm/matrix.sh starts the series at once, and two of
# them (6.1, 6.1-nobtf) take the same kernel from the same apt lists.
exec 9>"$cache/kernel.lock"
flock 9

# bookworm amd64 is this machine's suite; the others get their own lists.
APT_OPTS=()
OWN_LISTS=0
if [ "$SUITE" != bookworm ] || [ "$arch" != amd64 ]; then
	OWN_LISTS=1
	APT_DIR=$cache/apt-$SUITE${arch#amd64}
	[ "$arch" = amd64 ] || APT_DIR=$cache/apt-$SUITE-$arch
	APT_OPTS=(-o "Dir::Etc::SourceList=$APT_DIR/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$APT_DIR/lists" -o "Dir::Cache=$APT_DIR/cache"
		-o "APT::Architecture=$arch" -o "APT::Architectures::=$arch")
fi

private_lists() { # writes the suite's sources and fetches its lists
	local key=/usr/share/keyrings/debian-archive-keyring.gpg
	mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
	# Only the suite itself: the security archive's pool is not reachable
	# from here (its lists are, and named builds that then failed with 404).
	echo "deb [signed-by=$key] http://deb.debian.org/debian $SUITE main" >"$APT_DIR/sources.list"
	apt-get "${APT_OPTS[@]}" update -q >"$APT_DIR/update.log" 2>&1 ||
		{ sed 's/^/    /' "$APT_DIR/update.log" >&2; return 1; }
}

update_lists() {
	if [ "$OWN_LISTS" = 0 ]; then
		apt-get update -q >/dev/null 2>&1 || true
	else
		private_lists
	fi
}

pkg_name() { echo "linux-image-$1-cloud-$arch-unsigned"; }
kdir() { # abi
	if [ "$arch" = amd64 ]; then echo "$cache/kernel-$1"; else echo "$cache/kernel-$1-$arch"; fi
}

# Already extracted (with the virtio modules: run.sh's second disk):
# reuse without touching the network.
vmlinuz_of() { # abi
	local f
	f="$(kdir "$1")/boot/vmlinuz-$1-cloud-$arch"
	[ -s "$f" ] && [ -d "$(kdir "$1")/modules" ] && echo "$f"
}

newest_available_abi() {
	local re=${series//./\\.}
	apt-cache "${APT_OPTS[@]}" search --names-only "^linux-image-${re}[.0-9+-]*[a-z0-9]*-cloud-$arch-unsigned\$" 2>/dev/null |
		sed -n "s/^linux-image-\([^ ]*\)-cloud-$arch-unsigned .*/\1/p" | sort -V | tail -n 1
}

# download PKG SPEC: the .deb in the cache, fetched once; prints its path.
download() {
	local pkg=$1 spec=$2 deb
	deb=$(ls "$cache/${pkg}_"*"_$arch.deb" 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		if [ "$OWN_LISTS" = 1 ] && [ ! -d "$APT_DIR/lists" ]; then
			private_lists || true
		fi
		# apt's sandbox user cannot write into root-owned build trees; fetch
		# in a private temporary directory and move the package in.
		local tmp
		tmp=$(mktemp -d)
		chmod 755 "$tmp"
		if ! (cd "$tmp" && apt-get "${APT_OPTS[@]}" download -q "$spec" >"$tmp/apt.log" 2>&1); then
			sed 's/^/    /' "$tmp/apt.log" >&2
			rm -rf "$tmp"
			return 1
		fi
		mv "$tmp"/*.deb "$cache/"
		rm -rf "$tmp"
		deb=$(ls "$cache/${pkg}_"*"_$arch.deb" | head -n 1)
	fi
	echo "$deb"
}

fetch() { # abi [version]
	local abi=$1 version=${2:-} pkg deb dir
	pkg=$(pkg_name "$abi")
	deb=$(download "$pkg" "$pkg${version:+=$version}") || return 1
	dir=$(kdir "$abi")
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	# /boot (vmlinuz, config) and the modules of a virtio disk (the block
	# check's; the cloud kernels build them as modules): the other
	# modules are 100 MB the VM never loads. Those a kernel has (trixie's
	# are under /usr/lib, .ko.xz, its virtio core built in) are listed
	# first: tar fails on a name the archive lacks.
	local mods
	mods=$(dpkg-deb --fsys-tarfile "$deb" | tar -t |
		grep -E '^\./(usr/)?lib/modules/[^/]+/kernel/drivers/(virtio/virtio[a-z_]*|block/virtio_blk)\.ko(\.xz|\.zst)?$' || true)
	# shellcheck disable=SC2086 # one member per word
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir.tmp" ./boot $mods
	mkdir -p "$dir.tmp/modules" # the mark of an extraction with modules (vmlinuz_of)
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	vmlinuz_of "$abi"
}

# arm64's busybox, as static as the host's amd64 one (busybox-static).
busybox_arm64() {
	local deb dir=$cache/busybox-$arch
	[ "$arch" = amd64 ] || [ -x "$dir/bin/busybox" ] && return 0
	deb=$(download busybox-static busybox-static) || return 1
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/bin"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -O ./bin/busybox >"$dir.tmp/bin/busybox"
	chmod 755 "$dir.tmp/bin/busybox"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
}

busybox_arm64 || { echo "vm-kernel: cannot download busybox-static for $arch" >&2; exit 1; }
if vmlinuz_of "$KERNEL_ABI"; then
	exit 0
fi
if fetch "$KERNEL_ABI" "$KERNEL_VERSION" 2>/dev/null; then
	exit 0
fi
# A fresh machine may have no package lists yet (or stale ones).
if [ "$(id -u)" = 0 ]; then
	echo "vm-kernel: apt-get update ($SUITE), then trying again" >&2
	update_lists || true
	if fetch "$KERNEL_ABI" "$KERNEL_VERSION"; then
		exit 0
	fi
fi
echo "vm-kernel: cannot download $(pkg_name "$KERNEL_ABI")=$KERNEL_VERSION from $SUITE (apt-get update? pin a newer build in tests/vm/kernel.sh)" >&2
abi=$(newest_available_abi)
if [ -z "$abi" ]; then
	echo "vm-kernel: apt-cache knows no $series cloud kernel in $SUITE; check the network to deb.debian.org" >&2
	exit 1
fi
echo "vm-kernel: using the newest available $series cloud kernel instead: $(pkg_name "$abi")" >&2
vmlinuz_of "$abi" || fetch "$abi"
