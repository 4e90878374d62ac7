#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# --off-cpu over two remote agents (--via 'ktop --agent' twice, a plain pipe each), as the
# local off-CPU test (offcpu_sleep.sh) checks it: a workload's 5 reads of a pipe, each
# answered 200 ms after the reader is seen off the CPU, scoped by -p on the agent's machine
# (the scope request), counted by each agent's BPF program on sched_switch, its frames named
# there, and printed by the viewer as local -b --off-cpu prints them:
#  - --folded: every line "LABEL;task;...;leaf NS", nothing else on stdout; a counts line
#    per host on stderr ("ktop: off-cpu: via=... unit=ns ...");
#  - each host's time in the pipe read is 1 s at least (200 ms less per stretch the host
#    reported unended=, and those bounded by the switches the test's own instance saw end)
#    and no more than the reads took by the workload's own clock, under
#    libc's read, vfs_read and pipe_read, ending at __schedule;
#  - --json with one agent: one {"host":...,"offcpu":{...}} object, unit ns, the same time;
#  - --wakers with one agent: each read's time, as much as above, under its waker's frames
#    after a "--" (try_to_wake_up ... pipe_write), and the waker's name, wl-waker, last;
#  - each agent's programs are gone once the viewer ends (SIGINT, then the agents' ends).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
# shellcheck source-path=SCRIPTDIR source=../offcpu-lib.sh
. "$(dirname "$0")/../offcpu-lib.sh"
require_live_hist
require_workload
require_python

ATTACHED_RE='offcpu_open: attached via '
NAME=ktop-roffcpu

# run NAME TAGS -- ARGS...: the block workload (SCHED_FIFO, released once the agents'
# programs are attached), the viewer over one agent per TAG with ARGS, -p the workload;
# stopped by SIGINT once the workload ended; the agents' programs gone after.
run()
{
	local name=$1 tags=() args=() t a progs=()
	shift
	while [ "$1" != -- ]; do tags+=("$1"); shift; done
	shift
	rm -f "$T/$name.fifo"
	mkfifo "$T/$name.fifo"
	# shellcheck disable=SC2016 # $0 and $@ belong to the inner shell
	chrt -f 1 bash -c 'echo $$; read -r _ <"$0"; exec "$@"' "$T/$name.fifo" \
		"$KTOP_WORKLOAD" block 200 "$OFFCPU_READS" "$NAME" >"$T/$name.wl" &
	local wl=$!
	CLEANUP_PIDS+=("$wl")
	wait_until 5 has_line "$T/$name.wl" || fail "$name: the workload printed no pid"
	for t in "${tags[@]}"; do args+=(--via "$(remote_via "$name-$t")"); done
	start_ktop "$T/$name.out" "$T/$name.err" -b "${args[@]}" "$@" -p "$wl" -d 1
	for t in "${tags[@]}"; do
		wait_until 15 test -s "$T/$name-$t.agent" || fail "$name: agent $t did not start: $(head -c 400 "$T/$name.err")"
		a=$(cat "$T/$name-$t.agent")
		KTOP_PIDS+=("$a")
		wait_attached "$T/$name-$t.klog" 1
		mapfile -t -O "${#progs[@]}" progs < <(prog_ids "$a")
	done
	[ "${#progs[@]}" -ge "${#tags[@]}" ] || fail "$name: the agents hold no BPF program"
	WPID=$wl
	switch_log_start
	echo go >"$T/$name.fifo"
	wait "$wl" || fail "$name: the workload failed"
	_event_log_stop "$T/$name.switches"
	sleep 0.3 # the last switches land before the agents' final read
	stop_ktop "$KTOP_PID" INT 30
	[ "$KTOP_RC" = 0 ] || fail "$name: ktop exited $KTOP_RC; stderr: $(head -c 400 "$T/$name.err")"
	assert_no_sanitizer "$T/$name.err"
	assert_progs_gone "${progs[@]}"
}

# ---- two agents, --folded ------------------------------------------------------------------
run two a1 a2 -- --off-cpu --folded
grep -Evq '^via[12];[^; ]+(;[^;]+)+ [0-9]+$' "$T/two.out" &&
	fail "not folded stacks under a host label: $(grep -Ev '^via[12];[^; ]+(;[^;]+)+ [0-9]+$' "$T/two.out" | head -3)"
mapfile -t counts < <(grep '^ktop: off-cpu: via=[a-z_]* unit=ns ' "$T/two.err")
[ "${#counts[@]}" = 2 ] || fail "not a counts line a host on stderr: $(head -c 800 "$T/two.err")"
offcpu_blocked_ns "$T/two.wl"
offcpu_seen_ended "$T/two.switches" "$WPID"
for i in 1 2; do
	sed -n "s/^via$i;//p" "$T/two.out" >"$T/via$i.folded"
	unended=$(echo "${counts[$((i - 1))]}" | sed -n 's/.* unended=\([0-9]*\) .*/\1/p')
	[ -n "$unended" ] || fail "via$i: no unended= in its counts: ${counts[$((i - 1))]}"
	offcpu_check "via$i" "$T/via$i.folded" "$NAME" "$unended" "$OFFCPU_HI" "$OFFCPU_ENDED" \
		"the workload's switches and wakeups:
$(cat "$T/two.switches")"
done

# ---- one agent, --json -----------------------------------------------------------------------
run json a -- --off-cpu --json
offcpu_blocked_ns "$T/json.wl"
offcpu_seen_ended "$T/json.switches" "$WPID"
offcpu_check_json "$T/json.out" "$NAME" "$OFFCPU_HI" "$OFFCPU_ENDED" via1 ||
	fail "--json: $(head -c 1500 "$T/json.out")
the workload's switches and wakeups:
$(cat "$T/json.switches")"
log "--json: unit ns, the reads' time off the CPU, from the agent"

# ---- one agent, --wakers -----------------------------------------------------------------
run wakers a -- --off-cpu --wakers --folded
grep -q '^ktop: off-cpu: via=[a-z_]* unit=ns .* wakers=1$' "$T/wakers.err" ||
	fail "--wakers: no wakers=1 in the agent's counts: $(head -c 800 "$T/wakers.err")"
offcpu_blocked_ns "$T/wakers.wl"
offcpu_seen_ended "$T/wakers.switches" "$WPID"
unended=$(sed -n 's/^ktop: off-cpu: .* unended=\([0-9]*\) .*/\1/p' "$T/wakers.err")
lo=$(((OFFCPU_READS - ${unended:-0} - (OFFCPU_READS - OFFCPU_ENDED)) * OFFCPU_READ_NS))
ns=$(awk -v n="$NAME;" '(index($0, n) == 1 || index($0, "via1;" n) == 1) && /;(anon_)?pipe_read;(.*;)?__schedule;--;try_to_wake_up;(.*;)?(anon_)?pipe_write;(.*;)?wl-waker [0-9]+$/ { s += $NF }
	END { printf "%d\n", s }' "$T/wakers.out")
[ "$ns" -ge "$lo" ] && [ "$ns" -le "$OFFCPU_HI" ] ||
	fail "--wakers: $ns ns of the reads under wl-waker's pipe_write, expected $lo to $OFFCPU_HI:
$(grep -- "$NAME;" "$T/wakers.out" | cut -c1-400)"
log "--wakers: $ns ns of the reads under their waker, from the agent"
assert_clean
pass
