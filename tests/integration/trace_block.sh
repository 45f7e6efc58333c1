#!/bin/bash
# Block requests on a loop device nothing else uses (a file-backed image
# under $T), with the kernel's BTF and without (the block records'
# layouts then come from tracefs' format files): over a traced run, the completed reads, writes, discards and
# flushes and the sectors in /proc/diskstats for that device equal ior's
# Devices table exactly. The workload's "blockdev" scenario makes N
# O_DIRECT pwrite64 and pread64 of 4 KiB: each pair carries its one
# request of 4096 bytes and a device time within its duration; its fsync
# carries the flush. Then an ext4 on the device: a buffered write by dd
# and a sync by another process: the writeback is the kworker's and
# jbd2's, the device's, never dd's write pairs. Last, the page cache: a
# cold read of a 64 MiB file after drop_caches adds its 16384 pages of
# 4 KiB (folios count their pages; the file's readahead stops at its
# end), all in the reading dd's read pairs; a second read adds none.
. "$(dirname "$0")/../lib/common.sh"
setup
BLOCKCHECK="$TESTS_DIR/lib/blockcheck.py"
N=64

. "$ROOT/tests/lib/loopdev.sh"
loopdev 160M block

bc() { pycheck "$1" "$BLOCKCHECK" "${@:2}"; } # NAME ARGS...: blockcheck.py

# O_DIRECT: one request per pair, exactly diskstats' counts; then the
# same without the kernel's BTF (the records' layouts from tracefs).
for btf in with without; do
P=block-direct
[ $btf = without ] && P=block-nobtf
if ! start_workload blockdev "$LOOP" "$N"; then
	fail $P-run "$WHY"
elif ! if [ $btf = with ]; then start_ior -plainDevice -summary -pid "$WL_PID"; else
	IOR_KERNEL_BTF=$T/no-such-btf start_ior -plainDevice -summary -pid "$WL_PID"; fi; then
	fail $P-run "$WHY"
else
	cp /proc/diskstats "$T/before"
	release_workload
	if ! wait_workload 30; then
		fail $P-run "$WHY"
	fi
	settle
	cp /proc/diskstats "$T/after" # inside the trace: what completes after ior stops is not its
	stop_ior || fail $P-stop "$WHY"
	if [ $btf = without ] && ! grep -q 'tracing with raw tracepoints' "$IOR_ERR"; then
		fail $P-raw "ior did not run without BTF: $(head -c 300 "$IOR_ERR")"
	fi
	bc $P-diskstats diskstats "$T/before" "$T/after" "$DEV" "$IOR_ERR"
	bc $P-preads pairs "$IOR_OUT" pread64 "$LOOP" "$N" 4096
	bc $P-pwrites pairs "$IOR_OUT" pwrite64 "$LOOP" "$N" 4096
	bc $P-fsync fsync "$IOR_OUT" "$LOOP"
	bc $P-submitter devprocs "$IOR_ERR" "$DEV" read "workload\[$WL_LAST\]"
	check_stats $P-statistics "lost=0" "requests not remembered=0"
fi
done

# Writeback: another process's sync; the kworker and jbd2 write, not dd.
# ext4lazyinit's bitmap prefetch is off: its reads come when they like.
if ! command -v mkfs.ext4 >/dev/null; then
	fail block-writeback "mkfs.ext4 missing (e2fsprogs)"
else
	mkdir "$T/mnt"
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP" &&
		mount -t ext4 -o no_prefetch_block_bitmaps "$LOOP" "$T/mnt" && at_exit "umount $T/mnt"
	sync && settle
	if ! mountpoint -q "$T/mnt"; then
		fail block-writeback "mkfs.ext4 or mount of $LOOP failed"
	elif ! start_ior -plainDevice -summary -comm dd; then
		fail block-writeback-run "$WHY"
	else
		cp /proc/diskstats "$T/before"
		dd if=/dev/zero of="$T/mnt/data" bs=64k count=64 status=none
		sync
		settle
		cp /proc/diskstats "$T/after" # inside the trace: what completes after ior stops is not its
		stop_ior || fail block-writeback-stop "$WHY"
		bc block-writeback-diskstats diskstats "$T/before" "$T/after" "$DEV" "$IOR_ERR"
		bc block-writeback-not-dd norequests "$IOR_OUT" write
		bc block-writeback-threads devprocs "$IOR_ERR" "$DEV" write '(kworker|jbd2)' '^process .* dd\['
	fi
fi

# The page cache: cold, then warm. The warm pass is read untraced first
# and tried up to three times: other tests on this host may drop caches
# meanwhile (a wrong count fails every try).
cache_pass() { # cold|warm
	start_ior -plainDevice -summary -comm dd || return 1
	dd if="$T/mnt/big" of=/dev/null bs=1M status=none
	sleep "$SETTLE"
	stop_ior || return 1
	python3 "$BLOCKCHECK" cache "$IOR_OUT" "$T/mnt/big" "$([ "$1" = cold ] && echo 16384 || echo 0)" >"$T/cache.out" 2>&1
}
if mountpoint -q "$T/mnt"; then
	dd if=/dev/urandom of="$T/mnt/big" bs=1M count=64 status=none && sync
	echo 3 >/proc/sys/vm/drop_caches
	if cache_pass cold; then
		pass block-cache-cold
	else
		fail block-cache-cold "${WHY:-$(tail -n 1 "$T/cache.out")}"
	fi
	sed 's/^/      /' "$T/cache.out"
	for try in 1 2 3; do
		dd if="$T/mnt/big" of=/dev/null bs=1M status=none
		cache_pass warm && break
	done
	if [ "$try" != 3 ] || python3 "$BLOCKCHECK" cache "$IOR_OUT" "$T/mnt/big" 0 >/dev/null 2>&1; then
		pass "block-cache-warm (try $try)"
	else
		fail block-cache-warm "$(tail -n 1 "$T/cache.out")"
	fi
	sed 's/^/      /' "$T/cache.out"
	if grep -Eq '^Page cache: ([0-9]+) reads: \1 hits, 0 partial, 0 misses; 0 pages added$' "$IOR_ERR"; then
		pass block-cache-summary
	else
		fail block-cache-summary "$(grep '^Page cache' "$IOR_ERR" || echo no Page cache line)"
	fi
fi
finish
