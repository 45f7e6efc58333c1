# shellcheck shell=bash
# Sourced by scripts/bench.sh: the A/B phase, the figures the cost targets
# read.
#
# Separate traced and untraced runs of ~100 ms compare two moments of a
# shared VM whose speed drifts by tens of percent over seconds: the empty
# program's paired floor ranged over -598..2068 ns in one bench. Here the
# workload loops for AB_SECS while `iorprogstat floor` attaches the
# programs for AB_MS ms, detaches them for AB_MS, and so on (an attach or
# a detach takes ~0.3 ms); each attached stretch's median ns/syscall is
# compared with the detached stretches on either side, and the median of
# those differences is the added cost. The programs are:
#   empty      the empty program on sys_enter and sys_exit: the floor
#   clock      one bpf_ktime_get_ns in it: what the timing contract's two
#              clock reads per pair cost on their own
#   task       one bpf_get_current_task: a helper call's own cost
#   ior-flame  ior -flamegraph's syscall programs, ior started with
#   ior-plain  -benchDetached (loaded, not attached) and toggled from
#              outside, its reader and recording running as usual
# Rows of $W/ab: tracer wl run added_ns q1 q3 segments
AB_KINDS=${AB_KINDS:-empty clock task ior-flame ior-plain}

ab_gen() { # WL: the generator's command line for an A/B run
	echo "$(gen_pin "$1") $GEN ${WL_MODE[$1]} -t $AB_SECS -threads ${WL_THREADS[$1]} -blocks $W/ab.blocks"
}

# One A/B run; KIND is a probe kind or pid=PID. Appends its row.
ab_run() { # TRACER WL RUN KIND
	local out
	rm -f "$W"/ab.blocks*
	# shellcheck disable=SC2046 # ab_gen prints words without spaces
	out=$("$PROGSTAT" floor "$4" "$AB_MS" "$W/ab.blocks" $(ab_gen "$2") 2>&1 | tail -n 1)
	case $out in
	"iorprogstat: floor "*added_ns=*)
		echo "$out" | awk -v t="$1" -v w="$2" -v r="$3" '{
			for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			print t, w, r, v["added_ns"], v["q1"], v["q3"], v["segments"] }' >>"$W/ab" ;;
	*) problem "A/B $1 $2: $out" ;;
	esac
}

bench_ab() {
	local run w k
	[ "$AB_RUNS" -gt 0 ] || return 0
	[ -x "$PROGSTAT" ] || { problem "$PROGSTAT missing: run make build/iorprogstat"; return 1; }
	: >"$W/ab"
	log "A/B: $AB_KINDS; ${AB_SECS} s loops, toggled every $AB_MS ms; $AB_RUNS runs of every workload"
	for ((run = 1; run <= AB_RUNS; run++)); do
		for w in ${AB_WLS:-${WLS[*]}}; do
			for k in $AB_KINDS; do
				case $k in
				ior-*)
					want "$k" || continue
					# shellcheck disable=SC2046 # ior_args prints words without spaces
					ior_start "ab-$k-$w-$run" "$W/ab-$k" /dev/null -benchDetached \
						$(ior_args "$k" "$w" "ab$run") || continue
					ab_run "$k" "$w" "$run" "pid=$IOR_PID"
					stop_proc "$IOR_PID" 300 || problem "ab-$k: ior did not stop on SIGINT within 300 s"
					;;
				*) ab_run "$k" "$w" "$run" "$k" ;;
				esac
			done
		done
	done
}

# The median over the runs of TRACER's A/B added ns on WL ("" if none).
ab_ns() { # TRACER WL
	awk -v t="$1" -v w="$2" '$1 == t && $2 == w { print $4 }' "$W/ab" 2>/dev/null | median
}

# min..max over the runs, and the widest quartile range within a run.
ab_spread() { # TRACER WL
	awk -v t="$1" -v w="$2" '$1 == t && $2 == w {
		if (n++ == 0 || $4 < lo) lo = $4; if (n == 1 || $4 > hi) hi = $4
		if (n == 1 || $5 < q1) q1 = $5; if (n == 1 || $6 > q3) q3 = $6 }
		END { if (n) printf "%.0f..%.0f, q %.0f..%.0f", lo, hi, q1, q3 }' "$W/ab" 2>/dev/null
}

# The floor's stability over the runs: the largest distance of a run
# from their median, in percent of it.
ab_stability() { # WL
	local m
	m=$(ab_ns empty "$1")
	[ -n "$m" ] || return 0
	awk -v w="$1" -v m="$m" '$1 == "empty" && $2 == w { d = $4 - m; if (d < 0) d = -d; if (d > dmax) dmax = d; n++ }
		END { if (n >= 2 && m > 0) printf "%.0f", 100 * dmax / m }' "$W/ab"
}
