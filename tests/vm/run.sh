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
	echo "exit status $(out "$1.rc"); stderr: $(tail -c 400 "$OUT/$1.err" 2>/dev/null | tr '\n' ' ')"
}
# traced_ok NAME: the workload ran clean and ior traced it and exited 0.
traced_ok() {
	local n=$1
	WHY=""
	if ! have "$n.rc"; then
		WHY="no result from the VM"
	elif [ -s "$OUT/$n.note" ]; then
		WHY="$(out "$n.note"); $(step_why "$n")"
	elif [ "$(out "$n.wl.rc")" != 0 ]; then
		WHY="workload exited $(out "$n.wl.rc"): $(head -c 300 "$OUT/$n.wl.err")"
	elif ! step_ok "$n"; then
		WHY="ior exited after SIGINT with $(step_why "$n")"
	fi
	[ -z "$WHY" ]
}
csv() { # NAME FILE CSVCHECK_ARGS...: PASS/FAIL as tests/lib/common.sh check
	local name=$1 file=$2 res
	shift 2
	if res=$(python3 tests/lib/csvcheck.py "$file" "$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$(echo "$res" | head -n 1)"
		echo "$res" | tail -n +2 | head -n 20 | sed 's/^/      /'
	fi
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

# The tracepoints ior knows minus those this kernel has: exactly what ior's
# warning line must name.
want_missing=$(comm -23 \
	<(sed -nE 's/^[[:space:]]*(SC|AT)\(([a-z0-9_]+),.*/\2/p' trace/syscalls.c | sort -u) \
	<(sed -n 's/^sys_enter_//p' "$OUT/tracepoints" 2>/dev/null | sort -u) | tr '\n' ' ')
missing_ok() { # stderr-file: one line naming exactly want_missing
	local line got
	line=$(grep -iE 'tracepoint|lack|missing|skip' "$1" | grep -F "${want_missing%% *}" | head -n 1)
	[ -n "$line" ] || return 1
	got=$(for w in $(echo "$line" | tr -c 'a-z0-9_\n' ' '); do
		case " $ior_names " in *" $w "*) echo "$w" ;; esac
	done | sed 's/^sys_enter_//; s/^sys_exit_//' | sort -u | tr '\n' ' ')
	[ "$got" = "$want_missing" ]
}
ior_names=" $(sed -nE 's/^[[:space:]]*(SC|AT)\(([a-z0-9_]+),.*/\2/p' trace/syscalls.c | tr '\n' ' ')"
case " $want_missing " in
*" setxattrat "*" fchmodat2 "* | *" fchmodat2 "*" setxattrat "*)
	if missing_ok "$OUT/flame.err"; then
		pass "missing-tracepoints (one warning naming: $want_missing)"
	else
		fail missing-tracepoints "want one stderr line naming exactly: $want_missing; ior said: $(grep -iE 'tracepoint|lack|missing|skip' "$OUT/flame.err" | head -n 3 | tr '\n' ' ')"
	fi
	;;
*) fail missing-tracepoints "expected 6.1 to lack setxattrat and fchmodat2; missing: $want_missing (tracepoint list: $(head -c 200 "$OUT/tracepoints"))" ;;
esac

# -flamegraph: the recording of "workload basic /tmp/flame/d 10".
N=10 D=/tmp/flame/d
if traced_ok flame; then
	pass "flamegraph-trace"
else
	fail flamegraph-trace "$WHY"
fi
rec=$(sed -n 's/^Wrote \(.*\.ior\.zst\).*/\1/p' "$OUT/flame.out" "$OUT/flame.err" 2>/dev/null | head -n 1)
if [[ "$(basename "$rec")" =~ ^.+-vm-[0-9]{4}-[0-9]{2}-[0-9]{2}_[0-9]{2}:[0-9]{2}:[0-9]{2}\.ior\.zst$ ]] &&
	grep -q "^-.* [1-9][0-9]* .*$(basename "$rec")\$" "$OUT/recording"; then
	pass "recording ($(basename "$rec"), $(awk '{ print $5 }' "$OUT/recording") bytes)"
else
	fail recording "want \"Wrote <host>-vm-<YYYY-MM-DD_HH:MM:SS>.ior.zst\" and a non-empty file; got \"$rec\"; $(head -c 200 "$OUT/recording")"
fi

# The recording read back as CSV holds exactly the scenario.
if step_ok replay; then
	csv replay-basic "$OUT/replay.out" \
		"count==$((2 * N + 16))" 'count[comm!=workload]==0' 'pids==1' 'tids==1' 'max_gap[seq=1]==0' \
		"count[name=openat,path=$D/data,flags=O_RDWR|O_CREAT,fd=3,ret=3]==1" \
		"count[name=write,path=$D/data]==2" "sum_bytes[name=write]==66536" \
		"count[name=pread64,path=$D/data,ret=100]==$N" "sum_bytes[name=pread64]==$((100 * N))" \
		"count[name=lseek,path=$D/data]==2" \
		"count[name=read,path=$D/data]==$((N + 1))" "sum_bytes[name=read]==$((64 * N))" \
		"count[name=fsync,path=$D/data,ret=0]==1" "count[name=newfstat,path=$D/data]==1" \
		"count[name=close]==2" "count[name=close,path=$D/data]==1" "count[name=close,path=$D/other]==1" \
		"count[name=rename,path=$D/data,path2=$D/data2,ret=0]==1" \
		"count[name=newfstatat,path=$D/data2,ret=0]==1" "count[name=unlink,path=$D/data2,ret=0]==1" \
		"count[name=openat,path=$D/other,flags=O_WRONLY|O_CREAT|O_CLOEXEC,ret=3]==1" \
		"count[name=renameat2,path=$D/other,path2=$D/other2,ret=0]==1" \
		"count[name=unlinkat,path=$D/other2,ret=0]==1"
else
	fail replay-basic "ior -ior=FILE -plain: $(step_why replay)"
fi

# ior collapsed: folded stacks (comm;path components;tracepoint COUNT).
if step_ok collapsed; then
	if res=$(python3 - "$OUT/collapsed.out" "$N" "$D" 2>&1 <<'PY'
import re, sys
path, n, d = sys.argv[1], int(sys.argv[2]), sys.argv[3]
stacks = {}
for line in open(path, encoding="utf-8", errors="replace"):
    line = line.rstrip("\n")
    m = re.match(r"^(.+) (\d+)$", line)
    if not m:
        print("not a folded stack line: %r" % line)
        sys.exit(1)
    stacks[m.group(1)] = stacks.get(m.group(1), 0) + int(m.group(2))
total = sum(stacks.values())
if total != 2 * n + 16:
    print("stack counts sum to %d, want %d" % (total, 2 * n + 16))
    sys.exit(1)
PY
	); then
		pass "collapsed ($(wc -l <"$OUT/collapsed.out") stacks)"
	else
		fail collapsed "$res"
	fi
else
	fail collapsed "$(step_why collapsed)"
fi

# -plain: "workload sleepgap /tmp/gapfile", a known 100 ms gap.
if traced_ok plain; then
	csv plain-sleepgap "$OUT/plain.out" \
		'count==4' 'count[comm!=workload]==0' 'tids==1' 'max_gap[seq=1]==0' \
		'count[name=openat,path=/tmp/gapfile,flags=O_RDONLY,fd=3,ret=3]==1' \
		'count[name=read,path=/tmp/gapfile,ret=1]==2' 'sum_bytes==2' \
		'count[name=close,path=/tmp/gapfile,ret=0]==1' \
		'min_gap[name=read,seq=3]>=100000000' 'max_gap[name=read,seq=3]<2000000000' \
		'max_gap[seq!=3]<100000000'
else
	fail plain-sleepgap "$WHY"
fi

[ "$failed" = 0 ] || show_log_tail
exit $((failed > 0))
