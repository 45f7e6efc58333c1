#!/bin/bash
# io_uring per operation: the workload's "uring" scenario on raw io_uring
# syscalls (tests/workload.c has the exact ops): one uring:OP pair per
# request, charged to the submitter, named through its fd table (an
# openat op's fd too), bytes = the result, EBADF an error, IOSQE_ASYNC
# (io-wq) charged to the submitter too, a registered (fixed) file named
# through the ring's table, a request refused before submission (an
# unknown sqe flag) a pair with its error; async pairs stay out of the gap
# chain (durationToPrevNs 0) and the syscalls around them keep theirs
# (only the first has none; tests/unit/test_trace_pair.c checks them exactly).
. "$(dirname "$0")/../lib/common.sh"
setup

D="$T/uring"
mkdir -p "$D"

if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" != 0 ]; then
	echo "SKIP: uring: io_uring is disabled here (kernel.io_uring_disabled)"
elif ! trace_scenario -- uring "$D"; then
	fail uring-run "$WHY"
else
	P=$WL_LAST
	check uring-counts pid=$P "count[name=uring:read]==10" "count[name=uring:write]==2" \
		"count[name=uring:openat]==1" "count[name=uring:close]==1" "count[name~uring:]==14" \
		"count[name=uring:read,ret=-22,file=]==1" "count[name=io_uring_enter]==11" \
		"count[name=io_uring_register]==1" "count[name=pread64]==1" "count==27"
	check uring-bytes pid=$P "sum_bytes[name=uring:read]==13412" "sum_bytes[name=uring:write]==4196"
	check uring-files pid=$P "count[name=uring:read,path=$D/data,fd=4]==6" "count[name=uring:read,file=]==1" \
		"sum_bytes[name=uring:read,path=$D/data]==13312" \
		"count[name=uring:read,file=$D/data,ret=1024]==1" \
		"count[name=uring:write,path=$D/data,fd=4]==1" \
		"count[name=uring:openat,path=$D/other,fd=5,ret=5]==1" \
		"count[name=uring:write,path=$D/other,fd=5,ret=100]==1" \
		"count[name=uring:read,path=$D/other,fd=5,ret=100]==1" \
		"count[name=uring:close,path=$D/other,fd=5,ret=0]==1"
	check uring-errors pid=$P "count[name=uring:read,ret=-9,fd=999,path=]==1" "count[ret=-9]==1" \
		"min_ret[name!~uring:]>=0" "min_ret[name!=uring:read]>=0" "count[ret=-22]==1"
	check uring-submitter pid=$P "tids==1" "count[comm=workload]==27"
	check uring-durations pid=$P "min_dur[name~uring:]>=0" "max_dur[name~uring:]<1000000000"
	check uring-out-of-gap-chain pid=$P "max_gap[name~uring:]==0" "count[name!~uring:,gap=0]==1"
	check uring-syscall-gaps pid=$P "max_gap[name=io_uring_enter]<50000000" "max_gap[name=pread64]<50000000"
	check_stats uring-statistics "syscall pairs=27" "after filters=27" "lost=0" \
		"exits without an enter=0" "enters overwritten=0" "enters in flight at stop=0"
fi

# selection by name and family: only the ops, or only the syscalls
if trace_scenario -trace-syscalls uring:read,uring:write -- uring "$D"; then
	check uring-select-names pid=$WL_LAST "count==12" "count[name=uring:read]==10" "count[name=uring:write]==2"
else
	fail uring-select-run "$WHY"
fi
if trace_scenario -trace-families AIO -- uring "$D"; then
	check uring-select-family pid=$WL_LAST "count[name~uring:]==0" "count[name=io_uring_enter]==11"
else
	fail uring-family-run "$WHY"
fi
finish
