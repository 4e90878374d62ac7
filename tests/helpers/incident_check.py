#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""incident_check.py DIR WORKLOAD_OUT PID PRE POST: checks the flight recorder's incidents
in DIR against the workload's own clock (tests/live/flightrec.sh). Each of the workload's
slow sleeps (its "slow=T0 T1" lines, CLOCK_MONOTONIC ns) must be one incident, and so must
each 1 ms sleep a loaded machine stretched past the threshold by a margin ("late=" lines:
user space times more than the syscall, so one just above may rightly not fire); every
incident must be one of those. In each incident's trace.dat, as trace-cmd reads it, the
call's sys_enter and sys_exit (NR 230, clock_nanosleep) lie between T0 and T1, at least PRE
seconds of events before the enter and POST after the exit; summary.json says what fired
it. Prints one line per incident; exits 1 with the first problem."""
import glob
import json
import os
import re
import subprocess
import sys

LINE = re.compile(r"^\s*(.+)-(\d+)\s+\[(\d+)\]\s+(\d+\.\d+):\s+(\S+):\s+(.*)$")
SLACK = 0.1  # s: the workload's 1 ms sleeps, stretched on a loaded machine
THRESHOLD = 0.1  # s: the test's syscall>100ms
MARGIN = 0.005  # s: a late sleep this far over the threshold must have fired


def fail(msg):
    print("incident_check: " + msg)
    sys.exit(1)


def records(path):
    out = subprocess.run(["trace-cmd", "report", path], capture_output=True, text=True)
    if out.returncode:
        fail("trace-cmd report %s exited %d: %s" % (path, out.returncode, out.stderr[-300:]))
    for line in out.stdout.splitlines():
        m = LINE.match(line)
        if m:
            yield int(m.group(2)), float(m.group(4)), m.group(5), m.group(6)


def check(d, t0, t1, pid, pre, post, recs):
    if not recs:
        fail("%s: trace.dat holds no events" % d)
    mine = [r for r in recs if r[0] == pid and "NR 230" in r[3]]
    enters = [r[1] for r in mine if r[2] == "sys_enter" and t0 <= r[1] <= t1]
    exits = [r[1] for r in mine if r[2] == "sys_exit" and t0 <= r[1] <= t1]
    if not enters or not exits or exits[-1] - enters[0] < THRESHOLD:
        fail("%s: no slow clock_nanosleep of %d between %.6f and %.6f (enters %s, exits %s)"
             % (d, pid, t0, t1, enters, exits))
    first, last = recs[0][1], max(r[1] for r in recs)
    before, after = enters[0] - first, last - exits[-1]
    if before < pre - SLACK:
        fail("%s: %.3f s before the slow call's enter, want the pre-roll %.3f" % (d, before, pre))
    if after < post - SLACK:
        fail("%s: %.3f s after its exit, want the post-roll %.3f" % (d, after, post))
    with open(os.path.join(d, "summary.json")) as f:
        s = json.load(f)
    took = exits[-1] - enters[0]
    if s["task"]["pid"] != pid or s["kind"] != "syscall" or s["syscall"] != "clock_nanosleep":
        fail("%s: summary names %s" % (d, s))
    if abs(s["value_ns"] / 1e9 - took) > 0.002 or abs(s["fired_ns"] / 1e9 - exits[-1]) > 0.002:
        fail("%s: summary says %d ns fired at %d, trace-cmd %.6f s to %.6f"
             % (d, s["value_ns"], s["fired_ns"], enters[0], exits[-1]))
    print("%s: slow call %.6f..%.6f (%.1f ms), %.3f s before it, %.3f s after, %d events"
          % (os.path.basename(d), enters[0], exits[-1], took * 1e3, before, after, len(recs)))


def fired_at(d):
    with open(os.path.join(d, "summary.json")) as f:
        return json.load(f)["fired_ns"] / 1e9


def main():
    top, wl, pid, pre, post = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), \
        float(sys.argv[5])
    calls = []  # (t0, t1, must fire)
    for l in open(wl):
        if l.startswith("slow=") or l.startswith("late="):
            t0, t1 = (int(x) / 1e9 for x in l.split("=")[1].split())
            calls.append((t0, t1, l.startswith("slow=") or t1 - t0 > THRESHOLD + MARGIN))
    dirs = sorted(glob.glob(os.path.join(top, "incident-*")),
                  key=lambda p: int(os.path.basename(p).split("-")[1]))
    for d in dirs:
        recs = list(records(os.path.join(d, "trace.dat")))
        if not recs:
            fail("%s: trace.dat holds no events" % d)
        ts = fired_at(d)
        call = [c for c in calls if c[0] <= ts <= c[1]]
        if len(call) != 1:
            fail("%s fired at %.6f, in none of the workload's long sleeps %s" % (d, ts, calls))
        check(d, call[0][0], call[0][1], pid, pre, post, recs)
        calls.remove(call[0])
    missed = [c for c in calls if c[2]]
    if missed:
        fail("long sleeps without an incident: %s" % missed)
    near = [c for c in calls if c[1] - c[0] > THRESHOLD]
    if near:
        print("late sleeps within %g s over the threshold that did not fire: %s" % (MARGIN, near))


main()
