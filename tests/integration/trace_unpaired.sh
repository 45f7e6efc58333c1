#!/bin/bash
# ior's statistics about what it could not pair ("fiforead" in
# tests/workload.c: a read blocked on a named pipe until the test writes):
#  - in flight: ior attached, the read entered and is still blocked when ior
#    stops: "enters in flight at stop: 1", the read named with its pid.tid,
#    and no row for it;
#  - exit without an enter: the read was already blocked when ior attached,
#    so ior sees only its exit: "exits without an enter: 1", no read row,
#    the close afterwards is a normal row.
. "$(dirname "$0")/../lib/common.sh"
setup

FIFO="$T/fifo"
mkfifo "$FIFO"

# blocked_in_read PID: the thread sits in read(2) (syscall 0 on x86_64)
blocked_in_read() { read -r nr _ <"/proc/$1/syscall" 2>/dev/null && [ "$nr" = 0 ]; }

if ! start_workload fiforead "$FIFO"; then
	fail inflight-run "$WHY"
elif ! start_ior -plain -pid "$WL_PID"; then
	fail inflight-run "$WHY"
else
	P=$WL_PID
	release_workload
	if ! wait_until 5 blocked_in_read "$P"; then
		fail inflight-run "workload not blocked in read after 5 s: $(cat /proc/$P/syscall 2>&1)"
		stop_ior
	else
		sleep "$SETTLE"
		if ! stop_ior; then
			fail inflight-run "$WHY"
		else
			check_stats inflight-statistics "enters in flight at stop=1" "exits without an enter=0" \
				"lost=0" "syscall pairs=0"
			if grep -q "^ior: .*read by workload $P\.$P, in the syscall for [0-9.]* s, on fd [0-9]* $FIFO\$" "$IOR_ERR"; then
				pass inflight-named
			else
				fail inflight-named "no line naming the read of $P.$P on $FIFO: $(tail -n 3 "$IOR_ERR" | tr '\n' ' ')"
			fi
			check inflight-no-rows "count==0"
		fi
	fi
	echo x >"$FIFO"
	wait_workload 5 || fail inflight-workload "$WHY"
fi

if ! start_workload fiforead "$FIFO"; then
	fail unpaired-run "$WHY"
else
	P=$WL_PID
	release_workload
	if ! wait_until 5 blocked_in_read "$P"; then
		fail unpaired-run "workload not blocked in read after 5 s: $(cat /proc/$P/syscall 2>&1)"
	elif ! start_ior -plain -pid "$P"; then
		fail unpaired-run "$WHY"
	else
		echo x >"$FIFO"
		if ! wait_workload 5; then
			fail unpaired-run "$WHY"
			stop_ior
		else
			sleep "$SETTLE"
			if ! stop_ior; then
				fail unpaired-run "$WHY"
			else
				check_stats unpaired-statistics "exits without an enter=1" \
					"enters in flight at stop=0" "lost=0" "syscall pairs=1"
				# the close is the thread's first pair: gap 0 (the unpaired
				# exit is not a pair)
				check unpaired-rows pid=$P "count==1" "count[name=close,path=$FIFO,fd=3,ret=0]==1" \
					"max_gap==0"
			fi
		fi
	fi
fi

finish
