#!/bin/bash
# Several remotes merged, with no kernel: two made-up agents (tests/remote/fake_peer.py
# events ... SHIFT SKEW) whose clocks differ by 3 s. via1's clock is this machine's and its
# events come 250 ms after via2's once via2's are shifted by its offset; by the agents' own
# clocks via2's come 2.75 s later. The viewer must print via2's events first (it measured
# via2's offset to within the uncertainty it states), each line with its host, non-decreasing
# in shifted time, a summary line per host and the totals; with --json the same with "host"
# and "host_ts"; and an agent that dies during the capture is named on stderr, its events
# still merged, the other's stream complete, the exit status 1.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_fake_agent
SHIFT=3000000000

run_ktop 30 "$T/m.out" "$T/m.err" -b --via "$FAKE 0 250000000" --via "$FAKE $SHIFT 0" \
	-e raw_syscalls:sys_enter --duration 1.5
[ "$KTOP_RC" = 0 ] || fail "exit $KTOP_RC; stderr: $(cat "$T/m.err")"
[ -s "$T/m.err" ] && fail "stderr: $(cat "$T/m.err")"
# the events, their hosts in merged order, without the times (shifted by measured offsets)
cat >"$T/want" <<'WANT'
via2 [000]         fakework-4242    raw_syscalls:sys_enter: NR 110 (1, 2, 3, 4, 5, 6)
via2 [000]            other-4343    raw_syscalls:sys_enter: NR 39 (1, 2, 3, 4, 5, 6)
via2 [001] *** CPU 1: lost 2 events ***
via2 [001]         fakework-4242    raw_syscalls:sys_enter: NR 110 (1, 2, 3, 4, 5, 6)
via1 [000]         fakework-4242    raw_syscalls:sys_enter: NR 110 (1, 2, 3, 4, 5, 6)
via1 [000]            other-4343    raw_syscalls:sys_enter: NR 39 (1, 2, 3, 4, 5, 6)
via1 [001] *** CPU 1: lost 2 events ***
via1 [001]         fakework-4242    raw_syscalls:sys_enter: NR 110 (1, 2, 3, 4, 5, 6)
WANT
head -n8 "$T/m.out" | cut -d' ' -f2- | diff -u "$T/want" - ||
	fail "merged differently (above): $(head -n8 "$T/m.out")"
sort -s -g -k1,1 <(head -n8 "$T/m.out") | cmp -s - <(head -n8 "$T/m.out") ||
	fail "the merged times go backwards: $(head -n8 "$T/m.out" | cut -d' ' -f1 | tr '\n' ' ')"
[ "$(wc -l <"$T/m.out")" = 11 ] || fail "not 8 events, 2 host lines and the totals: $(cat "$T/m.out")"
for h in 1 2; do
	line=$(grep "^# ktop: host via$h " "$T/m.out") || fail "no summary line for via$h: $(tail -n3 "$T/m.out")"
	[[ $line =~ ^#\ ktop:\ host\ via$h\ \(agent\ at\ fakehost,\ kernel\ 6.1.0-fake,\ 2\ CPUs\):\ events=3\ lost=2\ lost_marked=2\ lost_unknown_pages=0\ bytes=[0-9]+\ frames=[0-9]+\ stalled=0\ late=0\ backlog_max=0\ backlog_max_ns=0\ backlog_end=0\ backlog_end_ns=0,\ clock\ offset\ ([-+][0-9]+)\ ns\ \+/-\ ([0-9]+)\ ns$ ]] ||
		fail "via$h's summary: $line"
	off=${BASH_REMATCH[1]} unc=${BASH_REMATCH[2]}
	want=$(( h == 2 ? SHIFT : 0 ))
	err=$(( ${off#+} - want ))
	# the uncertainty is half the shortest round trip, rounded down: 1 ns more at most
	[ "${err#-}" -le $((unc + 1)) ] || fail "via$h: offset $off ns, the agent's clock is $want ns ahead: off by more than the +/- $unc ns stated"
	log "via$h: offset $off ns +/- $unc ns (true: $want)"
done
tail -n1 "$T/m.out" | grep -q '^# ktop: events=6 lost=4 lost_marked=4 lost_unknown_pages=0 evicted=0 ' ||
	fail "totals: $(tail -n1 "$T/m.out")"

# --- --json: "host" and the agent's own time on each event, the hosts in the summary --------
run_ktop 30 "$T/j.out" "$T/j.err" -b --json --via "$FAKE 0 250000000" --via "$FAKE $SHIFT 0" \
	-e raw_syscalls:sys_enter --duration 1.5
[ "$KTOP_RC" = 0 ] || fail "--json: exit $KTOP_RC; stderr: $(cat "$T/j.err")"
python3 - "$T/j.out" "$SHIFT" <<'PY' || fail "--json: $(cat "$T/j.out")"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
events, summary = lines[:-1], lines[-1]["summary"]
assert [e["host"] for e in events] == ["via2"] * 4 + ["via1"] * 4, events
assert all(e["ts"] <= f["ts"] for e, f in zip(events, events[1:])), events
# the agent's own time: via2's shifted by its offset, via1's by a tiny one
for e in events:
    ahead = int(sys.argv[2]) if e["host"] == "via2" else 0
    assert abs(e["host_ts"] - ahead - e["ts"]) < 100000000, e
assert [h["host"] for h in summary["hosts"]] == ["via1", "via2"], summary
assert all(h["events"] == 3 and h["lost"] == 2 and h["uncertainty_ns"] is not None and
           not h["ended_early"] for h in summary["hosts"]), summary
assert summary["events"] == 6 and summary["printed"] == 6, summary
PY

# --- an agent that dies: named, its events kept, the other's stream whole, exit 1 -------------
run_ktop 30 "$T/d.out" "$T/d.err" -b --via "$FAKE 0 250000000 die" --via "$FAKE $SHIFT 0" \
	-e raw_syscalls:sys_enter --duration 1.5
[ "$KTOP_RC" = 1 ] || fail "die: exit $KTOP_RC, not 1; stderr: $(cat "$T/d.err")"
if [ "$(wc -l <"$T/d.err")" != 1 ] ||
	! grep -qx "ktop: via1: the pipe to agent at fakehost closed before the agent's end: the connection dropped or the agent died" "$T/d.err"; then
	fail "die: stderr: $(cat "$T/d.err")"
fi
head -n8 "$T/d.out" | cut -d' ' -f2- | diff -u "$T/want" - || fail "die: merged differently (above)"
grep -q "^# ktop: host via1 .* events=3 .*, ended early$" "$T/d.out" ||
	fail "die: via1's summary: $(grep 'host via1' "$T/d.out")"
grep -q "^# ktop: host via2 .* events=3 .* ns$" "$T/d.out" ||
	fail "die: via2's summary: $(grep 'host via2' "$T/d.out")"
log "die: $(cat "$T/d.err")"
pass
