#!/bin/bash
# --hist and --pmu over remote agents (--via 'ktop --agent', a plain pipe), held to the local
# histogram tests' standards (bpf_hist.sh, pmu_counters.sh):
#   - a workload of exactly N getppid() calls: two agents (two hosts, one kernel) each count
#     exactly N in key getppid of syscall-latency for its pid, and at least N in the
#     system-wide counter syscalls:sys_enter_getppid (other tasks may call it too), printed
#     in host order, each block after its "# host LABEL" line, the histograms first; with
#     --json, "host" on each histogram and counters object;
#   - a spec the agent's kernel refuses (a field its event lacks): the viewer exits 1 with
#     the agent's one line, the very reason local batch mode gives, naming the agent;
#   - the viewer killed with -9: the agent's BPF programs (bpftool prog), its perf events,
#     its instance and the agent itself are gone within 2 s, as after local ktop's own end.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_workload

N=${KTOP_EXACT_N:-100000}
HOST=$(uname -n)

# agent TAG: the --via command of an agent whose pid goes to $T/TAG.agent (sh -c's exec
# keeps it) and whose debug log (attached programs) to $T/TAG.klog.
agent() { echo "echo \$\$ >$T/$1.agent; exec $KTOP --agent -v --log $T/$1.klog"; }

# counters_open TAG: until that agent's log says its counters are open and counting.
# shellcheck disable=SC2317 # called through wait_until
_counters_logged() { grep -q 'app_pmu_open_events: [0-9]* counters' "$1" 2>/dev/null; }
counters_open()
{
	wait_until 20 _counters_logged "$T/$1.klog" ||
		fail "$1: the agent opened no counters within 20 s: $(tail -n3 "$T/$1.klog")"
}

# agent_pid TAG: once that agent started, its pid in a.
agent_pid()
{
	wait_until 15 test -s "$T/$1.agent" || fail "$1: the agent did not start: $(head -c 500 "$T"/*.err)"
	a=$(cat "$T/$1.agent")
	KTOP_PIDS+=("$a")
}

# workload: N getppid calls waiting for $T/go; its pid in wl.
workload()
{
	rm -f "$T/go"
	WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" count "$N" ktop-rhist >"$T/wl" &
	CLEANUP_PIDS+=("$!")
	wait_until 5 has_line "$T/wl" || fail "the workload printed no pid"
	wl=$(head -n1 "$T/wl" | cut -d' ' -f1)
}

# exact TAG ARGS...: the workload counted by the agents the arguments start (one --hist, and
# counters the arguments ask for; HOSTS agents); the viewer stopped with SIGINT once it is
# done. Their programs are gone after.
exact()
{
	local tag=$1 progs=() agents=() h
	shift
	workload
	start_ktop "$T/$tag.out" "$T/$tag.err" -b "$@" --hist "syscall-latency,pid=$wl"
	kpid=$KTOP_PID
	for h in $HOSTS; do
		agent_pid "$tag$h"
		wait_attached "$T/$tag$h.klog" 1
		counters_open "$tag$h"
		mapfile -t -O "${#progs[@]}" progs < <(prog_ids "$a")
		agents+=("$a")
	done
	touch "$T/go"
	wait_pid_exit "$wl" 60 || fail "$tag: workload count $N did not finish"
	# nothing to wait for (see run_hist); what the kernel says the agents' programs missed
	RUN_KMISSED=0
	for a in "${agents[@]}"; do
		kernel_missed "$a"
		RUN_KMISSED=$((RUN_KMISSED + KERNEL_MISSED))
	done
	stop_ktop "$kpid" INT 30
	[ "$KTOP_RC" = 0 ] || fail "$tag: viewer exited $KTOP_RC; stderr: $(head -c 500 "$T/$tag.err")"
	assert_no_sanitizer "$T/$tag.err"
	assert_progs_gone "${progs[@]}"
}

# --- two hosts: each counts every call, its block after its label, in host order ----------
HOSTS="1 2"
exact two --via "$(agent two1)" --via "$(agent two2)" --pmu-event syscalls:sys_enter_getppid
grep '^# \(host\|hist\|pmu:\)' "$T/two.out" | cut -d' ' -f1-3 >"$T/two.blocks"
printf '# host via1\n# hist syscall-latency,pid=%s:\n# host via2\n# hist syscall-latency,pid=%s:\n# host via1\n# pmu: system-wide,\n# host via2\n# pmu: system-wide,\n' "$wl" "$wl" |
	diff -u - "$T/two.blocks" || fail "two: not each histogram's hosts, then the counters', in host order (above)"
for h in 1 2; do
	# both of the host's blocks: its histogram, then its counters
	sed -n "/^# host via$h\$/,/^# \(host\|ktop\)/p" "$T/two.out" >"$T/two$h.hist"
	grep -q "^# hist syscall-latency,pid=$wl: by=syscall unit=ns scale=log2 via=\(tp_btf\|raw_tp\|tracepoint\) " "$T/two$h.hist" ||
		fail "two: via$h's header: $(head -3 "$T/two$h.hist")"
	expect_key_count "$T/two$h.hist" getppid "$N"
	count=$(awk '$1 == "syscalls:sys_enter_getppid" { print $2 }' "$T/two$h.hist")
	[ -n "$count" ] && [ "$count" -ge "$N" ] ||
		fail "two: via$h's counter syscalls:sys_enter_getppid is '$count', the workload alone made $N calls: $(grep -A9 '^# pmu:' "$T/two$h.hist")"
	log "two: via$h: $(hist_key_line "$T/two$h.hist" getppid | cut -d' ' -f1-4), counter $count"
done

# --- --json: the histogram and counters objects carry their host ----------------------------
HOSTS=1
exact json --json --via "$(agent json1)" --pmu
python3 - "$T/json.out" "$N" <<'PY' || fail "json: $(grep '"hist"' "$T/json.out")"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
hists = [o for o in objs if "hist" in o]
pmus = [o for o in objs if "pmu" in o]
assert len(hists) == 1 and list(hists[0])[:2] == ["host", "hist"] and hists[0]["host"] == "via1", hists
assert len(pmus) == 1 and list(pmus[0])[:2] == ["host", "pmu"] and pmus[0]["host"] == "via1", pmus
assert pmus[0]["pmu"]["target"] == "system" and any(
    c["name"] == "context-switches" and c["available"] and c["value"] > 0
    for c in pmus[0]["pmu"]["counters"]), pmus
keys = {k["key"]: k for k in hists[0]["hist"]["keys"]}
n, missed = int(sys.argv[2]), hists[0]["hist"]["missed"]
assert keys["getppid"]["count"] <= n <= keys["getppid"]["count"] + missed, keys["getppid"]
PY

# --- a spec the agent's kernel refuses: the reason local batch mode gives, naming the agent -
spec='field:sched:sched_switch.no_such'
run_ktop 30 "$T/local.out" "$T/local.err" -b --hist "$spec" --duration 1
[ "$KTOP_RC" = 1 ] && [ "$(wc -l <"$T/local.err")" = 1 ] || fail "local refusal: exit $KTOP_RC: $(cat "$T/local.err")"
run_ktop 30 "$T/r.out" "$T/r.err" -b --via "$(agent ref)" --hist "$spec" --duration 1
[ "$KTOP_RC" = 1 ] || fail "refusal: exit $KTOP_RC, expected 1: $(cat "$T/r.err")"
echo "ktop: agent at $HOST refused --hist $spec: $(sed 's/^ktop: //' "$T/local.err")" |
	diff -u - "$T/r.err" || fail "refusal: not the agent's one line with local's reason (above)"
[ -s "$T/r.out" ] && fail "refusal: printed on stdout: $(cat "$T/r.out")"
wait_until 5 all_gone "$(cat "$T/ref.agent")" || fail "refusal: the agent or its instance outlived the viewer"
log "refusal: $(cat "$T/r.err")"

# --- the viewer killed with -9: the agent's programs, counters and instance go within 2 s --
start_ktop "$T/k.out" "$T/k.err" -b --via "$(agent kill9)" --hist syscall-latency --hist runq-latency \
	--pmu
kpid=$KTOP_PID
agent_pid kill9
wait_attached "$T/kill9.klog" 2
mapfile -t progs < <(prog_ids "$a")
[ "${#progs[@]}" -ge 2 ] || fail "kill9: the agent holds ${#progs[@]} BPF programs for two histograms"
counters_open kill9
counters=$(perf_counter_fds "$a")
kill -9 "$kpid"
wait_until 2 all_gone "$a" ||
	fail "kill9: 2 s after the viewer's kill -9: agent alive=$(pid_alive "$a" && echo yes || echo no), instance=$(instance_exists "$a" && echo yes || echo no)"
assert_progs_gone "${progs[@]}"
log "kill9: agent $a gone with its ${#progs[@]} BPF programs, $counters counter fds and its instance"

assert_clean
pass
