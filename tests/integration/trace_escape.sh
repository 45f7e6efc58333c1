#!/bin/bash
# Hostile file names reach the CSV intact and safely quoted: a comma, double
# quotes, a newline and "</text><script>alert(1)</script>" in the path
# ("hostile" in tests/workload.c). The csv module parses every record
# (RFC 4180, strict). The name also holds "é" and a byte that is not UTF-8:
# -escape auto escapes the newline and the bad byte, always also "é", never
# none (the newline stays raw inside a quoted field).
. "$(dirname "$0")/../lib/common.sh"
setup

# In csvcheck filter values a backslash escapes "," and "\n" is a newline.
D1='evil\,"quoted"'
MARKUP='</text><script>alert(1)</script>'

for esc in auto always never; do
	mkdir -p "$T/$esc"
	if ! trace_scenario -escape "$esc" -- hostile "$T/$esc"; then
		fail "hostile-$esc-run" "$WHY"
		continue
	fi
	P=$WL_LAST
	check "hostile-$esc-rows" pid=$P "count==11" "count[name=mkdir]==2" \
		"count[name=openat]==2" "count[name=write,ret=6]==1" "count[name=read,ret=6]==1" \
		"count[name=close]==2" "count[name=unlink]==1" "count[name=rmdir]==2"
	# every row names the hostile path; the 7 rows on the file carry the
	# whole markup
	check "hostile-$esc-paths" pid=$P "count[path~$T/$esc/$D1]==11" \
		"count[path~$MARKUP]==7" "count[name=openat,path~$MARKUP,fd=3]==2" \
		"count[name=read,path~$MARKUP,fd=3]==1" "count[name=write,path~$MARKUP,fd=3]==1"
	# the rest of D1: newline, "é" (UTF-8), byte 0xff (not UTF-8), "<".
	# csv/csv.c writes control bytes and invalid UTF-8 as \xHH; always
	# also escapes valid non-ASCII; never writes the raw bytes.
	case $esc in
	auto) tail='\\x0aline\xc3\xa9\\xff<' ;;
	always) tail='\\x0aline\\xc3\\xa9\\xff<' ;;
	never) tail='\nline\xc3\xa9\xff<' ;;
	esac
	check "hostile-$esc-escapes" pid=$P "count[path~$D1$tail]==11"
	[ "$esc" = never ] || check "hostile-$esc-no-raw-control" pid=$P "count[file~\n]==0" \
		"count[file~\xff]==0"
done

finish
