#!/bin/bash
# The agent opens only regular files for the names a viewer sends (issue 36, item 5): a
# --uprobe or --usdt on a FIFO must not hang the agent, and one on a device must not open it
# (an open may act: a watchdog arms). Each is refused at once in one line, the agent's probe
# group and instance gone after. The FIFO has a writer waiting: had the agent opened it, the
# writer would have returned.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs

mkfifo "$T/fifo"
# opened only if the agent opens the FIFO for reading
(echo x >"$T/fifo" && touch "$T/fifo.opened") &
CLEANUP_PIDS+=("$!")

# refused OPTION DEF PATH: the agent refuses DEF within 20 s in one line naming PATH.
refused()
{
	run_ktop 20 "$T/r.out" "$T/r.err" -b --via "echo \$\$ >$T/agent.pid; exec $KTOP --agent" \
		"$1" "$2" --duration 0.5
	[ "$KTOP_RC" = 1 ] || fail "$1 $2: exit $KTOP_RC, not 1: $(head -c 600 "$T/r.err")"
	assert_no_sanitizer "$T/r.err"
	[ "$(wc -l <"$T/r.err")" = 1 ] && grep -qF "$3 is not a regular file" "$T/r.err" ||
		fail "$1 $2: not the one line naming $3: $(head -c 600 "$T/r.err")"
	wait_until 5 _pid_gone "$(cat "$T/agent.pid")" || fail "$1 $2: the agent outlived the viewer"
	log "$1: $(cat "$T/r.err")"
}

refused --uprobe "$T/fifo:main" "$T/fifo"
refused --usdt "$T/fifo:prov:probe" "$T/fifo"
refused --uprobe /dev/null:main /dev/null
[ -e "$T/fifo.opened" ] && fail "the agent opened the FIFO"
instance_exists "$(cat "$T/agent.pid")" && fail "the agent's instance is left"
pass
