#!/bin/bash
# The agent's backlog in batch mode, with no kernel: a made-up agent (tests/remote/fake_peer.py
# events ... backlog) says in its loss frame that it is behind by 1 MiB queued plus 4096 and
# 8192 bytes its kernel holds unread, its oldest unsent event 1.4 s old, and in its last one
# by 512 unread bytes, 0.25 s. The viewer's summary must give the largest backlog and the last
# exactly (queue plus every CPU's unread bytes): in the one-remote line, in each host's line
# of several (an agent that reports none shows zeros), and in --json's hosts.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_fake_agent

# --- one remote ------------------------------------------------------------------------------
run_ktop 30 "$T/r.out" "$T/r.err" -b --via "$FAKE backlog" -e raw_syscalls:sys_enter --duration 0.5
[ "$KTOP_RC" = 0 ] || fail "exit $KTOP_RC; stderr: $(cat "$T/r.err")"
[ -s "$T/r.err" ] && fail "stderr: $(cat "$T/r.err")"
line=$(sed -n 5p "$T/r.out")
[[ $line =~ ^#\ ktop:\ agent\ at\ fakehost\ \(kernel\ 6.1.0-fake,\ 2\ CPUs\):\ [0-9]+\ bytes\ received\ in\ [0-9]+\ frames,\ 2\ pages\ \([0-9]+\ bytes\),\ backlog\ max\ 1060864\ bytes\ 1400000000\ ns,\ end\ 512\ bytes\ 250000000\ ns(,|$) ]] ||
	fail "one remote: the agent's line: $line"
log "one remote: $line"

# --- several: the behind one's figures on its line, zeros on the other's ---------------------
run_ktop 30 "$T/m.out" "$T/m.err" -b --via "$FAKE 0 0 backlog" --via "$FAKE 0 0" \
	-e raw_syscalls:sys_enter --duration 1
[ "$KTOP_RC" = 0 ] || fail "several: exit $KTOP_RC; stderr: $(cat "$T/m.err")"
grep -q '^# ktop: host via1 (agent at fakehost, kernel 6.1.0-fake, 2 CPUs): events=3 lost=2 .* late=0 backlog_max=1060864 backlog_max_ns=1400000000 backlog_end=512 backlog_end_ns=250000000, clock offset ' "$T/m.out" ||
	fail "several: via1's line: $(grep 'host via1' "$T/m.out")"
grep -q '^# ktop: host via2 (agent at fakehost, kernel 6.1.0-fake, 2 CPUs): events=3 lost=2 .* late=0 backlog_max=0 backlog_max_ns=0 backlog_end=0 backlog_end_ns=0, clock offset ' "$T/m.out" ||
	fail "several: via2's line: $(grep 'host via2' "$T/m.out")"

# --- --json ----------------------------------------------------------------------------------
run_ktop 30 "$T/j.out" "$T/j.err" -b --json --via "$FAKE backlog" -e raw_syscalls:sys_enter \
	--duration 0.5
[ "$KTOP_RC" = 0 ] || fail "--json: exit $KTOP_RC; stderr: $(cat "$T/j.err")"
python3 - "$T/j.out" <<'PY' || fail "--json: $(tail -n1 "$T/j.out")"
import json, sys
host = json.loads(open(sys.argv[1]).readlines()[-1])["summary"]["hosts"][0]
want = {"backlog_max_bytes": 1060864, "backlog_max_ns": 1400000000, "backlog_end_bytes": 512,
        "backlog_end_ns": 250000000}
assert {k: host[k] for k in want} == want, host
PY
pass
