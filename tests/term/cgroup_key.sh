#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The cgroup scope from the keyboard (80x24): "wlalpha" calls getppid inside a throwaway
# cgroup v2 (removed on every exit), "wlbeta" outside. In the tracer pane (R), s then
# cgroup=<its path below the v2 mount> makes the instance's set_event_pid wlalpha's pid, the
# header says "scope: cgroup PATH" and only wlalpha's rows arrive; a path that is no cgroup
# gives a one-line error and leaves that scope; an empty scope records both again; q quits
# clean. The stream shows only comm=wl* (its display filter), so other processes' getppid
# calls do not matter.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_workload
require_cgroup2

make_cgroup key
CGNAME=${CGROUP_DIR#"$CGROUP2"}
in_cgroup "$CGROUP_DIR" "$KTOP_WORKLOAD" rate 20 120 wlalpha >/dev/null
alpha=$IN_CGROUP_PID
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
tmux_keys F
expect_text "^show only" 5 "F did not open the row filter prompt"
tmux_text 'comm=wl*'
tmux_keys Enter
expect_text "only comm=wl\\*" 5 "the row filter did not apply"
want _both "both workloads' rows before scoping"

scope() # TEXT: R, s, TEXT, Enter
{
	tmux_keys R
	expect_text "Scope: " 5 "R did not show the scope line"
	tmux_keys s
	expect_text "cgroup=PATH" 5 "s did not offer cgroup=PATH"
	[ -n "$1" ] && tmux_text "$1"
	tmux_keys Enter
}

scope "cgroup=$CGNAME"
expect_text "records only cgroup $CGNAME" 5 "no message for the cgroup scope"
[ "$(scoped)" = "$alpha" ] || fail "set_event_pid is '$(scoped)', expected $alpha (the cgroup's task)"
expect_text "scope: cgroup $CGNAME" 3 "the header does not show the cgroup scope"
tmux_keys Escape
want _only wlalpha wlbeta "wlbeta's rows still arrive under cgroup=$CGNAME"

# Not a cgroup: one line with the way out, the scope stays.
scope "cgroup=$T"
expect_text "is not a cgroup: give a directory" 5 "no error for a path that is not a cgroup"
[ "$(scoped)" = "$alpha" ] || fail "a bad path changed set_event_pid to '$(scoped)'"
expect_text "scope: cgroup $CGNAME" 3 "a bad path changed the header"
tmux_keys Escape

scope ""
expect_text "records all processes again" 5 "no message for clearing the scope"
[ -z "$(scoped)" ] || fail "set_event_pid is '$(scoped)' after clearing"
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
