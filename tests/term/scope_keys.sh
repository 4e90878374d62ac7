#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Kernel-side scope from the keyboard (80x24): two workloads call getppid ("wlalpha" and
# "wlbeta"); in the tracer pane (R), s then pid=<alpha> writes alpha into the instance's
# set_event_pid, the header says "scope: pid <alpha>" and only wlalpha's rows arrive; a pid
# that does not run and bad syntax give a one-line error and leave that scope; comm=wlbeta
# scopes to beta; with wlalpha moved into a throwaway cgroup v2 (removed on every exit),
# cgroup=<its path below the v2 mount> scopes to alpha again, and a path that is no cgroup
# is refused in one line; an empty scope records both again; q quits clean. The stream shows
# only comm=wl* (its display filter), so other processes' getppid calls do not matter.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload

"$KTOP_WORKLOAD" rate 20 120 wlalpha >/dev/null &
alpha=$!
CLEANUP_PIDS+=("$alpha")
"$KTOP_WORKLOAD" rate 20 120 wlbeta >/dev/null &
beta=$!
CLEANUP_PIDS+=("$beta")
tmux_start 80 24 -- -d 1 -e syscalls:sys_enter_getppid
pid=$KTOP_PID
wait_capturing "$pid" syscalls sys_enter_getppid
P="$(instance_dir "$pid")/set_event_pid"
scoped() { tr -s ' \n' ' ' <"$P" | sed 's/^ *//; s/ *$//'; }

rows() { tmux_screen | grep -c -- "$1-[0-9]* .*sys_enter_getppid"; }
_only() { [ "$(rows "$1")" -ge 3 ] && [ "$(rows "$2")" = 0 ]; }
_both() { [ "$(rows wlalpha)" -ge 1 ] && [ "$(rows wlbeta)" -ge 1 ]; }
want() # WAIT-FN ARGS... MESSAGE
{
	local msg=${*: -1}
	wait_until 8 "${@:1:$#-1}" && return 0
	tmux_screen | sed 's/^/  | /' >&2
	fail "$msg"
}
# Other processes call getppid too (the machine is shared): the stream's own row filter
# shows only the workloads' rows; it is display-only, the kernel still records everyone.
tmux_keys F
expect_text "^show only" 5 "F did not open the row filter prompt"
tmux_text 'comm=wl*'
tmux_keys Enter
expect_text "only comm=wl\\*" 5 "the row filter did not apply"
want _both "both workloads' rows before scoping"
[ -z "$(scoped)" ] || fail "set_event_pid is '$(scoped)' before scoping"

scope() { scope_key "$1"; }

scope "pid=$alpha"
expect_text "records only pid $alpha" 5 "no message for the pid scope"
[ "$(scoped)" = "$alpha" ] || fail "set_event_pid is '$(scoped)', expected $alpha"
expect_text "Scope: pid $alpha" 3 "the pane does not show the scope"
expect_text "scope: pid $alpha" 3 "the header does not show the scope"
tmux_keys Escape
wait_for_no_text "Scope: " 3 || fail "Esc did not close the tracer pane"
want _only wlalpha wlbeta "wlbeta's rows still arrive under pid=$alpha"

# A pid that does not run: one line naming it, the scope stays.
gone=4194303
while kill -0 "$gone" 2>/dev/null; do gone=$((gone - 1)); done
scope "pid=$alpha,$gone"
expect_text "pid $gone is not running" 5 "no error naming the missing pid"
[ "$(scoped)" = "$alpha" ] || fail "a bad pid changed set_event_pid to '$(scoped)'"
expect_text "scope: pid $alpha" 3 "a bad pid changed the header"
tmux_keys Escape
scope "pid=12x"
expect_text "bad pid \"12x\": use pid=" 5 "no error with the way out for bad syntax"
[ "$(scoped)" = "$alpha" ] || fail "bad syntax changed set_event_pid to '$(scoped)'"
tmux_keys Escape

scope "comm=wlbeta"
expect_text "records only comm wlbeta" 5 "no message for the comm scope"
[ "$(scoped)" = "$beta" ] || fail "set_event_pid is '$(scoped)', expected $beta"
expect_text "scope: comm wlbeta" 3 "the header does not show the comm scope"
tmux_keys Escape
want _only wlbeta wlalpha "wlalpha's rows still arrive under comm=wlbeta"

# cgroup=PATH: the cgroup's tasks, kept current (wlalpha joined before the scope was set).
if grep -q " cgroup2 " /proc/mounts; then
	require_cgroup2
	make_cgroup key
	CGNAME=${CGROUP_DIR#"$CGROUP2"}
	echo "$alpha" >"$CGROUP_DIR/cgroup.procs" || fail "cannot move $alpha into $CGROUP_DIR"
	scope "cgroup=$CGNAME"
	expect_text "records only cgroup $CGNAME" 5 "no message for the cgroup scope"
	[ "$(scoped)" = "$alpha" ] || fail "set_event_pid is '$(scoped)', expected $alpha (the cgroup's task)"
	expect_text "scope: cgroup $CGNAME" 3 "the header does not show the cgroup scope"
	tmux_keys Escape
	want _only wlalpha wlbeta "wlbeta's rows still arrive under cgroup=$CGNAME"
	scope "cgroup=$T"
	expect_text "is not a cgroup: give a directory" 5 "no error for a path that is not a cgroup"
	[ "$(scoped)" = "$alpha" ] || fail "a bad path changed set_event_pid to '$(scoped)'"
	expect_text "scope: cgroup $CGNAME" 3 "a bad path changed the header"
	tmux_keys Escape
else
	log "no cgroup v2 mount: cgroup= is not exercised here"
fi

scope ""
expect_text "records all processes again" 5 "no message for clearing the scope"
[ -z "$(scoped)" ] || fail "set_event_pid is '$(scoped)' after clearing"
expect_text "Scope: all processes" 3 "the pane does not show the cleared scope"
wait_for_no_text "scope: " 3 || fail "the header still shows a scope"
tmux_keys Escape
want _both "both workloads' rows after clearing"

tmux_keys q
tmux_wait_exit 10 || fail "q did not quit within 10s"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
assert_terminal_restored
assert_no_sanitizer_on_screen
assert_clean
pass
