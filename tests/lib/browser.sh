# shellcheck shell=bash
# What a person sees in a browser (tests/integration/flame_browser.sh):
# Debian's chromium driven by playwright-core from npm, installed into
# build/browser (kept there: later runs do not reach the network).
#
#   browser_setup          installs it when missing; returns 1 with WHY set
#   browser_svg FILE PNG   opens FILE (an SVG flamegraph) as a person
#                          would, clicks and searches in it, saves PNG;
#                          prints one JSON object of what it saw

. "$ROOT/tests/lib/npm.sh"

BROWSER_DIR=${BROWSER_DIR:-$ROOT/build/browser}
BROWSER_PKG="playwright-core@1.65.2"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

browser_setup() {
	[ -x "$CHROMIUM" ] || { WHY="$CHROMIUM missing (scripts/deps.sh test installs chromium)"; return 1; }
	npm_setup "$BROWSER_DIR" "$BROWSER_PKG" || return 1
	cp "$ROOT/tests/lib/svg_view.mjs" "$BROWSER_DIR/svg_view.mjs" # beside node_modules: import resolves
}

browser_svg() {
	CHROMIUM=$CHROMIUM timeout 120 node "$BROWSER_DIR/svg_view.mjs" "$@"
}
