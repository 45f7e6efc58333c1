#!/bin/bash
# ior -live: the flamegraph served while tracing.
#  - ior -live -pid WPID -fields=tracepoint -count=count: "Live flamegraph
#    at http://127.0.0.1:PORT/TOKEN" after the tracing line; /TOKEN is
#    200 text/html and shows /TOKEN/live.svg (/ and /live.svg are 404);
#    after the workload's basic scenario the served
#    SVG (polled, <= 6 s) has exactly one frame per syscall with the counts
#    trace_basic.sh expects, under an "all" of 2N+16 calls; it passes
#    xmllint; SIGINT: exit 0, the statistics, the port closed
#  - -live -plain -flamegraph -http=127.0.0.1:PORT -duration: the chosen
#    port, the default fields (comm,path,tracepoint), the same pairs in
#    the CSV and the recording, exit 0 at the -duration by itself
#  - usage: -live -nohttp and -live -fields=bogus exit 2
# Each group prints PASS: live:<name> / FAIL: live:<name>: <why>.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
flame_setup

N=20
TOTAL=$((2 * N + 16))
EXPECT="0 all $TOTAL
1 close 2
1 fsync 1
1 lseek 2
1 newfstat 1
1 newfstatat 1
1 openat 2
1 pread64 $N
1 read $((N + 1))
1 rename 1
1 renameat2 1
1 unlink 1
1 unlinkat 1
1 write 2"

# "DEPTH NAME COUNT" per frame of the SVG, sorted; names unescaped.
frames_of() { # SVG
	python3 - "$1" <<'PY'
import html, re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
rows = []
for d, title in re.findall(r'<g data-x="\d+" data-w="\d+" data-d="(\d+)"><title>([^<]*)</title>', text):
    name, _, value = html.unescape(title).rpartition("\n")
    m = re.match(r"([\d,]+) calls?, ", value)
    rows.append("%s %s %s" % (d, name, m.group(1).replace(",", "") if m else "?" + value))
print("\n".join(sorted(rows)))
PY
}

# Polls URL (every 0.25 s, <= SECONDS) until frames_of its body is WANT;
# the last body stays in OUT, the last frames in GOT.
poll_svg() { # URL OUT SECONDS WANT
	local url=$1 out=$2 limit=$3 want=$4 i
	GOT=""
	for ((i = 0; i < limit * 4; i++)); do
		if [ "$(http_get "$url" "$out")" = 200 ]; then
			GOT=$(frames_of "$out")
			[ "$GOT" = "$want" ] && return 0
		fi
		sleep 0.25
	done
	return 1
}

# Polls URL like poll_svg until frames_of its body has every line given.
poll_svg_has() { # URL OUT SECONDS LINE...
	local url=$1 out=$2 limit=$3 i line ok
	shift 3
	GOT=""
	for ((i = 0; i < limit * 4; i++)); do
		if [ "$(http_get "$url" "$out")" = 200 ]; then
			GOT=$(frames_of "$out")
			ok=1
			for line in "$@"; do
				grep -qxF -- "$line" <<<"$GOT" || ok=0
			done
			[ "$ok" = 1 ] && return 0
		fi
		sleep 0.25
	done
	return 1
}

live_url() { # sets LIVE_ORIGIN, LIVE_TOKEN, LIVE_BASE from "Live flamegraph at http://HOST:PORT/TOKEN"
	local line
	line=$(grep -m 1 '^Live flamegraph at ' "$IOR_ERR")
	[[ "$line" =~ ^Live\ flamegraph\ at\ (http://[^/]+)/([0-9a-f]{32})$ ]] || return 1
	LIVE_ORIGIN=${BASH_REMATCH[1]} LIVE_TOKEN=${BASH_REMATCH[2]}
	LIVE_BASE="$LIVE_ORIGIN/$LIVE_TOKEN"
}

# ---- -live -pid -fields=tracepoint -count=count -------------------------
mkdir -p "$T/d"
if ! start_workload basic "$T/d" "$N"; then
	fail live:start "$WHY"
	finish
	exit
fi
WPID=$WL_PID
if ! start_ior -live -pid "$WPID" -fields=tracepoint -count=count; then
	fail live:start "$WHY"
	finish
	exit
fi
if ! wait_until 2 live_url; then
	fail live:start "no \"Live flamegraph at http://HOST:PORT/TOKEN\" line: $(tail -c 300 "$IOR_ERR")"
elif [[ ! "$LIVE_ORIGIN" =~ ^http://127\.0\.0\.1:[1-9][0-9]*$ ]]; then
	fail live:start "URL $LIVE_BASE is not on 127.0.0.1 with a real port"
elif [ "$(grep -n -m 1 '^ior: tracing' "$IOR_ERR" | cut -d: -f1)" -gt \
	"$(grep -n -m 1 '^Live flamegraph at' "$IOR_ERR" | cut -d: -f1)" ]; then
	fail live:start "the URL line comes before the tracing line"
else
	pass live:start
fi

code=$(http_get "$LIVE_BASE" "$T/page.html")
ct=$(header_of "$T/page.html" Content-Type)
if [ "$code" != 200 ]; then
	fail live:page "GET $LIVE_BASE: status $code $(cat "$T/page.html.curlerr")"
elif [ "${ct%%;*}" != text/html ]; then
	fail live:page "Content-Type '$ct', want text/html"
elif ! grep -q "data-src=\"/$LIVE_TOKEN/live.svg\"" "$T/page.html"; then
	fail live:page "the page does not load /TOKEN/live.svg: $(head -c 300 "$T/page.html")"
else
	pass live:page
fi

# without the token the page and its SVG are not there
c1=$(http_get "$LIVE_ORIGIN/" "$T/notoken.html") c2=$(http_get "$LIVE_ORIGIN/live.svg" "$T/notoken.svg")
if [ "$c1" = 404 ] && [ "$c2" = 404 ]; then
	pass live:token
else
	fail live:token "GET / answered $c1, GET /live.svg $c2, want 404 without the token"
fi

release_workload
if ! wait_workload 30; then
	fail live:counts "$WHY"
elif ! poll_svg "$LIVE_BASE/live.svg" "$T/live.svg" 6 "$EXPECT"; then
	fail live:counts "after 6 s the SVG's frames are not the basic scenario's counts"
	diff <(echo "$EXPECT") <(echo "$GOT") | head -n 20 | sed 's/^/      /'
else
	pass live:counts
fi

ct=$(header_of "$T/live.svg" Content-Type)
if [ ! -s "$T/live.svg" ]; then
	fail live:svg "no SVG fetched"
elif [ "${ct%%;*}" != image/svg+xml ]; then
	fail live:svg "Content-Type '$ct', want image/svg+xml"
elif ! out=$(xmllint --noout "$T/live.svg" 2>&1); then
	fail live:svg "xmllint: $(echo "$out" | head -n 2)"
elif ! grep -q 'I/O flame graph: tracepoint by count' "$T/live.svg"; then
	fail live:svg "no title naming the fields and the metric"
else
	pass live:svg
fi

PORT=${LIVE_ORIGIN##*:}
if ! stop_ior INT; then
	fail live:sigint "$WHY"
elif ! grep -q "^ior: live flamegraph: $TOTAL pairs in 13 distinct stacks$" "$IOR_ERR"; then
	fail live:sigint "no \"ior: live flamegraph: $TOTAL pairs in 13 distinct stacks\" line: $(tail -c 300 "$IOR_ERR")"
elif code=$(http_get "http://127.0.0.1:$PORT/" "$T/after.html") && [ "$code" != 000 ]; then
	fail live:sigint "port $PORT still answers ($code) after ior exited"
else
	check_stats live:sigint-statistics "syscall pairs=$TOTAL" "after filters=$TOTAL" "lost=0" \
		"exits without an enter=0" "enters overwritten=0" "enters in flight at stop=0"
	pass live:sigint
fi

# ---- with -plain and -flamegraph, a chosen port, stopped by -duration ----
FREE=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$T/e"
if ! start_workload basic "$T/e" "$N"; then
	fail live:combined "$WHY"
elif ! start_ior -live -plain -flamegraph -name livetest -pid "$WL_PID" -http "127.0.0.1:$FREE" -duration 7; then
	fail live:combined "$WHY"
else
	WPID=$WL_PID
	release_workload
	if ! wait_until 2 live_url; then
		fail live:combined "no \"Live flamegraph at\" line: $(tail -c 300 "$IOR_ERR")"
	elif [ "$LIVE_ORIGIN" != "http://127.0.0.1:$FREE" ]; then
		fail live:combined "serving at $LIVE_ORIGIN, want http://127.0.0.1:$FREE (-http)"
	elif ! wait_workload 30; then
		fail live:combined "$WHY"
	elif ! poll_svg_has "$LIVE_BASE/live.svg" "$T/e.svg" 5 "6 data $((2 * N + 10))" "7 pread64 $N"; then
		fail live:combined "after 5 s no frames workload;/;tmp;$(basename "$T");e;data ($((2 * N + 10)) calls);pread64 ($N calls)"
		echo "$GOT" | sed 's/^/      /' | head -n 30
	elif ! wait_ior 12; then
		fail live:combined "$WHY"
	elif [ "$IOR_RC" != 0 ]; then
		fail live:combined "ior exited $IOR_RC at -duration: $(tail -c 300 "$IOR_ERR")"
	elif ! grep -q '^Wrote .*livetest.*\.ior\.zst ('"$TOTAL"' pairs' "$IOR_ERR"; then
		fail live:combined "no \"Wrote ... ($TOTAL pairs\" line: $(tail -c 300 "$IOR_ERR")"
	else
		pass live:combined
		check live:combined-csv pid="$WPID" "count==$TOTAL" "count[name=pread64]==$N"
	fi
fi

# ---- -live -baseline: the live graph against a recording of the same run ----
# The basic scenario recorded, then run again under -live -baseline with
# -normalize=total: every frame is in both, with the same count, so every
# tooltip says "base N calls, +0 calls (+0.0%)".
mkdir -p "$T/b1" "$T/b2"
if ! record_scenario baseline basic "$T/b1" "$N"; then
	fail live:baseline "$WHY"
elif ! start_workload basic "$T/b2" "$N"; then
	fail live:baseline "$WHY"
elif ! start_ior -live -pid "$WL_PID" -fields=tracepoint -baseline "$REC" -normalize=total; then
	fail live:baseline "$WHY"
elif ! wait_until 2 live_url; then
	fail live:baseline "no URL line: $(tail -c 300 "$IOR_ERR")"
else
	release_workload
	wait_workload 30
	got=""
	for ((i = 0; i < 24; i++)); do
		if [ "$(http_get "$LIVE_BASE/live.svg" "$T/bl.svg")" = 200 ] && grep -q 'differential flame graph' "$T/bl.svg"; then
			got=$(python3 - "$T/bl.svg" <<'PY'
import html, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
frames = re.findall(r'<title>([^<]*)</title>', t)
same = [f for f in frames if re.search(r"\n([\d,]+) calls?, [\d.]+%; base \1 calls?, \+0 calls? \(\+0\.0%\)$", html.unescape(f))]
print("%d %d" % (len(frames), len(same)))
PY
)
			[ "${got% *}" = "${got#* }" ] && [ "${got% *}" -ge 14 ] && break
		fi
		sleep 0.25
	done
	stop_ior
	if [ -n "$got" ] && [ "${got% *}" = "${got#* }" ] && [ "${got% *}" -ge 14 ]; then
		pass live:baseline
	else
		fail live:baseline "frames, unchanged: ${got:-no differential SVG} ($(grep -o 'I/O[^<]*graph' "$T/bl.svg" | head -1))"
	fi
fi

# ---- usage errors ----------------------------------------------------------
bad=""
for args in "-live -nohttp" "-live -fields=bogus" "-live -count=bogus" "-flamegraph -baseline x.ior.zst" \
	"-live -baseline x.ior.zst -normalize=bogus"; do
	# shellcheck disable=SC2086
	timeout 10 "$IOR" $args -duration 1 >"$T/usage.out" 2>"$T/usage.err"
	rc=$?
	[ "$rc" = 2 ] || bad="$bad${bad:+; }ior $args exited $rc, want 2 ($(head -c 200 "$T/usage.err"))"
	[ -s "$T/usage.out" ] && bad="$bad${bad:+; }ior $args wrote to stdout"
done
if [ -z "$bad" ]; then pass live:usage; else fail live:usage "$bad"; fi

finish
