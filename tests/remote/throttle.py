#!/usr/bin/env python3
# A slow link for tests/live/remote_throttle.sh: copies stdin to stdout at RATE bytes a
# second (the first argument), in 16 KiB steps, until stdin ends or stdout breaks.
import os
import sys
import time

rate = int(sys.argv[1])
step = 16384
start, sent = time.monotonic(), 0
while True:
    chunk = os.read(0, step)
    if not chunk:
        break
    try:
        os.write(1, chunk)
    except BrokenPipeError:
        break
    sent += len(chunk)
    ahead = start + sent / rate - time.monotonic()
    if ahead > 0:
        time.sleep(ahead)
