# shellcheck shell=bash
# DuckDB for tests that read what ior writes (tests/integration/parquet.sh):
# @duckdb/node-api from npm into build/duckdb (kept there: later runs do
# not reach the network), run with the machine's node.
#
#   duckdb_setup        installs it when missing; returns 1 with WHY set
#                       when node or npm is missing or the install fails
#   duckdb_sql SQL...   runs each statement, prints each result as one
#                       JSON line (an array of row objects, numbers as
#                       strings where they may not fit a double)

DUCKDB_DIR=${DUCKDB_DIR:-$ROOT/build/duckdb}
DUCKDB_PKG="@duckdb/node-api@1.5.6-r.1"

duckdb_setup() {
	command -v node >/dev/null || { WHY="node missing (apt-get install nodejs)"; return 1; }
	if [ ! -d "$DUCKDB_DIR/node_modules/@duckdb/node-api" ]; then
		command -v npm >/dev/null || { WHY="npm missing (apt-get install npm)"; return 1; }
		mkdir -p "$DUCKDB_DIR"
		if ! npm install --prefix "$DUCKDB_DIR" --no-audit --no-fund --loglevel=error "$DUCKDB_PKG" \
			>"$DUCKDB_DIR/npm.log" 2>&1; then
			WHY="npm install $DUCKDB_PKG into $DUCKDB_DIR failed (is registry.npmjs.org reachable?): $(tail -c 300 "$DUCKDB_DIR/npm.log")"
			return 1
		fi
	fi
	# the script lives beside node_modules so that import resolves
	cat >"$DUCKDB_DIR/sql.mjs" <<'JS'
import { DuckDBInstance } from '@duckdb/node-api';
const con = await (await DuckDBInstance.create(':memory:')).connect();
for (const q of process.argv.slice(2)) {
	const r = await con.runAndReadAll(q);
	console.log(JSON.stringify(r.getRowObjectsJson()));
}
JS
}

duckdb_sql() {
	node "$DUCKDB_DIR/sql.mjs" "$@"
}
