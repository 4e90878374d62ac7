#!/bin/bash
# --memory bounds the profile's stacks, and what it keeps out is counted, on the real
# kernel:
#  - profwork deep recurses 60 deep through eight functions chosen at random at every
#    level: almost every sample is a new stack of 60 frames;
#  - ktop -b --profile -F 999 -p PID --memory 8M --json, for 4 s of the workload's CPU:
#    the stacks' bytes end within one
#    stack of 8 MiB, the samples not added are counted (dropped_memory > 0), and the stacks
#    printed add up to exactly the samples said to be kept;
#  - by the kernel's count, not ktop's: its anonymous memory (RssAnon) grew by no more than
#    8 MiB and 2 MiB of slack while it profiled (7.6 MiB measured; with --memory 64M the
#    same run grows by 14.5 MiB); under ASan, whose shadow and redzones add a quarter, by no
#    more than 10 MiB and 2 MiB (9.5 MiB measured).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../profile-lib.sh
. "$(dirname "$0")/../profile-lib.sh"
require_root_tracefs
require_profwork
require_python

start_profwork "$T/work.out" deep 600
# 4 s of its CPU at 999 Hz: about 4000 stacks of ~4 KiB, twice what 8 MiB holds
profile_cpu 4 "$T/out" "$T/err" -b --profile -F 999 -p "$PROFWORK_PID" --memory 8M --json
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC: $(head -c 400 "$T/err")"
_end_pid "$PROFWORK_PID"

python3 - "$T/out" <<'PY' || fail "$(head -c 300 "$T/out")"
import json, sys
p = [json.loads(l)["profile"] for l in open(sys.argv[1]) if l.startswith('{"profile"')][0]
kept = sum(s["count"] for s in p["stacks"])
print("profile_memory: samples=%d dropped_memory=%d bytes=%d stacks=%d deepest=%d" % (
    p["samples"], p["dropped_memory"], p["bytes"], len(p["stacks"]),
    max(len(s["frames"]) for s in p["stacks"])), file=sys.stderr)
assert kept == p["samples"], "stacks add up to %d, not samples=%d" % (kept, p["samples"])
assert p["dropped_memory"] > 0, "nothing dropped: the bound was never reached"
# the bound is checked before each new stack: the last one may go past it, by its nodes
assert p["bytes"] <= (8 << 20) + (64 << 10), "stacks hold %d bytes past --memory 8M" % p["bytes"]
assert p["samples"] + p["dropped_memory"] >= 1000, "too few samples to fill 8M"
PY
grown=$((PROFILE_ANON1 - PROFILE_ANON0))
limit=$(((8 + 2) * 1024))
nm -D "$KTOP" 2>/dev/null | grep -q ' __asan_init' && limit=$((8 * 1024 * 5 / 4 + 2 * 1024))
[ "$grown" -le "$limit" ] ||
	fail "ktop's RssAnon grew by $grown kB while profiling with --memory 8M (from $PROFILE_ANON0 kB; at most $limit)"
log "RssAnon grew $grown kB (from $PROFILE_ANON0 kB, at most $limit) with --memory 8M"

assert_clean
pass
