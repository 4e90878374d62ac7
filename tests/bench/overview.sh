#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench, overview part (issue 32): what the overview costs to keep open, beside the
# tools it stands in for, in two scenes: idle (this machine as it is) and loaded (1,000
# processes of 10 threads each, asleep: 10,000 threads to list every second; workload
# tasks). In each, each of
#   ktop    ktop -b --top --interval 1 --duration D   (BPF: every hook, the syscalls' too)
#   proc    ktop -b --top=proc ...                     (no BPF: /proc per thread)
#   top     top -b -d 1 -n D
#   htop    htop -d 10 in a 120x40 tmux pane, q after D s (htop has no batch mode)
# runs D seconds (BENCH_OVERVIEW_SECONDS, default 10; start-up included: ktop loads and
# verifies its BPF object, which a longer D spreads) under tests/bench/rusage, BENCH_ROUNDS
# rounds in a rotating order, and the CPU each took is printed per second of its run (ms/s:
# 10 ms/s is 1 % of a core), median and range, then ktop's per-round ratios to top and htop.
# The BPF hooks' own cost is in the traced tasks, not here (tests/bench/hist.sh measures a
# hook's slowdown of a syscall storm). The issue's target, "at most htop's at the same
# refresh", goes to the targets table. Never fails on numbers.
#
# Environment: KTOP, RUSAGE, WORKLOAD (set by make bench); BENCH_OVERVIEW_SECONDS,
# BENCH_ROUNDS, BENCH_TARGETS, BENCH_OVERVIEW_TASKS ("P T", default "1000 10").

set -u
. "$(dirname "$0")/lib.sh"
KTOP=${KTOP-}
RUSAGE=${RUSAGE:?RUSAGE must name tests/bench/rusage}
WORKLOAD=${WORKLOAD-}
SECS=${BENCH_OVERVIEW_SECONDS:-10}
ROUNDS=${BENCH_ROUNDS:-3}
read -r NPROCS NTHREADS <<<"${BENCH_OVERVIEW_TASKS:-1000 10}"
TOOLS=(ktop proc top)
command -v htop >/dev/null && command -v tmux >/dev/null && TOOLS+=(htop)
TMPD=$(mktemp -d /tmp/ktop-bench-overview.XXXXXX) || exit 1
TASKS_PID=
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup_overview() {
	[ -n "$TASKS_PID" ] && kill "$TASKS_PID" 2>/dev/null
	tmx kill-server 2>/dev/null
	rm -rf "$TMPD"
}
trap cleanup_overview EXIT
bench_own_targets "$TMPD/targets"
tmx() { TMUX='' tmux -S "$TMPD/tmux.sock" "$@"; }

say() { printf '%s\n' "$*"; }

# htop_run FILE: htop -d 10 in a tmux pane under rusage for SECS s, then q; FILE gets
# rusage's line once htop is gone.
htop_run() {
	tmx -f /dev/null new-session -d -s h -x 120 -y 40 "$RUSAGE '$1' htop -d 10" || return 1
	sleep "$SECS"
	tmx send-keys -t h q
	for _ in $(seq 1 100); do
		[ -s "$1" ] && break
		sleep 0.1
	done
	tmx kill-server 2>/dev/null
	[ -s "$1" ]
}

# run TOOL FILE: the tool for SECS seconds under rusage, its cpu_us line into FILE.
run() {
	case $1 in
	ktop) "$RUSAGE" "$2" "$KTOP" -b --top --interval 1 --duration "$SECS" ;;
	proc) "$RUSAGE" "$2" "$KTOP" -b --top=proc --interval 1 --duration "$SECS" ;;
	top) "$RUSAGE" "$2" top -b -d 1 -n "$SECS" ;;
	htop) htop_run "$2" ;;
	esac >/dev/null 2>"$TMPD/err"
}

# scene NAME: every tool, ROUNDS rounds; the figures in MS_<NAME>[tool], the lines printed.
declare -A MS=()
scene() {
	local s=$1 r t us k p
	for ((r = 0; r < ROUNDS; r++)); do
		for t in $(rotated "$r" "${TOOLS[@]}"); do
			run "$t" "$TMPD/$s.$t.$r" || { say "  $t: failed: $(head -c 200 "$TMPD/err")"; MS[$s.$t]+="- "; continue; }
			us=$(field cpu_us "$(cat "$TMPD/$s.$t.$r")")
			MS[$s.$t]+="$(awk -v us="$us" -v s="$SECS" 'BEGIN { printf "%.2f", us / 1000 / s }') "
		done
	done
	for t in "${TOOLS[@]}"; do
		# shellcheck disable=SC2086 # the rounds' figures, one word each
		say "  $(printf '%-5s' "$t") $(span %.2f ${MS[$s.$t]:-}) ms/s"
	done
	for t in top htop; do
		[ -n "${MS[$s.$t]:-}" ] || continue
		# shellcheck disable=SC2046 # one word per round
		say "  ktop/$t $(span %.2f $(ratios "${MS[$s.ktop]:-}" "${MS[$s.$t]}"))"
	done
	# shellcheck disable=SC2086
	k=$(med ${MS[$s.ktop]:-})
	for t in top htop; do
		# shellcheck disable=SC2086
		p=$(med ${MS[$s.$t]:-})
		[ -n "$k" ] && [ -n "$p" ] &&
			target_row "overview CPU, $s (ms/s)" "$k vs $t $p" "<= $t at 1 s" "$(verdict "$k <= $p")"
	done
	return 0
}

say ""
say "== overview: CPU to keep a top open, ${SECS} s at a 1 s refresh, $ROUNDS rounds (ms of CPU per s)"
say "   load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "$KTOP" ] || { target_row "overview idle CPU" - "<= htop -d 10" "not measured (no ktop)"; exit 0; }
command -v htop >/dev/null || say "  htop: not installed (./dev deps bench installs it)"
say " idle:"
scene idle
if [ -x "$WORKLOAD" ]; then
	"$WORKLOAD" tasks "$NPROCS" "$NTHREADS" ktop-bench-t >"$TMPD/tasks.out" 2>&1 &
	TASKS_PID=$!
	for _ in $(seq 1 600); do
		grep -q ready "$TMPD/tasks.out" 2>/dev/null && break
		sleep 0.1
	done
	if grep -q ready "$TMPD/tasks.out"; then
		say " loaded: $NPROCS processes, $((NPROCS * NTHREADS)) threads asleep:"
		scene loaded
	else
		say " loaded: the workload did not start: $(head -c 200 "$TMPD/tasks.out")"
	fi
	kill "$TASKS_PID" 2>/dev/null
	wait "$TASKS_PID" 2>/dev/null
	TASKS_PID=
else
	say " loaded: not measured (no WORKLOAD)"
fi
print_targets "$BENCH_OWN_TARGETS"
exit 0
