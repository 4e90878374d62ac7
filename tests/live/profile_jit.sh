#!/bin/bash
# A JIT's code is named by its /tmp/perf-PID.map, on the real kernel:
#  - profwork jit copies a counting loop into anonymous executable memory, writes
#    /tmp/perf-PID.map naming that range "jitted_loop", and runs it;
#  - ktop -b --profile --comm jitwork (every CPU, the samples of that name kept: profwork
#    copied under a name no other test's workload has) files at
#    least 90% of the workload's samples under a leaf named jitted_loop, where without the
#    map they would be bare addresses;
#  - the samples of other tasks are counted as out of scope, not shown.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../profile-lib.sh
. "$(dirname "$0")/../profile-lib.sh"
require_root_tracefs
require_profwork
[ "$(uname -m)" = x86_64 ] || skip "profwork's JIT writes x86-64 code"

cp "$KTOP_PROFWORK" "$T/jitwork"
KTOP_PROFWORK=$T/jitwork
start_profwork "$T/work.out" jit 60
MAP=/tmp/perf-$PROFWORK_PID.map
[ -s "$MAP" ] || fail "profwork wrote no $MAP"
profile_cpu 2 "$T/out" "$T/err" -b --profile --comm jitwork
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC: $(head -c 400 "$T/err")"
_end_pid "$PROFWORK_PID"
rm -f "$MAP"

head -1 "$T/out" | grep -Eq '^# profile: event=(cpu-clock|cycles) freq=99Hz unit=samples ' ||
	fail "no '# profile:' header line: $(head -1 "$T/out")"
cut -d';' -f1 "$T/out" | grep -v '^#' | grep -vqx jitwork &&
	fail "--comm jitwork kept other tasks: $(grep -v '^#' "$T/out" | grep -v '^jitwork;' | head -3)"
n=$(samples "$T/out" jitwork)
[ "$n" -ge 60 ] || fail "only $n samples of jitwork in 2 s of its CPU"
leaf=$(awk '$0 !~ /^#/ { line = $0; sub(/ [0-9]+$/, "", line); m = split(line, f, ";")
	t += $NF; if (f[m] == "jitted_loop") j += $NF } END { printf "%.2f", 100 * j / t }' "$T/out")
log "$n samples, $leaf% with the leaf jitted_loop"
awk -v s="$leaf" 'BEGIN { exit !(s >= 90) }' ||
	fail "only $leaf% of the JIT's samples named by its map: $(sort -t' ' -k2 -nr "$T/out" | head -4)"
grep -Eq 'out_of_scope=[1-9]' "$T/out" ||
	fail "the other tasks' samples were not counted as out of scope: $(head -1 "$T/out")"

assert_clean
pass
