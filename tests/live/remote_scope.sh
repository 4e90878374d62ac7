#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# -p, --comm and --cgroup over a remote agent (--via 'ktop --agent', a plain pipe): the scope
# request sets them in the agent's instance before anything it scopes, as local batch mode
# does, and the processes and cgroups named are the agent's machine's. Two workloads of known
# getppid counts, A (NA calls) and B (NB calls), run together; each capture must hold every
# call of the one in scope and none of the other's:
#  - -p A: exactly NA events, all A's, and the counters -p implies are A's (# pmu: pid A);
#  - --comm B's name: exactly NB events, all B's;
#  - --cgroup with A inside: exactly NA events, all A's, and a --hist over the agent counts
#    exactly NA (the BPF program filters by the agent's cgroup);
#  - a pid or a cgroup the agent's machine does not have: the viewer exits 1 with the
#    agent's one line naming the option, and the agent leaves nothing behind;
#  - --max-events M with a scope of 500 calls: the viewer prints exactly M and ends the
#    capture itself, long before its --duration.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_cgroup2

NA=3000
NB=2000
EV=syscalls:sys_enter_getppid
make_cgroup rscope
CGNAME=${CGROUP_DIR#"$CGROUP2"}


_logged() { grep -q -- "$2" "$1" 2>/dev/null; }

# capture TAG READY ARGS...: the viewer over one agent with ARGS (PA in them: A's pid), both
# workloads released once the agent's log has READY (its last request answered), stopped
# with SIGINT after they end. A runs in the cgroup CG_A when that is set.
capture()
{
	local tag=$1 ready=$2 args=() x
	shift 2
	rm -f "$T/go"
	spawn_count ktop-rs-a $NA "${CG_A:-}"
	pa=$wl_pid
	spawn_count ktop-rs-b $NB
	pb=$wl_pid
	for x in "$@"; do args+=("${x//PA/$pa}"); done
	start_ktop "$T/$tag.out" "$T/$tag.err" -b \
		--via "echo \$\$ >$T/$tag.agent; exec $KTOP --agent -v --log $T/$tag.klog" \
		-e "$EV" "${args[@]}"
	wait_until 30 _logged "$T/$tag.klog" "$ready" ||
		fail "$tag: the agent did not answer its requests: $(cat "$T/$tag.err") $(tail -n5 "$T/$tag.klog")"
	touch "$T/go"
	wait "$pa" "$pb" 2>/dev/null
	wait_until 10 ring_read "$(cat "$T/$tag.agent")" ||
		fail "$tag: the agent left events unread in its instance 10 s after the workloads"
	stop_ktop "$KTOP_PID" INT 15
	[ "$KTOP_RC" = 0 ] || fail "$tag: ktop exited $KTOP_RC: $(cat "$T/$tag.err")"
	assert_no_sanitizer "$T/$tag.err"
}

# only TAG WHO N: the capture holds exactly N events, every one of ktop-rs-WHO ($pa or $pb).
only()
{
	local pid got others
	[ "$2" = a ] && pid=$pa || pid=$pb
	got=$(grep -c -- " ktop-rs-$2-$pid .*$EV:" "$T/$1.out")
	others=$(grep -- "$EV:" "$T/$1.out" | grep -cv -- " ktop-rs-$2-$pid ")
	[ "$got" = "$3" ] && [ "$others" = 0 ] ||
		fail "$1: $got events of ktop-rs-$2-$pid (expected $3) and $others of others: $(grep -- "$EV:" "$T/$1.out" | grep -v -- "-$pid " | head -5)"
	grep -q "^# ktop: events=$3 lost=0 " "$T/$1.out" ||
		fail "$1: the summary does not say events=$3 lost=0: $(grep '^# ktop' "$T/$1.out")"
}

# ---- -p: the agent's pid; the counters -p implies are that process's ---------------------
capture pid 'agent_request: counters' -p PA
only pid a $NA
grep -q "^# pmu: pid $pa (1 thread)" "$T/pid.out" &&
	grep -q '^task-clock  *[1-9]' "$T/pid.out" ||
	fail "-p: no counters of pid $pa: $(grep -A3 '^# pmu' "$T/pid.out")"
log "-p: $NA of $NA of A's calls, none of B's $NB, and A's own counters"

# ---- --comm: a name on the agent's machine ---------------------------------------------------
capture comm "agent_request: enable $EV" --comm ktop-rs-b
only comm b $NB
log "--comm: $NB of $NB of B's calls, none of A's $NA"

# ---- --max-events: M printed, and the capture ends by itself ---------------------------------
rm -f "$T/go"
spawn_count ktop-rs-m 500
pm=$wl_pid
start_ktop "$T/max.out" "$T/max.err" -b --via "exec $KTOP --agent -v --log $T/max.klog" \
	-e "$EV" --comm ktop-rs-m --max-events 100 --duration 600
wait_until 30 _logged "$T/max.klog" "agent_request: enable $EV" ||
	fail "--max-events: the agent did not enable $EV: $(cat "$T/max.err")"
touch "$T/go"
wait_pid_exit "$KTOP_PID" 60 || fail "--max-events 100: the viewer did not end the capture itself"
[ "$WAIT_RC" = 0 ] && [ "$(grep -c -- " ktop-rs-m-$pm .*$EV:" "$T/max.out")" = 100 ] &&
	[ "$(grep -c -- "$EV:" "$T/max.out")" = 100 ] ||
	fail "--max-events 100: exit $WAIT_RC, $(grep -c -- "$EV:" "$T/max.out") events printed: $(cat "$T/max.err")"
log "--max-events 100: 100 of the 500 calls printed, the capture ended by itself"

# ---- --cgroup: the agent's cgroup, for events and a histogram alike ---------------------------
CG_A=$CGROUP_DIR capture cgroup 'agent_request: hist' --cgroup "$CGNAME" \
	--hist "field:$EV.__syscall_nr"
only cgroup a $NA
grep -q "^key all count=$NA " "$T/cgroup.out" ||
	fail "--cgroup: the histogram over the agent did not count exactly $NA: $(grep -A2 '^# hist' "$T/cgroup.out")"
log "--cgroup: $NA of $NA of A's calls in events and histogram, none of B's"

# ---- what the agent's machine does not have: its one line, exit 1, nothing left --------------
run_ktop 30 "$T/nopid.out" "$T/nopid.err" -b --via "exec $KTOP --agent" -e "$EV" -p 2147483646 \
	--duration 0.5
[ "$KTOP_RC" = 1 ] && [ "$(wc -l <"$T/nopid.err")" = 1 ] &&
	grep -q 'refused -p: ' "$T/nopid.err" ||
	fail "-p of a pid the agent's machine lacks: exit $KTOP_RC: $(cat "$T/nopid.err")"
run_ktop 30 "$T/nocg.out" "$T/nocg.err" -b --via "exec $KTOP --agent" -e "$EV" \
	--cgroup /ktop-no-such-cgroup-$$ --duration 0.5
[ "$KTOP_RC" = 1 ] && [ "$(wc -l <"$T/nocg.err")" = 1 ] &&
	grep -q 'refused --cgroup: .*ktop-no-such-cgroup' "$T/nocg.err" ||
	fail "--cgroup the agent's machine lacks: exit $KTOP_RC: $(cat "$T/nocg.err")"
log "a pid or a cgroup the agent lacks: the agent's one line, exit 1: $(cat "$T/nocg.err")"
assert_clean
pass
