# shellcheck shell=bash
# Parquet readers other than DuckDB, for tests/integration/parquet.sh:
# arrow-rs (the Rust parquet crate, built to WebAssembly as parquet-wasm)
# and hyparquet (JavaScript), from npm into build/pqengines (kept there:
# later runs do not reach the network), run with the machine's node by
# tests/lib/pqengines.mjs.
#
#   pqengines_setup       installs them when missing; returns 1 with WHY
#   pqengines_read FILE   one JSON line per engine: schema and rows

. "$ROOT/tests/lib/npm.sh"

PQENGINES_DIR=${PQENGINES_DIR:-$ROOT/build/pqengines}
PQENGINES_PKGS="parquet-wasm@0.8.0 apache-arrow@21.2.0 hyparquet@1.33.0 hyparquet-compressors@1.1.2"

pqengines_setup() {
	# shellcheck disable=SC2086 # a list of packages
	npm_setup "$PQENGINES_DIR" $PQENGINES_PKGS || return 1
	# beside node_modules, so that its imports resolve
	cp "$ROOT/tests/lib/pqengines.mjs" "$PQENGINES_DIR/read.mjs"
}

pqengines_read() {
	node "$PQENGINES_DIR/read.mjs" "$1"
}
