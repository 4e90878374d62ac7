# shellcheck shell=bash disable=SC2034 # globals are for the tests that source this
# Shared helpers for ktop's live and terminal tests. Sourced, never run.
#
# Every test:
#   . "$(dirname "$0")/../lib.sh"
#   require_root_tracefs            # exit 77 (or fail under KTOP_REQUIRE_LIVE=1)
#   ... start ktop with start_ktop / run_ktop, assert on kernel state and output ...
#   assert_clean                    # nothing of ktop's left, top level unchanged
#   pass
#
# Environment (set by the Makefile): KTOP (the binary), KTOP_WORKLOAD (tests/helpers/workload),
# KTOP_SRCDIR. KTOP_REQUIRE_LIVE=1 turns a skip into a failure. KTOP_TEST_TIMEOUT bounds a
# whole test (seconds, default 180).
#
# Rules the helpers keep: every wait is bounded; every process, tmux server, instance and
# probe the test made is removed on EXIT, whatever happened; nothing outside the test's own
# objects is ever written (the top-level buffer and other tracers' instances are only read).

set -u

TEST_NAME=$(basename "$0" .sh)
TRACEFS=${KTOP_TRACEFS:-/sys/kernel/tracing}
_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -z "${KTOP:-}" ]; then
	# Run by hand from a build tree: tests/live/x.sh lives two levels below ktop.
	for _c in "$PWD/ktop" "$_lib_dir/../ktop" "$_lib_dir/../build/ktop"; do
		[ -x "$_c" ] && KTOP=$_c && break
	done
fi
KTOP=${KTOP:-ktop}
if [ -z "${KTOP_WORKLOAD:-}" ]; then
	KTOP_WORKLOAD=$(dirname "$KTOP")/tests/helpers/workload
fi
KTOP_SRCDIR=${KTOP_SRCDIR:-$_lib_dir/..}
export KTOP KTOP_WORKLOAD KTOP_SRCDIR

# A test that sets KTOP_PRIVATE_MOUNTS=${KTOP_PRIVATE_MOUNTS:-1} before sourcing this runs
# in a mount namespace of its own (unshare -m: private propagation): what it mounts under $T
# goes with it, whatever happens (mount_record_disks). Not root: it runs as it is, and skips
# on its own.
if [ "${KTOP_PRIVATE_MOUNTS:-}" = 1 ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	KTOP_PRIVATE_MOUNTS=inside exec unshare -m "$0" "$@"
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/ktop-$TEST_NAME.XXXXXX") || exit 99
# ktop reads and writes its configuration (ktoprc, themes, profiles) there: each test starts
# from none and never touches the real ~/.config.
export XDG_CONFIG_HOME="$T/config"
# ... and its temporary files (a remote viewer's mirror, which a kill -9 leaves) go with $T.
export TMPDIR="$T"

# The workload helper is built with the sanitizers when ktop is; LeakSanitizer's exit-time
# tracer thread then makes getppid() calls of its own, which would count as the workload's.
# The wrapper turns leak detection off for the helper alone (exec keeps the pid).
KTOP_WORKLOAD_BIN=$KTOP_WORKLOAD
cat >"$T/workload" <<EOF
#!/bin/sh
ASAN_OPTIONS="\${ASAN_OPTIONS:+\$ASAN_OPTIONS:}detect_leaks=0" exec "$KTOP_WORKLOAD_BIN" "\$@"
EOF
chmod 755 "$T/workload"
KTOP_WORKLOAD=$T/workload

KTOP_PIDS=()		# every ktop this test started (their instances must go)
CLEANUP_PIDS=()		# other processes to end on exit (workloads, sleeps)
CLEANUP_INSTANCES=()	# instances this test created itself (coexist-$$, fakes)
CLEANUP_DYNEVENTS=()	# "group/event" dynamic events this test created itself
CLEANUP_SYSCTLS=()	# "FILE=VALUE": sysctls this test changed, with their first values
CLEANUP_CGROUPS=()	# cgroup directories this test made (make_cgroup), removed last
FAIL_SHOW=()		# files (a ktop's stderr) whose last lines a failure prints
TMUX_SOCK="ktop-test-$$"
TMUX_USED=0
_watchdog=
_snapshot_done=0

log() { printf '%s: %s\n' "$TEST_NAME" "$*" >&2; }

fail()
{
	local f
	for f in "${FAIL_SHOW[@]}"; do
		[ -s "$f" ] && tail -n 5 "$f" | sed "s|^|$TEST_NAME: ${f##*/}: |" >&2
	done
	printf '%s: FAIL: %s\n' "$TEST_NAME" "$*" >&2
	exit 1
}

# A test that cannot run here: 77 for automake, unless CI demands that it runs.
skip()
{
	if [ "${KTOP_REQUIRE_LIVE:-0}" = 1 ]; then
		fail "cannot run, and KTOP_REQUIRE_LIVE=1: $*"
	fi
	printf '%s: SKIP: %s\n' "$TEST_NAME" "$*" >&2
	exit 77
}

pass()
{
	log "PASS"
	exit 0
}

# A test that steers ktop through its test hooks (KTOP_NO_GUARD, KTOP_TEST_BPF_OBJECT, the
# index gates, the redraw limit) needs a build configured with --enable-test-hooks, as
# ./dev check's is: any other ktop ignores them (docs/security.md).
if grep -qE 'KTOP_NO_GUARD|KTOP_TEST_(BPF_OBJECT|INDEX|REDRAW)' "$0" && [ -x "$KTOP" ] &&
	! "$KTOP" --version 2>/dev/null | grep -q -- --enable-test-hooks; then
	rm -rf "$T"
	skip "$KTOP was built without --enable-test-hooks (./dev check builds with them)"
fi

# ---- process helpers -------------------------------------------------------------------

# True while pid is a live process (a zombie counts as dead).
pid_alive()
{
	local st
	[ -n "${1:-}" ] || return 1
	st=$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

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

# wait_until TIMEOUT_SECONDS COMMAND [ARGS...]: polls COMMAND every 50 ms. Returns 0 as soon
# as it succeeds, 1 when the time is up.
wait_until()
{
	local limit_us deadline
	limit_us=$(awk -v t="$1" 'BEGIN { printf "%d", t * 1000000 }')
	shift
	deadline=$((${EPOCHREALTIME/./} + limit_us))
	while :; do
		"$@" && return 0
		[ "${EPOCHREALTIME/./}" -ge "$deadline" ] && return 1
		sleep 0.05
	done
}

# has_line FILE: FILE's first line is whole (a newline is in it). A reader that only waits
# for a non-empty file can read a line its writer has not finished (seen: a workload's
# "PID PORT" read as "PID"). Not "ends in a newline": a block-buffered writer's file seldom
# does until it exits.
has_line() { [ "$(wc -l <"$1" 2>/dev/null || echo 0)" -gt 0 ]; }

_pid_gone() { ! pid_alive "$1"; }

# wait_pid_exit PID TIMEOUT: 0 once PID, a child of this shell, has ended (reaped, its exit
# status in WAIT_RC), 1 on time-out.
WAIT_RC=
wait_pid_exit()
{
	WAIT_RC=
	wait_until "$2" _pid_gone "$1" || return 1
	if wait "$1" 2>/dev/null; then WAIT_RC=0; else WAIT_RC=$?; fi
	return 0
}

# workload_start TAG ARGS...: tests/helpers/workload ARGS, held until workload_go TAG; its
# pid in WL_PID, its output in $T/TAG.wl. workload_go TAG LIMIT: lets it run, and fails
# unless it exits 0 within LIMIT seconds.
WL_PID=
workload_start()
{
	local tag=$1
	shift
	rm -f "$T/$tag.go"
	WORKLOAD_GO="$T/$tag.go" "$KTOP_WORKLOAD" "$@" >"$T/$tag.wl" &
	WL_PID=$!
	CLEANUP_PIDS+=("$WL_PID")
	wait_until 5 has_line "$T/$tag.wl" || fail "workload $* printed no pid"
}
workload_go()
{
	touch "$T/$1.go"
	wait_pid_exit "$WL_PID" "$2" || fail "workload $1 did not finish within $2s"
	[ "$WAIT_RC" = 0 ] || fail "workload $1 exited $WAIT_RC"
}

# Ends pid: sig (default TERM), then KILL after 3 s. Quiet; for clean-up.
_end_pid()
{
	local pid=$1
	pid_alive "$pid" || { wait "$pid" 2>/dev/null; return 0; }
	kill -"${2:-TERM}" "$pid" 2>/dev/null
	if ! wait_until 3 _pid_gone "$pid"; then
		kill -KILL "$pid" 2>/dev/null
		wait_until 3 _pid_gone "$pid"
	fi
	wait "$pid" 2>/dev/null
	return 0
}

# ---- ktop runs -------------------------------------------------------------------------

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

# start_ktop OUT ERR [ARGS...]: ktop in the background; its pid in KTOP_PID. Environment
# variables may be given before through "env" in KTOP_ENV (an array), e.g.
# KTOP_ENV=(KTOP_NO_GUARD=1).
KTOP_PID=
KTOP_ENV=()
start_ktop()
{
	local out=$1 err=$2
	shift 2
	env "${KTOP_ENV[@]+"${KTOP_ENV[@]}"}" "$KTOP" "$@" >"$out" 2>"$err" </dev/null &
	KTOP_PID=$!
	KTOP_PIDS+=("$KTOP_PID")
}

# run_ktop TIMEOUT OUT ERR [ARGS...]: ktop in the foreground, bounded; exit status in
# KTOP_RC, pid in KTOP_PID. A run that outlives TIMEOUT is a failure.
KTOP_RC=
run_ktop()
{
	local limit=$1 out=$2 err=$3
	shift 3
	start_ktop "$out" "$err" "$@"
	if ! wait_pid_exit "$KTOP_PID" "$limit"; then
		fail "ktop $* still running after ${limit}s"
	fi
	KTOP_RC=$WAIT_RC
}

# stop_ktop PID SIGNAL TIMEOUT: sends the signal, waits for the exit; status in KTOP_RC.
stop_ktop()
{
	kill -"$2" "$1" 2>/dev/null || fail "ktop $1 was gone before $2"
	wait_pid_exit "$1" "$3" || fail "ktop $1 did not exit within ${3}s of SIG$2"
	KTOP_RC=$WAIT_RC
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

instance_dir() { printf '%s/instances/ktop-%s' "$TRACEFS" "$1"; }
instance_exists() { [ -d "$(instance_dir "$1")" ]; }
instance_gone() { ! instance_exists "$1"; }

# event_enabled PID SYSTEM EVENT: the event is enabled in ktop-PID's instance.
event_enabled()
{
	local f
	f="$(instance_dir "$1")/events/$2/$3/enable"
	[ -r "$f" ] && [ "$(head -c1 "$f" 2>/dev/null)" = 1 ]
}

# wait_capturing PID SYSTEM EVENT [TIMEOUT]: until ktop-PID exists with the event enabled
# (ktop enables its events after its reader runs). Fails the test on time-out, or when ktop
# exited first.
wait_capturing()
{
	local pid=$1 sys=$2 ev=$3 limit=${4:-15} p
	if ! wait_until "$limit" _capturing_or_dead "$pid" "$sys" "$ev"; then
		where "$pid"
		for p in "${KTOP_PIDS[@]}"; do [ "$p" = "$pid" ] || where "$p"; done
		fail "ktop $pid: $sys:$ev not enabled in instance ktop-$pid within ${limit}s"
	fi
	pid_alive "$pid" || fail "ktop $pid exited before $sys:$ev was enabled"
}
# where PID: what a ktop that seems stuck is doing, to the log: each thread's state and
# kernel stack, the events its instance has on, and the same of its children (an ssh).
where()
{
	local t c
	for t in /proc/"$1"/task/*; do
		log "where $1 ($(tr '\0' ' ' 2>/dev/null <"/proc/$1/cmdline" | head -c 80)): thread ${t##*/} $(awk '{ sub(/.*\) /, ""); print $1 }' "$t/stat" 2>/dev/null) in $(head -c 60 "$t/wchan" 2>/dev/null): $(awk '{ printf "%s ", $2 }' "$t/stack" 2>/dev/null | head -c 300)"
	done
	instance_exists "$1" &&
		log "where $1: instance events on: $(tr '\n' ' ' 2>/dev/null <"$(instance_dir "$1")/set_event" | head -c 300)"
	for c in $(pgrep -P "$1"); do where "$c"; done
}
_capturing_or_dead() { event_enabled "$1" "$2" "$3" || ! pid_alive "$1"; }

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

# all_gone PID: ktop PID has exited and its instance and probe group are gone (for
# wait_until after a kill).
all_gone()
{
	! pid_alive "$1" && instance_gone "$1" && ! grep -q "^[^:]*:ktop_$1/" "$(_dynevents_file)" 2>/dev/null
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

# ---- the kernel-state contract ---------------------------------------------------------

# Takes the top-level state the test must leave as it found it. Called by the require_*.
snapshot_top()
{
	cat "$TRACEFS/set_event" >"$T/top.set_event" 2>/dev/null || fail "cannot read $TRACEFS/set_event"
	cat "$TRACEFS/current_tracer" >"$T/top.current_tracer" 2>/dev/null
	cat "$TRACEFS/tracing_on" >"$T/top.tracing_on" 2>/dev/null
	_list_ktop_objects >"$T/top.ktop_objects"
	_snapshot_done=1
}

# dynamic_events lists every kind; uprobe_events only uprobes (older kernels).
_dynevents_file()
{
	if [ -r "$TRACEFS/dynamic_events" ]; then echo "$TRACEFS/dynamic_events"
	else echo "$TRACEFS/uprobe_events"; fi
}

# "instance ktop-N" and "group ktop_N" lines for what exists now.
_list_ktop_objects()
{
	local d
	for d in "$TRACEFS"/instances/ktop-*; do
		[[ ${d##*/} =~ ^ktop-[0-9]+$ ]] && [ -d "$d" ] && echo "instance ${d##*/}"
	done
	sed -n 's/^[^:]*:\(ktop_[0-9][0-9]*\)\/.*/group \1/p' "$(_dynevents_file)" 2>/dev/null | sort -u
}

# Checks the contract after ktop has exited: no instance ktop-<pid> and no probe group
# ktop_<pid> for any ktop this test started; the top-level set_event, current_tracer and
# tracing_on as they were at the start.
assert_clean()
{
	local pid name owner problems=()
	[ "$_snapshot_done" = 1 ] || fail "assert_clean without a snapshot (call require_root_tracefs)"
	for pid in "${KTOP_PIDS[@]+"${KTOP_PIDS[@]}"}"; do
		if pid_alive "$pid"; then
			problems+=("ktop $pid is still running")
			continue
		fi
		instance_exists "$pid" && problems+=("instance ktop-$pid remains after ktop $pid exited")
		if grep -q "^[^:]*:ktop_$pid/" "$(_dynevents_file)" 2>/dev/null; then
			problems+=("dynamic event group ktop_$pid remains")
		fi
	done
	# Other ktop objects that appeared meanwhile, owner dead: reported, not failed - other
	# users of this machine run ktop too (a kill -9 test leaves one until the next start).
	while read -r _ name; do
		owner=${name#ktop[-_]}
		grep -qxF "instance $name" "$T/top.ktop_objects" && continue
		grep -qxF "group $name" "$T/top.ktop_objects" && continue
		pid_alive "$owner" && continue
		log "note: $name appeared during the test, its owner $owner is dead (not one of this test's ktops: ${KTOP_PIDS[*]:-none})"
	done < <(_list_ktop_objects)
	if ! cmp -s "$T/top.set_event" <(cat "$TRACEFS/set_event"); then
		problems+=("top-level set_event changed: was '$(tr '\n' ' ' <"$T/top.set_event")', now '$(tr '\n' ' ' <"$TRACEFS/set_event")'")
	fi
	if ! cmp -s "$T/top.current_tracer" <(cat "$TRACEFS/current_tracer"); then
		problems+=("top-level current_tracer changed: was $(cat "$T/top.current_tracer"), now $(cat "$TRACEFS/current_tracer")")
	fi
	if ! cmp -s "$T/top.tracing_on" <(cat "$TRACEFS/tracing_on"); then
		problems+=("top-level tracing_on changed")
	fi
	if [ ${#problems[@]} -gt 0 ]; then
		fail "kernel not clean: $(printf '%s; ' "${problems[@]}")"
	fi
}

# The top level untouched while ktop runs (called mid-run).
assert_top_untouched()
{
	cmp -s "$T/top.set_event" <(cat "$TRACEFS/set_event") ||
		fail "top-level set_event changed while ktop ran: now '$(tr '\n' ' ' <"$TRACEFS/set_event")'"
	cmp -s "$T/top.current_tracer" <(cat "$TRACEFS/current_tracer") ||
		fail "top-level current_tracer changed while ktop ran"
}

# ---- requirements ----------------------------------------------------------------------

require_ktop()
{
	[ -x "$KTOP" ] || fail "no ktop binary at '$KTOP' (set KTOP, or build first)"
}

require_workload()
{
	[ -x "$KTOP_WORKLOAD_BIN" ] || fail "no workload helper at '$KTOP_WORKLOAD_BIN' (make check builds it)"
}

require_root_tracefs()
{
	require_ktop
	[ "$(id -u)" = 0 ] || skip "needs root (live tests read and write tracefs)"
	# A fresh boot may not have tracefs mounted: ktop mounts it (tests/live/mount.sh).
	[ -d "$TRACEFS/instances" ] || "$KTOP" --list >/dev/null 2>&1
	[ -d "$TRACEFS/instances" ] || skip "no tracefs with instances at $TRACEFS"
	[ -w "$TRACEFS/instances" ] || skip "$TRACEFS/instances is not writable"
	snapshot_top
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

require_tmux()
{
	command -v tmux >/dev/null 2>&1 || skip "needs tmux (apt-get install tmux)"
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

require_python()
{
	command -v python3 >/dev/null 2>&1 || skip "needs python3 to check JSON"
}

# require_fake_agent: python3, and in FAKE the command of a made-up agent with no kernel
# (tests/remote/fake_peer.py events FIXTURES); words after it say how it behaves.
FAKE=
require_fake_agent()
{
	require_python
	FAKE="python3 $KTOP_SRCDIR/tests/remote/fake_peer.py events $KTOP_SRCDIR/tests/unit/fixtures/tracing"
}

# ---- tmux ------------------------------------------------------------------------------

# A private server: its own socket directory inside $T, removed with it.
tm() { TMUX='' TMUX_TMPDIR="$T" tmux -L "$TMUX_SOCK" "$@"; }

# tmux_start COLS ROWS [ENV=VAL...] -- ARGS...: starts ktop ARGS (the binary is added) in a
# detached session "t" of COLS x ROWS, under a small wrapper shell that records ktop's pid
# and exit status (tmux itself does not always reap its pane's process in time to tell).
# ktop's pid in KTOP_PID; after it exits, tmux_wait_exit gives the status. No history is
# kept unless TMUX_HISTORY says how many lines (for what scrolls off, tmux_screen -S -N).
# _no_overview [ENV=VAL...]: ktop started with nothing named lands on the overview; the
# tests written before it expect the stream, so the configuration they start from (none:
# XDG_CONFIG_HOME, or the one they pass) says overview = no, unless TMUX_OVERVIEW=1 or they
# wrote a ktoprc of their own.
_no_overview()
{
	local cfg=$XDG_CONFIG_HOME e
	for e in "$@"; do
		case $e in XDG_CONFIG_HOME=*) cfg=${e#*=} ;; esac
	done
	[ "${TMUX_OVERVIEW:-}" = 1 ] && return 0
	[ -e "$cfg/ktop/ktoprc" ] && return 0
	mkdir -p "$cfg/ktop" && printf 'overview = no\n' >"$cfg/ktop/ktoprc"
}

tmux_start()
{
	local cols=$1 rows=$2 envs=() e targs=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
	[ "${1:-}" = -- ] && shift
	cat >"$T/tmux.conf" <<-EOF
	set -g default-terminal "${KTOP_TEST_TERM:-tmux-256color}"
	set -g remain-on-exit on
	set -g status off
	set -g history-limit ${TMUX_HISTORY:-0}
	set -sg escape-time 0
	EOF
	cat >"$T/run-in-pane" <<-'EOF'
	#!/bin/bash
	# run-in-pane PIDFILE STATUSFILE COMMAND...: ktop as a child in the terminal's
	# foreground process group, stdin kept (not /dev/null), its status recorded.
	pidf=$1 rcf=$2
	shift 2
	exec 3<&0
	"$@" <&3 3<&- &
	echo $! >"$pidf"
	wait $!
	echo $? >"$rcf.tmp" && mv "$rcf.tmp" "$rcf"
	EOF
	chmod +x "$T/run-in-pane"
	rm -f "$T/pane.pid" "$T/pane.rc"
	TMUX_USED=1
	for e in "${envs[@]+"${envs[@]}"}"; do targs+=(-e "$e"); done
	_no_overview "${envs[@]+"${envs[@]}"}"
	# LANG matters: UTF-8 or ASCII line drawing. Keep the caller's, default C.UTF-8.
	targs+=(-e "LANG=${LANG:-C.UTF-8}" -e "LC_ALL=${LC_ALL:-}" -e "NO_COLOR=${NO_COLOR:-}")
	tm -f "$T/tmux.conf" new-session -d -s t -x "$cols" -y "$rows" "${targs[@]}" \
		"$T/run-in-pane" "$T/pane.pid" "$T/pane.rc" "$KTOP" "$@" ||
		fail "tmux new-session failed"
	wait_until 5 has_line "$T/pane.pid" || fail "ktop did not start in tmux"
	KTOP_PID=$(cat "$T/pane.pid")
	KTOP_PIDS+=("$KTOP_PID")
}

# tmux_kill_server: ends this test's tmux server and waits until its process is gone.
# kill-server returns while the server is still exiting, and its socket file stays: a
# tmux_start in that window connects to the dying server and fails with "server exited
# unexpectedly".
tmux_kill_server()
{
	local pid
	pid=$(tm display-message -p '#{pid}' 2>/dev/null)
	tm kill-server 2>/dev/null
	[ -n "$pid" ] && wait_until 10 eval '! kill -0 "$pid" 2>/dev/null'
	rm -f "$T/tmux-$(id -u)/$TMUX_SOCK"
}

tmux_keys() { tm send-keys -t t "$@"; }
tmux_text() { tm send-keys -t t -l -- "$1"; }
# tmux_prompt KEY TITLE TEXT: KEY's prompt (TITLE on the screen), its offer replaced by TEXT,
# Enter (w's and A's file names).
tmux_prompt()
{
	tmux_keys "$1"
	expect_text "$2" 3 "$1 opened no prompt"
	tmux_keys C-u
	tmux_text "$3"
	tmux_keys Enter
}
# The screen as the terminal holds it once a frame has fully arrived: ktop's frame can reach
# tmux in several reads, so a capture is repeated until two agree (a live stream that never
# settles gives its last capture after 5 tries). tmux_screen -e: with the colours (SGR).
tmux_screen()
{
	local prev cur i
	# The trailing "." keeps the screen's blank last lines through $(...).
	prev=$(tm capture-pane -p "$@" -t t 2>/dev/null && echo .) || return 1
	cur=$prev
	for i in 1 2 3 4 5; do
		sleep 0.02
		cur=$(tm capture-pane -p "$@" -t t 2>/dev/null && echo .) || return 1
		[ "$cur" = "$prev" ] && break
		prev=$cur
	done
	printf '%s' "${cur%.}"
}
tmux_pane() { tm display-message -p -t t "$1" 2>/dev/null; }
tmux_size() { tm resize-window -t t -x "$1" -y "$2"; }

# scope_key TEXT: the tracer pane (R), its scope prompt (s), TEXT (none when empty), Enter.
scope_key()
{
	tmux_keys R
	expect_text "Scope: " 5 "R did not show the scope line"
	tmux_keys s
	expect_text "^scope \(pid=" 5 "s did not open the scope prompt"
	[ -n "$1" ] && tmux_text "$1"
	tmux_keys Enter
}

# probe_editor_start COLS ROWS [ENV...] [-- ARGS...]: tmux_start, then ktop's probe editor (P)
# open; ktop's probe group (ktop_<pid>) in PROBE_GROUP. probe_count: the group's dynamic
# events.
PROBE_GROUP=
probe_editor_start()
{
	tmux_start "$@"
	wait_until 10 instance_exists "$KTOP_PID" || fail "no instance ktop-$KTOP_PID"
	expect_text "No events enabled" 10 "ktop did not start"
	PROBE_GROUP=ktop_$KTOP_PID
	tmux_keys P
	expect_text "Probes $PROBE_GROUP" 5 "P did not open the probe editor"
}
# editor_uprobe BINARY DEF: in the open probe editor, u, the binary (the prompt cleared of
# the last one), then DEF on the function prompt, and Enter.
editor_uprobe()
{
	tmux_keys u
	expect_text "^binary or library:" 5 "u did not ask for the binary"
	tmux_keys C-u
	tmux_text "$1"
	tmux_keys Enter
	expect_text "^uprobe ${1##*/}:" 5 "no function prompt after the binary"
	tmux_text "$2"
	tmux_keys Enter
}
probe_count() { grep -c "^[pr]:$PROBE_GROUP/" "$(_dynevents_file)"; }
# remote_editor_start COLS ROWS [ARGS...]: tmux_start on one agent through a plain pipe
# (--via 'ktop --agent', -d 1 and ARGS), then its probe editor (P) open and empty; the
# agent's pid in agent (and KTOP_PIDS). agent_probes: its group's dynamic events.
agent=
remote_editor_start()
{
	local cols=$1 rows=$2
	shift 2
	tmux_start "$cols" "$rows" -- --via "echo \$\$ >$T/agent; exec $KTOP --agent" -d 1 "$@"
	# shellcheck disable=SC2119 # the whole screen
	wait_until 15 test -s "$T/agent" ||
		fail "the agent did not start: $(tmux_screen | grep -v "^$" | head -5)"
	agent=$(cat "$T/agent")
	KTOP_PIDS+=("$agent")
	wait_until 15 instance_exists "$agent" || fail "no instance ktop-$agent"
	expect_text "No events enabled" 10 "the explorer did not start on the agent"
	tmux_keys P
	expect_text "Probes " 5 "P did not open the probe editor over the agent"
	expect_text "no probes yet" 3 "the editor over the agent does not start empty"
}
agent_probes() { grep -c "^[pr]:ktop_$agent/" "$(_dynevents_file)"; }
# editor_usdt BINARY DEF: in the probe editor open over agents, s, the binary on the agents'
# machine, then DEF (PROVIDER:PROBE [ARGS]), and Enter.
editor_usdt()
{
	tmux_keys s
	expect_text "^USDT in the agent's binary, library or pid:" 5 "s did not ask for the agent's binary"
	tmux_keys C-u
	tmux_text "$1"
	tmux_keys Enter
	expect_text "^usdt ${1##*/}:" 5 "no probe prompt after the binary"
	expect_text "new USDT probe \([0-9]+ in the file\): /" 3 "the editor does not show the notes the agent read"
	tmux_text "$2"
	tmux_keys Enter
}
# editor_usdt_pid TARGET ASK GROUP: in the open probe editor, by pid: TARGET (a USDT target)
# started and held, s (its prompt ASK), the pid, the process's notes Tab-completed as
# PATH:PROVIDER:PROBE, the probe made in GROUP; then the target's 3 guarded hits counted up by
# it (semaphore 1).
editor_usdt_pid()
{
	local tgt
	rm -f "$T/go"
	"$1" 3 "$T/go" >"$T/waiting.out" &
	tgt=$!
	CLEANUP_PIDS+=("$tgt")
	wait_until 10 has_line "$T/waiting.out" || fail "usdt target printed no pid"
	tmux_keys s
	expect_text "^$2" 5 "s did not ask again"
	tmux_keys C-u
	tmux_text "$tgt"
	tmux_keys Enter
	expect_text "^usdt pid $tgt:" 5 "no probe prompt after the pid"
	expect_text "new USDT probe \([0-9]+ in the process\)" 5 "the process's notes were not read"
	tmux_text "$1:ktop_test:h"
	tmux_keys Tab
	expect_text "^usdt pid $tgt: .*usdt_target:ktop_test:hit *$" 5 "Tab did not complete PATH:PROVIDER:PROBE"
	tmux_keys Enter
	expect_text "created and enabled $3:hit" 10 "the probe by pid was not created"
	touch "$T/go"
	wait_pid_exit "$tgt" 10 || fail "usdt target did not finish"
	[ "$(sed -n 2p "$T/waiting.out")" = "guard 3 semaphore 1" ] ||
		fail "the running target's guard: '$(sed -n 2p "$T/waiting.out")', expected 'guard 3 semaphore 1'"
}
# usdt_run_counted N HOSTS: the USDT target (require_usdt_target) called N times, its guarded
# probe on (semaphore 1: one uprobe per site in the kernel, however many groups probe it),
# then the open editor's live counts: hit N x HOSTS, each site of twice HOSTS.
usdt_run_counted()
{
	"$TGT" "$1" >"$T/usdt.out" || fail "usdt_target failed"
	[ "$(sed -n 2p "$T/usdt.out")" = "guard $1 semaphore 1" ] ||
		fail "the target's guard: '$(sed -n 2p "$T/usdt.out")', expected 'guard $1 semaphore 1'"
	expect_text "\[x\] hit +uprobe +hits=$(($1 * $2)) " 10 "the editor's count of hit is not $(($1 * $2))"
	expect_text "\[x\] twice +uprobe +hits=$2 " 3 "the editor's count of twice is not $2"
	expect_text "\[x\] twice_2 +uprobe +hits=$2 " 3 "the editor's count of twice_2 is not $2"
}

_screen_has() { tmux_screen | grep -Eq -- "$1"; }
_screen_lacks() { ! tmux_screen | grep -Eq -- "$1"; }

# wait_for_text PATTERN [TIMEOUT]: an extended regexp on the visible screen. On time-out
# shows the screen and returns 1.
wait_for_text()
{
	if wait_until "${2:-5}" _screen_has "$1"; then
		return 0
	fi
	log "no /$1/ on the screen within ${2:-5}s; the screen:"
	tmux_screen | sed 's/^/  | /' >&2
	return 1
}

# wait_for_no_text PATTERN [TIMEOUT]
wait_for_no_text()
{
	if wait_until "${2:-5}" _screen_lacks "$1"; then
		return 0
	fi
	log "/$1/ still on the screen after ${2:-5}s; the screen:"
	tmux_screen | sed 's/^/  | /' >&2
	return 1
}

# expect_text PATTERN [TIMEOUT] [WHAT]: wait_for_text or fail.
expect_text()
{
	wait_for_text "$1" "${2:-5}" || fail "${3:-expected /$1/ on the screen}"
}

# expect_count PATTERN N TIMEOUT WHAT: until exactly N screen lines match PATTERN (the
# terminal may show a frame half drawn, so a count is waited for, never read once).
_screen_count_is() { [ "$(tmux_screen | grep -Ec -- "$1")" -eq "$2" ]; }
expect_count()
{
	wait_until "$3" _screen_count_is "$1" "$2" && return 0
	log "$(tmux_screen | grep -Ec -- "$1") lines match /$1/, not $2; the screen:"
	tmux_screen | sed 's/^/  | /' >&2
	fail "$4"
}

# tmux_wait_exit TIMEOUT: until ktop in the pane has exited; its status in PANE_RC (128+N
# when signal N killed it without a teardown).
PANE_RC=
tmux_wait_exit()
{
	PANE_RC=
	wait_until "$1" test -s "$T/pane.rc" || return 1
	PANE_RC=$(cat "$T/pane.rc")
	return 0
}

_alt_off() { [ "$(tmux_pane '#{alternate_on}')" = 0 ]; }

# The explorer over real agents (--via): remote_via TAG [AGENT ARGS...] is an agent's
# command, its pid written to $T/TAG.agent (sh -c's exec keeps it) and its debug log to
# $T/TAG.klog; remote_agent_pid TAG its pid in AGENT_PID once it started (the clean-up
# kills it; a variable, not $(...), where its fail would only end a subshell);
# remote_two TAG1 TAG2 [AGENT ARGS...] the explorer at 80x24 (-d 1) over two such agents,
# their pids in A1 and A2 once the header names both (remote_two_quit: q, all of it gone;
# BPF programs checked with hist-lib.sh's _progs_gone).
remote_via()
{
	local tag=$1
	shift
	echo "echo \$\$ >$T/$tag.agent; exec $KTOP --agent $* -v --log $T/$tag.klog"
}
# shellcheck disable=SC2119 # the whole screen
remote_agent_pid()
{
	wait_until 15 test -s "$T/$1.agent" || fail "$1: the agent did not start: $(tmux_screen | grep -v "^$" | head -5)"
	AGENT_PID=$(cat "$T/$1.agent")
	KTOP_PIDS+=("$AGENT_PID")
}
A1=''
A2=''
remote_two()
{
	local t1=$1 t2=$2
	shift 2
	mkdir -p "$T/xdg"
	tmux_start 80 24 "XDG_CONFIG_HOME=$T/xdg" -- -d 1 --via "$(remote_via "$t1" "$@")" \
		--via "$(remote_via "$t2" "$@")"
	remote_agent_pid "$t1"
	A1=$AGENT_PID
	remote_agent_pid "$t2"
	A2=$AGENT_PID
	expect_text "^2 hosts " 15 "the explorer did not start on both agents"
}
# remote_two_quit PROG_ID...: q, then within 2 s both agents, their instances and these
# BPF programs of theirs are gone; the tmux server too.
_two_gone() { all_gone "$A1" && all_gone "$A2"; }
remote_two_quit()
{
	tmux_quit_clean
	wait_until 2 _two_gone || fail "two: q: an agent or its instance outlived the viewer by 2 s"
	[ $# = 0 ] || wait_until 2 _progs_gone "$@" || fail "two: q: the agents' programs remain"
	tmux_kill_server
}

# tmux_quit_clean: q quits ktop in the pane, with exit status 0, the terminal restored and no
# sanitizer report on it.
tmux_quit_clean()
{
	tmux_keys q
	tmux_wait_exit 10 || fail "q did not quit"
	[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
	assert_terminal_restored
	assert_no_sanitizer_on_screen
}

# mount_record_disks: in a private mount namespace (KTOP_PRIVATE_MOUNTS), two tmpfs for
# ktop's recordings: $T/ro, read-only, and $T/small with room for what ktop sets aside for a
# trace.dat's header (kallsyms, printk formats, saved_cmdlines twice and 1 MiB: tdat_write.c)
# and 2 MiB of pages; its size in SMALL_KB.
SMALL_KB=
mount_record_disks()
{
	local header
	[ "${KTOP_PRIVATE_MOUNTS:-}" = inside ] || skip "needs unshare (util-linux) for a mount namespace"
	mkdir "$T/ro" "$T/small" || fail "cannot make the mount points"
	mount -t tmpfs -o ro,size=64k tmpfs "$T/ro" || fail "cannot mount a read-only tmpfs"
	header=$(( $(wc -c </proc/kallsyms) + $(wc -c <"$TRACEFS/printk_formats") +
		2 * $(wc -c <"$TRACEFS/saved_cmdlines") + 1048576 ))
	SMALL_KB=$(( header / 1024 + 2048 ))
	mount -t tmpfs -o size=${SMALL_KB}k tmpfs "$T/small" || fail "cannot mount a ${SMALL_KB}k tmpfs"
}

# The pane left the alternate screen (curses' rmcup ran): the terminal was restored.
assert_terminal_restored()
{
	local alt
	# ktop has exited; tmux may still be reading its last bytes.
	wait_until 3 _alt_off
	alt=$(tmux_pane '#{alternate_on}')
	[ "$alt" = 0 ] || fail "the terminal is still in the alternate screen after ktop exited (alternate_on=$alt)"
}

SANITIZER_RE='(AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|ThreadSanitizer)'

# No sanitizer report in a file (ktop's stderr).
assert_no_sanitizer()
{
	! grep -Eq "$SANITIZER_RE" "$1" ||
		fail "sanitizer report in $(basename "$1"): $(grep -Em3 "$SANITIZER_RE" "$1")"
}

# No sanitizer report on the screen (ktop prints what it held back after curses ends).
assert_no_sanitizer_on_screen()
{
	! tmux_screen | grep -Eq "$SANITIZER_RE" ||
		fail "sanitizer report on the screen: $(tmux_screen | grep -Em3 "$SANITIZER_RE")"
}

# ---- sysctls ---------------------------------------------------------------------------

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

# ---- clean-up --------------------------------------------------------------------------

_cleanup()
{
	local rc=$? pid inst ev
	trap - EXIT INT TERM HUP
	restore_sysctls
	[ -n "$_watchdog" ] && kill "$_watchdog" 2>/dev/null && wait "$_watchdog" 2>/dev/null
	if [ "$TMUX_USED" = 1 ]; then
		tmux_kill_server
	fi
	for pid in "${KTOP_PIDS[@]+"${KTOP_PIDS[@]}"}" "${CLEANUP_PIDS[@]+"${CLEANUP_PIDS[@]}"}"; do
		_end_pid "$pid"
	done
	# What a failed ktop left, so the next test starts clean (the failure is reported
	# already: assert_clean ran before, or the test failed earlier).
	for pid in "${KTOP_PIDS[@]+"${KTOP_PIDS[@]}"}"; do
		if instance_exists "$pid"; then
			[ "$rc" = 0 ] && { log "leftover instance ktop-$pid"; rc=1; }
			_rm_instance "ktop-$pid"
		fi
	done
	# its processes are ended above, so each is empty (a zombie leaving takes a moment)
	for inst in "${CLEANUP_CGROUPS[@]+"${CLEANUP_CGROUPS[@]}"}"; do
		wait_until 3 rmdir "$inst" 2>/dev/null || log "could not remove cgroup $inst"
	done
	for ev in "${CLEANUP_DYNEVENTS[@]+"${CLEANUP_DYNEVENTS[@]}"}"; do
		if grep -q "^[^:]*:$ev " "$(_dynevents_file)" 2>/dev/null; then
			echo "-:$ev" >>"$(_dynevents_file)" 2>/dev/null
		fi
	done
	for inst in "${CLEANUP_INSTANCES[@]+"${CLEANUP_INSTANCES[@]}"}"; do
		_rm_instance "$inst"
	done
	[ "${KTOP_PRIVATE_MOUNTS:-}" = inside ] &&
		awk -v t="$T/" 'index($2, t) == 1 { print $2 }' /proc/self/mounts | sort -r |
		xargs -r -n1 umount -l
	rm -rf "$T"
	exit "$rc"
}

# Removes an instance this test owns (disabling its events first keeps rmdir simple).
_rm_instance()
{
	local d="$TRACEFS/instances/$1"
	[ -d "$d" ] || return 0
	echo 0 >"$d/events/enable" 2>/dev/null
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		rmdir "$d" 2>/dev/null && return 0
		[ -d "$d" ] || return 0
		sleep 0.1
	done
	log "could not remove instance $1"
}

trap _cleanup EXIT
trap 'fail "interrupted"' INT TERM HUP

# A bound on the whole test, so a hang becomes a failure and the EXIT trap still cleans up.
_start_watchdog()
{
	local limit=${KTOP_TEST_TIMEOUT:-180} self=$$
	(
		sleep "$limit" &
		s=$!
		trap 'kill "$s" 2>/dev/null; exit 0' TERM
		if wait "$s"; then
			echo "$TEST_NAME: FAIL: timed out after ${limit}s" >&2
			kill -TERM "$self" 2>/dev/null
		fi
	) &
	_watchdog=$!
}
_start_watchdog
