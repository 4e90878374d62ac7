#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# A USDT histogram from the keyboard (120x24): H, then usdt:TARGET:ktop_test:hit keyed by its
# string argument; the status line names its way (usdt), tests/helpers/usdt_target's 5
# guarded hits (its semaphore counted up by the attach) are 5 keys of one hit each in the
# key table (the totals), Esc closes the pane and its program goes, q leaves nothing.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_tmux
KTOP_USDT_TARGET=${KTOP_USDT_TARGET:-$(dirname "$KTOP")/tests/helpers/usdt_target}
[ -x "$KTOP_USDT_TARGET" ] || fail "no USDT target at '$KTOP_USDT_TARGET' (make check builds it)"
target=$(readlink -f "$KTOP_USDT_TARGET")

mkdir -p "$T/xdg"
tmux_start 120 24 "XDG_CONFIG_HOME=$T/xdg" -- -d 5
pid=$KTOP_PID
expect_text "Events" 10 "ktop did not start"
tmux_keys H
expect_text "histogram> " 5 "H opened no prompt"
tmux_keys C-u
tmux_text "usdt:$target:ktop_test:hit,by=arg3:string"
tmux_keys Enter
expect_text "^ *histogram usdt:.*:ktop_test:hit,by=arg3:string via usdt" 10 "no histogram built via usdt"
expect_text "Hist usdt:" 5 "no histogram pane"
wait_progs "$pid" 1
mapfile -t PROGS < <(prog_ids "$pid")
"$target" 5 >"$T/target.out" || fail "usdt_target failed"
[ "$(sed -n 2p "$T/target.out")" = "guard 5 semaphore 1" ] ||
	fail "the target's guard: '$(sed -n 2p "$T/target.out")', expected 'guard 5 semaphore 1'"
tmux_keys v i
expect_text "all 5 keys: n=5 " 10 "not 5 keys of 5 hits"
# the key column shows the first 10 characters of each
expect_count "│ktop-usdt- +1 +0 " 5 5 "not 5 keys of one hit each"
tmux_keys Escape
wait_for_no_text "Hist usdt:" 5 || fail "Esc did not close the histogram pane"
assert_progs_gone "${PROGS[@]}"
tmux_keys q
tmux_wait_exit 10 || fail "q did not quit within 10s"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
assert_terminal_restored
assert_no_sanitizer_on_screen
assert_clean
pass
