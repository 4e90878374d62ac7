#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench, overview part (issue 32): what the overview costs to keep open, beside the
# tools it stands in for, on this machine as it is (no workload of ours): each of
#   ktop    ktop -b --top --interval 1 --duration D   (BPF: every hook, the syscalls' too)
#   proc    ktop -b --top=proc ...                     (no BPF: /proc per thread)
#   top     top -b -d 1 -n D
# runs D seconds (BENCH_OVERVIEW_SECONDS, default 10; start-up included: ktop loads and
# verifies its BPF object, which a longer D spreads) under tests/bench/rusage, BENCH_ROUNDS
# rounds in a rotating order, and the CPU each took is printed per second of its run (ms/s:
# 10 ms/s is 1 % of a core), median and range. The BPF hooks' own cost is in the traced
# tasks, not here (tests/bench/hist.sh measures a hook's slowdown of a syscall storm).
# Rows go to the targets table; the issue's target is "at most htop's at the same refresh",
# and htop, when installed, needs a terminal: top -b stands in for it. Never fails on numbers.
#
# Environment: KTOP, RUSAGE (set by make bench); BENCH_OVERVIEW_SECONDS, BENCH_ROUNDS,
# BENCH_TARGETS.

set -u
. "$(dirname "$0")/lib.sh"
KTOP=${KTOP-}
RUSAGE=${RUSAGE:?RUSAGE must name tests/bench/rusage}
SECS=${BENCH_OVERVIEW_SECONDS:-10}
ROUNDS=${BENCH_ROUNDS:-3}
TOOLS=(ktop proc top)
TMPD=$(mktemp -d /tmp/ktop-bench-overview.XXXXXX) || exit 1
trap 'rm -rf "$TMPD"' EXIT
bench_own_targets "$TMPD/targets"

say() { printf '%s\n' "$*"; }

# run TOOL FILE: the tool for SECS seconds under rusage, its cpu_us line into FILE.
run() {
	case $1 in
	ktop) "$RUSAGE" "$2" "$KTOP" -b --top --interval 1 --duration "$SECS" ;;
	proc) "$RUSAGE" "$2" "$KTOP" -b --top=proc --interval 1 --duration "$SECS" ;;
	top) "$RUSAGE" "$2" top -b -d 1 -n "$SECS" ;;
	esac >/dev/null 2>"$TMPD/err"
}

declare -A MS=()
say ""
say "== overview: CPU to keep a top open, ${SECS} s at a 1 s refresh, $ROUNDS rounds (ms of CPU per s)"
[ -n "$KTOP" ] || { target_row "overview idle CPU" - "<= top -b -d 1" "not measured (no ktop)"; exit 0; }
for ((r = 0; r < ROUNDS; r++)); do
	for t in $(rotated "$r" "${TOOLS[@]}"); do
		run "$t" "$TMPD/$t.$r" || { say "  $t: failed: $(head -c 200 "$TMPD/err")"; continue; }
		us=$(field cpu_us "$(cat "$TMPD/$t.$r")")
		MS[$t]+="$(awk -v us="$us" -v s="$SECS" 'BEGIN { printf "%.2f", us / 1000 / s }') "
	done
done
for t in "${TOOLS[@]}"; do
	# shellcheck disable=SC2086 # the rounds' figures, one word each
	say "  $(printf '%-5s' "$t") $(span %.2f ${MS[$t]:-}) ms/s"
done
# shellcheck disable=SC2086
k=$(med ${MS[ktop]:-})
# shellcheck disable=SC2086
p=$(med ${MS[top]:-})
if [ -n "$k" ] && [ -n "$p" ]; then
	target_row "overview idle CPU (ms/s)" "$k vs top $p" "<= top -b -d 1" "$(verdict "$k <= $p")"
fi
print_targets "$BENCH_OWN_TARGETS"
exit 0
