#!/bin/bash
# A recording reads the same with either arch's ior: the workload's "dup"
# scenario (dup2, newfstat: syscalls arm64 lacks) recorded by this ior,
# then read by build/arm64/ior under qemu-aarch64-static (reading needs no
# BPF):
#  - ior summary, ior collapsed (two -fields), ior parquet and the
#    -ior=FILE -plain replay are byte for byte the x86_64 binary's
#  - collapsed names dup2: the recording's names, not the reader's table
#  - the same recording with dup2 renamed dupX (a name no ior table knows,
#    as a newer kernel's would be): both binaries read it whole, its pairs
#    under dupX, family Misc, with one warning line naming it
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
flame_setup

ARM=${IOR_ARM64:-$ROOT/build/arm64/ior}
QEMU=$(command -v qemu-aarch64-static)
if [ ! -x "$ARM" ] || [ -z "$QEMU" ]; then
	fail setup "needs $ARM (make ARCH=arm64 all) and qemu-aarch64-static (scripts/deps.sh test)"
	finish
	exit
fi

head -c 100 /dev/zero >"$T/dupfile"
if ! record_scenario cross dup "$T/dupfile"; then
	fail record "$WHY"
	finish
	exit
fi

# Runs both binaries with ARGS (FILE stands for the recording), output to
# $T/LABEL.{x86,arm}.{out,err}; PASS when stdout, stderr and status agree.
both() { # LABEL REC ARGS...
	local label=$1 rec=$2 a args=() bin out rc
	shift 2
	for bin in x86 arm; do
		args=()
		for a in "$@"; do args+=("${a//@OUT@/$T/$label.$bin.pq}"); done
		args=("${args[@]//@REC@/$rec}")
		if [ $bin = x86 ]; then
			"$IOR" "${args[@]}" >"$T/$label.$bin.out" 2>"$T/$label.$bin.err"
		else
			"$QEMU" "$ARM" "${args[@]}" >"$T/$label.$bin.out" 2>"$T/$label.$bin.err"
		fi
		echo "$?" >"$T/$label.$bin.rc"
		sed -i "s#$T/$label.$bin.pq#OUT#g" "$T/$label.$bin.out" "$T/$label.$bin.err"
	done
	rc=$(cat "$T/$label.x86.rc")
	if [ "$rc" != 0 ]; then
		fail "$label" "x86_64 ior exited $rc: $(head -c 300 "$T/$label.x86.err")"
	elif ! cmp -s "$T/$label.x86.rc" "$T/$label.arm.rc"; then
		fail "$label" "arm64 ior exited $(cat "$T/$label.arm.rc"): $(head -c 300 "$T/$label.arm.err")"
	elif ! out=$(diff "$T/$label.x86.out" "$T/$label.arm.out" | head -c 400); [ -n "$out" ]; then
		fail "$label" "stdout differs (x86_64 <, arm64 >): $out"
	elif ! out=$(diff "$T/$label.x86.err" "$T/$label.arm.err" | head -c 400); [ -n "$out" ]; then
		fail "$label" "stderr differs (x86_64 <, arm64 >): $out"
	elif [ -f "$T/$label.x86.pq" ] && ! cmp -s "$T/$label.x86.pq" "$T/$label.arm.pq"; then
		fail "$label" "the Parquet files differ: $(cmp "$T/$label.x86.pq" "$T/$label.arm.pq" 2>&1)"
	else
		pass "$label: arm64 reads it as x86_64 does"
	fi
}

both summary "$REC" summary @REC@
both collapsed "$REC" collapsed -fields=tracepoint @REC@
both collapsed-family "$REC" collapsed -fields=comm,family,tracepoint -count=bytes @REC@
both replay "$REC" -ior=@REC@ -plain
both parquet "$REC" parquet @REC@ -o @OUT@

if grep -q '^dup2 ' "$T/collapsed.arm.out"; then
	pass "names: arm64's ior reads x86_64's dup2"
else
	fail names "no dup2 stack in arm64's collapsed output: $(head -c 300 "$T/collapsed.arm.out")"
fi

# dup2 renamed dupX in the header's syscall table (one zstd frame).
UNK="$T/unknown.ior.zst"
zstd -q -d -c "$REC" | python3 -c '
import sys
b = sys.stdin.buffer.read()
i = b.find(b"\x04dup2")
sys.exit("no dup2 in the header") if i < 0 else sys.stdout.buffer.write(b[:i] + b"\x04dupX" + b[i + 5:])
' | zstd -q -c >"$UNK" || fail unknown-make "cannot rename dup2 in $REC"
both unknown "$UNK" collapsed -fields=family,tracepoint @REC@
want_err="ior: $UNK: 1 syscall unknown to this ior (dupX): read under its name, family Misc"
if grep -q '^Misc;dupX [1-9]' "$T/unknown.x86.out" && [ "$(cat "$T/unknown.x86.err")" = "$want_err" ]; then
	pass "unknown: dupX reads as itself, family Misc, one warning line"
else
	fail unknown "stacks: $(grep -c . "$T/unknown.x86.out"), dupX: $(grep dupX "$T/unknown.x86.out"); stderr: $(head -c 300 "$T/unknown.x86.err")"
fi
both unknown-summary "$UNK" summary @REC@
finish
