#!/bin/bash
# The overview over an agent (ktop -b --top --via 'ktop --agent', ktop.1 OVERVIEW): the agent
# counts with the same BPF object and sends each tick (KT_REQ_OVERVIEW_LIVE, an OVROWS
# frame); the viewer prints every one. Held to overview_counts.sh's oracles, outside ktop:
#   - exactly N getppid() calls: the syscalls of the process making them minus those of the
#     same program making none (the few it makes around them);
#   - a 70% duty-cycle spinner: its CPU time within 3 points of /proc/PID/stat utime+stime;
#   - N pages touched: minflt within 2% of getrusage's;
#   - the system strip is the agent's machine's (its CPU count is nproc's here: one kernel);
# the agent's BPF programs are gone once the viewer ends (SIGINT). An agent without BPF's
# capabilities sends /proc's columns, null for the rest, and the viewer says why on stderr,
# once. (Two agents at once: remote_overview_hosts.sh.)
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
# shellcheck source-path=SCRIPTDIR source=../overview-lib.sh
. "$(dirname "$0")/../overview-lib.sh"
require_live_hist
require_workload
require_python

ATTACHED_RE='overview_open: attached via '
CALLS=20000
PAGES=20000

start_ktop "$T/top.out" "$T/top.err" -b --top --json --interval 1 --duration 60 \
	--via "echo \$\$ >$T/agent; exec $KTOP --agent -v --log $T/a.klog"
FAIL_SHOW+=("$T/top.err")
wait_until 15 test -s "$T/agent" || fail "the agent did not start: $(head -c 500 "$T/top.err")"
agent=$(cat "$T/agent")
KTOP_PIDS+=("$agent")
wait_attached "$T/a.klog" 1
mapfile -t PROGS < <(prog_ids "$agent")

bg duty $WORK duty 70 2
bg touch $WORK touch "$PAGES" -
bg count0 "$KTOP_WORKLOAD" count 0 ktop-rov-c0
bg count "$KTOP_WORKLOAD" count "$CALLS" ktop-rov-cn
for tag in duty touch; do
	pid=${PID_OF[$tag]}
	wait_until 30 _stopped "$pid" || fail "$tag did not finish within 30 s: $(cat "$T/$tag.wlerr")"
	cat "/proc/$pid/stat" >"$T/$tag.stat" || fail "cannot read /proc/$pid/stat"
done
for tag in count0 count; do
	wait_pid_exit "${PID_OF[$tag]}" 30 || fail "$tag ran past 30 s"
	[ "$WAIT_RC" = 0 ] || fail "$tag exited $WAIT_RC: $(cat "$T/$tag.wlerr")"
done
# the interval they stopped in, and one more, are printed
lines=$(wc -l <"$T/top.out")
_more() { [ "$(wc -l <"$T/top.out")" -ge $((lines + 2)) ]; }
wait_until 15 _more || fail "ktop printed no interval for 15 s: $(tail -c 300 "$T/top.err")"
lines=$(wc -l <"$T/top.out")
for tag in duty touch; do
	{ kill -KILL "${PID_OF[$tag]}" && wait "${PID_OF[$tag]}"; } 2>/dev/null
done
stop_ktop "$KTOP_PID" INT 10
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC: $(head -c 400 "$T/top.err")"
wait_pid_exit "$agent" 5 || fail "the agent outlived its viewer by 5 s"
assert_progs_gone "${PROGS[@]}"

python3 - "$T" "$CALLS" "$PAGES" "$lines" "$(nproc)" <<'EOF2' || fail "the figures above do not match"
import json, os, sys
T, calls, pages, nlines, ncpus = sys.argv[1], *map(int, sys.argv[2:6])
tot, bad = {}, []
for line in open(f"{T}/top.out").readlines()[:nlines]:
    o = json.loads(line)
    if o["system"]["cpus"] != ncpus or not o["system"]["source"].startswith("bpf "):
        sys.exit(f"a line's system is not the agent's machine's: {o['system']}")
    for t in o["tasks"]:
        s = tot.setdefault(t["pid"], {"cpu_s": 0, "syscalls": 0, "minflt": 0})
        s["cpu_s"] += t["cpu_pct"] / 100 * o["interval_s"]
        s["syscalls"] += t["syscalls"]
        s["minflt"] += t["minflt"]

def wl(tag):
    lines = open(f"{T}/{tag}.wl").read().split("\n")
    pid = int(lines[0].split()[0])
    if pid not in tot:
        sys.exit(f"{tag}: pid {pid} is in no interval")
    kern = {}
    if os.path.exists(f"{T}/{tag}.stat"):
        stat = open(f"{T}/{tag}.stat").read().rsplit(")", 1)[1].split()
        kern["cpu_s"] = (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    for l in lines[1:]:
        if l.startswith("{"):
            kern.update(json.loads(l))
    return tot[pid], kern

def check(what, ok, detail):
    print(f"remote_overview: {what}: {detail}", file=sys.stderr)
    if not ok:
        bad.append(what)

c0, _ = wl("count0")
cn, _ = wl("count")
d = cn["syscalls"] - c0["syscalls"]
check("getppid calls", abs(d - calls) <= 5,
      f"{cn['syscalls']} - {c0['syscalls']} (the same program making none) = {d}, made {calls}")
k, kern = wl("duty")
pts = abs(k["cpu_s"] - kern["cpu_s"]) / kern["wall_s"] * 100
check("70% spinner CPU", pts <= 3,
      f"agent {k['cpu_s']:.3f} s, utime+stime {kern['cpu_s']:.3f} s over {kern['wall_s']:.2f} s")
k, kern = wl("touch")
check("minor faults", abs(k["minflt"] - kern["ru_minflt"]) <= 0.02 * kern["ru_minflt"]
      and kern["ru_minflt"] >= pages, f"agent {k['minflt']}, getrusage {kern['ru_minflt']}")
sys.exit(1 if bad else 0)
EOF2

# An agent without BPF (root without CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN): /proc's
# columns, null for the others, and why, once, on the viewer's stderr
command -v capsh >/dev/null || fail "needs capsh (libcap2-bin) to drop BPF's capabilities"
run_ktop 30 "$T/nobpf.out" "$T/nobpf.err" -b --top --json --interval 0.5 --duration 1.7 \
	--via "exec capsh --drop=cap_bpf,cap_perfmon,cap_sys_admin -- -c 'exec $KTOP --agent'"
[ "$KTOP_RC" = 0 ] || fail "--top over an agent without BPF exited $KTOP_RC: $(head -c 300 "$T/nobpf.err")"
[ "$(grep -c '^ktop: overview via /proc (not permitted: .*CAP_BPF and CAP_PERFMON' "$T/nobpf.err")" = 1 ] ||
	fail "the viewer did not say once why the agent's overview has no BPF: $(cat "$T/nobpf.err")"
python3 - "$T/nobpf.out" <<'EOF2' || fail "nobpf: $(head -c 600 "$T/nobpf.out")"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
tasks = [t for o in lines for t in o["tasks"]]
assert 2 <= len(lines) <= 4 and tasks, f"{len(lines)} intervals, with tasks"
assert all(o["system"]["source"].startswith("/proc (") for o in lines)
assert all(t[k] is None for t in tasks for k in
           ("offcpu_ms", "syscalls", "syscall_errors", "syscall_p99_ns", "migrations"))
assert sum(t["cpu_pct"] for t in tasks) > 0
EOF2

assert_clean
pass
