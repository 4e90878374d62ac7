#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Issue 37's floor: ktop reading the memory-mapped ring buffer against the bare readers.
#
# Two readers at once, side by side as run.sh's (each on its own instance with the buffer a
# new instance gets, both on CPU 1, over one workload on CPU 0, so the host's speed cancels
# in their ratio), in four pairs per round:
#   bare-read  + ktop-mmap   tests/bench/bare_reader (splice) and ktop as it runs by default
#   bare-mmap  + ktop-mmap   bare_reader --mmap: the mapped floor
#   bare-read  + ktop-read   ktop --read-mode=read, the reader before the mapping
#   bare-read  + bare-mmap   the two floors
# at the maximum rate and at BENCH_MMAP_RATE (1 M calls/s); then the first two pairs at the
# maximum rate with a quarter of that buffer (issue 37: loss 0 wherever the bare readers lose
# 0 there too). CPU is the scheduler's, per
# event that reader read: while the workload ran (utime + stime before and after, start-up
# and exit left out: ktop parses event formats, bare does not) and, beside it, over the whole
# run (rusage). Loss is the kernel's (the instance's per_cpu stats: bare's lost=,
# ktop's lost=).
#
# Environment: KTOP, BARE, RUSAGE, WORKLOAD; BENCH_SECONDS (4), BENCH_ROUNDS (3),
# BENCH_MMAP_RATE (1000000). Rows join BENCH_TARGETS under run.sh; alone (make bench-mmap)
# it prints its own targets.

set -u
. "$(dirname "$0")/lib.sh"

TRACEFS=/sys/kernel/tracing
EVENT=raw_syscalls:sys_enter
SECS=${BENCH_SECONDS:-4}
RATE=${BENCH_MMAP_RATE:-1000000}
KTOP=${KTOP:?KTOP must name ktop}
BARE=${BARE:?BARE must name tests/bench/bare_reader}
RUSAGE=${RUSAGE:?RUSAGE must name tests/bench/rusage}
WORKLOAD=${WORKLOAD:?WORKLOAD must name tests/helpers/workload}
# The readers run until the workload is done and 1.3 s more, then get SIGINT: on a busy
# machine the workload's start can lag by seconds, past any fixed duration.
DUR=$((${SECS%.*} + 120))
PIN=(taskset -c 1)
TMPD=$(mktemp -d /tmp/kbench-mmap.XXXXXX) || exit 1
declare -A R=() # R[config:round:pair:tool:cpu|wcpu|events|lost], a config RATE/KB
declare -A JOBS=()

cleanup() {
	local pid dir
	trap - EXIT INT TERM
	for pid in $(jobs -p); do
		kill "$pid" 2>/dev/null
	done
	wait 2>/dev/null
	for dir in "$TRACEFS"/instances/kbench-mm-$$-*; do
		[ -d "$dir" ] && rmdir "$dir" 2>/dev/null
	done
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The buffer a new instance gets, kB per CPU: ktop is given the same.
default_kb() {
	local dir="$TRACEFS/instances/kbench-mm-$$-probe" kb
	mkdir "$dir" || return
	kb=$(cat "$dir/buffer_size_kb")
	rmdir "$dir"
	echo "${kb%% *}"
}
KB=$(default_kb)
QKB=$((KB / 4))
CONFIGS=("0/$KB" "$RATE/$KB" "0/$QKB")
BUF_KB=$KB # the buffer of the pair running now

# start TOOL TAG: the reader in the background under rusage, its output in TAG.out.
start() {
	local tool=$1 tag=$2
	local -a cmd
	case $tool in
	bare-read) cmd=("$BARE" --make "$BUF_KB" "$EVENT" "kbench-mm-$$-$tag" "$DUR") ;;
	bare-mmap) cmd=("$BARE" --mmap --make "$BUF_KB" "$EVENT" "kbench-mm-$$-$tag" "$DUR") ;;
	ktop-mmap) cmd=("$KTOP" -b -q -e "$EVENT" --duration "$DUR" --buffer-kb="$BUF_KB") ;;
	ktop-read) cmd=("$KTOP" -b -q -e "$EVENT" --duration "$DUR" --buffer-kb="$BUF_KB" --read-mode=read) ;;
	esac
	"$RUSAGE" "$TMPD/$tag.cpu" "${PIN[@]}" "${cmd[@]}" >"$TMPD/$tag.out" 2>&1 &
	JOBS[$tag]=$!
}

# tool_pid TAG: the reader started as TAG (taskset execs it, rusage's only child).
tool_pid() {
	pgrep -P "${JOBS[$1]}" | head -n 1
}

# cpu_ns TAG: the CPU nanoseconds the reader started as TAG has used so far (taskset execs
# the reader, rusage's only child): utime + stime of /proc/PID/stat, which keep the threads
# that have ended (schedstat's per-thread figures lose them), in clock ticks.
cpu_ns() {
	local pid
	pid=$(tool_pid "$1")
	[ -n "$pid" ] && awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); printf "%d", ($12 + $13) * 1e9 / hz }' "/proc/$pid/stat"
}

# pair CONFIG ROUND A B: A and B at once over one workload, CONFIG its RATE/KB.
pair() {
	local cfg=$1 round=$2 a=$3 b=$4 t out k rate=${1%/*}
	local -A w0 w1
	BUF_KB=${cfg#*/}
	start "$a" a
	start "$b" b
	sleep 0.7
	w0[a]=$(cpu_ns a) w0[b]=$(cpu_ns b)
	WORKLOAD_CPU=0 "$WORKLOAD" rate "$rate" "$SECS" kbench-wl >/dev/null || echo "bench: workload failed" >&2
	w1[a]=$(cpu_ns a) w1[b]=$(cpu_ns b)
	sleep 1.3
	kill -INT "$(tool_pid a)" "$(tool_pid b)" 2>/dev/null
	wait
	for t in a b; do
		k="$cfg:$round:$a+$b:$([ $t = a ] && echo "$a" || echo "$b")"
		out=$(grep 'events=' "$TMPD/$t.out" | tail -n 1)
		R[$k:events]=$(field events "$out")
		R[$k:lost]=$(field lost "$out")
		R[$k:cpu]=$(sed -n 's/^cpu_us=\([0-9]*\) .*/\1/p' "$TMPD/$t.cpu")
		[ -n "${w0[$t]}" ] && [ -n "${w1[$t]}" ] && R[$k:wcpu]=$(((w1[$t] - w0[$t]) / 1000))
		[ -n "${R[$k:events]}" ] || echo "bench: $a+$b: $t failed: $(head -c 200 "$TMPD/$t.out")" >&2
	done
}

PAIRS=("bare-read ktop-mmap" "bare-mmap ktop-mmap" "bare-read ktop-read" "bare-read bare-mmap")
# pairs CONFIG: the pairs a configuration runs (the quarter buffer: ktop beside each floor)
pairs() {
	if [ "${1#*/}" = "$QKB" ]; then
		printf '%s\n' "${PAIRS[@]:0:2}"
	else
		printf '%s\n' "${PAIRS[@]}"
	fi
}

# shown CONFIG: the configuration's name in the tables
shown() {
	local rate=${1%/*} kb=${1#*/}
	printf '%s' "$([ "$rate" = 0 ] && echo max || echo "$rate/s")"
	[ "$kb" = "$KB" ] || printf ', %s kB' "$kb"
}

# per_round CONFIG PAIR TOOL FIELD: the field over the rounds.
per_round() {
	local i out=
	for ((i = 1; i <= ROUNDS; i++)); do
		out+="${R[$1:$i:$2:$3:$4]:--} "
	done
	echo "$out"
}

# cpe CONFIG PAIR TOOL FIELD: CPU microseconds per event, per round; FIELD wcpu for the
# workload's window, cpu for the whole run.
cpe() {
	ratios "$(per_round "$1" "$2" "$3" "$4")" "$(per_round "$1" "$2" "$3" events)"
}

# xratio CONFIG A B FIELD: B's CPU per event over A's, side by side, per round.
xratio() {
	ratios "$(cpe "$1" "$2+$3" "$3" "$4")" "$(cpe "$1" "$2+$3" "$2" "$4")"
}

bench_own_targets "$TMPD/targets"
echo "mmap: $EVENT, the kernel's buffer for a new instance ($KB kB per CPU), ${SECS} s," \
	"$ROUNDS rounds, two readers side by side; then a quarter of the buffer ($QKB kB)" >&2
for cfg in "${CONFIGS[@]}"; do
	for ((i = 1; i <= ROUNDS; i++)); do
		while read -r p; do
			# shellcheck disable=SC2086 # a pair is two words
			pair "$cfg" "$i" $p
		done < <(pairs "$cfg")
	done
done

echo ""
echo "== the mapped ring buffer (issue 37), $KB kB per CPU: median (min-max) of $ROUNDS rounds"
echo "cpu us/event while the workload ran (whole run beside it), second/first side by side"
printf '%-16s %-20s %-26s %-26s %-26s %s\n' config pair "first" "second" "second/first" \
	"lost (first, second)"
for rate in "${CONFIGS[@]}"; do
	while read -r a b; do
		# shellcheck disable=SC2046 # the rounds' figures are words
		printf '%-16s %-20s %-26s %-26s %-26s %s, %s\n' "$(shown "$rate")" "$a+$b" \
			"$(span '%.3f' $(cpe "$rate" "$a+$b" "$a" wcpu)) ($(med $(cpe "$rate" "$a+$b" "$a" cpu) | xargs printf '%.3f'))" \
			"$(span '%.3f' $(cpe "$rate" "$a+$b" "$b" wcpu)) ($(med $(cpe "$rate" "$a+$b" "$b" cpu) | xargs printf '%.3f'))" \
			"$(span '%.2f' $(xratio "$rate" "$a" "$b" wcpu))x ($(med $(xratio "$rate" "$a" "$b" cpu) | xargs printf '%.2f')x)" \
			"$(span '%d' $(per_round "$rate" "$a+$b" "$a" lost))" \
			"$(span '%d' $(per_round "$rate" "$a+$b" "$b" lost))"
	done < <(pairs "$rate")
done

for rate in "${CONFIGS[@]}"; do
	shown=$([ "${rate%/*}" = 0 ] && echo "max rate" || echo "${rate%/*}/s")
	buf=$([ "${rate#*/}" = "$KB" ] && echo "default buffer" || echo "a quarter of the default buffer")
	x=$(xratio "$rate" bare-read ktop-mmap wcpu)
	# shellcheck disable=SC2046,SC2086
	target_row "CPU per event, ktop (mapped) / bare read() reader, $shown, $buf" \
		"$(span '%.2f' $x)x side by side, workload window (whole run $(span '%.2f' $(xratio "$rate" bare-read ktop-mmap cpu))x)" \
		"<= 0.8x" "$(verdict "$(med $x) <= 0.8")"
	x=$(xratio "$rate" bare-mmap ktop-mmap wcpu)
	# shellcheck disable=SC2046,SC2086
	target_row "CPU per event, ktop (mapped) / bare mapped reader, $shown, $buf" \
		"$(span '%.2f' $x)x side by side, workload window (whole run $(span '%.2f' $(xratio "$rate" bare-mmap ktop-mmap cpu))x)" \
		"<= 1.15x" "$(verdict "$(med $x) <= 1.15")"
	for floor in bare-mmap bare-read; do
		bl=$(per_round "$rate" "$floor+ktop-mmap" "$floor" lost)
		kl=$(per_round "$rate" "$floor+ktop-mmap" ktop-mmap lost)
		# shellcheck disable=SC2046,SC2086
		target_row "loss, ktop (mapped) beside the $floor reader, $shown, $buf" \
			"ktop $(span '%d' $kl), bare $(span '%d' $bl)" "0 where bare loses 0" \
			"$(verdict "$(summ $bl | cut -d' ' -f3) > 0 || $(summ $kl | cut -d' ' -f3) == 0")"
	done
done
[ -n "$BENCH_OWN_TARGETS" ] && print_targets "$BENCH_OWN_TARGETS"
exit 0
