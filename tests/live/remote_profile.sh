#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# --profile over two remote agents (--via 'ktop --agent' twice, a plain pipe each): each
# agent samples -p's process on its own machine (perf_event_open, named by its own
# symbolizer) and sends its stacks when the capture stops; the viewer prints them as local
# batch mode does (profile_shares.sh), with --folded each stack under its host's label, one
# flame graph's input for both:
#  - every line is "LABEL;task;...;leaf COUNT", nothing else on stdout, a counts line per
#    host on stderr;
#  - each host's samples of profwork split: at least 90 % of 99 Hz over the CPU seconds it
#    ran, and no more than 110 % of 99 Hz over its CPU time from the viewer's start to its
#    stop (/proc/PID/stat), 70 % / 30 % in hot_seventy / hot_thirty within 5 points, root to
#    leaf;
#  - a -F above the agent's kernel's limit: local's one line (the sysctl to raise), from the
#    agent, exit 1.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../profile-lib.sh
. "$(dirname "$0")/../profile-lib.sh"
require_root_tracefs
require_profwork

CPU_SECS=${KTOP_PROFILE_SECS:-5}

start_profwork "$T/work.out" split 60
PROFILE_CPU0=$(cpu_ticks "$PROFWORK_PID")
start_ktop "$T/out" "$T/err" -b --via "echo \$\$ >$T/a1.pid; exec $KTOP --agent" \
	--via "echo \$\$ >$T/a2.pid; exec $KTOP --agent" \
	--profile -p "$PROFWORK_PID" --folded --duration 600
for i in 1 2; do
	wait_until 15 test -s "$T/a$i.pid" || fail "agent $i did not start: $(head -c 400 "$T/err")"
	a=$(cat "$T/a$i.pid")
	KTOP_PIDS+=("$a")
	wait_until 20 _mapped_ring "$a" || fail "agent $i mapped no sample ring within 20s"
done
until=$(awk -v t="$(cpu_ticks "$PROFWORK_PID")" -v s="$CPU_SECS" -v hz="$(getconf CLK_TCK)" \
	'BEGIN { printf "%d", t + s * hz }')
wait_until 300 _ran_cpu "$PROFWORK_PID" "$until" "$KTOP_PID" ||
	fail "profwork ran less than ${CPU_SECS}s of CPU in 300s"
PROFILE_CPU1=$(cpu_ticks "$PROFWORK_PID")
stop_ktop "$KTOP_PID" INT 60
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC: $(head -c 400 "$T/err")"
assert_no_sanitizer "$T/err"
_end_pid "$PROFWORK_PID"

grep -Evq '^via[12];[^; ]+(;[^;]+)+ [0-9]+$' "$T/out" &&
	fail "not folded stacks under a host label: $(grep -Ev '^via[12];[^; ]+(;[^;]+)+ [0-9]+$' "$T/out" | head -3)"
[ "$(grep -Ec '^ktop: profile: event=(cpu-clock|cycles) freq=99Hz unit=samples samples=[1-9]' "$T/err")" = 2 ] ||
	fail "not a counts line a host on stderr: $(head -c 600 "$T/err")"
for h in via1 via2; do
	sed -n "s/^$h;//p" "$T/out" >"$T/$h.folded"
	n=$(samples "$T/$h.folded" profwork)
	[ "$n" -ge $((CPU_SECS * 99 * 9 / 10)) ] ||
		fail "$h: only $n samples of profwork in ${CPU_SECS}s of its CPU at 99 Hz"
	samples_at_most "$n" "$h"
	s70=$(share "$T/$h.folded" profwork hot_seventy)
	s30=$(share "$T/$h.folded" profwork hot_thirty)
	awk -v a="$s70" -v b="$s30" 'BEGIN { exit !(a >= 65 && a <= 75 && b >= 25 && b <= 35) }' ||
		fail "$h: shares $s70% / $s30%, not 70 / 30 within 5 points: $(head -5 "$T/$h.folded")"
	grep -q '^profwork;__libc_start_call_main;main;hot_seventy [0-9]' "$T/$h.folded" ||
		fail "$h: no root-to-leaf stack profwork;...;main;hot_seventy: $(head -3 "$T/$h.folded")"
	log "$h: $n samples, hot_seventy $s70%, hot_thirty $s30%"
done

run_ktop 30 "$T/bad.out" "$T/bad.err" -b --via "exec $KTOP --agent" --profile -F 1000000 \
	--duration 0.5
[ "$KTOP_RC" = 1 ] && [ "$(wc -l <"$T/bad.err")" = 1 ] &&
	grep -q 'refused --profile: -F 1000000 is above kernel.perf_event_max_sample_rate' "$T/bad.err" ||
	fail "-F 1000000 over the agent: exit $KTOP_RC: $(cat "$T/bad.err")"
log "-F 1000000: exit $KTOP_RC: $(cat "$T/bad.err")"
assert_clean
pass
