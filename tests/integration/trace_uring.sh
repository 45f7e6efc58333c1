#!/bin/bash
# io_uring per operation: the workload's "uring" scenario on raw io_uring
# syscalls (tests/workload.c has the exact ops): one uring:OP pair per
# request, charged to the submitter, named through its fd table (an
# openat op's fd too), bytes = the result, EBADF an error, IOSQE_ASYNC
# (io-wq) charged to the submitter too, a registered (fixed) file named
# through the ring's table, a request refused before submission (an
# unknown sqe flag) a pair with its error; async pairs stay out of the gap
# chain (durationToPrevNs 0) and the syscalls around them keep theirs
# (only the first has none; tests/unit/test_trace_pair.c checks them exactly).
. "$(dirname "$0")/../lib/common.sh"
setup

D="$T/uring"
mkdir -p "$D"
cd "$T" || exit 1 # recordings are written here

# where_counts OP WHERE: ops OP that ran WHERE in the run's recording
recorded() { sed -n 's/^Wrote \(.*\) ([0-9]* pairs, [0-9]* bytes)$/\1/p' "$IOR_ERR" | tail -n 1; }
where_count() {
	"$IOR" collapsed -fields tracepoint,where "$(recorded)" 2>/dev/null |
		awk -v k="$1;$2" '$1 " " $2 == k || substr($0, 1, length(k) + 1) == k " " { n += $NF } END { print n + 0 }'
}

if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" != 0 ]; then
	echo "SKIP: uring: io_uring is disabled here (kernel.io_uring_disabled)"
elif ! trace_scenario -plainColumns=where -flamegraph -name uring -- uring "$D"; then
	fail uring-run "$WHY"
else
	P=$WL_LAST
	check uring-counts pid=$P "count[name=uring:read]==10" "count[name=uring:write]==2" \
		"count[name=uring:openat]==1" "count[name=uring:close]==1" "count[name~uring:]==14" \
		"count[name=uring:read,ret=-22,file=]==1" "count[name=io_uring_enter]==11" \
		"count[name=io_uring_register]==1" "count[name=pread64]==1" "count==27"
	check uring-bytes pid=$P "sum_bytes[name=uring:read]==13412" "sum_bytes[name=uring:write]==4196"
	check uring-files pid=$P "count[name=uring:read,path=$D/data,fd=4]==6" "count[name=uring:read,file=]==1" \
		"sum_bytes[name=uring:read,path=$D/data]==13312" \
		"count[name=uring:read,file=$D/data,ret=1024]==1" \
		"count[name=uring:write,path=$D/data,fd=4]==1" \
		"count[name=uring:openat,path=$D/other,fd=5,ret=5]==1" \
		"count[name=uring:write,path=$D/other,fd=5,ret=100]==1" \
		"count[name=uring:read,path=$D/other,fd=5,ret=100]==1" \
		"count[name=uring:close,path=$D/other,fd=5,ret=0]==1"
	check uring-errors pid=$P "count[name=uring:read,ret=-9,fd=999,path=]==1" "count[ret=-9]==1" \
		"min_ret[name!~uring:]>=0" "min_ret[name!=uring:read]>=0" "count[ret=-22]==1"
	check uring-submitter pid=$P "tids==1" "count[comm=workload]==27"
	check uring-durations pid=$P "min_dur[name~uring:]>=0" "max_dur[name~uring:]<1000000000"
	check uring-out-of-gap-chain pid=$P "max_gap[name~uring:]==0" "count[name!~uring:,gap=0]==1"
	check uring-syscall-gaps pid=$P "max_gap[name=io_uring_enter]<50000000" "max_gap[name=pread64]<50000000"
	check_stats uring-statistics "syscall pairs=27" "after filters=27" "lost=0" \
		"exits without an enter=0" "enters overwritten=0" "enters in flight at stop=0"
	# where they ran: the IOSQE_ASYNC read in an io-wq worker (others may
	# be punted too, as the filesystem decides); every op has a where,
	# no syscall has one
	wq=$(where_count uring:read "where io-wq") ops=0
	for w in inline io-wq poll; do
		for op in read write openat close; do ops=$((ops + $(where_count uring:$op "where $w"))); done
	done
	if [ "$wq" -ge 1 ] && [ "$ops" = 14 ] && [ "$(where_count io_uring_enter "(not io_uring)")" = 11 ]; then
		pass uring-where
	else
		fail uring-where "io-wq reads $wq (want >= 1), ops with a where $ops (want 14): $("$IOR" collapsed -fields tracepoint,where "$(recorded)" 2>&1 | tr '\n' '|')"
	fi
	# the CSV's where column (-plainColumns=where): every op's, as the
	# recording has it; empty for the syscalls; the reads of cached data
	# inline, the IOSQE_ASYNC one in io-wq
	want=()
	for w in inline io-wq poll; do
		for op in read write openat close; do
			want+=("count[name=uring:$op,where=$w]==$(where_count uring:$op "where $w")")
		done
	done
	check uring-where-csv pid=$P "count[name~uring:,where=]==0" "count[name!~uring:,where!=]==0" \
		"count[name=uring:read,where=io-wq]>=1" "count[name=uring:read,where=inline]>=1" \
		"count[name=uring:read,where=poll]==0" "${want[@]}"
	if [ "$(head -n 1 "$IOR_OUT")" = "durationToPrevNs,durationNs,comm,pid.tid,name,ret,file,where" ]; then
		pass uring-where-header
	else
		fail uring-where-header "$(head -n 1 "$IOR_OUT")"
	fi
	# the recording replayed with the column: the very rows of the live run
	if "$IOR" -ior="$(recorded)" -plainColumns=where >"$T/uring-replay.csv" 2>"$T/uring-replay.err" &&
		cmp -s "$IOR_OUT" "$T/uring-replay.csv"; then
		pass uring-where-replay
	else
		fail uring-where-replay "$(head -c 200 "$T/uring-replay.err") $(diff "$IOR_OUT" "$T/uring-replay.csv" | head -n 4 | tr '\n' '|')"
	fi
fi

# ops that take paths name them as their syscalls do (dirfds, two paths,
# a symlink's target as content); the fd table follows a renameat op;
# direct descriptors (an openat into a fixed slot, or one the kernel
# picks) go into the ring's table, so fixed-file reads name the file, and
# a close of the slot names it too
DP="$T/uringpath"
mkdir -p "$DP"
if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" != 0 ]; then
	echo "SKIP: uringpath: io_uring is disabled here (kernel.io_uring_disabled)"
elif ! trace_scenario -- uringpath "$DP"; then
	fail uringpath-run "$WHY"
else
	P=$WL_LAST
	check uringpath-counts pid=$P "count[name~uring:]==16" "count[name=io_uring_enter]==16" "count==35"
	check uringpath-paths pid=$P "count[name=uring:mkdirat,path=$DP/d,ret=0]==1" \
		"count[name=uring:statx,path=$DP/data,ret=0]==1" \
		"count[name=uring:renameat,path=$DP/data,path2=$DP/d/moved,ret=0]==1" \
		"count[name=uring:linkat,path=$DP/d/moved,path2=$DP/hard,ret=0]==1" \
		"count[name=uring:symlinkat,path=d/moved,path2=$DP/sym,ret=0]==1" \
		"count[name=uring:unlinkat,path=$DP/sym,ret=0]==1" \
		"count[name=uring:unlinkat,path=$DP/d,ret=-39]==1"
	check uringpath-rename-followed pid=$P "count[name=pread64,path=$DP/d/moved,fd=4,ret=64]==1"
	check uringpath-direct pid=$P "count[name=uring:openat,path=$DP/hard,ret=0,fd=]==1" \
		"count[name=uring:read,path=$DP/hard,ret=100,fd=]==1" \
		"count[name=uring:openat,path=$DP/d/moved,fd=]==1" "min_ret[name=uring:openat]>=0" \
		"count[name=uring:read,path=$DP/d/moved,ret=50,fd=]==1" \
		"count[name=uring:close,path=$DP/hard,ret=0,fd=]==1" "count[name~uring:,file=]==0"
	# a socket op into slot 2 names the slot's later ops; fixed_fd_install
	# puts a slot's file into the fd table: the socket without O_CLOEXEC
	# (IORING_FIXED_FD_NO_CLOEXEC), closed by a syscall; then the picked
	# slot's file with it, read by pread64
	check uringpath-socket-slot pid=$P "count[name=uring:socket,path=socket:unix,ret=0,fd=]==1" \
		"count[name=uring:send,path=socket:unix,ret=-107,fd=]==1"
	check uringpath-install pid=$P \
		"count[name=uring:fixed_fd_install,path=socket:unix,fd=6,ret=6,flags=O_RDWR]==1" \
		"count[name=close,path=socket:unix,fd=6,flags=O_RDWR,ret=0]==1" \
		"count[name=uring:fixed_fd_install,path=$DP/d/moved,fd=6,ret=6,flags=O_RDONLY|O_CLOEXEC|O_LARGEFILE]==1" \
		"count[name=pread64,path=$DP/d/moved,fd=6,ret=10,flags=O_RDONLY|O_CLOEXEC|O_LARGEFILE]==1"
	check_stats uringpath-statistics "syscall pairs=35" "lost=0" "exits without an enter=0" \
		"enters in flight at stop=0"
fi

# SQPOLL: the kernel's poll thread submits, the ops are the main thread's
# (the thread that set the ring up), named through its fd table
DQ="$T/uringsq"
mkdir -p "$DQ"
if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" != 0 ]; then
	echo "SKIP: uringsq: io_uring is disabled here (kernel.io_uring_disabled)"
elif ! trace_scenario -- uringsq "$DQ"; then
	fail uringsq-run "$WHY"
else
	P=$WL_LAST
	check uringsq-counts pid=$P "count[name=uring:read]==5" "count[name=uring:write]==1" \
		"count[name=io_uring_enter]==3" "count[name=pread64]==1" "count==10"
	check uringsq-bytes pid=$P "sum_bytes[name=uring:read,path=$DQ/data,fd=4]==8192" \
		"sum_bytes[name=uring:write,path=$DQ/data,fd=4]==4096"
	check uringsq-owner pid=$P "tids==1" "count[tid=$P]==10" "count[comm=workload]==10"
	check uringsq-out-of-gap-chain pid=$P "max_gap[name~uring:]==0"
fi

# an op in flight at stop: a read of an empty FIFO waits (poll armed)
# while its submitter waits in io_uring_enter; stopping then counts both
# in flight, names the op with its file, and makes no row of either
FIFO="$T/uring.fifo"
mkfifo "$FIFO"
blocked_in_enter() { read -r nr _ <"/proc/$1/syscall" 2>/dev/null && [ "$nr" = 426 ]; }
if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" != 0 ]; then
	echo "SKIP: uringwait: io_uring is disabled here (kernel.io_uring_disabled)"
elif ! start_workload uringwait "$FIFO"; then
	fail uring-inflight-run "$WHY"
elif ! start_ior -plain -pid "$WL_PID"; then
	fail uring-inflight-run "$WHY"
else
	P=$WL_PID
	release_workload
	if ! wait_until 5 blocked_in_enter "$P"; then
		fail uring-inflight-run "workload not waiting in io_uring_enter after 5 s"
		stop_ior
	else
		sleep "$SETTLE"
		if ! stop_ior; then
			fail uring-inflight-run "$WHY"
		else
			check_stats uring-inflight-statistics "enters in flight at stop=2" \
				"async ops in flight at stop=1" "exits without an enter=0" "syscall pairs=0"
			if grep -q "^ior:   uring:read by workload $P\.$P, in flight for [0-9.]* s, on fd 4 $FIFO\$" "$IOR_ERR"; then
				pass uring-inflight-named
			else
				fail uring-inflight-named "no line naming the uring:read of $P.$P on $FIFO: $(tail -n 4 "$IOR_ERR" | tr '\n' ' ')"
			fi
			check uring-inflight-no-rows "count==0"
		fi
	fi
	printf 'hello\n' >"$FIFO"
	wait_workload 5 || fail uring-inflight-workload "$WHY"
fi

# the same read, completed while traced: it waited armed for poll
if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" != 0 ]; then
	echo "SKIP: uringwait: io_uring is disabled here (kernel.io_uring_disabled)"
elif ! start_workload uringwait "$FIFO"; then
	fail uring-poll-run "$WHY"
elif ! start_ior -plainColumns=where -flamegraph -name uringwait -pid "$WL_PID"; then
	fail uring-poll-run "$WHY"
else
	P=$WL_PID
	release_workload
	wait_until 5 blocked_in_enter "$P" || fail uring-poll-run "workload not waiting in io_uring_enter after 5 s"
	printf 'hello\n' >"$FIFO"
	wait_workload 5 || fail uring-poll-workload "$WHY"
	sleep "$SETTLE"
	if ! stop_ior; then
		fail uring-poll-run "$WHY"
	else
		check uring-poll-rows pid=$P "count[name=uring:read,path=$FIFO,fd=4,ret=6]==1" "count==2" \
			"count[name=uring:read,where=poll]==1" "count[name=io_uring_enter,where=]==1"
		if [ "$(where_count uring:read "where poll")" = 1 ]; then
			pass uring-poll-where
		else
			fail uring-poll-where "$("$IOR" collapsed -fields tracepoint,where "$(recorded)" 2>&1 | tr '\n' '|')"
		fi
	fi
fi

# selection by name and family: only the ops, or only the syscalls
if trace_scenario -trace-syscalls uring:read,uring:write -- uring "$D"; then
	check uring-select-names pid=$WL_LAST "count==12" "count[name=uring:read]==10" "count[name=uring:write]==2"
else
	fail uring-select-run "$WHY"
fi
if trace_scenario -trace-families AIO -- uring "$D"; then
	check uring-select-family pid=$WL_LAST "count[name~uring:]==0" "count[name=io_uring_enter]==11"
else
	fail uring-family-run "$WHY"
fi
# -plainColumns: a name it does not know or twice, -plainDevice with it,
# and the block layer's columns with -noblock are usage errors, one line
bad=""
ior_fails 2 "-plainColumns=where,wher: no column 'wher' \(known: where, device, cache" -plainColumns=where,wher || bad="$bad; $WHY"
ior_fails 2 "a second column 'where'" -plainColumns=where,where || bad="$bad; $WHY"
ior_fails 2 '-plainDevice is -plainColumns=device,cache: use one of them' -plainDevice -plainColumns=where || bad="$bad; $WHY"
ior_fails 2 'which -noblock does not trace' -noblock -plainColumns=cache || bad="$bad; $WHY"
if [ -z "$bad" ]; then pass uring-where-usage; else fail uring-where-usage "${bad#; }"; fi
finish
