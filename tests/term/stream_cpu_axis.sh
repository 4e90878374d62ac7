#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The stream's per-CPU view (c) at 80x24 has one time axis, as KernelShark's list: each
# screen row is one event, in its CPU's column, in the order and with the times and CPUs
# trace-cmd report gives for the same recording; the title says so; opening and Home
# fill the screen from the first event (CPU 0's included); a CPU 0 row's fields (the
# task switched in) stay visible at 80 columns.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
command -v trace-cmd >/dev/null || skip "no trace-cmd"
MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
[ -x "$MK" ] || skip "no $MK (make check builds it)"

ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/two.dat" 400 2 >/dev/null ||
	fail "mkrecording failed"
# trace-cmd's first 18 events: "CPU TIME" with the time from the first event, as ktop's.
trace-cmd report "$T/two.dat" 2>/dev/null |
	awk 'match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+:/) {
		f = substr($0, RSTART, RLENGTH); gsub(/[\[\]:]/, " ", f); split(f, a, " ")
		if (!n++) t0 = a[2]
		printf "%d %.6f\n", a[1], a[2] - t0
		if (n == 18) exit }' >"$T/want"
[ "$(wc -l <"$T/want")" = 18 ] || fail "trace-cmd report gave no 18 events"

# What the screen's rows hold: per row, "CPU TIME" by the column the time starts in, and
# how many times the row holds.
rows() {
	tmux_screen | awk -v half="$1" 'f && /[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]/ {
		line = $0; n = 0; cpu = -1
		while (match(line, /[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]/)) {
			if (!n) { x = off + RSTART - 1; cpu = x >= half ? 1 : 0; t = substr(line, RSTART, RLENGTH) }
			n++; off += RSTART + RLENGTH - 1; line = substr(line, RSTART + RLENGTH)
		}
		off = 0
		printf "%d %s%s\n", cpu, t, (n > 1 ? " (" n " times in one row)" : "")
		if (++k == 18) exit }
		/^CPU 0 .*CPU 1/ { f = 1 }'
}
_rows_match() { rows 40 >"$T/got"; cmp -s "$T/want" "$T/got"; }

tmux_start 80 24 -- -i "$T/two.dat"
expect_text "RECORDING two.dat" 10 "the recording did not open"
tmux_keys c
expect_text "Events: per CPU 0-1 of 2, one time axis" 5 "c: the title does not say one time axis"
wait_until 5 _rows_match ||
	fail "the per-CPU rows are not trace-cmd's first events on one axis: $(diff "$T/want" "$T/got" | head -6 | tr '\n' ' ')"
expect_text "^0\.000000 task1000-1000 .*==> task1001" 3 "CPU 0's first row does not show the task switched in at 80 columns"
tmux_keys End
expect_text "END" 5 "End did not go to the end"
tmux_keys Home
wait_until 5 _rows_match || fail "Home did not fill the screen from the first event on one axis"
tmux_quit_clean
pass
