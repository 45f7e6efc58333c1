#!/bin/bash
# Families on the workload's "net" scenario: a pipe, a unix socketpair, TCP
# over 127.0.0.1 and poll/epoll_wait waits with known timeouts. The default
# families (FS, Network, Polling, AIO) give exact rows per syscall, bytes of
# send and receive, the descriptors' names and the waits' durations;
# -trace-families=FS keeps only the file syscalls; ior -list says which are
# traced. Expected numbers: see "net" at the top of tests/workload.c.
. "$(dirname "$0")/../lib/common.sh"
setup

MS=1000000

if ! trace_scenario -- net; then
	fail net-run "$WHY"
else
	P=$WL_LAST
	check net-counts pid=$P "count==32" "count[name=pipe2]==0" \
		"count[name=write]==1" "count[name=read]==1" "count[name=socketpair]==1" \
		"count[name=sendto]==3" "count[name=recvfrom]==3" "count[name=sendmsg]==1" "count[name=recvmsg]==1" \
		"count[name=socket]==2" "count[name=setsockopt]==1" "count[name=bind]==1" "count[name=listen]==1" \
		"count[name=getsockname]==1" "count[name=connect]==1" "count[name=accept4]==1" \
		"count[name=poll]==1" "count[name=epoll_create1]==1" "count[name=epoll_ctl]==1" \
		"count[name=epoll_wait]==2" "count[name=close]==8"
	check net-bytes pid=$P "sum_bytes[name=write]==5" "sum_bytes[name=read]==5" \
		"sum_bytes[name=sendto]==1006" "sum_bytes[name=recvfrom]==1006" \
		"sum_bytes[name=sendmsg]==7" "sum_bytes[name=recvmsg]==7" \
		"sum_bytes[name=sendto,fd=3]==5" "sum_bytes[name=sendto,fd=6]==1001" \
		"sum_bytes[name=recvfrom,fd=7]==1001"
	check net-names pid=$P "count[name=socket,path=socket:tcp]==2" \
		"count[name=bind,path~tcp:127.0.0.1:,path!~->]==1" "count[name=connect,path~tcp:127.0.0.1:,path~->127.0.0.1:]==1" \
		"count[name=accept4,path~tcp:127.0.0.1:,path~->127.0.0.1:,fd=7]==1" "count[name=sendto,path~tcp:127.0.0.1:]==2" \
		"count[name=recvfrom,path~tcp:127.0.0.1:]==2" "count[name=epoll_create1,path=anon_inode:[eventpoll\\],fd=8]==1" \
		"count[name=epoll_wait,path=anon_inode:[eventpoll\\]]==2" "count[name=epoll_ctl,fd=8]==1" \
		"count[name=close,path~tcp:127.0.0.1:]==3" "count[name=close,path=anon_inode:[eventpoll\\]]==1" \
		"count[name=socketpair,path=unix:socketpair]==1" "count[name=sendto,fd=3,path=unix:socketpair]==1" \
		"count[name=close,path=unix:socketpair]==2" "count[name=close,path~pipe:[]==2" \
		"count[name=write,path~pipe:[,fd=4]==1" "count[name=read,path~pipe:[,fd=3]==1" "count[name=close,path=]==0"
	# the timeouts: poll 50 ms and epoll_wait 30 ms expire (ret 0), the
	# second epoll_wait returns at once (the byte is there)
	check net-waits pid=$P "min_dur[name=poll,ret=0]>=$((50 * MS))" "max_dur[name=poll]<$((1000 * MS))" \
		"min_dur[name=epoll_wait,ret=0]>=$((30 * MS))" "max_dur[name=epoll_wait,ret=0]<$((1000 * MS))" \
		"count[name=epoll_wait,ret=1]==1" "max_dur[name=epoll_wait,ret=1]<$((1000 * MS))"
fi

# Sockets and pipes made under the trace, named by their endpoints (ports
# and the pipe's inode as the workload saw them): TCP over ::1, UDP over
# 127.0.0.1 with addresses, a unix socket by path and by abstract name,
# a pipe written by a child, a socketpair; bytes of sendmmsg/recvmmsg.
br() { printf '%s' "${1//]/\\]}"; } # a csvcheck value: ] escaped
mkdir -p "$T/ep"
if ! trace_scenario -follow -trace-families=FS,Network,IPC -- endpoints "$T/ep"; then
	fail endpoints-run "$WHY"
else
	P=$WL_LAST
	read -r _ L6 C6 U TP PINO < <(grep '^ports ' "$WL_OUT")
	TL=$(br "tcp6:[::1]:$L6") TC=$(br "tcp6:[::1]:$C6->[::1]:$L6") TA=$(br "tcp6:[::1]:$L6->[::1]:$C6")
	PIPE=$(br "pipe:[$PINO]") AB="unix:@ior-endpoints-$P@x"
	check endpoints-counts "count==60" "count[pid=$P]==59" "count[pid!=$P,name=write,path=$PIPE]==1"
	check endpoints-tcp6 pid=$P "count[name=bind,path=$TL]==1" "count[name=listen,path=$TL]==1" \
		"count[path=$TL]==4" "count[name=connect,path=$TC]==1" "count[name=accept,path=$TA,fd=5]==1" \
		"sum_bytes[name=sendto,path=$TC]==100" "sum_bytes[name=recvfrom,path=$TA]==100" \
		"count[name=close,path=$TC]==1" "count[name=close,path=$TA]==1"
	check endpoints-udp pid=$P "count[name=bind,path=udp:127.0.0.1:$U]==1" \
		"count[name=sendto,path=udp:0.0.0.0:$TP->127.0.0.1:$U]==2" "sum_bytes[name=sendto,fd=7]==20" \
		"count[name=recvfrom,path=udp:127.0.0.1:$U->127.0.0.1:$TP]==2" "sum_bytes[name=recvfrom,fd=6]==20" \
		"count[name=sendmmsg,path=udp:0.0.0.0:$TP,ret=3]==1" "count[name=recvmmsg,path=udp:127.0.0.1:$U,ret=3]==1"
	check endpoints-unix pid=$P "count[path=unix:$T/ep/u.sock]==9" "count[name=connect,path=unix:$T/ep/u.sock,fd=9]==1" \
		"count[name=accept,path=unix:$T/ep/u.sock,fd=10]==1" "sum_bytes[name=recvfrom,path=unix:$T/ep/u.sock]==3" \
		"count[path=$AB]==9" "count[name=accept,path=$AB,fd=13]==1" "sum_bytes[name=sendto,path=$AB]==3" \
		"count[name=socket,path=socket:unix]==4"
	check endpoints-pipes pid=$P "count[name=pipe,path=$PIPE]==1" "count[name=read,path=$PIPE,fd=14]==1" \
		"count[name=close,path=$PIPE]==2" "count[name=socketpair,path=unix:socketpair]==1" \
		"sum_bytes[name=recvfrom,path=unix:socketpair,fd=17]==2" "count[name=close,path=unix:socketpair]==2"
fi
# sendmmsg and recvmmsg count the bytes of their messages (4 + 5 + 6), not
# the messages: the summary's written and read
if ! WORKLOAD_NOWAIT=1 "$IOR" -summary -trace-syscalls=sendmmsg,recvmmsg -- "$WORKLOAD" endpoints "$T/ep" \
	>"$T/mmsg.out" 2>&1; then
	fail endpoints-mmsg-bytes "ior -- workload endpoints: exit $?: $(head -c 300 "$T/mmsg.out")"
elif python3 "$TESTS_DIR/lib/summarycheck.py" "$T/mmsg.out" row Syscalls sendmmsg calls=1 written=15 &&
	python3 "$TESTS_DIR/lib/summarycheck.py" "$T/mmsg.out" row Syscalls recvmmsg calls=1 read=15; then
	pass endpoints-mmsg-bytes
else
	fail endpoints-mmsg-bytes "$(grep mmsg "$T/mmsg.out" | tr '\n' '|')"
fi

# Waits with known timeouts: each lasts at least its timeout (and not a
# second more), and the recording carries the timeout each was given
# (-fields=timeout; "never" for a NULL or negative one).
if ! trace_scenario -trace-families=Polling,Network,FS -- waits; then
	fail waits-run "$WHY"
else
	P=$WL_LAST
	check waits-durations pid=$P "count==15" \
		"min_dur[name=poll,ret=0]>=$((30 * MS))" "min_dur[name=ppoll,ret=0]>=$((20 * MS))" \
		"min_dur[name=select]>=$((25 * MS))" "min_dur[name=pselect6]>=$((15 * MS))" \
		"min_dur[name=epoll_wait]>=$((10 * MS))" "min_dur[name=epoll_pwait]>=$((12 * MS))" \
		"min_dur[name=epoll_pwait2]>=$((14 * MS))" "max_dur[ret=0]<$((1000 * MS))" \
		"count[name=poll,ret=1]==1" "count[name=ppoll,ret=1]==1" "max_dur[ret=1]<$((1000 * MS))"
fi
mkdir -p "$T/rec"
if ! (cd "$T/rec" && WORKLOAD_NOWAIT=1 "$IOR" -flamegraph -name waits -trace-families=Polling,Network,FS \
	-- "$WORKLOAD" waits >"$T/rec/out" 2>&1); then
	fail waits-timeouts "ior -flamegraph -- workload waits: $(tail -c 300 "$T/rec/out")"
else
	"$IOR" collapsed -fields=tracepoint,timeout "$T"/rec/*.ior.zst >"$T/rec/folded" 2>&1
	"$IOR" collapsed -fields=tracepoint,timeout -count=duration "$T"/rec/*.ior.zst >"$T/rec/dur" 2>&1
	want="close;(no timeout) 3
epoll_create1;(no timeout) 1
epoll_pwait2;timeout 14ms 1
epoll_pwait;timeout 12ms 1
epoll_wait;timeout 10ms 1
poll;timeout 30ms 1
poll;timeout never 1
ppoll;timeout 20ms 1
ppoll;timeout never 1
pselect6;timeout 15ms 1
select;timeout 25ms 1
sendto;(no timeout) 1
socketpair;(no timeout) 1"
	if [ "$(sort "$T/rec/folded")" != "$want" ]; then
		fail waits-timeouts "ior collapsed -fields=tracepoint,timeout: $(tr '\n' '|' <"$T/rec/folded")"
	elif ! awk '/timeout [0-9]+ms/ { ms = $(NF-1) + 0; n++
		if ($NF < ms * 1000000 || $NF >= (ms + 1000) * 1000000) bad = bad $0 "|" }
		END { if (n != 7 || bad != "") { print n " waits; out of bounds: " bad; exit 1 } }' "$T/rec/dur" >"$T/rec/why"; then
		fail waits-timeouts "durations by timeout: $(cat "$T/rec/why")"
	else
		pass waits-timeouts
	fi
fi

# Only the FS family: the pipe's write and read and the closes, nothing of
# the sockets or the waits; the closes still name what they close.
if ! trace_scenario -trace-families=FS -- net; then
	fail net-fs-run "$WHY"
else
	P=$WL_LAST
	# pipe2, socketpair, bind, connect and accept4 are traced for the fd
	# table: the fds have their names
	check net-fs-only pid=$P "count==10" "count[name=write]==1" "count[name=read]==1" "count[name=close]==8" \
		"count[name=close,path=socket:tcp]==0" "count[name=close,path~tcp:127.0.0.1:,path~->127.0.0.1:]==2" \
		"count[name=close,path~tcp:127.0.0.1:,path!~->]==1" "count[name=read,path~pipe:[]==1" \
		"count[name=close,path=unix:socketpair]==2" "count[name=close,path=anon_inode:[eventpoll\\]]==1"
fi

# -no-trace-families and -trace-syscalls compose: Network without Polling,
# plus one named syscall.
if ! trace_scenario -trace-families=Network -trace-syscalls=epoll_create1 -no-trace-syscalls=setsockopt -- net; then
	fail net-compose-run "$WHY"
else
	P=$WL_LAST
	check net-compose pid=$P "count==17" "count[name=setsockopt]==0" "count[name=poll]==0" \
		"count[name=epoll_wait]==0" "count[name=close]==0" "count[name=epoll_create1]==1" "count[name=sendto]==3"
fi

# Sockets opened before ior attached are named from /proc/net by the
# snapshot: a TCP connection's endpoints and a named unix socket.
cat >"$T/pre.py" <<'PY'
import os, signal, socket, sys
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen(1)
c = socket.create_connection(l.getsockname()); a, _ = l.accept()
u = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); u.bind(sys.argv[1])
print("ready %d %d" % (c.getsockname()[1], l.getsockname()[1]), flush=True)
signal.sigwait({signal.SIGUSR1})
c.send(b"x" * 10); a.recv(10); u.sendto(b"y", sys.argv[1]); u.recv(1)
PY
python3 "$T/pre.py" "$T/u.sock" >"$T/pre.out" 2>&1 &
PRE=$!
if ! wait_until 5 file_has "$T/pre.out" '^ready' || ! start_ior -plain -pid "$PRE"; then
	fail net-snapshot-run "not ready or ior did not start: $(head -c 300 "$T/pre.out") $WHY"
	kill "$PRE" 2>/dev/null
else
	read -r _ cport lport <"$T/pre.out"
	kill -USR1 "$PRE"
	wait "$PRE"
	sleep "$SETTLE"
	stop_ior
	check net-snapshot-names pid=$PRE \
		"count[name=sendto,path=tcp:127.0.0.1:$cport->127.0.0.1:$lport]==1" \
		"sum_bytes[name=recvfrom,path=tcp:127.0.0.1:$lport->127.0.0.1:$cport]==10" \
		"count[name=sendto,path=unix:$T/u.sock]==1" "count[name=recvfrom,path=unix:$T/u.sock]==1"
fi

# ior -list: every syscall with a tracepoint here, its family and whether
# the flags trace it (fds: traced only to keep the fd table)
if ! "$IOR" -list -trace-families=FS >"$T/list.out" 2>"$T/list.err"; then
	fail list "exit $?: $(head -c 300 "$T/list.err")"
elif head -n 1 "$T/list.out" | grep -qE '^NR +SYSCALL +FAMILY +TRACED$' &&
	grep -qE '^0 +read +FS +yes$' "$T/list.out" && grep -qE '^44 +sendto +Network +no$' "$T/list.out" &&
	grep -qE '^41 +socket +Network +fds$' "$T/list.out" && grep -qE '^232 +epoll_wait +Polling +no$' "$T/list.out" &&
	grep -qE '^39 +getpid +Process +no$' "$T/list.out" &&
	[ "$(awk '$1 ~ /^[0-9]+$/ && $1 < 1024' "$T/list.out" | wc -l)" = "$(ls -d /sys/kernel/tracing/events/syscalls/sys_enter_* | wc -l)" ] &&
	grep -qE '^1046 +uring:read +FS +yes$' "$T/list.out" && grep -qE '^1152 +aio:pread +FS +yes$' "$T/list.out" &&
	[ "$(awk '$3 == "FS" && $4 == "yes"' "$T/list.out" | wc -l)" = "$(awk '$3 == "FS"' "$T/list.out" | wc -l)" ] &&
	tail -n 1 "$T/list.out" | grep -qE '^# [0-9]+ of ior.s [0-9]+ syscalls and [0-9]+ of its [0-9]+ async ops have tracepoints here, [0-9]+ traced with these flags'; then
	pass list
else
	fail list "$(head -n 3 "$T/list.out" | tr '\n' '|') ... $(tail -n 1 "$T/list.out")"
fi
if ior_fails 2 '^ior: -trace-families: unknown family "Disk"; valid: FS,Network,Polling,Memory,Process,Signals,Sched,IPC,Time,Security,AIO,Misc,all$' -list -trace-families=FS,Disk &&
	ior_fails 2 '^ior: -no-trace-syscalls: unknown syscall "nope"; valid: read,write,' -plain -no-trace-syscalls=nope; then
	pass unknown-names-usage-error
else
	fail unknown-names-usage-error "$WHY"
fi
finish
