#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# An agent on a line that never closes (a serial port: no EOF when the viewer goes): a viewer
# of this protocol says hello, pings twice a second apart, then says nothing more while it
# keeps reading, as a dead viewer's end of a serial line does (qemu drops what the guest
# sends). The agent must take a minute of silence from a viewer that pinged as its end: its
# instance present while it waits, then gone, one line on its stderr saying why, exit 1,
# between 60 and 75 s after the last ping.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_python

python3 - "$KTOP" "$T/agent.err" >"$T/viewer.out" 2>"$T/viewer.err" <<'PY' &
import os, struct, subprocess, sys, threading, time

def fnv(b):
    h = 2166136261
    for x in b:
        h = ((h ^ x) * 16777619) & 0xFFFFFFFF
    return h

def frame(ftype, payload):
    head = b"KTOP" + bytes([2, ftype]) + struct.pack("<HI", 0, len(payload))
    return head + struct.pack("<I", fnv(head)) + payload

def string(s):
    b = s.encode()
    return struct.pack("<I", len(b)) + b

agent = subprocess.Popen([sys.argv[1], "--agent"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=open(sys.argv[2], "wb"))
print("agent", agent.pid, flush=True)
# everything it sends is read and dropped, as qemu drops a guest's output nobody reads
threading.Thread(target=lambda: [None for _ in iter(lambda: agent.stdout.read(65536), b"")],
                 daemon=True).start()
hello = (struct.pack("<H", 2) + string("0.1.0") + b"V\x00" + string("viewer") +
         string("") + struct.pack("<II", 0, 0) + bytes([8, 0]))
agent.stdin.write(frame(1, hello))
for i in range(2):
    time.sleep(i)
    agent.stdin.write(frame(12, struct.pack("<Q", time.clock_gettime_ns(time.CLOCK_MONOTONIC))))
    agent.stdin.flush()
    last = time.monotonic()
print("silent", flush=True)
try:
    rc = agent.wait(timeout=100)
except subprocess.TimeoutExpired:
    agent.kill()
    rc = "none"
print("exit", rc, round(time.monotonic() - last, 1), flush=True)
PY
viewer=$!
_said() { grep -q "^$1" "$T/viewer.out"; }
wait_until 15 _said silent || fail "the viewer did not get going: $(cat "$T/viewer.err")"
agent=$(sed -n 's/^agent //p' "$T/viewer.out")
KTOP_PIDS+=("$agent")
instance_exists "$agent" || fail "the agent's instance is not there while it waits"
wait_pid_exit "$viewer" 120 || fail "the viewer did not end"
read -r _ rc secs < <(grep '^exit ' "$T/viewer.out")
[ "$rc" = 1 ] || fail "the agent exited '$rc' after $secs s of silence, not 1: $(cat "$T/agent.err")"
awk -v s="$secs" 'BEGIN { exit !(s >= 59.5 && s <= 75) }' ||
	fail "the agent ended $secs s after the viewer's last ping, not in 60-75 s"
[ "$(wc -l <"$T/agent.err")" = 1 ] && grep -q 'the viewer has said nothing for 6[0-9] s .*taken as gone' "$T/agent.err" ||
	fail "the agent's stderr: $(cat "$T/agent.err")"
instance_exists "$agent" && fail "the agent's instance is still there after it ended"
assert_no_sanitizer "$T/agent.err"
log "agent ended $secs s after the viewer's last ping: $(cat "$T/agent.err")"
assert_clean
pass
