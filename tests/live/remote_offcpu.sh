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
#    reported unended=) and no more than the reads took by the workload's own clock, under
#    libc's read, vfs_read and pipe_read, ending at __schedule;
#  - --json with one agent: one {"host":...,"offcpu":{...}} object, unit ns, the same time;
#  - each agent's programs are gone once the viewer ends (SIGINT, then the agents' ends).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_workload
require_python

ATTACHED_RE='offcpu_open: attached via '
NAME=ktop-roffcpu
READS=5
READ_NS=200000000
PIPE_READ=';(anon_)?pipe_read;'

# via TAG: an agent whose pid goes to $T/TAG.agent and its debug log to $T/TAG.klog.
via() { echo "echo \$\$ >$T/$1.agent; exec $KTOP --agent -v --log $T/$1.klog"; }

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
		"$KTOP_WORKLOAD" block 200 "$READS" "$NAME" >"$T/$name.wl" &
	local wl=$!
	CLEANUP_PIDS+=("$wl")
	wait_until 5 has_line "$T/$name.wl" || fail "$name: the workload printed no pid"
	for t in "${tags[@]}"; do args+=(--via "$(via "$name-$t")"); done
	start_ktop "$T/$name.out" "$T/$name.err" -b "${args[@]}" "$@" -p "$wl" -d 1
	for t in "${tags[@]}"; do
		wait_until 15 test -s "$T/$name-$t.agent" || fail "$name: agent $t did not start: $(head -c 400 "$T/$name.err")"
		a=$(cat "$T/$name-$t.agent")
		KTOP_PIDS+=("$a")
		wait_attached "$T/$name-$t.klog" 1
		mapfile -t -O "${#progs[@]}" progs < <(prog_ids "$a")
	done
	[ "${#progs[@]}" -ge "${#tags[@]}" ] || fail "$name: the agents hold no BPF program"
	echo go >"$T/$name.fifo"
	wait "$wl" || fail "$name: the workload failed"
	sleep 0.3 # the last switches land before the agents' final read
	stop_ktop "$KTOP_PID" INT 30
	[ "$KTOP_RC" = 0 ] || fail "$name: ktop exited $KTOP_RC; stderr: $(head -c 400 "$T/$name.err")"
	assert_no_sanitizer "$T/$name.err"
	assert_progs_gone "${progs[@]}"
}

blocked_ns()
{
	local ns
	ns=$(sed -n 's/^blocked_ns=//p' "$1")
	[ -n "$ns" ] || fail "the workload printed no blocked_ns=: $(cat "$1")"
	echo "$ns"
}

# check HOST FOLDED UNENDED HI: HOST's time in the pipe read within the reads' bounds,
# every such stack through libc's read, vfs_read and pipe_read to __schedule.
check()
{
	local host=$1 out=$2 unended=$3 hi=$4 ns lo bad
	ns=$(awk -v n="$NAME;" -v re="$PIPE_READ" 'index($0, n) == 1 && $0 ~ re { s += $NF } END { printf "%d\n", s }' "$out")
	lo=$(((READS - unended) * READ_NS))
	[ "$ns" -ge "$lo" ] && [ "$ns" -le "$hi" ] ||
		fail "$host: $ns ns off the CPU in the pipe read, expected $lo to $hi (the reads' time): $(grep -- "^$NAME;" "$out" | head -5)"
	bad=$(grep -- "^$NAME;" "$out" | grep -E -- "$PIPE_READ" |
		grep -Ev ';(__libc_|__GI___libc_)?read;(.*;)?vfs_read;(.*;)?(anon_)?pipe_read;(.*;)?__schedule [0-9]+$')
	[ -z "$bad" ] || fail "$host: a pipe read stack without libc's read, vfs_read or __schedule as its leaf: $bad"
	log "$host: $ns ns in the pipe read (the reads took $hi, $unended unended)"
}

# ---- two agents, --folded ------------------------------------------------------------------
run two a1 a2 -- --off-cpu --folded
grep -Evq '^via[12];[^; ]+(;[^;]+)+ [0-9]+$' "$T/two.out" &&
	fail "not folded stacks under a host label: $(grep -Ev '^via[12];[^; ]+(;[^;]+)+ [0-9]+$' "$T/two.out" | head -3)"
mapfile -t counts < <(grep '^ktop: off-cpu: via=[a-z_]* unit=ns ' "$T/two.err")
[ "${#counts[@]}" = 2 ] || fail "not a counts line a host on stderr: $(head -c 800 "$T/two.err")"
hi=$(blocked_ns "$T/two.wl")
for i in 1 2; do
	sed -n "s/^via$i;//p" "$T/two.out" >"$T/via$i.folded"
	unended=$(echo "${counts[$((i - 1))]}" | sed -n 's/.* unended=\([0-9]*\) .*/\1/p')
	[ -n "$unended" ] || fail "via$i: no unended= in its counts: ${counts[$((i - 1))]}"
	check "via$i" "$T/via$i.folded" "$unended" "$hi"
done

# ---- one agent, --json -----------------------------------------------------------------------
run json a -- --off-cpu --json
python3 - "$T/json.out" "$NAME" "$READS" "$READ_NS" "$(blocked_ns "$T/json.wl")" <<'PY' ||
import json, re, sys
path, name, reads, read_ns, hi = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
objs = [json.loads(l) for l in open(path) if l.startswith('{"host":')
        and '"offcpu":' in l]
assert len(objs) == 1, len(objs)
assert objs[0]["host"] == "via1", objs[0]["host"]
p = objs[0]["offcpu"]
lo = (reads - p["unended"]) * read_ns
assert p["unit"] == "ns" and p["via"] in ("tp_btf", "raw_tp", "tracepoint"), p
ns = sum(s["count"] for s in p["stacks"] if s["frames"][0] == name
         and any(re.fullmatch("(anon_)?pipe_read", f) for f in s["frames"]))
assert lo <= ns <= hi, (ns, lo, hi)
assert p["total"] == sum(s["count"] for s in p["stacks"]), p["total"]
PY
	fail "--json: $(head -c 1500 "$T/json.out")"
log "--json: unit ns, the reads' time off the CPU, from the agent"
assert_clean
pass
