#!/bin/bash
# Big recordings read small, and say what they fold away (README,
# "Recordings and flamegraphs"; recordings from build/iorrecgen):
#  - 1.5 M pairs on 1.5 M distinct overlay paths: ior collapsed within
#    64 MiB peak RSS; the folded counts add up to the recording's pairs
#    and durations exactly; the "(other)" frame holds what stderr says
#  - the same through ior -ior=FILE -nohttp -flamegraphJson: within 64 MiB,
#    "(other)" in the SVG and the JSON
#  - 600 k distinct deep paths with all six fields (every frame new):
#    within 64 MiB, totals exact
#  - 1.5 M pairs on 100 paths: no "(other)", nothing on stderr
# Peak RSS is measured, time is not (it depends on the machine).
. "$(dirname "$0")/../lib/common.sh"
setup
cd "$T" || exit 1
RECGEN=${RECGEN:-$ROOT/build/iorrecgen}
[ -x "$RECGEN" ] || { echo "FAIL: setup: $RECGEN missing (run make tests)"; exit 1; }
LIMIT_KIB=65536
N=1500000

# Runs ior ARGS with stdout in $1, stderr in $1.err; sets RC and RSS_KIB,
# ior's peak RSS: GNU time's, else the launcher's getrusage (an upper
# bound: a child counts what it held before exec, python's ~10 MiB).
measure() { # OUT ARGS...
	local out=$1
	shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%M' -o "$out.rss" "$IOR" "$@" >"$out" 2>"$out.err"
		RC=$?
		RSS_KIB=$(tail -n 1 "$out.rss")
		return
	fi
	RSS_KIB=$(python3 - "$out" "$IOR" "$@" <<'PY'
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out, open(sys.argv[1] + ".err", "wb") as err:
    rc = subprocess.call(sys.argv[2:], stdout=out, stderr=err)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)
PY
)
	RC=${RSS_KIB#* } RSS_KIB=${RSS_KIB% *}
}

sum_of() { awk '{ s += $NF } END { printf "%.0f\n", s }' "$1"; }
other_of() { awk '$1 == "(other)" { print $NF }' "$1"; }
# The pair count in stderr's "N of M pairs are in the "(other)" frame".
said_other() { sed -n 's/^ior: .*: \([0-9][0-9]*\) of \([0-9][0-9]*\) pairs are in the "(other)" frame: .*/\1 \2/p' "$1"; }

if ! "$RECGEN" wide.ior.zst "$N" "$N" || ! "$RECGEN" deep.ior.zst 600000 600000 deep ||
	! "$RECGEN" few.ior.zst "$N" 100; then
	fail recgen "iorrecgen failed"
	finish
	exit
fi

# 1. 1.5 M distinct paths, folded
measure wide.folded collapsed -fields=comm,path wide.ior.zst
other=$(other_of wide.folded) said=$(said_other wide.folded.err)
kept=$(grep -c '^stat-er;/;var;lib;containers;overlay;[0-9a-f]*;diff;usr;lib;file-[0-9]* 1$' wide.folded)
if [ "$RC" != 0 ]; then
	fail wide-collapsed "exit $RC: $(head -c 300 wide.folded.err)"
elif [ "$RSS_KIB" -ge "$LIMIT_KIB" ]; then
	fail wide-rss "peak RSS $RSS_KIB KiB, want < $LIMIT_KIB"
elif [ "$(sum_of wide.folded)" != "$N" ]; then
	fail wide-total "the folded counts add up to $(sum_of wide.folded), want $N"
elif [ -z "$other" ] || [ "$said" != "$other $N" ] || [ "$(wc -l <wide.folded.err)" != 1 ]; then
	fail wide-other "(other) holds ${other:-nothing}, stderr says '${said:-nothing}': $(head -c 300 wide.folded.err)"
elif [ "$((kept + 1))" != "$(wc -l <wide.folded)" ] || [ "$((kept + other))" != "$N" ]; then
	fail wide-stacks "$kept whole stacks of 1 pair + (other) $other of $(wc -l <wide.folded) lines, want $N pairs"
else
	pass "wide-collapsed ($RSS_KIB KiB peak, $kept stacks kept, $other pairs in (other))"
fi

measure wide.dur collapsed -fields=comm,path -count=duration wide.ior.zst
want=$(awk -v n="$N" 'BEGIN { for (i = 0; i < n; i++) s += 500 + i % 7; printf "%.0f\n", s }')
if [ "$RC" != 0 ] || [ "$(sum_of wide.dur)" != "$want" ] || [ -z "$(other_of wide.dur)" ]; then
	fail wide-duration "exit $RC, durations add up to $(sum_of wide.dur), want $want with an (other) frame"
else
	pass wide-duration
fi

# 2. the same drawn: SVG and JSON say (other)
measure wide.out -ior=wide.ior.zst -nohttp -flamegraphJson -fields=comm,path
svg=wide.comm:path-by-count.svg json=wide.comm:path-by-count.json
if [ "$RC" != 0 ]; then
	fail wide-flame "exit $RC: $(head -c 300 wide.out.err)"
elif [ "$RSS_KIB" -ge "$LIMIT_KIB" ]; then
	fail wide-flame-rss "peak RSS $RSS_KIB KiB, want < $LIMIT_KIB"
elif ! grep -q '(other)' "$svg" || ! python3 - "$json" "$other" <<'PY'; then
import json, sys
root = json.load(open(sys.argv[1]))
hit = [c for c in root["children"] if c["name"] == "(other)"]
sys.exit(0 if len(hit) == 1 and hit[0]["value"] == int(sys.argv[2]) else 1)
PY
	fail wide-flame "want an (other) frame in the SVG and one of $other pairs under the JSON root"
elif [ "$(said_other wide.out.err)" != "$other $N" ]; then
	fail wide-flame "stderr does not say the $other pairs in (other): $(head -c 300 wide.out.err)"
else
	pass "wide-flame ($RSS_KIB KiB peak)"
fi

# 3. every frame new: deep paths, all six fields
measure deep.folded collapsed -fields=comm,path,tracepoint,pid,tid,flags deep.ior.zst
if [ "$RC" != 0 ]; then
	fail deep-collapsed "exit $RC: $(head -c 300 deep.folded.err)"
elif [ "$RSS_KIB" -ge "$LIMIT_KIB" ]; then
	fail deep-rss "peak RSS $RSS_KIB KiB, want < $LIMIT_KIB"
elif [ "$(sum_of deep.folded)" != 600000 ] || [ "$(said_other deep.folded.err)" != "$(other_of deep.folded) 600000" ]; then
	fail deep-total "counts add up to $(sum_of deep.folded), want 600000; stderr: $(head -c 300 deep.folded.err)"
else
	pass "deep-collapsed ($RSS_KIB KiB peak)"
fi

# 4. few paths: every stack, nothing folded away
measure few.folded collapsed -fields=comm,path few.ior.zst
if [ "$RC" != 0 ] || [ -s few.folded.err ]; then
	fail few-collapsed "exit $RC, stderr: $(head -c 300 few.folded.err)"
elif [ "$(wc -l <few.folded)" != 100 ] || [ "$(sum_of few.folded)" != "$N" ] || [ -n "$(other_of few.folded)" ]; then
	fail few-collapsed "want 100 stacks adding up to $N and no (other), got $(wc -l <few.folded) adding up to $(sum_of few.folded)"
else
	pass "few-collapsed ($RSS_KIB KiB peak)"
fi

finish
