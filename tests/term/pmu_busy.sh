#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The counters pane's cpu-clock is each CPU's busy time, as /proc/stat counts it: perf's
# cpu-clock on a CPU is wall time, the idle task's included, so an idle machine read
# "2.00CPU" with full bars. With a spinner pinned to CPU 1, each CPU's figure in the
# per-CPU section (80x24) agrees within a few points with the busy share this test reads
# from /proc/stat over the same second. A reason shared by several unavailable counters
# (no PMU driver on a VM) is said once, whole, wrapped down their rows.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux

ncpu=$(grep -c '^processor' /proc/cpuinfo)
[ "$ncpu" -ge 2 ] || skip "needs two CPUs (a spinner on CPU 1 beside CPU 0)"
taskset -c 1 sh -c 'while :; do :; done' &
CLEANUP_PIDS+=("$!")

mkdir -p "$T/xdg"
tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- --pmu -d 10
expect_text "Counters: system-wide" 10 "--pmu did not open the counters pane"
tmux_keys Tab
expect_text "F11Close" 3 "Tab did not focus the counters pane"
_zoomed() { _screen_has "cpu-clock per CPU busy \(idle left out\)"; }
wait_until 2 _zoomed || tmux_keys F9
expect_text "cpu-clock per CPU busy \(idle left out\)" 5 "no per-CPU busy section at 80x24"
expect_text "^cpu1 .* [0-9.]+CPU *$" 5 "no cpu1 figure"

# Each poll: the time, CPU 0 and 1's busy and total ticks, the screen's figures.
stat01() { awk '/^cpu[01] /{b=$2+$3+$4+$7+$8+$9; t=b+$5+$6; printf " %s %s", b, t}' /proc/stat; }
shown() {
	tmux_screen | awk '/^cpu-clock +[0-9.]+m?s /{v=$2} /^cpu[01] .*CPU *$/{f[substr($1,4)]=$NF}
		END{sub("CPU","",f[0]); sub("CPU","",f[1]); printf " %s %s %s", v, f[0], f[1]}'
}
for _ in $(seq 40); do
	echo "$(date +%s.%N)$(stat01)$(shown)"
	sleep 0.05
done >"$T/polls"

# A new figure appeared between polls i-1 and i: it covers the second before. The best of
# /proc/stat's windows ending at those two polls, a second long, must be within TOL points.
TOL=6
awk -v tol="$TOL" '
	{ t[NR]=$1; b0[NR]=$2; a0[NR]=$3; b1[NR]=$4; a1[NR]=$5; v[NR]=$6; f0[NR]=$7; f1[NR]=$8 }
	function share(b, a, i, j) { return a[i] > a[j] ? 100 * (b[i] - b[j]) / (a[i] - a[j]) : -1 }
	function best(cpu, fig, i,   e, j, s, d, m) {
		m = 999
		for (e = i - 1; e <= i; e++) {
			for (j = e; j > 1 && t[e] - t[j] < 1.0; j--) ;
			s = cpu ? share(b1, a1, e, j) : share(b0, a0, e, j)
			d = fig * 100 - s; if (d < 0) d = -d
			if (s >= 0 && d < m) m = d
		}
		return m
	}
	END {
		for (i = 2; i <= NR; i++) {
			if (v[i] == v[i-1] || t[i] - t[1] < 1.2 || f0[i] == "" || f1[i] == "") continue
			n++
			d0 = best(0, f0[i], i); d1 = best(1, f1[i], i)
			printf "tick at %.2fs: cpu0 %s CPU (off by %.1f), cpu1 %s CPU (off by %.1f)\n",
				t[i] - t[1], f0[i], d0, f1[i], d1
			if (d0 > tol || d1 > tol) bad++
			if (f1[i] < 0.9) low++
		}
		printf "%d ticks compared\n", n
		exit (n < 2 ? 2 : bad ? 3 : low ? 4 : 0)
	}' "$T/polls" >"$T/verdict"
rc=$?
cat "$T/verdict" >&2
case $rc in
0) ;;
2) fail "fewer than two ticks seen in 3.5 s of polls (see $T/polls)" ;;
3) fail "a CPU's busy figure is more than $TOL points off /proc/stat's" ;;
4) fail "cpu1 runs a spinner but shows under 0.9 CPU" ;;
*) fail "awk failed comparing the polls" ;;
esac

# A reason shared by the hardware counters: said once, whole, down their rows (80x40:
# all of them in view).
if ! have_hw_pmu; then
	tmux_size 80 40
	expect_text "^branch-misses +n/a" 5 "branch-misses is not n/a at 80x40"
	count=$(tmux_screen | grep -c "no PMU driver")
	[ "$count" = 1 ] || fail "the no-PMU reason is said $count times, not once"
	said=$(tmux_screen | sed -n 's/^[a-z-]* *n\/a *//p' | tr '\n' ' ' | tr -s ' ')
	grep -q "no PMU driver .*a VM needs a virtual PMU)" <<<"$said" ||
		fail "the no-PMU reason is cut: '$said'"
fi
tmux_quit_clean
pass
