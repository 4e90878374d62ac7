# shellcheck shell=bash disable=SC2034 # globals are for the tests that source this
# Shared helpers for ktop's live and terminal tests. Sourced, never run. Each tier's own
# helpers live beside its tests (kernel-lib.sh, live/live-lib.sh, term/tmux-lib.sh,
# term/editor-lib.sh, remote/remote-lib.sh, record/record-lib.sh) and are sourced below.
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

require_python()
{
	command -v python3 >/dev/null 2>&1 || skip "needs python3 to check JSON"
}

SANITIZER_RE='(AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|ThreadSanitizer)'

# No sanitizer report in a file (ktop's stderr).
assert_no_sanitizer()
{
	! grep -Eq "$SANITIZER_RE" "$1" ||
		fail "sanitizer report in $(basename "$1"): $(grep -Em3 "$SANITIZER_RE" "$1")"
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

# ---- each tier's helpers ---------------------------------------------------------------

# All of them for every test that sources this file, whichever its tier.
# shellcheck source=kernel-lib.sh
. "$_lib_dir/kernel-lib.sh"
# shellcheck source=live/live-lib.sh
. "$_lib_dir/live/live-lib.sh"
# shellcheck source=term/tmux-lib.sh
. "$_lib_dir/term/tmux-lib.sh"
# shellcheck source=term/editor-lib.sh
. "$_lib_dir/term/editor-lib.sh"
# shellcheck source=remote/remote-lib.sh
. "$_lib_dir/remote/remote-lib.sh"
# shellcheck source=record/record-lib.sh
. "$_lib_dir/record/record-lib.sh"

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
