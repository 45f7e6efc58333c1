#!/bin/bash
# ior's user-space cost per pair in instructions: build/iorhot (the drain,
# merge, pairing and each sink on synthetic batches, no kernel) under
# callgrind, counting only its consumer loop (run()). Instructions do not
# drift with the machine's load as time does.
#
# usage: scripts/bench_hot.sh [--baseline REV] [--pairs N] [--threads LIST] [--modes LIST]
#   --baseline REV  also build/iorhot of git revision REV (scripts/baseline.sh)
#   --pairs N       pairs per pass (default 200000; two passes are counted)
#   --threads L     comma-separated thread counts (default 1,4)
#   --modes L       comma-separated iorhot outputs (default plain,flame,stats,dash,none;
#                   a mode REV's iorhot lacks shows -)
# Prints a markdown table: instructions per pair for each mode and thread
# count, this tree's and REV's, and their ratio.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
# shellcheck source=scripts/baseline.sh
. "$ROOT/scripts/baseline.sh"
BASELINE="" PAIRS=200000 THREADS=1,4 MODES=plain,flame,stats,dash,none

usage() { sed -n '7,14p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
	case $1 in
	--baseline) BASELINE=${2:-}; shift ;;
	--pairs) PAIRS=${2:-}; shift ;;
	--threads) THREADS=${2:-}; shift ;;
	--modes) MODES=${2:-}; shift ;;
	-h | --help) usage 0 ;;
	*) echo "bench_hot.sh: unknown argument '$1'" >&2; usage 2 ;;
	esac
	shift
done
case $PAIRS in '' | *[!0-9]* | 0) echo "bench_hot.sh: --pairs needs a positive number" >&2; exit 2 ;; esac
command -v valgrind >/dev/null || { echo "bench_hot.sh: valgrind missing: scripts/deps.sh bench" >&2; exit 1; }
make -j2 build/iorhot >/dev/null || { echo "bench_hot.sh: make build/iorhot failed" >&2; exit 1; }
[ -n "$BASELINE" ] && baseline_build "$ROOT" "$BASELINE" build/iorhot
W=$(mktemp -d /tmp/iorhot.XXXXXX) || exit 1
trap 'rm -rf "$W"' EXIT

# Instructions per pair of BIN's run() for MODE with THREADS threads.
count() { # BIN MODE THREADS
	local out=$W/cg
	valgrind --tool=callgrind --toggle-collect='run*' --callgrind-out-file="$out" \
		"$1" "$2" -pairs "$PAIRS" -threads "$3" -reps 1 -out "$W/hot.ior.zst" >/dev/null 2>"$W/err" ||
		{ echo "bench_hot.sh: $1 $2 failed: $(tail -n 2 "$W/err")" >&2; return 1; }
	awk -v p="$PAIRS" '/^summary:/ { printf "%.0f", $2 / (2 * p) }' "$out"
}

echo "| output | threads | instructions/pair${BASELINE:+ | @$BASE_NAME | @$BASE_NAME / this} |"
echo "|---|---:|---:${BASELINE:+|---:|---:}|"
for m in ${MODES//,/ }; do
	for t in ${THREADS//,/ }; do
		a=$(count "$ROOT/build/iorhot" "$m" "$t") || exit 1
		if [ -n "$BASELINE" ]; then
			if "$BASE_DIR/build/iorhot" "$m" -pairs 1 -reps 1 -out "$W/probe.ior.zst" >/dev/null 2>&1; then
				b=$(count "$BASE_DIR/build/iorhot" "$m" "$t") || exit 1
				echo "| $m | $t | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }') |"
			else
				echo "| $m | $t | $a | - | - |"
			fi
		else
			echo "| $m | $t | $a |"
		fi
	done
done
