#!/bin/bash
# fio (Debian's) as a real client of async I/O: for the psync, io_uring
# and libaio engines (--rw=randrw --bs=4k --direct=1 --iodepth=8, 6144
# I/Os; io_uring also with its file registered, and on an SQPOLL ring),
# ior's pairs on fio's
# file equal fio's own JSON totals exactly,
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

# label, engine, ior's name of its reads, of its writes, fio's other flags
run_engine() {
	local label=$1 engine=$2 rd=$3 wr=$4 json="$T/fio-$1.json"
	shift 4
	IOR_OUT="$T/ior.fio-$label.csv" IOR_ERR="$T/ior.fio-$label.err"
	if ! timeout -k 5 120 "$IOR" -plain -- fio --name=t --filename="$F" --size=24M --rw=randrw --bs=4k --direct=1 \
		--iodepth=8 --ioengine="$engine" --randseed=29 --output-format=json --output="$json" "$@" \
		>"$IOR_OUT" 2>"$IOR_ERR" </dev/null; then
		fail "fio-$label-run" "ior -- fio failed: $(head -c 300 "$IOR_ERR")"
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
	) || { fail "fio-$label-json" "cannot read $json"; return; }
	read -r RIO RB WIO WB RLAT WLAT <<<"$want"
	echo "      fio $label: reads $RIO ($RB bytes), writes $WIO ($WB bytes)"
	check "fio-$label-counts" "path=$F" "count[name=$rd]==$RIO" "count[name=$wr]==$WIO" \
		"sum_bytes[name=$rd]==$RB" "sum_bytes[name=$wr]==$WB" "min_ret>=0"
	# ior's mean duration per op, at most fio's mean latency
	python3 - "$IOR_OUT" "$F" "$rd" "$wr" "$RLAT" "$WLAT" <<'PY' && pass "fio-$label-latency" || fail "fio-$label-latency" "ior's mean duration above fio's mean latency"
import csv, sys
path, rd, wr, rlat, wlat = sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]), float(sys.argv[6])
d = {rd: [], wr: []}
for row in csv.DictReader(open(sys.argv[1])):
    if row["name"] in d and (row["file"] == path or row["file"].startswith(path + "%(")):
        d[row["name"]].append(int(row["durationNs"]))
mr, mw = sum(d[rd]) / len(d[rd]), sum(d[wr]) / len(d[wr])
print("      ior %s: mean %.0f ns (fio %.0f), %s: mean %.0f ns (fio %.0f)" % (rd, mr, rlat, wr, mw, wlat))
sys.exit(0 if mr <= rlat and mw <= wlat else 1)
PY
}

run_engine psync psync pread64 pwrite64
if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" = 0 ]; then
	run_engine io_uring io_uring uring:read uring:write
	# its file registered (IOSQE_FIXED_FILE): named through the ring's table
	run_engine io_uring-registered io_uring uring:read uring:write --registerfiles=1
	# an SQPOLL ring: the kernel's poll thread submits; the ops are the
	# job thread's (it set the ring up), never the poll thread's
	run_engine io_uring-sqpoll io_uring uring:read uring:write --sqthread_poll=1
	check fio-io_uring-sqpoll-owner "path=$F" "count[name~uring:,comm~iou-sqp]==0" "tids[name~uring:]==1" \
		"pids[name~uring:]==1" "count[name~uring:,comm=fio]==$((RIO + WIO))"
else
	echo "SKIP: fio-io_uring: io_uring is disabled here"
fi
run_engine libaio libaio aio:pread aio:pwrite
finish
