# shellcheck shell=bash disable=SC2034 # WHY is read by the caller
# npm packages for tests, installed once into a directory of build/ (kept
# there: later runs do not reach the network) and run with the machine's
# node. Sourced by tests/lib/duckdb.sh and tests/lib/pqengines.sh.
#
#   npm_setup DIR PACKAGE...   installs the packages into DIR unless the
#                              last one is there; returns 1 with WHY set

npm_setup() {
	local dir=$1 last
	shift
	last=${*: -1}
	last=${last%@*}
	command -v node >/dev/null || { WHY="node missing (apt-get install nodejs)"; return 1; }
	[ -d "$dir/node_modules/$last" ] && return 0
	command -v npm >/dev/null || { WHY="npm missing (apt-get install npm)"; return 1; }
	mkdir -p "$dir"
	if ! npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "$@" >"$dir/npm.log" 2>&1; then
		WHY="npm install $* into $dir failed (is registry.npmjs.org reachable?): $(tail -c 300 "$dir/npm.log")"
		return 1
	fi
}
