# shellcheck shell=bash
# Parquet readers other than DuckDB, for tests/integration/parquet.sh:
# arrow-rs (the Rust parquet crate, built to WebAssembly as parquet-wasm)
# and hyparquet (JavaScript), from npm into build/pqengines (kept there:
# later runs do not reach the network), run with the machine's node by
# tests/lib/pqengines.mjs.
#
#   pqengines_setup       installs them when missing; returns 1 with WHY
#   pqengines_read FILE   one JSON line per engine: schema and sorted rows

PQENGINES_DIR=${PQENGINES_DIR:-$ROOT/build/pqengines}
PQENGINES_PKGS="parquet-wasm@0.8.0 apache-arrow@21.2.0 hyparquet@1.33.0 hyparquet-compressors@1.1.2"

pqengines_setup() {
	command -v node >/dev/null || { WHY="node missing (apt-get install nodejs)"; return 1; }
	if [ ! -d "$PQENGINES_DIR/node_modules/hyparquet-compressors" ]; then
		command -v npm >/dev/null || { WHY="npm missing (apt-get install npm)"; return 1; }
		mkdir -p "$PQENGINES_DIR"
		# shellcheck disable=SC2086 # a list of packages
		if ! npm install --prefix "$PQENGINES_DIR" --no-audit --no-fund --loglevel=error $PQENGINES_PKGS \
			>"$PQENGINES_DIR/npm.log" 2>&1; then
			WHY="npm install $PQENGINES_PKGS into $PQENGINES_DIR failed (is registry.npmjs.org reachable?): $(tail -c 300 "$PQENGINES_DIR/npm.log")"
			return 1
		fi
	fi
	# beside node_modules, so that its imports resolve
	cp "$ROOT/tests/lib/pqengines.mjs" "$PQENGINES_DIR/read.mjs"
}

pqengines_read() {
	node "$PQENGINES_DIR/read.mjs" "$1"
}
