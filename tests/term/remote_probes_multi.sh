#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; the whole screen
# The probe editor (P) over two real agents (--via 'ktop --agent' twice), 140x50. via2 runs
# in a mount namespace of its own where a tmpfs hides $T/only: a binary there is one only
# via1 can see. On a private copy of tests/helpers/probe_target (the kernel counts a
# uprobe's hits in every process running the file; no other test runs this copy):
#   - a uprobe made once in the editor is made by both agents, each in its own group
#     (ktop_<agent pid> in each agent's dynamic events), enabled in both instances; the
#     title names each host's group;
#   - a turns it off and on in both instances;
#   - after N calls of the copy, both hosts' hits arrive exactly: N rows of via1 and N of
#     via2 in the stream, and the editor's live counts say hits=2N, N per host;
#   - a uprobe on the binary only via1 sees: via2's refusal named in one line, and via1,
#     which made it, deletes it again: neither agent holds it;
#   - d deletes it on both;
#   - s makes USDT probes on both (tests/helpers/usdt_target's hit, its library's twice as
#     two sites): the guarded probe runs (one uprobe per site in the kernel: semaphore 1),
#     the live counts
#     are 2N for hit and 2 for each site of twice, once per host;
#   - after q both agents, their instances and groups are gone.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
command -v unshare >/dev/null 2>&1 || skip "needs unshare (util-linux)"
unshare -m true 2>/dev/null || skip "cannot make a mount namespace here"
private_probe_target
require_usdt_target
mkdir -p "$T/only"
cp "$target" "$T/only/probe_target" || fail "cannot copy the probe target to $T/only"
N=6

dynevents() { grep -c "^[pr]:ktop_$1/$2 " "$(_dynevents_file)"; }
_logged() { grep -q -- "$2" "$1" 2>/dev/null; }
_agents_gone() { all_gone "$a1" && all_gone "$a2"; }

tmux_start 140 50 -- --via "echo \$\$ >$T/a1; exec $KTOP --agent -v --log $T/a1.klog" \
	--via "echo \$\$ >$T/a2; exec unshare -m --propagation private sh -c 'mount -t tmpfs none $T/only && exec $KTOP --agent'" \
	-d 1
wait_until 15 test -s "$T/a1" || fail "via1's agent did not start"
wait_until 15 test -s "$T/a2" || fail "via2's agent did not start: $(tmux_screen | grep -v "^$" | head -5)"
a1=$(cat "$T/a1") a2=$(cat "$T/a2")
KTOP_PIDS+=("$a1" "$a2")
wait_until 15 instance_exists "$a1" || fail "no instance ktop-$a1"
wait_until 15 instance_exists "$a2" || fail "no instance ktop-$a2"
expect_text "^2 hosts " 15 "the explorer did not start on both agents"

tmux_keys P
expect_text " Probes on 2 hosts " 5 "P: the editor does not say it is on 2 hosts"
editor_uprobe "$target" ktop_probe_target
expect_text "created and enabled ktop_$a1:ktop_probe_target" 10 "the agents did not make the probe"
for a in "$a1" "$a2"; do
	[ "$(dynevents "$a" ktop_probe_target)" = 1 ] ||
		fail "ktop_$a holds no ktop_probe_target: $(grep "ktop_$a/" "$(_dynevents_file)")"
	event_enabled "$a" "ktop_$a" ktop_probe_target || fail "not enabled in ktop-$a"
done
expect_text " Probes via1 ktop_$a1 via2 ktop_$a2 " 3 "the title does not name each host's group"
row='\[x\] ktop_probe_target +uprobe '
expect_text "$row" 3 "the editor does not list the probe enabled"

# a: off and on, in both instances.
tmux_keys a
expect_text "disabled ktop_$a1:ktop_probe_target" 5 "a did not disable the probe"
for a in "$a1" "$a2"; do
	event_enabled "$a" "ktop_$a" ktop_probe_target && fail "a left the probe on in ktop-$a"
done
tmux_keys a
expect_text "enabled ktop_$a1:ktop_probe_target" 5 "a did not enable the probe again"
for a in "$a1" "$a2"; do
	wait_capturing "$a" "ktop_$a" ktop_probe_target 5
done

# N calls: N hits from each host, counted live in the editor, N rows of each in the stream.
"$target" "$N" >"$T/target.out" || fail "probe_target failed"
expect_text "${row} *hits=$((2 * N)) " 10 "the editor's count is not both hosts' $((2 * N))"
expect_text "│ hits via1 $N, via2 $N *$" 5 "the editor's bottom line does not give $N hits per host"
expect_text "Events: all CPUs +$((2 * N)) held" 10 "the stream does not hold both hosts' $((2 * N)) hits"
tmux_keys Escape
wait_for_no_text " Probes via1" 3 || fail "Esc did not close the probe editor"
for h in via1 via2; do
	expect_count "^[0-9.]+ $h .*ktop_probe_target" "$N" 5 "not $N rows of $h's hits"
done
log "one uprobe on two agents: $N hits from each, counted $((2 * N)) live"

# A binary only via1 sees: via2 refuses, via1 deletes what it made, neither keeps it.
tmux_keys P
expect_text " Probes via1 ktop_$a1 via2 ktop_$a2 " 5 "P did not reopen the probe editor"
editor_uprobe "$T/only/probe_target" only=ktop_probe_target
expect_text "via2: no such file: /" 10 "the refusal does not name via2 with its reason"
log "via2's refusal: $(tmux_screen | grep -o 'via2: no such file[^│]*' | head -1)"
wait_until 5 _logged "$T/a1.klog" "agent_request: probe-add uprobe: ktop_$a1:only" ||
	fail "via1 did not make the probe first: $(grep agent_request "$T/a1.klog" | tail -3)"
wait_until 5 _logged "$T/a1.klog" "agent_request: probe-delete ktop_$a1:only: " ||
	fail "via1 did not delete the probe via2 refused: $(grep agent_request "$T/a1.klog" | tail -3)"
for a in "$a1" "$a2"; do
	[ "$(dynevents "$a" only)" = 0 ] || fail "ktop_$a keeps the probe via2 refused"
done
tmux_keys Escape
wait_for_no_text "^uprobe probe_target:" 3 || fail "Esc did not close the prompt"
expect_text "$row" 3 "the editor lost the first probe"

# d: gone from both.
tmux_keys d
expect_text "deleted ktop_$a1:ktop_probe_target" 5 "d did not delete the probe"
expect_text "no probes yet" 3 "the editor still lists the deleted probe"
for a in "$a1" "$a2"; do
	[ "$(dynevents "$a" ktop_probe_target)" = 0 ] || fail "ktop_$a keeps the deleted probe"
done

# USDT on both: each agent reads the notes and makes the sites with the semaphore (the
# kernel shares one uprobe per file and offset, so it is 1 with both hosts' probes); the
# library's twice is two sites on each host.
editor_usdt "$TGT" ktop_test:hit
expect_text "created and enabled ktop_$a1:hit" 10 "the agents did not make ktop_test:hit"
editor_usdt "$LIB" ktop_test:twice
expect_text "created and enabled ktop_$a1:twice" 10 "the agents did not make ktop_test:twice"
for a in "$a1" "$a2"; do
	for ev in hit twice twice_2; do
		[ "$(dynevents "$a" $ev)" = 1 ] || fail "ktop_$a holds no $ev"
		wait_capturing "$a" "ktop_$a" "$ev" 5
	done
done
usdt_run_counted "$N" 2
expect_text "│ hits via1 1, via2 1 *$" 3 "the selected site twice_2 is not counted once per host"
log "USDT on both agents: guarded, hit $N per host, each site of twice once per host"
for ev in twice_2 twice hit; do
	tmux_keys d
	expect_text "deleted ktop_$a1:$ev" 5 "d did not delete $ev"
done
for a in "$a1" "$a2"; do
	[ "$(grep -c "^p:ktop_$a/" "$(_dynevents_file)")" = 0 ] || fail "ktop_$a keeps USDT sites"
done

tmux_quit_clean
wait_until 2 _agents_gone || fail "q: 2 s after the viewer quit, an agent or its instance remains"
assert_clean
pass
