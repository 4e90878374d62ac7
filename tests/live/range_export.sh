#!/bin/bash
# A time range (--from, --to) and the Chrome trace export, against trace-cmd report of the
# same recording (the oracle; ktop's own output is never the expected figure):
#  - a recording of every CPU's sched_switch and sched_wakeup while a workload sleeps and
#    wakes; -b -i FILE --from +A --to +B prints exactly trace-cmd's rows in that window,
#    event by event (time to the µs, CPU, event);
#  - -o PART with a range writes a trace.dat that trace-cmd reads and that holds exactly the
#    window's rows, line for line as trace-cmd prints the whole file; from trace-cmd's own
#    file too (trace-cmd convert writes it), with absolute times, without -b (no rows);
#  - --chrome-trace of that window is JSON with one sched slice per task slice trace-cmd's
#    switches give (each CPU from the window's first event to its last), to the ns, so the
#    busy slices' durations add up to trace-cmd's busy time; every other event an instant;
#  - live: -b --from +0.3 --to +1 ends by itself at --to, and its -o file and Chrome trace
#    hold exactly the rows it printed;
#  - a bad time, a backwards range and a version 7 file to cut each get one line.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_python
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (apt-get install trace-cmd)"

# The oracle: trace-cmd report -t's rows (ns timestamps), those in a window [LO, HI] ns,
# the task slices its sched_switch lines give, compared with what ktop printed and wrote.
cat >"$T/oracle.py" <<'PY'
import json, re, sys

ROW = re.compile(r'^(.*)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}): ([a-z_0-9]+):\s*(.*)$')
SWITCH = re.compile(r'(.*):(\d+) \[(\d+)\] \S+ ==> (.*):(\d+) \[(\d+)\]$')

def report(path):  # trace-cmd report -t's output
    rows = []
    for line in open(path):
        line = line.rstrip('\n')
        m = ROW.match(line)
        if m:
            rows.append((int(m.group(4)) * 10**9 + int(m.group(5)), int(m.group(3)),
                         m.group(6), m.group(7), line))
    return rows

def window(rows, lo, hi):
    return [r for r in rows if lo <= r[0] <= hi]

def ktop_rows(path):
    # "SEC.USEC [CPU] comm-pid sys:event: info"
    out = []
    for line in open(path):
        m = re.match(r'^(\d+)\.(\d{6}) \[(\d+)\] .*? [a-z_0-9]+:([a-z_0-9]+): ', line)
        if m:
            out.append((int(m.group(1)) * 10**6 + int(m.group(2)), int(m.group(3)),
                        m.group(4)))
    return out

def slices(rows):
    """Per CPU, from the window's first event to each switch and on to its last event."""
    first, last = rows[0][0], rows[-1][0]
    since, out = {}, []
    for ts, cpu, ev, info, _ in rows:
        if ev != 'sched_switch':
            continue
        m = SWITCH.search(info)
        assert m, info
        start = since.get(cpu, (first, None))[0]
        if ts > start:
            out.append((cpu, start, ts - start, int(m.group(2))))
        since[cpu] = (ts, int(m.group(5)))
    for cpu, (start, pid) in since.items():
        if last > start:
            out.append((cpu, start, last - start, pid))
    return sorted(out)

def ns(x):  # "13547.932061022" (µs with ns decimals in the JSON) -> ns
    whole, _, frac = x.partition('.')
    return int(whole) * 1000 + int((frac + '000')[:3])

def check(argv):
    cmd = argv[1]
    if cmd in ('rows', 'rowset'):  # REP KTOP_OUT LO HI: ktop's rows = trace-cmd's window's
        want = [(r[0] // 1000, r[1], r[2]) for r in window(report(argv[2]),
                                                            int(argv[4]), int(argv[5]))]
        got = ktop_rows(argv[3])
        if cmd == 'rowset':  # live, ktop prints each CPU's pages as they come
            got, want = sorted(got), sorted(want)
        assert want, 'the window is empty'
        assert got == want, 'ktop %d rows, trace-cmd %d; first difference: %s' % (
            len(got), len(want), next(((g, w) for g, w in zip(got, want) if g != w),
                                      (got[len(want):len(want) + 1], want[len(got):len(got) + 1])))
        return len(got)
    elif cmd == 'cut':          # REP PART_REP LO HI: the part's lines = the window's
        want = [r[4] for r in window(report(argv[2]), int(argv[4]), int(argv[5]))]
        got = [r[4] for r in report(argv[3])]
        assert got == want, 'the part has %d rows, the window %d: %s' % (
            len(got), len(want), next(((g, w) for g, w in zip(got, want) if g != w), None))
        return len(got)
    elif cmd == 'chrome':       # REP JSON LO HI: slices and instants against trace-cmd's
        rows = window(report(argv[2]), int(argv[4]), int(argv[5]))
        text = open(argv[3]).read()
        evs = json.loads(text)['traceEvents']
        raw = re.findall(r'"ph":"X","cat":"sched".*?"tid":(\d+),"ts":([0-9.]+),"dur":([0-9.]+),'
                         r'"args":\{"cpu":\d+,"pid":(\d+)', text)
        got = sorted((int(c), ns(t), ns(d), int(p)) for c, t, d, p in raw)
        want = slices(rows)
        assert len([e for e in evs if e.get('cat') == 'sched']) == len(raw)
        assert got == want, 'chrome %d slices, trace-cmd %d: %s' % (
            len(got), len(want), next(((g, w) for g, w in zip(got, want) if g != w), None))
        busy = lambda s: sum(d for c, t, d, p in s if p != 0)
        assert busy(got) == busy(want)
        inst = sorted((round(float(e['ts']) * 1000), e['name'].split(':')[1])
                      for e in evs if e['ph'] == 'i')
        want_i = sorted((r[0], r[2]) for r in rows if r[2] != 'sched_switch')
        assert inst == want_i, 'instants %d, trace-cmd %d' % (len(inst), len(want_i))
        assert all('pid' in e['args'] for e in evs if e['ph'] == 'i'), 'instants without fields'
        return (len(got), busy(want), len(inst))

# One line per check: TAG CMD ARGS... (python starts slowly here: once for all of them)
failed = False
for line in open(sys.argv[1]):
    tag, *argv = line.split()
    try:
        r = check([None] + argv)
        print(tag, *(r if isinstance(r, tuple) else (r,)))
    except Exception as e:
        print(tag, 'FAIL', e)
        failed = True
sys.exit(1 if failed else 0)
PY
# plan TAG CMD ARGS...: a check for the oracle, run once all of ktop's runs are done
plan() { echo "$*" >>"$T/plan"; }
# the first event's ns in trace-cmd report -t's output
first_ns() { awk 'match($0, /\] +[0-9]+\.[0-9]+: /) { t = substr($0, RSTART, RLENGTH);
	gsub(/[^0-9.]/, "", t); split(t, p, "."); print p[1] p[2]; exit }' "$1"; }

# ---- a recording with known switches ----------------------------------------------------
"$KTOP_WORKLOAD" sleep 2 500 rangewl >/dev/null &
CLEANUP_PIDS+=("$!")
run_ktop 30 "$T/rec.out" "$T/rec.err" -b -q -e sched:sched_switch -e sched:sched_wakeup \
	--duration 1.2 -o "$T/a.dat"
[ "$KTOP_RC" = 0 ] || fail "ktop -b -o exited $KTOP_RC: $(head -c 400 "$T/rec.err")"
trace-cmd report -t "$T/a.dat" >"$T/a.rep" 2>&1 || fail "trace-cmd report: $(head -c 300 "$T/a.rep")"
first=$(first_ns "$T/a.rep")
[ -n "$first" ] || fail "no event in trace-cmd report of the recording: $(head -c 300 "$T/a.rep")"

# -b -i with a relative range, -o and --chrome-trace at once: the rows are trace-cmd's in the
# window, event by event; the part holds them; the trace's slices are trace-cmd's switches'
lo=$((first + 300000000)) hi=$((first + 900000000))
run_ktop 30 "$T/b.out" "$T/b.err" -b -i "$T/a.dat" --from +0.3 --to +0.9 -o "$T/part.dat" \
	--chrome-trace "$T/part.json"
[ "$KTOP_RC" = 0 ] || fail "-b -i --from --to exited $KTOP_RC: $(head -c 400 "$T/b.err")"
plan rows rows "$T/a.rep" "$T/b.out" "$lo" "$hi"
grep -q "^ktop: recorded [0-9]* events to $T/part.dat$" "$T/b.err" ||
	fail "no 'recorded' line: $(head -c 300 "$T/b.err")"
trace-cmd report -t "$T/part.dat" >"$T/part.rep" 2>&1 ||
	fail "trace-cmd cannot read the part: $(head -c 300 "$T/part.rep")"
plan cut cut "$T/a.rep" "$T/part.rep" "$lo" "$hi"
plan chrome chrome "$T/a.rep" "$T/part.json" "$lo" "$hi"

# trace-cmd's own file (trace-cmd convert writes it), an absolute window (timestamps with
# ns, as trace-cmd -t prints them), no -b: the part is written, no row printed
trace-cmd convert --file-version 6 -i "$T/a.dat" -o "$T/tc.dat" >/dev/null 2>&1 ||
	fail "trace-cmd convert failed"
abs() { printf '%d.%09d' $(($1 / 1000000000)) $(($1 % 1000000000)); }
lo=$((first + 200000000)) hi=$((first + 700000000))
# libtracecmd 3.1 leaks the clock name of a file that gives it twice, as trace-cmd
# convert's do (tracecmd_parse_trace_clock); under fast unwinding its stack is too short for
# a suppression, so this run alone is not leak-checked (the run above cuts through the same
# code, checked)
KTOP_ENV=("ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
run_ktop 30 "$T/cut.out" "$T/cut.err" -i "$T/tc.dat" --from "$(abs $lo)" --to "$(abs $hi)" \
	-o "$T/tcpart.dat"
KTOP_ENV=()
[ "$KTOP_RC" = 0 ] || fail "-i trace-cmd's file -o exited $KTOP_RC: $(head -c 400 "$T/cut.err")"
[ ! -s "$T/cut.out" ] || fail "without -b, rows were printed: $(head -c 200 "$T/cut.out")"
trace-cmd report -t "$T/tcpart.dat" >"$T/tcpart.rep" 2>&1 ||
	fail "trace-cmd cannot read the part: $(head -c 300 "$T/tcpart.rep")"
plan tccut cut "$T/a.rep" "$T/tcpart.rep" "$lo" "$hi"

# ---- live: the capture ends at --to; its file and trace hold what it printed -------------
"$KTOP_WORKLOAD" sleep 2 400 rangewl >/dev/null &
CLEANUP_PIDS+=("$!")
t0=$(date +%s%N)
run_ktop 20 "$T/live.out" "$T/live.err" -b -e sched:sched_switch -e sched:sched_wakeup \
	--from +0.3 --to +1 -o "$T/live.dat" --chrome-trace "$T/live.json"
t1=$(date +%s%N)
[ "$KTOP_RC" = 0 ] || fail "live --from --to exited $KTOP_RC: $(head -c 400 "$T/live.err")"
# without --to's end it would run until run_ktop's 20 s bound fails it
trace-cmd report -t "$T/live.dat" >"$T/live.rep" 2>&1 ||
	fail "trace-cmd cannot read the live file: $(head -c 300 "$T/live.rep")"
plan liverows rowset "$T/live.rep" "$T/live.out" 0 18446744073709551615
span=$(awk '/^[0-9]+\.[0-9]+ \[/ { t = $1; if (!f) f = t } END { printf "%d", (t - f) * 1000 }' \
	"$T/live.out")
[ "$span" -le 700 ] || fail "live rows span $span ms, more than --from +0.3 --to +1 allows"
plan livechrome chrome "$T/live.rep" "$T/live.json" 0 18446744073709551615
log "live: rows over $span ms, ended at --to +1 within $(((t1 - t0) / 1000000)) ms"

# ---- bad input ---------------------------------------------------------------------------
expect_line()
{
	local what=$1 pattern=$2
	shift 2
	run_ktop 30 "$T/bad.out" "$T/bad.err" "$@"
	[ "$KTOP_RC" != 0 ] || fail "$what: exit 0"
	[ "$(wc -l <"$T/bad.err")" = 1 ] && grep -q "$pattern" "$T/bad.err" ||
		fail "$what: not one line matching '$pattern': $(head -c 300 "$T/bad.err")"
}
expect_line "a bad time" "^ktop: --from 'soon': .*+40.1.*205.060123" -b -i "$T/a.dat" --from soon
expect_line "backwards" "^ktop: --from is after --to" -b -i "$T/a.dat" --from +2 --to +1
trace-cmd convert --file-version 7 -i "$T/a.dat" -o "$T/v7.dat" >/dev/null 2>&1 ||
	fail "trace-cmd convert --file-version 7 failed"
expect_line "a v7 file" "version 7 .*trace-cmd convert --file-version 6" \
	-i "$T/v7.dat" --to +1 -o "$T/v7part.dat"
[ ! -e "$T/v7part.dat" ] || fail "a refused cut left $T/v7part.dat"
expect_line "chrome in the explorer" "^ktop: --chrome-trace writes" --chrome-trace "$T/x.json"

# ---- the oracle's verdicts -----------------------------------------------------------------
python3 "$T/oracle.py" "$T/plan" >"$T/verdicts" 2>&1
rc=$?
while read -r tag a b c d; do
	case "$tag $a" in
	*" FAIL") fail "$tag: $b $c $d" ;;
	"rows "*) log "-b -i --from +0.3 --to +0.9: $a rows, trace-cmd's window's, event by event" ;;
	"cut "*) log "-o of +0.3..+0.9: trace-cmd reads $a rows, the window's, line for line" ;;
	"chrome "*) log "--chrome-trace: $a slices as trace-cmd's switches give, busy $b ns alike, $c instants" ;;
	"tccut "*) log "trace-cmd's own file, absolute window, no -b: the part holds its $a rows" ;;
	"liverows "*) log "live: -o holds the $a rows printed (trace-cmd's order aside)" ;;
	"livechrome "*) log "live --chrome-trace: $a slices, busy $b ns, $c instants, as trace-cmd's" ;;
	esac
done <"$T/verdicts"
[ "$rc" = 0 ] || fail "the oracle: $(head -c 600 "$T/verdicts")"
[ "$(wc -l <"$T/verdicts")" = 6 ] || fail "the oracle gave $(wc -l <"$T/verdicts") verdicts, not 6"
pass
