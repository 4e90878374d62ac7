#!/usr/bin/env python3
# A peer of the remote protocol (docs/remote.md) that speaks another version, for
# tests/remote/version.sh: "agent" writes an agent's hello of protocol 2 and waits for its
# stdin to close; "viewer" writes a viewer's hello of protocol 2 and copies what comes back
# to the file named by its second argument.
import struct
import sys


def fnv(b):
    h = 2166136261
    for x in b:
        h = ((h ^ x) * 16777619) & 0xFFFFFFFF
    return h


def frame(ftype, payload, version=2):
    head = b"KTOP" + bytes([version, ftype]) + struct.pack("<HI", 0, len(payload))
    return head + struct.pack("<I", fnv(head)) + payload


def string(s):
    b = s.encode()
    return struct.pack("<I", len(b)) + b


# protocol 2's hello: proto and version first, as in every version; the rest is its own
hello = struct.pack("<H", 2) + string("9.9") + b"\x00whatever version 2 says"
sys.stdout.buffer.write(frame(1, hello))
sys.stdout.buffer.flush()
if sys.argv[1] == "agent":
    sys.stdin.buffer.read()
else:
    with open(sys.argv[2], "wb") as out:
        out.write(sys.stdin.buffer.read())
