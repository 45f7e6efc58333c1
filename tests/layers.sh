#!/bin/bash
# The one-way rule, read from the #include lines: data flows loader ->
# trace -> flame -> http (and trace -> stats); tui/ (the terminal toolkit)
# stands alone like http/; dash/ (the dashboard) sits on top of tui, stats,
# flame and trace; parquet/ (the Parquet writer) on trace's pair types;
# only cmd/ and main.c (the mode wiring) see the command
# line. A room may include its own headers and those of the
# rooms below it; none includes the command line (opts.h, flags.h).
# The kernel side (bpf.c and the parts in bpf/ it includes) shares only
# trace/event.h with user space: it may include that and bpf/ headers.
cd "$(dirname "$0")/.." || exit 1
declare -A ALLOWED=([loader]="" [trace]="loader" [stats]="trace loader" [flame]="trace loader" [http]="" [tui]="" [dash]="tui stats flame trace loader" [parquet]="trace")
fails=0
for room in loader trace stats flame http tui dash parquet; do
	bad=""
	for f in "$room"/*.c "$room"/*.h; do
		[ -f "$f" ] || continue
		while IFS= read -r inc; do
			dir=${inc%%/*}
			if [ "$dir" = "$inc" ]; then # no folder: the same room, or the top level
				case $inc in opts.h | flags.h) bad="$bad $f:$inc" ;; esac
				continue
			fi
			[ "$dir" = "$room" ] && continue
			[[ " ${ALLOWED[$room]} " == *" $dir "* ]] || bad="$bad $f:$inc"
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
	done
	if [ -z "$bad" ]; then
		below=${ALLOWED[$room]:-none}
		echo "PASS: layers: $room includes no other room than: $below"
	else
		echo "FAIL: layers: $room includes what it must not:$bad"
		fails=$((fails + 1))
	fi
done
bad=""
for f in bpf.c bpf/*.c bpf/*.h; do
	[ -f "$f" ] || continue
	while IFS= read -r inc; do
		case $inc in trace/event.h | bpf/*.h) ;; *) bad="$bad $f:$inc" ;; esac
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done
if [ -z "$bad" ]; then
	echo "PASS: layers: bpf.c and bpf/ include no other ior header than trace/event.h"
else
	echo "FAIL: layers: bpf.c or bpf/ includes what it must not:$bad"
	fails=$((fails + 1))
fi
[ "$fails" = 0 ]
