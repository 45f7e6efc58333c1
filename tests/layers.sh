#!/bin/bash
# The one-way rule, read from the #include lines. A room may include its
# own headers and those of the rooms it stands on (ALLOWED), never others;
# none includes the command line (opts.h, flags.h: cmd/ and main.c only).
#   text/      strings, escaping, number formatting: stands alone
#   mem/       growing arrays: any room may include it
#   log/       the one print hook for warnings: any room may include it
#   out/       private output files (0600, the sudo user's, atomic): stands alone
#   loader/    the BPF ELF/BTF loader: stands alone
#   syscalls/  the tables, families, roles and selection
#   pair/      pairs and what names them (fd tables, endpoints, snapshot)
#   trace/     the live pipeline: probe, rings, merge, session
#   run/       launching and following a command, on the probe
#   sinks      rec/ csv/ stats/ flame/ parquet/ recorder/ dash/: never trace/ or run/
#   http/ tui/ stand alone but for text/
# bpf/event.h is the kernel ABI, shared with bpf.c, mem/ the one array
# growth and log/ the one way to say a warning: any room may include them. The kernel side (bpf.c, bpf/) includes only bpf/ headers.
cd "$(dirname "$0")/.." || exit 1
declare -A ALLOWED=(
	[mem]=""
	[log]=""
	[text]=""
	[out]=""
	[loader]=""
	[syscalls]="text"
	[pair]="syscalls text"
	[rec]="out pair syscalls text"
	[csv]="pair syscalls text"
	[trace]="loader pair syscalls text"
	[run]="trace loader pair syscalls text"
	[stats]="pair syscalls text"
	[flame]="rec pair syscalls text"
	[parquet]="rec out pair syscalls text"
	[recorder]="rec out pair syscalls text"
	[http]="text"
	[tui]="text"
	[dash]="tui stats flame rec csv pair syscalls text"
)
ROOMS="mem log text out loader syscalls pair rec csv trace run stats flame parquet recorder http tui dash"
fails=0
includes() { sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"; }
for room in $ROOMS; do
	bad=""
	for f in "$room"/*.c "$room"/*.h; do
		[ -f "$f" ] || continue
		while IFS= read -r inc; do
			dir=${inc%%/*}
			if [ "$dir" = "$inc" ]; then # no folder: the same room, or the top level
				[ -f "$room/$inc" ] || bad="$bad $f:$inc"
				continue
			fi
			[ "$dir" = "$room" ] || [ "$dir" = mem ] || [ "$dir" = log ] || [ "$inc" = bpf/event.h ] && continue
			[[ " ${ALLOWED[$room]} " == *" $dir "* ]] || bad="$bad $f:$inc"
		done < <(includes "$f")
	done
	if [ -z "$bad" ]; then
		echo "PASS: layers: $room includes no other room than: ${ALLOWED[$room]:-none}"
	else
		echo "FAIL: layers: $room includes what it must not:$bad"
		fails=$((fails + 1))
	fi
done
# every folder of C sources is a room this script knows (or the wiring)
for d in */; do
	d=${d%/}
	case " $ROOMS bpf cmd tests vendor build dist " in *" $d "*) continue ;; esac
	ls "$d"/*.[ch] >/dev/null 2>&1 || continue
	echo "FAIL: layers: $d/ holds C sources but has no rule here"
	fails=$((fails + 1))
done
bad=""
for f in bpf.c bpf/*.c bpf/*.h; do
	[ -f "$f" ] || continue
	while IFS= read -r inc; do
		case $inc in bpf/*.h) ;; *) bad="$bad $f:$inc" ;; esac
	done < <(includes "$f")
done
if [ -z "$bad" ]; then
	echo "PASS: layers: bpf.c and bpf/ include no ior header outside bpf/"
else
	echo "FAIL: layers: bpf.c or bpf/ includes what it must not:$bad"
	fails=$((fails + 1))
fi
[ "$fails" = 0 ]
