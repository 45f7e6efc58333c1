# The exact rows of the workload's "basic DIR N" scenario (see the top of
# tests/workload.c), shared by tests/integration/trace_basic.sh and the VM
# test. Each group goes through CHECK GROUP ASSERTION... (csvcheck.py syntax).
# usage: basic_checks CHECK DIR N PID
# (env RENAME, UNLINK: what rename and unlink are on this arch; arm64 has
# only renameat and unlinkat)
basic_checks() {
	local check=$1 D=$2 N=$3 P=$4
	local TOTAL=$((2 * N + 16)) RW='flags=O_RDWR|O_CREAT'
	local ren=${RENAME:-rename} unl=${UNLINK:-unlink}
	local unlinks="count[name=$unl]==1"
	[ "$unl" = unlinkat ] && unlinks="count[name=unlinkat]==2"
	$check basic-only-pid "count[pid!=$P]==0" "count==$TOTAL"
	$check basic-counts "pid=$P" \
		"count[name=openat]==2" "count[name=write]==2" "count[name=pread64]==$N" \
		"count[name=lseek]==2" "count[name=read]==$((N + 1))" "count[name=fsync]==1" \
		"count[name=newfstat]==1" "count[name=close]==2" "count[name=$ren]==1" \
		"count[name=newfstatat]==1" "count[name=renameat2]==1" "$unlinks"
	$check basic-paths "pid=$P" \
		"count[name=openat,path=$D/data,fd=3,$RW]==1" \
		"count[name=write,path=$D/data,fd=3,$RW]==2" \
		"count[name=pread64,path=$D/data,fd=3,$RW]==$N" \
		"count[name=lseek,path=$D/data,fd=3,$RW]==2" \
		"count[name=read,path=$D/data,fd=3,$RW]==$((N + 1))" \
		"count[name=fsync,path=$D/data,fd=3,$RW]==1" \
		"count[name=newfstat,path=$D/data,fd=3,$RW]==1" \
		"count[name=close,path=$D/data,fd=3,$RW]==1" \
		"count[name=openat,path=$D/other,fd=3,flags=O_WRONLY|O_CREAT|O_CLOEXEC]==1" \
		"count[name=close,path=$D/other,fd=3,flags=O_WRONLY|O_CREAT|O_CLOEXEC]==1" \
		"count[name=newfstatat,path=$D/data2]==1" \
		"count[name=$unl,path=$D/data2]==1" \
		"count[name=unlinkat,path=$D/other2]==1" \
		"count[path=]==0"
	$check basic-two-paths "pid=$P" \
		"count[name=$ren,path=$D/data,path2=$D/data2]==1" \
		"count[name=renameat2,path=$D/other,path2=$D/other2]==1"
	$check basic-bytes "pid=$P" \
		"sum_bytes[name=write]==66536" "count[name=write,ret=65536]==1" "count[name=write,ret=1000]==1" \
		"sum_bytes[name=pread64]==$((100 * N))" "count[name=pread64,ret=100]==$N" \
		"sum_bytes[name=read]==$((64 * N))" "count[name=read,ret=64]==$N" "count[name=read,ret=0]==1"
	$check basic-returns "pid=$P" \
		"count[name=openat,ret=3]==2" "count[name=lseek,ret=0]==1" "count[name=lseek,ret=66536]==1" \
		"count[name!=openat,name!=write,name!=pread64,name!=read,name!=lseek,ret!=0]==0"
	$check basic-order "pid=$P" "count[seq=1,name=openat,path=$D/data]==1" \
		"count[seq=$TOTAL,name=unlinkat]==1" "tids==1"
	# durations: the first pair of a thread has gap 0, later ones a real gap;
	# the scenario runs in well under a second
	$check basic-durations "pid=$P" "max_gap[seq=1]==0" "min_gap[seq!=1]>0" \
		"max_gap<1000000000" "max_dur<1000000000" "min_dur>0"
}
