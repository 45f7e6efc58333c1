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

. "$ROOT/tests/lib/npm.sh"

DUCKDB_DIR=${DUCKDB_DIR:-$ROOT/build/duckdb}
DUCKDB_PKG="@duckdb/node-api@1.5.6-r.1"

duckdb_setup() {
	npm_setup "$DUCKDB_DIR" "$DUCKDB_PKG" || return 1
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
