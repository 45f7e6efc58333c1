# Terminal tests in tmux (tui.sh, dash.sh): a tmux server of the script's
# own, one session named $TMUX_SESSION whose windows run the program under
# test; what a person would see is read back with capture-pane. Source it
# after common.sh and setup, with TMUX_SESSION set; it fails the script
# when tmux is missing.
if ! command -v tmux >/dev/null; then
	fail "$TMUX_SESSION-setup" "tmux is not installed (scripts/deps.sh test installs it)"
	exit 1
fi
TMUX_SOCK=ior-$TMUX_SESSION-$$
tm() { tmux -L "$TMUX_SOCK" -f /dev/null "$@"; }
at_exit "tmux -L $TMUX_SOCK kill-server 2>/dev/null"

# tmux_window NAME COLS ROWS CMD: a window of COLSxROWS running the shell
# command CMD; after it, the pane shows which of echo, icanon, isig are on.
tmux_window() {
	local name=$1 cols=$2 rows=$3
	local cmd="$4 stty -a | tr ' ;' '\n\n' | grep -x -e echo -e icanon -e isig | sort | tr '\n' ' '; echo; sleep 600"
	if tm has-session 2>/dev/null; then
		tm new-window -d -n "$name" "$cmd"
	else
		tm new-session -d -s "$TMUX_SESSION" -n "$name" -x "$cols" -y "$rows" "$cmd"
		tm set -s escape-time 0 # tmux's own wait after Esc
	fi
	tm resize-window -t "$TMUX_SESSION:$name" -x "$cols" -y "$rows"
}
screen() { tm capture-pane -p -t "$TMUX_SESSION:$1"; }
keys() { tm send-keys -t "$TMUX_SESSION:$1" "${@:2}"; }
# expect WINDOW CHECK PATTERN [TENTHS]: the pane shows a line matching
# PATTERN (grep -E) within TENTHS tenths of a second (default 50).
expect() {
	for _ in $(seq "${4:-50}"); do
		if screen "$1" | grep -qE -- "$3"; then
			pass "$2"
			return 0
		fi
		sleep 0.1
	done
	fail "$2" "pane $1 never showed /$3/; it shows: $(screen "$1" | grep -v '^ *$' | head -14 | tr '\n' '|')"
	return 1
}
# tmux_restored WINDOW CHECK GONE: the program is gone and the terminal is
# as before: echo, icanon and isig on, the normal screen with its "before"
# line, the cursor shown, nothing matching GONE (grep) left on it.
tmux_restored() {
	local alt cur
	expect "$1" "$2-flags" '^echo icanon isig$' || return
	alt=$(tm display -p -t "$TMUX_SESSION:$1" '#{alternate_on}')
	cur=$(tm display -p -t "$TMUX_SESSION:$1" '#{cursor_flag}')
	if [ "$alt" = 0 ] && [ "$cur" = 1 ] && screen "$1" | grep -q '^before$' &&
		! screen "$1" | grep -q -- "$3"; then
		pass "$2-screen"
	else
		fail "$2-screen" "alternate_on=$alt cursor_flag=$cur, pane: $(screen "$1" | grep -v '^$' | head -4 | tr '\n' '|')"
	fi
}
