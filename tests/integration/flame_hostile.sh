#!/bin/bash
# The workload's "hostile" scenario (a path spelling
#   DIR/evil,"quoted"<NL>line<e-acute><0xff></text><script>alert(1)</script>
# out of directory names, see tests/workload.c) recorded and drawn:
#  - the SVG is well-formed (xmllint) and, parsed as XML, has exactly one
#    script element (ior's own, before the frames), no on* attributes, and
#    the hostile names only as text: each name is a frame whose <title>
#    first line and <text> are the name, with no raw newline splitting it
#  - the raw bytes hold no "<script>alert" and one "<script" in all
#  - the same SVG is served with nosniff; the JSON parses and holds the
#    names as strings; ior collapsed keeps one stack per line
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
flame_setup

D="$T/h"
mkdir -p "$D"
if ! record_scenario evil hostile "$D"; then
	fail hostile-record "$WHY"
	finish
	exit
fi
if [ "$REC_PAIRS" = 11 ]; then
	pass hostile-record
else
	fail hostile-record "Wrote says $REC_PAIRS pairs, the scenario makes 11"
fi
BASE=${REC%.ior.zst}
SVG="$BASE.comm:path:tracepoint-by-count.svg"
JSON="$BASE.comm:path:tracepoint-by-count.json"

if ! out=$("$IOR" -ior="$REC" -nohttp -flamegraphJson 2>&1); then
	fail hostile-draw "ior -ior=FILE -nohttp exited $?: $out"
	finish
	exit
fi
pass hostile-draw

if out=$(xmllint --noout "$SVG" 2>&1); then
	pass hostile-svg-xmllint
else
	fail hostile-svg-xmllint "$(echo "$out" | head -n 3)"
fi

# python3 svgcheck.py SVG DIR: the DOM holds the names as text only
cat >"$T/svgcheck.py" <<'PY'
import sys
import xml.etree.ElementTree as ET

svg, top = sys.argv[1], sys.argv[2]
raw = open(svg, "rb").read()
if b"<script>alert" in raw:
    sys.exit("raw <script>alert( in the SVG")
if raw.count(b"<script") != 1:
    sys.exit("%d '<script' in the raw SVG, want ior's one" % raw.count(b"<script"))
root = ET.fromstring(raw)
local = lambda e: e.tag.rsplit("}", 1)[-1]
elems = list(root.iter())
scripts = [e for e in elems if local(e) == "script"]
if len(scripts) != 1:
    sys.exit("%d script elements, want ior's one" % len(scripts))
if (scripts[0].text or "").find("alert(1)") >= 0:
    sys.exit("the hostile name leaked into ior's script")
frames = [e for e in elems if local(e) == "g" and e.get("id") == "frames"]
if len(frames) != 1 or scripts[0] in list(frames[0].iter()):
    sys.exit("want one #frames group, and the script outside it")
onattr = [(local(e), a) for e in elems for a in e.attrib if a.lower().startswith("on")]
if onattr:
    sys.exit("event-handler attributes: %r" % onattr[:5])
names = {}
for g in frames[0].iter():
    if local(g) != "g":
        continue
    kids = {local(k): k for k in g}
    if "title" not in kids:
        continue
    title = kids["title"].text or ""
    if title.count("\n") != 1:
        sys.exit("a frame title with %d newlines (a raw newline from a name?): %r" % (title.count("\n"), title))
    name = title.split("\n")[0]
    names[name] = (kids["text"].text or "") if "text" in kids else ""
want = ["text><script>alert(1)<", "script>"]
for w in want:
    if w not in names:
        sys.exit("no frame titled %r; titles: %r" % (w, sorted(names)[:20]))
    if names[w] != w:
        sys.exit("frame %r shows the text %r" % (w, names[w]))
evil = [n for n in names if n.startswith('evil,"quoted"')]
if len(evil) != 1 or "line\u00e9" not in evil[0] or not evil[0].endswith("<"):
    sys.exit("want one frame evil,\"quoted\"...line\u00e9...<, got %r" % evil)
if names[evil[0]] != evil[0]:
    sys.exit("frame %r shows the text %r" % (evil[0], names[evil[0]]))
# the path above the hostile names is the scenario's directory
for c in [p for p in top.split("/") if p]:
    if c not in names:
        sys.exit("no frame for the path component %r" % c)
PY
if out=$(python3 "$T/svgcheck.py" "$SVG" "$D" 2>&1); then
	pass hostile-svg-dom
else
	fail hostile-svg-dom "$out"
fi

if ! out=$(python3 - "$JSON" <<'PY' 2>&1
import json, sys
t = json.load(open(sys.argv[1], encoding="utf-8"))
names = set()
def walk(n):
    names.add(n["name"])
    for k in n.get("children", []):
        walk(k)
walk(t)
for w in ("text><script>alert(1)<", "script>"):
    if w not in names:
        sys.exit("JSON: no node named %r" % w)
if any("\n" in n for n in names):
    sys.exit("JSON: a name with a raw newline")
if t["value"] != 11:
    sys.exit("JSON: root value %r, want 11" % t["value"])
PY
); then
	fail hostile-json "$out"
elif ! python3 -m json.tool "$JSON" >/dev/null 2>&1; then
	fail hostile-json "python3 -m json.tool refuses $JSON"
else
	pass hostile-json
fi

"$IOR" collapsed "$REC" >"$T/h.folded" 2>"$T/h.err"
rc=$?
if [ "$rc" != 0 ] || [ -s "$T/h.err" ]; then
	fail hostile-collapsed "exit $rc: $(head -c 300 "$T/h.err")"
elif [ "$(wc -l <"$T/h.folded")" != 9 ] || grep -qv '^workload;/;.* [0-9][0-9]*$' "$T/h.folded"; then
	fail hostile-collapsed "want 9 lines 'workload;/;... N', got: $(head -c 400 "$T/h.folded")"
elif [ "$(awk '{ s += $NF } END { print s }' "$T/h.folded")" != 11 ]; then
	fail hostile-collapsed "the stacks do not add up to 11 pairs"
else
	pass hostile-collapsed
fi

if ! start_server -ior="$REC" -http=127.0.0.1:0; then
	fail hostile-served "$WHY"
else
	code=$(http_get "$SRV_URL" "$T/served.svg")
	if [ "$code" != 200 ] || ! cmp -s "$T/served.svg" "$SVG"; then
		fail hostile-served "GET $SRV_URL: status $code or not the SVG written"
	elif [ "$(header_of "$T/served.svg" X-Content-Type-Options)" != nosniff ]; then
		fail hostile-served "no X-Content-Type-Options: nosniff"
	else
		pass hostile-served
	fi
	stop_server INT || fail hostile-server-stop "$WHY"
fi

finish
