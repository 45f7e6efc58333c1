#!/bin/bash
# ior diff BASE NEW on two recordings of the workload's "basic" scenario
# (N = 10 and N = 30):
#  - -folded -normalize=total: every "stack base new" line holds exactly
#    what ior collapsed counts in BASE and in NEW for that stack, and no
#    stack is missing
#  - -nohttp: NEW.FIELDS-by-METRIC.diff.svg, well-formed, titled with both
#    files, every frame's tooltip with base and change
#  - served like -ior=FILE: the URL answers the SVG
#  - a recording with no pairs: -normalize=rate says why (exit 1), total
#    works; usage errors exit 2
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
flame_setup

mkdir -p "$T/b" "$T/n" "$T/e"
if ! record_scenario base basic "$T/b" 10; then
	fail record-base "$WHY"
	finish
	exit
fi
BASE=$REC
if ! record_scenario new basic "$T/n" 30; then
	fail record-new "$WHY"
	finish
	exit
fi
NEW=$REC

# ---- the folded diff equals the two collapsed outputs ----------------------
"$IOR" collapsed -fields=tracepoint "$BASE" >"$T/base.folded" 2>"$T/c1.err"
"$IOR" collapsed -fields=tracepoint "$NEW" >"$T/new.folded" 2>"$T/c2.err"
if ! "$IOR" diff -folded -normalize=total -fields=tracepoint "$BASE" "$NEW" >"$T/diff.folded" 2>"$T/d.err"; then
	fail diff-folded "exit $?: $(head -c 300 "$T/d.err")"
else
	why=$(python3 - "$T/base.folded" "$T/new.folded" "$T/diff.folded" <<'PY'
import sys
def fold(p):
    d = {}
    for l in open(p):
        s, _, n = l.rstrip("\n").rpartition(" ")
        d[s] = int(n)
    return d
b, n = fold(sys.argv[1]), fold(sys.argv[2])
seen = set()
for l in open(sys.argv[3]):
    parts = l.rstrip("\n").rsplit(" ", 2)
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        sys.exit("malformed line %r" % l)
    s, x, y = parts[0], int(parts[1]), int(parts[2])
    if (x, y) != (b.get(s, 0), n.get(s, 0)):
        sys.exit("%s: %d %d, want %d %d" % (s, x, y, b.get(s, 0), n.get(s, 0)))
    seen.add(s)
missing = (set(b) | set(n)) - seen
if missing:
    sys.exit("stacks missing: %s" % sorted(missing))
if not any(b.get(s, 0) != n.get(s, 0) for s in seen):
    sys.exit("no stack changed: the recordings should differ")
PY
)
	[ -z "$why" ] && pass diff-folded-equals-collapsed || fail diff-folded-equals-collapsed "$why"
fi

# ---- -summary -json: per syscall, the calls collapsed counts -------------
if ! "$IOR" diff -summary -json -normalize=total "$BASE" "$NEW" >"$T/sum.json" 2>"$T/sum.err"; then
	fail diff-summary-json "exit $?: $(head -c 300 "$T/sum.err")"
else
	why=$(python3 - "$T/base.folded" "$T/new.folded" "$T/sum.json" <<'PY'
import json, sys
def fold(p):
    return {l.rsplit(" ", 1)[0]: int(l.rsplit(" ", 1)[1]) for l in open(p)}
b, n = fold(sys.argv[1]), fold(sys.argv[2])
d = json.load(open(sys.argv[3]))
if d["normalize"] != "total" or d["factor"] != 1:
    sys.exit("normalize %r factor %r" % (d["normalize"], d["factor"]))
got = {r["name"]: r["pairs"] for r in d["syscalls"]}
want = {s: [b.get(s, 0), n.get(s, 0)] for s in set(b) | set(n)}
if got != want:
    sys.exit("syscalls %s, want %s" % (sorted(got.items())[:6], sorted(want.items())[:6]))
times = [abs(r["time_ns"][1] - r["time_ns"][0]) for r in d["syscalls"]]
if times != sorted(times, reverse=True):
    sys.exit("not sorted by the change in time: %s" % times[:8])
if not d["files"] or not d["commands"]:
    sys.exit("no files or commands table")
PY
)
	[ -z "$why" ] && pass diff-summary-json || fail diff-summary-json "$why"
fi
if "$IOR" diff -summary "$BASE" "$NEW" >"$T/sum.txt" 2>"$T/sum2.err" &&
	grep -q '^syscalls, the [0-9]* of [0-9]* that changed most$' "$T/sum.txt" &&
	grep -q '^files, the ' "$T/sum.txt" && grep -q '^commands, the ' "$T/sum.txt" &&
	grep -q '^-normalize=rate: BASE' "$T/sum.txt"; then
	pass diff-summary-text
else
	fail diff-summary-text "$(head -c 400 "$T/sum.txt") $(head -c 200 "$T/sum2.err")"
fi

# ---- the SVG, written and served -----------------------------------------
if ! (cd "$T/n" && "$IOR" diff -nohttp -fields=comm,tracepoint "$BASE" "$NEW" >"$T/svg.out" 2>"$T/svg.err"); then
	fail diff-svg "exit $?: $(head -c 300 "$T/svg.err")"
else
	svg=$(sed -n 's/^Wrote //p' "$T/svg.out")
	if [ ! -f "$svg" ] && [ -f "$T/n/$svg" ]; then svg="$T/n/$svg"; fi
	case $svg in
	*.comm:tracepoint-by-count.diff.svg) ;;
	*) fail diff-svg-name "Wrote $svg" ;;
	esac
	if [ ! -f "$svg" ] || ! xmllint --noout "$svg" 2>"$T/xml.err"; then
		fail diff-svg-wellformed "$(head -c 300 "$T/xml.err")"
	elif ! grep -q "I/O differential flame graph: comm,tracepoint by count" "$svg" ||
		! grep -qF "BASE $(basename "$BASE")" "$svg" && ! grep -qF "BASE $BASE" "$svg"; then
		fail diff-svg-title "$(grep -m 2 -E 'title|subtitle' "$svg" | head -c 400)"
	else
		frames=$(grep -c '<g data-x=' "$svg")
		with_base=$(grep -cE '; base ([0-9,]+ calls?, [+-]|0: new in NEW)' "$svg")
		if [ "$frames" -gt 2 ] && [ "$frames" = "$with_base" ]; then
			pass diff-svg
		else
			fail diff-svg "$with_base of $frames frames have base and change in their tooltip"
		fi
	fi
fi
if start_server diff "$BASE" "$NEW"; then
	code=$(http_get "$SRV_URL" "$T/served.svg")
	if [ "$code" = 200 ] && grep -q "differential flame graph" "$T/served.svg"; then
		pass diff-served
	else
		fail diff-served "HTTP $code"
	fi
	stop_server
else
	fail diff-served "$WHY"
fi

# ---- what cannot be compared is said ---------------------------------------
REC_ARGS=(-comm nomatchatall)
if record_scenario empty basic "$T/e" 1; then
	EMPTY=$REC
	"$IOR" diff -folded "$EMPTY" "$NEW" >/dev/null 2>"$T/e.err"
	rc=$?
	if [ $rc = 1 ] && grep -q "BASE spans 0 s (it has no pairs): a rate needs time; use -normalize=total or share" "$T/e.err"; then
		pass diff-empty-rate-says-why
	else
		fail diff-empty-rate-says-why "exit $rc: $(head -c 300 "$T/e.err")"
	fi
	if "$IOR" diff -folded -normalize=total -fields=tracepoint "$EMPTY" "$NEW" >"$T/e.folded" 2>"$T/e2.err" &&
		! grep -qv ' 0 [0-9]*$' "$T/e.folded"; then
		pass diff-empty-total
	else
		fail diff-empty-total "$(head -c 300 "$T/e2.err") $(head -n 3 "$T/e.folded")"
	fi
else
	fail record-empty "$WHY"
fi
REC_ARGS=()
for t in 'diff-bad-normalize|2|-normalize "bogus": use rate, total or share|-normalize=bogus' \
	'diff-one-file|2|usage: ior diff|' 'diff-missing-file|1|nope.ior.zst: .*No such file|'; do
	IFS='|' read -r name code regex flag <<<"$t"
	args=(diff ${flag:+"$flag"} "$BASE")
	[ "$name" = diff-one-file ] || args+=("$([ "$name" = diff-missing-file ] && echo "$T/nope.ior.zst" || echo "$NEW")")
	if ior_fails "$code" "$regex" "${args[@]}"; then pass "$name"; else fail "$name" "$WHY"; fi
done
finish
