# shellcheck shell=bash disable=SC2034 # globals are for the tests that source this
# The terminal tests' tmux (tests/term): ktop started in a private tmux server's pane, keys
# sent, the screen read back and waited on, the exit and the terminal's restoration checked.
# Sourced by tests/lib.sh.

require_tmux()
{
	command -v tmux >/dev/null 2>&1 || skip "needs tmux (apt-get install tmux)"
}

# A private server: its own socket directory inside $T, removed with it.
tm() { TMUX='' TMUX_TMPDIR="$T" tmux -L "$TMUX_SOCK" "$@"; }

# tmux_start COLS ROWS [ENV=VAL...] -- ARGS...: starts ktop ARGS (the binary is added) in a
# detached session "t" of COLS x ROWS, under a small wrapper shell that records ktop's pid
# and exit status (tmux itself does not always reap its pane's process in time to tell).
# ktop's pid in KTOP_PID; after it exits, tmux_wait_exit gives the status. No history is
# kept unless TMUX_HISTORY says how many lines (for what scrolls off, tmux_screen -S -N).
# _no_overview [ENV=VAL...]: ktop started with nothing named lands on the overview; the
# tests written before it expect the stream, so the configuration they start from (none:
# XDG_CONFIG_HOME, or the one they pass) says overview = no, unless TMUX_OVERVIEW=1 or they
# wrote a ktoprc of their own.
_no_overview()
{
	local cfg=$XDG_CONFIG_HOME e
	for e in "$@"; do
		case $e in XDG_CONFIG_HOME=*) cfg=${e#*=} ;; esac
	done
	[ "${TMUX_OVERVIEW:-}" = 1 ] && return 0
	[ -e "$cfg/ktop/ktoprc" ] && return 0
	mkdir -p "$cfg/ktop" && printf 'overview = no\n' >"$cfg/ktop/ktoprc"
}

tmux_start()
{
	local cols=$1 rows=$2 envs=() e targs=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
	[ "${1:-}" = -- ] && shift
	cat >"$T/tmux.conf" <<-EOF
	set -g default-terminal "${KTOP_TEST_TERM:-tmux-256color}"
	set -g remain-on-exit on
	set -g status off
	set -g history-limit ${TMUX_HISTORY:-0}
	set -sg escape-time 0
	EOF
	cat >"$T/run-in-pane" <<-'EOF'
	#!/bin/bash
	# run-in-pane PIDFILE STATUSFILE COMMAND...: ktop as a child in the terminal's
	# foreground process group, stdin kept (not /dev/null), its status recorded.
	pidf=$1 rcf=$2
	shift 2
	exec 3<&0
	"$@" <&3 3<&- &
	echo $! >"$pidf"
	wait $!
	echo $? >"$rcf.tmp" && mv "$rcf.tmp" "$rcf"
	EOF
	chmod +x "$T/run-in-pane"
	rm -f "$T/pane.pid" "$T/pane.rc"
	TMUX_USED=1
	for e in "${envs[@]+"${envs[@]}"}"; do targs+=(-e "$e"); done
	_no_overview "${envs[@]+"${envs[@]}"}"
	# LANG matters: UTF-8 or ASCII line drawing. Keep the caller's, default C.UTF-8.
	targs+=(-e "LANG=${LANG:-C.UTF-8}" -e "LC_ALL=${LC_ALL:-}" -e "NO_COLOR=${NO_COLOR:-}")
	tm -f "$T/tmux.conf" new-session -d -s t -x "$cols" -y "$rows" "${targs[@]}" \
		"$T/run-in-pane" "$T/pane.pid" "$T/pane.rc" "$KTOP" "$@" ||
		fail "tmux new-session failed"
	wait_until 5 has_line "$T/pane.pid" || fail "ktop did not start in tmux"
	KTOP_PID=$(cat "$T/pane.pid")
	KTOP_PIDS+=("$KTOP_PID")
}

# tmux_kill_server: ends this test's tmux server and waits until its process is gone.
# kill-server returns while the server is still exiting, and its socket file stays: a
# tmux_start in that window connects to the dying server and fails with "server exited
# unexpectedly".
tmux_kill_server()
{
	local pid
	pid=$(tm display-message -p '#{pid}' 2>/dev/null)
	tm kill-server 2>/dev/null
	[ -n "$pid" ] && wait_until 10 eval '! kill -0 "$pid" 2>/dev/null'
	rm -f "$T/tmux-$(id -u)/$TMUX_SOCK"
}

tmux_keys() { tm send-keys -t t "$@"; }
tmux_text() { tm send-keys -t t -l -- "$1"; }
# tmux_mouse BUTTON COL LINE (1-based): one X10 mouse report, each byte +32 (button 0 the
# left one's press, 3 a release, 64/65 the wheel up/down)
tmux_mouse()
{
	local b x y
	b=$(printf %b "\\0$(printf %03o $(($1 + 32)))")
	x=$(printf %b "\\0$(printf %03o $(($2 + 32)))")
	y=$(printf %b "\\0$(printf %03o $(($3 + 32)))")
	tmux_text $'\e[M'"$b$x$y"
}
# tmux_prompt KEY TITLE TEXT: KEY's prompt (TITLE on the screen), its offer replaced by TEXT,
# Enter (w's and A's file names).
tmux_prompt()
{
	tmux_keys "$1"
	expect_text "$2" 3 "$1 opened no prompt"
	tmux_keys C-u
	tmux_text "$3"
	tmux_keys Enter
}
# The screen as the terminal holds it once a frame has fully arrived: ktop's frame can reach
# tmux in several reads, so a capture is repeated until two agree (a live stream that never
# settles gives its last capture after 5 tries). tmux_screen -e: with the colours (SGR).
tmux_screen()
{
	local prev cur i
	# The trailing "." keeps the screen's blank last lines through $(...).
	prev=$(tm capture-pane -p "$@" -t t 2>/dev/null && echo .) || return 1
	cur=$prev
	for i in 1 2 3 4 5; do
		sleep 0.02
		cur=$(tm capture-pane -p "$@" -t t 2>/dev/null && echo .) || return 1
		[ "$cur" = "$prev" ] && break
		prev=$cur
	done
	printf '%s' "${cur%.}"
}
# tmux_doc_capture NAME: with KTOP_CAPTURE_DIR set (the user guide's screens are
# regenerated: docs/user-guide.md), the screen as text in $KTOP_CAPTURE_DIR/NAME.txt,
# trailing blanks dropped; otherwise nothing.
tmux_doc_capture()
{
	[ -n "${KTOP_CAPTURE_DIR:-}" ] || return 0
	mkdir -p "$KTOP_CAPTURE_DIR" && tmux_screen | sed 's/ *$//' >"$KTOP_CAPTURE_DIR/$1.txt"
}
tmux_pane() { tm display-message -p -t t "$1" 2>/dev/null; }
tmux_size() { tm resize-window -t t -x "$1" -y "$2"; }

_screen_has() { tmux_screen | grep -Eq -- "$1"; }
_screen_lacks() { ! tmux_screen | grep -Eq -- "$1"; }

# wait_for_text PATTERN [TIMEOUT]: an extended regexp on the visible screen. On time-out
# shows the screen and returns 1.
wait_for_text()
{
	if wait_until "${2:-5}" _screen_has "$1"; then
		return 0
	fi
	log "no /$1/ on the screen within ${2:-5}s; the screen:"
	tmux_screen | sed 's/^/  | /' >&2
	return 1
}

# wait_for_no_text PATTERN [TIMEOUT]
wait_for_no_text()
{
	if wait_until "${2:-5}" _screen_lacks "$1"; then
		return 0
	fi
	log "/$1/ still on the screen after ${2:-5}s; the screen:"
	tmux_screen | sed 's/^/  | /' >&2
	return 1
}

# expect_text PATTERN [TIMEOUT] [WHAT]: wait_for_text or fail.
expect_text()
{
	wait_for_text "$1" "${2:-5}" || fail "${3:-expected /$1/ on the screen}"
}

# expect_count PATTERN N TIMEOUT WHAT: until exactly N screen lines match PATTERN (the
# terminal may show a frame half drawn, so a count is waited for, never read once).
_screen_count_is() { [ "$(tmux_screen | grep -Ec -- "$1")" -eq "$2" ]; }
expect_count()
{
	wait_until "$3" _screen_count_is "$1" "$2" && return 0
	log "$(tmux_screen | grep -Ec -- "$1") lines match /$1/, not $2; the screen:"
	tmux_screen | sed 's/^/  | /' >&2
	fail "$4"
}

# tmux_wait_exit TIMEOUT: until ktop in the pane has exited; its status in PANE_RC (128+N
# when signal N killed it without a teardown).
PANE_RC=
tmux_wait_exit()
{
	PANE_RC=
	wait_until "$1" test -s "$T/pane.rc" || return 1
	PANE_RC=$(cat "$T/pane.rc")
	return 0
}

_alt_off() { [ "$(tmux_pane '#{alternate_on}')" = 0 ]; }

# tmux_quit_clean: q quits ktop in the pane, with exit status 0, the terminal restored and no
# sanitizer report on it.
tmux_quit_clean()
{
	tmux_keys q
	tmux_wait_exit 10 || fail "q did not quit"
	[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
	assert_terminal_restored
	assert_no_sanitizer_on_screen
}

# The pane left the alternate screen (curses' rmcup ran): the terminal was restored.
assert_terminal_restored()
{
	local alt
	# ktop has exited; tmux may still be reading its last bytes.
	wait_until 3 _alt_off
	alt=$(tmux_pane '#{alternate_on}')
	[ "$alt" = 0 ] || fail "the terminal is still in the alternate screen after ktop exited (alternate_on=$alt)"
}

# No sanitizer report on the screen (ktop prints what it held back after curses ends).
assert_no_sanitizer_on_screen()
{
	! tmux_screen | grep -Eq "$SANITIZER_RE" ||
		fail "sanitizer report on the screen: $(tmux_screen | grep -Em3 "$SANITIZER_RE")"
}
