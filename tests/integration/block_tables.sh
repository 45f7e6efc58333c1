#!/bin/bash
# The device table beyond -summary, on a loop device nothing else uses
# (tests/integration/trace_block.sh has the rest): two recordings of the
# workload's "blockdev" scenario (N O_DIRECT pwrite64, an fsync, N
# pread64 of 4 KiB), N=16 then N=48, each traced with -parquet too.
#  - ior parquet REC: OUT.devices.parquet, read by DuckDB, holds ior
#    summary's Devices rows for the same recording exactly, and the
#    loop device's completed requests and sectors in /proc/diskstats;
#    OUT.device_hist.parquet holds each row's issued requests; the live
#    -parquet run's device files hold the same rows
#  - ior diff -summary (-json, -normalize total): the loop device's rows
#    are BASE's and NEW's summaries' exactly, NEW reading more; the text
#    has the devices table; -normalize rate scales BASE's requests
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/duckdb.sh"
setup
cd "$T" || exit 1
CHECK="$TESTS_DIR/lib/devtables.py"

if ! duckdb_setup; then
	fail duckdb-setup "$WHY"
	finish
	exit
fi
. "$ROOT/tests/lib/loopdev.sh"
loopdev 64M block

dc() { pycheck "$1" "$CHECK" "${@:2}"; } # NAME ARGS...: devtables.py

COLS="SELECT host, device, major::VARCHAR AS major, minor::VARCHAR AS minor, op, requests::VARCHAR AS requests,
	bytes::VARCHAR AS bytes, errors::VARCHAR AS errors, in_syscalls::VARCHAR AS in_syscalls,
	syscall_bytes::VARCHAR AS syscall_bytes, not_issued::VARCHAR AS not_issued,
	device_min_ns::VARCHAR AS device_min_ns, device_p50_ns::VARCHAR AS device_p50_ns,
	device_p99_ns::VARCHAR AS device_p99_ns, device_max_ns::VARCHAR AS device_max_ns,
	queue_p50_ns::VARCHAR AS queue_p50_ns, device_sum_ns::VARCHAR AS device_sum_ns FROM"
HCOLS="SELECT device, op, latency, lo_ns::VARCHAR AS lo_ns, hi_ns::VARCHAR AS hi_ns, requests::VARCHAR AS requests FROM"

# record N: the scenario of N, recorded (REC_N) and written live as Parquet
declare -A REC
record() {
	local n=$1
	start_workload blockdev "$LOOP" "$n" || return 1
	start_ior -flamegraph -name "blk$n" -pid "$WL_PID" -parquet "$T/live$n.parquet" || return 1
	cp /proc/diskstats "$T/before$n"
	release_workload
	wait_workload 30 || return 1
	settle
	stop_ior || return 1
	cp /proc/diskstats "$T/after$n"
	REC[$n]=$(sed -n 's/^Wrote \(.*\.ior\.zst\) (.*/\1/p' "$IOR_ERR" | head -n 1)
	case ${REC[$n]} in /*) ;; *) REC[$n]=$T/${REC[$n]} ;; esac
	[ -f "${REC[$n]}" ] || { WHY="no recording: $(tail -c 300 "$IOR_ERR")"; return 1; }
	grep -q "^Wrote $T/live$n.devices.parquet and $T/live$n.device_hist.parquet (the device table: [0-9]* rows)$" "$IOR_ERR" ||
		{ WHY="-parquet did not say it wrote the device files: $(grep '^Wrote' "$IOR_ERR" | tr '\n' ' ')"; return 1; }
}

for n in 16 48; do
	if ! record "$n"; then
		fail "record-$n" "$WHY"
		continue
	fi
	pass "record-$n ($(basename "${REC[$n]}"))"
	"$IOR" summary "${REC[$n]}" >"$T/summary$n" 2>"$T/summary$n.err" || fail "summary-$n" "$(cat "$T/summary$n.err")"
	if ! "$IOR" parquet "${REC[$n]}" -o "$T/conv$n.parquet" 2>"$T/conv$n.err"; then
		fail "parquet-$n" "$(cat "$T/conv$n.err")"
		continue
	fi
	if ! grep -qx "Wrote $T/conv$n.devices.parquet and $T/conv$n.device_hist.parquet (the device table: [0-9]* rows)" "$T/conv$n.err"; then
		fail "parquet-$n-said" "$(cat "$T/conv$n.err")"
	fi
	# one node process for the four queries: a line each
	if duckdb_sql "$COLS '$T/conv$n.devices.parquet' ORDER BY device, op" \
		"$HCOLS '$T/conv$n.device_hist.parquet' ORDER BY device, op, latency, lo_ns" \
		"$COLS '$T/live$n.devices.parquet' ORDER BY device, op" \
		"$HCOLS '$T/live$n.device_hist.parquet' ORDER BY device, op, latency, lo_ns" >"$T/duck$n.json" 2>&1; then
		sed -n 1p "$T/duck$n.json" >"$T/conv$n.dev.json"
		sed -n 2p "$T/duck$n.json" >"$T/conv$n.hist.json"
		sed -n 3p "$T/duck$n.json" >"$T/live$n.dev.json"
		sed -n 4p "$T/duck$n.json" >"$T/live$n.hist.json"
	else
		fail "duckdb-$n" "$(head -c 600 "$T/duck$n.json")"
	fi
	dc "parquet-devices-$n" parquet "$T/summary$n" "$T/conv$n.dev.json" "$T/conv$n.hist.json" \
		"$T/before$n" "$T/after$n" "$DEV"
	dc "parquet-live-same-$n" same "$T/conv$n.dev.json" "$T/live$n.dev.json"
	dc "parquet-live-hist-same-$n" same "$T/conv$n.hist.json" "$T/live$n.hist.json"
done

# ior diff -summary: BASE 16, NEW 48
if [ -n "${REC[16]:-}" ] && [ -n "${REC[48]:-}" ]; then
	if "$IOR" diff -summary -json -normalize total "${REC[16]}" "${REC[48]}" >"$T/diff.json" 2>"$T/diff.err"; then
		dc diff-json-devices diff "$T/diff.json" "$T/summary16" "$T/summary48" "$DEV"
	else
		fail diff-json "$(cat "$T/diff.err")"
	fi
	"$IOR" diff -summary -normalize total "${REC[16]}" "${REC[48]}" >"$T/diff.txt" 2>&1
	r16=$(awk -v d="$DEV" '$1 == d && $2 == "read" { print $3 }' "$T/summary16")
	r48=$(awk -v d="$DEV" '$1 == d && $2 == "read" { print $3 }' "$T/summary48")
	if grep -q '^devices (block requests; BASE.s requests, bytes and device time x 1)$' "$T/diff.txt" &&
		grep -Eq "^  $DEV +read +$r16 -> $r48 " "$T/diff.txt"; then
		pass "diff-text-devices ($DEV read $r16 -> $r48)"
	else
		fail diff-text-devices "no devices table or no \"$DEV read $r16 -> $r48\" row: $(grep -A4 '^devices' "$T/diff.txt" | tr '\n' '|')"
	fi
	# -normalize rate: BASE's requests x the factor, rounded
	"$IOR" diff -summary -json "${REC[16]}" "${REC[48]}" >"$T/rate.json" 2>&1
	if python3 - "$T/rate.json" "$DEV" "$r16" <<'PY'; then
import json, sys
j = json.load(open(sys.argv[1]))
r = [x for x in j["devices"] if x["device"] == sys.argv[2] and x["op"] == "read"][0]
want = int(round(int(sys.argv[3]) * j["factor"]))
print("factor %.4f: BASE's %s reads as %d (want %d)" % (j["factor"], sys.argv[3], r["requests"][0], want))
sys.exit(j["normalize"] != "rate" or r["requests"][0] != want)
PY
		pass diff-rate-scaled
	else
		fail diff-rate-scaled "$(head -c 300 "$T/rate.json")"
	fi
fi
finish
