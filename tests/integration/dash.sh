#!/bin/bash
# The dashboard: bare `ior` on a terminal and `ior -ior=FILE -tui`, in tmux
# panes of 120x40 and 80x24, against tests/workload scenarios. What a
# person sees is read back with capture-pane: the workload's comm, its
# file, exact syscall counts and bytes once it finished, the sort moving
# with < > R, threads with t, Stream filters (f, Backspace), the Flame
# tab, the Latency of a selected file, Files by mount point, a read in
# flight while the workload blocks on a FIFO (a read(2), and an io_uring
# read armed for poll), the process picker and a
# recording started and stopped with r around that read, a recording
# browsed without root's tracing (picker and Flame replayed whole), and
# after q the terminal as it was. Without a terminal (stdout a file), bare ior prints
# the text report every 5 s and at the end.
. "$(dirname "$0")/../lib/common.sh"
setup
cd "$T" || exit 1

TMUX_SESSION=dash
. "$ROOT/tests/lib/tmux.sh"

# start NAME COLS ROWS ARGS...: a window running ior ARGS (stderr in
# $T/NAME.err); after it, the pane shows its exit status and which of
# echo, icanon, isig are on.
start() {
	local name=$1 cols=$2 rows=$3
	shift 3
	tmux_window "$name" "$cols" "$rows" \
		"cd $T; echo before; env LANG=${DASH_LANG:-C.UTF-8} LC_ALL= LC_CTYPE= TERM=xterm $IOR $* 2>$T/$name.err; echo EXIT=\$?;"
}
# start_traced NAME COLS ROWS ARGS...: start, then the waiting workload
# released once ior has attached; 1 with WHY when ior never did.
start_traced() {
	start "$@"
	if ! wait_until 10 file_has "$T/$1.err" '^ior: tracing [0-9]* syscalls'; then
		WHY="ior never said it was tracing: $(head -c 300 "$T/$1.err")"
		return 1
	fi
	release_workload
}
# restored WINDOW CHECK: ior is gone, exit 0, the terminal as before.
restored() {
	expect "$1" "$2-exit" '^EXIT=0$' && tmux_restored "$1" "$2" '1 Over'
}
blocked_in_read() { read -r nr _ <"/proc/$1/syscall" 2>/dev/null && [ "$nr" = 0 ]; }

# 1. 120x40, -pid: basic with N=10 is 2N+16 = 36 pairs (tests/workload.c)
mkdir -p "$T/w"
if ! start_workload basic "$T/w" 10; then
	fail dash-big-run "$WHY"
else
	P=$WL_PID
	if ! start_traced big 120 40 -pid "$P"; then
		fail dash-big-run "$WHY"
	else
		wait_workload 10 || fail dash-big-workload "$WHY"
		expect big dash-title "^ior  live -pid $P  tracing  36 pairs in "
		expect big dash-tabs '^1 Overview 2 Syscalls 3 Files 4 Processes 5 In flight 6 Latency 7 Stream'
		expect big dash-overview-totals '^total 36 pairs, 0 errors, read 1640, written 65.0KiB; lost 0'
		expect big dash-overview-process "$P workload"
		expect big dash-overview-file "/w/data "
		keys big 2
		expect big dash-syscalls-header '^syscall +calls +rate/s +errors +bytes +time▼ +min +mean +p50 +p95 +p99 +max$'
		expect big dash-syscalls-pread64 '^pread64 +10 +[0-9.]+ +0 +1000 '
		expect big dash-syscalls-read '^read +11 +[0-9.]+ +0 +640 '
		expect big dash-syscalls-write '^write +2 +[0-9.]+ +0 +66536 '
		expect big dash-syscalls-openat '^openat +2 +[0-9.]+ +0 +0 '
		keys big '<'
		expect big dash-sort-left '^syscall +calls +rate/s +errors +bytes▼ +time '
		if screen big | sed -n 4p | grep -qE '^write +2 '; then
			pass dash-sort-order
		else
			fail dash-sort-order "the first row by bytes is not write: $(screen big | sed -n 4p)"
		fi
		keys big R
		expect big dash-sort-reverse '^syscall +calls +rate/s +errors +bytes▲ +time '
		keys big '>' R
		expect big dash-sort-right '^syscall +calls +rate/s +errors +bytes +time▼ '
		keys big 3
		expect big dash-files "/w/data +30 +1640 +66536 +0 "
		keys big e
		if expect big dash-export 'Wrote ior-files-[0-9-]+\.csv \(4 rows\)$' &&
			grep -q "^$T/w/data,30,1640,66536,0,[0-9]*,[0-9]*\$" "$T"/ior-files-*.csv &&
			head -n 1 "$T"/ior-files-*.csv | grep -qx 'file,accesses,read,written,errors,time,max'; then
			pass dash-export-csv
		else
			fail dash-export-csv "$(cat "$T"/ior-files-*.csv 2>&1 | head -3 | tr '\n' '|')"
		fi
		# the first file by accesses is selected: the Latency tab shows it
		keys big '<' '<' '<' '<' Home 6
		expect big dash-latency-file "^durationNs of file $T/w/data +durationToPrevNs of file $T/w/data"
		expect big dash-latency-file-pairs '^30 pairs, p50 [0-9.]+(ns|µs|ms), p99 '
		expect big dash-latency-file-live "^\(live: 30 pairs of the Stream's ring, then every pair of the last "
		keys big 3 d
		expect big dash-dirs '^/tmp/ +36 +1640 +66536 +0 '
		keys big Enter
		expect big dash-dirs-open "^by directory: /tmp/ *\$"
		expect big dash-dirs-open-row "^$T/ +36 +1640 +66536 +0 "
		keys big BSpace d
		expect big dash-mounts '^by mount point \(Enter opens one as a directory\)'
		MNT=$(df --output=target "$T" | tail -n 1)
		[ "$MNT" = / ] || MNT=$MNT/
		expect big dash-mounts-row "^$MNT +36 +1640 +66536 +0 "
		keys big d
		keys big 4
		expect big dash-processes "^ +$P workload +36 +0 +1640 +66536 "
		keys big t
		expect big dash-threads "^ +pid +tid +comm "
		expect big dash-threads-row "^ +$P +$P workload +36 "
		keys big 7
		expect big dash-stream "workload +$P unlinkat +0 .*/w/other2$"
		keys big / 'rename$' Enter
		expect big dash-stream-search '^/rename\$: pair 30 of 36 \(paused; '
		keys big ' ' End
		expect big dash-stream-cursor '^ +time \[comm\] +pid syscall '
		keys big f Right Right f
		expect big dash-stream-filters '^filters: comm=workload > syscall=unlinkat  \(Backspace pops\)'
		expect big dash-stream-filtered '^the last 36 pairs \([0-9] shown\)'
		if screen big | grep -E "^ +[0-9.]+ +workload +$P " | grep -qv ' unlinkat '; then
			fail dash-stream-filter-rows "a row that is no unlinkat: $(screen big | grep -E "workload +$P" | grep -v unlinkat | head -2)"
		else
			pass dash-stream-filter-rows
		fi
		keys big BSpace BSpace
		expect big dash-stream-popped '^the last 36 pairs \(36 shown\)'
		keys big 2 '<' '<' '<' '<' Home 6 # by calls: read, 11
		expect big dash-latency '^durationNs of read +durationToPrevNs of read'
		expect big dash-latency-syscall '^11 pairs, p50 '
		keys big 8
		expect big dash-flame-head '^by comm,path,tracepoint, count \(o order, m metric\)$'
		expect big dash-flame-root '^all  36 calls  100.0% of all, 100.0% of the zoom'
		expect big dash-flame-comm '^workload *$'
		keys big Down
		expect big dash-flame-down '^all;workload  36 calls  100.0% of all'
		keys big Down Down Enter
		expect big dash-flame-zoom "^all;workload;/;tmp  36 calls .*"
		expect big dash-flame-zoomed '; zoomed: Backspace out$'
		keys big m
		expect big dash-flame-metric "^by comm,path,tracepoint, duration \(o order, m metric\); from the Stream's last 36 pairs on"
		keys big o
		expect big dash-flame-order '^by tracepoint,comm,path, duration '
		expect big dash-flame-order-root '^all  [0-9.]+ ms  100.0% of all, 100.0% of the zoom'
		keys big '?'
		expect big dash-help '< >  R +sort by the column left / right; reverse'
		expect big dash-help-pick 'p  Esc +pick a process \(type to filter\); all again'
		keys big Escape
		keys big q
		restored big dash-big-quit
	fi
fi

# 2. 80x24, -comm: the same scenario, N=5 (26 pairs); other programs
# named workload may run meanwhile, so the process row is what is checked
if ! start_workload basic "$T/w" 5; then
	fail dash-small-run "$WHY"
else
	P=$WL_PID
	if ! start_traced small 80 24 -comm workload; then
		fail dash-small-run "$WHY"
	else
		wait_workload 10 || fail dash-small-workload "$WHY"
		expect small dash-small-title '^ior  live -comm workload  tracing  [0-9]+ pairs'
		expect small dash-small-tabs '^1 Over 2 Syscalls 3 Files 4 Procs 5 Flight 6 Latency 7 Stream 8 Flame 9 Devices$'
		expect small dash-small-overview "$P workload"
		keys small 4
		expect small dash-small-processes "^ +$P workload +26 +0 +820 +66536 "
		keys small Tab
		keys small BTab BTab BTab
		expect small dash-small-shift-tab '^syscall +calls +rate/s +errors +bytes +time▼ +min +mean'
		expect small dash-small-syscalls '^pread64 +[0-9]+ '
		keys small 8
		expect small dash-small-flame '^all  [0-9]+ calls  100.0% of all, 100.0% of the zoom'
		expect small dash-small-flame-comm '^workload'
		keys small 2
		tm resize-window -t dash:small -x 100 -y 30
		expect small dash-small-resized '^syscall +calls +rate/s +errors +bytes +time▼ +min +mean +p50 +p95'
		# SIGTERM from outside: ior finishes as on q
		pkill -TERM -P "$(tm display -p -t dash:small '#{pane_pid}')" -x ior
		restored small dash-small-sigterm
	fi
fi

# 3. in flight: the workload blocks in read(2) on a FIFO nobody writes
FIFO="$T/fifo"
mkfifo "$FIFO"
if ! start_workload fiforead "$FIFO"; then
	fail dash-inflight-run "$WHY"
else
	P=$WL_PID
	if ! start_traced flight 120 40 -pid "$P"; then
		fail dash-inflight-run "$WHY"
	else
		if ! wait_until 5 blocked_in_read "$P"; then
			fail dash-inflight-run "workload not blocked in read after 5 s"
		else
			keys flight 5
			expect flight dash-inflight-count '^1 syscalls entered and not returned, oldest first'
			expect flight dash-inflight-row "^ +[0-9.]+(ns|µs|ms|s) +$P +$P workload +read +3 $FIFO\$"
			# the picker: the workload picked; live, its tables start from
			# its pairs in the Stream's ring (none yet: blocked in its first)
			keys flight p
			expect flight dash-picker "Pick a process \(1\)"
			expect flight dash-picker-row "│ +$P workload +0 +0ns"
			keys flight w o r k Enter
			expect flight dash-picked "^ior  live -pid $P  tracing  pid $P workload \(from its last 0 pairs in the Stream on\)  0 pairs"
			expect flight dash-picked-inflight "^ +[0-9.]+(ns|µs|ms|s) +$P +$P workload +read +3 $FIFO\$"
			# r: a recording around the read
			keys flight r
			expect flight dash-rec-started '^ior  live -pid [0-9]+  tracing  REC [^ ]+-default-[0-9_:-]+\.ior\.zst \(0 pairs\)  pid '
			echo x >"$FIFO"
			expect flight dash-inflight-returned '^0 syscalls entered and not returned'
			expect flight dash-rec-counting ' REC [^ ]+\.ior\.zst \([1-9][0-9]* pairs\)'
			keys flight 2
			expect flight dash-inflight-read-done '^read +1 +[0-9.]+ +0 +1 '
			keys flight r
			if expect flight dash-rec-wrote '^Wrote [^ ]+-default-[0-9_:-]+\.ior\.zst \([1-9][0-9]* pairs, [0-9]+ bytes\)'; then
				LREC=$(screen flight | sed -n 's/^Wrote \([^ ]*\) (.*/\1/p')
				if "$IOR" summary "$T/$LREC" 2>"$T/lrec.err" | grep -qE '^read +1 +0 +1 +0 '; then
					pass dash-rec-readable
				else
					fail dash-rec-readable "ior summary $LREC: $(head -c 300 "$T/lrec.err")"
				fi
			fi
			keys flight 1
			expect flight dash-rec-off '^ior  live -pid [0-9]+  tracing  pid [0-9]+ workload .* pairs in [^ ]+ *$'
			keys flight Escape
			expect flight dash-unpicked "^ior  live -pid $P  tracing  [0-9]+ pairs in "
		fi
		keys flight C-c
		restored flight dash-inflight-ctrl-c
	fi
	wait_workload 5 || fail dash-inflight-workload "$WHY"
fi

# 3b. an io_uring op in flight: a read of an empty FIFO, armed for poll,
# while its submitter waits in io_uring_enter; both are rows of In flight,
# counted apart, the op with its fd and file; the write ends both
blocked_in_enter() { read -r nr _ <"/proc/$1/syscall" 2>/dev/null && [ "$nr" = 426 ]; }
UFIFO="$T/ufifo"
mkfifo "$UFIFO"
if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" != 0 ]; then
	echo "SKIP: dash-uring: io_uring is disabled here (kernel.io_uring_disabled)"
elif ! start_workload uringwait "$UFIFO"; then
	fail dash-uring-run "$WHY"
else
	P=$WL_PID
	if ! start_traced uring 120 40 -pid "$P"; then
		fail dash-uring-run "$WHY"
	else
		if ! wait_until 5 blocked_in_enter "$P"; then
			fail dash-uring-run "workload not waiting in io_uring_enter after 5 s"
		else
			keys uring 5
			expect uring dash-uring-count '^1 syscalls entered and not returned, 1 async ops submitted and not completed, oldest first'
			expect uring dash-uring-header '^ +age +pid +tid +comm +syscall/op +fd +file'
			expect uring dash-uring-op "^ +[0-9.]+(ns|µs|ms|s) +$P +$P workload +uring:read +4 $UFIFO\$"
			expect uring dash-uring-enter "^ +[0-9.]+(ns|µs|ms|s) +$P +$P workload +io_uring_enter +3 anon_inode:\[io_uring\]\$"
			printf 'hello\n' >"$UFIFO"
			expect uring dash-uring-returned '^0 syscalls entered and not returned, oldest first'
			keys uring 2
			expect uring dash-uring-done '^uring:read +1 +[0-9.]+ +0 +6 '
		fi
		keys uring C-c
		restored uring dash-uring-ctrl-c
	fi
	wait_workload 5 || fail dash-uring-workload "$WHY"
fi

# 4. no terminal: text reports every 5 s and at the end
if ! start_workload basic "$T/w" 10; then
	fail dash-text-run "$WHY"
elif ! start_ior -pid "$WL_PID"; then
	fail dash-text-run "$WHY"
else
	release_workload
	wait_workload 10 || fail dash-text-workload "$WHY"
	wait_until 8 file_has "$IOR_OUT" '^ior: statistics after 5 s of tracing'
	if ! stop_ior; then
		fail dash-text-run "$WHY"
	else
		n=$(grep -c '^ior: statistics after [0-9]* s of tracing' "$IOR_OUT")
		reports=$(grep -cE '^pread64 +10 ' "$IOR_OUT")
		if [ "$n" -ge 1 ] && [ "$reports" = $((n + 1)) ] && ! grep -q $'\e' "$IOR_OUT"; then
			pass dash-text-reports
		else
			fail dash-text-reports "$n periodic headers, $reports pread64 rows (want headers + 1): $(head -c 300 "$IOR_OUT")"
		fi
	fi
fi

# -duration stops the dashboard's trace, which stays on screen until q
# (without -duration it traces until q)
start dur 100 30 -comm nosuchcomm -duration 2
expect dur dash-duration-stopped '^ior  live -comm nosuchcomm  stopped \(-duration\)'
keys dur q
restored dur dash-duration

# TERM=dumb on a terminal: the text reports, no escapes drawn
if ! start_workload basic "$T/w" 10; then
	fail dash-dumb-run "$WHY"
else
	tmux_window dumb 100 30 "cd $T; echo before; env TERM=dumb $IOR -pid $WL_PID -duration 6 2>$T/dumb.err; echo EXIT=\$?;"
	if ! wait_until 10 file_has "$T/dumb.err" '^ior: tracing [0-9]* syscalls'; then
		fail dash-dumb-run "ior never said it was tracing: $(head -c 300 "$T/dumb.err")"
	else
		release_workload
		wait_workload 10 || fail dash-dumb-workload "$WHY"
		# -duration 6 ends it 6 s after it attached, however fast the
		# workload was done
		expect dumb dash-dumb-exit '^EXIT=0$' 100
		all=$(tm capture-pane -p -S - -t dash:dumb)
		if grep -q '^ior: statistics after 5 s of tracing$' <<<"$all" && [ "$(grep -cE '^pread64 +10 ' <<<"$all")" = 2 ]; then
			pass dash-dumb-reports
		else
			fail dash-dumb-reports "no report after 5 s and at the end: $(grep -v '^$' <<<"$all" | head -5 | tr '\n' '|')"
		fi
		if [ "$(tm display -p -t dash:dumb '#{alternate_on}')" = 0 ] && ! grep -q '1 Overview' <<<"$all"; then
			pass dash-dumb-no-dashboard
		else
			fail dash-dumb-no-dashboard "the dashboard was drawn with TERM=dumb"
		fi
	fi
fi

# 5. a recording browsed with -tui
if ! start_workload basic "$T/w" 10 || ! run_released -flamegraph -name dash -pid "$WL_PID"; then
	fail dash-rec-run "$WHY"
else
	REC=$(sed -n 's/^Wrote \(.*\) ([0-9]* pairs, [0-9]* bytes)$/\1/p' "$IOR_ERR")
	start rec 100 30 -ior="$REC" -tui
	expect rec dash-rec-title "^ior  .*\.ior\.zst  recording  36 pairs"
	keys rec 2
	expect rec dash-rec-syscalls '^pread64 +10 +[0-9.]+ +0 +1000 '
	keys rec 5
	expect rec dash-rec-inflight 'A recording has nothing in flight'
	keys rec r
	expect rec dash-rec-no-r '^r: recording is not available here: this is a recording'
	# the picker and Flame's order replay the file: whole, not "since"
	keys rec p Enter 2
	expect rec dash-rec-picked '^ior  .*\.ior\.zst  recording  pid [0-9]+ workload  36 pairs'
	expect rec dash-rec-picked-syscalls '^pread64 +10 +[0-9.]+ +0 +1000 '
	keys rec 8 o
	expect rec dash-rec-flame-order '^by tracepoint,comm,path, count \(o order, m metric\)$'
	expect rec dash-rec-flame-root '^all  36 calls  100.0% of all'
	keys rec Down
	expect rec dash-rec-flame-read '^all;read  11 calls  30.6% of all'
	keys rec Escape # alone: Esc and a key at once read as Alt-key
	expect rec dash-rec-unpicked '^ior  .*\.ior\.zst  recording  36 pairs'
	keys rec q
	restored rec dash-rec-quit
	# LANG=C: ASCII only (sort mark v, "us" for µs, box of - | +)
	DASH_LANG=C start ascii 80 24 -ior="$REC" -tui
	expect ascii dash-ascii-title '^ior  ' # keys typed before raw mode are flushed
	keys ascii 2
	expect ascii dash-ascii-mark '^syscall +calls +rate/s +errors +bytes +timev +min '
	expect ascii dash-ascii-us '^pread64 +10 .*[0-9]us '
	keys ascii '?'
	expect ascii dash-ascii-box '\+-{66}\+ *$'
	if LC_ALL=C grep -q $'[\x80-\xff]' <(screen ascii); then
		fail dash-ascii-only "a non-ASCII byte on the screen: $(screen ascii | LC_ALL=C grep $'[\x80-\xff]' | head -2)"
	else
		pass dash-ascii-only
	fi
	keys ascii q
	restored ascii dash-ascii-quit
	# not a terminal: the text report of the recording
	if "$IOR" -ior="$REC" -tui >"$T/rec.txt" 2>"$T/rec.err" </dev/null && grep -qE '^pread64 +10 ' "$T/rec.txt"; then
		pass dash-rec-text
	else
		fail dash-rec-text "$(head -c 300 "$T/rec.err" "$T/rec.txt")"
	fi
fi

# 6. usage
bad=""
ior_fails 2 '-tui draws on the terminal: drop -plain' -tui -plain || bad="$bad; $WHY"
ior_fails 2 'use one of them' -ior=x.ior.zst -tui -summary || bad="$bad; $WHY"
ior_fails 1 'No such file' -ior="$T/none.ior.zst" -tui || bad="$bad; $WHY"
if [ -z "$bad" ]; then pass dash-usage; else fail dash-usage "${bad#; }"; fi

finish
