#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# Wakeup chains in the flame pane (80x24), on a three-thread chain of known shape (profwork
# wakechain: wc-kicker wakes wc-waker from kicker_work, which wakes wc-waiter from
# waker_work, round after round): I, then C, shows the off-CPU profile of the workload (-p);
# y joins each wait to its waker (the title says so): the waker's frames follow a "--"
# separator, and the waiter's waits are under waker_work (a search says their share).
# z shows the pane alone; Down, Left, Left, Right select the waiter; Y shows step 1,
# its wakers by time in the status line (wc-waker first) and as a flame graph of their
# frames; Down (and Right past the idle task) and Y there show step 2, the waker's own wakers (wc-kicker, kicker_work).
# Esc goes back a step, then to the profile, which went on counting (its total grew); y
# again drops the wakers (their BPF program with them: fewer programs held). q quits clean.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../profile-lib.sh
. "$(dirname "$0")/../profile-lib.sh"
require_flame_live

fds_of() { find "/proc/$KTOP_PID/fd" -lname "anon_inode:$1" 2>/dev/null | wc -l; }
matched() { tmux_screen | sed -n 's/.*matched \([0-9]*\)\.[0-9]%.*/\1/p' | head -1; }
# waker_work holds the waiter's waits only: about a fifth of the process's (main sleeps
# throughout, the waker and kicker wait too; 17.8% seen); without wakers it holds none
_matched_some() { local m; m=$(matched); [ -n "$m" ] && [ "$m" -ge 10 ]; }
# the root's total off the CPU as the status line says it, in us
root_us()
{
	tmux_screen | awk '/^all  total / { v = $3; u = $4
		print int(v * (u == "s" ? 1e6 : u == "ms" ? 1e3 : 1)); exit }'
}

"$KTOP_PROFWORK" wakechain 100000 20 3 60 >"$T/wl.out" & # 40 ms of CPU in 100 ms
WL=$!
KTOP_PIDS+=("$WL")
tmux_start 80 24 -- -d 1 -p "$WL"
expect_text "No events enabled" 10 "ktop did not start"
tmux_keys I
expect_text "Flame graph: (cycles|cpu-clock)" 10 "I did not open the flame pane"
tmux_keys C
expect_text "Flame graph: off-CPU, (tp_btf|raw_tp|tracepoint) \\(ns\\)" 10 "C did not show the off-CPU profile"
tmux_keys z # the pane alone
progs=$(fds_of 'bpf-prog')

# ---- y: wakers on ------------------------------------------------------------------------
tmux_keys y
expect_text "Flame graph: off-CPU \\+ wakers, (tp_btf|raw_tp|tracepoint) \\(ns\\)" 10 \
	"y did not join the off-CPU profile to its wakers"
expect_text "^wakers on: " 3 "y said nothing of the wakers in the status line"
[ "$(fds_of 'bpf-prog')" -gt "$progs" ] || fail "wakers on, yet no more BPF programs than without"
tmux_keys /
tmux_text waker_work
tmux_keys Enter
wait_until 15 _matched_some || fail "waker_work holds $(matched)% of the waits, not a tenth at least:
$(tmux_screen)"
tmux_keys Escape # the search off
# the tasks in name order: wc-kicker, wc-waiter, wc-waker
tmux_keys Down Left Left Right
expect_text "^wc-waiter " 5 "Down, Left, Left, Right did not select the waiter"
before=$(root_us)

# ---- Y: step 1, the waiter's wakers; Y again: step 2, the waker's own ----------------------
tmux_keys Y
expect_text "Flame graph: step 1: wakers of wc-waiter \\(ns\\)" 5 "Y did not show the waiter's wakers"
expect_text "^by time: (.*, )?wc-waker [0-9.]+ (s|ms)" 3 "the status line does not list wc-waker by time"
expect_text "waker_work" 3 "step 1 does not show waker_work"
# Down selects the first waker by name; the idle task (swapper/N) wakes the waiter from its
# gap's nanosleep and sorts before wc-waker, so Right steps along the wakers to wc-waker
tmux_keys Down
expect_text "^(swapper/[0-9]+|wc-waker) " 5 "Down did not select a waker in step 1"
for _ in 1 2 3 4; do
	_screen_has "^wc-waker " && break
	tmux_keys Right
	sleep 0.3
done
expect_text "^wc-waker " 5 "Down, then Right, did not select wc-waker in step 1"
tmux_keys Y
expect_text "Flame graph: step 2: wakers of wc-waker \\(ns\\)" 5 "Y did not show the waker's own wakers"
expect_text "^by time: (.*, )?wc-kicker [0-9.]+ (s|ms)" 3 "step 2 does not list wc-kicker by time"
expect_text "kicker_work" 3 "step 2 does not show kicker_work"

# ---- Esc: back along the chain, then the profile, which went on counting ------------------
tmux_keys Escape
expect_text "Flame graph: step 1: wakers of wc-waiter" 5 "Esc did not go back to step 1"
tmux_keys Escape
expect_text "Flame graph: off-CPU \\+ wakers" 5 "Esc did not go back to the profile"
_grew() { local now; now=$(root_us); [ -n "$now" ] && [ "$now" -gt "${before:-0}" ]; }
wait_until 10 _grew || fail "the profile did not go on counting behind the chain: $before us, now $(root_us) us"

# ---- y: wakers off -----------------------------------------------------------------------
tmux_keys y
expect_text "Flame graph: off-CPU, (tp_btf|raw_tp|tracepoint) \\(ns\\)" 10 "y did not drop the wakers"
_fewer() { [ "$(fds_of 'bpf-prog')" -le "$progs" ]; }
wait_until 5 _fewer || fail "the wakers' BPF program stayed after y"
tmux_quit_clean
kill "$WL" && wait "$WL" 2>/dev/null
assert_clean
pass
