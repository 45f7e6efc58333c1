#!/bin/bash
# The static ior alone in an initramfs on Debian's 6.1 cloud kernel under
# qemu (TCG): ior -check, a traced workload recorded with -flamegraph, and a
# -plain CSV, asserted on the host as the integration tests assert them.
# usage: bash tests/vm/run.sh   (env: IOR, WORKLOAD, B, IOR_VM_TIMEOUT)
# Prints "PASS: vm:<name>" / "FAIL: vm:<name>: <why>" lines.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
IOR=${IOR:-$PWD/ior}
WORKLOAD=${WORKLOAD:-$PWD/$B/workload}
BUSYBOX=${BUSYBOX:-/bin/busybox}
VM=$B/vm
TIMEOUT=${IOR_VM_TIMEOUT:-120}
OUT=$VM/out
LOG=$VM/serial.log

# Applets /init uses; the initramfs gets a symlink for each.
APPLETS="sh mount umount mkdir cat base64 timeout dmesg grep uname nproc
	poweroff sync ls kill sleep rm mv sed cut head printf"

failed=0
pass() { echo "PASS: vm:$1"; }
fail() { # name why
	echo "FAIL: vm:$1: $2"
	failed=$((failed + 1))
}
show_log_tail() { # the console with base64 sections folded, then dmesg
	[ -f "$LOG" ] || return
	echo "    serial log tail ($LOG, sections folded):"
	tr -d '\r' <"$LOG" | awk '
		/^IOR-BEGIN / { name = $2; n = 0; next }
		/^IOR-END /   { print "[section " name ": " n " base64 lines]"; name = ""; next }
		name != ""    { n++; next }
		{ print }' | tail -n 30 | sed 's/^/    | /'
	if [ -s "$OUT/dmesg" ]; then
		echo "    dmesg tail (from the VM):"
		tail -n 15 "$OUT/dmesg" | sed 's/^/    | /'
	fi
}
give_up() { # name why: a failure after which nothing else can be checked
	fail "$1" "$2"
	show_log_tail
	exit 1
}
have() { [ -f "$OUT/$1" ]; }
out() { cat "$OUT/$1" 2>/dev/null; }

static_elf() { # file: an x86-64 executable needing no interpreter
	[ -x "$1" ] && ! readelf -l "$1" 2>/dev/null | grep -q 'INTERP'
}

# ---- kernel ---------------------------------------------------------------
KERNEL=$(bash tests/vm/kernel.sh "$VM") || give_up kernel "cannot fetch the 6.1 cloud kernel (see above)"
KCONFIG=$(ls "$(dirname "$KERNEL")"/config-* 2>/dev/null | head -n 1)
missing_cfg=""
for c in CONFIG_BPF_SYSCALL CONFIG_FTRACE_SYSCALLS CONFIG_BPF_EVENTS CONFIG_PERF_EVENTS; do
	grep -qx "$c=y" "$KCONFIG" || missing_cfg="$missing_cfg $c"
done
if [ -n "$missing_cfg" ]; then
	give_up kernel "$(basename "$KCONFIG") lacks$missing_cfg: ior cannot trace on it"
fi
pass "kernel ($(basename "$KERNEL"): BPF_SYSCALL, FTRACE_SYSCALLS, BPF_EVENTS, PERF_EVENTS)"

# ---- initramfs ------------------------------------------------------------
for f in "$IOR" "$WORKLOAD" "$BUSYBOX"; do
	static_elf "$f" || give_up initramfs "$f is missing or not a static executable (make ior $B/workload; apt-get install busybox-static)"
done
ROOT=$VM/root
rm -rf "$ROOT" "$OUT"
mkdir -p "$ROOT"/{bin,dev,proc,sys,tmp} "$OUT"
cp "$BUSYBOX" "$ROOT/bin/busybox"
for a in $APPLETS; do
	ln -s busybox "$ROOT/bin/$a"
done
cp "$IOR" "$ROOT/ior"
cp "$WORKLOAD" "$ROOT/workload"
cp tests/vm/init "$ROOT/init"
chmod 755 "$ROOT/init" "$ROOT/ior" "$ROOT/workload"
INITRD=$VM/initramfs.cpio.gz
(cd "$ROOT" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$INITRD" || give_up initramfs "cannot build $INITRD"
pass "initramfs ($(du -k "$INITRD" | cut -f1) KiB: busybox, ior, workload, init; no libc, no /etc)"

# ---- boot -----------------------------------------------------------------
start=$(date +%s.%N)
rm -f "$LOG"
timeout -k 5 "$TIMEOUT" qemu-system-x86_64 \
	-accel tcg -smp 2 -m 512M -nodefaults -display none -no-reboot \
	-serial "file:$LOG" -monitor none \
	-kernel "$KERNEL" -initrd "$INITRD" \
	-append "console=ttyS0 panic=-1 quiet" >"$VM/qemu.log" 2>&1
rc=$?
boot_s=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	give_up boot "qemu did not power off within ${TIMEOUT}s (IOR_VM_TIMEOUT)"
fi
[ "$rc" = 0 ] || { cat "$VM/qemu.log"; give_up boot "qemu exited with status $rc"; }
tr -d '\r' <"$LOG" | awk -v dir="$OUT" '
	/^IOR-BEGIN / { file = dir "/" $2 ".b64"; printf "" >file; next }
	/^IOR-END /   { close(file); file = ""; next }
	file != ""    { print >>file }'
for b in "$OUT"/*.b64; do
	[ -f "$b" ] || continue
	base64 -d <"$b" >"${b%.b64}" 2>/dev/null ||
		fail transport "section $(basename "${b%.b64}") is not clean base64 (console noise?)"
	rm -f "$b"
done
grep -q '^IOR-DONE' <(tr -d '\r' <"$LOG") || give_up boot "/init did not reach its end (no IOR-DONE)"
pass "boot (kernel $(out uname), qemu ran ${boot_s}s, /init reached IOR-DONE)"

# ---- what ran inside ------------------------------------------------------
step_ok() { # name: the step exited 0
	[ "$(out "$1.rc")" = 0 ]
}
step_why() { # name
	echo "exit status $(out "$1.rc"); stderr: $(head -c 400 "$OUT/$1.err" | tr '\n' ' ')"
}

if [ "$(out tracefs-before)" = 0 ]; then
	pass "bare (tracefs not mounted before ior ran)"
else
	fail bare "tracefs was mounted before ior ran: $(out tracefs-before)"
fi

want_version=$("$IOR" -version 2>&1)
if step_ok version && [ "$(out version.out)" = "$want_version" ]; then
	pass "version ($want_version)"
else
	fail version "want \"$want_version\", got \"$(out version.out)\"; $(step_why version)"
fi

if step_ok check; then
	pass "check"
else
	fail check "$(step_why check)"
fi

[ "$failed" = 0 ] || show_log_tail
exit $((failed > 0))
