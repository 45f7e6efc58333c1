#!/bin/bash
# Fetches Debian's 6.1 cloud kernel once and prints the path of its vmlinuz.
# usage: tests/vm/kernel.sh [CACHE_DIR]   (default build/vm)
# The kernel is pinned here and only here. When Debian drops the pinned
# build from its archive, the script says so, names what is available and
# uses the newest 6.1 cloud build instead, so CI keeps testing a 6.1 kernel.
set -euo pipefail

KERNEL_ABI=6.1.0-50
KERNEL_VERSION=6.1.176-1

cache=${1:-build/vm}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

pkg_name() { echo "linux-image-$1-cloud-amd64-unsigned"; }

# Already extracted: reuse without touching the network.
vmlinuz_of() { # abi
	local f="$cache/kernel-$1/boot/vmlinuz-$1-cloud-amd64"
	[ -s "$f" ] && echo "$f"
}

newest_available_abi() {
	apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-cloud-amd64-unsigned$' 2>/dev/null |
		sed -n 's/^linux-image-\(6\.1\.0-[0-9]*\)-cloud-amd64-unsigned .*/\1/p' | sort -V | tail -n 1
}

fetch() { # abi [version]
	local abi=$1 version=${2:-} pkg spec deb dir
	pkg=$(pkg_name "$abi")
	spec=$pkg${version:+=$version}
	deb=$(ls "$cache/${pkg}_"*"_amd64.deb" 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		# apt's sandbox user cannot write into root-owned build trees; fetch
		# in a private temporary directory and move the package in.
		local tmp
		tmp=$(mktemp -d)
		chmod 755 "$tmp"
		if ! (cd "$tmp" && apt-get download -q "$spec" >"$tmp/apt.log" 2>&1); then
			sed 's/^/    /' "$tmp/apt.log" >&2
			rm -rf "$tmp"
			return 1
		fi
		mv "$tmp"/*.deb "$cache/"
		rm -rf "$tmp"
		deb=$(ls "$cache/${pkg}_"*"_amd64.deb" | head -n 1)
	fi
	dir="$cache/kernel-$abi"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	# Only /boot (vmlinuz, config): the modules are 100 MB the VM never loads.
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir.tmp" ./boot
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	vmlinuz_of "$abi"
}

if vmlinuz_of "$KERNEL_ABI"; then
	exit 0
fi
if fetch "$KERNEL_ABI" "$KERNEL_VERSION"; then
	exit 0
fi
# A fresh machine may have no package lists yet (or stale ones).
if [ "$(id -u)" = 0 ]; then
	echo "vm-kernel: apt-get update, then trying again" >&2
	apt-get update -q >/dev/null 2>&1 || true
	if fetch "$KERNEL_ABI" "$KERNEL_VERSION"; then
		exit 0
	fi
fi
echo "vm-kernel: cannot download $(pkg_name "$KERNEL_ABI")=$KERNEL_VERSION (apt-get update? pin a newer build in tests/vm/kernel.sh)" >&2
abi=$(newest_available_abi)
if [ -z "$abi" ]; then
	echo "vm-kernel: apt-cache knows no linux-image-6.1.0-*-cloud-amd64-unsigned; run apt-get update" >&2
	exit 1
fi
echo "vm-kernel: using the newest available 6.1 cloud kernel instead: $(pkg_name "$abi")" >&2
vmlinuz_of "$abi" || fetch "$abi"
