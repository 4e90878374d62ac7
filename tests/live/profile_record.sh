#!/bin/bash
# A profile kept in a recording and shown again, on the real kernel:
#  - ktop -b --profile --comm profwork -o FILE keeps the stacks in the trace.dat (ktop's own
#    option, which trace-cmd report skips: the file stays a trace.dat for it);
#  - ktop -b -i FILE --profile --folded prints exactly the folded stacks the live run
#    printed, and --json the same counts; and, by oracles outside ktop, what the file holds
#    is profwork split's: 90 % to 110 % of 99 Hz over its CPU time (/proc/PID/stat), 70 %
#    / 30 % in hot_seventy / hot_thirty within 5 points (what the workload does);
#  - -i --profile of a recording without a profile says so in one line.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../profile-lib.sh
. "$(dirname "$0")/../profile-lib.sh"
require_root_tracefs
require_profwork
require_python

record_profile 3
n=$PROFWORK_SAMPLES
[ "$n" -ge 60 ] || fail "only $n samples of profwork: $(head -c 300 "$T/live.err")"
samples_at_most "$n" "the live run"

run_ktop 60 "$T/again" "$T/again.err" -b -i "$T/p.dat" --profile --folded
[ "$KTOP_RC" = 0 ] || fail "ktop -i exited $KTOP_RC: $(head -c 400 "$T/again.err")"
cmp -s "$T/live" "$T/again" ||
	fail "-i gave other stacks: $(diff "$T/live" "$T/again" | head -6)"
grep -q "^ktop: profile: event=$(sed -n 's/^ktop: profile: event=\([^ ]*\) .*/\1/p' "$T/live.err") freq=99Hz unit=samples samples=$n " \
	"$T/again.err" || fail "-i's counts differ: $(head -c 300 "$T/again.err") / $(head -c 300 "$T/live.err")"
# the file against the workload and the kernel, not against the live run alone
n_file=$(samples "$T/again" profwork)
[ "$n_file" -ge $((3 * 99 * 9 / 10)) ] || fail "the file holds $n_file samples of profwork's 3 s of CPU at 99 Hz"
samples_at_most "$n_file" "the file"
s70=$(share "$T/again" profwork hot_seventy)
s30=$(share "$T/again" profwork hot_thirty)
awk -v a="$s70" -v b="$s30" 'BEGIN { exit !(a >= 65 && a <= 75 && b >= 25 && b <= 35) }' ||
	fail "the file's shares $s70% / $s30%, not profwork split's 70 / 30 within 5 points"
log "the file: $n_file samples, hot_seventy $s70%, hot_thirty $s30%"

run_ktop 60 "$T/json" "$T/json.err" -b -i "$T/p.dat" --profile --json
[ "$KTOP_RC" = 0 ] || fail "ktop -i --json exited $KTOP_RC: $(head -c 400 "$T/json.err")"
python3 - "$T/json" "$n" <<'PY' || fail "-i --json: $(head -c 400 "$T/json")"
import json, sys
p = [json.loads(l)["profile"] for l in open(sys.argv[1]) if l.startswith('{"profile"')][0]
assert p["samples"] == int(sys.argv[2]) == sum(s["count"] for s in p["stacks"]), p["samples"]
assert all(s["frames"][0] == "profwork" for s in p["stacks"])
PY

command -v trace-cmd >/dev/null || fail "no trace-cmd (./dev installs it)"
trace-cmd report "$T/p.dat" >"$T/report" 2>&1 ||
	fail "trace-cmd report refused the file: $(head -c 300 "$T/report")"

run_ktop 60 "$T/plain.out" "$T/plain.err" -b -e sched:sched_process_exec --duration 0.5 \
	-o "$T/plain.dat"
[ "$KTOP_RC" = 0 ] || fail "ktop -o without a profile exited $KTOP_RC: $(head -c 300 "$T/plain.err")"
run_ktop 60 "$T/none.out" "$T/none.err" -b -i "$T/plain.dat" --profile --folded
[ "$KTOP_RC" = 1 ] || fail "-i --profile of a file without one exited $KTOP_RC"
[ "$(cat "$T/none.err")" = "ktop: $T/plain.dat has no profile (ktop -b --profile -o FILE keeps one)" ] ||
	fail "no profile: '$(cat "$T/none.err")'"
[ ! -s "$T/none.out" ] || fail "no profile, yet stdout: $(head -c 200 "$T/none.out")"

assert_clean
pass
