#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench, histogram part: what a syscall-latency histogram aggregated in the kernel
# costs the traced program. `workload rate 0 S` makes getppid() calls flat out on CPU 0
# for S seconds, with nothing attached, then under each of
#   ktop       ktop -b -q --hist syscall-latency (the variant it picks: tp_btf here)
#   ktop-tp    the same through plain tracepoints (via=tracepoint), bpftrace's own hooks
#   floor      tests/bench/hist_floor: a hand-written pair of tp_btf programs, start time in
#              task storage, one unkeyed log2 histogram in a per-CPU array (the plain way
#              to write it by hand; ktop's start in a per-CPU slot costs less)
#   hooks      tests/bench/hist_hooks: the same hooks (tp_btf) with empty programs but for a
#              count: what any histogram on them costs at least
#   hooks-tp   the same as plain tracepoint programs
#   hooks-clock the tp_btf hooks with the clock read at both ends, the start kept per CPU:
#              less than any latency histogram does (it keeps the start per thread)
#   bpftrace   the same histogram: raw_syscalls sys_enter/sys_exit, keyed by syscall,
#              log2 of the nanoseconds in between
#   ktop-arm   the flight recorder armed on every syscall (--arm 'syscall>1s', which never
#              fires here): its sys_enter/sys_exit hooks timing each call in task storage
# and once more with nothing attached; a round's baseline is the mean of its two bare runs.
# BENCH_ROUNDS rounds (3), the tools in a rotating order. Prints the calls per second of each
# (per second of the workload's own CPU time: on a VM the host takes CPUs away at will, and
# the calls in wall-clock seconds moved with it) and the slowdown (how much longer each call takes), medians with their range, and the
# targets' rows; never fails on the numbers.
#
# Environment: KTOP, WORKLOAD (set by make bench); HIST_FLOOR ("LOADER OBJECT") and HIST_HOOKS
# ("TP_BTF_OBJECT TRACEPOINT_OBJECT CLOCK_OBJECT"), set by make bench when BPF is built;
# BENCH_HIST_SECONDS (default 3); BENCH_ROUNDS; BENCH_TARGETS.

set -u
. "$(dirname "$0")/lib.sh"
KTOP=${KTOP-}
WORKLOAD=${WORKLOAD:?WORKLOAD must name tests/helpers/workload}
SECS=${BENCH_HIST_SECONDS:-3}
WL_CPU=0
TOOL_CPU=1
TMPD=$(mktemp -d /tmp/ktop-bench-hist.XXXXXX) || exit 1
TOOL=
declare -A RATE=()
read -r FLOOR_BIN FLOOR_OBJ <<<"${HIST_FLOOR:-}"
read -r HOOKS_OBJ HOOKS_TP_OBJ HOOKS_CLOCK_OBJ <<<"${HIST_HOOKS:-}"
bench_own_targets "$TMPD/targets"

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

# workload_rate NAME: runs the workload, records its calls per second of its CPU time.
workload_rate() {
	local out calls us
	out=$(WORKLOAD_CPU=$WL_CPU "$WORKLOAD" rate 0 "$SECS" ktop-bench-h 2>/dev/null)
	calls=$(sed -n 's/^calls=\([0-9]*\)$/\1/p' <<<"$out")
	us=$(sed -n 's/^cpu_us=\([0-9]*\)$/\1/p' <<<"$out")
	RATE[$1]=$(awk -v c="${calls:-0}" -v us="${us:-0}" 'BEGIN { printf "%.0f", (us > 0 ? c * 1e6 / us : 0) }')
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

# run_tool NAME ROUND: the workload under tool NAME, its rate in RATE[NAME:ROUND]; nothing
# when the tool is not there (NA[NAME] says why).
declare -A NA=()
run_tool() {
	local name=$1 r=$2
	case $name in
	ktop)
		[ -n "$KTOP" ] && [ -x "$KTOP" ] || { NA[$name]="no ktop"; return; }
		under "$name:$r" 'attached via' "$TMPD/$name:$r.log" \
			"$KTOP" -b -q -v --log "$TMPD/$name:$r.log" --hist syscall-latency
		;;
	ktop-tp)
		[ -n "$KTOP" ] && [ -x "$KTOP" ] || { NA[$name]="no ktop"; return; }
		under "$name:$r" 'attached via' "$TMPD/$name:$r.log" \
			"$KTOP" -b -q -v --log "$TMPD/$name:$r.log" --hist syscall-latency,via=tracepoint
		;;
	floor)
		[ -n "$FLOOR_BIN" ] && [ -x "$FLOOR_BIN" ] ||
			{ NA[$name]="not built (BPF disabled)"; return; }
		under "$name:$r" '^attached' "$TMPD/$name:$r.out" "$FLOOR_BIN" "$FLOOR_OBJ"
		;;
	hooks | hooks-tp | hooks-clock)
		local obj=$HOOKS_OBJ
		[ "$name" = hooks-tp ] && obj=$HOOKS_TP_OBJ
		[ "$name" = hooks-clock ] && obj=${HOOKS_CLOCK_OBJ-}
		[ -n "$FLOOR_BIN" ] && [ -x "$FLOOR_BIN" ] && [ -n "$obj" ] ||
			{ NA[$name]="not built (BPF disabled)"; return; }
		under "$name:$r" '^attached' "$TMPD/$name:$r.out" "$FLOOR_BIN" "$obj"
		;;
	ktop-arm)
		[ -n "$KTOP" ] && [ -x "$KTOP" ] || { NA[$name]="no ktop"; return; }
		under "$name:$r" '^ktop: armed' "$TMPD/$name:$r.err" \
			"$KTOP" -b -q --arm 'syscall>1s' --incidents "$TMPD/incidents" \
			-e sched:sched_process_exec
		;;
	bpftrace)
		command -v bpftrace >/dev/null ||
			{ NA[$name]="apt-get install bpftrace"; return; }
		under "$name:$r" 'Attaching' "$TMPD/$name:$r.out" bpftrace -e '
			tracepoint:raw_syscalls:sys_enter { @start[tid] = nsecs; }
			tracepoint:raw_syscalls:sys_exit /@start[tid]/ {
				@ns[args->id] = hist(nsecs - @start[tid]); delete(@start[tid]); }'
		;;
	esac
}

# The slowdown of each round under TOOL, in percent: base / rate - 1.
slowdowns() {
	local r out=''
	for ((r = 1; r <= ROUNDS; r++)); do
		out+="$(awk -v b="${BASE[$r]:-}" -v x="${RATE[$1:$r]:-}" 'BEGIN {
			print (b > 0 && x > 0) ? (b / x - 1) * 100 : "-" }') "
	done
	echo "$out"
}

[ "$(id -u)" = 0 ] || { warn "needs root"; exit 0; }
say "syscall-latency histogram: getppid() flat out on CPU $WL_CPU for ${SECS} s, tools on CPU $TOOL_CPU, $ROUNDS rounds"
TOOLS=(ktop ktop-tp floor hooks hooks-tp hooks-clock bpftrace ktop-arm)
declare -A BASE=()
for ((r = 1; r <= ROUNDS; r++)); do
	workload_rate "none1:$r"
	for t in $(rotated "$r" "${TOOLS[@]}"); do
		run_tool "$t" "$r"
	done
	workload_rate "none2:$r"
	BASE[$r]=$(awk "BEGIN { printf \"%.0f\", (${RATE[none1:$r]} + ${RATE[none2:$r]}) / 2 }")
done

printf '  %-12s %-30s %s\n' tool "calls/CPU s" "slowdown (how much longer a call takes)"
printf '  %-12s %-30s %s\n' none "$(span '%.0f' "${BASE[@]}")" "-"
for t in "${TOOLS[@]}"; do
	rates=()
	for ((r = 1; r <= ROUNDS; r++)); do
		rates+=("${RATE[$t:$r]:--}")
	done
	if [ -z "$(summ "${rates[@]}")" ]; then
		printf '  %-12s not available%s\n' "$t" "${NA[$t]:+: ${NA[$t]}}"
		continue
	fi
	# shellcheck disable=SC2046 # the rounds' figures are words
	printf '  %-12s %-30s %s\n' "$t" "$(span '%.0f' "${rates[@]}")" "$(span '%.0f' $(slowdowns "$t"))%"
done
say "  (baseline: the mean of the bare runs before and after each round's tools)"

# The targets' rows: ktop's slowdown, and beside it bpftrace's, the floor's and that of the
# empty hooks of the same kind. A target below what the empty hooks cost, or (tp_btf) what
# they cost with the two clock reads any latency needs, is out of reach of any latency
# histogram on them, and the row says so; the floor's figure is only beside it.
others=
for t in bpftrace floor; do
	# shellcheck disable=SC2046
	s=$(span '%.0f' $(slowdowns "$t"))
	others+="; $t $s%"
done
for t in ktop ktop-tp; do
	via=tp_btf hooks=hooks
	[ "$t" = ktop-tp ] && via=tracepoint hooks=hooks-tp
	row="syscall-latency histogram: slowdown of a getppid storm ($via)"
	# shellcheck disable=SC2046
	m=$(med $(slowdowns "$t"))
	if [ -z "$m" ]; then
		target_row "$row" - "<= 100%" "not measured (${NA[$t]:-ktop failed})"
		continue
	fi
	# shellcheck disable=SC2046
	h=$(med $(slowdowns "$hooks")) f=$(med $(slowdowns floor)) c='' clock=''
	if [ "$via" = tp_btf ]; then
		# shellcheck disable=SC2046
		c=$(med $(slowdowns hooks-clock)) clock="; with the clock $(span '%.0f' $(slowdowns hooks-clock))%"
	fi
	v=$(verdict "$m <= 100")
	# the issue's other reading of the target: >= 4x cheaper than bpftrace
	# shellcheck disable=SC2046
	b=$(med $(slowdowns bpftrace)) rel=''
	if [ -n "$b" ] && [ "$(verdict "$m > 0")" = met ]; then
		x=$(awk -v b="$b" -v m="$m" 'BEGIN { printf "%.1f", b / m }')
		rel="; ${x}x cheaper than bpftrace (>= 4x: $(verdict "$x >= 4"))"
	fi
	if [ "$v" != met ] && [ -n "$h" ] && [ "$(verdict "$h > 100")" = met ]; then
		v="NOT met: out of reach here (the empty $via hooks alone: $(printf %.0f "$h")%)"
	elif [ "$v" != met ] && [ -n "$c" ] && [ "$(verdict "$c > 100")" = met ]; then
		v="NOT met: out of reach here (the $via hooks and two clock reads alone: $(printf %.0f "$c")%)"
	elif [ "$v" != met ] && [ "$via" = tp_btf ] && [ -n "$f" ] &&
		[ "$(verdict "$f > 100")" = met ]; then
		# the floor is one hand-written design, not a bound: a figure, not a proof
		v="NOT met (the hand-written floor costs $(printf %.0f "$f")% too)"
	fi
	# shellcheck disable=SC2046
	target_row "$row" "$(span '%.0f' $(slowdowns "$t"))%$others; empty hooks $(span '%.0f' $(slowdowns "$hooks"))%$clock" \
		"<= 100%" "$v$rel"
done
[ -n "$BENCH_OWN_TARGETS" ] && print_targets "$BENCH_OWN_TARGETS"
exit 0
