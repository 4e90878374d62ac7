#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Browsing a recording (ktop -i, 120x30 tmux pane), a deterministic 100,000-event file
# (tests/helpers/mkrecording) larger than --memory, so the store pages it:
#   - the header says RECORDING with the file's host, kernel, duration and event count;
#     the stream opens at the first event;
#   - End shows the last event, Home the first again; ? finds the loss marker half-way,
#     reading backwards through the file; c splits per CPU;
#   - the live-only keys are shown n/a and say why; e lists the events with their counts;
#     Space hides the only event: the stream keeps nothing but the loss marker; q exits
#     cleanly.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
[ -x "$MK" ] || skip "no $MK (make check builds it)"

ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/big.dat" 100000 2 ||
	fail "mkrecording failed"

tmux_start 120 30 -- -i "$T/big.dat" --memory 8M
expect_text "RECORDING big.dat +host: fixture +kernel: 6.1.0-fixture +duration: 2.350s +events: 100.0k +SCROLL" 10 \
	"no RECORDING header with host, kernel, duration and count"
expect_text "^0\.000000 \[000\] +task1000-1000 " 5 "the stream does not open at the first event"
expect_text "F7n/a F8n/a" 3 "Pause and Clear are not shown unavailable"

# ---- End, Home --------------------------------------------------------------------------
tmux_keys End
expect_text "^2\.349990 \[001\] +task1049-1049 " 10 "End does not show the last event"
tmux_keys Home
expect_text "^0\.000000 \[000\] +task1000-1000 " 10 "Home does not show the first event again"

# ---- search backwards from the end for the loss marker half-way --------------------------
tmux_keys End
expect_text "^2\.349990 " 10 "End again"
tmux_keys '?'
expect_text "^\?" 3 "? opened no search prompt"
tmux_text "lost 3 events"
tmux_keys Enter
expect_text "\*\*\* CPU 0: lost 3 events \*\*\*" 20 "the search did not find the loss marker"

# ---- per CPU ----------------------------------------------------------------------------
tmux_keys c
expect_text "Events: per CPU 0-1 of 2, one time axis" 5 "c did not split the stream per CPU"
tmux_keys c
expect_text "Events: all CPUs" 5 "c did not merge the CPUs again"

# ---- what needs a live kernel -----------------------------------------------------------
tmux_keys F7
expect_text "a recording does not change: nothing to pause" 3 "F7 does not say why it is n/a"
tmux_keys m
expect_text "counters need a live kernel" 3 "m does not say why there are no counters"

# ---- the events and their counts; hiding one ----------------------------------------------
tmux_keys e
expect_text "Recorded events" 5 "e did not open the recorded events"
expect_text "100\.0k \[x\] sched:sched_switch" 5 "no count for sched:sched_switch"
tmux_keys Space
expect_text "sched:sched_switch hidden" 5 "Space did not hide the event"
# Nothing left but the loss marker: a loss is a fact about the buffer, whatever is shown.
# (While the index is redone the stream may say it holds no events; this is where it ends.)
expect_text "Events: all CPUs +1 held " 10 "the stream holds more than the loss marker"
expect_text "^1\.250000 \*\*\* CPU 0: lost 3 events \*\*\*" 5 "the loss marker went with the event"
wait_for_no_text "task[0-9]+-[0-9]+" 5 || fail "the stream still shows events of a hidden event"
tmux_keys Space
expect_text "task1000-1000" 10 "Space did not show the event again"

tmux_keys Escape q # q in the events pane is typed, as in the live picker
tmux_wait_exit 10 || fail "ktop did not exit on q"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
assert_terminal_restored
assert_no_sanitizer_on_screen
pass
