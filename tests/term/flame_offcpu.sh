#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# The flame graph pane's off-CPU profile, one key away (80x24): I on a live session scoped
# to a workload sleeping in nanosleep (-p) starts the on-CPU profile; C switches the pane to
# the off-CPU one (BPF on sched_switch): the title names it and its unit (ns), the status
# line gives times in s, ms or us, and the workload's waits are under hrtimer_nanosleep and
# do_nanosleep (a search for do_nanosleep matches most of the graph). C again goes back to
# the on-CPU profile (no rows with stacks here: the event stacks are skipped) and the BPF
# programs are gone with the switch; Esc closes the pane: no BPF program nor sampling fd
# left in ktop. q quits clean. Without CAP_BPF, C says so in one status line naming it and
# the on-CPU graph stays; so it does with two -p processes, which the BPF programs cannot
# both follow (the same refusal as ktop -b --off-cpu's).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload

fds_of() { find "/proc/$KTOP_PID/fd" -lname "anon_inode:$1" 2>/dev/null | wc -l; }
_no_prog() { [ "$(fds_of 'bpf-prog')" -eq 0 ]; }
matched() { tmux_screen | sed -n 's/.*matched \([0-9]*\)\.[0-9]%.*/\1/p' | head -1; }
_matched_most() { local m; m=$(matched); [ -n "$m" ] && [ "$m" -ge 80 ]; }

"$KTOP_WORKLOAD" sleep 50 2400 flameoff >/dev/null &
WL=$!
KTOP_PIDS+=("$WL")
tmux_start 80 24 -- -d 1 -p "$WL"
expect_text "No events enabled" 10 "ktop did not start"
[ "$(fds_of 'bpf-prog')" -eq 0 ] || fail "ktop holds BPF programs before the off-CPU profile"
before=$(fds_of '*perf_event*')
tmux_keys I
expect_text "Flame graph: (cycles|cpu-clock)(:u)? \\(samples\\)" 10 "I did not start the on-CPU profile"
sampling=$(fds_of '*perf_event*')
[ "$sampling" -gt "$before" ] || fail "the on-CPU pane holds no sampling fds"

# ---- C: off-CPU --------------------------------------------------------------------------
tmux_keys C
expect_text "Flame graph: off-CPU, (tp_btf|raw_tp|tracepoint) \\(ns\\)" 10 \
	"C did not switch the pane to the off-CPU profile"
[ "$(fds_of 'bpf-prog')" -gt 0 ] || fail "the off-CPU pane holds no BPF program"
# the tracepoint variant attaches through one perf event; sampling holds one per CPU
[ "$(fds_of '*perf_event*')" -lt "$sampling" ] || fail "the on-CPU profile's fds stayed open after C"
expect_text "^all  total [0-9]+\\.[0-9]{3} (s|ms|us) 100\\.0%" 10 \
	"the status line does not give the off-CPU time in s, ms or us"
tmux_keys z # the pane alone: the whole nanosleep path in its rows
expect_text "hrtimer_nanosleep" 10 "the nanosleep path is not in the off-CPU graph"
expect_text "do_nanosleep" 5 "do_nanosleep is not in the off-CPU graph"
tmux_keys /
tmux_text do_nanosleep
tmux_keys Enter
wait_until 10 _matched_most || fail "do_nanosleep holds $(matched)% of the off-CPU graph, not most:
$(tmux_screen)"

# ---- C: back on the CPU ------------------------------------------------------------------
tmux_keys C
expect_text "Flame graph: (cycles|cpu-clock)(:u)? \\(samples\\)" 10 "C did not switch back to the on-CPU profile"
wait_until 5 _no_prog || fail "the off-CPU programs stayed after C: $(fds_of 'bpf-prog')"
tmux_keys Escape Escape # the search, the pane
wait_for_no_text "Flame graph:" 3 || fail "Esc did not close the pane"
[ "$(fds_of '*perf_event*')" -le "$before" ] || fail "the profile's fds stayed open after the pane closed"

# ---- closed while off-CPU: no program left -----------------------------------------------
tmux_keys I
expect_text "Flame graph: (cycles|cpu-clock)" 10 "I did not open the pane again"
tmux_keys C
expect_text "Flame graph: off-CPU" 10 "C did not switch to off-CPU again"
tmux_keys Escape
wait_for_no_text "Flame graph:" 3 || fail "Esc did not close the off-CPU pane"
wait_until 5 _no_prog || fail "BPF programs stayed after the off-CPU pane closed: $(fds_of 'bpf-prog')"
tmux_quit_clean
tmux_kill_server

# ---- refused: root without CAP_BPF (nor CAP_SYS_ADMIN) -----------------------------------
command -v capsh >/dev/null 2>&1 || fail "needs capsh (./dev installs libcap2-bin)"
cat >"$T/ktop-nobpf" <<EOT
#!/bin/bash
exec capsh --drop=cap_sys_admin,cap_bpf -- -c 'exec "\$0" "\$@"' '$KTOP' "\$@"
EOT
chmod +x "$T/ktop-nobpf"
KTOP=$T/ktop-nobpf tmux_start 80 24 -- -d 1 -p "$WL"
expect_text "No events enabled" 10 "ktop without CAP_BPF did not start"
tmux_keys I
expect_text "Flame graph: (cycles|cpu-clock)(:u)? \\(samples\\)" 10 "I did not start the on-CPU profile"
tmux_keys C
expect_text "^off-CPU profile: .*CAP_BPF" 5 "no one-line refusal naming CAP_BPF"
expect_text "Flame graph: (cycles|cpu-clock)(:u)? \\(samples\\)" 2 "the on-CPU graph did not stay"
[ "$(fds_of 'bpf-prog')" -eq 0 ] || fail "refused, yet ktop holds BPF programs"
tmux_quit_clean
tmux_kill_server

# ---- refused: two processes --------------------------------------------------------------
tmux_start 80 24 -- -d 1 -p "$WL,$$"
expect_text "No events enabled" 10 "ktop -p $WL,$$ did not start"
tmux_keys I
expect_text "Flame graph: (cycles|cpu-clock)(:u)? \\(samples\\)" 10 "I did not start the on-CPU profile"
tmux_keys C
expect_text "^off-CPU profile: it scopes to one process, and -p gave 2: start ktop with one" 5 \
	"two -p processes were not refused in one line"
expect_text "Flame graph: (cycles|cpu-clock)(:u)? \\(samples\\)" 2 "the on-CPU graph did not stay"
[ "$(fds_of 'bpf-prog')" -eq 0 ] || fail "refused, yet ktop holds BPF programs"
tmux_quit_clean
kill "$WL" && wait "$WL" 2>/dev/null
assert_clean
pass
