#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench, remote part: what capturing through an agent costs (issue 18). On this one
# machine, `workload rate R S` makes getppid() calls on CPU 0 while, on CPU 1,
#   local   ktop -b -q -e syscalls:sys_enter_getppid --filter 'comm == "kbench-wl"'
#           --duration D --buffer-kb 65536
#   via     the same with --via 'ktop --agent --buffer-kb 65536' (a plain pipe)
#   zstd    the same with --compress (zstd level 1 in the agent)
# count them, BENCH_ROUNDS rounds (3), the paths in a rotating order. Printed: events
# delivered per second, CPU per event (viewer and agent together, and each alone), bytes on
# the wire per event (the viewer's "bytes received"), and per-round ratios to local;
# medians with their range.
# Then N viewer+agent pairs at once (N = 1 2 4 8), every pair printing the same workload's
# BENCH_REMOTE_RATE calls/s (100000) as text: one viewer per host is what exists (several -H merged
# into one stream is not built), so this measures a viewer's CPU per event beside N-1 others
# and extrapolates how many hosts at a given rate one viewer core could take. Rows go to the
# targets table; issue 18 sets no number, so they say "no target". Never fails on numbers.
#
# CPU: tests/bench/rusage over the viewer and everything it starts and waits for (the agent
# too), the whole run (the scheduler's time: perf stat's task-clock counts a VM's steal);
# and, apart, the viewer's and the agent's threads while the workload ran
# (/proc/PID/task/*/schedstat before and after: start-up and exit left out).
#
# Environment: KTOP, WORKLOAD, RUSAGE (set by make bench); BENCH_REMOTE_SECONDS (workload seconds,
# default 4), BENCH_REMOTE_RATE (100000), BENCH_REMOTE_HOSTS ("1 2 4 8"), BENCH_ROUNDS,
# BENCH_TARGETS.

set -u
. "$(dirname "$0")/lib.sh"
KTOP=${KTOP-}
WORKLOAD=${WORKLOAD:?WORKLOAD must name tests/helpers/workload}
RUSAGE=${RUSAGE:?RUSAGE must name tests/bench/rusage}
SECS=${BENCH_REMOTE_SECONDS:-4}
FLEET_RATE=${BENCH_REMOTE_RATE:-100000}
HOSTS=${BENCH_REMOTE_HOSTS:-1 2 4 8}
EVENT=syscalls:sys_enter_getppid
KB=65536
PRE=0.7
POST=1.3
WL_CPU=0
TOOL_CPU=1
PATHS=(local via zstd)
TMPD=$(mktemp -d /tmp/ktop-bench-remote.XXXXXX) || exit 1
JOBS=()
declare -A R=() # R[KEY:field]
bench_own_targets "$TMPD/targets"

say() { printf '%s\n' "$*"; }
warn() { printf 'bench remote: %s\n' "$*" >&2; }
calc() { awk "BEGIN { printf \"$1\", ($2) }"; }

# The viewers end by themselves (--duration); one still running on the way out is stopped
# (the agent then sees its input close and removes its instance).
cleanup() {
	local pid
	trap - EXIT INT TERM
	for pid in "${JOBS[@]}"; do
		kill -INT "$pid" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# not_measured WHY: the rows, saying why, and the end.
not_measured() {
	say "remote: not measured ($1)"
	target_row "remote: events/s and CPU per event through the agent vs local" - "no target" \
		"not measured ($1)"
	print_targets "$BENCH_OWN_TARGETS"
	exit 0
}

[ "$(id -u)" = 0 ] || not_measured "needs root"
[ -n "$KTOP" ] && [ -x "$KTOP" ] || not_measured "ktop not built"
[ -d /sys/kernel/tracing/events/syscalls/sys_enter_getppid ] || not_measured "no $EVENT"
[ -x "$RUSAGE" ] || not_measured "no $RUSAGE (make bench builds it)"
[ "$(nproc --all)" -ge 2 ] || warn "one CPU only: the tools and the workload share it"
DUR=$(calc '%.1f' "$PRE + $SECS + $POST")
COMM=$(basename "$KTOP" | cut -c1-15)

# task_ms FILE: the CPU milliseconds tests/bench/rusage wrote to FILE (not perf stat's
# task-clock, which counts a VM's steal time).
task_ms() {
	sed -n 's/^cpu_us=\([0-9]*\) .*/\1/p' "$1" 2>/dev/null | awk '{ printf "%.3f", $1 / 1000 }'
}

# pair TAG PATH [print]: a viewer (local ktop for PATH local) in the background on CPU
# TOOL_CPU, of the workload's calls only (other sessions' getppid() storms are filtered out), -q (counting) or, with print, writing every event as text (to a tail that keeps
# the summary: the text costs the viewer, not the disk).
pair() {
	local tag=$1 path=$2
	local -a args=(-b -e "$EVENT" --filter 'comm == "kbench-wl"' --duration "$DUR")
	local agent="exec $KTOP --agent --buffer-kb $KB"
	rm -f "$TMPD/$tag".*
	[ "${3-}" = print ] || args+=(-q)
	case $path in
	local) args+=(--buffer-kb "$KB") ;;
	via) args+=(--via "$agent") ;;
	zstd) args+=(--via "$agent" --compress) ;;
	esac
	taskset -c "$TOOL_CPU" "$RUSAGE" "$TMPD/$tag.cpu" \
		"$KTOP" "${args[@]}" > >(tail -n 3 >"$TMPD/$tag.out") 2>"$TMPD/$tag.err" &
	JOBS+=($!)
	echo $! >"$TMPD/$tag.job"
}

# cpu_ns PID: the CPU nanoseconds of PID's threads so far, "-" without one.
cpu_ns() {
	[ -n "$1" ] && cat "/proc/$1"/task/*/schedstat 2>/dev/null |
		awk '{ t += $1 } END { if (NR) printf "%d", t; else printf "-" }' || echo -
}

# snap TAG: "viewer-ns agent-ns" of a running pair (the viewer is rusage's ktop child, beside
# the tail; the agent is the viewer's child: its /bin/sh -c exec'd it).
snap() {
	local v a=
	v=$(pgrep -x -P "$(cat "$TMPD/$1.job")" "$COMM" | head -n 1)
	[ -n "$v" ] && a=$(pgrep -x -P "$v" "$COMM" | head -n 1)
	echo "$(cpu_ns "$v") $(cpu_ns "$a")"
}

# measure RATE TAG...: after PRE seconds, the workload at RATE on CPU WL_CPU while the
# started pairs TAG... count it; each pair's viewer and agent CPU over the workload's run
# (start-up and exit left out) go to $TMPD/TAG.w0 and .w1; prints the workload's calls.
measure() {
	local rate=$1 out t
	shift
	sleep "$PRE"
	for t; do snap "$t" >"$TMPD/$t.w0"; done
	out=$(WORKLOAD_CPU=$WL_CPU "$WORKLOAD" rate "$rate" "$SECS" kbench-wl 2>/dev/null) ||
		warn "workload failed"
	for t; do snap "$t" >"$TMPD/$t.w1"; done
	sed -n 's/^calls=//p' <<<"$out"
}

# collect TAG KEY: a finished pair's figures into R[KEY:events|lost|bytes|cpu|wv|wa] (CPU in
# ms; cpu: viewer and agent over the whole run; wv, wa: the viewer's and the agent's while
# the workload ran), or R[KEY:na] with why.
collect() {
	local tag=$1 k=$2 line i v0 a0 v1 a1
	unset "R[$k:na]" "R[$k:wv]" "R[$k:wa]"
	for ((i = 0; i < 50; i++)); do # the tail writes once the viewer is gone
		line=$(grep '^# ktop: events=' "$TMPD/$tag.out" 2>/dev/null | tail -n 1)
		[ -n "$line" ] && break
		sleep 0.1
	done
	if [ -z "$line" ]; then
		R[$k:na]=$(head -c 160 "$TMPD/$tag.err" | tr '\n' ' ')
		return
	fi
	R[$k:events]=$(field events "$line")
	R[$k:lost]=$(field lost "$line")
	R[$k:bytes]=$(sed -n 's/.* \([0-9]*\) bytes received.*/\1/p' "$TMPD/$tag.out")
	R[$k:cpu]=$(task_ms "$TMPD/$tag.cpu")
	read -r v0 a0 <"$TMPD/$tag.w0" && read -r v1 a1 <"$TMPD/$tag.w1" &&
		R[$k:wv]=$(calc '%.3f' "($v1 - $v0) / 1e6") &&
		[ "$a0" != - ] && [ "$a1" != - ] && R[$k:wa]=$(calc '%.3f' "($a1 - $a0) / 1e6")
}

# rounds KEY FIELD: the field over the rounds, "-" where missing (KEY has %d for the round).
rounds() {
	local i k out=
	for ((i = 1; i <= ROUNDS; i++)); do
		# shellcheck disable=SC2059 # KEY is the format
		k=$(printf "$1" "$i")
		if [ -n "${R[$k:na]-}" ]; then
			out+="- "
		else
			out+="${R[$k:$2]:--} "
		fi
	done
	echo "$out"
}

# per_event LIST_OF_MS LIST_OF_EVENTS: microseconds per event, per round.
per_event() {
	ratios "$(awk '{ for (i = 1; i <= NF; i++) printf "%s ", $i == "-" ? "-" : $i * 1000 }' <<<"$1")" "$2"
}

# mega LIST [DIVISOR]: each figure / DIVISOR / 1e6, "-" kept.
mega() {
	awk -v d="${2:-1}" '{ for (i = 1; i <= NF; i++) printf "%s ", $i == "-" ? "-" : $i / d / 1e6 }' <<<"$1"
}

# lost_pct EVENTS LOST: lost / (events + lost) in percent, per round.
lost_pct() {
	awk -v e="$1" -v l="$2" 'BEGIN { n = split(e, x, " "); split(l, y, " ")
		for (i = 1; i <= n; i++)
			printf "%s ", (x[i] ~ /^[0-9]+$/ && y[i] ~ /^[0-9]+$/ && x[i] + y[i] > 0) ? \
				100 * y[i] / (x[i] + y[i]) : "-"
		print "" }'
}

# plus A B: per-round A[i] + B[i]; B missing counts as 0 (local has no agent).
plus() {
	awk -v a="$1" -v b="$2" 'BEGIN { n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++)
			printf "%s ", x[i] == "-" ? "-" : x[i] + (y[i] ~ /^[0-9.]+$/ ? y[i] : 0)
		print "" }'
}

# ---------------------------------------------------------------- local vs through the agent

say ""
say "== remote: $EVENT counted locally and through an agent on a pipe ($KTOP --agent)"
say "   workload flat out for $SECS s on CPU $WL_CPU; viewer and agent on CPU $TOOL_CPU;" \
	"$KB kB per CPU; $ROUNDS rounds"
for ((i = 1; i <= ROUNDS; i++)); do
	for p in $(rotated "$i" "${PATHS[@]}"); do
		pair "p$p" "$p"
		R[p:$p:$i:calls]=$(measure 0 "p$p")
		wait "${JOBS[-1]}"
		collect "p$p" "p:$p:$i"
	done
done

printf '%-6s %-18s %-18s %-7s %-18s %-18s %-18s %-18s %-16s %-18s %-18s %s\n' path "wl M calls" \
	"events M/s" "lost%" "cpu us/ev (run)" "win us/ev: all" "viewer" "agent" "bytes/event" \
	"x local (ev/s)" "x local (cpu/ev)" "x local (window)"
# shellcheck disable=SC2046,SC2086 # the rounds' figures are words
for p in "${PATHS[@]}"; do
	k="p:$p:%d"
	ev=$(rounds "$k" events)
	if [ -z "$(summ $ev)" ]; then
		printf '%-6s not available: %s\n' "$p" "${R[p:$p:1:na]-no result}"
		continue
	fi
	cpe=$(per_event "$(rounds "$k" cpu)" "$ev")
	lcpe=$(per_event "$(rounds p:local:%d cpu)" "$(rounds p:local:%d events)")
	wcpe=$(per_event "$(plus "$(rounds "$k" wv)" "$(rounds "$k" wa)")" "$ev")
	lwcpe=$(per_event "$(rounds p:local:%d wv)" "$(rounds p:local:%d events)")
	vcpe=$(per_event "$(rounds "$k" wv)" "$ev")
	acpe=$(per_event "$(rounds "$k" wa)" "$ev")
	bpe=$(ratios "$(rounds "$k" bytes)" "$ev")
	evs=$(span '%.2f' $(mega "$ev" "$SECS"))
	xev=$(span '%.2f' $(ratios "$ev" "$(rounds p:local:%d events)"))
	xcpe=$(span '%.2f' $(ratios "$cpe" "$lcpe"))
	xw=$(span '%.2f' $(ratios "$wcpe" "$lwcpe"))
	printf '%-6s %-18s %-18s %-7s %-18s %-18s %-18s %-18s %-16s %-18s %-18s %s\n' "$p" \
		"$(span '%.2f' $(mega "$(rounds "$k" calls)"))" "$evs" \
		"$(span '%.2f' $(lost_pct "$ev" "$(rounds "$k" lost)"))" "$(span '%.3f' $cpe)" \
		"$(span '%.3f' $wcpe)" "$(span '%.3f' $vcpe)" \
		"$( [ "$p" = local ] && echo - || span '%.3f' $acpe)" \
		"$( [ "$p" = local ] && echo - || span '%.2f' $bpe)" "$xev" "$xcpe" "$xw"
	[ "$p" = local ] && { lev=$evs lc=$(span '%.3f' $cpe) lw=$(span '%.3f' $wcpe); continue; }
	target_row "remote $p: events/s delivered, x local" "$evs M/s, ${xev}x (local $lev M/s)" \
		"no target" "issue 18: figures"
	target_row "remote $p: CPU per event, viewer + agent, x local" \
		"$(span '%.3f' $cpe) us, ${xcpe}x (local $lc us); workload window $(span '%.3f' $wcpe) us, ${xw}x (local $lw us)" \
		"no target" "issue 18: figures"
	target_row "remote $p: bytes on the wire per event" "$(span '%.2f' $bpe)" "no target" \
		"issue 18: figures"
done
say "   run: rusage over the whole run (start-up, 64 MB per CPU, exit); win: the threads'"
say "   CPU while the workload ran, viewer and agent apart; x local: per-round ratios"

# ---------------------------------------------------------------- N pairs

say ""
say "== remote: N viewer+agent pairs at once, each printing every call of the same workload at" \
	"$FLEET_RATE calls/s for $SECS s as text (plain pipe; all pairs on CPU $TOOL_CPU)"
printf '%-4s %-18s %-7s %-20s %-20s %-14s %s\n' N "events M/s, all" "lost%" \
	"viewer us/ev (win)" "agent us/ev (win)" "CPU $TOOL_CPU busy %" \
	"one viewer core takes, M ev/s (extrapolated)"
# shellcheck disable=SC2046,SC2086 # the tags and the rounds' figures are words
for n in $HOSTS; do
	for ((i = 1; i <= ROUNDS; i++)); do
		for ((j = 1; j <= n; j++)); do
			pair "h$j" via print
		done
		R[n:$n:$i:calls]=$(measure "$FLEET_RATE" $(seq -f 'h%g' "$n"))
		wait "${JOBS[@]: -$n}"
		ev=0 lost=0 cpu=0 wa=0 wv=0 bad=
		for ((j = 1; j <= n; j++)); do
			collect "h$j" "h:$j"
			if [ -n "${R[h:$j:na]-}" ] || [ -z "${R[h:$j:wa]-}" ] || [ -z "${R[h:$j:cpu]}" ]; then
				bad="pair $j: ${R[h:$j:na]-no CPU figures}"
				continue
			fi
			ev=$((ev + ${R[h:$j:events]})) lost=$((lost + ${R[h:$j:lost]}))
			cpu=$(calc '%.3f' "$cpu + ${R[h:$j:cpu]}")
			wv=$(calc '%.3f' "$wv + ${R[h:$j:wv]}")
			wa=$(calc '%.3f' "$wa + ${R[h:$j:wa]}")
		done
		if [ -n "$bad" ] || [ "$ev" = 0 ]; then
			R[n:$n:$i:na]=${bad:-no events}
			continue
		fi
		R[n:$n:$i:events]=$ev R[n:$n:$i:lost]=$lost
		R[n:$n:$i:vcpe]=$(calc '%.4f' "$wv * 1000 / $ev")
		R[n:$n:$i:acpe]=$(calc '%.4f' "$wa * 1000 / $ev")
		R[n:$n:$i:busy]=$(calc '%.1f' "$cpu / 10 / $DUR")
		R[n:$n:$i:core]=$(calc '%.2f' "$wv > 0 ? $ev / ($wv / 1000) / 1e6 : 0")
	done
	k="n:$n:%d"
	ev=$(rounds "$k" events)
	if [ -z "$(summ $ev)" ]; then
		printf '%-4s not available: %s\n' "$n" "${R[n:$n:1:na]-no result}"
		continue
	fi
	printf '%-4s %-18s %-7s %-20s %-20s %-14s %s\n' "$n" "$(span '%.2f' $(mega "$ev" "$SECS"))" \
		"$(span '%.2f' $(lost_pct "$ev" "$(rounds "$k" lost)"))" \
		"$(span '%.3f' $(rounds "$k" vcpe))" "$(span '%.3f' $(rounds "$k" acpe))" \
		"$(span '%.1f' $(rounds "$k" busy))" "$(span '%.1f' $(rounds "$k" core))"
	target_row "remote, $n viewer+agent pairs: a viewer's CPU per event (one core's events/s, extrapolated)" \
		"$(span '%.3f' $(rounds "$k" vcpe)) us ($(span '%.1f' $(rounds "$k" core)) M/s)" \
		"no target" "issue 18: figures"
done
say "   every pair prints the same calls (N x the events); win: while the workload ran; busy:"
say "   the pairs' whole runs over ${DUR} s; a viewer merging several hosts is not built, so"
say "   what one core takes is extrapolated from the separate viewers' CPU per event"

print_targets "$BENCH_OWN_TARGETS"
exit 0
