#!/bin/bash
# fio (Debian's) as a real client of async I/O: for the psync, io_uring
# and libaio engines (--rw=randrw --bs=4k --direct=1 --iodepth=8, 6144
# I/Os), ior's pairs on fio's file equal fio's own JSON totals exactly,
# per op (count and bytes), and ior's mean duration per op is at most
# fio's mean total latency (ior's interval lies inside fio's).
. "$(dirname "$0")/../lib/common.sh"
setup

if ! command -v fio >/dev/null; then
	echo "SKIP: fio: not installed (scripts/deps.sh test installs it)"
	exit 0
fi

F="$T/fio.dat"
head -c 24M /dev/zero >"$F" # laid out before: fio only reads and writes it

# engine, ior's name of its reads, of its writes
run_engine() {
	local engine=$1 rd=$2 wr=$3 json="$T/fio-$1.json"
	IOR_OUT="$T/ior.fio-$engine.csv" IOR_ERR="$T/ior.fio-$engine.err"
	if ! timeout -k 5 120 "$IOR" -plain -- fio --name=t --filename="$F" --size=24M --rw=randrw --bs=4k --direct=1 \
		--iodepth=8 --ioengine="$engine" --randseed=29 --output-format=json --output="$json" \
		>"$IOR_OUT" 2>"$IOR_ERR" </dev/null; then
		fail "fio-$engine-run" "ior -- fio failed: $(head -c 300 "$IOR_ERR")"
		return
	fi
	local want
	want=$(python3 - "$json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
r, w = j["read"], j["write"]
print(r["total_ios"], r["io_bytes"], w["total_ios"], w["io_bytes"],
      int(r["lat_ns"]["mean"]), int(w["lat_ns"]["mean"]))
PY
	) || { fail "fio-$engine-json" "cannot read $json"; return; }
	read -r RIO RB WIO WB RLAT WLAT <<<"$want"
	echo "      fio $engine: reads $RIO ($RB bytes), writes $WIO ($WB bytes)"
	check "fio-$engine-counts" "path=$F" "count[name=$rd]==$RIO" "count[name=$wr]==$WIO" \
		"sum_bytes[name=$rd]==$RB" "sum_bytes[name=$wr]==$WB" "min_ret>=0"
	# ior's mean duration per op, at most fio's mean latency
	python3 - "$IOR_OUT" "$F" "$rd" "$wr" "$RLAT" "$WLAT" <<'PY' && pass "fio-$engine-latency" || fail "fio-$engine-latency" "ior's mean duration above fio's mean latency"
import csv, sys
path, rd, wr, rlat, wlat = sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), float(sys.argv[6])
d = {rd: [], wr: []}
for row in csv.DictReader(open(sys.argv[1])):
    if row["name"] in d and row["file"].startswith(path + "%("):
        d[row["name"]].append(int(row["durationNs"]))
mr, mw = sum(d[rd]) / len(d[rd]), sum(d[wr]) / len(d[wr])
print("      ior %s: mean %.0f ns (fio %.0f), %s: mean %.0f ns (fio %.0f)" % (rd, mr, rlat, wr, mw, wlat))
sys.exit(0 if mr <= rlat and mw <= wlat else 1)
PY
}

run_engine psync pread64 pwrite64
if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" = 0 ]; then
	run_engine io_uring uring:read uring:write
else
	echo "SKIP: fio-io_uring: io_uring is disabled here"
fi
run_engine libaio aio:pread aio:pwrite
finish
