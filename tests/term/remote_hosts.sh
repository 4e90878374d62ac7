#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# The explorer over two made-up agents at once (tests/remote/fake_peer.py events ... SHIFT
# SKEW swept), no kernel, in an 80x24 pane. via1's clock is this machine's, its events come
# 250 ms after via2's once via2's are shifted by its offset (its clock is 3 s ahead); via2's
# kernel numbers the event 444 where via1's (whose formats the explorer decodes with) has
# 443; via2 reports it is behind (1 MiB queued, 1.4 s):
#   - the header names the hosts ("2 hosts") and its third line gives each one's offset
#     with its uncertainty: via1's within microseconds of 0, via2's +3000.0ms, behind
#     1.0 MiB 1.4 s; the second line's lost is both hosts' (2 + 2);
#   - the stream has a host column: via2's four rows (two events, a loss, an event) come
#     first, decoded as via1's sys_enter, then via1's, the times never going backwards,
#     each row's CPU its host's own;
#   - D names every CPU by its host (via1/0 ... via2/1), each with its host's loss, and the
#     all row sums both hosts' losses (2 + 2);
#   - P, the probe editor, is on both hosts; a probe a host refuses is named with it;
#   - w and A, which write one host's trace.dat, are refused in one line that says how to
#     record several (ktop -b -o writes a file a host);
#   - q ends both agents (their stdin closes).
# Then via1 and a via2 that refuses every enable: Space in the picker enables the event on
# via1, the status line names via2 and its reason, and via1's rows come. Five hosts in 80
# columns: the three that fit whole, then "+2 hosts".
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
require_fake_agent

mkdir -p "$T/xdg"
# fake TAG ARGS: a fake agent whose pid is written to $T/TAG.pid
fake() { printf 'echo $$ >%s/%s.pid; exec %s %s' "$T" "$1" "$FAKE" "$2"; }
agent_pids() { cat "$T/a1.pid" "$T/a2.pid" 2>/dev/null; }
_agents_gone() { local p; for p in $(agent_pids); do ! pid_alive "$p" || return 1; done; }

tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- --via "$(fake a1 "0 250000000 swept")" \
	--via "$(fake a2 "3000000000 0 swept renumbered backlog")" -e raw_syscalls:sys_enter
expect_text "^2 hosts  tracer: nop" 15 "the header does not say it shows 2 hosts"
expect_text "^via1 [-+][0-9.]+(ns|us)±[0-9.]+(ns|us)  via2 \+3000\.[0-9]ms±[0-9.]+(ns|us) behind 1\.0 MiB 1\.4 s *$" 5 \
	"the header's third line does not give both hosts' offsets with their uncertainty, and via2 behind"
expect_text "^lost: 4  evicted" 3 "the header's second line is not the hosts' summed loss alone"
expect_text "Events: all CPUs +8 held" 10 "the stream does not hold both hosts' 8 rows"

# The rows: host column, via2's first, times in order.
rows()
{
	tmux_screen | grep -E '^[0-9]+\.[0-9]{6} via[12] ' | cut -c1-80
}
_eight_rows() { [ "$(rows | wc -l)" = 8 ]; }
wait_until 5 _eight_rows || fail "not 8 rows with a host column: $(tmux_screen)"
cat >"$T/want" <<'WANT'
via2 [000] fakework-4242 sys_enter    getppid(1, 2, 3, 4, 5, 6)
via2 [000] other-4343    sys_enter    getpid(1, 2, 3, 4, 5, 6)
via2 *** CPU 1: lost 2 events ***
via2 [001] fakework-4242 sys_enter    getppid(1, 2, 3, 4, 5, 6)
via1 [000] fakework-4242 sys_enter    getppid(1, 2, 3, 4, 5, 6)
via1 [000] other-4343    sys_enter    getpid(1, 2, 3, 4, 5, 6)
via1 *** CPU 1: lost 2 events ***
via1 [001] fakework-4242 sys_enter    getppid(1, 2, 3, 4, 5, 6)
WANT
rows | cut -d' ' -f2- | sed 's/ *$//' | diff -u "$T/want" - || fail "merged differently (above)"
rows | cut -d' ' -f1 | sort -s -g -c || fail "the times go backwards: $(rows | cut -d' ' -f1 | tr '\n' ' ')"
t1=$(rows | awk '$2 == "via1" { print $1; exit }')
t2=$(rows | awk '$2 == "via2" { print $1; exit }')
awk -v a="$t1" -v b="$t2" 'BEGIN { d = a - b; exit !(d > 0.249 && d < 0.251) }' ||
	fail "via1's first row is $t1, via2's $t2: not 250 ms apart once via2's clock is shifted"

# D: each CPU named by its host, with its host's loss.
tmux_keys D
expect_text "Ring buffers per CPU" 5 "D opened no ring-buffer pane"
tmux_keys F9
for row in "via1/0 +2 +0 +0 +0 +2 " "via1/1 +1 +0 +0 +2 +1 " "via2/0 +2 +0 +0 +0 +2 " \
	"via2/1 +1 +0 +0 +2 +1 " "all +6 +0 +0 +4 +6 "; do
	expect_text "^$row" 3 "the zoomed ring-buffer pane has no row /$row/"
done
tmux_keys F9 Escape
wait_for_no_text "Ring buffers per CPU" 3 || fail "Esc did not close the ring-buffer pane"

# Probes on several hosts: the editor says on how many; a host that refuses is named with
# its reason, in one line, and the screen keeps what it had.
tmux_keys P
expect_text " Probes on 2 hosts " 3 "P: the editor does not say it is on 2 hosts"
tmux_keys i
expect_text "^kprobe \[NAME=\]FUNC \[ARGS\]>" 3 "k did not ask for the kprobe"
tmux_text vfs_read
tmux_keys Enter
expect_text "via1: fake agent: no probes here" 5 "the refusal does not name via1 and its reason"
expect_text "no probes yet" 3 "the editor lists a probe that was refused"
tmux_keys Escape Escape Escape
wait_for_no_text " Probes on 2 hosts " 3 || fail "Esc did not close the probe editor"

tmux_keys w
expect_text "remote: w and A record one host \(ktop -b -o: a file a host\)" 3 \
	"w over two hosts: no one-line refusal"
expect_text "Events: all CPUs +8 held" 3 "the refused w lost the stream's rows"

tmux_quit_clean
wait_until 2 _agents_gone || fail "q: the agents $(agent_pids) still run 2 s after"
tmux_kill_server
rm -f "$T/a1.pid" "$T/a2.pid"

# One host refuses: the other keeps the event, the status line names the one that refused.
tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- --via "$(fake a1 "0 0 swept")" \
	--via "$(fake a2 "0 0 swept picky")"
expect_text "^2 hosts " 15 "the explorer did not start on both agents"
tmux_keys e
expect_text "Event picker +[0-9]+ of [0-9]+ enabled" 5 "e did not open the event picker"
tmux_text sys_enter
expect_text "\[ \] +sys_enter" 5 "the picker does not list sys_enter"
tmux_keys Space
expect_text "^raw_syscalls:sys_enter: via2: fake agent: enable refused \(picky\)" 5 \
	"the status line does not name via2 and its reason"
expect_text "\[x\] +sys_enter" 3 "the picker does not show sys_enter on (via1 took it)"
tmux_keys F2
wait_for_no_text "Event picker" 3 || fail "F2 did not close the picker"
expect_text "Events: all CPUs +4 held" 10 "the stream does not hold via1's 4 rows"
expect_count "^[0-9.]+ via1 " 4 3 "not via1's 4 rows"
expect_count "^[0-9.]+ via2 " 0 3 "rows of via2, which refused"
tmux_quit_clean
wait_until 2 _agents_gone || fail "q: the agents $(agent_pids) still run 2 s after"
tmux_kill_server

# Five hosts in 80 columns: as many as fit whole, in order, then how many did not.
hosts=()
for i in 1 2 3 4 5; do hosts+=(--via "$FAKE 0 0"); done
tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- "${hosts[@]}"
expect_text "^5 hosts " 20 "the explorer did not start on five agents"
expect_text "^via1 [^ ]+  via2 [^ ]+  via3 [^ ]+  \+2 hosts *$" 5 \
	"the third line does not show via1-via3 whole and +2 hosts"
tmux_quit_clean
pass
