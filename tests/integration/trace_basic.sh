#!/bin/bash
# ior -plain on the workload's "basic" scenario: exact rows per syscall and
# path, bytes, return values, fd/flags on every row, first-pair gap 0; then
# the filters -comm, -tps, -tpsExclude and -path on the same scenario.
# Expected numbers: see "basic DIR N" at the top of tests/workload.c.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/expect_basic.sh"
setup

N=20
D="$T/basic"
mkdir -p "$D"
TOTAL=$((2 * N + 16))
RW='flags=O_RDWR|O_CREAT'

if ! trace_scenario -- basic "$D" "$N"; then
	fail basic-run "$WHY"
else
	P=$WL_LAST
	basic_checks check "$D" "$N" "$P"
	check_stats basic-statistics "syscall pairs=$TOTAL" "after filters=$TOTAL" "lost=0" \
		"exits without an enter=0" "enters overwritten=0" "enters in flight at stop=0"
	if grep -q '^ior: tracing .* (BTF tracepoints)' "$IOR_ERR"; then
		pass basic-btf-programs
	else
		fail basic-btf-programs "this kernel has BTF, ior did not use it: $(head -c 600 "$IOR_ERR")"
	fi
fi

# Without the kernel's BTF (IOR_KERNEL_BTF names a missing file) the raw
# tracepoint programs serve: one warning, and every row the same.
raw_check() { local name=$1; shift; check "raw-$name" "$@"; }
mkdir -p "$T/raw"
export IOR_KERNEL_BTF=$T/no-such-btf
if ! trace_scenario -- basic "$T/raw" "$N"; then
	fail raw-run "$WHY"
else
	basic_checks raw_check "$T/raw" "$N" "$WL_LAST"
	check_stats raw-statistics "syscall pairs=$TOTAL" "lost=0" "exits without an enter=0"
	if grep -q '^ior: tracing .* (raw tracepoints)' "$IOR_ERR" &&
		[ "$(grep -c "^ior: warning: kernel BTF $T/no-such-btf: cannot read: No such file or directory .*; tracing with raw tracepoints (slower)$" "$IOR_ERR")" = 1 ]; then
		pass raw-fallback-warns-once
	else
		fail raw-fallback-warns-once "$(head -c 600 "$IOR_ERR")"
	fi
fi
unset IOR_KERNEL_BTF

# relative paths: the workload runs in $T and passes "rel"; ior joins them
# with the process's working directory
mkdir -p "$T/rel"
cd "$T" || exit 1
if trace_scenario -- basic rel "$N"; then
	check relative-paths-absolute pid=$WL_LAST "count==$TOTAL" \
		"count[name=openat,path=$T/rel/data,fd=3]==1" "count[name=read,path=$T/rel/data]==$((N + 1))" \
		"count[name=rename,path=$T/rel/data,path2=$T/rel/data2]==1" \
		"count[name=unlinkat,path=$T/rel/other2]==1" "count[path!~$T/rel/]==0"
else
	fail relative-run "$WHY"
fi
cd - >/dev/null || exit 1

# -comm (a substring of the command name): a copy of the workload under a
# name nothing else has; a shell command run meanwhile must not show up
COMMWL="$T/iorcommtest"
cp "$WORKLOAD" "$COMMWL"
mkdir -p "$T/comm"
if ! WORKLOAD=$COMMWL start_workload basic "$T/comm" "$N"; then
	fail comm-run "$WHY"
elif ! start_ior -plain -comm commtes; then
	fail comm-run "$WHY"
else
	P=$WL_PID
	cat /etc/hostname >/dev/null
	release_workload
	if ! wait_workload 30; then
		fail comm-run "$WHY"
		stop_ior
	else
		sleep "$SETTLE"
		if ! stop_ior; then
			fail comm-run "$WHY"
		else
			check comm-filter "count[comm!=iorcommtest]==0" "count[pid=$P]==$TOTAL" \
				"count[pid=$P,name=openat,path=$T/comm/data]==1"
		fi
	fi
fi

# -tps / -tpsExclude are regexes on tracepoint names; 'read$' matches read
# only (not pread64, readv, readlink)
mkdir -p "$T/tps" "$T/tpsx" "$T/path"
if trace_scenario -tps 'read$' -- basic "$T/tps" "$N"; then
	check tps-only-read "count==$((N + 1))" "count[name!=read]==0" \
		"count[name=read,path=$T/tps/data,fd=3]==$((N + 1))"
else
	fail tps-run "$WHY"
fi
if trace_scenario -tpsExclude 'read$' -- basic "$T/tpsx" "$N"; then
	check tpsExclude-no-read "count[name=read]==0" "count==$((TOTAL - N - 1))" \
		"count[name=pread64]==$N" "count[name=openat]==2"
else
	fail tpsExclude-run "$WHY"
fi
if trace_scenario -tps 'read$,fsync$' -- basic "$T/tps" "$N"; then
	check tps-list "count==$((N + 2))" "count[name=read]==$((N + 1))" "count[name=fsync]==1"
else
	fail tps-list-run "$WHY"
fi

# -path: substring of the file's path; DIR/other and DIR/other2 match
if trace_scenario -path "$T/path/other" -- basic "$T/path" "$N"; then
	check path-filter "count==4" "count[path!~$T/path/other]==0" \
		"count[name=openat]==1" "count[name=close]==1" "count[name=renameat2]==1" \
		"count[name=unlinkat]==1"
else
	fail path-run "$WHY"
fi

finish
