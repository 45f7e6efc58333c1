#!/bin/bash
# The dashboard's Devices tab (9) on a loop device nothing else uses (a
# file-backed image under $T, as trace_block.sh makes it), in tmux panes
# read back with capture-pane. The workload's "blockdev" scenario makes N
# O_DIRECT pwrite64 and pread64 of 4 KiB and an fsync. Live (bare ior
# -pid): the tab's rows of that device equal /proc/diskstats' deltas
# exactly (requests and sectors per op); the read row's detail shows its
# N requests in the histogram and the workload waiting on it. Then a
# recording of the same run browsed with -ior=FILE -tui: its rows equal
# `ior summary`'s device table of that file exactly, and diskstats'
# deltas too; sorted by requests (> > >), then exported with e (the CSV's
# row of the read equals the screen's).
. "$(dirname "$0")/../lib/common.sh"
setup
cd "$T" || exit 1
BLOCKCHECK="$TESTS_DIR/lib/blockcheck.py"
N=64

TMUX_SESSION=dashblk
. "$ROOT/tests/lib/tmux.sh"

. "$ROOT/tests/lib/loopdev.sh"
loopdev 16M dash-block

# start NAME COLS ROWS ARGS...: a window running ior ARGS (stderr in $T/NAME.err).
start() {
	local name=$1 cols=$2 rows=$3
	shift 3
	tmux_window "$name" "$cols" "$rows" \
		"cd $T; env LANG=C.UTF-8 LC_ALL= LC_CTYPE= TERM=xterm $IOR $* 2>$T/$name.err; echo EXIT=\$?;"
}
bc() { pycheck "$1" "$BLOCKCHECK" "${@:2}"; } # NAME ARGS...: blockcheck.py
# rows FILE: the device table's rows of $DEV (op requests bytes errors
# in-syscalls syscall-bytes), from a summary or a capture of the tab
rows() { grep -E "^$DEV +(read|write|discard|flush|other) +[0-9]" "$1" | awk '{ print $2, $3, $4, $5, $6, $7 }' | sort; }
# select_op WINDOW OP: Down until the detail line is of $DEV OP
select_op() {
	for _ in $(seq 20); do
		screen "$1" | grep -q "^$DEV $2: device " && return 0
		keys "$1" Down
		sleep 0.2
	done
	return 1
}

# 1. live: bare ior -pid, 200x50
if ! start_workload blockdev "$LOOP" "$N"; then
	fail dash-block-run "$WHY"
else
	P=$WL_PID
	start live 200 50 -pid "$P"
	if ! wait_until 10 file_has "$T/live.err" '^ior: tracing [0-9]* syscalls' ||
		! expect live dash-block-title "^ior  live -pid $P  tracing"; then
		fail dash-block-run "ior never said it was tracing: $(head -c 300 "$T/live.err")"
	else
		cp /proc/diskstats "$T/before"
		release_workload
		wait_workload 30 || fail dash-block-workload "$WHY"
		settle
		cp /proc/diskstats "$T/after"
		keys live 9
		expect live dash-block-tab "^$DEV +read +$N +$((N * 4096)) +0 +$N +$((N * 4096)) "
		sleep 0.5 # a frame after the last request
		screen live >"$T/live.screen"
		bc dash-block-diskstats diskstats "$T/before" "$T/after" "$DEV" "$T/live.screen"
		if select_op live read; then
			expect live dash-block-detail "^$DEV read: device [0-9.]+[mµn]?s/.* queue .*\(min/p50/p95/p99/max\)"
			expect live dash-block-hist "^device time of $DEV read"
			expect live dash-block-hist-count "^$N requests, p50 "
			expect live dash-block-who " +$N +$((N * 4096)) $P workload"
		else
			fail dash-block-select "no detail of $DEV read: $(screen live | grep -v '^ *$' | tail -8 | tr '\n' '|')"
		fi
		keys live q
		expect live dash-block-exit '^EXIT=0$'
	fi
fi

# 2. a recording of the same run, browsed with -ior=FILE -tui
if ! start_workload blockdev "$LOOP" "$N"; then
	fail dash-block-rec-run "$WHY"
elif ! start_ior -flamegraph -name dashblk -pid "$WL_PID"; then
	fail dash-block-rec-run "$WHY"
else
	cp /proc/diskstats "$T/before"
	release_workload
	wait_workload 30 || fail dash-block-rec-workload "$WHY"
	settle
	cp /proc/diskstats "$T/after" # inside the trace: what completes after ior stops is not its
	stop_ior || fail dash-block-rec-stop "$WHY"
	REC=$(sed -n 's/^Wrote \(.*\) ([0-9]* pairs, [0-9]* bytes)$/\1/p' "$IOR_ERR")
	"$IOR" summary "$REC" >"$T/summary.txt" 2>"$T/summary.err" || fail dash-block-summary "$(head -c 300 "$T/summary.err")"
	start rec 200 50 -ior="$REC" -tui
	expect rec dash-block-rec-title "^ior  .*\.ior\.zst  recording  " # keys before raw mode are flushed
	keys rec 9
	expect rec dash-block-rec-tab "^$DEV +read +$N +"
	screen rec >"$T/rec.screen"
	if [ -n "$(rows "$T/summary.txt")" ] && [ "$(rows "$T/summary.txt")" = "$(rows "$T/rec.screen")" ]; then
		pass dash-block-rec-equals-summary
		rows "$T/rec.screen" | sed 's/^/      /'
	else
		fail dash-block-rec-equals-summary "summary: $(rows "$T/summary.txt" | tr '\n' '|') tab: $(rows "$T/rec.screen" | tr '\n' '|')"
	fi
	bc dash-block-rec-diskstats diskstats "$T/before" "$T/after" "$DEV" "$T/rec.screen"
	keys rec '>' '>' # requests, most first
	expect rec dash-block-rec-sort '^device +op +requests▼ '
	keys rec e
	expect rec dash-block-rec-export '^Wrote ior-devices-[0-9-]+\.csv \([0-9]+ rows\)'
	CSV=$(ls "$T"/ior-devices-*.csv 2>/dev/null | head -1)
	if [ -n "$CSV" ] && head -1 "$CSV" | grep -qx 'device,op,requests,bytes,errors,in-syscalls,syscall-bytes,d-min,d-p50,d-p95,d-p99,d-max,q-min,q-p50,q-p95,q-p99,q-max' &&
		grep -qE "^$DEV,read,$N,$((N * 4096)),0,$N,$((N * 4096)),[0-9]+," "$CSV"; then
		pass dash-block-rec-csv
	else
		fail dash-block-rec-csv "$(head -c 400 "${CSV:-/dev/null}")"
	fi
	keys rec q
	expect rec dash-block-rec-exit '^EXIT=0$'
fi
finish
