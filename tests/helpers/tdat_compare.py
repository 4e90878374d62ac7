#!/usr/bin/env python3
"""Compares the events ktop printed (ktop -b text, live or -i) with trace-cmd report -N -t
of a trace.dat, field by field: time (to the microsecond ktop prints), CPU, pid, task name,
event name and the fields as the format's print fmt shows them; loss markers by CPU and
count. Prints the first differences and exits 1 when the two disagree.

usage: tdat_compare.py KTOP_OUTPUT REPORT_OUTPUT [--expect EVENT=N ...]
"""
import re
import sys
from collections import Counter

KTOP = re.compile(r"^(\d+)\.(\d{6}) \[(\d+)\] (.*)$")
KTOP_LOST = re.compile(r"^\*\*\* CPU (\d+): lost (?:(\d+) events|events \(count unknown\)) \*\*\*$")
# an instance's buffer (trace-cmd extract -B) prefixes each line with "NAME: "
REPORT = re.compile(r"^(?:[^\s:]+:\s+)?\s*(.*)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\S+):\s?(.*)$")
REPORT_LOST = re.compile(r"^CPU:(\d+) \[(?:(\d+) )?EVENTS DROPPED\]$")


def ktop_rows(path):
    rows, lost = [], []
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("#") or line.startswith("ktop:"):
            continue
        m = KTOP.match(line)
        if not m:
            raise SystemExit(f"{path}: not a ktop event line: {line!r}")
        sec, usec, cpu, rest = m.groups()
        lm = KTOP_LOST.match(rest)
        if lm:
            lost.append((int(lm.group(1)), int(lm.group(2)) if lm.group(2) else -1))
            continue
        # "%16s-%-7d %s: %s": the name is right-aligned in 16 cells
        comm, rest = rest[:16].strip(), rest[17:]
        pid, rest = rest.split(" ", 1)
        name, info = rest.lstrip(" ").split(": ", 1)
        event = name.split(":", 1)[1] if ":" in name else name
        rows.append((int(sec) * 1000000 + int(usec), int(cpu), int(pid), comm, event,
                     info.strip()))
    return rows, lost


def report_rows(path):
    rows, lost = [], []
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        lm = REPORT_LOST.match(line.strip())
        if lm:
            lost.append((int(lm.group(1)), int(lm.group(2)) if lm.group(2) else -1))
            continue
        m = REPORT.match(line)
        if not m:
            continue  # cpus=N, "CPU 0 is empty", version lines
        comm, pid, cpu, sec, nsec, event, info = m.groups()
        rows.append((int(sec) * 1000000 + int(nsec) // 1000, int(cpu), int(pid),
                     comm.strip(), event, info.strip()))
    return rows, lost


def main():
    args = sys.argv[1:]
    expect = {}
    while "--expect" in args:
        i = args.index("--expect")
        k, v = args[i + 1].split("=")
        expect[k] = int(v)
        del args[i:i + 2]
    ktop, ktop_lost = ktop_rows(args[0])
    rep, rep_lost = report_rows(args[1])
    bad = 0
    if len(ktop) != len(rep):
        print(f"ktop shows {len(ktop)} events, trace-cmd report {len(rep)}")
        bad = 1
    a, b = Counter(ktop), Counter(rep)
    for row in list((a - b).elements())[:5]:
        print(f"only in ktop:   {row}")
        bad = 1
    for row in list((b - a).elements())[:5]:
        print(f"only in report: {row}")
        bad = 1
    if sorted(ktop_lost) != sorted(rep_lost):
        print(f"loss markers differ: ktop {sorted(ktop_lost)}, report {sorted(rep_lost)}")
        bad = 1
    counts = Counter(r[4] for r in ktop)
    for event, n in expect.items():
        if counts[event] != n:
            print(f"{counts[event]} {event} events, expected {n}")
            bad = 1
    if not bad:
        print(f"same {len(ktop)} events and {len(ktop_lost)} loss markers")
    return bad


if __name__ == "__main__":
    sys.exit(main())
