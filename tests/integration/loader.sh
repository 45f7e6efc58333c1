#!/bin/bash
# loader/ against the running kernel (root): the real object's records
# arrive through perf rings, globals/subprograms/maps of a test object run
# as compiled, ~240 tracepoints attach well under a second, and ior -check
# passes as root, fails with the capability hint unprivileged, and mounts
# tracefs when it is missing (in a private mount namespace, so nothing else
# on the machine loses tracefs and nothing needs restoring).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
PROBE=$B/tests/loader_probe
OBJ=$B/bpf.o
IOR=${IOR:-$PWD/ior}

pass() { echo "PASS: loader.sh: $1"; }
fail() { echo "FAIL: loader.sh: $1: $2"; }
val() { sed -n "s/^$1=//p" <<<"$2" | head -n1; }

for f in "$PROBE" "$OBJ"; do
	[ -e "$f" ] || { fail setup "$f missing (make tests)"; exit 1; }
done

# 1. ior's object: 5 getpid enters and exits of a child, and its exit.
out=$("$PROBE" events "$OBJ" 2>&1)
if [ "$(val enter "$out")" = 5 ] && [ "$(val exit "$out")" = 5 ] &&
	[ "$(val exit_ret_ok "$out")" = 5 ] && [ "$(val proc_exit "$out")" -ge 1 ] 2>/dev/null; then
	pass "bpf.o records of a child's getpid arrive through the perf rings"
else
	fail "bpf.o records through perf rings" "$(tr '\n' ' ' <<<"$out")"
fi

# The raw programs batch records per CPU: none arrive until ior_flush runs
# on each CPU (BPF_PROG_TEST_RUN), then all of them, split back exactly.
out=$("$PROBE" events-raw "$OBJ" 2>&1)
if [ "$(val before_flush "$out")" = 0 ] && [ "$(val enter "$out")" = 5 ] &&
	[ "$(val exit "$out")" = 5 ] && [ "$(val exit_ret_ok "$out")" = 5 ] &&
	[ "$(val proc_exit "$out")" -ge 1 ] 2>/dev/null && [ "$(val malformed "$out")" = 0 ] &&
	[ "$(val flush_err "$out")" = 0 ]; then
	pass "the same through raw tracepoints sys_enter/sys_exit, batched until ior_flush"
else
	fail "bpf.o records through raw tracepoints" "$(tr '\n' ' ' <<<"$out")"
fi

# Never flushed (kernels < 5.10 cannot run ior_flush on a CPU): after
# detaching, every record is still in the batches map, where ior reads it
# at stop (bpf/event.h's struct ior_batch is the layout both sides use).
out=$("$PROBE" events-map "$OBJ" 2>&1)
if [ "$(val enter "$out")" = 5 ] && [ "$(val exit "$out")" = 5 ] &&
	[ "$(val exit_ret_ok "$out")" = 5 ] && [ "$(val proc_exit "$out")" -ge 1 ] 2>/dev/null &&
	[ "$(val malformed "$out")" = 0 ]; then
	pass "unflushed records read back from the batches map after detach"
else
	fail "records from the batches map" "$(tr '\n' ' ' <<<"$out")"
fi

# 2. A test object: .rodata globals set before load, .text subprograms,
#    static .data, a hash map; .rodata frozen afterwards (EPERM = -1).
out=$("$PROBE" features tests/unit/bpf/features.elf 2>&1)
if [ "$(val lookup "$out")" = 0 ] && [ "$(val value_ok "$out")" = 1 ] &&
	[ "$(val rodata_write "$out")" = -1 ]; then
	pass "globals, subprograms and maps compute what the C says"
else
	fail "features.elf" "$(tr '\n' ' ' <<<"$out")"
fi
# Its kernel functions: bpf_rdonly_cast (6.2+: here) called on every
# getpid, a missing one behind a guard dropped as dead code, and the
# object's BTF (an extern DATASEC the kernel refuses as is) accepted.
if [ "$(val kfunc "$out")" = 1 ] && [ "$(val casts "$out")" = "$(val calls "$out")" ] &&
	[ "$(val casts "$out")" -gt 0 ] && grep -q '^warning=$' <<<"$out"; then
	pass "kernel functions: resolved in the kernel's BTF and called; a missing one guarded"
else
	fail "features.elf kfuncs" "$(tr '\n' ' ' <<<"$out")"
fi

# 3. A program the verifier rejects: named, with errno, source lines and
#    the verifier's reason; the whole log on request.
out=$("$PROBE" reject tests/unit/bpf/reject.elf 2>&1)
if [ "$(val load "$out")" = -13 ] &&
	grep -q "^prog 'no_null_check': rejected by the verifier: Permission denied" <<<"$out" &&
	grep -q '([0-9]* lines omitted; -verbose shows the whole log)' <<<"$out" &&
	grep -q '@ reject.c:[0-9]' <<<"$out" && grep -q "invalid mem access 'map_value_or_null'" <<<"$out" &&
	[ "$(sed -n '/^--- error/,$p' <<<"$out" | grep -c '')" = 23 ]; then
	pass "verifier rejection: program, reason, source line, the log's last 20 lines"
else
	fail "verifier rejection message" "$(tr '\n' '|' <<<"$out")"
fi
out=$("$PROBE" reject tests/unit/bpf/reject.elf v 2>&1)
lines=$(val log_lines "$out")
shown=$(sed -n '/^--- error/,$p' <<<"$out" | grep -c '')
if [ "${lines:-0}" -gt 20 ] && [ "$shown" -ge "$lines" ] && ! grep -q 'omitted' <<<"$out"; then
	pass "verbose verifier error carries the whole log ($lines lines)"
else
	fail "verbose verifier error" "log $lines lines, shown $shown: $(tr '\n' '|' <<<"$out")"
fi

# BTF the kernel refuses (our parser accepts it): load without, warn once.
out=$("$PROBE" btf-rejected "$OBJ" 2>&1)
if [ "$(val load "$out")" = 0 ] && [ "$(val prog_fd_ok "$out")" = 1 ] &&
	grep -q "^warning=kernel rejected the BPF object's BTF (Invalid argument): loading without it" <<<"$out"; then
	pass "BTF rejected by the kernel: loads without it and says so"
else
	fail "BTF rejected by the kernel" "$(tr '\n' '|' <<<"$out")"
fi

# 4. Attaching 240 tracepoints (detaching is the kernel's slow part: one
#    RCU grace period per tracepoint, reported for information).
out=$("$PROBE" attach "$OBJ" 240 2>&1)
n=$(val attached "$out") ms=$(val attach_ms "$out")
if [ "$n" = 240 ] && [ "$ms" -lt 500 ] 2>/dev/null; then
	pass "attached $n tracepoints in ${ms} ms (detach $(val detach_ms "$out") ms)"
else
	fail "attach 240 tracepoints" "$(tr '\n' ' ' <<<"$out")"
fi

if [ ! -x "$IOR" ]; then
	fail "ior -check" "$IOR not built (make ior)"
	exit 1
fi

# 5. ior -check as root.
out=$("$IOR" -check 2>&1)
rc=$?
if [ $rc = 0 ] && grep -q '^ior -check: tracing can work' <<<"$out"; then
	pass "ior -check exits 0 as root"
else
	fail "ior -check as root" "exit $rc: $(tr '\n' '|' <<<"$out")"
fi
if grep -q '^programs: *BTF (tp_btf' <<<"$out" && ! grep -q 'warning' <<<"$out"; then
	pass "ior -check: the tp_btf programs load and attach here"
else
	fail "ior -check tp_btf programs" "$(tr '\n' '|' <<<"$out")"
fi
# the features table: every row known, all present on this kernel (6.18, BTF)
table=$(sed -n '/^features:/,/^ior -check/p' <<<"$out" | grep -v '^ior -check')
rows=$(grep -cE ': yes( \(|$)' <<<"$table")
all=$(grep -c . <<<"$table")
if [ "$rows" = "$all" ] && [ "$rows" -ge 10 ] && grep -qE '^features: +kernel BTF: yes \(/sys/kernel/btf/vmlinux\)$' <<<"$out" &&
	grep -qE '^ +dentry inline name: yes \(d_(shortname|iname)\)$' <<<"$out"; then
	pass "ior -check: the features table, every feature present here"
else
	fail "ior -check features" "$rows of $all present: $(tr '\n' '|' <<<"$out")"
fi
out=$(IOR_KERNEL_BTF=/nonexistent/vmlinux "$IOR" -check 2>&1)
if [ $? = 0 ] && grep -q '^programs: *raw' <<<"$out" &&
	grep -q 'warning: kernel BTF /nonexistent/vmlinux: cannot read: No such file or directory' <<<"$out" &&
	grep -qE '^features: +kernel BTF: no \(.*/nonexistent/vmlinux.*\); without it: raw tracepoints' <<<"$out" &&
	grep -qE '^ +file identity: no \(read by the tp_btf programs\); without it: fds are named' <<<"$out"; then
	pass "ior -check without the kernel's BTF: raw programs, and why"
else
	fail "ior -check without BTF" "$(tr '\n' '|' <<<"$out")"
fi
# A valid BTF that is not a kernel's (bpf.o's own): the first field ior
# needs is missing, said with the file; the raw programs serve.
OWN_BTF=$(mktemp)
if llvm-objcopy --dump-section .BTF="$OWN_BTF" "$OBJ" "$OWN_BTF.o" 2>/dev/null; then
	out=$(IOR_KERNEL_BTF=$OWN_BTF "$IOR" -check 2>&1)
	if [ $? = 0 ] && grep -q '^programs: *raw' <<<"$out" &&
		grep -q "warning: kernel BTF $OWN_BTF: no task_struct.pid; tracing with raw tracepoints" <<<"$out"; then
		pass "ior -check with a BTF that lacks task_struct: raw programs, and which field"
	else
		fail "ior -check with a BTF lacking task_struct" "$(tr '\n' '|' <<<"$out")"
	fi
else
	fail "ior -check with a BTF lacking task_struct" "llvm-objcopy could not extract .BTF from $OBJ"
fi
rm -f "$OWN_BTF" "$OWN_BTF.o"

# 6. Unprivileged: exit 1 with the capability hint.
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$IOR" -check 2>&1)
rc=$?
if [ $rc = 1 ] && grep -q 'run as root or grant CAP_BPF and CAP_PERFMON' <<<"$out"; then
	pass "ior -check unprivileged exits 1 with the capability hint"
else
	fail "ior -check unprivileged" "exit $rc: $(tr '\n' '|' <<<"$out")"
fi

# 7. No tracefs anywhere: ior -check mounts it on /sys/kernel/tracing.
out=$(unshare --mount --propagation private bash -c '
	umount /sys/kernel/tracing 2>/dev/null
	umount /sys/kernel/debug 2>/dev/null
	before=$(stat -f -c %T /sys/kernel/tracing)
	"$1" -check; echo "rc=$?"
	echo "before=$before after=$(stat -f -c %T /sys/kernel/tracing)"' _ "$IOR" 2>&1)
if grep -q 'mounted by ior -check' <<<"$out" &&
	grep -q 'after=tracefs' <<<"$out" && ! grep -q 'before=tracefs' <<<"$out"; then
	pass "ior -check mounts tracefs when none is mounted"
else
	fail "ior -check without tracefs" "$(tr '\n' '|' <<<"$out")"
fi

# 8. A run loads only the programs it attaches (plus ior_flush, run, never
# attached), the same set -check reports: of the object's tracepoint
# programs (prog_type 5), only io_uring's (two, and two for registered
# files, one for refused requests, two for where they ran) and libaio's
# four when -check says they are traced, the block layer's four (five with
# block_io_start) and the page cache's one when its features say yes (the
# per-syscall ones only test probes use).
# Counted from the running tracer's fds.
check_out=$("$IOR" -check 2>&1)
want=$(sed -n 's/.*attaches (\([0-9]*\) of its \([0-9]*\) programs.*/\1 \2/p' <<<"$check_out")
async_line=$(grep '^async ops:' <<<"$check_out")
want5=0
grep -q 'io_uring io_uring_submit' <<<"$async_line" && want5=$((want5 + 2))
grep -q '+ registered files' <<<"$async_line" && want5=$((want5 + 2))
grep -q '+ refused requests' <<<"$async_line" && want5=$((want5 + 1))
grep -q '+ where they ran' <<<"$async_line" && want5=$((want5 + 2))
grep -q 'libaio io_submit' <<<"$async_line" && want5=$((want5 + 4))
grep -q '^ *block requests: yes (block_io_start' <<<"$check_out" && want5=$((want5 + 5))
grep -q '^ *block requests: yes (block_rq_insert' <<<"$check_out" && want5=$((want5 + 4))
grep -q '^ *page cache fills: yes' <<<"$check_out" && want5=$((want5 + 1))
"$IOR" -plain -duration 3 >/dev/null 2>&1 &
pid=$!
sleep 1.5
types=$(grep -h '^prog_type:' /proc/$pid/fdinfo/* 2>/dev/null | awk '{print $2}' | sort -n | tr '\n' ' ')
wait $pid
n=$(wc -w <<<"$types")
if [ -n "$want" ] && [ "$n" = "${want% *}" ] && [ "$n" -lt "${want#* }" ] &&
	[ "$(tr ' ' '\n' <<<"$types" | grep -cx 5)" = "$want5" ]; then
	pass "a run loads only what it attaches: $n of ${want#* } programs, as -check says (types $types)"
else
	fail "a run loads only what it attaches" "program fds of types: ${types:-none}; -check: ${want:-nothing}, $want5 tracepoint programs"
fi
