# shellcheck shell=bash
# ior as it was at a git revision, for the benches' A/B against it
# (sourced by scripts/bench.sh and scripts/bench_hot.sh).
#
# baseline_build ROOT REV TARGET...: builds TARGETs (make targets, e.g.
# ior build/iorhot) of REV from git archive (no checkout, no worktree) in
# ROOT/build/baseline/SHA, kept for the next run; sets BASE_DIR and
# BASE_NAME (the short hash). Exits 2 on an unknown revision, 1 when the
# build fails (its log is BASE_DIR.log).
baseline_build() {
	local root=$1 rev=$2 sha t missing=""
	shift 2
	sha=$(git -C "$root" rev-parse --verify --quiet "$rev^{commit}") ||
		{ echo "--baseline '$rev': not a git revision of $root" >&2; exit 2; }
	BASE_DIR=$root/build/baseline/$sha
	# shellcheck disable=SC2034 # read by the sourcing script
	BASE_NAME=$(git -C "$root" rev-parse --short "$sha")
	for t in "$@"; do [ -x "$BASE_DIR/$t" ] || missing="$missing $t"; done
	[ -n "$missing" ] || return 0
	echo "baseline: building$missing of $rev ($sha) in $BASE_DIR" >&2
	if [ ! -f "$BASE_DIR/GNUmakefile" ]; then
		rm -rf "$BASE_DIR" && mkdir -p "$BASE_DIR" || exit 1
		git -C "$root" archive "$sha" | tar -x -C "$BASE_DIR" ||
			{ echo "--baseline $rev: git archive failed" >&2; exit 1; }
	fi
	# shellcheck disable=SC2086 # target names have no spaces
	if ! make -C "$BASE_DIR" -j2 $missing >"$BASE_DIR.log" 2>&1; then
		echo "--baseline $rev: make$missing failed: $(tail -n 3 "$BASE_DIR.log"); see $BASE_DIR.log" >&2
		exit 1
	fi
}
