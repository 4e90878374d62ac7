#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench: ktop against the tools a user would pick instead, on the same workload.
#
# For each configuration (max rate and a moderate rate with 64 MB per CPU, max rate with
# the default buffer) every tool reads raw_syscalls:sys_enter for the same time while
# `workload rate R S` makes getppid() calls on CPU 0; the tools run on CPU 1, BENCH_ROUNDS
# times (3), interleaved and in a rotating order; figures are medians with their range:
#   bare        tests/bench/bare_reader: splice + kbuffer, counts only (the limit); it makes
#               and removes its own instance, as ktop does
#   ktop        ktop -b -q -e raw_syscalls:sys_enter --duration D
#   trace_pipe  cat trace_pipe | wc -l
#   perf        perf record -e raw_syscalls:sys_enter --exclude-perf -a
# then idle ktop's CPU use and the time to ktop's first frame in tmux, the histograms
# (hist.sh), the 1 GiB recording (recording.sh), the path through an agent (remote.sh), and
# last the table of the targets.
# Numbers are printed beside targets; nothing here passes or fails on time. See README.md.
#
# CPU time is the scheduler's (tests/bench/rusage for a whole run, schedstat for the
# workload's window), never perf stat's task-clock: on a VM that counts the time the host took
# the CPU away. For the same reason the workload's rate is its calls per second of its own
# CPU time (it prints both), and the observer effect compares those.
#
# Environment: KTOP, BARE, RUSAGE, WORKLOAD (set by make bench; KTOP may be empty), and optionally
# BENCH_SECONDS (workload seconds per tool, default 4), BENCH_RATE (moderate rate, default
# 1000000 or a third of the measured maximum when the machine cannot do three times that),
# KTOP_BUFFER_OPT (how to give ktop a buffer size, %s standing for kB per CPU, e.g.
# "--buffer-kb=%s"; found in ktop --help by default), KTOP_HEADER_RE (what ktop's first frame shows, default "ktop"),
# BENCH_ONLY (a comma-separated subset of tools,idle,frame,hist,recording,mmap,remote), BENCH_IDLE_SECONDS
# (10), BENCH_ROUNDS (3); MKRECORDING and FIXTURES for the recording part.

set -u
. "$(dirname "$0")/lib.sh"

TRACEFS=/sys/kernel/tracing
EVENT_SYS=raw_syscalls
EVENT_NAME=sys_enter
EVENT="$EVENT_SYS:$EVENT_NAME"
SECS=${BENCH_SECONDS:-4}
PRE=0.7           # tool start -> workload start
POST=1.3          # workload end -> tool end (time to drain)
BIG_KB=65536
WL_CPU=0
TOOL_CPU=1
IDLE_SECS=${BENCH_IDLE_SECONDS:-10}
KTOP=${KTOP-}
BARE=${BARE:?BARE must name tests/bench/bare_reader}
RUSAGE=${RUSAGE:?RUSAGE must name tests/bench/rusage}
WORKLOAD=${WORKLOAD:?WORKLOAD must name tests/helpers/workload}
HEADER_RE=${KTOP_HEADER_RE:-ktop}

TMPD=
TMUX_USED=0
INSTANCES=()
KTOP_PIDS=()
declare -A R=()   # results: R[run:tool:field]

say() { printf '%s\n' "$*"; }
warn() { printf 'bench: %s\n' "$*" >&2; }
die() { warn "$*"; exit 1; }
tmx() { tmux -S "$TMPD/tmux.sock" "$@"; } # a private tmux server

# Every process below PID.
descendants() {
	local child
	for child in $(pgrep -P "$1" 2>/dev/null); do
		echo "$child"
		descendants "$child"
	done
}

# Whether PID runs (a zombie does not count).
alive() {
	local st
	read -r st 2>/dev/null <"/proc/$1/stat" || return 1
	[[ $st != *") Z "* ]]
}

# Stops everything this script started (tools, the workload, meters, pipelines): SIGTERM
# to the whole tree at once (time(1) and timeout(1) do not pass it on, so killing only
# the top would orphan the rest), then SIGKILL to what is still there after 3 s (perf
# record takes its time writing out).
kill_descendants() {
	local -a pids
	local pid try
	mapfile -t pids < <(descendants $$)
	[ "${#pids[@]}" -gt 0 ] || return 0
	kill "${pids[@]}" 2>/dev/null
	for try in $(seq 30); do
		for pid in "${pids[@]}"; do
			alive "$pid" && break
			pid=
		done
		[ -z "$pid" ] && break
		sleep 0.1
	done
	kill -KILL "${pids[@]}" 2>/dev/null
	wait 2>/dev/null
}

remove_instance() {
	local dir="$TRACEFS/instances/$1" try
	[ -d "$dir" ] || return 0
	echo 0 >"$dir/tracing_on" 2>/dev/null
	: >"$dir/set_event" 2>/dev/null
	for try in 1 2 3 4 5 6 7 8 9 10; do
		rmdir "$dir" 2>/dev/null && return 0
		sleep 0.1   # a reader that was just killed may still hold trace_pipe
		[ "$try" = 10 ] && warn "could not remove instance $1"
	done
	return 1
}

cleanup() {
	local name
	trap - EXIT INT TERM
	kill_descendants
	[ "$TMUX_USED" = 1 ] && tmx kill-server 2>/dev/null
	for name in "${INSTANCES[@]}"; do
		remove_instance "$name"
	done
	[ -n "$TMPD" ] && rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# awk arithmetic: calc FORMAT EXPR (one expression; comparisons and ?: are fine)
calc() {
	awk "BEGIN { printf \"$1\", ($2) }"
}

# ---------------------------------------------------------------- preconditions

[ "$(id -u)" = 0 ] || die "needs root (tracefs instances, perf -a)"
if [ ! -d "$TRACEFS/instances" ]; then
	mount -t tracefs nodev "$TRACEFS" 2>/dev/null || die "no tracefs at $TRACEFS"
fi
[ -d "$TRACEFS/events/$EVENT_SYS/$EVENT_NAME" ] || die "no $EVENT tracepoint"
[ -x "$BARE" ] || die "$BARE is not built"
[ -x "$WORKLOAD" ] || die "$WORKLOAD is not built"
case $SECS in '' | *[!0-9.]*) die "BENCH_SECONDS must be a number" ;; esac

[ -x "$RUSAGE" ] || die "$RUSAGE is not built"
HAVE_PERF=0
command -v perf >/dev/null 2>&1 && HAVE_PERF=1
HAVE_TMUX=0
command -v tmux >/dev/null 2>&1 && HAVE_TMUX=1
TOOL_PIN=()
WL_ENV=(env "WORKLOAD_CPU=$WL_CPU")
if [ "$(nproc --all)" -ge 2 ]; then
	TOOL_PIN=(taskset -c "$TOOL_CPU")
else
	warn "one CPU only: the tools and the workload share it"
fi
KTOP_NA=
if [ -z "$KTOP" ]; then
	KTOP_NA="ktop not built"
elif [ ! -x "$KTOP" ]; then
	KTOP_NA="no $KTOP"
fi

TMPD=$(mktemp -d /tmp/kbench.XXXXXX) || die "mktemp failed"
SET_EVENT_BEFORE=$(cat "$TRACEFS/set_event")

DUR=$(calc '%.1f' "$PRE + $SECS + $POST")

# ---------------------------------------------------------------- helpers

# make_instance NAME BUFFER_KB(empty = kernel default)
make_instance() {
	local dir="$TRACEFS/instances/$1"
	INSTANCES+=("$1")
	mkdir "$dir" || return 1
	if [ -n "$2" ]; then
		echo "$2" >"$dir/buffer_size_kb" || return 1
	fi
	echo 1 >"$dir/events/$EVENT_SYS/$EVENT_NAME/enable" || return 1
}

# Stops recording as soon as the tool is done, so that what is left unread is the tool's
# backlog and not this script's own system calls.
stop_instance() {
	echo 0 >"$TRACEFS/instances/$1/tracing_on"
}

# Sums a field of per_cpu/cpu*/stats: stat_sum NAME "overrun" ...
stat_sum() {
	local dir="$TRACEFS/instances/$1"
	shift
	local f total=0 key v
	for f in "$dir"/per_cpu/cpu*/stats; do
		for key in "$@"; do
			v=$(sed -n "s/^$key: *\\([0-9]*\\).*/\\1/p" "$f")
			total=$((total + ${v:-0}))
		done
	done
	echo "$total"
}

# wl_calls OUT: the calls= count of the workload's output OUT; its CPU seconds (cpu_us=) go
# to $TMPD/wlcpu, for wl_cpu.
wl_calls() {
	sed -n 's/^cpu_us=\([0-9]*\)$/\1/p' <<<"$1" | awk '{ printf "%.6f", $1 / 1e6 }' >"$TMPD/wlcpu"
	sed -n 's/^calls=\([0-9]*\)$/\1/p' <<<"$1"
}
# wl_cpu: the CPU seconds of the workload that wl_calls last read.
wl_cpu() { cat "$TMPD/wlcpu"; }

# Runs the workload in the foreground after PRE seconds; prints its calls= count.
workload() {
	local rate=$1 out
	sleep "$PRE"
	out=$("${WL_ENV[@]}" "$WORKLOAD" rate "$rate" "$SECS" kbench-wl) || warn "workload failed"
	wl_calls "$out"
}

# The CPU nanoseconds the process named COMM below JOB (all its threads) has used so far,
# from /proc/PID/task/*/schedstat; nothing when there is no such process.
tool_cpu_ns() {
	local pid
	for pid in $(descendants "$1"); do
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] || continue
		cat "/proc/$pid"/task/*/schedstat 2>/dev/null | awk '{ t += $1 } END { printf "%d", t }'
		return
	done
}

# workload_window RATE JOB COMM: the workload, as workload(); the CPU the tool (COMM below
# JOB) used while it ran, start-up and exit excluded, goes to $TMPD/window (seconds, or
# empty).
workload_window() {
	local rate=$1 job=$2 comm=$3 out t0 t1
	sleep "$PRE"
	t0=$(tool_cpu_ns "$job" "$comm")
	out=$("${WL_ENV[@]}" "$WORKLOAD" rate "$rate" "$SECS" kbench-wl) || warn "workload failed"
	t1=$(tool_cpu_ns "$job" "$comm")
	if [ -n "$t0" ] && [ -n "$t1" ]; then
		calc '%.4f' "($t1 - $t0) / 1e9" >"$TMPD/window"
	else
		: >"$TMPD/window"
	fi
	wl_calls "$out"
}

# timed FILE CMD...: runs CMD, keeping the caller's stdout and stderr, and notes in FILE.*
# its CPU time and peak RSS (tests/bench/rusage: CMD and all it starts, threads included,
# to the microsecond, steal left out) and the wall-clock time in ms.
timed() {
	local file=$1 start
	shift
	start=${EPOCHREALTIME/./}
	"$RUSAGE" "$file.cpu" "$@"
	echo $(((${EPOCHREALTIME/./} - start) / 1000)) >"$file.wall"
}

# The CPU ms in a timed() FILE.cpu, less what starting the command costs (LAUNCH_MS).
cpu_ms_of() {
	local ms
	ms=$(sed -n 's/^cpu_us=\([0-9]*\) .*/\1/p' "$1.cpu" 2>/dev/null)
	[ -n "$ms" ] && calc '%.3f' "$ms / 1000 > $LAUNCH_MS ? $ms / 1000 - $LAUNCH_MS : 0"
}

# Stores the figures timed() noted in FILE for run:tool: cpu (s), rss (kB), wall (s).
store_time() {
	local key=$1 file=$2 ms kb
	ms=$(cpu_ms_of "$file")
	[ -n "$ms" ] && R[$key:cpu]=$(calc '%.4f' "$ms / 1000")
	kb=$(sed -n 's/.* maxrss_kb=\([0-9]*\)$/\1/p' "$file.cpu" 2>/dev/null)
	[ -n "$kb" ] && R[$key:rss]=$kb
	[ -s "$file.wall" ] && R[$key:wall]=$(calc '%.3f' "$(cat "$file.wall") / 1000")
}

# What timed() costs around a command that does nothing: the cheapest of three.
measure_launch() {
	local i ms best=
	LAUNCH_MS=0
	for i in 1 2 3; do
		timed "$TMPD/launch$i" "${TOOL_PIN[@]}" true
		ms=$(cpu_ms_of "$TMPD/launch$i")
		[ -n "$ms" ] || continue
		if [ -z "$best" ] || [ "$(calc '%d' "$ms < $best")" = 1 ]; then
			best=$ms
		fi
	done
	LAUNCH_MS=${best:-0}
}

# ---------------------------------------------------------------- the tools

run_bare() {
	local run=$1 rate=$2 kb=$3 name="kbench-bare-$$" job out calls rc
	# bare_reader makes its instance and removes it, as ktop does: both pay the kernel for
	# allocating and freeing the buffer (tens of ms at 64 MB per CPU)
	INSTANCES+=("$name")
	timed "$TMPD/bare.time" "${TOOL_PIN[@]}" "$BARE" --make "${kb:--}" "$EVENT" "$name" "$DUR" \
		>"$TMPD/bare.out" &
	job=$!
	calls=$(workload_window "$rate" "$job" bare_reader)
	R[$run:bare:wcpu]=$(cat "$TMPD/window")
	wait "$job"
	rc=$?
	out=$(cat "$TMPD/bare.out")
	R[$run:bare:calls]=$calls
	R[$run:bare:wlcpu]=$(wl_cpu)
	R[$run:bare:events]=$(field events "$out")
	R[$run:bare:lost]=$(field lost "$out")
	R[$run:bare:unread]=$(field unread "$out")
	R[$run:bare:note]="kbuffer missed=$(field missed "$out")"
	store_time "$run:bare" "$TMPD/bare.time"
	[ -n "${R[$run:bare:events]}" ] || R[$run:bare:na]="bare_reader failed (exit $rc): $out"
	remove_instance "$name" # only if bare_reader could not
}

# ktop_buffer_opt KB: the option that gives ktop KB per CPU, from KTOP_BUFFER_OPT (a
# template where %s stands for KB) or from what ktop --help offers; empty if neither.
ktop_buffer_opt() {
	local kb=$1 help
	if [ -n "${KTOP_BUFFER_OPT+x}" ]; then
		[ -n "$KTOP_BUFFER_OPT" ] && echo "${KTOP_BUFFER_OPT//%s/$kb}"
		return
	fi
	help=$("$KTOP" --help 2>&1)
	if grep -q -- '--buffer-kb' <<<"$help"; then
		echo "--buffer-kb=$kb"
	elif grep -q -- '--buffer-size' <<<"$help"; then
		echo "--buffer-size=${kb}k"
	fi
}

run_ktop() {
	local run=$1 rate=$2 kb=${3:-$DEFAULT_KB} job calls line opt rc
	local -a args=(-b -q -e "$EVENT" --duration "$DUR")
	if [ -n "$KTOP_NA" ]; then
		R[$run:ktop:na]=$KTOP_NA
		return
	fi
	# The same buffer as the others: 64 MB, or the kernel's default for a new instance.
	opt=$(ktop_buffer_opt "$kb")
	if [ -n "$opt" ] && [ -n "$kb" ]; then
		args+=("$opt")
		R[$run:ktop:note]=$opt
	else
		R[$run:ktop:note]="ktop's own buffer size (no buffer option in --help)"
	fi
	timed "$TMPD/ktop.time" "${TOOL_PIN[@]}" "$KTOP" "${args[@]}" >"$TMPD/ktop.out" 2>&1 &
	job=$!
	calls=$(workload_window "$rate" "$job" "$(basename "$KTOP" | cut -c1-15)")
	R[$run:ktop:wcpu]=$(cat "$TMPD/window")
	mapfile -t -O "${#KTOP_PIDS[@]}" KTOP_PIDS < <(descendants "$job")
	wait "$job"
	rc=$?
	line=$(grep 'events=' "$TMPD/ktop.out" | tail -n 1)
	if [ -z "$line" ]; then
		R[$run:ktop:na]="exit $rc: $(head -c 120 "$TMPD/ktop.out" | tr '\n' ' ')"
		return
	fi
	R[$run:ktop:calls]=$calls
	R[$run:ktop:wlcpu]=$(wl_cpu)
	R[$run:ktop:events]=$(field events "$line")
	R[$run:ktop:lost]=$(field lost "$line")
	R[$run:ktop:unread]=-
	store_time "$run:ktop" "$TMPD/ktop.time"
	[ "$rc" = 0 ] || R[$run:ktop:note]="exit status $rc; ${R[$run:ktop:note]-}"
}

run_trace_pipe() {
	local run=$1 rate=$2 kb=$3 name="kbench-pipe-$$" dir job calls rc
	dir="$TRACEFS/instances/$name"
	make_instance "$name" "$kb" || { R[$run:trace_pipe:na]="cannot set up instance"; return; }
	# Neither cat nor wc is traced: each writes its pid to set_event_notrace_pid first.
	# shellcheck disable=SC2016 # $$ and $1 are the inner shell's
	(
		timed "$TMPD/pipe.time" "${TOOL_PIN[@]}" timeout "$DUR" \
			sh -c 'echo $$ >>"$1/set_event_notrace_pid"; exec cat "$1/trace_pipe"' sh "$dir" |
			"${TOOL_PIN[@]}" sh -c 'echo $$ >>"$1/set_event_notrace_pid"; exec wc -l' sh "$dir" \
				>"$TMPD/pipe.out"
	) &
	job=$!
	calls=$(workload "$rate")
	wait "$job"
	rc=$?
	stop_instance "$name"
	R[$run:trace_pipe:calls]=$calls
	R[$run:trace_pipe:wlcpu]=$(wl_cpu)
	R[$run:trace_pipe:events]=$(tr -d ' ' <"$TMPD/pipe.out")
	[ -n "${R[$run:trace_pipe:events]}" ] || R[$run:trace_pipe:na]="cat|wc failed (exit $rc)"
	R[$run:trace_pipe:lost]=$(stat_sum "$name" overrun "dropped events")
	R[$run:trace_pipe:unread]=$(stat_sum "$name" entries)
	store_time "$run:trace_pipe" "$TMPD/pipe.time"
	remove_instance "$name"
}

# perf_stat_of KIND: "KIND events: N" from the "$EVENT stats:" block of perf report --stats.
perf_stat_of() {
	awk -v block="$EVENT stats:" -v kind="$1" '
		/ stats:$/ { mine = ($1 " " $2 == block) }
		mine && $1 == kind && $2 == "events:" { print $3; exit }'
}

run_perf() {
	local run=$1 rate=$2 kb=$3 job calls data="$TMPD/perf.data" stats rc
	local -a mopt=()
	if [ "$HAVE_PERF" = 0 ]; then
		R[$run:perf:na]="perf not installed"
		return
	fi
	[ -n "$kb" ] && mopt=(-m "$((kb / 1024))M")
	timed "$TMPD/perf.time" "${TOOL_PIN[@]}" perf record -q -e "$EVENT" --exclude-perf -a \
		"${mopt[@]}" -o "$data" -- sleep "$DUR" >"$TMPD/perf.out" 2>&1 &
	job=$!
	calls=$(workload "$rate")
	wait "$job"
	rc=$?
	stats=$(perf report -i "$data" --stats 2>/dev/null)
	rm -f "$data" "$data.old"
	# The block of our event (not perf's dummy event) counts the samples written and the
	# samples the kernel could not write (LOST_SAMPLES, the sum over the LOST records).
	R[$run:perf:calls]=$calls
	R[$run:perf:wlcpu]=$(wl_cpu)
	R[$run:perf:events]=$(perf_stat_of "SAMPLE" <<<"$stats")
	R[$run:perf:lost]=$(perf_stat_of "LOST_SAMPLES" <<<"$stats")
	R[$run:perf:lost]=${R[$run:perf:lost]:-0}
	R[$run:perf:unread]=-
	R[$run:perf:note]="LOST records: $(awk '/^ *LOST events:/ { print $3 }' <<<"$stats")"
	[ "${R[$run:perf:note]}" = "LOST records: " ] && R[$run:perf:note]=
	store_time "$run:perf" "$TMPD/perf.time"
	[ -n "${R[$run:perf:events]}" ] ||
		R[$run:perf:na]="perf failed (exit $rc): $(head -c 120 "$TMPD/perf.out" | tr '\n' ' ')"
}

TOOLS=(bare ktop trace_pipe perf)

# run_side_by_side RUN RATE BUFFER_KB: bare and ktop at once, each on its own instance (the
# kernel writes every event into both), on the same CPU, over the same workload; each one's
# CPU (rusage over its whole run, schedstat while the workload ran) per event it read. Run
# apart, the two figures come from runs tens of seconds apart, and the host's speed moves
# between them: on this VM a round's ratio went from 1.05 to 1.49 where side by side four
# rounds gave 1.12-1.17. The targets row's figure is this one, whole run. Into
# R[RUN:sbs:bare|ktop:cpu|wcpu|events].
run_side_by_side() {
	local run=$1 rate=$2 kb=$3 name="kbench-sbs-$$" opt jb jk b0 k0 b1 k1 line comm
	local -a args=(-b -q -e "$EVENT" --duration "$DUR")
	[ -z "$KTOP_NA" ] || return
	comm=$(basename "$KTOP" | cut -c1-15)
	opt=$(ktop_buffer_opt "$kb")
	[ -n "$opt" ] && [ -n "$kb" ] && args+=("$opt")
	INSTANCES+=("$name")
	timed "$TMPD/sbs-bare.time" "${TOOL_PIN[@]}" "$BARE" --make "${kb:--}" "$EVENT" "$name" \
		"$DUR" >"$TMPD/sbs-bare.out" &
	jb=$!
	timed "$TMPD/sbs-ktop.time" "${TOOL_PIN[@]}" "$KTOP" "${args[@]}" >"$TMPD/sbs-ktop.out" 2>&1 &
	jk=$!
	sleep "$PRE"
	mapfile -t -O "${#KTOP_PIDS[@]}" KTOP_PIDS < <(descendants "$jk")
	b0=$(tool_cpu_ns "$jb" bare_reader)
	k0=$(tool_cpu_ns "$jk" "$comm")
	"${WL_ENV[@]}" "$WORKLOAD" rate "$rate" "$SECS" kbench-wl >/dev/null || warn "workload failed"
	b1=$(tool_cpu_ns "$jb" bare_reader)
	k1=$(tool_cpu_ns "$jk" "$comm")
	wait "$jb" "$jk"
	remove_instance "$name" # only if bare_reader could not
	line=$(grep 'events=' "$TMPD/sbs-ktop.out" | tail -n 1)
	R[$run:sbs:bare:events]=$(field events "$(cat "$TMPD/sbs-bare.out")")
	R[$run:sbs:ktop:events]=$(field events "$line")
	[ -n "$b0" ] && [ -n "$b1" ] && R[$run:sbs:bare:wcpu]=$(calc '%.4f' "($b1 - $b0) / 1e9")
	[ -n "$k0" ] && [ -n "$k1" ] && R[$run:sbs:ktop:wcpu]=$(calc '%.4f' "($k1 - $k0) / 1e9")
	store_time "$run:sbs:bare" "$TMPD/sbs-bare.time"
	store_time "$run:sbs:ktop" "$TMPD/sbs-ktop.time"
}

# The buffer a new instance gets (the "default buffer" configuration), in kB per CPU.
default_kb() {
	local name="kbench-probe-$$"
	make_instance "$name" "" || return
	cat "$TRACEFS/instances/$name/buffer_size_kb"
	remove_instance "$name"
}

# run_config RUN RATE BUFFER_KB: ROUNDS rounds, every tool once per round, the order rotated;
# round i's figures are under R[RUN:i:tool:...].
run_config() {
	local run=$1 rate=$2 kb=$3 shown=$2 i t
	[ "$rate" = 0 ] && shown=max
	say "  $run: workload rate $shown, ${SECS} s; buffer ${kb:-default} kB/CPU, $ROUNDS rounds ..." >&2
	for ((i = 1; i <= ROUNDS; i++)); do
		for t in $(rotated "$i" "${TOOLS[@]}"); do
			"run_$t" "$run:$i" "$rate" "$kb"
		done
		run_side_by_side "$run:$i" "$rate" "$kb"
		# the observer effect: ktop between two bare runs (ABA), as the histograms do
		if [ "$run" = max ]; then
			run_bare "$run:$i:obs1" "$rate" "$kb"
			run_ktop "$run:$i:obs" "$rate" "$kb"
			run_bare "$run:$i:obs2" "$rate" "$kb"
		fi
	done
}

# ---------------------------------------------------------------- the table

# per_round RUN TOOL FIELD: the field of every round, space-separated ("-" where missing).
per_round() {
	local i k out=
	for ((i = 1; i <= ROUNDS; i++)); do
		k="$1:$i:$2"
		if [ -n "${R[$k:na]-}" ]; then
			out+="- "
		else
			out+="${R[$k:$3]:--} "
		fi
	done
	echo "$out"
}

# cpe_rounds RUN TOOL: CPU seconds per million events (microseconds per event), per round.
cpe_rounds() {
	ratios "$(per_round "$1" "$2" cpu | awk '{ for (i = 1; i <= NF; i++)
		printf "%s ", $i == "-" ? "-" : $i * 1e6 }')" "$(per_round "$1" "$2" events)"
}

# wlrate_rounds RUN TOOL: the workload's calls per second of its own CPU time, per round:
# what a call cost it, whatever time the host took its CPU away.
wlrate_rounds() {
	ratios "$(per_round "$1" "$2" calls)" "$(per_round "$1" "$2" wlcpu)"
}

# wcpe_rounds RUN TOOL: CPU microseconds per workload call while the workload ran (the
# tool's start-up and exit left out), per round; bare and ktop only.
wcpe_rounds() {
	ratios "$(per_round "$1" "$2" wcpu | awk '{ for (i = 1; i <= NF; i++)
		printf "%s ", $i == "-" ? "-" : $i * 1e6 }')" "$(per_round "$1" "$2" calls)"
}

# sbs_rounds RUN FIELD: ktop's CPU per event over bare's, side by side (run_side_by_side),
# per round; FIELD cpu for the whole runs, wcpu for the workload's window.
sbs_rounds() {
	ratios "$(ratios "$(per_round "$1" sbs:ktop "$2")" "$(per_round "$1" sbs:bare "$2")")" \
		"$(ratios "$(per_round "$1" sbs:ktop events)" "$(per_round "$1" sbs:bare events)")"
}

# Prints one configuration's table and ktop's targets.
report_config() {
	local run=$1 title=$2 t ev lost calls cpe pipe_evs na i note
	# shellcheck disable=SC2046 # the rounds' figures are words
	pipe_evs=$(med $(per_round "$run" trace_pipe events))
	say ""
	say "== $title"
	say "   medians of $ROUNDS rounds, (min-max) where they differ; x: per-round ratio to bare"
	printf '%-10s %-24s %-24s %-20s %-12s %-9s %-9s %-22s %-20s %-7s %-6s %s\n' tool "wl M calls" \
		"wl M calls/CPU s" "x bare (observer)" "events M" "lost%" "unread" "cpu us/event" "x bare (cpu/event)" \
		"RSS MB" "xpipe" "x bare (cpu/call, workload window)"
	for t in "${TOOLS[@]}"; do
		calls=$(per_round "$run" "$t" calls)
		ev=$(per_round "$run" "$t" events)
		if [ -z "$(summ $ev)" ]; then
			na=
			for ((i = 1; i <= ROUNDS; i++)); do
				[ -n "${R[$run:$i:$t:na]-}" ] && na=${R[$run:$i:$t:na]}
			done
			printf '%-10s not available: %s\n' "$t" "${na:-no result}"
			continue
		fi
		lost=$(per_round "$run" "$t" lost)
		cpe=$(cpe_rounds "$run" "$t")
		# shellcheck disable=SC2046,SC2086 # the rounds' figures are words
		printf '%-10s %-24s %-24s %-20s %-12s %-9s %-9s %-22s %-20s %-7s %-6s %s\n' "$t" \
			"$(span '%.2f' $(ratios "$calls" "$(yes 1000000 | head -n "$ROUNDS" | tr '\n' ' ')"))" \
			"$(span '%.2f' $(ratios "$(wlrate_rounds "$run" "$t")" "$(yes 1000000 | head -n "$ROUNDS" | tr '\n' ' ')"))" \
			"$(span '%.2f' $(ratios "$(wlrate_rounds "$run" "$t")" "$(wlrate_rounds "$run" bare)"))" \
			"$(span '%.2f' $(ratios "$ev" "$(yes 1000000 | head -n "$ROUNDS" | tr '\n' ' ')"))" \
			"$(span '%.2f' $(awk -v l="$lost" -v e="$ev" 'BEGIN { n = split(l, a, " "); split(e, b, " ")
				for (i = 1; i <= n; i++) printf "%s ", (a[i] ~ /^[0-9]+$/ && b[i] ~ /^[0-9]+$/ && a[i] + b[i] > 0) ? 100 * a[i] / (a[i] + b[i]) : (a[i] == "0" ? 0 : "-") }'))" \
			"$(span '%d' $(per_round "$run" "$t" unread))" \
			"$(span '%.3f' $cpe)" \
			"$(span '%.2f' $(ratios "$cpe" "$(cpe_rounds "$run" bare)"))" \
			"$(span '%.0f' $(per_round "$run" "$t" rss | awk '{ for (i = 1; i <= NF; i++) printf "%s ", $i == "-" ? "-" : $i / 1024 }'))" \
			"$( [ -n "$pipe_evs" ] && [ "$t" != trace_pipe ] &&
				span '%.1f' $(ratios "$ev" "$(yes "$pipe_evs" | head -n "$ROUNDS" | tr '\n' ' ')") || echo -)" \
			"$(span '%.2f' $(ratios "$(wcpe_rounds "$run" "$t")" "$(wcpe_rounds "$run" bare)"))"
		note=
		for ((i = 1; i <= ROUNDS; i++)); do
			[ -n "${R[$run:$i:$t:note]-}" ] && note=${R[$run:$i:$t:note]}
		done
		[ -n "$note" ] && printf '%-10s   (%s)\n' "" "$note"
	done
	report_targets "$run"
}

# report_targets RUN: the loss and trace_pipe targets under the table; the observer effect and
# CPU per event go to the targets table.
report_targets() {
	local run=$1 lost bare_lost ev pipe x cpe sbs
	# shellcheck disable=SC2046 # the rounds' figures are words
	ev=$(med $(per_round "$run" ktop events))
	if [ -z "$ev" ]; then
		say "targets: ktop not available"
		return
	fi
	# shellcheck disable=SC2046
	lost=$(span '%d' $(per_round "$run" ktop lost))
	# shellcheck disable=SC2046
	bare_lost=$(span '%d' $(per_round "$run" bare lost))
	if [ "$bare_lost" = 0 ]; then
		say "target: zero loss where bare has none ......... ktop lost $lost $( [ "$lost" = 0 ] && echo '(met)' || echo '(NOT met)')"
	else
		say "target: zero loss where bare has none ......... bare lost too ($bare_lost); ktop lost $lost"
	fi
	# shellcheck disable=SC2046
	pipe=$(med $(per_round "$run" trace_pipe events))
	if [ -n "$pipe" ] && [ "$(calc '%d' "$pipe > 0")" = 1 ]; then
		x=$(calc '%.1f' "$ev / $pipe")
		if [ "$(calc '%d' "$x >= 5")" = 1 ]; then
			x="${x}x (met)"
		elif [ -z "$(per_round "$run" trace_pipe lost | tr -d ' 0')" ]; then # none lost
			x="${x}x (cannot show here: trace_pipe lost nothing, the workload is too slow)"
		else
			x="${x}x (NOT met)"
		fi
		say "target: >= 5x trace_pipe events/s ............. $x"
	fi
	cpe=$(ratios "$(cpe_rounds "$run" ktop)" "$(cpe_rounds "$run" bare)")
	sbs=$(sbs_rounds "$run" cpu)
	# shellcheck disable=SC2086
	if [ -n "$(summ $sbs)" ]; then
		# shellcheck disable=SC2046,SC2086
		target_row "CPU per event vs bare reader, $(config_name "$run")" "$(span '%.2f' $sbs)x side by side, whole run (workload window $(span '%.2f' $(sbs_rounds "$run" wcpu))x; run apart: whole run $(span '%.2f' $cpe)x, workload window $(span '%.2f' $(ratios "$(wcpe_rounds "$run" ktop)" "$(wcpe_rounds "$run" bare)"))x)" \
			"<= 1.2x" "$(verdict "$(med $sbs) <= 1.2")"
	else
		target_row "CPU per event vs bare reader, $(config_name "$run")" - "<= 1.2x" \
			"not measured (ktop or bare not available)"
	fi
}

# The targets table's name of a configuration.
config_name() {
	case $1 in
	max) echo "max rate" ;;
	moderate) echo "$MOD_RATE/s" ;;
	default) echo "default buffer" ;;
	esac
}

# The observer effect: the workload's calls per CPU second while ktop reads, over the mean of
# those while bare does just before and just after (the host's speed drifts by the minute, so
# only runs next to each other compare; the calls in wall-clock time, printed beside, also
# move with the host's steal).
report_observer() {
	local x calls bare
	x=$(ratios "$(wlrate_rounds max obs:ktop)" "$(awk -v a="$(wlrate_rounds max obs1:bare)" \
		-v b="$(wlrate_rounds max obs2:bare)" 'BEGIN { n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++) printf "%s ", (x[i] ~ /^[0-9.]+$/ && y[i] ~ /^[0-9.]+$/) ? sprintf("%.6f", (x[i] + y[i]) / 2) : "-" }')")
	# shellcheck disable=SC2046,SC2086
	calls=$(span '%.2f' $(per_round max obs:ktop calls | awk '{ for (i = 1; i <= NF; i++) printf "%s ", $i == "-" ? "-" : $i / 1e6 }'))
	# shellcheck disable=SC2046,SC2086
	bare=$(span '%.2f' $(per_round max obs1:bare calls | awk '{ for (i = 1; i <= NF; i++) printf "%s ", $i == "-" ? "-" : $i / 1e6 }'))
	# shellcheck disable=SC2086
	if [ -n "$(summ $x)" ]; then
		# shellcheck disable=SC2086
		target_row "observer effect: workload calls per CPU s under ktop / under bare, max rate, 64 MB/CPU" \
			"$(span '%.2f' $x)x, ktop between two bare runs (wall clock: $calls vs $bare M calls in $SECS s)" ">= 0.95x" \
			"$(verdict "$(med $x) >= 0.95")"
	else
		target_row "observer effect: workload calls per CPU s under ktop / under bare, max rate, 64 MB/CPU" \
			- ">= 0.95x" "not measured (ktop or bare not available)"
	fi
}

# ---------------------------------------------------------------- idle and first frame

# One idle batch run, round I: its CPU share of the wall-clock time, in percent, in R[idle:I:pct].
measure_idle_once() {
	local i=$1 job rc k="idle:$1:ktop"
	timed "$TMPD/idle.time" "$KTOP" -b --duration "$IDLE_SECS" >"$TMPD/idle.out" 2>&1 &
	job=$!
	sleep 1
	mapfile -t -O "${#KTOP_PIDS[@]}" KTOP_PIDS < <(descendants "$job")
	wait "$job"
	rc=$?
	store_time "$k" "$TMPD/idle.time"
	if [ "$rc" != 0 ] || [ -z "${R[$k:cpu]-}" ]; then
		R[idle:na]="exit status $rc: $(head -c 120 "$TMPD/idle.out" | tr '\n' ' ')"
		return
	fi
	R[idle:$i:pct]=$(calc '%.3f' "${R[$k:cpu]} * 100 / ${R[$k:wall]}")
}

# Idle batch runs and idle explorers, one of each per round.
measure_idle() {
	local i pcts='' cpus='' mem='' ex=''
	if [ -n "$KTOP_NA" ]; then
		say "idle ktop: not available ($KTOP_NA)"
		target_row "idle batch run, start-up included" - "<= 0.3% of a core" "not measured ($KTOP_NA)"
		return
	fi
	for ((i = 1; i <= ROUNDS; i++)); do
		measure_idle_once "$i"
		pcts+="${R[idle:$i:pct]:--} "
		cpus+="${R[idle:$i:ktop:cpu]:--} "
		mem+="$(calc '%.1f' "${R[idle:$i:ktop:rss]:-0} / 1024") "
		measure_idle_explorer "$i"
		ex+="${R[idle:$i:explorer]:--} "
	done
	# shellcheck disable=SC2086 # the rounds' figures are words
	if [ -z "$(summ $pcts)" ]; then
		say "idle ktop: not available (${R[idle:na]:-no result})"
		target_row "idle batch run, start-up included" - "<= 0.3% of a core" \
			"not measured (${R[idle:na]:-no result})"
	else
		# shellcheck disable=SC2086
		say "idle ktop, start-up included (-b --duration $IDLE_SECS, nothing enabled):" \
			"$(span '%.2f' $pcts)% of a core ($(span '%.3f' $cpus) s CPU), RSS $(span '%.1f' $mem) MB"
		# shellcheck disable=SC2086
		target_row "idle batch run, start-up included (-b --duration $IDLE_SECS)" \
			"$(span '%.2f' $pcts)% of a core" "<= 0.3% of a core" "$(verdict "$(med $pcts) <= 0.3")"
	fi
	# shellcheck disable=SC2086
	[ -n "$(summ $ex)" ] &&
		say "idle explorer (nothing enabled, 1 s refresh, 80x24): $(span '%.2f' $ex)% of a core" \
			"over ${IDLE_SECS} s after start-up (target < 0.5%: $(verdict "$(med $ex) < 0.5"))"
}

# user + system CPU of PID so far, in clock ticks.
cpu_ticks() {
	local st
	read -r st <"/proc/$1/stat" || return 1
	st=${st##*) }
	# shellcheck disable=SC2086 # split the fields after the command name
	set -- $st
	echo $((${12} + ${13}))
}

# The explorer at rest, round I: nothing enabled, the default 1 s refresh, in an 80x24
# terminal; its CPU counted from 2 s after start (the ring buffers are allocated by then)
# for IDLE_SECS, as a percentage of a core in R[idle:I:explorer].
measure_idle_explorer() {
	local pid t0 t1 hz
	[ "$HAVE_TMUX" = 1 ] || return
	TMUX_USED=1
	tmx -f /dev/null new-session -d -s kidle -x 80 -y 24 "exec $KTOP" || return
	pid=$(tmx display-message -p -t kidle '#{pane_pid}')
	KTOP_PIDS+=("$pid")
	sleep 2
	t0=$(cpu_ticks "$pid") && sleep "$IDLE_SECS" && t1=$(cpu_ticks "$pid") || t1=
	tmx send-keys -t kidle q
	sleep 0.5
	tmx kill-server 2>/dev/null
	TMUX_USED=0
	[ -n "$t1" ] || return
	hz=$(getconf CLK_TCK)
	R[idle:$1:explorer]=$(calc '%.3f' "($t1 - $t0) * 100 / $hz / $IDLE_SECS")
}

measure_first_frame() {
	local i res all=() floors=() pid row="first frame of the explorer in tmux 80x24"
	if [ -n "$KTOP_NA" ] || [ "$HAVE_TMUX" = 0 ]; then
		say "first frame: not available (${KTOP_NA:-no tmux})"
		target_row "$row" - "<= 100 ms" "not measured (${KTOP_NA:-no tmux})"
		return
	fi
	TMUX_USED=1
	if ! pane_open kbench; then
		say "first frame: not available (tmux failed)"
		target_row "$row" - "<= 100 ms" "not measured (tmux failed)"
		return
	fi
	# each round: the floor (a command that prints at once), then ktop
	for ((i = 0; i < ROUNDS; i++)); do
		res=$(pane_time kbench "$HEADER_RE" 5 sh -c 'echo ktop floor; exec sleep 600') &&
			floors+=("$res")
		if ! res=$(pane_time kbench "$HEADER_RE" 5 "$KTOP"); then
			say "first frame: not available ($res)"
			break
		fi
		pid=$(tmx display-message -p -t kbench '#{pane_pid}')
		KTOP_PIDS+=("$pid")
		all+=("$res")
		tmx send-keys -t kbench q
		sleep 0.5
	done
	pane_close
	TMUX_USED=0
	if [ "${#all[@]}" != "$ROUNDS" ]; then
		target_row "$row" - "<= 100 ms" "not measured (${res:-ktop failed})"
		return
	fi
	say "first frame in tmux 80x24: $(span '%d' "${all[@]}") ms (measurement floor" \
		"$(span '%d' "${floors[@]}") ms)"
	target_row "$row" "$(span '%d' "${all[@]}") ms (floor $(span '%d' "${floors[@]}") ms)" \
		"<= 100 ms" "$(verdict "$(med "${all[@]}") <= 100")"
}

# ktop removes its instance on every exit path; one left behind by a ktop this script ran
# is reported, then removed once that ktop is gone.
check_ktop_leftovers() {
	local pid dir
	for pid in "${KTOP_PIDS[@]}"; do
		dir="$TRACEFS/instances/ktop-$pid"
		[ -d "$dir" ] || continue
		sleep 1
		[ -d "$dir" ] || continue
		if kill -0 "$pid" 2>/dev/null; then
			warn "ktop $pid is still running with its instance; killing it"
			kill "$pid"
			sleep 1
		fi
		warn "ktop $pid left its instance ktop-$pid behind (a ktop bug); removing it"
		INSTANCES+=("ktop-$pid")
	done
}

# ---------------------------------------------------------------- main

# BENCH_ONLY=tools,idle,frame,hist,recording,mmap,remote,overview picks parts (default: all).
wants() { [[ ,${BENCH_ONLY:-tools,idle,frame,hist,recording,mmap,remote,overview}, == *,$1,* ]]; }

export BENCH_TARGETS="$TMPD/targets" BENCH_ROUNDS=$ROUNDS
: >"$BENCH_TARGETS"
say "ktop bench: $EVENT, workload on CPU $WL_CPU, tools on CPU $TOOL_CPU;" \
	"each tool runs ${DUR} s around a ${SECS} s workload, $ROUNDS rounds"
say "kernel $(uname -r), $(nproc --all) CPUs; ktop: ${KTOP_NA:-$KTOP}"

measure_launch
if wants tools; then
	say "CPU: the scheduler's (rusage; the workload's own getrusage), host steal left out;" \
		"less ${LAUNCH_MS} ms for launching a command under the meter"
	DEFAULT_KB=$(default_kb)
	run_config max 0 "$BIG_KB"
	MOD_RATE=${BENCH_RATE:-}
	# shellcheck disable=SC2046 # the rounds' figures are words
	max_calls=$(med $(per_round max bare calls))
	if [ -z "$MOD_RATE" ]; then
		MOD_RATE=1000000
		max_rate=$(calc '%d' "${max_calls:-0} / $SECS")
		if [ "$max_rate" -gt 0 ] && [ "$max_rate" -lt $((3 * MOD_RATE)) ]; then
			MOD_RATE=$(((max_rate / 3) / 10000 * 10000))
			[ "$MOD_RATE" -ge 10000 ] || MOD_RATE=10000
		fi
	fi
	run_config moderate "$MOD_RATE" "$BIG_KB"
	run_config default 0 ""

	report_observer
	report_config max "max rate, 64 MB per CPU (workload $(calc '%.2f' "${max_calls:-0} / $SECS / 1e6") M calls/s under the bare reader)"
	report_config moderate "moderate rate: $MOD_RATE calls/s, 64 MB per CPU"
	report_config default "max rate, default buffer (${DEFAULT_KB:-?} kB per CPU in a new instance)"
	say ""
fi
wants idle && measure_idle
wants frame && measure_first_frame
# BPF histograms: the traced program's slowdown under ktop, bpftrace and the floor (hist.sh)
wants hist && KTOP=$KTOP WORKLOAD=$WORKLOAD bash "$(dirname "$0")/hist.sh"
# The 1 GiB recording's first screen against trace-cmd report | head (recording.sh)
if wants recording; then
	if [ -n "$KTOP_NA" ] || [ -z "${MKRECORDING:-}" ]; then
		target_row "first screen of a 1 GiB recording, 80x24" - "<= 100 ms" \
			"not measured (${KTOP_NA:-no MKRECORDING})"
	else
		KTOP=$KTOP bash "$(dirname "$0")/recording.sh"
	fi
fi
# The mapped ring buffer against both bare readers, side by side (mmap.sh, issue 37)
if wants mmap && [ -z "$KTOP_NA" ]; then
	KTOP=$KTOP BARE=$BARE RUSAGE=$RUSAGE WORKLOAD=$WORKLOAD bash "$(dirname "$0")/mmap.sh"
fi
# Local against through an agent on a pipe, and N agents at once (remote.sh, issue 18)
wants remote && KTOP=$KTOP WORKLOAD=$WORKLOAD bash "$(dirname "$0")/remote.sh"
# The overview's CPU beside top -b and htop, idle and with 10,000 threads (overview.sh, issue 32)
wants overview && KTOP=$KTOP WORKLOAD=$WORKLOAD bash "$(dirname "$0")/overview.sh"

# The kernel is left as it was found.
check_ktop_leftovers
print_targets "$BENCH_TARGETS"
cleanup
[ "$(cat "$TRACEFS/set_event")" = "$SET_EVENT_BEFORE" ] || warn "top-level set_event changed!"
exit 0
