#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Themes, ktoprc, profiles and the mouse:
# - under TERM=xterm-256color, screen-256color, xterm (8 colours), vt100 and linux ktop starts
#   at 80x24, draws its header and quits cleanly; vt100, -C and NO_COLOR draw no colour; 256
#   colours show the light theme's palette colours, 8 colours fall back to the basic ones;
# - t cycles the themes live; a resize storm (many rapid resizes) does not crash it;
# - a configuration round trip: picker, orientation and theme saved with S, the same after a
#   restart; a change is saved on q and on Ctrl-C; a malformed ktoprc gives one line naming
#   its line, ktop runs with the defaults and the file is not written over;
# - every built-in profile (-P) starts with its events enabled; an unknown one exits 2;
#   W saves the session as a profile that -P loads;
# - the mouse: a click focuses a pane and toggles a picker event, the wheel scrolls;
# - with KTOP_CAPTURE_DIR, the user guide's screens of the profiles and the configuration
#   (tests/term/guide_screens.sh takes the others).
# Everything is written under a temporary XDG_CONFIG_HOME and HOME.
set -u
# some 25 starts of ktop: a bound for a loaded 2-CPU machine, not the usual 180 s
KTOP_TEST_TIMEOUT=${KTOP_TEST_TIMEOUT:-300}
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux

CFG=$T/cfg
mkdir -p "$CFG" "$T/home"
RC=$CFG/ktop/ktoprc
ENVS=("XDG_CONFIG_HOME=$CFG" "HOME=$T/home")
# Captures for docs/user-guide.md, when asked (tmux_doc_capture): KTOP_CAPTURE_DIR=...
CAPTURE_DIR=${KTOP_CAPTURE_DIR:-}

# A fresh tmux server per run: the terminal type is read when the server starts.
run_in()
{
	local term=$1
	shift
	tmux_kill_server
	KTOP_TEST_TERM=$term tmux_start 80 24 "${ENVS[@]}" "$@"
}

quit_ok()
{
	local what=$1
	tmux_keys q
	tmux_wait_exit 10 || fail "$what: q did not quit within 10s"
	[ "$PANE_RC" = 0 ] || fail "$what: ktop exited $PANE_RC after q"
	assert_terminal_restored
	assert_no_sanitizer_on_screen
}

screen_sgr() { tmux_screen -e; }
# Colour SGR parameters (not the 39/49 resets tmux writes).
COLOUR_RE=$'\e\\[([0-9;]*;)?(3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]'
has_colour() { screen_sgr | grep -Eq "$COLOUR_RE"; }

# ---- terminal types -------------------------------------------------------------------------
for term in xterm-256color screen-256color xterm vt100 linux; do
	run_in "$term" -- -e sched:sched_switch
	pid=$KTOP_PID
	expect_text "^ktop-$pid +tracer: nop +enabled: 1" 10 "TERM=$term: no header"
	expect_text "F1Help" 5 "TERM=$term: no function bar"
	case $term in
	vt100)
		! has_colour || fail "TERM=vt100: colour on a terminal without colours: $(screen_sgr | grep -Em1 "$COLOUR_RE" | cat -v)"
		;;
	*)
		wait_until 3 has_colour || fail "TERM=$term: no colour at all"
		;;
	esac
	quit_ok "TERM=$term"
done

# -C and NO_COLOR: no colour on a colour terminal.
run_in xterm-256color -- -C -e sched:sched_switch
expect_text "^ktop-$KTOP_PID +tracer" 10 "-C: no header"
sleep 0.3
! has_colour || fail "-C: colour drawn"
quit_ok "-C"
NO_COLOR=1 run_in xterm-256color -- -e sched:sched_switch
expect_text "^ktop-$KTOP_PID +tracer" 10 "NO_COLOR: no header"
sleep 0.3
! has_colour || fail "NO_COLOR=1: colour drawn"
quit_ok "NO_COLOR"

# ---- themes: --theme, the fallback, t ---------------------------------------------------------
# light's header labels are #005f87: colour 24 on 256 colours, blue (34) on 8.
run_in xterm-256color -- --theme light -e sched:sched_switch
expect_text "^ktop-$KTOP_PID +tracer" 10 "--theme light: no header"
_has_24() { screen_sgr | grep -q $'\e\\[38;5;24m'; }
wait_until 3 _has_24 || fail "--theme light at 256 colours: no colour 24 in the header"
quit_ok "--theme light"
run_in xterm -- --theme light -e sched:sched_switch
expect_text "^ktop-$KTOP_PID +tracer" 10 "--theme light at 8 colours: no header"
_has_34() { screen_sgr | grep -q $'\e\\[34m'; }
wait_until 3 _has_34 || fail "--theme light at 8 colours: the header labels did not fall back to blue"
! screen_sgr | grep -q $'\e\\[38;5;' || fail "--theme light at 8 colours: 256-colour codes drawn"
quit_ok "--theme light, 8 colours"

run_in xterm-256color -- --theme nonesuch -e sched:sched_switch
expect_text "no theme 'nonesuch'" 10 "--theme nonesuch: no message on the status line"
expect_text "^ktop-$KTOP_PID +tracer" 5 "--theme nonesuch: no header"
quit_ok "--theme nonesuch"

# ---- t cycles; the resize storm ---------------------------------------------------------------
run_in xterm-256color -- -e sched:sched_switch
pid=$KTOP_PID
expect_text "^ktop-$pid +tracer: nop +enabled: 1" 10 "no header"
for want in "light \\(2 of" "mono \\(3 of" "high-contrast \\(4 of" "default \\(1 of"; do
	tmux_keys t
	expect_text "theme $want" 3 "t did not switch to theme $want"
done
alive() { pid_alive "$pid" || fail "ktop died $1 (status $(cat "$T/pane.rc" 2>/dev/null))"; }
sizes=(80x24 132x43 40x10 200x60 20x5 100x30 81x25 79x23 1x1 60x20 300x100 80x24)
for _ in 1 2 3 4 5; do
	for s in "${sizes[@]}"; do
		tm resize-window -t t -x "${s%x*}" -y "${s#*x}" 2>/dev/null
	done
	tmux_keys t
done
alive "in the resize storm"
tmux_size 80 24
sleep 0.5
alive "after the resize storm"
expect_text "^ktop-$pid +tracer: nop +enabled: 1" 5 "no header after the resize storm"
expect_text "F1Help" 5 "no function bar after the resize storm"
# the config was not there and the theme changed: q saves it
quit_ok "resize storm"
[ -f "$RC" ] || fail "the theme changed and q did not write $RC"
grep -q '^theme = ' "$RC" || fail "$RC lacks the theme: $(cat "$RC")"
rm -f "$RC"

# ---- configuration round trip -----------------------------------------------------------------
run_in xterm-256color -- -e sched:sched_switch
expect_text "^ktop-$KTOP_PID +tracer" 10 "no header"
tmux_keys e
expect_text "Event picker" 5 "e did not open the picker"
tmux_keys Tab t t
expect_text "theme mono" 3 "t t did not reach mono"
# the stream pane's share of the panes: ] grows it a step from the even split
# Where the picker's title is, as line*1000+column: it moves down (stacked) or right (side
# by side) when the stream pane before it grows.
_picker_at() { tmux_screen | awk '{ i = index($0, "Event picker") } i { print NR * 1000 + i; exit }'; }
at_before=$(_picker_at)
[ -n "$at_before" ] || fail "no picker title on the screen"
tmux_keys ']' ']'
expect_text "stream pane: 55% of the panes' area" 3 "] ] did not grow the stream pane"
_grew() { [ "$(_picker_at)" -gt "$at_before" ]; }
wait_until 3 _grew || fail "the picker did not move after ] ] (at $(_picker_at), before $at_before)"
tmux_keys F5
tmux_keys S
expect_text "saved $RC" 3 "S did not say it saved $RC"
grep -qx 'split = 55' "$RC" || fail "saved ktoprc: no 'split = 55': $(cat "$RC")"
tmux_doc_capture config-saved
grep -qx 'theme = mono' "$RC" || fail "saved ktoprc: no 'theme = mono': $(cat "$RC")"
grep -qx 'picker = yes' "$RC" || fail "saved ktoprc: no 'picker = yes': $(cat "$RC")"
orient=$(sed -n 's/^orientation = //p' "$RC")
[ "$orient" = stacked ] || [ "$orient" = side ] || fail "saved ktoprc: orientation '$orient' after F5"
quit_ok "save"
cp "$RC" "$T/rc.saved"
cmp -s "$RC" "$T/rc.saved" || fail "q changed the file after S with nothing changed since"

run_in xterm-256color -- -e sched:sched_switch
expect_text "^ktop-$KTOP_PID +tracer" 10 "restart: no header"
expect_text "Event picker" 5 "restart: the saved picker is not open"
# the theme: the next one after mono
tmux_keys t
expect_text "theme high-contrast" 3 "restart: the saved theme was not mono"
# SIGINT (Ctrl-C) saves the change too. Sent with kill: in tmux, C-c would reach the
# wrapper shell of the pane as well.
kill -INT "$KTOP_PID"
wait_until 10 _pid_gone "$KTOP_PID" || fail "SIGINT did not end ktop"
grep -qx 'theme = high-contrast' "$RC" || fail "Ctrl-C did not save the changed theme: $(cat "$RC")"
grep -qx "orientation = $orient" "$RC" || fail "the orientation was lost: $(cat "$RC")"
grep -qx 'split = 55' "$RC" || fail "the stream pane's share was lost: $(cat "$RC")"

# A malformed file: one line naming its line, the defaults, the file kept.
printf 'theme = light\nzoom = perhaps\n' >"$RC"
cp "$RC" "$T/rc.bad"
run_in xterm-256color -- -e sched:sched_switch
expect_text "ktoprc:2: zoom takes yes or no" 10 "a malformed ktoprc: no message naming the line"
expect_text "^ktop-$KTOP_PID +tracer" 5 "a malformed ktoprc: no header"
tmux_doc_capture config-malformed
tmux_keys t
expect_text "theme light" 3 "a malformed ktoprc: not the defaults (t after default is light)"
tmux_keys S
expect_text "not saved" 3 "S over a malformed ktoprc did not refuse"
quit_ok "malformed ktoprc"
cmp -s "$RC" "$T/rc.bad" || fail "the malformed ktoprc was written over: $(cat "$RC")"
rm -f "$RC"

# Key bindings: key.ACTION = KEY adds a key; the file's own keys keep working.
printf 'key.theme = F12\nkey.zoom = w\npicker = yes\n' >"$RC"
run_in xterm-256color -- -e sched:sched_switch
expect_text "^ktop-$KTOP_PID +tracer" 10 "bindings: no header"
expect_text "Event picker" 5 "bindings: picker = yes did not open the picker"
tmux_keys F12
expect_text "theme light" 3 "key.theme = F12: F12 did not switch the theme"
tmux_keys w
wait_for_no_text "Event picker" 3 || fail "key.zoom = w: w did not zoom the stream"
tmux_keys w
expect_text "Event picker" 3 "key.zoom = w: the second w did not unzoom"
quit_ok "bindings"
grep -qx 'key.theme = F12' "$RC" || fail "the bindings were lost when q saved the theme: $(cat "$RC")"
rm -f "$RC"

# ---- profiles ---------------------------------------------------------------------------------
"$KTOP" -P nonesuch >/dev/null 2>"$T/p.err"
rc=$?
[ "$rc" = 2 ] || fail "-P nonesuch exited $rc, not 2"
grep -q "no profile 'nonesuch' (built-in: sched, block, syscalls, memory, net" "$T/p.err" ||
	fail "-P nonesuch: $(cat "$T/p.err")"
[ "$(wc -l <"$T/p.err")" = 1 ] || fail "-P nonesuch: more than one line: $(cat "$T/p.err")"

check_profile()
{
	local p=$1 sys=$2 ev=$3 wl=
	run_in xterm-256color -- -P "$p"
	wait_capturing "$KTOP_PID" "$sys" "$ev"
	expect_text "^ktop-$KTOP_PID +tracer: nop +enabled: [1-9]" 10 "-P $p: no events enabled in the header"
	expect_text "Event picker +[1-9][0-9]* of [0-9]+ enabled" 5 "-P $p: the picker does not show its events"
	if [ -n "$CAPTURE_DIR" ]; then
		# for the user guide: a syscall storm to find, events on the screen
		if [ "$p" = syscalls ] && [ -x "$KTOP_WORKLOAD" ]; then
			"$KTOP_WORKLOAD" rate 20000 3 storm-wl >/dev/null &
			wl=$!
			CLEANUP_PIDS+=("$wl")
			sleep 1.5
		fi
		wait_for_text '[1-9][0-9]* held' 3 || true
		sleep 1.2
		# the guide's Recipe 1: paused (p), then searched back for a failed call (?)
		if [ "$p" = syscalls ]; then
			tmux_keys p
			expect_text "PAUSED" 3 "-P syscalls: p did not pause"
			tmux_keys '?'
			tmux_text ENOENT
			tmux_keys Enter
			wait_for_text "ENOENT" 5 || true
		fi
	fi
	tmux_doc_capture "profile-$p"
	[ -n "$wl" ] && wait "$wl" 2>/dev/null
	quit_ok "-P $p"
}
check_profile sched sched sched_switch
check_profile block block block_rq_issue
check_profile syscalls raw_syscalls sys_enter
check_profile memory kmem mm_page_alloc
check_profile net net netif_receive_skb

# W: the session as a profile
run_in xterm-256color -- -e sched:sched_wakeup -e sched:sched_switch
expect_text "^ktop-$KTOP_PID +tracer: nop +enabled: 2" 10 "no header"
tmux_keys W
expect_text "Save profile as:" 3 "W did not ask for a name"
tmux_text mine
tmux_keys Enter
expect_text "saved profile .*mine" 3 "W did not save the profile"
quit_ok "W"
P=$CFG/ktop/profiles/mine
for e in sched:sched_wakeup sched:sched_switch; do
	grep -qx "event = $e" "$P" || fail "the saved profile lacks $e: $(cat "$P")"
done
run_in xterm-256color -- -P mine
wait_capturing "$KTOP_PID" sched sched_wakeup
expect_text "enabled: 2" 10 "-P mine did not enable the two events"
quit_ok "-P mine"

# ---- the mouse --------------------------------------------------------------------------------
# A press and its release in one write, as a slow SSH link delivers them: ncurses queues both
# behind one KEY_MOUSE, and the press must not be lost under the release.
click() { tmux_text $'\e[<0;'"$1;$2"$'M\e[<0;'"$1;$2"'m'; }
# The keys and mouse events ktop read, from its -v log, when a click goes unanswered.
expect_click()
{
	wait_for_text "$1" 3 && return 0
	fail "$2 (click at column $col, line $line); ktop read: $(grep -E 'ui_key|ui_mouse' "$T/mouse.klog" | tail -n 20 | tr '\n' ';')"
}
run_in xterm-256color -- -v --log "$T/mouse.klog" -e sched:sched_switch
expect_text "^ktop-$KTOP_PID +tracer" 10 "no header"
tmux_keys e
expect_text "Event picker" 5 "e did not open the picker"
tmux_text alarmtimer_st
expect_text "\\[ \\] alarmtimer_start" 5 "the picker did not narrow to alarmtimer_start"
tmux_keys Tab
expect_text "F3Search" 3 "Tab did not focus the stream"
line=$(tmux_screen | grep -n '\[ \] alarmtimer_start' | head -1 | cut -d: -f1)
col=$(tmux_screen | grep '\[ \] alarmtimer_start' | head -1 | awk '{ print index($0, "alarmtimer_start") }')
[ -n "$line" ] || fail "no alarmtimer_start row"
click "$col" "$line"
expect_click "\\[x\\] alarmtimer_start" "a click on the event did not enable it"
expect_text "Spc *Toggle" 3 "the click did not focus the picker"
wait_capturing "$KTOP_PID" alarmtimer alarmtimer_start 3
# a click in the stream focuses it; the wheel scrolls it (leaves FOLLOW)
col=5 line=10
click "$col" "$line"
expect_click "F3Search" "a click in the stream did not focus it"
tmux_text $'\e[<64;5;10M'
expect_text "SCROLL" 3 "the wheel did not scroll the stream"
quit_ok "mouse"
# -M: no mouse
run_in xterm-256color -- -M -e sched:sched_switch
expect_text "^ktop-$KTOP_PID +tracer" 10 "-M: no header"
[ "$(tmux_pane '#{mouse_any_flag}#{mouse_sgr_flag}')" = 00 ] ||
	fail "-M: the terminal's mouse reporting is on"
quit_ok "-M"

assert_clean
pass
