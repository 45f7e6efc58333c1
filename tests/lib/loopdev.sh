# A loop device of its own for a block test: `loopdev SIZE PREFIX` sets
# LOOP (/dev/loopN) and DEV (loopN), detached at exit; on failure it says
# why under PREFIX-setup and ends the test. settle waits for udev and the
# device's queue ($SETTLE seconds). `pycheck NAME SCRIPT ARGS...` runs a
# checker: PASS with its output, or FAIL with its last line.
# Sourced after tests/lib/common.sh.

settle() { command -v udevadm >/dev/null && udevadm settle -t 5; sleep "$SETTLE"; }

loopdev() {
	local size=$1 prefix=$2
	command -v losetup >/dev/null || { fail "$prefix-setup" "losetup missing (util-linux)"; finish; exit; }
	truncate -s "$size" "$T/disk.img"
	LOOP=$(losetup -f --show "$T/disk.img") || { fail "$prefix-setup" "losetup -f --show failed"; finish; exit; }
	at_exit "losetup -d $LOOP"
	DEV=$(basename "$LOOP")
	settle
}

pycheck() {
	local name=$1 script=$2 out
	shift 2
	if out=$(python3 "$script" "$@" 2>&1); then
		pass "$name"
		echo "$out" | sed 's/^/      /'
	else
		fail "$name" "$(echo "$out" | tail -n 1)"
		echo "$out" | head -n -1 | sed 's/^/      /'
	fi
}
