#!/bin/bash
# ior's file attribution judged against strace: one shell workload (forks,
# execs, redirections, dup, renames of open files, an fd opened before ior
# attached) runs under strace -f -y while ior -plain traces the whole
# system. Per (syscall, basename of the file) the counts of the workload's
# tids must be equal on both sides, for every file under $T/w.
# Left out by design: syscalls ior does not trace (strace -e trace= gets
# only ior's table, tests/lib/stracecmp.py names) and fds strace shows
# without an absolute path (pipe:[...], socket:[...]): ior knows no path
# for fds made by syscalls it does not trace.
# IOR_STRACE_KEEP=DIR keeps strace's output, ior's CSV and the evidence.
. "$(dirname "$0")/../lib/common.sh"
setup

STRACECMP="$TESTS_DIR/lib/stracecmp.py"
SYSCALLS_C="$ROOT/syscalls/table_x86_64.c"
if ! command -v strace >/dev/null; then
	fail strace-setup "strace missing (scripts/deps.sh test)"
	exit 1
fi
if ! NAMES=$(timeout 60 python3 "$STRACECMP" names "$SYSCALLS_C" 2>"$T/names.err"); then
	fail strace-setup "syscall names: $(head -c 300 "$T/names.err")"
	exit 1
fi
# strace 6.1 does not know fchmodat2 and the *xattrat syscalls
sed 's/^/      note: /' "$T/names.err"

PY=$(python3 -c 'import sys; print(sys.executable)')
W="$T/w"
mkdir "$W"
printf 'one\ntwo\nthree\nfour\nfive\n' >"$W/in"

cat >"$T/work.sh" <<'EOF'
# $1: the directory every file of the comparison is in (absolute paths only)
# $2: python3's executable (not a wrapper script)
W=$1
PY=$2
set -e
exec 3>"$W/log"                      # open + dup2 to 3 + close
echo a >&3                           # builtin: saves fd 1 (F_DUPFD), dup2, write
(echo b >&3; echo c >&3)             # subshell: fork, fd 3 inherited
/bin/echo d >&3                      # fork + exec, fd 3 inherited
cat "$W/in" >"$W/out"                # cat opens, reads, writes
exec 4>"$W/f"
mv "$W/f" "$W/g"                     # rename while fd 4 is open
echo x >&4                           # strace -y shows .../g
/bin/echo y >&4                      # renamed fd across fork + exec
exec 4>&-
mv "$W/out" "$W/out2"
cp "$W/out2" "$W/copy"
sort -r "$W/in" >"$W/sorted"
head -c 7 "$W/in" >"$W/head"
dd if="$W/in" of="$W/dd" bs=4k count=3 status=none
while read -r line; do echo "$line" >&3; done <"$W/in"
exec 5<"$W/in"
read -r first <&5
exec 5<&-
exec 6>&3                            # dup of fd 3
echo "$first" >&6
exec 6>&-
sh -c 'echo e' >>"$W/log"
sort "$W/in" | head -n 2 >"$W/top"   # a pipeline: pipes are not compared
echo pre >&7                         # fd 7: opened before ior attached
/bin/echo pre2 >&7
ln "$W/in" "$W/hard"
ln -s in "$W/sym"
cat "$W/sym" >/dev/null
stat "$W/hard" >/dev/null
rm "$W/hard" "$W/sym"
touch "$W/new"
mkdir "$W/sub"
wc -l "$W/in" "$W/log" >"$W/sub/wc"
ls "$W" >"$W/sub/ls"
# the raw stat, fstat, lstat and sendfile syscalls: ior names them newstat,
# newfstat, newlstat and sendfile64 (the tracepoints)
"$PY" -c '
import ctypes, os, sys
w = sys.argv[1]
libc, buf = ctypes.CDLL(None), ctypes.create_string_buffer(256)
libc.syscall(4, (w + "/in").encode(), buf)
libc.syscall(6, (w + "/sym2").encode(), buf)
fd = os.open(w + "/in", os.O_RDONLY)
out = os.open(w + "/sf", os.O_WRONLY | os.O_CREAT, 0o644)
libc.syscall(5, fd, buf)
os.sendfile(out, fd, None, 100)
os.close(fd)
os.close(out)
' "$W"
exec 3>&-
EOF

# fd 7 is open before ior starts: ior knows it only from /proc, and the
# workload inherits it through fork + exec of this shell, timeout and strace
exec 7>>"$W/pre"
if start_ior -plain; then
	(cd / && exec timeout -k 2 30 strace -f -y -qq -o "$T/strace.out" -e trace="$NAMES" \
		bash "$T/work.sh" "$W" "$PY" </dev/null >"$T/work.out" 2>"$T/work.err")
	WRC=$?
	exec 7>&-
	sleep "$SETTLE"
	if ! stop_ior; then
		fail strace-ior-run "$WHY"
	elif [ "$WRC" != 0 ]; then
		fail strace-workload "strace bash work.sh exited $WRC: $(head -c 300 "$T/work.err")"
	else
		pass strace-workload
		check_stats strace-ior-nothing-lost 'lost=0' 'enters overwritten=0'
		if out=$(timeout 60 python3 "$STRACECMP" compare "$SYSCALLS_C" "$T/strace.out" \
			"$IOR_OUT" "$W" 25 8 "$T/evidence.txt" 2>&1); then
			pass strace-file-counts
			echo "      $(echo "$out" | head -n 1)"
		else
			fail strace-file-counts "$(echo "$out" | head -n 1)"
			echo "$out" | tail -n +2 | head -n 20 | sed 's/^/      /'
		fi
	fi
	if [ -n "${IOR_STRACE_KEEP:-}" ]; then
		mkdir -p "$IOR_STRACE_KEEP" &&
			cp "$T/strace.out" "$IOR_OUT" "$IOR_ERR" "$T/work.sh" "$T/evidence.txt" \
				"$IOR_STRACE_KEEP/" 2>/dev/null
	fi
else
	exec 7>&-
	fail strace-ior-start "$WHY"
fi

finish
