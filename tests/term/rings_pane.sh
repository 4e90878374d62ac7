#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# The ring-buffer pane (D), exact about what was lost. A workload makes N getppid() calls
# captured with --filter on its pid, so nothing else enters ktop's instance; then, zoomed,
# with the default buffers (nothing lost) and with --buffer-kb 4 (events lost):
#   - every CPU's row shows that CPU's per_cpu/cpuN/stats of ktop's instance figure for
#     figure (entries, overrun, commit overrun, dropped, read, bytes), and the all row sums
#     them; the title's lost is their losses;
#   - what ktop's reader took equals the kernel's read events CPU by CPU, and with what the
#     kernel lost makes N exactly; the drained buffers have no oldest event ("-");
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

# check N [KTOP ARGS...]: N getppid() calls captured; D, zoomed; the rows against the
# kernel's files, and what they add up to. Sets lost (the kernel's, over the CPUs).
check()
{
	local n=$1
	shift
	workload_start rings count "$n" ktop-rings
	tmux_start 150 30 "XDG_CONFIG_HOME=$T/xdg" -- -d 5 "$@" -e syscalls:sys_enter_getppid \
		--filter "common_pid == $WL_PID"
	kpid=$KTOP_PID
	wait_capturing "$kpid" syscalls sys_enter_getppid
	workload_go rings 60

	tmux_keys D
	expect_text "Ring buffers per CPU" 5 "D opened no ring-buffer pane"
	tmux_keys F9
	expect_text "^cpu0 " 3 "the zoomed pane shows no cpu0 row"
	# The kernel's figures stand still once the workload is gone; the pane shows them
	# after a tick.
	wait_until 5 _rows_match ||
		fail "the pane's rows are not the kernel's stats; pane:
$(pane_rows)
kernel:
$(kernel_rows)"
	# Every event the workload made was read or lost, and the reader's are the kernel's
	# read events CPU by CPU; the all row sums the CPUs; an empty buffer has no oldest.
	tmux_screen | awk -v n="$n" '
		$1 ~ /^cpu[0-9]+$/ {
			if ($6 != $10) { print $1 ": kernel read " $6 ", ktop read " $10; bad = 1 }
			if ($8 != "-") { print $1 ": oldest " $8 " with an empty buffer"; bad = 1 }
			sum += $10; kr += $6; lost += $3 + $4 + $5
		}
		$1 == "all" { all = $0; allread = $6; allktop = $9 }
		END {
			if (sum + lost != n) {
				print "ktop read " sum " and the kernel lost " lost ", the workload made " n
				bad = 1
			}
			if (allread != kr || allktop != sum) { print "the all row does not sum: " all; bad = 1 }
			print lost > "/dev/stderr"
			exit bad
		}' >"$T/check" 2>"$T/lost" || fail "$(cat "$T/check")"
	lost=$(cat "$T/lost")
	log "$n events, $*: the kernel lost $lost; pane rows: $(pane_rows | tr '\n' ';')"
	expect_text "Ring buffers per CPU.* lost $lost *\$" 1 "the title does not say lost $lost"
	tmux_keys Escape
	wait_for_no_text "Ring buffers per CPU" 3 || fail "Esc did not close the ring-buffer pane"
	tmux_quit_clean
	tmux_kill_server
}

mkdir -p "$T/xdg"
check 20000
[ "$lost" = 0 ] || fail "20000 events into the default buffers: the kernel lost $lost"
# The smallest buffers under a flat-out workload lose events (tests/live/loss_overload.sh):
# each one counted, on its CPU.
check 200000 --buffer-kb 4
[ "$lost" -gt 0 ] || fail "no loss with --buffer-kb 4 under a flat-out workload"

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
