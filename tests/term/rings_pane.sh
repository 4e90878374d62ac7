#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# The ring-buffer pane (D), exact about what was lost. A workload makes N getppid() calls
# captured with --filter on its pid, so nothing else enters ktop's instance; then, zoomed:
#   - every CPU's row shows that CPU's per_cpu/cpuN/stats of ktop's instance figure for
#     figure (entries, overrun, commit overrun, dropped, read, bytes), and the all row sums
#     them;
#   - ktop's reader's events add up to N over the CPUs and equal the kernel's read events
#     CPU by CPU; nothing lost, so the oldest-event column is "-" (an empty buffer);
#   - Esc closes the pane;
#   - on a recording (-i), D is refused in one line that says why.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload
MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
[ -x "$MK" ] || skip "no $MK (make check builds it)"

N=20000
rm -f "$T/go"
WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" count "$N" ktop-rings >"$T/wl" &
wl=$!
CLEANUP_PIDS+=("$wl")
wait_until 5 has_line "$T/wl" || fail "workload printed no pid"

mkdir -p "$T/xdg"
tmux_start 150 30 "XDG_CONFIG_HOME=$T/xdg" -- -d 5 -e syscalls:sys_enter_getppid \
	--filter "common_pid == $wl"
kpid=$KTOP_PID
wait_capturing "$kpid" syscalls sys_enter_getppid
touch "$T/go"
wait_pid_exit "$wl" 60 || fail "workload count $N did not finish within 60s"

tmux_keys D
expect_text "Ring buffers per CPU" 5 "D opened no ring-buffer pane"
tmux_keys F9
expect_text "^cpu0 " 3 "the zoomed pane shows no cpu0 row"

# "cpuN entries overrun commit dropped read bytes", from the kernel's files and the pane.
kernel_rows()
{
	local d
	for d in "$(instance_dir "$kpid")"/per_cpu/cpu*; do
		awk -v cpu="${d##*/}" '
			/^entries:/ { e = $2 } /^overrun:/ { o = $2 } /^commit overrun:/ { c = $3 }
			/^bytes:/ { b = $2 } /^dropped events:/ { d = $3 } /^read events:/ { r = $3 }
			END { print cpu, e, o, c, d, r, b }' "$d/stats"
	done | sort -V
}
pane_rows() { tmux_screen | awk '$1 ~ /^cpu[0-9]+$/ { print $1, $2, $3, $4, $5, $6, $7 }'; }
_rows_match() { [ "$(pane_rows)" = "$(kernel_rows)" ]; }
# The kernel's figures stand still once the workload is gone; the pane shows them after a tick.
wait_until 5 _rows_match ||
	fail "the pane's rows are not the kernel's stats; pane:
$(pane_rows)
kernel:
$(kernel_rows)"

# The reader's events: N over the CPUs, and each CPU's the kernel's read events.
tmux_screen | awk -v n="$N" '
	$1 ~ /^cpu[0-9]+$/ {
		if ($6 != $10) { print $1 ": kernel read " $6 ", ktop read " $10; bad = 1 }
		if ($8 != "-") { print $1 ": oldest " $8 " with an empty buffer"; bad = 1 }
		sum += $10; kr += $6
	}
	$1 == "all" { all = $0; allread = $6; allktop = $9 }
	END {
		if (sum != n) { print "ktop read " sum " events, the workload made " n; bad = 1 }
		if (allread != kr || allktop != sum) { print "the all row does not sum: " all; bad = 1 }
		exit bad
	}' >"$T/check" || fail "$(cat "$T/check")"
expect_text "lost 0" 1 "the title does not say lost 0"

tmux_keys Escape
wait_for_no_text "Ring buffers per CPU" 3 || fail "Esc did not close the ring-buffer pane"
tmux_quit_clean
tmux_kill_server

# ---- a recording: refused in one line --------------------------------------------------------
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/small.dat" 1000 1 ||
	fail "mkrecording failed"
tmux_start 120 30 "XDG_CONFIG_HOME=$T/xdg" -- -i "$T/small.dat"
expect_text "RECORDING small.dat" 10 "no RECORDING header"
tmux_keys D
expect_text "ring buffers belong to a live capture: a recording holds only the events read" 3 \
	"D on a recording: no one-line refusal"
_screen_lacks "Ring buffers per CPU" || fail "D opened the pane on a recording"
tmux_quit_clean
pass
