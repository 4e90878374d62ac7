#!/bin/bash
# ktop -i FILE --chrome-trace on the kernel lab's real function_graph captures
# (tests/fixtures/lab, made by trace-cmd): every call trace-cmd report shows returning
# (funcgraph_exit, printed raw with -N: its function, call time and return time) is one
# complete event on its task's thread, with that name, start and duration to the ns, no
# other call event is there, and per thread the calls nest (a call lies within its caller or
# after it, never across); the file is JSON: whole calls (normal), a call entered on one CPU
# and left on another (migrate), and --from/--to on interrupts inside calls (irq): the calls
# that return in the window.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_python
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (apt-get install trace-cmd)"
FIX=$KTOP_SRCDIR/tests/fixtures/lab

for b in normal migrate; do
	"$KTOP" -i "$FIX/$b.dat" --chrome-trace "$T/$b.json" 2>"$T/$b.err" ||
		fail "ktop -i $b.dat --chrome-trace exited $?: $(head -c 400 "$T/$b.err")"
done
for b in normal migrate irq; do
	trace-cmd report -N -t "$FIX/$b.dat" >"$T/$b.rep" 2>/dev/null ||
		fail "trace-cmd report -N $b.dat failed"
done
# a window of irq.dat (interrupts inside calls): the calls that return from 5 ms after its
# first event to 20 ms
first=$(awk 'match($0, /\] +[0-9]+\.[0-9]+: /) { t = substr($0, RSTART, RLENGTH);
	gsub(/[^0-9.]/, "", t); split(t, p, "."); print p[1] p[2]; exit }' "$T/irq.rep")
[ -n "$first" ] || fail "no event in trace-cmd report of irq.dat"
"$KTOP" -i "$FIX/irq.dat" --from +0.005 --to +0.02 --chrome-trace "$T/win.json" \
	2>"$T/win.err" || fail "--from --to --chrome-trace exited $?: $(head -c 400 "$T/win.err")"

# One python run (it starts slowly on a loaded machine): "NAME CALLS" per file, or a reason.
python3 - "$T" "$first" <<'PY' >"$T/verdicts" 2>&1 || fail "$(tail -c 600 "$T/verdicts")"
import json, re, sys
T, first = sys.argv[1], int(sys.argv[2])
EXIT = re.compile(r'-(\d+)\s+\[\d+\]\s+(\d+)\.(\d{9}): funcgraph_exit:\s+<-- (\S+) \(\d+\) '
                  r'\(start: ([0-9a-f]+)\s+end: ([0-9a-f]+)\)')

def calls(rep, lo=0, hi=1 << 64):
    out = []
    for line in open(rep):
        m = EXIT.search(line)
        if m and lo <= int(m.group(2)) * 10**9 + int(m.group(3)) <= hi:
            s, e = int(m.group(5), 16), int(m.group(6), 16)
            out.append((int(m.group(1)), m.group(4), s, e - s))
    return sorted(out)

def chrome(path):
    text = open(path).read()
    json.loads(text)  # it parses
    raw = re.findall(r'"cat":"function_graph","name":"([^"]+)","pid":(\d+),"tid":\d+,'
                     r'"ts":(\d+)\.(\d{3}),"dur":(\d+)\.(\d{3})', text)
    return sorted((int(p), n, int(a) * 1000 + int(b), int(c) * 1000 + int(d))
                  for n, p, a, b, c, d in raw), text.count('"function_graph"')

def nested(cs):
    by = {}
    for pid, n, s, d in cs:
        by.setdefault(pid, []).append((s, -d, n))
    for pid, l in by.items():
        stack = []
        for s, d, n in sorted(l):
            while stack and stack[-1] <= s:
                stack.pop()
            assert not stack or s - d <= stack[-1], 'pid %d: %s crosses its caller' % (pid, n)
            stack.append(s - d)

for b in ('normal', 'migrate'):
    got, n = chrome('%s/%s.json' % (T, b))
    want = calls('%s/%s.rep' % (T, b))
    assert want, b + ': trace-cmd shows no call'
    assert n == len(got), '%s: %d function_graph events, %d in the expected shape' % (b, n, len(got))
    assert got == want, '%s: %d calls, trace-cmd %d; first difference %s' % (
        b, len(got), len(want), next(((g, w) for g, w in zip(got, want) if g != w), None))
    nested(got)
    print(b, len(got))
got, _ = chrome(T + '/win.json')
want = calls(T + '/irq.rep', first + 5000000, first + 20000000)
assert want and got == want, 'the window: %d calls, trace-cmd %d' % (len(got), len(want))
nested(got)
print('window', len(got))
PY
while read -r b n; do
	log "$b: $n calls as trace-cmd's funcgraph_exit records give them, nested"
done <"$T/verdicts"
pass
