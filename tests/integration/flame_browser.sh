#!/bin/bash
# The flamegraphs as a person sees them, in headless chromium (Debian's,
# driven by playwright-core): a recording's SVG, the differential SVG of
# two recordings of "basic" (N = 10 and N = 30), and the SVG of the
# "hostile" scenario's names. Each loads without a script or console
# error, every frame has a tooltip (the diff's with base and change), the
# labels are fitted, a click on a frame zooms it to the full width and
# shows Reset Zoom, Escape resets, a search marks a share of the graph,
# and the screenshot is not blank. Last, a recording of the "blockdev"
# scenario on a loop device (N O_DIRECT pwrite64 and pread64 of 4 KiB):
# the tooltip of each syscall's frame says the device time under it and
# its share of the frame's time, and both equal the recording's folded
# sums (ior collapsed -count=devicetime and -count=duration) exactly.
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

# device_share SVG: the browser's tooltips of pread64, pwrite64 and fsync
# against the folded sums of the recording
device_share() {
	local svg=$1 out why
	if ! out=$(browser_svg "$svg" "$T/device.png" read 2>"$T/device.err"); then
		fail browser-device-share "the browser failed: $(tail -c 400 "$T/device.err")"
		return
	fi
	"$IOR" collapsed -fields=tracepoint -count=devicetime "$DEVREC" >"$T/dev.folded" 2>"$T/dev.err" &&
		"$IOR" collapsed -fields=tracepoint -count=duration "$DEVREC" >"$T/time.folded" 2>>"$T/dev.err" ||
		{ fail browser-device-share "ior collapsed: $(head -c 300 "$T/dev.err")"; return; }
	if why=$(python3 - "$out" "$T/dev.folded" "$T/time.folded" <<'PY'
import json, sys
s = json.loads(sys.argv[1])
fold = lambda p: {l.rsplit(" ", 1)[0]: int(l.rsplit(" ", 1)[1]) for l in open(p) if l.strip()}
dev, time = fold(sys.argv[2]), fold(sys.argv[3])
if s["errors"]:
    sys.exit("errors in the page: %s" % s["errors"][:3])
for name in ("pread64", "pwrite64", "fsync"):
    if not dev.get(name):
        sys.exit("the recording has no device time under %s: %r" % (name, dev))
    want = "; device %.3f ms (%.1f%% of its %.3f ms)" % (dev[name] / 1e6, 100.0 * dev[name] / time[name], time[name] / 1e6)
    got = [t for t in s["titles"] if t.startswith(name + "\n")]
    if len(got) != 1 or not got[0].endswith(want):
        sys.exit("%s: tooltip %r, want it to end in %r" % (name, got, want))
    print("      " + got[0].replace("\n", " "))
if any("; device " in t for t in s["titles"] if t.split("\n")[0] in ("openat", "close")):
    sys.exit("a frame without requests says a device time")
PY
	); then
		pass browser-device-share
		echo "$why"
	else
		fail browser-device-share "$why"
	fi
}
if command -v losetup >/dev/null && truncate -s 16M "$T/disk.img" && LOOP=$(losetup -f --show "$T/disk.img"); then
	at_exit "losetup -d $LOOP"
	if ! record_scenario dev blockdev "$LOOP" 64; then
		fail browser-device-record "$WHY"
	else
		DEVREC=$REC
		if "$IOR" -ior="$DEVREC" -nohttp -fields=comm,tracepoint >/dev/null 2>"$T/devsvg.err"; then
			device_share "${DEVREC%.ior.zst}.comm:tracepoint-by-count.svg"
		else
			fail browser-device-svg "$(head -c 300 "$T/devsvg.err")"
		fi
	fi
else
	fail browser-device-setup "no loop device (losetup from util-linux)"
fi
finish
