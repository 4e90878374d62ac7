#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# USDT probes from the probe editor (P, s) over a remote agent (--via 'ktop --agent', a plain
# pipe), 120x40, against tests/helpers/usdt_target and its library:
#   - s asks for the binary; its notes are read by the agent on its machine (probe-add kind
#     "usdt"), which makes one uprobe a site, the semaphore as its reference counter, as
#     local --usdt does; the editor lists each site enabled: hit, then the library's twice
#     as its two sites twice and twice_2;
#   - after the target's N guarded hits (its semaphore counted up by the agent's probe), the
#     editor's live counts (request 24 on its tick) are exactly hits=N for hit and hits=1
#     for each site of twice, and the stream holds the N + 2 rows, hit's with the int the
#     target passed;
#   - a probe the binary lacks: one line, nothing made;
#   - by pid: the running target's notes, read by the agent, complete PATH:PROVIDER:PROBE,
#     and the probe the agent makes counts up the process's semaphore;
#   - d deletes the sites; after q the agent, its instance and group are gone.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_usdt_target
N=7

remote_editor_start 120 40

editor_usdt "$TGT" 'ktop_test:hit arg3:string'
expect_text "created and enabled ktop_$agent:hit" 10 "the agent did not make the USDT probe"
grep -Eq "^p:ktop_$agent/hit $TGT:0x[0-9a-f]+\(0x[0-9a-f]+\) arg1=[^ ]+:s32 arg2=[^ ]+:s64 arg3=\+0\([^ ]+\):string\$" \
	"$TRACEFS/uprobe_events" || fail "uprobe_events: $(grep "ktop_$agent/" "$TRACEFS/uprobe_events")"
expect_text '\[x\] hit +uprobe +hits=0 ' 5 "the editor does not list the site enabled with hits=0"

editor_usdt "$LIB" 'ktop_test:twice'
expect_text "created and enabled ktop_$agent:twice" 10 "the agent did not make the library's probe"
expect_text '\[x\] twice +uprobe +hits=0 ' 5 "the editor does not list the site twice"
expect_text '\[x\] twice_2 +uprobe +hits=0 ' 3 "the editor does not list the site twice_2"
[ "$(agent_probes)" = 3 ] || fail "the agent's group holds $(agent_probes) probes, not 3"
for ev in hit twice twice_2; do
	wait_capturing "$agent" "ktop_$agent" "$ev" 5
done

usdt_run_counted "$N" 1
expect_text "Events: all CPUs +$((N + 2)) held" 10 "the stream does not hold the $((N + 2)) hits"
expect_count 'usdt_targ[a-z]*-[0-9]+ +hit +\([0-9a-f]+\) arg1=-?[0-9]+' "$N" 3 "not $N hits decoded with their arguments"
expect_text "usdt_targ[a-z]*-[0-9]+ +hit +\([0-9a-f]+\) arg1=$((7 * (N - 1) - 3))" 3 "the last hit's argument is not the target's"
log "editor over the agent: hits=$N of hit, 1 of each site of twice, live"

# A probe the binary lacks: the agent's reason, nothing made.
editor_usdt "$TGT" 'ktop_test:nosuch'
expect_text "no USDT probe 'ktop_test:nosuch' in /" 10 "no agent's reason for a missing USDT probe"
[ "$(agent_probes)" = 3 ] || fail "the refused probe left $(agent_probes) probes in the agent"
tmux_keys Escape
wait_for_no_text "^usdt usdt_target:" 3 || fail "Esc did not close the prompt"

# d: each site goes from the agent's group (the last made is selected, then the one above).
for ev in twice_2 twice hit; do
	tmux_keys d
	expect_text "deleted ktop_$agent:$ev" 30 "d did not delete $ev"
done
expect_text "no probes yet" 3 "the editor still lists probes"
[ "$(agent_probes)" = 0 ] || fail "the agent's group still holds $(agent_probes) probes after d"

# By pid: the running target's notes read by the agent (its library's too), as
# PATH:PROVIDER:PROBE, completed here; the probe made by the agent hits the process.
editor_usdt_pid "$TGT" "USDT in the agent's binary, library or pid:" "ktop_$agent"
tmux_keys d
expect_text "deleted ktop_$agent:hit" 30 "d did not delete the probe made by pid"

tmux_quit_clean
wait_until 2 all_gone "$agent" ||
	fail "q: 2 s after the viewer quit: agent alive=$(pid_alive "$agent" && echo yes || echo no)"
assert_clean
pass
