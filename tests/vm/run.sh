#!/bin/bash
# The static ior alone in an initramfs on one of Debian's cloud kernels
# (5.10, 6.1, 6.12: tests/vm/kernel.sh) under qemu (TCG, no KVM): busybox, ior, the workload and tests/vm/init; no libc,
# no /etc, tracefs not mounted. Inside: ior -check; workload "basic" traced
# with -flamegraph, the recording read back (collapsed, -plain, SVG, HTTP);
# "sleepgap" and "threads" traced with -plain. Results come back over the
# serial console as base64 sections and are asserted here as the
# integration tests assert them (tests/lib/csvcheck.py).
# usage: bash tests/vm/run.sh [SERIES]   (6.1 by default; 5.10, 6.12;
#        arm64-6.1: build/arm64/ior on arm64 under qemu-system-aarch64;
#        6.1-nobtf: amd64 with /sys/kernel/btf hidden, the raw programs;
#        arm64-6.1-nobtf: both)
#        (env: IOR, WORKLOAD, B, BUSYBOX, IOR_VM_TIMEOUT, IOR_VM_SLACK_MS,
#        IOR_VM_APPEND: more kernel command line, e.g. ignore_loglevel)
# Prints "PASS: vm-SERIES:<name>" / "FAIL: vm-SERIES:<name>: <why>" lines;
# exit 1 on any FAIL. Each series works in its own build/vm/run-SERIES, so
# several can run at once; the kernels are cached in build/vm.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/expect_basic.sh
B=${B:-build}
SERIES=${1:-6.1}
ARCH=amd64 KSERIES=$SERIES NOBTF=0
case $KSERIES in arm64-*) ARCH=arm64 KSERIES=${KSERIES#arm64-} ;; esac
case $KSERIES in *-nobtf) NOBTF=1 KSERIES=${KSERIES%-nobtf} ;; esac
if [ "$ARCH" = arm64 ]; then
	IOR=${IOR_ARM64:-$PWD/$B/arm64/ior}
	WORKLOAD=${WORKLOAD_ARM64:-$PWD/$B/arm64/workload}
	BUSYBOX=${BUSYBOX_ARM64:-$PWD/$B/vm/busybox-arm64/bin/busybox}
	TABLE=syscalls/table_arm64.c UNAME_M=aarch64
	# renames and unlinks by path exist only as their *at forms there
	RENAME=renameat UNLINK=unlinkat
else
	IOR=${IOR:-$PWD/ior}
	WORKLOAD=${WORKLOAD:-$PWD/$B/workload}
	BUSYBOX=${BUSYBOX:-/bin/busybox}
	TABLE=syscalls/table_x86_64.c UNAME_M=x86_64
	RENAME=rename UNLINK=unlink
fi
export RENAME UNLINK
VM=$B/vm/run-$SERIES
# TCG emulating arm64 on x86_64 is about 3x slower than amd64 on amd64.
# amd64: 72 s alone with the uring and aio steps; with five series
# sharing 2 CPUs, 6.12 took 142 s on one day and more than 180 s on a
# day the host ran everything ~1.5x slower (not hung: in its last step).
TIMEOUT=${IOR_VM_TIMEOUT:-$([ "$ARCH" = arm64 ] && echo 400 || echo 300)}
OUT=$VM/out
LOG=$VM/serial.log
MS=1000000
# Timing bounds: lower bounds are the integration tests' (a sleep of s ms
# shows as a gap of at least s ms); upper bounds get TCG_SLACK_MS more,
# because TCG vCPUs are host threads: on this 2-core host at load 8 a guest
# thread's wake-up came 89 ms late (measured). Tight upper bounds are the
# integration tests' job on real CPUs; here they catch gross mispairing.
TCG_SLACK_MS=${IOR_VM_SLACK_MS:-300}

# Applets /init uses; the initramfs gets a symlink for each.
APPLETS="sh mount umount mkdir cat base64 timeout dmesg grep uname nproc
	poweroff sync ls kill sleep rm mv sed cut head printf wget ip insmod cp mkfifo"

failed=0
pass() { echo "PASS: vm-$SERIES:$1"; }
fail() { # name why
	echo "FAIL: vm-$SERIES:$1: $2"
	failed=$((failed + 1))
}
LOG_TAIL=30
show_log_tail() { # the console with base64 sections folded, then dmesg
	if [ ! -s "$LOG" ]; then
		echo "    the serial log ($LOG) is empty: the kernel printed nothing at loglevel 5 before /init"
		return
	fi
	echo "    serial log tail ($LOG, sections folded):"
	tr -d '\r' <"$LOG" | awk '
		/^IOR-BEGIN / { name = $2; n = 0; next }
		/^IOR-END /   { print "[section " name ": " n " base64 lines]"; name = ""; next }
		name != ""    { n++; next }
		{ print }
		END { if (name != "") print "[section " name ": " n " base64 lines, cut off]" }' |
		tail -n "$LOG_TAIL" | sed 's/^/    | /'
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

static_elf() { # file: an executable needing no interpreter
	[ -x "$1" ] && ! readelf -l "$1" 2>/dev/null | grep -q 'INTERP'
}

rm -rf "$OUT" "$LOG"

# ---- kernel ---------------------------------------------------------------
mkdir -p "$VM"
KERNEL=$(bash tests/vm/kernel.sh "$B/vm" "$KSERIES" "$ARCH") || give_up kernel "cannot fetch the $ARCH $KSERIES cloud kernel (see above)"
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
	static_elf "$f" || give_up initramfs "$f is missing or not a static executable (make [ARCH=arm64] all workload; apt-get install busybox-static)"
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
# The second disk's modules (virtio is =m in the cloud kernels), in load
# order, decompressed here (6.12's are .ko.xz); those a kernel lacks (5.10
# has no virtio_pci_*_dev) are left out.
mkdir -p "$ROOT/modules"
: >"$ROOT/modules/order"
KMODS=$(ls -d "$(dirname "$KERNEL")"/../lib/modules/*/kernel "$(dirname "$KERNEL")"/../usr/lib/modules/*/kernel 2>/dev/null | head -n 1)
for m in virtio virtio_ring virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci virtio_mmio virtio_blk; do
	f=$(ls "$KMODS"/drivers/*/"$m".ko* 2>/dev/null | head -n 1)
	case $f in
	"") continue ;;
	*.xz) xz -dc "$f" >"$ROOT/modules/$m.ko" ;;
	*.zst) zstd -qdc "$f" >"$ROOT/modules/$m.ko" ;;
	*) cp "$f" "$ROOT/modules/$m.ko" ;;
	esac
	echo "$m" >>"$ROOT/modules/order"
done
grep -qx virtio_blk "$ROOT/modules/order" || give_up initramfs "no virtio_blk module under $KMODS (tests/vm/kernel.sh extracts it)"
[ "$NOBTF" = 1 ] && touch "$ROOT/nobtf" # /init hides /sys/kernel/btf
chmod 755 "$ROOT/init" "$ROOT/ior" "$ROOT/workload"
INITRD=$VM/initramfs.cpio.gz
(cd "$ROOT" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$INITRD" || give_up initramfs "cannot build $INITRD"
pass "initramfs ($(du -k "$INITRD" | cut -f1) KiB: busybox, ior, workload, init, virtio modules; no libc, no /etc)"
# The block check's own disk: nothing else in the guest reads or writes it.
DISK=$VM/disk.img
rm -f "$DISK"
truncate -s 8M "$DISK" || give_up disk "cannot create $DISK"

# ---- boot -----------------------------------------------------------------
# no_timer_check: on a busy host a TCG vCPU can miss the kernel's early
# IO-APIC timer test, which then panics ("IO-APIC + timer doesn't work!");
# seen here with the load average at 7 on 2 cores. softlockup_all_cpu_backtrace:
# a guest lockup names every CPU; /init lowers the console level so that
# kernel lines do not cut the base64 sections, so only the BUG lines come
# out: IOR_VM_APPEND=ignore_loglevel brings the stacks. No softlockup_panic:
# a TCG vCPU the host starves can trip the detector and recover.
# thread=single: multi-threaded TCG (QEMU 7.2) runs a stale translation of
# kernel text another vCPU patched. Attaching or detaching a syscall
# tracepoint flips static keys (int3 patching); a vCPU in a syscall then
# loops on the int3 that memory no longer holds: both vCPUs stuck at
# syscall_trace_enter+0xd8, the code dump showing the restored jmp. Booted
# with "cat /dev/zero >/dev/null" on one vCPU and ior -check in a loop on
# the other, it hung at attach 24 multi-threaded and never in 300
# single-threaded. One host thread runs both vCPUs in turn: the guest still
# has 2 CPUs, their own rings and IPIs.
start=$(date +%s.%N)
rm -f "$LOG"
APPEND="panic=-1 loglevel=5 softlockup_all_cpu_backtrace=1 ${IOR_VM_APPEND:-}"
if [ "$ARCH" = arm64 ]; then
	# virt's PL011 console; pauth-impdef: QEMU's own pointer-authentication
	# hash, far cheaper under TCG than the architected QARMA.
	QEMU=(qemu-system-aarch64 -M virt -cpu "max,pauth-impdef=on")
	APPEND="console=ttyAMA0 $APPEND"
	VBLK=virtio-blk-device # virtio-mmio, on virt's own bus
else
	QEMU=(qemu-system-x86_64)
	APPEND="console=ttyS0 no_timer_check $APPEND"
	VBLK=virtio-blk-pci
fi
timeout -k 5 "$TIMEOUT" "${QEMU[@]}" \
	-accel tcg,thread=single -smp 2 -m 512M -nodefaults -display none -no-reboot \
	-serial "file:$LOG" -monitor none \
	-kernel "$KERNEL" -initrd "$INITRD" \
	-drive "file=$DISK,if=none,format=raw,id=blk1" -device "$VBLK,drive=blk1" \
	-append "$APPEND" \
	>"$VM/qemu.log" 2>&1
rc=$?
boot_s=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
# a failure below shows 200 console lines when they hold a kernel BUG (stacks)
grep -qE 'BUG: |Kernel panic' "$LOG" 2>/dev/null && LOG_TAIL=200
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
init_s=$(sed -n 's/^\[ *\([0-9.]*\)\] Run \/init as init process.*/\1/p' "$OUT/dmesg" 2>/dev/null | head -n 1)
pass "boot (kernel $(out uname), /init at ${init_s:-?}s guest time, qemu ran ${boot_s}s in all)"

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

# stats NAME PAIRS: ior's closing statistics on stderr: PAIRS pairs, none
# lost, none unpaired, overwritten or in flight (the scenarios are small).
stat_of() { # file label: the number after "label: " or before " label"
	sed -nE -e "s/.*$2: ([0-9]+).*/\1/p" -e "s/.* ([0-9]+) $2.*/\1/p" "$1" | head -n 1
}
stats() {
	local n=$1 want=$2 e=$OUT/$1.err got=""
	local label
	for label in "syscall pairs" "lost" "exits without an enter" "enters overwritten" "enters in flight at stop"; do
		got="$got${got:+, }$label $(stat_of "$e" "$label")"
	done
	if [ "$got" = "syscall pairs $want, lost 0, exits without an enter 0, enters overwritten 0, enters in flight at stop 0" ]; then
		pass "$n-stats ($want pairs, nothing lost, unpaired or in flight)"
	else
		fail "$n-stats" "want $want pairs and zero lost/unpaired/overwritten/in flight; ior said: $got"
	fi
}

if [ "$(out tracefs-before)" = 0 ]; then
	pass "bare (tracefs not mounted before ior ran)"
else
	fail bare "tracefs was mounted before ior ran: $(out tracefs-before)"
fi

# "ior VERSION", main.c's: the host cannot run an arm64 binary to ask it.
want_version="ior $(sed -n 's/^#define IOR_VERSION "\(.*\)"$/\1/p' main.c)"
if step_ok version && [ "$(out version.out)" = "$want_version" ]; then
	pass "version ($want_version)"
else
	fail version "want \"$want_version\", got \"$(out version.out)\"; $(step_why version)"
fi

# The tracepoints ior knows minus those this kernel has: exactly what ior
# must report missing (-check).
# ior's syscalls: the rows of the arch's table, $TABLE (MACRO(Family, name,
# nr, ...)); their number is checked against what ior -check counts.
ior_names() {
	sed -nE 's/^[[:space:]]*[A-Z0-9]+\([A-Za-z]+, ([a-z0-9_]+), [0-9]+.*/\1/p' "$TABLE" | sort -u
}
want_missing=$(comm -23 <(ior_names) <(sed -n 's/^sys_enter_//p' "$OUT/tracepoints" 2>/dev/null | sort -u) |
	tr '\n' ' ' | sed 's/ $//')
n_ior=$(ior_names | wc -l)
n_missing=$(echo "$want_missing" | wc -w)
# Proves the list came from the guest: each series lacks a syscall newer
# than itself (fchmodat2 came in 6.6, setxattrat in 6.13).
case $KSERIES in
5.10 | 6.1) newer=fchmodat2 ;;
*) newer=setxattrat ;;
esac
case " $want_missing " in
*" $newer "*) ;;
*) fail tracepoints "expected $SERIES to lack $newer (newer); ior's syscalls missing from the VM's tracefs: \"$want_missing\"" ;;
esac
sorted_words() { tr ', ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ' | sed 's/ $//'; }

# ior -check: every requirement met; tracefs mounted by ior itself; the
# missing tracepoints named.
if ! step_ok check; then
	fail check "$(step_why check); stdout: $(tail -n 5 "$OUT/check.out" | tr '\n' '|')"
else
	got=$(sed -n 's/^tracepoints: *[0-9]*\/[0-9]* syscalls (missing [0-9]*: \(.*\))$/\1/p' "$OUT/check.out" | sorted_words)
	if ! grep -qx 'ior -check: tracing can work' "$OUT/check.out"; then
		fail check "no \"ior -check: tracing can work\" line: $(tr '\n' '|' <"$OUT/check.out")"
	elif ! grep -qE '^tracefs: +/sys/kernel/tracing \(mounted by ior -check\)$' "$OUT/check.out"; then
		fail check "ior -check did not mount tracefs itself: $(grep '^tracefs:' "$OUT/check.out")"
	elif ! grep -qxF "kernel:      Linux $(out uname) $UNAME_M" "$OUT/check.out"; then
		fail check "kernel line: $(grep '^kernel:' "$OUT/check.out")"
	elif ! grep -qE "^tracepoints: +[0-9]+/$n_ior syscalls " "$OUT/check.out"; then
		fail check "ior -check counts other syscalls than the $n_ior rows of $TABLE (update ior_names in $0): $(grep '^tracepoints:' "$OUT/check.out")"
	elif ! grep -qE "^tracepoints: +$((n_ior - n_missing))/$n_ior syscalls " "$OUT/check.out" || [ "$got" != "$want_missing" ]; then
		fail check "want \"tracepoints: $((n_ior - n_missing))/$n_ior syscalls (missing $n_missing: $want_missing)\", got \"$(grep '^tracepoints:' "$OUT/check.out")\""
	elif ! grep -qE '^bpf object: +loads, verifies and attaches' "$OUT/check.out"; then
		fail check "$(grep -E '^bpf object:' "$OUT/check.out")"
	elif [ "$NOBTF" = 1 ] && { ! grep -qE '^programs: +raw ' "$OUT/check.out" ||
		! grep -qE '^(features:)? +kernel BTF: no ' "$OUT/check.out"; }; then
		fail check "without /sys/kernel/btf: want the raw programs and BTF absent: $(tr '\n' '|' <"$OUT/check.out")"
	elif [ "$NOBTF" = 0 ] && [ "$KSERIES" != 5.10 ] && { ! grep -qE '^programs: +BTF \(tp_btf' "$OUT/check.out" || grep -q warning "$OUT/check.out"; }; then
		fail check "the tp_btf programs do not load on $(out uname) (it has BTF): $(tr '\n' '|' <"$OUT/check.out")"
	elif [ "$NOBTF" = 0 ] && [ "$KSERIES" = 5.10 ] && { ! grep -qE '^programs: +raw ' "$OUT/check.out" ||
		! grep -q "lacks helper bpf_get_current_task_btf (#158)" "$OUT/check.out"; }; then
		# 5.10 has BTF and tp_btf but not bpf_get_current_task_btf (5.11)
		fail check "5.10: want the raw programs and the missing helper named: $(tr '\n' '|' <"$OUT/check.out")"
	elif [ "$NOBTF" = 0 ] && [ "$KSERIES" != 5.10 ] && [ "$KSERIES" != 6.1 ] &&
		! grep -qE '^ +typed file reads: yes \(bpf_rdonly_cast\)$' "$OUT/check.out"; then
		# bpf_rdonly_cast is 6.2+: the opens' identity by plain loads
		fail check "typed file reads: want yes on $(out uname): $(grep 'typed file reads' "$OUT/check.out")"
	elif [ "$KSERIES" = 6.1 ] && ! grep -qE '^ +typed file reads: no ' "$OUT/check.out"; then
		fail check "typed file reads: want no on 6.1 (no bpf_rdonly_cast): $(grep 'typed file reads' "$OUT/check.out")"
	else
		pass "check (tracing can work; tracefs mounted by ior; $((n_ior - n_missing))/$n_ior syscalls; $(sed -n 's/^programs: *\([a-zA-Z]*\).*/\1/p' "$OUT/check.out") programs)"
	fi
fi
if step_ok check-again && grep -qx 'ior -check: tracing can work' "$OUT/check-again.out"; then
	pass "check-again (a second -check right after the first)"
else
	fail check-again "$(step_why check-again); stdout: $(grep -E 'FAILED|cannot' "$OUT/check-again.out" | tr '\n' '|')"
fi

# Tracing by families: the members this kernel lacks are left out without
# a warning (only syscalls named by -trace-syscalls are warned about).
warn_re='^ior: warning: tracepoints missing on this kernel'
for n in flame plain; do
	lines=$(grep -c "$warn_re" "$OUT/$n.err" 2>/dev/null)
	if [ "$lines" = 0 ]; then
		pass "missing-tracepoints-$n (no warning for a family's missing members)"
	else
		fail "missing-tracepoints-$n" "want no \"ior: warning: tracepoints missing ...\" line, got $lines: $(grep "$warn_re" "$OUT/$n.err" | head -n 2)"
	fi
done

# -flamegraph: the recording of "workload basic /tmp/flame/d 10".
N=10 D=/tmp/flame/d
TOTAL=$((2 * N + 16))
RW='flags=O_RDWR|O_CREAT'
if traced_ok flame; then
	pass "flamegraph-trace (ior -pid P -flamegraph -name vm, SIGINT after the workload)"
else
	fail flamegraph-trace "$WHY"
fi
wrote=$(grep -E '^Wrote .*\.ior\.zst ' "$OUT/flame.err" 2>/dev/null | head -n 1)
rec=$(echo "$wrote" | sed -n 's/^Wrote \(.*\.ior\.zst\) .*/\1/p')
if [[ "$(basename "$rec")" =~ ^.+-vm-[0-9]{4}-[0-9]{2}-[0-9]{2}_[0-9]{2}:[0-9]{2}:[0-9]{2}\.ior\.zst$ ]] &&
	[[ "$wrote" == *"($TOTAL pairs, "* ]] &&
	grep -q "^-.* [1-9][0-9]* .*$(basename "$rec")\$" "$OUT/recording"; then
	pass "recording ($(basename "$rec"): $TOTAL pairs, $(awk '{ print $5 }' "$OUT/recording") bytes)"
else
	fail recording "want \"Wrote <host>-vm-<YYYY-MM-DD_HH:MM:SS>.ior.zst ($TOTAL pairs, ...)\" and that file; got \"$wrote\"; ls: $(head -c 200 "$OUT/recording")"
fi

stats flame "$TOTAL"

# The recording read back as CSV (ior -ior=FILE -plain): exactly the
# scenario, asserted as tests/integration/trace_basic.sh asserts it.
if ! step_ok replay; then
	fail replay "ior -ior=FILE -plain: $(step_why replay)"
else
	C=$OUT/replay.out P=$(out flame.pid)
	vm_csv() { local group=$1; shift; csv "$group" "$C" "$@"; }
	basic_checks vm_csv "$D" "$N" "$P"
fi

# ior collapsed FILE: folded stacks comm;/;path components;tracepoint COUNT
# (docs/format.md), exactly these and nothing else.
FOLDED=$(
	w="workload;/;tmp;flame;d"
	printf '%s 1\n' "$w;data;openat" "$w;data;fsync" "$w;data;newfstat" "$w;data;close" \
		"$w;data;$RENAME" "$w;data2;newfstatat" "$w;data2;$UNLINK" "$w;other;openat" \
		"$w;other;close" "$w;other;renameat2" "$w;other2;unlinkat"
	printf '%s 2\n' "$w;data;write" "$w;data;lseek"
	echo "$w;data;pread64 $N"
	echo "$w;data;read $((N + 1))"
)
if ! step_ok collapsed; then
	fail collapsed "$(step_why collapsed)"
else
	got=$(LC_ALL=C sort "$OUT/collapsed.out")
	want=$(echo "$FOLDED" | LC_ALL=C sort)
	if [ "$got" = "$want" ]; then
		pass "collapsed ($(echo "$want" | wc -l) stacks, $TOTAL syscalls)"
	else
		fail collapsed "folded stacks differ from the scenario's (want < > got):"
		diff <(echo "$want") <(echo "$got") | grep '^[<>]' | head -n 20 | sed 's/^/      /'
	fi
fi

# The guest's recording read on this host by the host's ior (x86_64; for
# arm64 guests, a recording made by the arm64 binary): the very folded
# stacks the guest's ior printed for it.
HOST_IOR=${IOR_HOST:-$PWD/ior}
if ! have flame.rec || ! step_ok collapsed; then
	fail recording-read-here "no recording came back from the guest ($(step_why collapsed))"
elif ! host=$("$HOST_IOR" collapsed "$OUT/flame.rec" 2>"$OUT/host-collapsed.err"); then
	fail recording-read-here "$HOST_IOR collapsed: $(head -c 300 "$OUT/host-collapsed.err")"
elif [ "$(LC_ALL=C sort <<<"$host")" = "$(LC_ALL=C sort "$OUT/collapsed.out")" ]; then
	pass "recording-read-here (the $ARCH guest's recording, read by $(basename "$HOST_IOR") on $(uname -m): the guest's stacks)"
else
	fail recording-read-here "stacks differ: $(diff <(LC_ALL=C sort "$OUT/collapsed.out") <(LC_ALL=C sort <<<"$host") | head -n 6 | tr '\n' ' ')"
fi

# ior -ior=FILE -nohttp: the SVG next to the recording, exactly the frames
# of those stacks; then served over HTTP (busybox wget in the VM): the same
# bytes.
svg_name="/tmp/flame/${rec%.ior.zst}.comm:path:tracepoint-by-count.svg"
if ! step_ok svg; then
	fail svg "$(step_why svg)"
elif [ "$(out svg.out)" != "Wrote $svg_name" ]; then
	fail svg "want \"Wrote $svg_name\", got \"$(out svg.out)\""
elif ! have svg.file; then
	fail svg "the SVG did not come back from the VM"
elif res=$(echo "$FOLDED" | python3 tests/vm/svgcheck.py "$OUT/svg.file" \
	"I/O flame graph: comm,path,tracepoint by count" 2>&1); then
	pass "svg ($(basename "$svg_name"), $(wc -c <"$OUT/svg.file") bytes, $(grep -o ' data-d=' "$OUT/svg.file" | wc -l) frames)"
else
	fail svg "$(echo "$res" | head -n 1)"
	echo "$res" | tail -n +2 | head -n 20 | sed 's/^/      /'
fi
if [ "$(out http.wget.rc)" != 0 ]; then
	fail http "ior said \"$(out http.out)\" ($(out http.err)); wget exited $(out http.wget.rc): $(out http.wget.err)"
elif ! cmp -s "$OUT/http.svg" "$OUT/svg.file"; then
	fail http "the served SVG differs from the written one ($(wc -c <"$OUT/http.svg") vs $(wc -c <"$OUT/svg.file") bytes)"
elif [ "$(out http.rc)" != 0 ]; then
	fail http "ior exited $(out http.rc) after SIGINT: $(out http.err)"
else
	pass "http (served the SVG on 127.0.0.1, fetched by wget, byte for byte; SIGINT exits 0)"
fi

# -plain: "workload sleepgap /tmp/gaplink", asserted as
# tests/integration/trace_timing.sh asserts it (upper bounds + TCG_SLACK_MS).
# The link names gapfile; the rows name the file the open reached when the
# kernel side could read its identity (BTF's offsets), else the link.
if ! traced_ok plain; then
	fail sleepgap-run "$WHY"
else
	C=$OUT/plain.out P=$(out plain.pid)
	stats plain 4
	csv sleepgap-rows "$C" "pid=$P" "count==4" "count[seq=1,name=openat]==1" \
		"count[seq=2,name=read]==1" "count[seq=3,name=read]==1" "count[seq=4,name=close]==1"
	csv sleepgap-100ms "$C" "pid=$P" "min_gap[seq=3]>=$((100 * MS))" "max_gap[seq=3]<$(((150 + TCG_SLACK_MS) * MS))"
	csv sleepgap-others-short "$C" "pid=$P" "max_gap[seq=1]==0" "max_gap[seq!=3]<$(((50 + TCG_SLACK_MS) * MS))"
	F=/tmp/gapfile
	[ "$NOBTF" = 1 ] && F=/tmp/gaplink
	csv sleepgap-file "$C" "pid=$P" "count[pid!=$P]==0" \
		"count[name=openat,path=$F,fd=3,flags=O_RDONLY,ret=3]==1" \
		"count[name=read,path=$F,fd=3,ret=1]==2" "count[name=close,path=$F,ret=0]==1"
fi

# -comm (a substring of the workload's name) instead of -pid: only the
# workload, not the shell's grep, sleep and kill around it.
if ! traced_ok comm; then
	fail comm-run "$WHY"
else
	C=$OUT/comm.out P=$(out comm.pid)
	stats comm 4
	csv comm-filter "$C" "count==4" "count[comm!=workload]==0" "count[pid=$P]==4" \
		"count[name=read,path=/tmp/gapfile,fd=3,ret=1]==2"
fi

# -plain: "workload threads /tmp/threadfile" on 2 vCPUs, asserted as
# tests/integration/trace_timing.sh asserts it (upper bounds + TCG_SLACK_MS).
F=/tmp/threadfile
if ! traced_ok threads; then
	fail threads-run "$WHY"
else
	C=$OUT/threads.out P=$(out threads.pid)
	read -r -a TIDS <<<"$(sed -n 's/^ready//p' "$OUT/threads.wl.out")"
	if [ "${#TIDS[@]}" != 4 ]; then
		fail threads-ready "ready line has ${#TIDS[@]} tids: $(out threads.wl.out)"
	else
		stats threads 13
		csv threads-rows "$C" "pid=$P" "count==13" "tids==5" "count[tid=$P,name=close]==1" \
			"count[name=pread64,path=$F,fd=3]==12"
		for i in 0 1 2 3; do
			s=$((20 * (i + 1)))
			csv "threads-tid$((i + 1))-gap-${s}ms" "$C" "tid=${TIDS[$i]}" \
				"count[name=pread64]==3" "max_gap[seq=1]==0" \
				"min_gap[seq!=1]>=$((s * MS))" "max_gap[seq!=1]<$(((s + 15 + TCG_SLACK_MS) * MS))"
		done
	fi
fi

# io_uring per request where -check says it is traced (Linux 5.19+ with
# BTF: the request's address is in the tracepoints), else none of its ops
# and one warning; libaio per iocb on every kernel. tests/workload.c has
# the ops; tests/integration/trace_uring.sh and trace_aio.sh the same
# assertions.
if ! traced_ok uring; then
	fail uring-run "$WHY"
else
	C=$OUT/uring.out P=$(out uring.pid)
	if grep -qE '^async ops: +io_uring io_uring_submit' "$OUT/check.out"; then
		stats uring 27
		csv uring-ops "$C" "pid=$P" "count[name=uring:read]==10" "count[name=uring:write]==2" \
			"count[name=uring:openat,path=/tmp/uringd/other,fd=5]==1" "count[name=uring:close,fd=5]==1" \
			"sum_bytes[name=uring:read]==13412" "sum_bytes[name=uring:write]==4196" \
			"count[name=uring:read,ret=-9,fd=999]==1" "count[name=uring:read,path=/tmp/uringd/data,fd=4]==6" "count[name=uring:read,file=/tmp/uringd/data]==1" \
			"max_gap[name~uring:]==0" "tids==1" "count[name=io_uring_enter]==11" \
			"count[name=uring:read,ret=-22]==1"
	elif [ "$(grep -c 'io_uring operations are not traced' "$OUT/uring.err")" = 1 ]; then
		csv uring-skipped "$C" "pid=$P" "count[name~uring:]==0" "count[name=io_uring_enter]==11" "count==13"
	else
		fail uring-skipped "io_uring not traced (-check: $(grep '^async ops:' "$OUT/check.out")) and no single warning: $(head -c 300 "$OUT/uring.err")"
	fi
fi
if ! traced_ok aio; then
	fail aio-run "$WHY"
else
	C=$OUT/aio.out P=$(out aio.pid)
	stats aio 21
	csv aio-ops "$C" "pid=$P" "count[name=aio:pread]==5" "count[name=aio:pwrite]==1" \
		"count[name=aio:fsync]==1" "count[name=aio:preadv]==1" "sum_bytes[name=aio:pread]==7268" \
		"count[name~aio:,path=/tmp/aiod/data,fd=3]==8" "max_gap[name~aio:]==0" "count[name=io_submit]==6"
fi

# uringpath, uringsq, uringwait, traced by one ior (-comm workload): as
# tests/integration/trace_uring.sh asserts them where -check says
# io_uring is traced, else no op and the syscalls alone. The workload's ready line names the ops the kernel
# lacks (its IORING_REGISTER_PROBE), which must be the series' own:
# before 5.19 (Debian's 5.10 has io_uring's renameat and unlinkat, not
# mkdirat, linkat, symlinkat, socket) only a pread64 runs; before 6.8
# (6.1) fixed_fd_install, which then fails (-EINVAL). The FIFO read of
# uringwait waits armed for poll, except on 6.1, whose io_uring hands it
# to an io-wq worker (io_uring_queue_async_work, no io_uring_poll_arm).
uring_traced() { grep -qE '^async ops: +io_uring io_uring_submit' "$OUT/check.out"; }
uring_where() { grep -qE '^async ops: .*where they ran' "$OUT/check.out"; }
case $KSERIES in
5.10) want_lacks="uring:mkdirat uring:linkat uring:symlinkat uring:socket uring:fixed_fd_install" ;;
6.1) want_lacks="uring:fixed_fd_install" ;;
*) want_lacks="" ;;
esac
# the set's run: every workload exited 0, ior after SIGINT too
set_ok() {
	local n
	WHY=""
	if ! have uringset.rc; then
		WHY="no result from the VM"
	elif [ -s "$OUT/uringset.note" ]; then
		WHY="$(out uringset.note); $(step_why uringset)"
	elif ! step_ok uringset; then
		WHY="ior exited after SIGINT with $(step_why uringset)"
	fi
	for n in uringpath uringsq uringwait; do
		[ -n "$WHY" ] || [ "$(out "$n.wl.rc")" = 0 ] || WHY="$n exited $(out "$n.wl.rc"): $(head -c 300 "$OUT/$n.wl.err")"
	done
	[ -z "$WHY" ]
}
if ! set_ok; then
	fail uringset-run "$WHY"
else
	C=$OUT/uringset.out DP=/tmp/uringpathd
	PP=$(out uringpath.pid) PQ=$(out uringsq.pid) PW=$(out uringwait.pid)
	lacks=$(sed -n 's/^ready lacks //p' "$OUT/uringpath.wl.out")
	ops=16 total=35
	case " $lacks " in
	*" uring:mkdirat "*) ops=0 total=1 ;;
	*" uring:fixed_fd_install "*) ops=15 total=31 ;;
	esac
	if [ "$lacks" = "$want_lacks" ]; then
		pass "uringpath-lacks (${lacks:-nothing})"
	else
		fail uringpath-lacks "the workload's probe says it lacks \"$lacks\", want \"$want_lacks\" on $SERIES"
	fi
	csv uringset-pids "$C" "count[pid!=$PP,pid!=$PQ,pid!=$PW]==0"
	if ! uring_traced; then
		stats uringset "$((total - ops + 5))"
		csv uringset-skipped "$C" "count[name~uring:]==0" "count[pid=$PP,name=io_uring_enter]==$ops" \
			"count[pid=$PP]==$((total - ops))" "count[pid=$PQ,name=io_uring_enter]==3" "count[pid=$PQ]==4" \
			"count[pid=$PW,name=io_uring_enter]==1" "count[pid=$PW]==1"
	else
		stats uringset "$((total + 12))"
	fi
	if [ "$ops" = 0 ]; then
		csv uringpath-none "$C" "pid=$PP" "count==1" "count[name=pread64,path=$DP/data,fd=4,ret=64]==1"
	elif uring_traced; then
		csv uringpath-paths "$C" "pid=$PP" "count==$total" "count[name~uring:]==$ops" \
			"count[name=io_uring_enter]==$ops" "count[name=uring:mkdirat,path=$DP/d,ret=0]==1" \
			"count[name=uring:renameat,path=$DP/data,path2=$DP/d/moved,ret=0]==1" \
			"count[name=uring:symlinkat,path=d/moved,path2=$DP/sym,ret=0]==1" \
			"count[name=pread64,path=$DP/d/moved,fd=4,ret=64]==1"
		csv uringpath-direct "$C" "pid=$PP" "count[name=uring:openat,path=$DP/hard,ret=0,fd=]==1" \
			"count[name=uring:read,path=$DP/hard,ret=100,fd=]==1" \
			"count[name=uring:read,path=$DP/d/moved,ret=50,fd=]==1" \
			"count[name=uring:close,path=$DP/hard,ret=0,fd=]==1" \
			"count[name=uring:socket,path=socket:unix,ret=0,fd=]==1" \
			"count[name=uring:send,path=socket:unix,ret=-107,fd=]==1"
		if [ "$ops" = 16 ]; then
			csv uringpath-install "$C" "pid=$PP" \
				"count[name=uring:fixed_fd_install,path=socket:unix,fd=6,ret=6,flags=O_RDWR]==1" \
				"count[name=close,path=socket:unix,fd=6,flags=O_RDWR,ret=0]==1" \
				"count[name=pread64,path=$DP/d/moved,fd=6,ret=10,flags=O_RDONLY|O_CLOEXEC|O_LARGEFILE]==1"
		else
			csv uringpath-install-lacking "$C" "pid=$PP" "count[name=uring:fixed_fd_install,ret=-22,fd=]==1" \
				"count[fd=6]==0"
		fi
		uring_where && csv uringpath-where "$C" "pid=$PP" "count[name~uring:,where=]==0" \
			"count[name!~uring:,where!=]==0"
	fi
	if uring_traced; then
		# SQPOLL: the ops are the owner's, so -comm keeps them
		csv uringsq-ops "$C" "pid=$PQ" "count[name=uring:read]==5" "count[name=uring:write]==1" \
			"sum_bytes[name=uring:read,path=/tmp/uringsqd/data,fd=4]==8192" \
			"count[name=io_uring_enter]==3" "count[name=pread64]==1" "count==10" "tids==1" "count[tid=$PQ]==10"
		w=inline # without the where tracepoints (docs/kernels.md)
		uring_where && w=poll
		uring_where && [ "$KSERIES" = 6.1 ] && w=io-wq
		csv "uringwait-$w" "$C" "pid=$PW" "count[name=uring:read,path=/tmp/uring.fifo,fd=4,ret=6]==1" \
			"count[name=io_uring_enter]==1" "count==2" "count[name=uring:read,where=$w]==1"
	fi
fi

# The read loop against 64 KiB rings: whatever came as events or as
# summaries, the recording counts every pread64 and its byte; nothing lost.
if ! traced_ok saturate; then
	fail saturate-run "$WHY"
else
	summ=$(stat_of "$OUT/saturate.err" summarized) lost=$(stat_of "$OUT/saturate.err" lost)
	count=$(awk '$1 == "pread64" { print $2 }' "$OUT/saturate-count.out")
	bytes=$(awk '$1 == "pread64" { print $2 }' "$OUT/saturate-bytes.out")
	if [ "$count" = 200000 ] && [ "$bytes" = 200000 ] && [ "$lost" = 0 ]; then
		pass "saturate (200000 pread64 and bytes exact, lost 0, $summ of them summarized)"
	else
		fail saturate "pread64 count ${count:-missing} and bytes ${bytes:-missing} (want 200000 each), lost ${lost:-missing}, summarized ${summ:-missing}: $(grep -E '^ior: (lost|traced)' "$OUT/saturate.err" | tr '\n' ' ')"
	fi
fi

# Block requests on the guest's second virtio disk (vda, its only disk):
# the completed reads, writes and flushes and the sectors in the guest's
# /proc/diskstats for it equal ior's Devices table exactly; each O_DIRECT
# pair carries its one request of 4096 bytes, the fsync its flush.
# tests/integration/trace_block.sh asserts the same on a loop device.
blk() { # NAME ARGS...: tests/lib/blockcheck.py ARGS
	local name=$1 res
	shift
	if res=$(python3 tests/lib/blockcheck.py "$@" 2>&1); then
		pass "$name ($(echo "$res" | tr '\n' ';' | sed 's/;$//; s/  */ /g'))"
	else
		fail "$name" "$(echo "$res" | tail -n 1); $(echo "$res" | head -n -1 | tr '\n' ';')"
	fi
}
if ! traced_ok block; then
	fail block-run "$WHY; modules: $(tr '\n' ' ' <"$OUT/modules.log" 2>/dev/null)"
elif ! have block.before || ! have block.after; then
	fail block-run "no /proc/diskstats copies came back"
else
	blk block-diskstats diskstats "$OUT/block.before" "$OUT/block.after" vda "$OUT/block.err"
	blk block-pwrites pairs "$OUT/block.out" pwrite64 /dev/vda 32 4096
	blk block-preads pairs "$OUT/block.out" pread64 /dev/vda 32 4096
	if grep -qE '^ +block requests: yes \(block_io_start' "$OUT/check.out"; then
		blk block-fsync fsync "$OUT/block.out" /dev/vda
	else
		# Before block_io_start (6.5) the PREFLUSH write that starts
		# fsync's flush is never inserted or issued: nothing names the
		# fsync's thread, and the flush (queued again by kblockd) is
		# the kworker's. docs/kernels.md says so.
		blk block-fsync-kworker norequests "$OUT/block.out" fsync
		blk block-flush-kworker devprocs "$OUT/block.err" vda flush 'kworker' 'workload'
	fi
fi

[ "$failed" = 0 ] || show_log_tail
exit $((failed > 0))
