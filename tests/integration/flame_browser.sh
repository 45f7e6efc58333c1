#!/bin/bash
# The flamegraphs as a person sees them, in headless chromium (Debian's,
# driven by playwright-core): a recording's SVG, the differential SVG of
# two recordings of "basic" (N = 10 and N = 30), and the SVG of the
# "hostile" scenario's names. Each loads without a script or console
# error, every frame has a tooltip (the diff's with base and change), the
# labels are fitted, a click on a frame zooms it to the full width and
# shows Reset Zoom, Escape resets, a search marks a share of the graph,
# and the screenshot is not blank.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
. "$(dirname "$0")/../lib/browser.sh"
flame_setup
if ! browser_setup; then
	fail browser-setup "$WHY"
	finish
	exit
fi

mkdir -p "$T/b" "$T/n" "$T/h"
if ! record_scenario base basic "$T/b" 10 || ! { BASE=$REC; record_scenario new basic "$T/n" 30; } ||
	! { NEW=$REC; record_scenario evil hostile "$T/h"; }; then
	fail browser-record "$WHY"
	finish
	exit
fi
EVIL=$REC
"$IOR" -ior="$NEW" -nohttp >/dev/null 2>"$T/svg.err" &&
	"$IOR" diff -nohttp "$BASE" "$NEW" >/dev/null 2>>"$T/svg.err" &&
	"$IOR" -ior="$EVIL" -nohttp >/dev/null 2>>"$T/svg.err" ||
	fail browser-svgs "$(head -c 300 "$T/svg.err")"

# view NAME SVG [diff]: the checks of one SVG in the browser
view() {
	local name=$1 svg=$2 diff=${3:-} out why
	if [ ! -f "$svg" ]; then
		fail "browser-$name" "no $svg: $(ls "$(dirname "$svg")" | tr '\n' ' ')"
		return
	fi
	if ! out=$(browser_svg "$svg" "$T/$name.png" read 2>"$T/$name.err"); then
		fail "browser-$name" "the browser failed: $(tail -c 400 "$T/$name.err")"
		return
	fi
	if why=$(python3 - "$out" "$T/$name.png" "$diff" <<'PY'
import json, struct, sys, zlib
s, png, diff = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
if s["errors"]:
    sys.exit("errors in the page: %s" % s["errors"][:3])
if s["frames"] < 3:
    sys.exit("%d frames" % s["frames"])
if any(not t.strip() for t in s["titles"]):
    sys.exit("a frame without a tooltip")
if diff and not all(" base " in t for t in s["titles"]):
    sys.exit("a diff tooltip without base: %r" % [t for t in s["titles"] if " base " not in t][:1])
if diff and "BASE" not in s["subtitle"]:
    sys.exit("the subtitle does not say which is BASE: %r" % s["subtitle"])
if s["fitted"] < 2:
    sys.exit("%d labels fitted" % s["fitted"])
z = s["zoom"]
if not z or abs(z["width"] - 1180) > 0.01 or not z["unzoomShown"] or z["afterEscape"]:
    sys.exit("zoom: %r (want the frame 1180 wide, Reset Zoom shown, hidden after Escape)" % z)
if "%" not in s["matched"]:
    sys.exit("search for read marked nothing: %r" % s["matched"])
data = open(png, "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("the screenshot is no PNG")
idat, pos = b"", 8
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
if len(set(zlib.decompress(idat))) < 16:
    sys.exit("the screenshot is blank")
PY
	); then
		pass "browser-$name"
	else
		fail "browser-$name" "$why"
	fi
}
# the SVGs are written beside their recordings
view svg "${NEW%.ior.zst}.comm:path:tracepoint-by-count.svg"
view diff "${NEW%.ior.zst}.comm:path:tracepoint-by-count.diff.svg" diff
view hostile "${EVIL%.ior.zst}.comm:path:tracepoint-by-count.svg"
finish
