#!/bin/bash
# fd -> path resolution: an fd opened before ior attached is resolved via
# /proc ("preopen"), and copies made by dup, dup2, dup3 and fcntl(F_DUPFD)
# carry the path with their own fd, also after the original is closed
# ("dup"). Expected numbers: see tests/workload.c.
. "$(dirname "$0")/../lib/common.sh"
setup

M=7
PRE="$T/preopened file"
head -c 1000 /dev/zero >"$PRE"
if trace_scenario -- preopen "$PRE" "$M"; then
	P=$WL_LAST
	check preopen-path pid=$P "count==$((M + 1))" \
		"count[name=read,path=$PRE,fd=3]==$M" "sum_bytes[name=read]==$M" \
		"count[name=close,path=$PRE,fd=3]==1"
	check preopen-flags pid=$P "count[flags!~O_RDONLY]==0"
else
	fail preopen-run "$WHY"
fi

F="$T/dupme"
head -c 100 /dev/zero >"$F"
if trace_scenario -- dup "$F"; then
	P=$WL_LAST
	check dup-counts pid=$P "count==15" "count[name=openat,ret=3]==1" \
		"count[name=dup,ret=4]==1" "count[name=dup2,ret=100]==1" \
		"count[name=dup3,ret=150]==1" "count[name=fcntl,ret=200]==1" \
		"count[name=read]==5" "count[name=close]==5"
	# the dup family acts on fd 3; every row names the file
	check dup-every-row-has-path pid=$P "count[path!=$F]==0" \
		"count[name=dup,fd=3]==1" "count[name=dup2,fd=3]==1" \
		"count[name=dup3,fd=3]==1" "count[name=fcntl,fd=3]==1"
	check dup-copies pid=$P \
		"count[name=read,fd=4]==1" "count[name=read,fd=100]==2" \
		"count[name=read,fd=150]==1" "count[name=read,fd=200]==1" \
		"count[name=close,fd=3]==1" "count[name=close,fd=4]==1" \
		"count[name=close,fd=100]==1" "count[name=close,fd=150]==1" \
		"count[name=close,fd=200]==1"
	check dup-copies-keep-flags pid=$P "count[flags!~O_RDONLY]==0"
else
	fail dup-run "$WHY"
fi

finish
