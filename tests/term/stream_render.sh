#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The stream renders sched_switch and sched_wakeup as trace-cmd's plugins do, keeps its time
# and task columns when scrolled sideways, and opens a row's fields on Enter. A live capture
# of sched events (a workload sleeping, so tasks switch out in S) is written with -o, then:
#   - at 200x50, every sched_wakeup row and every sched_switch row whose task left in R, S
#     or D reads exactly as `trace-cmd report` renders the same event (the plugin's letters
#     for the other states are out of date: "W" where the kernel's format says "I"), the
#     row shown counted: at least 30;
#   - at 80x24 the first row shows the switched-in task; two Rights scroll its fields by 16
#     cells, the time, CPU and task columns stay where they were;
#   - Enter lists the row's fields by name as the event's format file declares them, with
#     the pid trace-cmd reports; Esc closes the list.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload
command -v trace-cmd >/dev/null || skip "needs trace-cmd"

"$KTOP_WORKLOAD" sleep 2 400 wlsleep >/dev/null &
CLEANUP_PIDS+=($!)
run_ktop 30 "$T/rec.out" "$T/rec.err" -b -e sched:sched_switch -e sched:sched_wakeup \
	--duration 1 -o "$T/s.dat"
[ "$KTOP_RC" = 0 ] || fail "recording exited $KTOP_RC: $(cat "$T/rec.err")"
trace-cmd report "$T/s.dat" 2>/dev/null |
	sed -nE 's/^.* (sched_switch|sched_wakeup): +(.*)$/\1 \2/p' >"$T/tc.txt"
[ -s "$T/tc.txt" ] || fail "trace-cmd report shows no sched events of the recording"

# ---- 200x50: the rows as trace-cmd renders them ------------------------------------------
tmux_start 200 50 -- -i "$T/s.dat"
expect_text "^0\.000000 \[[0-9]+\] " 10 "the recording's first row does not show"
ROW_RE='^[0-9]+\.[0-9]{6} \[[0-9]+\] .*-[0-9]+ +(sched:)?(sched_switch|sched_wakeup) (.*)$'
tmux_screen | sed -nE "s/$ROW_RE/\\2 \\3/p" | sed 's/ *$//' >"$T/rows.txt"
grep -E '^sched_wakeup |\] (R|S|D) ==> ' "$T/rows.txt" >"$T/cmp.txt"
n=$(wc -l <"$T/cmp.txt")
[ "$n" -ge 30 ] || fail "only $n rows to compare with trace-cmd; the screen: $(tmux_screen)"
while IFS= read -r row; do
	grep -qxF -- "$row" "$T/tc.txt" || fail "no trace-cmd report row reads '$row'"
done <"$T/cmp.txt"
log "$n rows read as trace-cmd report renders them"

# ---- 80x24: the task switched in; the fixed columns ----------------------------------------
full=$(tmux_screen | grep -m1 -E '^0\.000000 ')
tmux_size 80 24
expect_text "^0\.000000 .* ==> [^ ]+:[0-9]+ \[[0-9]+\]$|^0\.000000 .*sched_wakeup [^ ]+:[0-9]+ \[" 5 \
	"at 80 columns the first row does not show the task switched in or woken"
narrow=$(tmux_screen | grep -m1 -E '^0\.000000 ')
fixed=$(printf '%s\n' "$narrow" | sed -nE 's/^([0-9.]+ \[[0-9]+\] [^ ]+-[0-9]+ +).*/\1/p')
[ -n "$fixed" ] || fail "no time, CPU and task columns in '$narrow'"
tmux_keys Right Right
expect_text "col 17 " 5 "two Rights did not scroll 16 cells"
want=$fixed${narrow:${#fixed}+16}
_first_is() { [ "$(tmux_screen | grep -m1 -E '^0\.000000 ' | cut -c1-$((80 - 16)))" = "${want:0:64}" ]; }
wait_until 5 _first_is ||
	fail "scrolled, the first row is '$(tmux_screen | grep -m1 -E '^0\.000000 ')', not '$want'"
tmux_keys Left Left

# ---- Enter: the row's fields ---------------------------------------------------------
ev=$(printf '%s\n' "$full" | sed -nE "s/$ROW_RE/\\2/p")
names=$(sed -nE 's/^\tfield:.* ([a-z_]+)(\[[0-9]+\])?;.*/\1/p' \
	"$TRACEFS/events/sched/$ev/format" | grep -v '^common_')
tmux_keys Home Enter
expect_text "^ sched:$ev at 0\.000000: $(echo "$names" | wc -l) fields \(Esc closes\)" 5 \
	"Enter did not open the first row's fields"
for f in $names; do
	expect_text "^  $f +[^ ]" 3 "the detail does not list the field $f"
done
pid=$(trace-cmd report -N "$T/s.dat" 2>/dev/null | grep -m1 -E ' (sched_switch|sched_wakeup):' |
	sed -nE 's/.* (prev_pid|pid)=([0-9]+).*/\1 \2/p')
expect_text "^  ${pid% *} +${pid#* }$" 3 "the detail's ${pid% *} is not trace-cmd's ${pid#* }"
tmux_keys Escape
wait_for_no_text "fields \(Esc closes\)" 3 || fail "Esc did not close the row's fields"

tmux_quit_clean
assert_clean
pass
