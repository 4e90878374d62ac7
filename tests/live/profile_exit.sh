#!/bin/bash
# Processes that exit during the profile keep their names, on the real kernel:
#  - ktop -b --profile samples every CPU; meanwhile profwork short runs 40 processes one
#    after another, each a fresh exec named "profshort" (prctl) that burns 30 ms of CPU in
#    short_lived_burn and exits, most of them long gone before ktop reads their samples
#    (it drains its rings every 100 ms) and so before /proc could tell their mappings;
#  - their stacks are filed under "profshort" and at least 90% of their samples name
#    short_lived_burn: the executable's mapping and the name came in perf's side band
#    (mmap2, comm) as they happened;
#  - before its exec each burns as long in before_exec_burn under the name "profpre", and
#    at least 90% of those samples name it: ktop names a poll's samples at its end, so
#    those taken before an exec must be named before the exec's mappings replace theirs;
#  - --json gives the same as one object: event, unit, counts, stacks of named frames.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../profile-lib.sh
. "$(dirname "$0")/../profile-lib.sh"
require_root_tracefs
require_profwork
require_python

# profile_short FORMAT...: a system-wide profile around one run of the short-lived
# processes, its output in $T/out.
profile_short()
{
	start_ktop "$T/out" "$T/err" -b --profile --duration 60 "$@"
	wait_sampling "$KTOP_PID" "$T/err"
	"$KTOP_PROFWORK" short 40 30 >"$T/work.out" 2>&1 ||
		fail "profwork short failed: $(head -c 300 "$T/work.out")"
	stop_ktop "$KTOP_PID" INT 30
	[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC: $(head -c 400 "$T/err")"
}

profile_short --folded
n=$(samples "$T/out" profshort)
named=$(share "$T/out" profshort short_lived_burn)
log "$n samples of profshort, $named% in short_lived_burn; $(cat "$T/err")"
# 40 x 30 ms of CPU at 99 Hz: some 119 samples
[ "$n" -ge 60 ] || fail "only $n samples of the short-lived processes: $(grep -c . "$T/out") stacks"
awk -v s="$named" 'BEGIN { exit !(s >= 90) }' ||
	fail "only $named% of the short-lived processes' samples named short_lived_burn: $(grep '^profshort;' "$T/out" | sort -t' ' -k2 -nr | head -5)"
pre=$(samples "$T/out" profpre)
named=$(share "$T/out" profpre before_exec_burn)
log "$pre samples of profpre, $named% in before_exec_burn"
[ "$pre" -ge 60 ] || fail "only $pre samples before the execs: $(grep -c . "$T/out") stacks"
awk -v s="$named" 'BEGIN { exit !(s >= 90) }' ||
	fail "only $named% of the samples before an exec named before_exec_burn: $(grep '^profpre;' "$T/out" | sort -t' ' -k2 -nr | head -5)"
grep -q '^profshort;__libc_start_call_main;main;short_lived_burn [0-9]' "$T/out" ||
	fail "no stack profshort;__libc_start_call_main;main;short_lived_burn: $(grep '^profshort;' "$T/out" | head -3)"

profile_short --json
python3 - "$T/out" <<'PY' || fail "--json: $(head -c 600 "$T/out")"
import json, sys
lines = [l for l in open(sys.argv[1]) if l.strip()]
prof = [json.loads(l)["profile"] for l in lines if l.startswith('{"profile"')]
assert len(prof) == 1, "one profile object"
p = prof[0]
assert p["event"] in ("cpu-clock", "cycles"), p["event"]
assert p["unit"] == "samples" and p["freq"] == 99, (p["unit"], p["freq"])
assert p["samples"] == sum(s["count"] for s in p["stacks"]), "samples add up"
short = [s for s in p["stacks"] if s["frames"][0] == "profshort"]
total = sum(s["count"] for s in short)
named = sum(s["count"] for s in short if "short_lived_burn" in s["frames"])
assert total >= 60 and named >= 0.9 * total, (total, named)
assert all(isinstance(l, str) for s in p["stacks"] for l in s["frames"])
json.loads(lines[-1])["summary"]
PY

assert_clean
pass
