#!/bin/bash
# -baseline FILE outside ior diff: two recordings of the workload's
# "basic" scenario (N = 10 and N = 30) and a live trace against the first.
#  - the dashboard on NEW with -baseline BASE, in tmux: the change columns
#    shown, and exported (e) their time changes equal NEW - BASE of
#    ior diff -summary -json for every syscall, exactly (-normalize=total)
#  - off a terminal the same command prints ior diff -summary's tables
#  - live: -summary -baseline BASE over the scenario run again prints what
#    changed against "this trace"
#  - -baseline with -ior but without -tui, and with -flamegraph alone: usage
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
flame_setup
TMUX_SESSION=dashbase
. "$ROOT/tests/lib/tmux.sh"

mkdir -p "$T/b" "$T/n" "$T/l"
if ! record_scenario base basic "$T/b" 10 || ! { BASE=$REC; record_scenario new basic "$T/n" 30; }; then
	fail dash-baseline-record "$WHY"
	finish
	exit
fi
NEW=$REC

# ---- the dashboard on a terminal -------------------------------------------
tmux_window d 200 30 "cd $T; env LANG=C.UTF-8 LC_ALL= LC_CTYPE= TERM=xterm $IOR -ior=$NEW -tui -baseline $BASE -normalize=total 2>$T/d.err; echo EXIT=\$?;"
expect d dash-baseline-title "vs $BASE \\(total\\)"
keys d 2
expect d dash-baseline-header '^syscall +calls .* max +Δtime +Δrate/s +Δp99 *$'
D='[-+][0-9.]+(ns|µs|ms|s)' # a signed time as the dashboard draws it
expect d dash-baseline-pread64 "^pread64 +30 .* $D +[-+][0-9.]+ +$D *\$"
keys d e
if expect d dash-baseline-export 'Wrote ior-syscalls-[0-9-]+\.csv \([0-9]+ rows\)$'; then
	"$IOR" diff -summary -json -normalize=total "$BASE" "$NEW" >"$T/diff.json" 2>"$T/diff.err"
	if why=$(python3 - "$T"/ior-syscalls-*.csv "$T/diff.json" 2>&1 <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
d = {r["name"]: r for r in json.load(open(sys.argv[2]))["syscalls"]}
if len(rows) < 4:
    sys.exit("only %d rows exported" % len(rows))
for r in rows:
    name, dt = r["syscall"], r["Δtime"]
    base, new = d[name]["time_ns"]
    if base == 0:
        if dt != "new":
            sys.exit("%s: Δtime %s, want new (not in BASE)" % (name, dt))
        continue
    if int(dt) != new - base:
        sys.exit("%s: Δtime %s, want %d - %d = %d" % (name, dt, new, base, new - base))
    if "p99_ns" in d[name] and int(r["Δp99"]) != d[name]["p99_ns"][1] - d[name]["p99_ns"][0]:
        sys.exit("%s: Δp99 %s, want %d" % (name, r["Δp99"], d[name]["p99_ns"][1] - d[name]["p99_ns"][0]))
PY
	); then
		pass dash-baseline-export-exact
	else
		fail dash-baseline-export-exact "$why"
	fi
fi
keys d 3
expect d dash-baseline-files '^file +accesses .* max +Δtime +Δrate/s +Δmax *$'
keys d 4
expect d dash-baseline-processes "workload +76 .* $D +[-+][0-9.]+ +$D *\$"
keys d q
expect d dash-baseline-quit '^EXIT=0$'

# ---- off a terminal: ior diff -summary's tables ----------------------------
"$IOR" -ior="$NEW" -tui -baseline "$BASE" </dev/null >"$T/off.txt" 2>"$T/off.err"
"$IOR" diff -summary "$BASE" "$NEW" >"$T/diff.txt" 2>>"$T/off.err"
if [ -s "$T/off.txt" ] && cmp -s "$T/off.txt" "$T/diff.txt"; then
	pass dash-baseline-off-terminal
else
	fail dash-baseline-off-terminal "$(diff "$T/off.txt" "$T/diff.txt" | head -5 | tr '\n' '|') $(head -c 200 "$T/off.err")"
fi

# ---- live: -summary -baseline ----------------------------------------------
if start_workload basic "$T/l" 30 && run_released -summary -baseline "$BASE" -normalize=total -pid "$WL_PID"; then
	out=$(cat "$IOR_OUT")
	if grep -qF "ior diff: BASE $BASE -> NEW this trace" <<<"$out" &&
		grep -qE '^ +\+[0-9.]+[mun]?s .* 10 -> 30 ' <<<"$out"; then
		pass dash-baseline-live-summary
	else
		fail dash-baseline-live-summary "$(head -c 400 "$IOR_OUT") $(tail -c 200 "$IOR_ERR")"
	fi
else
	fail dash-baseline-live-summary "$WHY"
fi

# ---- usage ---------------------------------------------------------------
bad=""
ior_fails 2 'two recordings compare with ior diff BASE NEW' -ior="$NEW" -baseline "$BASE" || bad="$bad; $WHY"
ior_fails 2 'add -live \(the graph\), -summary \(the tables\) or -tui' -flamegraph -baseline "$BASE" -duration 1 || bad="$bad; $WHY"
ior_fails 2 '-normalize "x": use rate, total or share' -ior="$NEW" -tui -baseline "$BASE" -normalize=x || bad="$bad; $WHY"
if [ -z "$bad" ]; then pass dash-baseline-usage; else fail dash-baseline-usage "${bad#; }"; fi
finish
