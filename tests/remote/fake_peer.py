#!/usr/bin/env python3
# Peers of the remote protocol (docs/remote.md) for the tests that need no kernel:
#   agent             an agent of the next protocol (PROTO + 1): its hello, then waits for
#                     stdin to close
#   viewer FILE       a viewer of the next protocol: its hello, then copies what comes back
#                     to FILE
#   events FIXTURES   an agent of this protocol (PROTO) with made-up pages: the hello, header_page
#                     (FIXTURES/events/header_page), and on an enable request the format of
#                     raw_syscalls:sys_enter, task names, one page on CPU 1 (a loss of 2
#                     stored in the page, one event), then an earlier one on CPU 0 (two
#                     events), a watermark between CPU 0's two events, the loss
#                     counters (no backlog); an enable of nosuch:* is refused; kallsyms
#                     (two symbols) and printk formats when asked; END when stdin closes.
#   events FIXTURES [SHIFT SKEW] [die] [backlog] [stderr] [flood] [old] [swept] [picky]
#                     [renumbered] [nopids] [stacks] [fires] [floodend]
#                     the same, its clock SHIFT ns ahead of this machine's (pongs carry
#                     CLOCK_MONOTONIC + SHIFT; without SHIFT they carry 5), its pages and
#                     watermark SHIFT + SKEW ns later; with die, it exits right after
#                     answering the enable, without END (tests/remote/multi_fake.sh); with
#                     backlog, its loss frame says it is behind by 1 MiB queued, 4096 and
#                     8192 bytes unread on CPUs 0 and 1, 1.4 s, and its final one by 512
#                     bytes unread on CPU 1, 0.25 s (tests/remote/backlog.sh); with stderr,
#                     it writes "fake agent: warming up" to its stderr after its hello and
#                     "fake agent: done" when stdin closes (tests/remote/agent_stderr.sh);
#                     with flood, 1000 lines of 100 bytes to its stderr after its hello
#                     (tests/term/remote_stderr_flood.sh); with floodend, 5000 such lines
#                     after its END (tests/remote/agent_stderr.sh); with swept, once its pages
#                     went, a watermark at its clock's now after each pong, as an idle
#                     agent's reader sweeps (tests/term/remote_hosts.sh); with picky, it
#                     refuses every enable: "fake agent: enable refused (picky)" (and,
#                     swept, sweeps from the start: no page will come). Its pages go
#                     once, on the first enable; another is only answered. With
#                     renumbered its kernel numbers raw_syscalls:sys_enter 444, not 443
#                     (in the format and the records), as another kernel may.
#                     A probe-add request (op 4) is refused: "fake agent: no probes here".
#                     The scope key's request (op 22) is taken, the reply "KIND ARG" ("all
#                     processes" for an empty one), and when stdin closes the scopes taken
#                     are said on its stderr ("fake agent: scopes KIND ARG; ..."); with
#                     nopids a pid scope is refused as an agent that has none of its pids
#                     refuses it (tests/term/remote_scope_hosts.sh).
#                     Trigger requests (op 25) are taken and said when stdin closes
#                     ("fake agent: triggers add SPEC; tracing off"): "add", "remove"
#                     (the reply 1), "list" (none), "tracing"; "spent" replies 1 with
#                     fires once a trigger was added (its kernel fired it), else 0
#                     (tests/term/remote_stop_hosts.sh).
#                     Hostile, on the enable that brings its pages (tests/remote/hostile.sh):
#                     with rehello, a second hello saying 64 CPUs before them; with bigpage,
#                     instead of them a 4096-byte page of CPU 0 whose commit word says
#                     0x07ffffff bytes; with unasked, the formats of spam:ev0..999, which no
#                     request named, before them; with climb, a format of raw_syscalls
#                     named ../../../../escape; with manyformats, 16400 formats of
#                     raw_syscalls:sys_enter_N; with bigformat, one of 1 MiB; with
#                     manybytes, 600 of 60 KiB.
#                     With escapes, after its hello it writes to its stderr a line
#                     holding escape sequences (ESCAPES; tests/remote/agent_stderr.sh).
#                     With stacks its kernel is laid out at 0x10000000 * (SHIFT // 10**9)
#                     above the others' (as KASLR does): its kallsyms name _stext,
#                     do_syscall_64 and entry_SYSCALL_64 there; the format it is asked for
#                     of ftrace:kernel_stack is the fixture's; a stack request (op 13)
#                     sends that format and a page on CPU 0 of one sys_enter of pid 4242
#                     followed by its kernel stack, one frame, do_syscall_64+0x10, 600 ms
#                     after its other events (tests/term/remote_evstacks_hosts.sh). A
#                     user-stacks request (op 27) is taken: the stack request's page then
#                     also holds the event's user stack (pid 4242's 0x401010, 0x402020),
#                     and a UNAMES frame before it names those frames as its machine
#                     would, differently on each (fake_work_N, fake_main_N, N its SHIFT in
#                     s), as the same pid and addresses mean other code on another host.
#                     The explorer's requests are answered too: events (available_events:
#                     raw_syscalls:sys_enter), format, and disable (in backlog mode with a
#                     loss frame that is caught up: tests/term/remote_fake.sh).
#                     With old, it says it is ktop 0.0.9 and answers a hist or counters
#                     request as an agent that does not know them does (an error frame:
#                     unknown request 10 or 11), then ENDs when stdin closes or the
#                     viewer's end request (op 17) comes.
#                     Either way a hist request (op 10) of func:nosuch* is refused, and any
#                     other is accepted: when stdin closes its snapshot (hist_text) comes
#                     before END, rendered as arg2 asks ("json" or text), its count
#                     3 + SHIFT in seconds, so each agent's is its own. A counters request
#                     (op 11) naming nosuch is refused; else its snapshot (pmu_text, the
#                     --pmu-event specs it was sent counted too) comes after the hists'.
import os
import struct
import sys
import time

PROTO = 2  # KT_PROTO_VERSION


def fnv(b):
    h = 2166136261
    for x in b:
        h = ((h ^ x) * 16777619) & 0xFFFFFFFF
    return h


def frame(ftype, payload, version):
    head = b"KTOP" + bytes([version, ftype]) + struct.pack("<HI", 0, len(payload))
    return head + struct.pack("<I", fnv(head)) + payload


def string(s):
    b = s.encode() if isinstance(s, str) else s
    return struct.pack("<I", len(b)) + b


def send(ftype, payload, version=PROTO):
    try:
        sys.stdout.buffer.write(frame(ftype, payload, version))
        sys.stdout.buffer.flush()
    except BrokenPipeError:  # the viewer is gone, as it may be after a refusal
        os._exit(0)


def frames(stream):
    buf = b""
    while True:
        chunk = os.read(stream.fileno(), 65536)
        if not chunk:
            return
        buf += chunk
        while len(buf) >= 16:
            ftype, length = buf[5], struct.unpack("<I", buf[8:12])[0]
            if len(buf) < 16 + length:
                break
            yield ftype, buf[16:16 + length]
            buf = buf[16 + length:]


def page(ts, events, missed=0):
    """A 64-bit little-endian ring-buffer page: events are (delta, payload)."""
    data = b""
    for delta, payload in events:
        data += struct.pack("<I", (delta << 5) | (len(payload) // 4)) + payload
    commit = len(data)
    if missed:
        commit |= (1 << 31) | (1 << 30)
        data += struct.pack("<q", missed)
    return struct.pack("<Qq", ts, commit) + data


SYS_ENTER_ID = 443  # the fixture's; renumbered: 444


def sys_enter(pid, nr):
    return struct.pack("<HBBiq6Q", SYS_ENTER_ID, 0, 0, pid, nr, 1, 2, 3, 4, 5, 6)


def loss(cpus, queued=0, age=0):
    """LOSS: per CPU (overrun, commit overrun, dropped, entries, read, unread bytes), then
    the agent's queue and the age of its oldest unsent event."""
    return (struct.pack("<I", len(cpus)) + b"".join(struct.pack("<6Q", *c) for c in cpus) +
            struct.pack("<QQ", queued, age))


# what a hostile agent writes to its stderr with escapes: OSC (the terminal's title), CSI
# (clear the screen), a C1 CSI byte, the same in UTF-8, a carriage return and a backspace
ESCAPES = (b"fake agent: \x1b]0;owned\x07title \x1b[2Jclear \x9b31mred \xc2\x9b1m c1\r\x08 "
           b"end\n")


def say(line):
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def hist_text(spec, count, json):
    """A histogram as ktop -b --hist prints it (src/backend/bpf/histprint.c)."""
    if json:
        return ('{"hist":{"spec":"%s","by":"comm","unit":"ns","scale":"log2","step":0,'
                '"via":"tp_btf","missed":1,"keys":[{"key":"fakework","id":0,"count":%d,'
                '"sum":%d,"avg":1500,"min":1100,"p50":1500,"p90":1900,"p99":1990,'
                '"max":1990,"buckets":[{"lo":1024,"hi":2048,"count":%d}]}]}}\n'
                % (spec, count, count * 1500, count))
    return ("# hist %s: by=comm unit=ns scale=log2 via=tp_btf keys=1 missed=1\n"
            "key fakework count=%d sum=%d avg=1500 min=1100 p50=1500 p90=1900 p99=1990 "
            "max=1990\n  [1024, 2048) %d |%s|\n" % (spec, count, count * 1500, count, "*" * 40))


def pmu_text(events, count, json):
    """Counters as ktop -b --pmu prints them (src/backend/perf/pmu_print.c), system-wide on 2 CPUs."""
    names = ["context-switches"] + events
    if json:
        return ('{"pmu":{"target":"system","cpus":[0,1],"duration":1.000,"counters":[' +
                ",".join('{"name":"%s","available":true,"counted":true,"value":%d,"raw":%d,'
                         '"rate":%d,"running":1,"per_cpu":[%d,%d]}' % (n, count, count, count, count - 1, 1)
                         for n in names) +
                '],"derived":{}}}\n')
    return ("# pmu: system-wide, 2 CPUs, 1.000 s\n"
            "# pmu %-26s %18s %16s %8s  cpu0 cpu1\n" % ("counter", "value", "rate/s", "running") +
            "".join("%-32s %18d %16.1f %7.1f%%  %d 1\n" % (n, count, count, 100.0, count - 1)
                    for n in names) +
            "# pmu derived: IPC=n/a (needs cycles and instructions (unavailable))\n")


def hostile_formats(hostile, fmt, hello, rid):
    """The hostile words' frames; True when they replace the pages."""
    if "rehello" in hostile:
        send(1, hello[:-10] + struct.pack("<II", 64, 4096) + bytes([8, 0]))
    for i in range(1000 if "unasked" in hostile else 0):
        send(5, string("spam") + string(f"ev{i}") + string(fmt))
    if "climb" in hostile:
        send(5, string("raw_syscalls") + string("../../../../escape") + string(fmt))
    for i in range(16400 if "manyformats" in hostile else 0):
        send(5, string("raw_syscalls") + string(f"sys_enter_{i}") + string(b"name: x\n"))
    if "bigformat" in hostile:
        send(5, string("raw_syscalls") + string("big") + string(b"bad\n" + b" " * (1 << 20)))
    for i in range(600 if "manybytes" in hostile else 0):
        send(5, string("raw_syscalls") + string(f"big_{i}") + string(b"bad\n" + b" " * (60 << 10)))
    if "bigpage" in hostile:
        send(5, string("raw_syscalls") + string("sys_enter") + string(fmt))
        send(8, struct.pack("<I", 0) + string(struct.pack("<Qq", 1000000000, 0x07ffffff) +
                                              bytes(4096 - 16)))
        send(3, struct.pack("<IB", rid, 1) + string("1 events"))
        return True
    return False


def events_agent(fixtures, shift=None, skew=0, die=False, backlog=False, stderr=False,
                 flood=False, old=False, swept=False, picky=False, renumbered=False,
                 nopids=False, stacks=False, fires=False, floodend=False, hostile=()):
    global SYS_ENTER_ID
    late = (shift or 0) + skew
    hists, counters, paged, scopes, trigs = [], None, False, [], []
    with open(os.path.join(fixtures, "events/header_page"), "rb") as f:
        header_page = f.read()
    with open(os.path.join(fixtures, "events/raw_syscalls/sys_enter/format"), "rb") as f:
        fmt = f.read()
    with open(os.path.join(fixtures, "events/ftrace/kernel_stack/format"), "rb") as f:
        kstack_fmt = f.read()
    with open(os.path.join(fixtures, "events/ftrace/user_stack/format"), "rb") as f:
        ustack_fmt = f.read()
    ustacks = False
    kbase = 0xffffffff81000000 + 0x10000000 * ((shift or 0) // 1000000000)
    if renumbered:
        SYS_ENTER_ID = 444
        fmt = fmt.replace(b"\nID: 443\n", b"\nID: 444\n")
    hello = (struct.pack("<H", PROTO) + string("0.0.9" if old else "0.1.0") + b"A\x00" +
             string("fakehost") +
             string("6.1.0-fake") + struct.pack("<II", 2, 4096) + bytes([8, 0]))
    for ftype, payload in frames(sys.stdin):
        if ftype == 1:  # the viewer's hello
            send(1, hello)
            send(4, header_page)
            if stderr:
                say("fake agent: warming up")
            if "escapes" in hostile:
                sys.stderr.buffer.write(ESCAPES)
                sys.stderr.flush()
            for i in range(1000 if flood else 0):
                say(f"fake agent: noise {i:04d} ".ljust(99, "x"))
        elif ftype == 2:  # a request
            rid, op = struct.unpack("<IB", payload[:5])
            alen = struct.unpack("<I", payload[5:9])[0]
            arg = payload[9:9 + alen].decode()
            if op == 17:  # end: the viewer is done, as when stdin closes
                break
            if op == 6:  # kallsyms and printk formats, for -o
                if stacks:
                    send(6, (f"{kbase:x} T _stext\n{kbase + 0x1000:x} T do_syscall_64\n"
                             f"{kbase + 0x2000:x} T entry_SYSCALL_64\n").encode())
                else:
                    send(6, b"ffffffff81000000 T _stext\nffffffff81001000 T do_syscall_64\n")
                with open(os.path.join(fixtures, "printk_formats"), "rb") as f:
                    send(7, f.read())
                send(3, struct.pack("<IB", rid, 1) + string(""))
                continue
            if op in (10, 11) and old:
                send(14, string(f"unknown request {op}"))
                continue
            if op == 11:
                events = arg.split()
                if any(e.startswith("nosuch") for e in events):
                    send(3, struct.pack("<IB", rid, 0) +
                         string("nosuch: unknown event (perf list names them)"))
                    continue
                blen = struct.unpack("<I", payload[9 + alen:13 + alen])[0]
                json = payload[13 + alen:13 + alen + blen] == b"json"
                counters = (rid, pmu_text(events, 7 + (shift or 0) // 1000000000, json))
                send(3, struct.pack("<IB", rid, 1) + string(f"{1 + len(events)} counters"))
                continue
            if op == 10:
                if arg.startswith("func:nosuch"):
                    send(3, struct.pack("<IB", rid, 0) +
                         string(f"{arg}: no kernel function nosuch to attach to"))
                    continue
                blen = struct.unpack("<I", payload[9 + alen:13 + alen])[0]
                json = payload[13 + alen:13 + alen + blen] == b"json"
                hists.append((rid, hist_text(arg, 3 + (shift or 0) // 1000000000, json)))
                send(3, struct.pack("<IB", rid, 1) + string(f"{arg} via=tp_btf"))
                continue
            if op == 25:  # triggers
                blen = struct.unpack("<I", payload[9 + alen:13 + alen])[0]
                arg2 = payload[13 + alen:13 + alen + blen].decode()
                if arg != "spent":
                    trigs.append(f"{arg} {arg2}")
                added = any(t.startswith("add ") for t in trigs)
                reply = {"remove": "1", "spent": "1" if fires and added else "0"}.get(arg, "")
                send(3, struct.pack("<IB", rid, 1) + string(reply))
                continue
            if op == 22:  # the explorer's scope key
                blen = struct.unpack("<I", payload[9 + alen:13 + alen])[0]
                arg2 = payload[13 + alen:13 + alen + blen].decode()
                if arg.startswith("pid") and nopids:
                    send(3, struct.pack("<IB", rid, 0) + string(
                        f"pid {arg2} is not running on fakehost: type one that runs there"))
                    continue
                scopes.append(f"{arg} {arg2}".strip() or "all")
                send(3, struct.pack("<IB", rid, 1) +
                     string(f"{arg} {arg2}".rstrip() if arg else "all processes"))
                continue
            if arg.startswith("nosuch"):
                send(3, struct.pack("<IB", rid, 0) + string(f"no event matches '{arg}'"))
                continue
            if op == 4:  # probe-add: no kernel to make it in
                send(3, struct.pack("<IB", rid, 0) + string("fake agent: no probes here"))
                continue
            if op == 1 and picky:
                send(3, struct.pack("<IB", rid, 0) + string("fake agent: enable refused (picky)"))
                continue
            if op == 7:  # the explorer's catalogue
                send(17, b"raw_syscalls:sys_enter\n")
                send(3, struct.pack("<IB", rid, 1) + string(""))
                continue
            if op == 8 and stacks and arg in ("ftrace:kernel_stack", "ftrace:user_stack"):
                name = arg.split(":")[1]
                send(5, string("ftrace") + string(name) +
                     string(kstack_fmt if name == "kernel_stack" else ustack_fmt))
                send(3, struct.pack("<IB", rid, 1) + string("1 formats"))
                continue
            if op == 27 and stacks:  # --user-stacks (a real agent sent ftrace's formats already)
                ustacks = True
                send(5, string("ftrace") + string("user_stack") + string(ustack_fmt))
                send(3, struct.pack("<IB", rid, 1) + string(""))
                continue
            if op == 13 and stacks:  # an event with its kernel stack
                send(5, string("ftrace") + string("kernel_stack") + string(kstack_fmt))
                kstack = struct.pack("<HBBiiI", 4, 0, 0, 4242, 1, 0) + struct.pack(
                    "<8Q", kbase + 0x1010, 0, 0, 0, 0, 0, 0, 0)
                records = [(0, sys_enter(4242, 110)), (1, kstack)]
                if ustacks:  # named first, as an agent names them before the page
                    n = (shift or 0) // 1000000000
                    send(21, struct.pack("<iQB", 4242, 0x401010, 2) + string(f"fake_work_{n}") +
                         struct.pack("<iQB", 4242, 0x402020, 2) + string(f"fake_main_{n}"))
                    records.append((1, struct.pack("<HBBiII", 13, 0, 0, 4242, 4242, 0) +
                                    struct.pack("<8Q", 0x401010, 0x402020, 0, 0, 0, 0, 0, 0)))
                send(8, struct.pack("<I", 0) + string(page(1000600000 + late, records)))
                send(16, struct.pack("<Q", 1000600100 + late))
                send(3, struct.pack("<IB", rid, 1) + string("1 events"))
                continue
            if op == 8:  # a format the explorer's decoder asks for
                send(5, string("raw_syscalls") + string("sys_enter") + string(fmt))
                send(3, struct.pack("<IB", rid, 1) + string("1 formats"))
                continue
            if op == 2:  # disable: caught up, in backlog mode
                if backlog:
                    send(10, loss([(0, 0, 0, 0, 2, 0), (0, 0, 2, 0, 1, 0)]))
                send(3, struct.pack("<IB", rid, 1) + string("1 events"))
                continue
            if op not in (1, 13):  # a request no agent sends formats for: taken
                send(3, struct.pack("<IB", rid, 1) + string("1 events"))
                continue
            if hostile_formats(hostile, fmt, hello, rid):
                continue
            if paged:  # enabled again: a kernel makes no events twice
                send(3, struct.pack("<IB", rid, 1) + string("1 events"))
                continue
            send(5, string("raw_syscalls") + string("sys_enter") + string(fmt))
            send(9, struct.pack("<iQ", 4242, 1) + string("fakework") +
                 struct.pack("<iQ", 4343, 1) + string("other"))
            # CPU 1's page first: the viewer orders by time across CPUs
            send(8, struct.pack("<I", 1) + string(page(1000500000 + late, [
                (7, sys_enter(4242, 110))], missed=2)))
            send(8, struct.pack("<I", 0) + string(page(1000000000 + late, [
                (0, sys_enter(4242, 110)), (1000, sys_enter(4343, 39))])))
            # a watermark: CPU 0's first may go
            send(16, struct.pack("<Q", 1000000500 + late))
            if backlog:
                send(10, loss([(0, 0, 0, 2, 2, 4096), (0, 0, 2, 1, 1, 8192)],
                              1 << 20, 1400000000))
            else:
                send(10, loss([(0, 0, 0, 2, 2, 0), (0, 0, 2, 1, 1, 0)]))
            send(3, struct.pack("<IB", rid, 1) + string("1 events"))
            paged = True
            if die:
                os._exit(3)
        elif ftype == 12:  # ping
            now = 5 if shift is None else time.clock_gettime_ns(time.CLOCK_MONOTONIC) + shift
            send(13, payload + struct.pack("<Q", now))
            if swept and (paged or picky):
                send(16, struct.pack("<Q", now))
    if stderr:
        say("fake agent: done")
    if scopes:
        say("fake agent: scopes " + "; ".join(scopes))
    if trigs:
        say("fake agent: triggers " + "; ".join(trigs))
    if backlog:
        send(10, loss([(0, 0, 0, 0, 2, 0), (0, 0, 2, 0, 1, 512)], 0, 250000000))
    for rid, text in hists:
        send(11, bytes([1]) + struct.pack("<I", rid) + string(text))
    if counters:
        send(11, bytes([2]) + struct.pack("<I", counters[0]) + string(counters[1]))
    send(15, b"")
    for i in range(5000 if floodend else 0):
        say(f"fake agent: last words {i:04d} ".ljust(99, "x"))


if sys.argv[1] == "events":
    nums = [int(a) for a in sys.argv[3:] if a.lstrip("-").isdigit()]
    words = [a for a in sys.argv[3:] if not a.lstrip("-").isdigit()]
    events_agent(sys.argv[2], nums[0] if nums else None, nums[1] if nums else 0,
                 "die" in words, "backlog" in words, "stderr" in words, "flood" in words,
                 "old" in words, "swept" in words, "picky" in words, "renumbered" in words,
                 "nopids" in words, "stacks" in words, "fires" in words,
                 "floodend" in words, words)
    sys.exit(0)
# the next protocol's hello: proto and version first, as in every version; the rest is its own
send(1, struct.pack("<H", PROTO + 1) + string("9.9") + b"\x00whatever the next version says",
     version=PROTO + 1)
if sys.argv[1] == "agent":
    sys.stdin.buffer.read()
else:
    with open(sys.argv[2], "wb") as out:
        out.write(sys.stdin.buffer.read())
