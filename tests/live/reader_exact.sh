#!/bin/bash
# Reader correctness: a workload that makes exactly N getppid() calls is seen exactly N times
# when the kernel lost nothing, in the summary (-q) and as N well-formed JSON rows (--json),
# in time order, with the fields the format file declares; and so again when the buffer is
# small enough for the reader to read pages ahead of its merge (and then what the kernel
# overwrote counted exactly: rows + lost = calls), once from the memory-mapped
# buffer (the default where the kernel maps it: /proc/PID/maps shows every CPU's
# trace_pipe_raw) and once with --read-mode=read (nothing mapped).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_python

N=${KTOP_EXACT_N:-200000}

# One capture: the workload waits for $T/go; ktop filters on its pid; the GO file is created
# only once ktop's instance has the event enabled. Sets wl_pid; ktop's output in $T/$1.out.
capture()
{
	local tag=$1
	shift
	rm -f "$T/go"
	WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" count "$N" ktop-exact >"$T/$tag.wl" &
	local wl=$!
	CLEANUP_PIDS+=("$wl")
	wait_until 5 has_line "$T/$tag.wl" || fail "workload printed no pid"
	wl_pid=$(head -n1 "$T/$tag.wl")
	[ "$wl_pid" = "$wl" ] || fail "workload printed pid '$wl_pid', expected $wl"

	start_ktop "$T/$tag.out" "$T/$tag.err" -b "$@" -e syscalls:sys_enter_getppid \
		--filter "common_pid == $wl_pid"
	kpid=$KTOP_PID
	wait_capturing "$kpid" syscalls sys_enter_getppid
	# How the reader reads: the buffer's mappings are ktop's, whatever its log says.
	mapped=$(ring_mappings "$kpid")
	cat "$(instance_dir "$kpid")/buffer_size_kb" >"$T/$tag.kb"
	# The filter is in place before the event was enabled.
	grep -qx "common_pid == $wl_pid" "$(instance_dir "$kpid")/events/syscalls/sys_enter_getppid/filter" ||
		fail "filter of ktop-$kpid is '$(cat "$(instance_dir "$kpid")/events/syscalls/sys_enter_getppid/filter")'"
	touch "$T/go"
	wait_pid_exit "$wl" 60 || fail "workload count $N did not finish within 60s"
	[ "$WAIT_RC" = 0 ] || fail "workload exited $WAIT_RC"
	# The kernel has every event by now; ktop drains its buffers when told to stop.
	stop_ktop "$kpid" INT 30
	[ "$KTOP_RC" = 0 ] || fail "ktop ($tag) exited $KTOP_RC; stderr: $(head -c 500 "$T/$tag.err")"
	instance_gone "$kpid" || fail "instance ktop-$kpid left after exit"
}

# --- -q: the summary alone -----------------------------------------------------------------
capture quiet -q
summary=$(tail -n1 "$T/quiet.out")
[[ $summary =~ ^#\ ktop:\ events=([0-9]+)\ lost=([0-9]+)\ lost_marked=([0-9]+)\ lost_unknown_pages=([0-9]+)\ evicted=([0-9]+)\  ]] ||
	fail "no summary line: '$summary'"
events=${BASH_REMATCH[1]} lost=${BASH_REMATCH[2]} marked=${BASH_REMATCH[3]}
unknown=${BASH_REMATCH[4]} evicted=${BASH_REMATCH[5]}
[ "$(wc -l <"$T/quiet.out")" = 1 ] || fail "-q printed more than the summary: $(head -3 "$T/quiet.out")"
if [ "$lost" != 0 ] || [ "$marked" != 0 ] || [ "$unknown" != 0 ]; then
	fail "the kernel lost events with the default buffer (lost=$lost marked=$marked unknown=$unknown); cannot check exactness"
fi
[ "$evicted" = 0 ] || fail "evicted=$evicted with the default --memory"
[ "$events" = "$N" ] || fail "summary says events=$events, the workload made exactly $N calls"
log "-q: events=$events of $N"

# --- --json: every row parses, has the documented keys, and there are exactly N ----------
# check_json TAG: TAG.out holds exactly the N calls, well-formed and in time order.
check_json()
{
python3 - "$T/$1.out" "$N" "$wl_pid" "${2:-}" <<'EOF' || fail "$1: JSON check failed (see above)"
import json, sys

path, n, pid, lossy = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "lossy"
rows, summary, last_ts, errors = 0, None, None, []
with open(path) as f:
    lines = f.read().split("\n")
if lines and lines[-1] == "":
    lines.pop()
for i, line in enumerate(lines, 1):
    try:
        o = json.loads(line)
    except ValueError as e:
        errors.append(f"line {i} is not JSON ({e}): {line[:200]}")
        break
    if summary is not None:
        errors.append(f"line {i} follows the summary: {line[:200]}")
        break
    if "summary" in o:
        summary = o["summary"]
        continue
    if o.get("event") == "lost":
        if not lossy:
            errors.append(f"line {i}: a loss marker though nothing should be lost: {line}")
        continue
    missing = [k for k in ("ts", "cpu", "pid", "comm", "event", "fields") if k not in o]
    if missing:
        errors.append(f"line {i} lacks {missing}: {line[:200]}")
        break
    if not (isinstance(o["ts"], int) and isinstance(o["cpu"], int) and isinstance(o["fields"], dict)):
        errors.append(f"line {i}: ts/cpu not integers or fields not an object: {line[:200]}")
        break
    if o["event"] != "syscalls:sys_enter_getppid" or o["pid"] != pid or o["comm"] != "ktop-exact":
        errors.append(f"line {i}: not the workload's getppid: {line[:200]}")
        break
    if o["fields"].get("__syscall_nr") != 110:
        errors.append(f"line {i}: fields.__syscall_nr is not 110 (getppid on x86_64): {line[:200]}")
        break
    if last_ts is not None and o["ts"] < last_ts:
        errors.append(f"line {i}: ts {o['ts']} before the previous row's {last_ts}")
        break
    last_ts = o["ts"]
    rows += 1
if summary is None:
    errors.append("no summary object on the last line")
else:
    for k in ("events", "printed", "lost", "lost_marked", "evicted", "cpus"):
        if k not in summary:
            errors.append(f"summary lacks {k}: {summary}")
    if not errors:
        if lossy and (summary["events"] + summary["lost"] != n or rows != summary["events"]):
            errors.append(f"{rows} rows, events={summary['events']} + lost={summary['lost']}, expected {n}")
        elif lossy:
            pass
        elif summary["lost"] or summary["lost_marked"]:
            errors.append(f"the kernel lost events: {summary}")
        elif summary["events"] != n or summary["printed"] != n or rows != n:
            errors.append(f"{rows} rows, summary events={summary['events']} printed={summary['printed']}, expected {n}")
        if not isinstance(summary["cpus"], list) or not summary["cpus"] or \
           any(not {"cpu", "overrun", "dropped"} <= set(c) for c in summary["cpus"]):
            errors.append(f"summary cpus malformed: {summary['cpus']}")
for e in errors:
    print("reader_exact:", e, file=sys.stderr)
if not errors:
    print(f"reader_exact: --json: {rows} rows of {n}, {summary['lost']} lost, time-ordered", file=sys.stderr)
sys.exit(1 if errors else 0)
EOF
}
capture json --json
check_json json

ncpus=$(ls -d "$TRACEFS"/per_cpu/cpu[0-9]* | wc -l)
if kernel_maps; then
	[ "$mapped" = "$ncpus" ] ||
		fail "json: $mapped of $ncpus CPUs' trace_pipe_raw mapped by ktop on $(uname -r)"
fi

# --- a buffer small for the burst: the pages read ahead of the merge keep order ----------
# 64 KiB per CPU holds a sliver of the burst and the kernel wakes the reader when it is half
# full, so a pass reads more than a quarter of the buffer however slow a busy machine makes
# the workload: the reader then takes the kernel's pages into its own memory while it holds
# events back for ordering, and merges them from there. What the kernel overwrites before a
# late reader comes is counted exactly: rows + lost = the calls made, in time order.
# ahead TAG KB [ARGS...]
ahead()
{
	local tag=$1 kb=$2
	shift 2
	capture "$tag" --json --buffer-kb="$kb" -v --log "$T/$tag.klog" "$@"
	grep -q "reader: reading ahead" "$T/$tag.klog" ||
		fail "$tag: the reader never read ahead with $kb KiB per CPU: $(grep reader "$T/$tag.klog" | head -3)"
	check_json "$tag" lossy
	log "$tag: $(grep -m1 "reading ahead" "$T/$tag.klog" | sed 's/.*reader: //')"
}
ahead ahead 64
if kernel_maps; then
	[ "$mapped" = "$ncpus" ] || fail "ahead: $mapped of $ncpus CPUs mapped"
	grep -q "reader: ring buffer memory-mapped, $ncpus CPUs" "$T/ahead.klog" ||
		fail "ahead: the log does not say the buffer is mapped: $(grep reader: "$T/ahead.klog" | head -3)"
	# mapped before anything is recorded, the buffer got its size all the same
	grep -q "unmapped to resize, then mapped again" "$T/ahead.klog" ||
		fail "ahead: the log does not say how the mapped buffer was resized"
	kb=$(cat "$T/ahead.kb") # the kernel rounds up to whole sub-buffers
	[ "$kb" -ge 64 ] && [ "$kb" -le 72 ] || fail "ahead: buffer_size_kb was $kb, not 64"
fi
ahead ahead-read 64 --read-mode=read
[ "$mapped" = 0 ] || fail "--read-mode=read: $mapped CPUs' trace_pipe_raw mapped all the same"
grep -q "reader: reads with read() (--read-mode=read)" "$T/ahead-read.klog" ||
	fail "ahead-read: the log does not say read(): $(grep reader: "$T/ahead-read.klog" | head -3)"

assert_clean
pass
