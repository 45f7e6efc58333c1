#!/bin/bash
# ior -ior=FILE -iorWatchInterval=200ms: the served flamegraph follows the
# recording. Two recordings of "basic" (N=5: 26 pairs, N=50: 116 pairs)
# are drawn once with -nohttp as references; then FILE starts as the first
# and is replaced:
#  - cp over it (in place): within WATCH_LIMIT seconds (default 2) the
#    served SVG is byte for byte the second's, the SVG next to FILE too,
#    and the served JSON holds 116 pairs
#  - mv of a copy over it (a new inode): back to the first's SVG
#  - half a recording written, then the rest: the server stays up and ends
#    on the full recording's SVG
#  - junk bytes: the last good SVG stays served, one line on stderr; a
#    good recording after it is drawn
#  - a recording still being written by ior -flamegraph: the graph grows
#    (truncated) and ends with every pair, not truncated
#  - the "Reloading page at" URL serves the page that embeds the SVG; /
#    redirects to it; SIGINT exits 0
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
flame_setup

LIMIT=${WATCH_LIMIT:-2}
mkdir -p "$T/a" "$T/b" "$T/w"
if ! record_scenario small basic "$T/a" 5; then
	fail watch-record "$WHY"
	finish
	exit
fi
A=$REC
if ! record_scenario large basic "$T/b" 50; then
	fail watch-record "$WHY"
	finish
	exit
fi
B=$REC
if ! render_svg "$A" "$T/A.svg" || ! render_svg "$B" "$T/B.svg"; then
	fail watch-render "$WHY"
	finish
	exit
fi
if cmp -s "$T/A.svg" "$T/B.svg"; then
	fail watch-render "the two recordings draw the same SVG"
	finish
	exit
fi
pass watch-render

W="$T/w/watched.ior.zst"
WSVG="$T/w/watched.comm:path:tracepoint-by-count.svg"
cp "$A" "$W"
if ! start_server -ior="$W" -iorWatchInterval=200ms -http=127.0.0.1:0 -flamegraphJson; then
	fail watch-start "$WHY"
	finish
	exit
fi
JSON_URL="$SRV_BASE/watched.comm:path:tracepoint-by-count.json"

code=$(http_get "$SRV_URL" "$T/s0.svg")
if [ "$code" = 200 ] && cmp -s "$T/s0.svg" "$T/A.svg"; then
	pass watch-initial
else
	fail watch-initial "GET $SRV_URL: status $code, or not the first recording's SVG"
fi

page=$(sed -n 's/^Reloading page at \(http:[^ ]*\) (regenerated when .* changes)$/\1/p' "$SRV_OUT")
if [ -z "$page" ]; then
	fail watch-page "no \"Reloading page at URL (regenerated when FILE changes)\" line: $(head -c 300 "$SRV_OUT")"
else
	code=$(http_get "$page" "$T/page.html")
	ct=$(header_of "$T/page.html" Content-Type)
	rcode=$(http_get "$SRV_BASE" "$T/root" -L --max-redirs 3)
	if [ "$code" != 200 ] || [ "${ct%%;*}" != text/html ]; then
		fail watch-page "GET $page: status $code, Content-Type '$ct'"
	elif ! grep -q 'watched\.comm\(:\|%3[Aa]\)path\(:\|%3[Aa]\)tracepoint-by-count\.svg' "$T/page.html"; then
		fail watch-page "the page does not embed the SVG route"
	elif [ "$rcode" != 200 ] || ! cmp -s "$T/root" "$T/page.html"; then
		fail watch-page "/ does not lead to the reloading page (status $rcode)"
	else
		pass watch-page
	fi
fi

# Polls the served SVG every 0.1 s for at most 10 s until it equals $1;
# sets WAITED_MS or returns 1.
wait_served() { # WANT_SVG
	local start now i code
	start=$(date +%s%N)
	for ((i = 0; i < 100; i++)); do
		code=$(http_get "$SRV_URL" "$T/poll.svg")
		if [ "$code" = 200 ] && cmp -s "$T/poll.svg" "$1"; then
			now=$(date +%s%N)
			WAITED_MS=$(((now - start) / 1000000))
			return 0
		fi
		alive "$SRV_PID" || { WHY="the server exited: $(tail -c 300 "$SRV_ERR")"; return 1; }
		sleep 0.1
	done
	WHY="the served SVG did not become $(basename "$1") within 10 s"
	return 1
}

# 1. cp over the file: in place
cp "$B" "$W"
if ! wait_served "$T/B.svg"; then
	fail watch-cp "$WHY"
elif [ "$WAITED_MS" -gt $((LIMIT * 1000)) ]; then
	fail watch-cp "the served SVG changed after $WAITED_MS ms, want <= ${LIMIT}s"
elif ! cmp -s "$WSVG" "$T/B.svg"; then
	fail watch-cp "the SVG next to the recording was not rewritten"
else
	pass watch-cp
	echo "      watch-cp: the new SVG was served after $WAITED_MS ms"
fi
code=$(http_get "$JSON_URL" "$T/w.json")
if [ "$code" = 200 ] && python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["value"] == 116 else 1)' "$T/w.json" 2>/dev/null; then
	pass watch-json
else
	fail watch-json "GET the JSON after the change: status $code, or its value is not 116 pairs"
fi

# 2. mv over it: a new file under the same name
cp "$A" "$T/w/.next"
mv -f "$T/w/.next" "$W"
if ! wait_served "$T/A.svg"; then
	fail watch-mv "$WHY"
elif [ "$WAITED_MS" -gt $((LIMIT * 1000)) ]; then
	fail watch-mv "the served SVG changed after $WAITED_MS ms, want <= ${LIMIT}s"
else
	pass watch-mv
fi

# 3. half a recording for a second, then all of it
size=$(stat -c %s "$B")
head -c $((size / 2)) "$B" >"$W"
sleep 1
if ! alive "$SRV_PID"; then
	fail watch-partial "the server exited on half a recording: $(tail -c 300 "$SRV_ERR")"
else
	tail -c +$((size / 2 + 1)) "$B" >>"$W"
	if ! cmp -s "$W" "$B"; then
		fail watch-partial "test bug: the file was not rebuilt"
	elif ! wait_served "$T/B.svg"; then
		fail watch-partial "$WHY"
	else
		pass watch-partial
	fi
fi

# 4. bytes that are no recording: the last good graph stays, ior says why;
# a good recording afterwards is drawn again
head -c 3000 /dev/urandom >"$W"
sleep 1
code=$(http_get "$SRV_URL" "$T/junk.svg")
if ! alive "$SRV_PID"; then
	fail watch-junk "the server exited on a junk file: $(tail -c 300 "$SRV_ERR")"
elif [ "$code" != 200 ] || ! cmp -s "$T/junk.svg" "$T/B.svg"; then
	fail watch-junk "with junk in the file the served SVG is no longer the last good one (status $code)"
elif ! grep -q "^ior: .*watched.ior.zst: " "$SRV_ERR"; then
	fail watch-junk "no line on stderr about the unreadable recording"
else
	cp "$A" "$W"
	if wait_served "$T/A.svg"; then
		pass watch-junk
	else
		fail watch-junk "after the junk: $WHY"
	fi
fi

if ! stop_server INT; then
	fail watch-sigint "$WHY"
elif [ "$SRV_RC" != 0 ]; then
	fail watch-sigint "exit $SRV_RC after SIGINT: $(tail -c 300 "$SRV_ERR")"
else
	pass watch-sigint
fi

# 5. watching a recording while ior -flamegraph still writes it: the graph
# grows with each flushed frame (truncated: no trailer yet), and after
# ior stops it holds every pair and is no longer truncated
LOOPF=/dev/shm/ior-flame-watch.$$
[ -d /dev/shm ] || LOOPF="$T/loopfile"
at_exit "rm -f '$LOOPF'"
echo x >"$LOOPF"
mkdir -p "$T/live"
cd "$T/live" || exit 1
# value and truncated of the served JSON tree, "" when not served
json_state() {
	http_get "$SRV_BASE/$LIVE_NAME.comm:path:tracepoint-by-count.json" "$T/live.json" >/dev/null
	python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); print(t["value"], str(t["truncated"]).lower())' "$T/live.json" 2>/dev/null
}
if ! start_workload loop "$LOOPF" 100000000; then
	fail watch-live "$WHY"
elif ! start_ior -flamegraph -name live -pid "$WL_PID"; then
	fail watch-live "$WHY"
else
	release_workload
	shopt -s nullglob
	files=("$T"/live/*-live-*.ior.zst)
	shopt -u nullglob
	if [ "${#files[@]}" != 1 ]; then
		fail watch-live "want one *-live-*.ior.zst in the cwd while recording, found ${#files[@]}"
	elif ! start_server -ior="${files[0]}" -iorWatchInterval=200ms -http=127.0.0.1:0 -flamegraphJson; then
		fail watch-live "$WHY"
	else
		LIVE_NAME=${files[0]##*/}
		LIVE_NAME=${LIVE_NAME%.ior.zst}
		seen=() last=-1 shrank=""
		for ((i = 0; i < 16; i++)); do
			read -r v tr <<<"$(json_state)"
			if [ -n "$v" ] && [ "$v" != "$last" ]; then
				[ "$v" -lt "$last" ] && shrank="$last then $v"
				seen+=("$v:$tr")
				last=$v
			fi
			sleep 0.25
		done
		stop_ior INT
		ior_ok=$?
		kill -KILL "$WL_PID" 2>/dev/null
		wait "$WL_PID" 2>/dev/null
		WL_PID=""
		pairs=$(sed -n 's/^Wrote .* (\([0-9]*\) pairs, [0-9]* bytes)$/\1/p' "$IOR_ERR")
		final=""
		for ((i = 0; i < 50; i++)); do
			final=$(json_state)
			[ "$final" = "$pairs false" ] && break
			sleep 0.1
		done
		growing=0
		for x in "${seen[@]}"; do
			[ "${x#*:}" = true ] && [ "${x%%:*}" -gt 0 ] && growing=$((growing + 1))
		done
		if [ "$ior_ok" != 0 ] || [ -z "$pairs" ]; then
			fail watch-live "the recording did not end cleanly: $WHY $(tail -c 200 "$IOR_ERR")"
		elif [ -n "$shrank" ]; then
			fail watch-live "the served graph shrank while recording: $shrank"
		elif [ "$growing" -lt 2 ]; then
			fail watch-live "want >= 2 growing truncated graphs while recording, saw: ${seen[*]}"
		elif [ "$final" != "$pairs false" ]; then
			fail watch-live "after ior stopped the graph is '$final', want '$pairs false' (value, truncated)"
		else
			pass watch-live
		fi
		stop_server INT || fail watch-live-stop "$WHY"
	fi
fi
cd "$T" || exit 1

finish
