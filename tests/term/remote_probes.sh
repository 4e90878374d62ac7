#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The probe editor (P) over a remote agent through a plain pipe (ktop --via 'ktop --agent'),
# in an 80x24 tmux pane, on a private copy of tests/helpers/probe_target (the kernel counts a
# uprobe's hits in every process running the file; no other test runs this copy):
#   - P opens the editor on the agent's probes; u, the binary, ktop_probe_target: the agent
#     makes the uprobe in its group ktop_<agent pid>, the editor lists it enabled;
#   - a turns it off and on in the agent's instance;
#   - after N calls of the copy, the stream holds exactly N hits, decoded with the format
#     the agent sent for the new event, and the editor's live count (request 24, asked on
#     its tick) says hits=N;
#   - the prompts complete from the agent's machine (request 29): a kprobe's function from
#     its kernel, the uprobe's path from its directories, the function from the binary's
#     ELF symbols read there; a function the binary lacks is said while typing, as
#     locally, and nothing is made;
#   - d deletes it from the agent's group, and it can be made again, and made and deleted
#     with the event picker open (whose catalogue each replaces);
#   - after q the agent, its instance and group are gone.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
private_probe_target
N=23 M=7

hit_row='probe_targ[a-z]*-[0-9]+ +ktop_probe_target \([0-9a-f]+\)'
# The stream's last row, just above the probe editor.
newest_row() { tmux_screen | grep -B1 '^ Probes ktop_' | head -1; }
_newest_row_decoded() { newest_row | grep -Eq "$hit_row"; }

remote_editor_start 80 24
# A kprobe's prompt completes the agent's kernel functions (request 29, ksyms).
tmux_keys i
expect_text "^kprobe \[NAME=\]FUNC \[ARGS\]>" 5 "k did not ask for a kprobe's function"
tmux_text do_sys_openat
tmux_keys Tab
expect_text "^kprobe \[NAME=\]FUNC \[ARGS\]> ?do_sys_openat2 *$" 5 \
	"Tab did not complete do_sys_openat2 from the agent's kernel"
tmux_keys Escape
# A uprobe on the agent's file, its path and function completed from the agent's machine,
# enabled as it is made.
tmux_keys u
expect_text "^binary or library:" 5 "u did not ask for the binary"
tmux_keys C-u
tmux_text "${target%_target}_t"
tmux_keys Tab
expect_text "^binary or library: .*probe_target *$" 5 "Tab did not complete the path on the agent's machine"
tmux_keys Enter
expect_text "^uprobe probe_target:" 5 "no function prompt after the binary"
expect_text "new uprobe \([0-9]+ functions\): " 5 "the binary's functions were not read on the agent's machine"
tmux_text 'ktop_probe_t'
tmux_keys Tab
expect_text "^uprobe probe_target: ?ktop_probe_target *$" 5 "Tab did not complete the function from the agent's list"
tmux_keys Enter
expect_text "created and enabled ktop_$agent:ktop_probe_target" 5 "the agent did not make the probe"
expect_text "Probes ktop_$agent" 3 "the editor's title is not the agent's group"
row='\[x\] ktop_probe_target +uprobe '
expect_text "$row" 3 "the editor does not list the agent's uprobe enabled"
[ "$(agent_probes)" = 1 ] || fail "the agent's group holds $(agent_probes) probes, not 1"
event_enabled "$agent" "ktop_$agent" ktop_probe_target ||
	fail "the probe is not enabled in the agent's instance"

# a: off and on again, in the agent's instance.
tmux_keys a
expect_text "disabled ktop_$agent:ktop_probe_target" 3 "a did not disable the probe"
event_enabled "$agent" "ktop_$agent" ktop_probe_target && fail "a left the probe on in the agent"
tmux_keys a
expect_text "enabled ktop_$agent:ktop_probe_target" 3 "a did not enable the probe again"
wait_capturing "$agent" "ktop_$agent" ktop_probe_target 5

# Exactly N hits in the stream.
"$target" "$N" >"$T/target.out" || fail "probe_target failed"
expect_text "Events: all CPUs +$N held" 10 "the stream does not hold exactly the $N hits"
expect_text "$hit_row" 3 "the hits are not decoded as ktop_probe_target"
expect_text "${row} *hits=$N " 5 "the editor's live count is not hits=$N"
log "stream: exactly $N hits of the agent's uprobe"

# A function the binary lacks: said while typing, from the functions the agent read, as
# locally; Enter makes nothing.
editor_uprobe "$target" no_such_fn
expect_text "\\^ no function 'no_such_fn' in /tmp/" 5 "no reason for a missing function"
expect_text "\\(Tab completes its ELF functions\\)" 3 "the reason is not the local editor's"
[ "$(agent_probes)" = 1 ] || fail "the refused definition left $(agent_probes) probes in the agent"
tmux_keys Escape
wait_for_no_text "^uprobe probe_target:" 3 || fail "Esc did not close the prompt"

# d: the agent removes it.
expect_text "$row" 3 "the editor lost the probe"
tmux_keys d
expect_text "deleted ktop_$agent:ktop_probe_target" 5 "d did not delete the probe"
expect_text "no probes yet" 3 "the editor still lists the deleted probe"
[ "$(agent_probes)" = 0 ] || fail "the agent's group still holds $(agent_probes) probes after d"

# Made again: the agent's kernel gives the event a new id, whose format the agent sends.
editor_uprobe "$target" ktop_probe_target
expect_text "created and enabled ktop_$agent:ktop_probe_target" 5 "the probe was not made again"
"$target" "$M" >"$T/target.out" || fail "probe_target failed"
expect_text "Events: all CPUs +$((N + M)) held" 10 "the stream does not hold the $M hits of the probe made again"
wait_until 3 _newest_row_decoded || fail "the newest hit is not decoded as ktop_probe_target: $(newest_row)"
tmux_keys d
expect_text "deleted ktop_$agent:ktop_probe_target" 5 "d did not delete the probe made again"

# The picker open beside the editor: each probe made or deleted replaces the catalogue it
# lists (the picker once freed its rows by the old one's size, after it was gone).
tmux_keys Escape
wait_for_no_text "^ Probes ktop_" 3 || fail "Esc did not close the probe editor"
tmux_keys e
expect_text "Event picker" 5 "e did not open the event picker"
tmux_keys Tab # the stream has the keys again
tmux_keys P
expect_text "^ Probes " 5 "P did not open the probe editor beside the picker"
editor_uprobe "$target" ktop_probe_target
expect_text "created and enabled ktop_$agent:ktop_probe_target" 5 "no probe made with the picker open"
tmux_keys d
expect_text "deleted ktop_$agent:ktop_probe_target" 5 "no probe deleted with the picker open"

tmux_quit_clean
wait_until 2 all_gone "$agent" ||
	fail "q: 2 s after the viewer quit: agent alive=$(pid_alive "$agent" && echo yes || echo no), instance=$(instance_exists "$agent" && echo yes || echo no)"
assert_clean
pass
