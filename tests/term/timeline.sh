#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The time axis (issue 33) at 80x24. A recording made here (ktop -b -o, sched_switch, a
# sleeping workload pinned to CPU 1), read with ktop -i and trace-cmd report -t:
#   - the timeline's (V) slices, CPU by CPU, start and end at trace-cmd's sched_switch
#     times with the task it names, every one, and the heat map's 20 ms cells hold the
#     records trace-cmd counts in them (KTOP_TEST_TIMELINE_DUMP, what the panes draw);
#   - the cursor opens at the file's first record; + and _ zoom, > pans; on CPU 1's lane n
#     jumps to its next switch, trace-cmd's time; r, n n n, r marks those switches as the
#     range: the header shows it and the stream holds exactly trace-cmd's records in it;
#     X clears it; a typed range (@ +0.1..+0.2) does the same;
#   - the heat map (%): its cursor cell's count is trace-cmd's; Enter marks the cell, m j j
#     m a run of three cells, and the stream holds their records;
# Live: V turns sched_switch on in ktop's own instance, the lanes follow, p freezes them,
# a typed range scopes the stream, q leaves nothing behind.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload
require_python
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (apt-get install trace-cmd)"
command -v taskset >/dev/null || skip "taskset is not installed (util-linux)"
# the lanes' proof is KTOP_TEST_TIMELINE_DUMP, read only by a test-hook build
"$KTOP" --version | grep -q -- --enable-test-hooks ||
	skip "$KTOP was built without --enable-test-hooks (./dev check builds with them)"
EXPECT="python3 $KTOP_SRCDIR/tests/helpers/timeline_expect.py"

# ---- a recording with known switches ------------------------------------------------------
rm -f "$T/go"
WORKLOAD_GO="$T/go" taskset -c 1 "$KTOP_WORKLOAD" sleep 2 300 tl-wl >"$T/wl" &
CLEANUP_PIDS+=("$!")
wl=$!
start_ktop "$T/rec.out" "$T/rec.err" -b -q -o "$T/rec.dat" -e sched:sched_switch --duration 2
kpid=$KTOP_PID
wait_capturing "$kpid" sched sched_switch
touch "$T/go"
wait_pid_exit "$kpid" 30 || fail "ktop -o did not end after its --duration"
[ "$WAIT_RC" = 0 ] || fail "ktop -o exited $WAIT_RC: $(head -c 400 "$T/rec.err")"
wait_pid_exit "$wl" 30
trace-cmd report -t "$T/rec.dat" >"$T/report" 2>"$T/report.err" ||
	fail "trace-cmd report: $(head -c 400 "$T/report.err")"
t0=$($EXPECT "$T/report" first)
# in_range A B: trace-cmd's records from A to B (ns after the first record, inclusive)
in_range() { $EXPECT "$T/report" range $((t0 + $1)) $((t0 + $2)); }
# held_is N: the stream's title says it holds N rows
held_is() { expect_text "Events: all CPUs.* $1 held" 10 "${2:-the stream does not hold $1 rows}"; }
total=$(in_range 0 100000000000)
# a task's slice (reverse video) on CPU 1's lane
_cpu1_busy() { tmux_screen -e | grep -a 'cpu1' | grep -q '7m'; }
abs() { printf '%d.%06d' $(($1 / 1000000000)) $(($1 % 1000000000 / 1000)); }
# rel NS: "+S.US" as a regexp
rel() { printf '\\+%d\\.%06d' $(($1 / 1000000000)) $(($1 % 1000000000 / 1000)); }

tmux_start 80 24 KTOP_TEST_TIMELINE_DUMP="$T/dump" -- -i "$T/rec.dat"
expect_text "RECORDING rec.dat" 10 "ktop -i did not open the recording"
tmux_keys V
expect_text "Timeline: .* a column" 5 "V opened no timeline"
wait_until 30 test -s "$T/dump" || fail "the timeline's index never reached the file's end"
$EXPECT "$T/report" "$T/dump" >&2 || fail "the lanes or cells differ from trace-cmd report"
expect_text "Timeline: .* a column +SCROLL" 5 "the timeline still says it is indexing"
expect_text "^cpu0( |$)" 3 "no lane of CPU 0"
expect_text "^cpu1( |$)" 3 "no lane of CPU 1"
expect_text "^sched_sw" 3 "no lane of sched_switch"
expect_text "^lost( |$)" 3 "no lane of loss markers"
expect_text "^cursor $(abs "$t0") \+0\.000000" 3 "the cursor is not at the first record"

# ---- zoom and pan -------------------------------------------------------------------------
wide=$(tmux_screen | sed -n 's/.*Timeline: \([^ ]*\) a column.*/\1/p')
tmux_keys +
wait_for_no_text "Timeline: $wide a column" 3 || fail "+ did not zoom in"
for _ in $(seq 19); do tmux_keys +; done
expect_text "Timeline: [0-9.]+(ns|us) a column" 5 "+ does not zoom down to microseconds"
for _ in $(seq 20); do tmux_keys _; done
expect_text "Timeline: $wide a column" 5 "_ did not zoom back out"
tmux_keys '>'
wait_for_no_text "^cursor .* \+0\.000000" 3 || fail "> did not pan"
tmux_keys g
expect_text "^cursor $(abs "$t0") " 3 "g did not go back to the start"

# ---- CPU 1's switches: jump, mark, the stream follows -------------------------------------
mapfile -t sw1 < <($EXPECT "$T/report" switches 1)
first1=0
for s in "${sw1[@]}"; do [ "$s" -gt "$t0" ] && { first1=$s; break; }; done
[ "$first1" -gt 0 ] || fail "no switch on CPU 1 after the first record"
tmux_keys j
tmux_keys n
expect_text "^cursor $(abs "$first1") " 3 "n on CPU 1's lane is not at its next switch"
i=0
for s in "${sw1[@]}"; do [ "$s" = "$first1" ] && break; i=$((i + 1)); done
fourth=${sw1[$((i + 3))]}
tmux_keys r n n n r
expect_text "range: $(rel $((first1 - t0)))\.\.$(rel $((fourth - t0)))" 5 \
	"the header does not show the range r n n n r marked"
held_is "$(in_range $((first1 - t0)) $((fourth - t0)))" "the stream does not hold the range's records"
expect_text "Events: all CPUs \| in range" 3 "the stream's title does not say it is scoped"
tmux_keys X
wait_for_no_text "range: " 3 || fail "X did not clear the range"
held_is "$total"

tmux_keys @
expect_text "Range \(" 3 "@ opened no range prompt"
tmux_keys C-u
tmux_text "+0.1..+0.2"
tmux_keys Enter
expect_text "range: \+0\.100000\.\.\+0\.200000" 5 "the typed range is not in the header"
held_is "$(in_range 100000000 200000000)" "the stream does not hold the typed range's records"
tmux_keys X
held_is "$total"

# ---- the heat map -------------------------------------------------------------------------
tmux_keys Escape
wait_for_no_text "Timeline: " 3 || fail "Esc did not close the timeline"
tmux_keys %
expect_text "Heat map: all events per [0-9]+ ms" 5 "% opened no heat map"
ms=$(tmux_screen | sed -n 's/.*Heat map: all events per \([0-9]*\) ms.*/\1/p')
cell=$((ms * 1000000))
expect_text "^cell \+0\.000000 \+${ms}ms: $(in_range 0 $((cell - 1)))\b" 5 \
	"the first cell's count is not trace-cmd's"
tmux_keys Enter
held_is "$(in_range 0 $((cell - 1)))" "Enter did not scope the stream to the cell"
tmux_keys j
expect_text "^cell $(rel "$cell") \+${ms}ms: $(in_range "$cell" $((2 * cell - 1)))\b" 5 \
	"the second cell's count is not trace-cmd's"
tmux_keys r j j r
held_is "$(in_range "$cell" $((4 * cell - 1)))" "r j j r did not scope the stream to the run"
tmux_keys X
held_is "$total"
tmux_keys q
tmux_wait_exit 10 || fail "ktop did not exit on q"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
tmux_kill_server

# ---- live ---------------------------------------------------------------------------------
tmux_start 80 24 -- -e syscalls:sys_enter_getppid
expect_text "Events: all CPUs" 10 "the explorer did not start"
kpid=$KTOP_PID
wait_capturing "$kpid" syscalls sys_enter_getppid
tmux_keys V
expect_text "sched:sched_switch enabled in ktop's instance" 5 "V does not say it turned sched_switch on"
event_enabled "$kpid" sched sched_switch || fail "sched_switch is not on in ktop-$kpid"
expect_text "Timeline: 10ms a column +FOLLOW" 5 "the live timeline does not follow"
wait_until 10 _cpu1_busy || fail "no task is drawn on CPU 1's lane"
tmux_keys p
expect_text "Timeline: .*PAUSED" 3 "p did not freeze the timeline"
a=$(tmux_screen | grep '^cursor ')
sleep 1.2
[ "$(tmux_screen | grep '^cursor ')" = "$a" ] || fail "the paused timeline moved"
tmux_keys p
wait_for_no_text "$a" 5 || fail "the resumed timeline does not follow"
tmux_keys @ C-u
tmux_text "+0..+0.5"
tmux_keys Enter
expect_text "range: \+0\.000000\.\.\+0\.500000" 5 "the typed range is not in the header (live)"
expect_text "Events: all CPUs \| in range" 3 "the live stream is not scoped"
tmux_keys X
wait_for_no_text "range: " 3 || fail "X did not clear the range (live)"
tmux_keys q
tmux_wait_exit 10 || fail "ktop did not exit on q"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
instance_gone "$kpid" || fail "instance ktop-$kpid left"
assert_terminal_restored
assert_no_sanitizer_on_screen
pass
