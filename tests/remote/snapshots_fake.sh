#!/bin/bash
# --hist and --pmu over remote agents, with no kernel: made-up agents
# (tests/remote/fake_peer.py events) accept hist and counters requests, refuse func:nosuch*
# and a nosuch counter, and send each histogram, then the counters, as snapshot frames
# (rendered as ktop -b prints them, counts that differ per agent) when their stdin closes,
# before END. The viewer must print each snapshot exactly as it came, before the summary;
# with several hosts each block after a "# host LABEL" line, every histogram's hosts side by
# side in host order, then the counters'; with --json one object per host and snapshot,
# "host" first as on events; a refusal as the agent's one line naming it, exit 1; and an
# agent of before them (an error frame for the unknown request) one line with both
# versions, no hang.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_fake_agent
SHIFT=3000000000
version=$("$KTOP" --version | awk '{ print $NF; exit }')

# hist_block SPEC COUNT: what the fake agent renders for SPEC, as local batch mode prints it
hist_block()
{
	printf '# hist %s: by=comm unit=ns scale=log2 via=tp_btf keys=1 missed=1\n' "$1"
	printf 'key fakework count=%d sum=%d avg=1500 min=1100 p50=1500 p90=1900 p99=1990 max=1990\n' \
		"$2" $(($2 * 1500))
	printf '  [1024, 2048) %d |****************************************|\n' "$2"
}

# pmu_block COUNT EVENTS...: the fake agent's counters, as local batch mode prints them
pmu_block()
{
	local n=$1 e
	shift
	echo "# pmu: system-wide, 2 CPUs, 1.000 s"
	printf '# pmu %-26s %18s %16s %8s  cpu0 cpu1\n' counter value rate/s running
	for e in context-switches "$@"; do
		printf '%-32s %18d %16.1f %7.1f%%  %d 1\n' "$e" "$n" "$n" 100 $((n - 1))
	done
	echo "# pmu derived: IPC=n/a (needs cycles and instructions (unavailable))"
}

# --- one remote: the histogram as local prints it, then the agent's line and the totals -----
run_ktop 30 "$T/o.out" "$T/o.err" -b --via "$FAKE" --hist syscall-latency,by=comm --duration 0.5
[ "$KTOP_RC" = 0 ] || fail "one: exit $KTOP_RC; stderr: $(cat "$T/o.err")"
[ -s "$T/o.err" ] && fail "one: stderr: $(cat "$T/o.err")"
hist_block syscall-latency,by=comm 3 >"$T/want"
head -n3 "$T/o.out" | diff -u "$T/want" - || fail "one: the histogram differs (above)"
sed -n 4p "$T/o.out" | grep -q '^# ktop: agent at fakehost (kernel 6.1.0-fake, 2 CPUs): ' ||
	fail "one: no agent line after the histogram: $(cat "$T/o.out")"
tail -n1 "$T/o.out" | grep -q '^# ktop: events=0 lost=0 ' || fail "one: totals: $(tail -n1 "$T/o.out")"
[ "$(wc -l <"$T/o.out")" = 5 ] || fail "one: more than the histogram and two lines: $(cat "$T/o.out")"

# --- two remotes, two histograms: each histogram's hosts side by side, labelled -------------
run_ktop 30 "$T/m.out" "$T/m.err" -b --via "$FAKE 0 0" --via "$FAKE $SHIFT 0" \
	--hist syscall-latency,by=comm --hist runq-latency --duration 1
[ "$KTOP_RC" = 0 ] || fail "two: exit $KTOP_RC; stderr: $(cat "$T/m.err")"
[ -s "$T/m.err" ] && fail "two: stderr: $(cat "$T/m.err")"
{
	for spec in syscall-latency,by=comm runq-latency; do
		echo "# host via1"
		hist_block "$spec" 3
		echo "# host via2"
		hist_block "$spec" 6
	done
} >"$T/want"
head -n16 "$T/m.out" | diff -u "$T/want" - || fail "two: the histograms differ (above)"
sed -n '17,18p' "$T/m.out" | cut -d' ' -f1-4 | diff -u <(printf '# ktop: host via1\n# ktop: host via2\n') - ||
	fail "two: no host lines after the histograms: $(sed -n '17,$p' "$T/m.out")"
[ "$(wc -l <"$T/m.out")" = 19 ] || fail "two: not 16 histogram lines and 3 summary lines: $(cat "$T/m.out")"

# --- counters after the histograms, each --pmu-event sent; per host with several ----------
run_ktop 30 "$T/p.out" "$T/p.err" -b --via "$FAKE" --pmu --hist runq-latency --duration 0.5
[ "$KTOP_RC" = 0 ] && [ ! -s "$T/p.err" ] || fail "--pmu: exit $KTOP_RC; stderr: $(cat "$T/p.err")"
{ hist_block runq-latency 3; pmu_block 7; } >"$T/want"
head -n7 "$T/p.out" | diff -u "$T/want" - || fail "--pmu: the histogram and counters differ (above)"
[ "$(wc -l <"$T/p.out")" = 9 ] || fail "--pmu: more than the snapshots and two lines: $(cat "$T/p.out")"
run_ktop 30 "$T/pm.out" "$T/pm.err" -b --via "$FAKE 0 0" --via "$FAKE $SHIFT 0" \
	--pmu-event sched:sched_switch --pmu-event cpu/event=0x3c/ --hist runq-latency --duration 1
[ "$KTOP_RC" = 0 ] && [ ! -s "$T/pm.err" ] || fail "--pmu, two: exit $KTOP_RC; stderr: $(cat "$T/pm.err")"
{
	echo "# host via1"
	hist_block runq-latency 3
	echo "# host via2"
	hist_block runq-latency 6
	echo "# host via1"
	pmu_block 7 sched:sched_switch cpu/event=0x3c/
	echo "# host via2"
	pmu_block 10 sched:sched_switch cpu/event=0x3c/
} >"$T/want"
head -n22 "$T/pm.out" | diff -u "$T/want" - || fail "--pmu, two: the snapshots differ (above)"

# --- --json: an object per host and histogram, "host" first --------------------------------
run_ktop 30 "$T/j.out" "$T/j.err" -b --json --via "$FAKE 0 0" --via "$FAKE $SHIFT 0" \
	--hist syscall-latency,by=comm --pmu --duration 1
[ "$KTOP_RC" = 0 ] || fail "--json: exit $KTOP_RC; stderr: $(cat "$T/j.err")"
python3 - "$T/j.out" <<'PY' || fail "--json: $(cat "$T/j.out")"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
hists, pmus, summary = lines[:2], lines[2:4], lines[-1]["summary"]
assert len(lines) == 5, lines
assert [list(h) for h in hists + pmus] == [["host", "hist"]] * 2 + [["host", "pmu"]] * 2, lines
assert [(p["host"], p["pmu"]["counters"][0]["value"]) for p in pmus] == [("via1", 7), ("via2", 10)], pmus
assert [(h["host"], h["hist"]["keys"][0]["count"]) for h in hists] == [("via1", 3), ("via2", 6)], hists
assert all(h["hist"]["spec"] == "syscall-latency,by=comm" and h["hist"]["missed"] == 1 and
           h["hist"]["keys"][0]["buckets"] == [{"lo": 1024, "hi": 2048, "count": h["hist"]["keys"][0]["count"]}]
           for h in hists), hists
assert [h["host"] for h in summary["hosts"]] == ["via1", "via2"], summary
PY

# --- the agent refuses: its one line, naming it; with several, the host's label first -------
run_ktop 30 "$T/r.out" "$T/r.err" -b --via "$FAKE" --hist func:nosuch_fn --duration 0.5
[ "$KTOP_RC" = 1 ] || fail "refusal: exit $KTOP_RC; stderr: $(cat "$T/r.err")"
[ -s "$T/r.out" ] && fail "refusal: printed on stdout: $(cat "$T/r.out")"
echo "ktop: agent at fakehost refused --hist func:nosuch_fn: func:nosuch_fn: no kernel function nosuch to attach to" |
	diff -u - "$T/r.err" || fail "refusal: stderr differs (above)"
run_ktop 30 "$T/r.out" "$T/r.err" -b --via "$FAKE 0 0" --via "$FAKE $SHIFT 0" \
	--hist syscall-latency --hist func:nosuch_fn --duration 0.5
[ "$KTOP_RC" = 1 ] || fail "refusal of two: exit $KTOP_RC; stderr: $(cat "$T/r.err")"
echo "ktop: via1: agent at fakehost refused --hist func:nosuch_fn: func:nosuch_fn: no kernel function nosuch to attach to" |
	diff -u - "$T/r.err" || fail "refusal of two: stderr differs (above)"
log "refusal: $(cat "$T/r.err")"

run_ktop 30 "$T/r.out" "$T/r.err" -b --via "$FAKE" --pmu-event cycles --pmu-event nosuch --duration 0.5
[ "$KTOP_RC" = 1 ] || fail "--pmu refusal: exit $KTOP_RC; stderr: $(cat "$T/r.err")"
echo "ktop: agent at fakehost refused --pmu: nosuch: unknown event (perf list names them)" |
	diff -u - "$T/r.err" || fail "--pmu refusal: stderr differs (above)"

# --- an agent of before --hist: its error and both versions in one line, no hang ------------
run_ktop 30 "$T/v.out" "$T/v.err" -b --via "$FAKE 0 0" --via "$FAKE 0 0 old" --hist syscall-latency \
	--duration 0.5
[ "$KTOP_RC" = 1 ] || fail "old agent: exit $KTOP_RC; stderr: $(cat "$T/v.err")"
[ -s "$T/v.out" ] && fail "old agent: printed on stdout: $(cat "$T/v.out")"
echo "ktop: via2: agent at fakehost refused --hist syscall-latency: agent at fakehost: unknown request 10 (it runs ktop 0.0.9, this is ktop $version: install the same version on both sides)" |
	diff -u - "$T/v.err" || fail "old agent: stderr differs (above)"
log "old agent: $(cat "$T/v.err")"
run_ktop 30 "$T/v.out" "$T/v.err" -b --via "$FAKE 0 0 old" --pmu --duration 0.5
[ "$KTOP_RC" = 1 ] || fail "old agent, --pmu: exit $KTOP_RC; stderr: $(cat "$T/v.err")"
echo "ktop: agent at fakehost refused --pmu: agent at fakehost: unknown request 11 (it runs ktop 0.0.9, this is ktop $version: install the same version on both sides)" |
	diff -u - "$T/v.err" || fail "old agent, --pmu: stderr differs (above)"
pass
