#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make bench, profile part. Prints figures and ratios; never fails on the numbers.
#  1. Sampling at 999 Hz on every CPU for BENCH_PROFILE_SECONDS (default 5) while a
#     workload of deep, ever-new stacks (profwork deep) keeps every CPU busy: the CPU
#     time and peak RSS of `ktop -b --profile -F 999 --folded` (it symbolizes and folds as
#     it goes; --memory 64M) against `perf record -F 999 -g -a` (which only writes the
#     samples to perf.data), one after the other, BENCH_PROFILE_ROUNDS times (default 3:
#     the workload's stacks vary from run to run, and the machine may be shared); the
#     medians are compared.
#  2. Symbolizing 10k unique user stacks: perf record -F 999 -g of one profwork deep, the
#     raw callchains listed by perf report -D, the first 10,000 distinct ones named and folded by
#     ktop's symbolizer (symbolize_bench: kallsyms, maps and ELF symbols loaded from
#     cold), against `perf report --stdio` on the same perf.data.
#
# Environment: KTOP, PROFWORK, SYMBENCH (set by make bench).

set -u
KTOP=${KTOP-}
PROFWORK=${PROFWORK:?PROFWORK must name tests/helpers/profwork}
SYMBENCH=${SYMBENCH:?SYMBENCH must name tests/bench/symbolize_bench}
SECS=${BENCH_PROFILE_SECONDS:-5}
ROUNDS=${BENCH_PROFILE_ROUNDS:-3}
TMPD=$(mktemp -d /tmp/ktop-bench-profile.XXXXXX) || exit 1
WORKERS=()

say() { printf '%s\n' "$*"; }
warn() { printf 'bench profile: %s\n' "$*" >&2; }

stop_workers() {
	local w
	for w in "${WORKERS[@]+"${WORKERS[@]}"}"; do
		kill "$w" 2>/dev/null && wait "$w" 2>/dev/null
	done
	WORKERS=()
}
# shellcheck disable=SC2317 # called through the trap
cleanup() {
	stop_workers
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

calc() { awk "BEGIN { printf \"$1\", $2 }"; }

# workers N SECS: N profwork deep in the background.
workers() {
	local i
	for ((i = 0; i < $1; i++)); do
		"$PROFWORK" deep "$2" >/dev/null 2>&1 &
		WORKERS+=($!)
	done
}

# timed NAME COMMAND...: user+system seconds and peak RSS (KiB) of COMMAND into
# CPU[NAME], RSS[NAME].
declare -A CPU=() RSS=()
timed() {
	local name=$1
	shift
	/usr/bin/time -f '%U %S %M' -o "$TMPD/$name.time" "$@" >"$TMPD/$name.out" \
		2>"$TMPD/$name.err" || warn "$name: $(tail -c 300 "$TMPD/$name.err")"
	read -r u s m <"$TMPD/$name.time" 2>/dev/null || return
	CPU[$name]=$(calc '%.3f' "$u + $s")
	RSS[$name]=$m
}

command -v perf >/dev/null || { say "profile: no perf, nothing to compare"; exit 0; }
[ -x /usr/bin/time ] || { say "profile: no /usr/bin/time (apt-get install time)"; exit 0; }
ncpu=$(nproc)
say ""
say "profile: 999 Hz on all $ncpu CPUs for ${SECS} s, every CPU busy with deep stacks," \
	"$ROUNDS rounds"
workers "$ncpu" $((ROUNDS * (2 * SECS + 10) + 30))
KCPU=() PCPU=() KRSS=() PRSS=()
for ((r = 0; r < ROUNDS; r++)); do
	if [ -n "$KTOP" ]; then
		timed ktop "$KTOP" -b --profile -F 999 --duration "$SECS" --folded --memory 64M
		KCPU+=("${CPU[ktop]:-}") KRSS+=("${RSS[ktop]:-0}")
	fi
	timed perf perf record -q -F 999 -g -a -o "$TMPD/all.data" -- sleep "$SECS"
	PCPU+=("${CPU[perf]:-}") PRSS+=("${RSS[perf]:-0}")
done
stop_workers
# median WORDS...: the middle one of the numbers given
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
if [ -n "$KTOP" ]; then
	samples=$(sed -n 's/.* samples=\([0-9]*\).*/\1/p' "$TMPD/ktop.err")
	dropped=$(sed -n 's/.* dropped_memory=\([0-9]*\).*/\1/p' "$TMPD/ktop.err")
	bytes=$(sed -n 's/.* bytes=\([0-9]*\).*/\1/p' "$TMPD/ktop.err")
	CPU[ktop]=$(median "${KCPU[@]}") RSS[ktop]=$(median "${KRSS[@]}")
fi
CPU[perf]=$(median "${PCPU[@]}") RSS[perf]=$(median "${PRSS[@]}")
printf '  %-44s %8s %10s   %s\n' "" "CPU s" "max RSS" "(median; every round)"
if [ -n "$KTOP" ]; then
	printf '  %-44s %8s %8s MB   %s\n' "ktop -b --profile -F 999 --folded" "${CPU[ktop]:-?}" \
		"$(calc '%.1f' "${RSS[ktop]:-0} / 1024")" "${KCPU[*]}"
fi
printf '  %-44s %8s %8s MB   %s\n' "perf record -F 999 -g -a" "${CPU[perf]:-?}" \
	"$(calc '%.1f' "${RSS[perf]:-0} / 1024")" "${PCPU[*]}"
if [ -n "$KTOP" ] && [ -n "${CPU[perf]:-}" ] && [ -n "${CPU[ktop]:-}" ]; then
	say "  ktop's CPU / perf record's: $(calc '%.2f' "${CPU[ktop]} / (${CPU[perf]} > 0 ? ${CPU[perf]} : 1)") (target <= 1);" \
		"ktop's last run kept ${samples:-?} samples (${dropped:-?} past --memory 64M), stacks ${bytes:-?} bytes"
else
	say "  ktop: not available"
fi

say ""
say "profile: symbolizing 10k unique user stacks (profwork deep, perf record -F 999 -g)"
workers 1 600
pid=${WORKERS[0]}
sleep 0.5
perf record -q -F 999 -g -e cpu-clock:u -p "$pid" -o "$TMPD/one.data" -- sleep 15 \
	>/dev/null 2>&1
# the raw callchains (perf script prints callchain addresses relative to their file)
perf report -D -i "$TMPD/one.data" 2>/dev/null | awk '
	/PERF_RECORD_SAMPLE/ { if (s != "") print s; split($0, a, ": "); split(a[3], t, "/"); s = t[1]; next }
	/^\.\.\.\.\. +[0-9]+: [0-9a-f]+$/ { if ($3 !~ /^fffffffffffff/) s = s " " $3; next }
	END { if (s != "") print s }' | awk '!seen[$0]++' | head -10000 >"$TMPD/stacks"
nstacks=$(wc -l <"$TMPD/stacks")
"$SYMBENCH" <"$TMPD/stacks" >"$TMPD/sym.out" 2>&1
stop_workers
sym_s=$(sed -n 's/.*seconds=\([0-9.]*\).*/\1/p' "$TMPD/sym.out")
t0=${EPOCHREALTIME/./}
perf report -i "$TMPD/one.data" --stdio >/dev/null 2>&1
rep_s=$(calc '%.3f' "(${EPOCHREALTIME/./} - $t0) / 1e6")
nsamples=$(perf report -i "$TMPD/one.data" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
say "  $nstacks unique stacks of ${nsamples:-?} samples: $(cat "$TMPD/sym.out")"
say "  ktop's symbolizer: ${sym_s:-?} s; perf report --stdio on the same perf.data: $rep_s s;" \
	"ratio $(calc '%.2f' "${sym_s:-0} / ($rep_s > 0 ? $rep_s : 1)") (perf report also reads and sorts all ${nsamples:-?} samples)"
exit 0
