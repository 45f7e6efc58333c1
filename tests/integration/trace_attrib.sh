#!/bin/bash
# fd attribution as strace -y has it, through fork, exec, rename, the reuse
# of an fd number, an open blocked across the attach, *at paths relative
# to dirfds and threads sharing a table: the workload's attribution
# scenarios (forkwrite, execfd, renameopen, fiforeuse, reuse, relpath2,
# sharedfd, clonefiles, linkgone; expected rows: see tests/workload.c). Every scenario runs a
# copy of the workload under a name of this run only, iorat-XXXXXX after
# $T, traced with ior -plain -comm NAME (children are other pids: -pid
# would miss them; the exec'd child keeps the name). Names of one length:
# a run's name is no substring of another's, so concurrent runs of this
# test stay apart. Rows are checked exactly per process, and so are the
# totals and "fds without a path".
. "$(dirname "$0")/../lib/common.sh"
setup

NAME="iorat-${T##*.}"
cp "$WORKLOAD" "$T/$NAME"
export WORKLOAD=$T/$NAME
COMM=(-comm "$NAME")
W='O_WRONLY|O_CREAT|O_TRUNC'

# ior's statistics: PAIRS pairs, nothing lost or unpaired, UNATTRIBUTED
# fds without a path (each label costs a python run: a slow start here)
clean_stats() { # NAME PAIRS UNATTRIBUTED
	check_stats "$1" "syscall pairs=$2" "lost=0" "exits without an enter=0" "fds without a path=$3"
}

# 1. forkwrite: children write on the fd the parent opened, one on fd 3,
# one on stdout made a copy of it by dup2 before the fork
D="$T/fw"
mkdir -p "$D"
if NO_PID=1 trace_scenario "${COMM[@]}" -- forkwrite "$D"; then
	P=$WL_LAST
	check forkwrite-parent pid=$P "count==5" \
		"count[name=openat,path=$D/log,fd=3,flags=$W,ret=3]==1" \
		"count[name=write,path=$D/log,fd=3,ret=1]==1" \
		"count[name=dup2,path=$D/log,fd=3,ret=1]==1" \
		"count[name=close,path=$D/log,fd=1,ret=0]==1" \
		"count[name=close,path=$D/log,fd=3,ret=0]==1"
	# child A: fd 3 only; child B: fd 1 only; two pids besides the parent
	check forkwrite-children pid!=$P "count==7" "pids==2" "pids[fd=3]==1" "pids[fd=1]==1" \
		"count[fd=3]==4" "count[fd=1]==3" \
		"count[name=write,path=$D/log,fd=3,flags=$W,ret=1]==3" \
		"count[name=close,path=$D/log,fd=3,flags=$W,ret=0]==1" \
		"count[name=write,path=$D/log,fd=1,flags=$W,ret=1]==2" \
		"count[name=close,path=$D/log,fd=1,flags=$W,ret=0]==1"
	check forkwrite-all "count==12" "count[path!=$D/log]==0" "pids==3"
	clean_stats forkwrite-statistics 12 0
	[ "$(cat "$D/log")" = aaapbb ] && pass forkwrite-content ||
		fail forkwrite-content "DIR/log holds '$(cat "$D/log")', want aaapbb"
else
	fail forkwrite-run "$WHY"
fi

# 2. execfd: fd 9 (a dup2 of DIR/keep) survives execve; fd 4 (DIR/gone,
# O_CLOEXEC) does not: the child's write to it fails with EBADF and must
# not be attributed to DIR/gone
D="$T/ex"
mkdir -p "$D"
if NO_PID=1 trace_scenario "${COMM[@]}" -- execfd "$D"; then
	P=$WL_LAST
	check execfd-parent pid=$P "count==5" \
		"count[name=openat,path=$D/keep,fd=3,flags=$W,ret=3]==1" \
		"count[name=openat,path=$D/gone,fd=4,flags=$W|O_CLOEXEC,ret=4]==1" \
		"count[name=write,path=$D/gone,fd=4,ret=1]==1" \
		"count[name=close,path=$D/gone,fd=4]==1" \
		"count[name=close,path=$D/keep,fd=3]==1"
	check execfd-child pid!=$P "count==4" "pids==1" \
		"count[name=dup2,path=$D/keep,fd=3,ret=9]==1" \
		"count[name=write,path=$D/keep,fd=9,ret=1]==1" \
		"count[name=write,path=,fd=4,ret=-9]==1" \
		"count[name=close,path=$D/keep,fd=9,ret=0]==1" \
		"count[path=$D/gone]==0"
	check execfd-all "count==9" "pids==2" "count[path=]==1"
	clean_stats execfd-statistics 9 1
	check_stats execfd-unattributed-reason "not open (EBADF)=1"
else
	fail execfd-run "$WHY"
fi

# 3. renameopen: an open fd follows a rename of its file, then of the
# directory above it; DIR/ab/h (a sibling sharing the prefix DIR/a) stays
D="$T/rn"
mkdir -p "$D"
if NO_PID=1 trace_scenario "${COMM[@]}" -- renameopen "$D"; then
	P=$WL_LAST
	check renameopen-rows pid=$P "count==14" \
		"count[name=openat,path=$D/a/f,fd=3,ret=3]==1" \
		"count[name=write,path=$D/a/f,fd=3]==1" \
		"count[name=rename,path=$D/a/f,path2=$D/a/g]==1" \
		"count[name=write,path=$D/a/g,fd=3]==1" \
		"count[name=pwrite64,path=$D/a/g,fd=3]==1" \
		"count[name=rename,path=$D/a,path2=$D/b]==1" \
		"count[name=write,path=$D/b/g,fd=3]==1" \
		"count[name=fsync,path=$D/b/g,fd=3]==1" \
		"count[name=dup3,path=$D/b/g,fd=3,ret=10]==1" \
		"count[name=close,path=$D/b/g,fd=10]==1" \
		"count[name=close,path=$D/b/g,fd=3]==1" \
		"count[name=openat,path=$D/ab/h,fd=4,ret=4]==1" \
		"count[name=write,path=$D/ab/h,fd=4]==1" \
		"count[name=close,path=$D/ab/h,fd=4]==1" \
		"count[fd=3,flags!=O_RDWR|O_CREAT]==0" "count[fd=10,flags!=O_RDWR|O_CREAT]==0" \
		"count[fd=4,flags!=O_WRONLY|O_CREAT]==0"
	check renameopen-all "count==14" "count[path=]==0"
	clean_stats renameopen-statistics 14 0
else
	fail renameopen-run "$WHY"
fi

# 4. fiforeuse: the FIFO open is blocked when ior attaches; its exit names
# fd 3, which is then closed and reused at once for DATA
FIFO="$T/fifo"
DATA="$T/data"
mkfifo "$FIFO"
echo data >"$DATA"
# blocked_in_openat PID: the thread sits in openat(2) (257 on x86_64)
blocked_in_openat() { read -r nr _ <"/proc/$1/syscall" 2>/dev/null && [ "$nr" = 257 ]; }
if ! start_workload fiforeuse "$FIFO" "$DATA"; then
	fail fiforeuse-run "$WHY"
elif ! wait_until 5 blocked_in_openat "$WL_PID"; then
	fail fiforeuse-run "workload not blocked in openat after 5 s: $(cat "/proc/$WL_PID/syscall" 2>&1)"
	printf x 1<>"$FIFO" # read-write: never blocks, reader or not
	wait_workload 5
elif ! start_ior -plain "${COMM[@]}"; then
	fail fiforeuse-run "$WHY"
	printf x 1<>"$FIFO"
	wait_workload 5
else
	P=$WL_PID
	printf x >"$FIFO" # the workload is the reader its open waits for
	if ! wait_workload 10; then
		fail fiforeuse-run "$WHY"
		stop_ior
	else
		sleep "$SETTLE"
		if ! stop_ior; then
			fail fiforeuse-run "$WHY"
		else
			check fiforeuse-rows pid=$P "count==5" \
				"count[name=read,path=$FIFO,fd=3,ret=1]==1" \
				"count[name=close,path=$FIFO,fd=3,ret=0]==1" \
				"count[name=openat,path=$DATA,fd=3,ret=3]==1" \
				"count[name=read,path=$DATA,fd=3,ret=1]==1" \
				"count[name=close,path=$DATA,fd=3,ret=0]==1" \
				"count[seq=1,path=$FIFO,name=read]==1" "count[seq=3,name=openat]==1"
			check fiforeuse-all "count==5" "count[pid!=$P]==0"
			check_stats fiforeuse-statistics "syscall pairs=5" "lost=0" \
				"exits without an enter=1" "fds without a path=0"
		fi
	fi
fi

# 5. reuse: fd 3 alternates between A and B N times
N=50
A="$T/fileA" B="$T/fileB"
echo a >"$A"
echo b >"$B"
if NO_PID=1 trace_scenario "${COMM[@]}" -- reuse "$A" "$B" "$N"; then
	P=$WL_LAST
	check reuse-rows pid=$P "count==$((6 * N))" \
		"count[name=openat,path=$A,fd=3,flags=O_RDONLY,ret=3]==$N" \
		"count[name=read,path=$A,fd=3,flags=O_RDONLY,ret=1]==$N" \
		"count[name=close,path=$A,fd=3,flags=O_RDONLY,ret=0]==$N" \
		"count[name=openat,path=$B,fd=3,flags=O_RDONLY,ret=3]==$N" \
		"count[name=read,path=$B,fd=3,flags=O_RDONLY,ret=1]==$N" \
		"count[name=close,path=$B,fd=3,flags=O_RDONLY,ret=0]==$N" \
		"count[seq=2,path=$A,name=read]==1" "count[seq=5,path=$B,name=read]==1" \
		"count[seq=$((6 * N - 1)),path=$B,name=read]==1" "count[seq=$((6 * N)),path=$B,name=close]==1"
	check reuse-all "count==$((6 * N))"
	clean_stats reuse-statistics $((6 * N)) 0
else
	fail reuse-run "$WHY"
fi

# 6. relpath2: both paths of renameat/linkat resolved against their own
# dirfd, symlinkat's link path against its dirfd
D="$T/rp"
mkdir -p "$D"
if NO_PID=1 trace_scenario "${COMM[@]}" -- relpath2 "$D"; then
	P=$WL_LAST
	check relpath2-rows pid=$P "count==12" \
		"count[name=openat,path=$D/d1,fd=3,ret=3]==1" \
		"count[name=openat,path=$D/d2,fd=4,ret=4]==1" \
		"count[name=openat,path=$D/d1/x,fd=5,flags=O_WRONLY|O_CREAT,ret=5]==1" \
		"count[name=close,path=$D/d1/x,fd=5]==1" \
		"count[name=renameat,path=$D/d1/x,path2=$D/d2/y,ret=0]==1" \
		"count[name=linkat,path=$D/d2/y,path2=$D/d1/z,ret=0]==1" \
		"count[name=symlinkat,path=target,path2=$D/d2/s,ret=0]==1" \
		"count[name=unlinkat,path=$D/d1/z]==1" \
		"count[name=unlinkat,path=$D/d2/y]==1" \
		"count[name=unlinkat,path=$D/d2/s]==1" \
		"count[name=close,path=$D/d2,fd=4]==1" \
		"count[name=close,path=$D/d1,fd=3]==1"
	check relpath2-all "count==12" "count[path=]==0"
	clean_stats relpath2-statistics 12 0
else
	fail relpath2-run "$WHY"
fi

# 7. sharedfd: thread B uses the fd the main thread opened
F="$T/shared"
echo s >"$F"
if NO_PID=1 trace_scenario "${COMM[@]}" -- sharedfd "$F"; then
	P=$WL_LAST
	BT=$(echo $WL_READY)
	check sharedfd-rows pid=$P "count==3" "tids==2" \
		"count[tid=$P,name=openat,path=$F,fd=3,ret=3]==1" "count[tid=$P]==1" \
		"count[tid=$BT,name=read,path=$F,fd=3,flags=O_RDONLY,ret=1]==1" \
		"count[tid=$BT,name=close,path=$F,fd=3,flags=O_RDONLY,ret=0]==1" "count[tid=$BT]==2"
	check sharedfd-all "count==3"
	clean_stats sharedfd-statistics 3 0
else
	fail sharedfd-run "$WHY"
fi

# 8. clonefiles: a process (not a thread) sharing its parent's fd table:
# the parent writes on and closes the fd its child opened
F="$T/cloned"
if NO_PID=1 trace_scenario "${COMM[@]}" -- clonefiles "$F"; then
	P=$WL_LAST
	check clonefiles-parent pid=$P "count==2" \
		"count[name=write,path=$F,fd=3,flags=$W,ret=1]==1" \
		"count[name=close,path=$F,fd=3,flags=$W,ret=0]==1"
	check clonefiles-child pid!=$P "count==2" "pids==1" \
		"count[name=openat,path=$F,fd=3,flags=$W,ret=3]==1" \
		"count[name=write,path=$F,fd=3,flags=$W,ret=1]==1"
	if [ "$(cat "$F")" = cp ]; then pass clonefiles-content; else fail clonefiles-content "file holds '$(cat "$F")'"; fi
	clean_stats clonefiles-statistics 4 0
else
	fail clonefiles-run "$WHY"
fi

# 9. linkgone: a file opened through a symlink that is gone before ior
# names the fd: the leaf name the kernel side read at the open finds it
D="$T/lg"
mkdir -p "$D"
if NO_PID=1 trace_scenario "${COMM[@]}" -- linkgone "$D"; then
	P=$WL_LAST
	check linkgone-rows pid=$P "count==4" \
		"count[name=openat,path=$D/target,fd=3,flags=O_RDONLY,ret=3]==1" \
		"count[name=unlinkat,path=$D/link,ret=0]==1" \
		"count[name=read,path=$D/target,fd=3,ret=1]==1" \
		"count[name=close,path=$D/target,fd=3,ret=0]==1"
	clean_stats linkgone-statistics 4 0
else
	fail linkgone-run "$WHY"
fi

finish
