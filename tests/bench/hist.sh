#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench, histogram part: what a syscall-latency histogram aggregated in the kernel
# costs the traced program. `workload rate 0 S` makes getppid() calls flat out on CPU 0
# for S seconds, once with nothing attached, then under each of
#   ktop       ktop -b -q --hist syscall-latency (the variant it picks: tp_btf here)
#   ktop-tp    the same through plain tracepoints (via=tracepoint), bpftrace's own hooks
#   bpftrace   the same histogram: raw_syscalls sys_enter/sys_exit, keyed by syscall,
#              log2 of the nanoseconds in between
# and once more with nothing attached (the baseline is the mean of the two). Prints the
# calls per second of each and its ratio to the baseline; never fails on the numbers.
#
# Environment: KTOP, WORKLOAD (set by make bench); BENCH_HIST_SECONDS (default 3).

set -u
KTOP=${KTOP-}
WORKLOAD=${WORKLOAD:?WORKLOAD must name tests/helpers/workload}
SECS=${BENCH_HIST_SECONDS:-3}
WL_CPU=0
TOOL_CPU=1
TMPD=$(mktemp -d /tmp/ktop-bench-hist.XXXXXX) || exit 1
TOOL=
declare -A RATE=()

say() { printf '%s\n' "$*"; }
warn() { printf 'bench hist: %s\n' "$*" >&2; }

cleanup() {
	[ -n "$TOOL" ] && kill -INT "$TOOL" 2>/dev/null && wait "$TOOL" 2>/dev/null
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# wait_for FILE PATTERN SECS
wait_for() {
	local i
	for ((i = 0; i < $3 * 20; i++)); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# workload_rate NAME: runs the workload, records its calls per second.
workload_rate() {
	local out calls
	out=$(WORKLOAD_CPU=$WL_CPU "$WORKLOAD" rate 0 "$SECS" ktop-bench-h 2>/dev/null)
	calls=$(sed -n 's/^calls=\([0-9]*\).*/\1/p' <<<"$out")
	RATE[$1]=$(awk "BEGIN { printf \"%.0f\", ${calls:-0} / $SECS }")
}

# under NAME READY-PATTERN LOG COMMAND...: the workload while COMMAND runs (on CPU 1),
# once it printed READY-PATTERN into LOG.
under() {
	local name=$1 ready=$2 log=$3
	shift 3
	taskset -c "$TOOL_CPU" "$@" >"$TMPD/$name.out" 2>"$TMPD/$name.err" &
	TOOL=$!
	if ! wait_for "$log" "$ready" 30; then
		warn "$name did not start: $(head -c 300 "$TMPD/$name.err")"
		kill -INT "$TOOL" 2>/dev/null
		wait "$TOOL" 2>/dev/null
		TOOL=
		return 1
	fi
	workload_rate "$name"
	kill -INT "$TOOL"
	wait "$TOOL"
	TOOL=
}

[ "$(id -u)" = 0 ] || { warn "needs root"; exit 0; }
say "syscall-latency histogram: getppid() flat out on CPU $WL_CPU for ${SECS} s, tools on CPU $TOOL_CPU"
workload_rate none1
tools=()
if [ -n "$KTOP" ] && [ -x "$KTOP" ]; then
	under ktop 'attached via' "$TMPD/ktop.log" \
		"$KTOP" -b -q -v --log "$TMPD/ktop.log" --hist syscall-latency && tools+=(ktop)
	under ktop-tp 'attached via' "$TMPD/ktop-tp.log" \
		"$KTOP" -b -q -v --log "$TMPD/ktop-tp.log" --hist syscall-latency,via=tracepoint &&
		tools+=(ktop-tp)
else
	warn "no ktop: its rows say 'not available'"
fi
if command -v bpftrace >/dev/null; then
	under bpftrace 'Attaching' "$TMPD/bpftrace.out" bpftrace -e '
		tracepoint:raw_syscalls:sys_enter { @start[tid] = nsecs; }
		tracepoint:raw_syscalls:sys_exit /@start[tid]/ {
			@ns[args->id] = hist(nsecs - @start[tid]); delete(@start[tid]); }' &&
		tools+=(bpftrace)
else
	warn "no bpftrace (apt-get install bpftrace): its row says 'not available'"
fi
workload_rate none2
base=$(awk "BEGIN { printf \"%.0f\", (${RATE[none1]} + ${RATE[none2]}) / 2 }")

printf '  %-10s %14s %10s %10s\n' tool "calls/s" "of base" slowdown
printf '  %-10s %14s %10s %10s\n' none "$base" "1.000" "-"
for t in ktop ktop-tp bpftrace; do
	if [ -z "${RATE[$t]:-}" ]; then
		printf '  %-10s %14s\n' "$t" "not available"
		continue
	fi
	awk -v t="$t" -v r="${RATE[$t]}" -v b="$base" 'BEGIN {
		printf "  %-10s %14d %10.3f %9.1f%%\n", t, r, r / b, (b / r - 1) * 100 }'
done
if [ -n "${RATE[ktop]:-}" ] && [ -n "${RATE[bpftrace]:-}" ]; then
	awk -v k="${RATE[ktop]}" -v p="${RATE[bpftrace]}" 'BEGIN {
		printf "  ktop runs the workload at %.2fx the speed bpftrace leaves it (target: >= 1)\n", k / p }'
fi
say "  (baseline runs: ${RATE[none1]} and ${RATE[none2]} calls/s; slowdown: how much longer each call takes)"
exit 0
