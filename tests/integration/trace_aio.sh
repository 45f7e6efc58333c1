#!/bin/bash
# libaio per iocb: the workload's "aio" scenario on raw io_submit and
# io_getevents (tests/workload.c has the exact ops): one aio:OP pair per
# iocb, read at io_submit's enter and completed at the io_getevents exit
# that returned its event, with its file, bytes and result; an iocb
# io_submit refused (EBADF) is no op; async pairs stay out of the gap
# chain and the syscalls keep theirs.
. "$(dirname "$0")/../lib/common.sh"
setup

D="$T/aio"
mkdir -p "$D"

if ! trace_scenario -- aio "$D"; then
	fail aio-run "$WHY"
else
	P=$WL_LAST
	check aio-counts pid=$P "count[name=aio:pread]==5" "count[name=aio:pwrite]==1" \
		"count[name=aio:fsync]==1" "count[name=aio:preadv]==1" "count[name~aio:]==8" \
		"count[name=io_submit]==6" "count[name=io_getevents]==6" "count[name=pread64]==1" "count==21"
	check aio-bytes pid=$P "sum_bytes[name=aio:pread]==7268" "sum_bytes[name=aio:pwrite]==4096" \
		"sum_bytes[name=aio:preadv]==1024" "count[name=aio:fsync,ret=0]==1"
	check aio-files pid=$P "count[name~aio:,path=$D/data,fd=3]==8" "min_ret[name~aio:]>=0"
	check aio-refused pid=$P "count[name=io_submit,ret=1]==5" "count[name=io_submit,ret=3]==1"
	check aio-durations pid=$P "min_dur[name~aio:]>=0" "max_dur[name~aio:]<1000000000" "tids==1"
	check aio-out-of-gap-chain pid=$P "max_gap[name~aio:]==0" "count[name!~aio:,gap=0]==1"
	check_stats aio-statistics "syscall pairs=21" "after filters=21" "lost=0" \
		"exits without an enter=0" "enters overwritten=0" "enters in flight at stop=0"
fi
finish
