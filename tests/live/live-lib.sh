# shellcheck shell=bash disable=SC2034 # globals are for the tests that source this
# What the live tests (tests/live) share beyond tests/lib.sh: refusals, ring buffers and
# per-CPU statistics, perf counters, cgroups, counted workloads, probe and USDT targets, and
# sysctls put back on exit. Sourced by tests/lib.sh.

# perf counter fds PID holds: its perf_event fds minus the rings it maps (the task-name side
# band maps one ring per CPU; counters are read(), never mapped).
perf_counter_fds()
{
	local fds maps
	fds=$(find "/proc/$1/fd" -lname 'anon_inode:*perf_event*' 2>/dev/null | wc -l)
	maps=$(grep -c 'perf_event' "/proc/$1/maps" 2>/dev/null)
	echo $((fds - ${maps:-0}))
}

# have_hw_pmu: a core PMU (the hardware counters) exists: x86 "cpu"/"cpu_core", Arm
# "armv8_*". DEVICES: where the kernel lists the perf event sources.
DEVICES=/sys/bus/event_source/devices
have_hw_pmu()
{
	local d
	for d in "$DEVICES"/cpu "$DEVICES"/cpu_core "$DEVICES"/cpu_atom "$DEVICES"/armv* "$DEVICES"/arm_*; do
		[ -e "$d/type" ] && return 0
	done
	return 1
}

# The kernel maps a CPU's ring buffer from 6.10 on: there ktop's reader must.
kernel_maps()
{
	local maj min
	IFS=. read -r maj min _ <<<"$(uname -r)"
	[ "$maj" -gt 6 ] || { [ "$maj" = 6 ] && [ "${min%%[!0-9]*}" -ge 10 ]; }
}

# ring_mappings PID: how many CPUs' trace_pipe_raw of its own instance (ktop-PID) PID maps.
ring_mappings()
{
	grep -c "/instances/ktop-$1/per_cpu/cpu[0-9]*/trace_pipe_raw\$" "/proc/$1/maps"
}

# expect_refusal WHAT TEXT: the last run (run_ktop into $T/r.out and $T/r.err) exited
# REFUSED_RC (3, not permitted, unless set) with exactly one line on stderr, holding TEXT,
# and nothing on stdout.
REFUSED_RC=3
expect_refusal()
{
	[ "$KTOP_RC" = "$REFUSED_RC" ] ||
		fail "$1: exit $KTOP_RC, expected $REFUSED_RC; stderr: $(head -c 600 "$T/r.err")"
	[ "$(wc -l <"$T/r.err")" = 1 ] || fail "$1: stderr is not one line: $(head -c 1000 "$T/r.err")"
	grep -qF -- "$2" "$T/r.err" || fail "$1: stderr lacks '$2': $(cat "$T/r.err")"
	[ -s "$T/r.out" ] && fail "$1: printed on stdout: $(head -c 300 "$T/r.out")"
	log "$1: exit $REFUSED_RC: $(cut -c1-110 "$T/r.err")..."
}

# refused WHAT TEXT PREFIX... :: ARGS...: runs ktop ARGS under the prefix command (env
# assignments, setpriv, capsh; none: ARGS right after ::), expects expect_refusal WHAT TEXT.
refused()
{
	local what=$1 text=$2
	shift 2
	KTOP_ENV=()
	while [ "$1" != :: ]; do KTOP_ENV+=("$1"); shift; done
	shift
	run_ktop 30 "$T/r.out" "$T/r.err" "$@"
	KTOP_ENV=()
	expect_refusal "$what" "$text"
}

# The loss counters of ktop-PID's per_cpu/cpuN/stats, one line per CPU in CPU order:
# "cpu overrun commit_overrun dropped_events".
instance_cpu_stats()
{
	local d cpu
	for d in "$(instance_dir "$1")"/per_cpu/cpu*; do
		cpu=${d##*/cpu}
		awk -v cpu="$cpu" '
			/^overrun:/ { o = $2 }
			/^commit overrun:/ { c = $3 }
			/^dropped events:/ { d = $3 }
			END { print cpu, o + 0, c + 0, d + 0 }' "$d/stats" || return 1
	done | sort -n
}

# ring_read PID: ktop PID (an agent) has read every event the kernel holds in its instance
# (each CPU's stats say entries: 0): what is left to send is in its own hands, which the
# viewer's stop drains (for wait_until once the workload ended, before the stop).
ring_read()
{
	local d
	d=$(instance_dir "$1")
	[ -d "$d" ] && ! grep -h '^entries:' "$d"/per_cpu/cpu*/stats | grep -qv ' 0$'
}

# final_cpu_stats PID: once nothing writes to ktop-PID any more (its filtered workload
# exited), its loss counters, checked to stand still: kstats (instance_cpu_stats' lines)
# and kernel_lost (their sum). Fails the test when they still move.
final_cpu_stats()
{
	local s1
	s1=$(instance_cpu_stats "$1") || fail "cannot read per_cpu stats of ktop-$1"
	sleep 0.2
	kstats=$(instance_cpu_stats "$1") || fail "cannot read per_cpu stats of ktop-$1"
	[ "$s1" = "$kstats" ] || fail "the loss counters of ktop-$1 still move after the workload exited: '$s1' then '$kstats'"
	kernel_lost=$(awk '{ s += $2 + $3 + $4 } END { print s + 0 }' <<<"$kstats")
}

# require_cgroup2: skips without a cgroup v2 mount; its path in CGROUP2.
require_cgroup2()
{
	CGROUP2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$CGROUP2" ] || skip "no cgroup v2 mount in /proc/mounts"
}

# make_cgroup NAME [PARENT]: an empty cgroup below PARENT (default the v2 mount:
# require_cgroup2 first), removed on exit whatever happens; its directory in CGROUP_DIR.
make_cgroup()
{
	CGROUP_DIR=${2:-$CGROUP2}/ktop-test-$$-$1
	mkdir "$CGROUP_DIR" || fail "cannot create cgroup $CGROUP_DIR"
	CLEANUP_CGROUPS+=("$CGROUP_DIR")
}

# in_cgroup DIR CMD [ARGS...]: starts CMD in the background, moved into cgroup DIR before it
# runs (a shell writes its pid to cgroup.procs, then execs CMD under that pid); the pid in
# IN_CGROUP_PID, ended on exit.
in_cgroup()
{
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$@" &
	IN_CGROUP_PID=$!
	CLEANUP_PIDS+=("$IN_CGROUP_PID")
}

# spawn_count TAG N [CGROUP]: a workload of exactly N getppid calls named TAG, waiting for
# $T/go, inside CGROUP when given; its pid in $T/TAG.wl and in wl_pid, ended on exit.
spawn_count()
{
	local tag=$1 n=$2 cg=${3:-}
	if [ -n "$cg" ]; then
		WORKLOAD_GO="$T/go" in_cgroup "$cg" "$KTOP_WORKLOAD" count "$n" "$tag" >"$T/$tag.wl"
		wl_pid=$IN_CGROUP_PID
	else
		WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" count "$n" "$tag" >"$T/$tag.wl" &
		wl_pid=$!
		CLEANUP_PIDS+=("$wl_pid")
	fi
	wait_until 5 has_line "$T/$tag.wl" || fail "workload $tag printed no pid"
	[ "$(head -n1 "$T/$tag.wl")" = "$wl_pid" ] || fail "workload $tag is not pid $wl_pid"
}

# require_usdt_target: tests/helpers/usdt_target (make check builds it; its probe
# ktop_test:hit) in TGT and its library's path (ktop_test:twice, two sites) in LIB, on a
# kernel with uprobe events.
require_usdt_target()
{
	local t=${KTOP_USDT_TARGET:-$(dirname "$KTOP")/tests/helpers/usdt_target}
	[ -x "$t" ] || fail "no USDT target at '$t' (make check builds it)"
	[ -e "$TRACEFS/uprobe_events" ] || skip "this kernel has no uprobe events"
	TGT=$(readlink -f "$t")
	LIB=$(dirname "$TGT")/libktop_usdt_twice.so
}

# require_probe_target: KTOP_PROBE_TARGET, tests/helpers/probe_target (make check builds it).
require_probe_target()
{
	KTOP_PROBE_TARGET=${KTOP_PROBE_TARGET:-$(dirname "$KTOP")/tests/helpers/probe_target}
	[ -x "$KTOP_PROBE_TARGET" ] ||
		fail "no probe target at '$KTOP_PROBE_TARGET' (make check builds it)"
}

# private_probe_target: the probe target copied to $target ($T/probe_target), a file no
# other test runs: the kernel counts a uprobe's hits in every process running the file.
private_probe_target()
{
	require_probe_target
	target=$T/probe_target
	cp "$KTOP_PROBE_TARGET" "$target" || fail "cannot copy the probe target to $T"
}

# set_sysctl NAME VALUE: writes kernel.perf_event_paranoid and the like. The value it had is
# put back by restore_sysctls, and by the clean-up on every exit path. A sysctl is shared
# by everything on the machine: restore it as soon as the runs that need it are done.
set_sysctl()
{
	local f=/proc/sys/${1//.//}
	[ -w "$f" ] || fail "no writable $f"
	CLEANUP_SYSCTLS+=("$f=$(cat "$f")")
	echo "$2" >"$f" || fail "cannot set $1=$2"
}

# Puts back every sysctl set_sysctl changed, newest first.
restore_sysctls()
{
	local i e
	for ((i = ${#CLEANUP_SYSCTLS[@]} - 1; i >= 0; i--)); do
		e=${CLEANUP_SYSCTLS[i]}
		echo "${e#*=}" >"${e%%=*}" || log "could not put back ${e%%=*}=${e#*=}"
	done
	CLEANUP_SYSCTLS=()
}
