#!/bin/bash
# The viewer's side of -b --via with no kernel: a made-up agent (tests/remote/fake_peer.py
# events) sends raw_syscalls:sys_enter's format, task names and two hand-made ring-buffer
# pages, the later one first and saying 2 events were lost before it. The viewer must decode
# every record through the format it was sent, order them by time across CPUs, name the tasks
# as the agent did, put the loss marker where the page says, report the agent's loss counters, and refuse a request the agent refused
# with the agent's reason. With -o, the same records go to a trace.dat of the agent's
# formats, kallsyms and names that trace-cmd report and ktop -i read back, loss included.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_fake_agent

run_ktop 30 "$T/r.out" "$T/r.err" -b --via "$FAKE" -e raw_syscalls:sys_enter --duration 0.5
[ "$KTOP_RC" = 0 ] || fail "exit $KTOP_RC; stderr: $(cat "$T/r.err")"
[ -s "$T/r.err" ] && fail "stderr: $(cat "$T/r.err")"
cat >"$T/want" <<'WANT'
1.000000 [000]         fakework-4242    raw_syscalls:sys_enter: NR 110 (1, 2, 3, 4, 5, 6)
1.000001 [000]            other-4343    raw_syscalls:sys_enter: NR 39 (1, 2, 3, 4, 5, 6)
1.000500 [001] *** CPU 1: lost 2 events ***
1.000500 [001]         fakework-4242    raw_syscalls:sys_enter: NR 110 (1, 2, 3, 4, 5, 6)
WANT
head -n4 "$T/r.out" | diff -u "$T/want" - || fail "the pages decode differently (above)"
sed -n 5p "$T/r.out" | grep -q '^# ktop: agent at fakehost (kernel 6.1.0-fake, 2 CPUs): [0-9]* bytes received in [0-9]* frames, 2 pages ([0-9]* bytes)' ||
	fail "no agent line: $(sed -n 5p "$T/r.out")"
tail -n1 "$T/r.out" | grep -q '^# ktop: events=3 lost=2 lost_marked=2 lost_unknown_pages=0 evicted=0 ' ||
	fail "summary: $(tail -n1 "$T/r.out")"
[ "$(wc -l <"$T/r.out")" = 6 ] || fail "more than four events and two summary lines: $(cat "$T/r.out")"
log "decoded: $(tail -n2 "$T/r.out" | tr '\n' ' ')"

# --- -o: a trace.dat of the remote's data ----------------------------------------------------
mkdir "$T/tmp"
KTOP_ENV=(TMPDIR="$T/tmp")
run_ktop 30 "$T/o.out" "$T/o.err" -b -q --via "$FAKE" -e raw_syscalls:sys_enter --duration 0.5 \
	-o "$T/r.dat"
KTOP_ENV=()
[ "$KTOP_RC" = 0 ] || fail "-o: exit $KTOP_RC; stderr: $(cat "$T/o.err")"
grep -qx "ktop: recorded 3 events to $T/r.dat" "$T/o.err" || fail "-o: stderr: $(cat "$T/o.err")"
[ -z "$(ls -A "$T/tmp")" ] || fail "-o left the mirror of the agent's files: $(ls "$T/tmp")"
run_ktop 30 "$T/i.out" "$T/i.err" -b -i "$T/r.dat"
[ "$KTOP_RC" = 0 ] || fail "-i of the remote's trace.dat: exit $KTOP_RC; $(cat "$T/i.err")"
head -n4 "$T/i.out" | diff -u "$T/want" - || fail "-i reads the remote's trace.dat differently (above)"
tail -n1 "$T/i.out" | grep -q '^# ktop: events=3 lost=2 lost_marked=2 ' ||
	fail "-i: the file lost the agent's counters: $(tail -n1 "$T/i.out")"
if command -v trace-cmd >/dev/null; then
	trace-cmd report "$T/r.dat" >"$T/report" 2>&1 || fail "trace-cmd report: $(head -5 "$T/report")"
	[ "$(grep -c 'fakework-4242 .*sys_enter: *NR 110 (1, 2, 3, 4, 5, 6)' "$T/report")" = 2 ] &&
		grep -q 'CPU:1 \[2 EVENTS DROPPED\]' "$T/report" ||
		fail "trace-cmd report reads it differently: $(cat "$T/report")"
	log "-o: trace-cmd report: $(grep -c sys_enter "$T/report") events, $(grep -o 'CPU:1 \[2 EVENTS DROPPED\]' "$T/report")"
fi

# --- a refusal ------------------------------------------------------------------------------
run_ktop 30 "$T/r.out" "$T/r.err" -b --via "$FAKE" -e nosuch:event --duration 0.5
[ "$KTOP_RC" = 1 ] || fail "refused request: exit $KTOP_RC; stderr: $(cat "$T/r.err")"
grep -qx "ktop: agent at fakehost refused -e nosuch:event: no event matches 'nosuch:event'" "$T/r.err" ||
	fail "refused request: stderr: $(cat "$T/r.err")"
log "refusal: $(cat "$T/r.err")"
pass
