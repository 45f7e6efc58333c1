#!/bin/bash
# ior -- CMD: the command is traced from its first syscall with all its
# descendants, ior exits with its status, runs it as the sudo user; -follow
# takes the descendants a -pid makes; -pid/-tid runs end with their target.
# Workload scenarios: "basic", "forktree" and "ids" in tests/workload.c
# (WORKLOAD_NOWAIT=1: no "ready", no wait for SIGUSR1).
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/expect_basic.sh"
setup

N=20
TOTAL=$((2 * N + 16))

# ior ARGS in the foreground, bounded; IOR_OUT, IOR_ERR, IOR_RC. CMD
# inherits ior's environment: the workload runs at once.
run_ior() {
	RUN=$((RUN + 1))
	IOR_OUT="$T/ior.$RUN.csv" IOR_ERR="$T/ior.$RUN.err"
	WORKLOAD_NOWAIT=1 timeout -k 5 60 "$IOR" "$@" >"$IOR_OUT" 2>"$IOR_ERR" </dev/null
	IOR_RC=$?
}

# The (syscall, ret, file) rows, sorted: the same for the same scenario.
rows() { python3 -c '
import sys; sys.path.insert(0, sys.argv[1]); import csvcheck
rows, errors = csvcheck.load(sys.argv[2])
for r in sorted((r["name"], r["ret"], r["file"]) for r in rows): print(*r)' "$TESTS_DIR/lib" "$1"; }

# ---- -- CMD gives the rows -pid gives -------------------------------------
D="$T/basic"
mkdir -p "$D"
if ! trace_scenario -- basic "$D" "$N"; then
	fail pid-run "$WHY"
else
	rows "$IOR_OUT" >"$T/pid.rows"
	run_ior -plain -- "$WORKLOAD" basic "$D" "$N"
	P=$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import csvcheck
rows, e = csvcheck.load(sys.argv[2]); print(",".join(sorted({str(r["pid"]) for r in rows})))' "$TESTS_DIR/lib" "$IOR_OUT")
	if [ "$IOR_RC" != 0 ]; then
		fail cmd-run "exit $IOR_RC: $(tail -c 400 "$IOR_ERR")"
	else
		pass cmd-run
		basic_checks check "$D" "$N" "$P"
		check_stats cmd-statistics "syscall pairs=$TOTAL" "lost=0" "exits without an enter=0" \
			"enters in flight at stop=0"
		if rows "$IOR_OUT" | cmp -s - "$T/pid.rows"; then
			pass cmd-rows-equal-pid-rows
		else
			fail cmd-rows-equal-pid-rows "$(rows "$IOR_OUT" | diff - "$T/pid.rows" | head -n 6 | tr '\n' ' ')"
		fi
		if grep -qxF "ior: $WORKLOAD (pid $P) exited with status 0; stopping" "$IOR_ERR"; then
			pass cmd-says-why-it-stops
		else
			fail cmd-says-why-it-stops "$(head -c 400 "$IOR_ERR")"
		fi
	fi
fi

# ---- CMD from a long path is named whole (a clean clone's path is long) ----
LONG="$T/$(printf 'a%.0s' $(seq 1 120))/$(printf 'b%.0s' $(seq 1 120))"
mkdir -p "$LONG" "$D/long"
ln -s "$WORKLOAD" "$LONG/workload"
run_ior -plain -- "$LONG/workload" basic "$D/long" 1
if grep -qE "^ior: $LONG/workload \(pid [0-9]+\) exited with status 0; stopping$" "$IOR_ERR"; then
	pass cmd-long-path-named-whole
else
	fail cmd-long-path-named-whole "exit $IOR_RC: $(head -c 600 "$IOR_ERR")"
fi

# ---- a tree 3 levels below CMD, every level with its 3 rows ----------------
D="$T/tree"
mkdir -p "$D"
run_ior -plain -- "$WORKLOAD" forktree "$D"
if [ "$IOR_RC" != 0 ]; then
	fail forktree-run "exit $IOR_RC: $(tail -c 400 "$IOR_ERR")"
else
	args=()
	for k in 0 1 2 3; do
		p=$(cat "$D/L$k")
		F="flags=O_WRONLY|O_CREAT|O_TRUNC"
		args+=("count[pid=$p]==3" "count[pid=$p,name=openat,path=$D/L$k,ret=3,$F]==1"
			"count[pid=$p,name=write,path=$D/L$k,ret=${#p}]==0"
			"count[pid=$p,name=write,path=$D/L$k,ret=$((${#p} + 1))]==1"
			"count[pid=$p,name=close,path=$D/L$k]==1")
	done
	check forktree-every-level "count==12" "pids==4" "${args[@]}"
fi

# ---- exit statuses ----------------------------------------------------------
for c in "0:exit 0" "3:exit 3" "137:kill -KILL \$\$" "143:kill -TERM \$\$"; do
	want=${c%%:*}
	run_ior -plain -- /bin/sh -c "${c#*:}"
	if [ "$IOR_RC" = "$want" ]; then
		pass "exit-status-$want"
	else
		fail "exit-status-$want" "ior exited $IOR_RC: $(tail -c 300 "$IOR_ERR")"
	fi
done
if grep -q '^ior: /bin/sh (pid [0-9]*) was killed by signal 15 (.*); stopping$' "$IOR_ERR"; then
	pass exit-signal-said
else
	fail exit-signal-said "$(head -c 400 "$IOR_ERR")"
fi

# a SIGTERM to ior goes on to CMD; ior exits with CMD's status
RUN=$((RUN + 1))
IOR_OUT="$T/ior.$RUN.csv" IOR_ERR="$T/ior.$RUN.err"
"$IOR" -plain -- /bin/sleep 30 >"$IOR_OUT" 2>"$IOR_ERR" </dev/null &
IOR_PID=$!
wait_until 10 file_has "$IOR_ERR" '^ior: tracing'
kill -TERM "$IOR_PID"
if wait_ior 10 && [ "$IOR_RC" = 143 ] && grep -q 'sleep (pid [0-9]*) was killed by signal 15' "$IOR_ERR"; then
	pass sigterm-forwarded
else
	fail sigterm-forwarded "ior exited ${IOR_RC:-?}: $WHY $(tail -c 300 "$IOR_ERR")"
fi

# -duration ends the trace first: ior still waits for CMD, exits with its status
run_ior -plain -duration 0.5 -- /bin/sh -c 'sleep 1.5; exit 5'
if [ "$IOR_RC" = 5 ] && grep -q '^ior: tracing stopped; waiting for /bin/sh (pid [0-9]*) to exit$' "$IOR_ERR"; then
	pass duration-waits-for-cmd
else
	fail duration-waits-for-cmd "exit $IOR_RC: $(head -c 400 "$IOR_ERR")"
fi

# ---- who CMD runs as ---------------------------------------------------------
U="$T/ids"
mkdir -p "$U" && chmod 1777 "$U" "$T"
run_ior -plain -- "$WORKLOAD" ids "$U/root"
SUDO_UID=65534 SUDO_GID=65534 run_ior -plain -- "$WORKLOAD" ids "$U/sudo"
if [ "$(cut -d' ' -f1,2 "$U/root" 2>/dev/null)" = "0 0" ] &&
	[ "$(cat "$U/sudo" 2>/dev/null)" = "65534 65534 1 65534" ]; then
	pass sudo-uid-drop
else
	fail sudo-uid-drop "root run: $(cat "$U/root" 2>&1), SUDO_UID=65534: $(cat "$U/sudo" 2>&1) $(tail -c 300 "$IOR_ERR")"
fi
check sudo-uid-traced "count==3" "count[name=write,path=$U/sudo]==1"
NOBODY=$(awk -F: '$3 == 65534 { print $1; exit }' /etc/passwd)
run_ior -plain -u "$NOBODY" -- "$WORKLOAD" ids "$U/u"
if [ "$(cat "$U/u" 2>/dev/null)" = "65534 65534 1 65534" ]; then
	pass u-user
else
	fail u-user "-u $NOBODY: $(cat "$U/u" 2>&1) $(tail -c 300 "$IOR_ERR")"
fi
if ior_fails 1 '^ior: -u ior-no-such-user: no such user in /etc/passwd' -plain -u ior-no-such-user -- /bin/true &&
	ior_fails 1 '^ior: ior-no-such-command: command not found in PATH$' -plain -- ior-no-such-command &&
	ior_fails 2 '^ior: -- CMD traces the command it starts: drop -pid' -plain -pid 1 -- /bin/true &&
	ior_fails 2 '^ior: -- wants a command' -plain -- &&
	ior_fails 2 '^ior: -u says who runs the command' -plain -u root &&
	ior_fails 2 '^ior: -follow follows the process -pid names' -plain -follow &&
	ior_fails 2 '^ior: -follow follows a process: use -pid, not -tid' -plain -tid 1 -follow; then
	pass cmd-usage-errors
else
	fail cmd-usage-errors "$WHY"
fi
# without the kernel's BTF new processes cannot be followed: one error,
# after the raw-tracepoint warning, and the held command is gone
IOR_KERNEL_BTF=$T/no-such-btf run_ior -plain -- /bin/sleep 7.31
if [ "$IOR_RC" = 1 ] && [ ! -s "$IOR_OUT" ] && ! pgrep -f '^/bin/sleep 7.31$' >/dev/null &&
	grep -q "^ior: loading the BPF programs: following new processes needs task_struct's layout" "$IOR_ERR"; then
	pass cmd-needs-btf
else
	fail cmd-needs-btf "exit $IOR_RC: $(head -c 400 "$IOR_ERR")"
fi

# ---- -follow: the processes a -pid makes after the start ----------------------
D="$T/follow"
mkdir -p "$D"
if ! start_workload forktree "$D" || ! start_ior -plain -pid "$WL_PID" -follow; then
	fail follow-run "$WHY"
else
	P=$WL_PID
	release_workload
	if ! wait_workload 30 || ! wait_ior 10; then
		fail follow-run "$WHY"
	else
		args=()
		for k in 0 1 2 3; do
			p=$(cat "$D/L$k")
			args+=("count[pid=$p]==3" "count[pid=$p,name=write,path=$D/L$k]==1")
		done
		check follow-every-level "count==12" "pids==4" "${args[@]}"
		if [ "$IOR_RC" = 0 ] && grep -q "^ior: pid $P and its descendants exited; stopping$" "$IOR_ERR"; then
			pass follow-ends-with-the-tree
		else
			fail follow-ends-with-the-tree "exit $IOR_RC: $(head -c 400 "$IOR_ERR")"
		fi
	fi
fi

# a process whose leader thread ends first stays followed until its last thread
F="$T/leaderexit"
if ! start_workload leaderexit "$F" || ! start_ior -plain -pid "$WL_PID" -follow; then
	fail follow-leader-exit-run "$WHY"
else
	P=$WL_PID
	release_workload
	if ! wait_workload 30 || ! wait_ior 10; then
		fail follow-leader-exit-run "$WHY"
	else
		check follow-outlives-its-leader "count==3" "count[pid=$P,tid!=$P]==3" \
			"count[name=openat,path=$F,ret=3]==1" "count[name=write,path=$F,ret=1]==1" \
			"count[name=close,path=$F]==1"
		grep -q "^ior: pid $P and its descendants exited; stopping$" "$IOR_ERR" ||
			fail follow-leader-exit-end "$(head -c 400 "$IOR_ERR")"
	fi
fi

# ---- -follow: the descendants a -pid has at the start, and theirs --------------
# P waits for its child C, which waits on a FIFO before it starts cat: C is
# found in /proc, cat is made after the start
mkfifo "$T/fifo" && echo data >"$T/fdata"
sh -c 'sh -c "read x < \$0; cat \$1 > /dev/null" "$0" "$1" & wait' "$T/fifo" "$T/fdata" &
P=$!
if ! wait_until 5 pgrep -P "$P" >/dev/null || ! start_ior -plain -pid "$P" -follow; then
	fail follow-existing-run "${WHY:-no child of $P}"
	kill "$P" 2>/dev/null
else
	C=$(pgrep -P "$P")
	echo go >"$T/fifo"
	if ! wait_ior 10; then
		fail follow-existing-run "$WHY"
	elif [ "$IOR_RC" = 0 ] && grep -q "^ior: pid $P and its descendants exited; stopping$" "$IOR_ERR"; then
		check follow-existing-children "count[pid=$C,name=read]>=1" \
			"count[name=openat,path=$T/fdata,ret=3]==1" "count[pid=$C,path=$T/fdata]==0" \
			"count[name=read,path=$T/fdata,ret=5]==1" "pids==2"
	else
		fail follow-existing-run "exit $IOR_RC: $(head -c 400 "$IOR_ERR")"
	fi
fi
wait "$P" 2>/dev/null

# ---- -pid and -tid runs end by themselves -------------------------------------
D="$T/end"
mkdir -p "$D"
if ! start_workload basic "$D" "$N" || ! start_ior -plain -pid "$WL_PID"; then
	fail pid-end-run "$WHY"
else
	P=$WL_PID
	release_workload
	if ! wait_workload 30 || ! wait_ior 10; then
		fail pid-end-run "$WHY"
	elif [ "$IOR_RC" = 0 ] && grep -q "^ior: pid $P exited; stopping$" "$IOR_ERR"; then
		pass pid-ends-with-its-process
		check pid-end-rows "count==$TOTAL" "count[pid!=$P]==0"
	else
		fail pid-ends-with-its-process "exit $IOR_RC: $(head -c 400 "$IOR_ERR")"
	fi
fi
echo x >"$T/end/data"
start_workload threads "$T/end/data"
TID=${WL_READY# }
TID=${TID%% *}
if [ -z "$WL_PID" ] || ! start_ior -plain -tid "$TID"; then
	fail tid-end-run "$WHY"
else
	release_workload
	if ! wait_workload 30 || ! wait_ior 10; then
		fail tid-end-run "$WHY"
	elif [ "$IOR_RC" = 0 ] && grep -q "^ior: tid $TID exited; stopping$" "$IOR_ERR"; then
		pass tid-ends-with-its-thread
		check tid-end-rows "count==3" "count[tid!=$TID]==0"
	else
		fail tid-ends-with-its-thread "exit $IOR_RC: $(head -c 400 "$IOR_ERR")"
	fi
fi

finish
