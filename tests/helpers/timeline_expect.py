#!/usr/bin/env python3
"""timeline_expect.py REPORT DUMP [CELL_NS]: the timeline's slices and the heat map's cells
(ktop's KTOP_TEST_TIMELINE_DUMP) against what trace-cmd report -t says of the same file.

Every CPU's slices must be the runs between its sched_switch records, the first clipped at
the file's first record and the last at its last; every cell must hold the records whose
times fall in it. Prints what differs and exits 1, or prints counts and exits 0.
`range A B` (nanoseconds, both inclusive) instead prints how many records lie in [A, B];
`first` the first record's time; `switches CPU` the times of CPU's sched_switch records."""
import re
import sys

LINE = re.compile(r'^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+?):\s*(.*)$')
SWITCH = re.compile(r'^(.*):(-?\d+) \[(-?\d+)\] \S+ ==> (.*):(-?\d+) \[(-?\d+)\]$')


def records(path):
    out = []
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            ts = int(m.group(4)) * 1000000000 + int(m.group(5).ljust(9, '0')[:9])
            out.append((ts, int(m.group(3)), m.group(6), m.group(7)))
    return out


def expected_slices(recs):
    start, end = recs[0][0], max(r[0] for r in recs)
    last = {}
    slices = []
    for ts, cpu, event, fields in recs:
        if event != 'sched_switch':
            continue
        m = SWITCH.match(fields.strip())
        if not m:
            sys.exit('cannot read switch: ' + fields)
        prev_pid, next_pid = int(m.group(2)), int(m.group(5))
        since = last[cpu][0] if cpu in last else start
        if ts > since:
            slices.append((cpu, since, ts, prev_pid))
        last[cpu] = (ts, next_pid)
    for cpu, (since, pid) in last.items():
        if end > since:
            slices.append((cpu, since, end, pid))
    return sorted(slices)


def main():
    recs = records(sys.argv[1])
    if not recs:
        sys.exit('no records in ' + sys.argv[1])
    if sys.argv[2] == 'range':
        a, b = int(sys.argv[3]), int(sys.argv[4])
        print(sum(1 for r in recs if a <= r[0] <= b))
        return
    if sys.argv[2] == 'first':
        print(recs[0][0])
        return
    if sys.argv[2] == 'switches':
        for r in recs:
            if r[1] == int(sys.argv[3]) and r[2] == 'sched_switch':
                print(r[0])
        return
    got_s, got_c = [], {}
    with open(sys.argv[2], encoding='utf-8') as f:
        for line in f:
            w = line.split()
            if w[0] == 'slice':
                got_s.append((int(w[1]), int(w[2]), int(w[3]), int(w[4])))
            elif w[0] == 'cell':
                got_c[int(w[1])] = int(w[2])
    want_s = expected_slices(recs)
    bad = 0
    for i, (g, w) in enumerate(zip(sorted(got_s), want_s)):
        if g != w:
            print(f'slice {i}: ktop {g}, trace-cmd {w}')
            bad += 1
            if bad > 5:
                break
    if len(got_s) != len(want_s):
        print(f'{len(got_s)} slices, trace-cmd gives {len(want_s)}')
        bad += 1
    cell = int(sys.argv[3]) if len(sys.argv) > 3 else 20000000
    t0 = recs[0][0]
    want_c = {}
    for r in recs:
        k = t0 + (r[0] - t0) // cell * cell
        want_c[k] = want_c.get(k, 0) + 1
    for k in sorted(set(want_c) | set(got_c)):
        if want_c.get(k, 0) != got_c.get(k, 0):
            print(f'cell {k}: ktop {got_c.get(k, 0)}, trace-cmd {want_c.get(k, 0)}')
            bad += 1
            if bad > 10:
                break
    if bad:
        sys.exit(1)
    print(f'{len(want_s)} slices, {len(want_c)} cells, {len(recs)} records agree')


main()
