#!/bin/bash
# The terminal toolkit on a real terminal emulator: tests/integration/tui_demo.c
# (a table, lines, a sparkline, a bar, a filter editor) in tmux panes. What a
# person would see is read back with capture-pane: the frame at 80x24 and
# after resizes, a hostile file name drawn as '?' and no colour it asked
# for, keys (arrows, PgDn, End, a lone Esc, UTF-8 typed into the filter,
# Ctrl-C, Ctrl-Z), the ASCII fallback, and after q, SIGTERM or SIGHUP the
# terminal as it was: normal screen, cursor shown, echo, icanon, isig.
# Needs no root itself; it runs with the integration group.
. "$(dirname "$0")/../lib/common.sh"
setup

DEMO=${TUI_DEMO:-$ROOT/build/tests/tui_demo}
TMUX_SESSION=tui
. "$(dirname "$0")/../lib/tmux.sh"
if [ ! -x "$DEMO" ]; then
	fail tui-setup "$DEMO is not an executable (run make tests)"
	exit 1
fi

# start NAME COLS ROWS ENV...: a window running the demo; after it, the
# pane shows its exit status and which of echo, icanon, isig are on.
start() {
	local name=$1 cols=$2 rows=$3
	shift 3
	tmux_window "$name" "$cols" "$rows" "echo before; env $* TUI_DEMO_PIDFILE=$T/$name.pid $DEMO; echo EXIT=\$?;"
}
# restored WINDOW CHECK: the demo is gone and the terminal is as before.
restored() { tmux_restored "$1" "$2" 'file-'; }

# UTF-8 at 80x24
start u 80 24 LANG=C.UTF-8 LC_ALL= LC_CTYPE=
expect u tui-draws '^ior tui demo 80x24 utf8'
expect u tui-header '^file +count▼ +bytes$'
expect u tui-hostile-name '^/tmp/evil\?\[31mred\?\? +14 +8192$'
if tm capture-pane -e -p -t tui:u | grep -q $'\e\\[[0-9;]*31m'; then
	fail tui-no-injected-colour "a cell is red: the name's escape reached the terminal"
else
	pass tui-no-injected-colour
fi
expect u tui-lines '^─{80}$'
expect u tui-sparkline-bar '▁▂▃▄▅▆▇█ +████▌?'
keys u Down Down
expect u tui-keys-arrows '^row 2 last key Down '
keys u PageDown
expect u tui-keys-pgdn '^row 19 last key PgDn '
keys u End
expect u tui-keys-end '^row 39 last key End '
keys u Escape
expect u tui-keys-lone-esc '^row 39 last key Esc '
keys u Home / a b
keys u -l 'é'
keys u Enter
expect u tui-filter-utf8 'last key Enter filter \[abé\]$'
tm resize-window -t tui:u -x 100 -y 30
expect u tui-resize-grow '^ior tui demo 100x30 utf8'
expect u tui-resize-grow-edge '^/var/lib/demo/file-1\.db {60,} 7 +4096$'
if [ "$(screen u | grep 'file-1\.db' | awk '{ print length }')" = 100 ]; then
	pass tui-resize-grow-width
else
	fail tui-resize-grow-width "the row is not 100 columns: $(screen u | grep 'file-1\.db')"
fi
tm resize-window -t tui:u -x 60 -y 12
expect u tui-resize-shrink '^ior tui demo 60x12 utf8'
expect u tui-resize-shrink-rows '^/var/lib/demo/file-5\.db +35 +20480$'
keys u q
expect u tui-quit-q '^tui_demo: bye$'
expect u tui-quit-q-status '^EXIT=0$'
restored u tui-quit-q-restored

# ASCII: nothing but ASCII on the screen; SIGTERM (default action) restores
start a 80 24 LANG=C LC_ALL= LC_CTYPE=
expect a tui-ascii-draws '^ior tui demo 80x24 ascii'
expect a tui-ascii-lines '^-{80}$'
expect a tui-ascii-header '^file +countv +bytes$'
if screen a | LC_ALL=C grep -q '[^ -~]'; then
	fail tui-ascii-only "a byte outside printable ASCII: $(screen a | LC_ALL=C grep '[^ -~]' | head -2)"
else
	pass tui-ascii-only
fi
kill -TERM "$(cat "$T/a.pid")"
expect a tui-sigterm-status '^EXIT=143$'
restored a tui-sigterm-restored

# the program's own SIGHUP handler: it quits in its own time
start h 80 24 LANG=C.UTF-8
expect h tui-hup-draws '^ior tui demo 80x24'
kill -HUP "$(cat "$T/h.pid")"
expect h tui-hup-handled '^tui_demo: quit on signal 1$'
expect h tui-hup-status '^EXIT=0$'
restored h tui-hup-restored

# Ctrl-C is a key (ISIG off); Ctrl-Z with no job control (an orphaned
# process group) does not stop, and the demo goes on drawing
start c 80 24 LANG=C.UTF-8
expect c tui-ctrl-draws '^ior tui demo 80x24'
keys c C-z
expect c tui-ctrl-z-goes-on '^row 0 last key Ctrl-Z '
keys c Down
expect c tui-ctrl-z-keys-after '^row 1 last key Down '
keys c C-c
expect c tui-ctrl-c-status '^EXIT=0$'
restored c tui-ctrl-c-restored

# not a terminal, or TERM=dumb: no drawing
out=$(TERM=xterm "$DEMO" </dev/null | cat)
case $out in *plain*) pass tui-plain-pipe ;; *) fail tui-plain-pipe "got: $out" ;; esac
start d 80 24 TERM=dumb
expect d tui-plain-dumb '^tui_demo: plain'

finish
