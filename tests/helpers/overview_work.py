#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Workloads of known behaviour for the overview's live test (tests/live/overview_counts.sh).

  overview_work.py duty PCT SECONDS      busy PCT% of every 10 ms, asleep the rest
  overview_work.py pinned CPU SECONDS    busy on CPU alone (sched_setaffinity) throughout,
                                         SCHED_RR: two of them share it half and half,
                                         whatever else the machine runs
  overview_work.py write MIB FILE        MIB MiB written to FILE, then fsync
  overview_work.py touch PAGES -         one byte written to each of PAGES new pages
  overview_work.py fsyncs N FILE         N times: 64 KiB written to FILE, then fsync (each
                                         write reaches the disk as requests of its own)

Each prints its pid on the first line, does its work, prints one JSON object of what the
kernel's accounting cannot say (how long the work took, CLOCK_MONOTONIC; getrusage's minor
faults) and stops itself (SIGSTOP): the test reads the kernel's own figures for it in
/proc/PID while nothing more can happen to it, then kills it.
"""
import ctypes
import json
import mmap
import os
import resource
import signal
import sys
import threading
import time


def spin_until(t):
    while time.monotonic() < t:
        pass


def duty(pct, seconds):
    end = time.monotonic() + seconds
    period = 0.010
    while time.monotonic() < end:
        t = time.monotonic()
        spin_until(t + period * pct / 100)
        time.sleep(period * (100 - pct) / 100)


def pinned(cpu, seconds):
    # real-time first, then onto the CPU: a normal task sent to a CPU where the other
    # spinner already runs real-time would starve there (up to the RT throttle's 950 ms)
    # before it could become real-time, and the two would not share the CPU evenly
    os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(1))
    os.sched_setaffinity(0, {cpu})
    spin_until(time.monotonic() + seconds)


def write(mib, path):
    block = b"k" * (1 << 20)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    for _ in range(mib):
        os.write(fd, block)
    os.fsync(fd)
    os.close(fd)


def fsyncs(n, path):
    block = b"f" * 65536
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    for _ in range(n):
        os.write(fd, block)
        os.fsync(fd)
    os.close(fd)


def touch(pages):
    size = os.sysconf("SC_PAGE_SIZE")
    m = mmap.mmap(-1, pages * size)
    for i in range(pages):
        m[i * size] = 1


def threads(prefix):
    """PREFIX-mt and two threads PREFIX-t1, PREFIX-t2, each waking every 10 ms (so each has
    figures in every tick) until killed: the overview panes' thread folding."""
    libc = ctypes.CDLL(None)

    def tick(name):
        libc.prctl(15, name.encode(), 0, 0, 0)
        while True:
            time.sleep(0.01)
    for i in (1, 2):
        threading.Thread(target=tick, args=(f"{prefix}-t{i}",), daemon=True).start()
    tick(f"{prefix}-mt")


def main():
    modes = {"threads": lambda a: threads(a[0]),
             "duty": lambda a: duty(float(a[0]), float(a[1])),
             "pinned": lambda a: pinned(int(a[0]), float(a[1])),
             "write": lambda a: write(int(a[0]), a[1]),
             "touch": lambda a: touch(int(a[0])),
             "fsyncs": lambda a: fsyncs(int(a[0]), a[1])}
    if len(sys.argv) != 4 or sys.argv[1] not in modes:
        sys.exit("usage: overview_work.py threads PREFIX - | duty PCT SECONDS | pinned CPU SECONDS | "
                 "write MIB FILE | touch PAGES - | fsyncs N FILE")
    print(os.getpid(), flush=True)
    start = time.monotonic()
    modes[sys.argv[1]](sys.argv[2:])
    print(json.dumps({"wall_s": time.monotonic() - start,
                      "ru_minflt": resource.getrusage(resource.RUSAGE_SELF).ru_minflt}),
          flush=True)
    os.kill(os.getpid(), signal.SIGSTOP)


main()
