#!/bin/bash
# The overview over two agents at once (ktop -b --top --json --via A --via B, ktop.1
# OVERVIEW): each agent counts with its own BPF object and sends its ticks; the viewer merges
# every host's rows in one table, each task with its "host", and gives each host's machine
# in "hosts". Both agents run on this machine, so each sees the same workload: its figures
# must match the kernel's under each host, held to remote_overview.sh's oracles:
#   - a 70% duty-cycle spinner: its CPU time within 3 points of /proc/PID/stat
#     utime+stime, under via1 and under via2;
#   - exactly N getppid() calls: the syscalls of the process making them minus those of
#     the same program making none, under each host;
#   - every line's tasks come from both hosts, every line's "hosts" names both, each with
#     the agent machine's CPU count;
# the text form has a HOST column; two agents are no longer refused; both agents' BPF
# programs are gone once the viewer ends (SIGINT).
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

agent() { printf 'echo $$ >%s/%s; exec %s --agent -v --log %s/%s.klog' "$T" "$1" "$KTOP" "$T" "$1"; }
start_ktop "$T/top.out" "$T/top.err" -b --top --json --interval 1 --duration 60 \
	--via "$(agent a1)" --via "$(agent a2)"
FAIL_SHOW+=("$T/top.err")
_agents() { test -s "$T/a1" && test -s "$T/a2"; }
wait_until 15 _agents || fail "the agents did not start: $(head -c 500 "$T/top.err")"
a1=$(cat "$T/a1") a2=$(cat "$T/a2")
KTOP_PIDS+=("$a1" "$a2")
wait_attached "$T/a1.klog" 1
wait_attached "$T/a2.klog" 1
mapfile -t PROGS < <(prog_ids "$a1"; prog_ids "$a2")

bg duty $WORK duty 70 2
bg count0 "$KTOP_WORKLOAD" count 0 ktop-rovh-c0
bg count "$KTOP_WORKLOAD" count "$CALLS" ktop-rovh-cn
pid=${PID_OF[duty]}
wait_until 30 _stopped "$pid" || fail "duty did not finish within 30 s: $(cat "$T/duty.wlerr")"
cat "/proc/$pid/stat" >"$T/duty.stat" || fail "cannot read /proc/$pid/stat"
for tag in count0 count; do
	wait_pid_exit "${PID_OF[$tag]}" 30 || fail "$tag ran past 30 s"
	[ "$WAIT_RC" = 0 ] || fail "$tag exited $WAIT_RC: $(cat "$T/$tag.wlerr")"
done
# the interval they stopped in, and one more, are printed (each line: both hosts' tick)
lines=$(wc -l <"$T/top.out")
_more() { [ "$(wc -l <"$T/top.out")" -ge $((lines + 2)) ]; }
wait_until 15 _more || fail "ktop printed no interval for 15 s: $(tail -c 300 "$T/top.err")"
lines=$(wc -l <"$T/top.out")
{ kill -KILL "$pid" && wait "$pid"; } 2>/dev/null
stop_ktop "$KTOP_PID" INT 10
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC: $(head -c 400 "$T/top.err")"
wait_pid_exit "$a1" 5 || fail "agent 1 outlived its viewer by 5 s"
wait_pid_exit "$a2" 5 || fail "agent 2 outlived its viewer by 5 s"
assert_progs_gone "${PROGS[@]}"

python3 - "$T" "$CALLS" "$lines" "$(nproc)" <<'EOF2' || fail "the figures above do not match"
import json, os, sys
T, calls, nlines, ncpus = sys.argv[1], *map(int, sys.argv[2:5])
tot, bad = {}, []
out = open(f"{T}/top.out").readlines()[:nlines]
for line in out:
    o = json.loads(line)
    hosts = [h["host"] for h in o.get("hosts", [])]
    # a line may lack a host that was a whole tick late; most hold both
    if not hosts or "system" in o:
        sys.exit(f"a line has no per-host systems: {line[:300]}")
    for h in o["hosts"]:
        if h["system"]["cpus"] != ncpus or not h["system"]["source"].startswith("bpf "):
            sys.exit(f"{h['host']}'s system is not the agent's machine's: {h['system']}")
    for t in o["tasks"]:
        if t.get("host") not in hosts:
            sys.exit(f"a task's host is not one of the line's {hosts}: {t}")
        s = tot.setdefault((t["host"], t["pid"]), {"cpu_s": 0, "syscalls": 0})
        iv = next(h["interval_s"] for h in o["hosts"] if h["host"] == t["host"])
        s["cpu_s"] += t["cpu_pct"] / 100 * iv
        s["syscalls"] += t["syscalls"]
# most lines hold both hosts' ticks: a host is left out of a line only when it is two
# ticks behind the other (remote_overview.c), which a loaded machine makes rare
both = sum(1 for l in out if {h["host"] for h in json.loads(l)["hosts"]} == {"via1", "via2"})
print(f"remote_overview_hosts: {both} of {len(out)} lines hold both hosts", file=sys.stderr)
if both < 0.8 * len(out):
    bad.append(f"only {both} of {len(out)} lines hold both hosts")

def wl(tag):
    lines = open(f"{T}/{tag}.wl").read().split("\n")
    pid = int(lines[0].split()[0])
    kern = {}
    if os.path.exists(f"{T}/{tag}.stat"):
        stat = open(f"{T}/{tag}.stat").read().rsplit(")", 1)[1].split()
        kern["cpu_s"] = (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    for l in lines[1:]:
        if l.startswith("{"):
            kern.update(json.loads(l))
    return pid, kern

def check(what, ok, detail):
    print(f"remote_overview_hosts: {what}: {detail}", file=sys.stderr)
    if not ok:
        bad.append(what)

for host in ("via1", "via2"):
    c0, _ = wl("count0")
    cn, _ = wl("count")
    if (host, c0) not in tot or (host, cn) not in tot:
        bad.append(f"{host}: the getppid workloads are in no interval")
        continue
    d = tot[(host, cn)]["syscalls"] - tot[(host, c0)]["syscalls"]
    check(f"{host}: getppid calls", abs(d - calls) <= 5,
          f"{tot[(host, cn)]['syscalls']} - {tot[(host, c0)]['syscalls']} (the same program making none) = {d}, made {calls}")
    pid, kern = wl("duty")
    if (host, pid) not in tot:
        bad.append(f"{host}: the spinner {pid} is in no interval")
        continue
    k = tot[(host, pid)]
    pts = abs(k["cpu_s"] - kern["cpu_s"]) / kern["wall_s"] * 100
    check(f"{host}: 70% spinner CPU", pts <= 3,
          f"{k['cpu_s']:.3f} s, utime+stime {kern['cpu_s']:.3f} s over {kern['wall_s']:.2f} s")
if bad:
    print("remote_overview_hosts: " + "; ".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF2

# The text form: each host's strip headed by its label, a HOST column, rows of both hosts
run_ktop 30 "$T/text.out" "$T/text.err" -b --top --interval 0.5 --duration 1.7 \
	--via "exec $KTOP --agent" --via "exec $KTOP --agent"
[ "$KTOP_RC" = 0 ] || fail "two agents' --top (text) exited $KTOP_RC: $(head -c 300 "$T/text.err")"
grep -q '^ktop - [0-9:]*  host via1  interval' "$T/text.out" &&
	grep -q '^ktop - [0-9:]*  host via2  interval' "$T/text.out" ||
	fail "no strip headed by each host: $(head -c 600 "$T/text.out")"
grep -q '^HOST  *PID USER' "$T/text.out" || fail "no HOST column: $(head -c 900 "$T/text.out")"
for h in via1 via2; do
	grep -qE "^$h +[0-9]+ " "$T/text.out" || fail "no row of $h: $(head -c 1200 "$T/text.out")"
done
assert_clean
pass
