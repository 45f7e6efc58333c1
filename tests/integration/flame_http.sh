#!/bin/bash
# ior -ior=FILE: the flamegraph written and served.
#  - -http=127.0.0.1:0 -flamegraphJson: "Flamegraph available at
#    http://127.0.0.1:PORT/TOKEN/<base>.comm:path:tracepoint-by-count.svg"; GET
#    is 200 image/svg+xml, xmllint-clean and the file written next to the
#    recording; HEAD has the length and no body; / redirects to the SVG;
#    the JSON route and file parse and hold every pair
#  - hostile requests: ../ (raw and percent-encoded) is 404/400 and never
#    a file, a 64 KiB header is 431 or 400, POST is 405, idle connections
#    do not block others, 200 idle clients (more than the bound) do not keep a GET from its 200; the server still serves the SVG afterwards
#  - SIGINT: exit 0, the port closed
#  - default -http: 127.0.0.1 and a free port
#  - a file name with " %#?&<>": the printed URL and / work
#  - -nohttp with -fields/-count: <base>.<f1:f2:f3>-by-<metric>.svg, exit 0
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
flame_setup

N=10
TOTAL=$((2 * N + 16))
mkdir -p "$T/d"
if ! record_scenario web basic "$T/d" "$N"; then
	fail http-record "$WHY"
	finish
	exit
fi
BASE=${REC%.ior.zst}
NAME=${BASE##*/}
SVG="$BASE.comm:path:tracepoint-by-count.svg"
JSON="$BASE.comm:path:tracepoint-by-count.json"

if ! start_server -ior="$REC" -http=127.0.0.1:0 -flamegraphJson; then
	fail http-start "$WHY"
	finish
	exit
fi
if [[ ! "$SRV_ORIGIN" =~ ^http://127\.0\.0\.1:[0-9]+$ ]] || [ "${SRV_ORIGIN##*:}" = 0 ]; then
	fail http-url "server URL $SRV_BASE is not http://127.0.0.1:PORT with a real port"
elif [ "$SRV_ROUTE" != "/$NAME.comm:path:tracepoint-by-count.svg" ]; then
	fail http-url "route $SRV_ROUTE, want /$NAME.comm:path:tracepoint-by-count.svg"
else
	pass http-url
fi

svg_ok() { # NAME OUT CODE: 200, image/svg+xml, well-formed, the file on disk
	local name=$1 out=$2 code=$3 ct
	ct=$(header_of "$out" Content-Type)
	if [ "$code" != 200 ]; then
		fail "$name" "GET $SRV_URL: status $code $(cat "$out.curlerr")"
	elif [ "${ct%%;*}" != image/svg+xml ]; then
		fail "$name" "Content-Type '$ct', want image/svg+xml"
	elif ! out_x=$(xmllint --noout "$out" 2>&1); then
		fail "$name" "xmllint: $(echo "$out_x" | head -n 2)"
	elif ! cmp -s "$out" "$SVG"; then
		fail "$name" "the served SVG is not the file $SVG"
	else
		pass "$name"
	fi
}

code=$(http_get "$SRV_URL" "$T/get.svg")
svg_ok http-get-svg "$T/get.svg" "$code"
if grep -q "$TOTAL calls" "$T/get.svg"; then
	pass http-svg-total
else
	fail http-svg-total "the SVG does not mention the $TOTAL calls recorded"
fi

# HEAD over a raw socket: the head must carry the length and no body follow
if ! out=$(python3 - "${SRV_ORIGIN##*:}" "/$SRV_TOKEN$SRV_ROUTE" "$(stat -c %s "$SVG")" <<'PY' 2>&1
import socket, sys
port, route, size = int(sys.argv[1]), sys.argv[2], sys.argv[3]
s = socket.create_connection(("127.0.0.1", port), timeout=5)
s.sendall(("HEAD %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % route).encode())
data = b""
while True:
    b = s.recv(65536)
    if not b:
        break
    data += b
head, sep, body = data.partition(b"\r\n\r\n")
lines = head.decode("latin-1").split("\r\n")
if not sep or lines[0] != "HTTP/1.1 200 OK":
    sys.exit("HEAD: %r" % data[:200])
fields = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
if fields.get("content-length") != size:
    sys.exit("HEAD: Content-Length %r, the file has %s bytes" % (fields.get("content-length"), size))
if body:
    sys.exit("HEAD: %d bytes of body after the head" % len(body))
PY
); then
	fail http-head "$out"
else
	pass http-head
fi

code=$(http_get "$SRV_BASE" "$T/root")
loc=$(header_of "$T/root" Location)
if [[ ! "$code" =~ ^30[1278]$ ]] || [ -z "$loc" ]; then
	fail http-redirect "GET /: status $code, Location '$loc', want a redirect to the SVG"
else
	code=$(http_get "$SRV_BASE" "$T/root.svg" -L --max-redirs 3)
	if [ "$code" = 200 ] && cmp -s "$T/root.svg" "$SVG"; then
		pass http-redirect
	else
		fail http-redirect "following / (Location $loc) ended with status $code and not the SVG"
	fi
fi

code=$(http_get "$SRV_BASE/$NAME.comm:path:tracepoint-by-count.json" "$T/get.json")
ct=$(header_of "$T/get.json" Content-Type)
if [ "$code" != 200 ] || [ "${ct%%;*}" != application/json ]; then
	fail http-json "GET the JSON: status $code, Content-Type '$ct'"
elif ! out=$(python3 -m json.tool "$T/get.json" 2>&1 >/dev/null); then
	fail http-json "python3 -m json.tool: $out"
elif ! cmp -s "$T/get.json" "$JSON"; then
	fail http-json "the served JSON is not the file $JSON"
elif ! out=$(python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))
def total(n):
    kids = n.get("children", [])
    if kids and n["value"] != sum(k["value"] for k in kids) + n.get("self", 0):
        sys.exit("node %r: value %d is not its children + self" % (n["name"], n["value"]))
    for k in kids:
        total(k)
total(t)
if t["value"] != int(sys.argv[2]):
    sys.exit("root value %d, want %s pairs" % (t["value"], sys.argv[2]))
' "$T/get.json" "$TOTAL" 2>&1); then
	fail http-json "$out"
else
	pass http-json
fi

# hostile requests
code=$(http_get "$SRV_BASE/../../../etc/passwd" "$T/trav" --path-as-is)
if [ "$code" != 404 ] || grep -q '^root:' "$T/trav"; then
	fail http-traversal "GET /../../../etc/passwd: status $code, want 404"
else
	pass http-traversal
fi
code=$(http_get "$SRV_BASE/%2e%2e/%2e%2e/%2e%2e/etc/passwd" "$T/trav2" --path-as-is)
if [[ ! "$code" =~ ^40[04]$ ]] || grep -q '^root:' "$T/trav2"; then
	fail http-traversal-encoded "GET /%2e%2e/.../etc/passwd: status $code, want 404 or 400"
else
	pass http-traversal-encoded
fi
code=$(http_get "$SRV_BASE/$NAME.ior.zst" "$T/rec")
if [ "$code" != 404 ]; then
	fail http-only-artifacts "GET the recording itself: status $code, want 404"
else
	pass http-only-artifacts
fi
big=$(head -c 65536 /dev/zero | tr '\0' a)
code=$(http_get "$SRV_URL" "$T/big" -H "X-Big: $big")
if [[ ! "$code" =~ ^4(31|00)$ ]]; then
	fail http-big-header "a 64 KiB header: status $code, want 431 or 400"
else
	pass http-big-header
fi
code=$(http_get "$SRV_URL" "$T/post" -X POST -d x=1)
if [ "$code" != 405 ]; then
	fail http-post "POST: status $code, want 405"
else
	pass http-post
fi
# idle connections (a few clients that never send) do not block the rest
port=${SRV_ORIGIN##*:}
exec 7<>"/dev/tcp/127.0.0.1/$port" 8<>"/dev/tcp/127.0.0.1/$port" 9<>"/dev/tcp/127.0.0.1/$port"
printf 'GET / HTTP/1.1\r\nHost: x\r\n' >&8 # half a head
code=$(http_get "$SRV_URL" "$T/again.svg")
svg_ok http-while-idle-clients "$T/again.svg" "$code"
exec 7>&- 8>&- 9>&-
code=$(http_get "$SRV_URL" "$T/after.svg")
svg_ok http-still-serving "$T/after.svg" "$code"

# 200 idle clients, more than the connection bound: a new request still
# gets its SVG within a second (the quietest idle socket makes room)
if ! out=$(python3 - "${SRV_ORIGIN##*:}" "$SRV_URL" <<'PY' 2>&1
import socket, subprocess, sys, time
port, url = int(sys.argv[1]), sys.argv[2]
def get():
    t = time.time()
    r = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5", url],
                       capture_output=True, text=True)
    return r.stdout, time.time() - t
idle = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(200)]
time.sleep(0.3)
code, took = get()
if code != "200" or took > 1:
    sys.exit("with 200 idle clients: status %s after %.1f s, want 200 within 1 s" % (code, took))
for c in idle:
    c.close()
for _ in range(20):
    code, took = get()
    if code == "200":
        break
    time.sleep(0.1)
if code != "200":
    sys.exit("after the idle clients left: status %s, want 200" % code)
PY
); then
	fail http-connection-bound "$out"
else
	pass http-connection-bound
fi

if ! stop_server INT; then
	fail http-sigint "$WHY"
elif [ "$SRV_RC" != 0 ]; then
	fail http-sigint "exit $SRV_RC after SIGINT: $(tail -c 300 "$SRV_ERR")"
elif [ -s "$SRV_ERR" ]; then
	fail http-sigint "stderr: $(head -c 300 "$SRV_ERR")"
elif curl -s --max-time 2 -o /dev/null "$SRV_URL"; then
	fail http-sigint "port ${SRV_ORIGIN##*:} still answers after exit"
else
	pass http-sigint
fi

# no -http: 127.0.0.1 and a free port; -flamegraphJson off: no JSON route
rm -f "$JSON"
if ! start_server -ior="$REC"; then
	fail http-default "$WHY"
else
	code=$(http_get "$SRV_URL" "$T/default.svg")
	jcode=$(http_get "$SRV_BASE/$NAME.comm:path:tracepoint-by-count.json" "$T/default.json")
	if [[ ! "$SRV_ORIGIN" =~ ^http://127\.0\.0\.1:[1-9][0-9]*$ ]]; then
		fail http-default "URL $SRV_URL is not on 127.0.0.1 with a port"
	elif [ "$code" != 200 ] || ! cmp -s "$T/default.svg" "$SVG"; then
		fail http-default "GET $SRV_URL: status $code or not the SVG"
	elif [ "$jcode" != 404 ] || [ -e "$JSON" ]; then
		fail http-default "without -flamegraphJson the JSON was served ($jcode) or written"
	else
		pass http-default
	fi
	stop_server INT || fail http-default-stop "$WHY"
fi

# a recording whose name needs percent-encoding in a URL: the printed URL
# works, and so does / (its Location is encoded too)
ODD="$T/odd"
mkdir -p "$ODD"
cp "$REC" "$ODD/my rec%20#1?x&y=<b>.ior.zst"
if ! start_server -ior="$ODD/my rec%20#1?x&y=<b>.ior.zst" -http=127.0.0.1:0; then
	fail http-odd-name "$WHY"
else
	code=$(http_get "$SRV_URL" "$T/odd.svg")
	rcode=$(http_get "$SRV_BASE" "$T/odd-root.svg" -L --max-redirs 3)
	if [ "$code" != 200 ] || ! cmp -s "$T/odd.svg" "$ODD/my rec%20#1?x&y=<b>.comm:path:tracepoint-by-count.svg"; then
		fail http-odd-name "GET $SRV_URL: status $code, or not the SVG written next to the recording"
	elif [ "$rcode" != 200 ] || ! cmp -s "$T/odd-root.svg" "$T/odd.svg"; then
		fail http-odd-name "following / ended with status $rcode, not the SVG"
	else
		pass http-odd-name
	fi
	stop_server INT || fail http-odd-name-stop "$WHY"
fi

# -nohttp: writes the file named after fields and metric, exits 0
if ! out=$(timeout 30 "$IOR" -ior="$REC" -nohttp -fields=pid,comm,tracepoint -count=duration -flamegraphJson 2>"$T/nohttp.err"); then
	fail nohttp "exit $?: $(head -c 300 "$T/nohttp.err")"
else
	f="$BASE.pid:comm:tracepoint-by-duration.svg"
	j="$BASE.pid:comm:tracepoint-by-duration.json"
	if [ "$out" != "Wrote $f"$'\n'"Wrote $j" ]; then
		fail nohttp "stdout '$out', want Wrote $f and Wrote $j"
	elif ! xmllint --noout "$f" 2>/dev/null; then
		fail nohttp "$f is not well-formed XML"
	elif ! python3 -m json.tool "$j" >/dev/null 2>&1; then
		fail nohttp "$j is not JSON"
	elif ! grep -q "by duration" "$f" || ! grep -q "<title>pid $REC_WPID\$" "$f"; then
		fail nohttp "$f does not name the metric or show the pid frame $REC_WPID"
	else
		pass nohttp
	fi
fi
if ! out=$(timeout 30 "$IOR" -ior="$REC" -nohttp -fields=tracepoint -count=bytes 2>&1); then
	fail nohttp-bytes "exit $?: $out"
elif [ "$out" != "Wrote $BASE.tracepoint-by-bytes.svg" ] || ! xmllint --noout "$BASE.tracepoint-by-bytes.svg"; then
	fail nohttp-bytes "output '$out', want Wrote $BASE.tracepoint-by-bytes.svg (well-formed)"
else
	pass nohttp-bytes
fi

finish
