#!/bin/bash
# The on-CPU profile against a workload of known shape and against perf, on the real kernel:
#  - profwork split spends 70% of its CPU time in hot_seventy and 30% in hot_thirty (both
#    called from main, frame pointers): ktop -b --profile -p PID --folded gives each share
#    within 5 points, and 90 % to 110 % of 99 Hz over profwork's CPU time, by the kernel's
#    count (/proc/PID/stat): none lost, none counted twice;
#  - the same run under perf record -F 99 -g -p PID, perf script folded by a small awk (as
#    stackcollapse-perf folds it): the shares of ktop's top 10 functions are within 3 points
#    of perf's, or 4 standard errors of the difference of two sampled proportions where
#    that is more (two samplers of ~500 each: the syscall path's 2-5 % came out 5.80 % in
#    one and 2.05 % in the other, 29 against 10 samples of the same window); a function perf
#    names otherwise, or not at all, counts as 0 there, so frames ktop names differently
#    from perf fail this too (a 5 % one: 4 SE is 4 points);
#  - the stacks are folded as FlameGraph reads them: the task's name first, root to leaf,
#    a count; nothing else on stdout (--folded), the counts on stderr naming the event;
#  - a profile needs no tracefs: ktop made no instance, nothing of it is left.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../profile-lib.sh
. "$(dirname "$0")/../profile-lib.sh"
require_root_tracefs
require_profwork
command -v perf >/dev/null || fail "no perf (./dev installs linux-perf)"

CPU_SECS=${KTOP_PROFILE_SECS:-5}

# ktop and perf over the same window: until profwork ran CPU_SECS of CPU, however loaded
# the machine is
start_profwork "$T/work.out" split 60
perf record -q -F 99 -g -p "$PROFWORK_PID" -o "$T/perf.data" >"$T/perf.out" 2>&1 &
PERF_PID=$!
CLEANUP_PIDS+=("$PERF_PID")
STOP_ALSO=("$PERF_PID")
profile_cpu "$CPU_SECS" "$T/out" "$T/err" -b --profile -p "$PROFWORK_PID" --folded
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC: $(head -c 400 "$T/err")"
wait_pid_exit "$PERF_PID" 60 || fail "perf record still running"
# 130: ended by the SIGINT, as asked
[ "$WAIT_RC" = 0 ] || [ "$WAIT_RC" = 130 ] || fail "perf record exited $WAIT_RC: $(head -c 400 "$T/perf.out")"
_end_pid "$PROFWORK_PID"

# --folded: stacks only, "task;...;leaf COUNT"; the counts on stderr, one line
grep -Evq '^[^; ]+(;[^;]+)+ [0-9]+$' "$T/out" &&
	fail "not folded stacks: $(grep -Ev '^[^; ]+(;[^;]+)+ [0-9]+$' "$T/out" | head -3)"
grep -Eq '^ktop: profile: event=(cpu-clock|cycles) freq=99Hz unit=samples samples=[1-9]' \
	"$T/err" || fail "no counts line on stderr: $(head -c 400 "$T/err")"
[ "$(wc -l <"$T/err")" = 1 ] || fail "stderr is not one line: $(head -c 400 "$T/err")"
log "$(cat "$T/err")"

n=$(samples "$T/out" profwork)
# 99 Hz of cpu-clock over CPU_SECS of its CPU: a sample lost on the way shows here
[ "$n" -ge $((CPU_SECS * 99 * 9 / 10)) ] || fail "only $n samples of profwork in ${CPU_SECS}s of its CPU at 99 Hz"
samples_at_most "$n" "ktop"
s70=$(share "$T/out" profwork hot_seventy)
s30=$(share "$T/out" profwork hot_thirty)
log "ktop: $n samples, hot_seventy $s70%, hot_thirty $s30%"
awk -v a="$s70" -v b="$s30" 'BEGIN { exit !(a >= 65 && a <= 75 && b >= 25 && b <= 35) }' ||
	fail "shares $s70% / $s30%, not 70 / 30 within 5 points: $(head -5 "$T/out")"
grep -q '^profwork;__libc_start_call_main;main;hot_seventy [0-9]' "$T/out" ||
	fail "no root-to-leaf stack profwork;__libc_start_call_main;main;hot_seventy: $(head -3 "$T/out")"

perf script -i "$T/perf.data" 2>"$T/perf-script.err" | perf_folded >"$T/perf.folded"
[ -s "$T/perf.folded" ] || fail "perf script gave nothing: $(head -c 300 "$T/perf-script.err")"
function_shares "$T/out" profwork | head -10 >"$T/ktop.top"
function_shares "$T/perf.folded" profwork >"$T/perf.shares"
pn=$(samples "$T/perf.folded" profwork)
log "perf: $pn samples"
samples_at_most "$pn" "perf (the oracle's own check)"
while read -r pct fn; do
	theirs=$(awk -v f="$fn" '$2 == f { print $1; found = 1 } END { if (!found) print 0 }' \
		"$T/perf.shares")
	# the bound in points: 3, or 4 standard errors of the difference of the two shares
	bound=$(awk -v a="$pct" -v b="$theirs" -v n="$n" -v m="$pn" 'BEGIN {
		p = (a * n + b * m) / (100 * (n + m))
		se = 100 * sqrt(p * (1 - p) * (1 / n + 1 / m))
		printf "%.2f\n", (4 * se > 3) ? 4 * se : 3 }')
	log "  $fn: ktop $pct%, perf $theirs% (bound $bound points)"
	awk -v a="$pct" -v b="$theirs" -v d="$bound" 'BEGIN { exit !(a - b <= d && b - a <= d) }' ||
		fail "$fn: ktop $pct% against perf's $theirs% (more than $bound points apart)"
done <"$T/ktop.top"

assert_clean
pass
