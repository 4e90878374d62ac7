#!/bin/bash
# Bad input gets a golden error: one line on stderr ("ktop: ..."), nothing on stdout, the
# documented exit status (1 the kernel refused, 2 usage, 3 not permitted), a message that
# names the cause and the way out, and the kernel clean afterwards (ktop may have created
# its instance before the kernel refused an event or a filter).
#
# The one exception to "one line" is a filter the kernel rejects: its own message may be
# followed by the kernel's command line and a caret under the offending token, as the
# kernel's error_log shows them (session.h documents those three lines).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs

# check NAME RC CAUSE_RE HINT_RE -- ARGS...: runs ktop ARGS (bounded), expects exit RC and
# exactly one stderr line "ktop: ..." matching CAUSE_RE and HINT_RE (extended regexps).
check()
{
	local name=$1 rc=$2 cause=$3 hint=$4
	shift 5
	run_ktop 15 "$T/$name.out" "$T/$name.err" "$@"
	assert_outcome "$name" "$rc" "$cause" "$hint" 1
}

# assert_outcome NAME RC CAUSE_RE HINT_RE MAXLINES
assert_outcome()
{
	local name=$1 rc=$2 cause=$3 hint=$4 max=$5 line n
	[ "$KTOP_RC" = "$rc" ] || fail "$name: exit status $KTOP_RC, expected $rc; stderr: $(cat "$T/$name.err")"
	[ -s "$T/$name.out" ] && fail "$name: wrote to stdout: $(head -c 200 "$T/$name.out")"
	n=$(wc -l <"$T/$name.err")
	if [ "$n" -lt 1 ] || [ "$n" -gt "$max" ]; then
		fail "$name: $n lines on stderr, expected at most $max: $(cat "$T/$name.err")"
	fi
	line=$(head -n1 "$T/$name.err")
	[[ $line == "ktop: "* ]] || fail "$name: the message does not start with 'ktop: ': $line"
	echo "$line" | grep -Eq -- "$cause" || fail "$name: the message does not name the cause /$cause/: $line"
	echo "$line" | grep -Eq -- "$hint" || fail "$name: the message gives no way out /$hint/: $line"
	assert_no_sanitizer "$T/$name.err"
	instance_gone "$KTOP_PID" || fail "$name: instance ktop-$KTOP_PID left after the error"
	assert_clean
	log "$name: exit $rc: $line"
}

# ---- usage errors: exit 2, before anything is touched ----------------------------------
check duration 2 "--duration.*'abc'" 'ktop --help|such as' -- -b --duration abc -e sched:sched_switch
check memory 2 "--memory.*'1k'" 'ktop --help|such as' -- -b --memory 1k -e sched:sched_switch
check unknown_opt 2 "'--bogus'" 'ktop --help' -- --bogus
check max_events 2 "--max-events.*'0'" 'ktop --help|positive' -- -b --max-events 0 -e sched:sched_switch
check json_tty 2 '--json' 'batch mode|-b|ktop --help' -- --json -e sched:sched_switch
check filter_alone 2 '--filter' '-e|ktop --help' -- -b --filter 'common_pid == 1'

# ---- the kernel refuses: exit 1 ----------------------------------------------------------
check no_event 1 "nosuch:event" '--doctor|--list|picker|e\.g\.' -- -b --duration 5 -e sched:sched_switch -e nosuch:event
check no_glob 1 "nosuch_\*:\*" '--doctor|--list|picker|e\.g\.' -- -b --duration 5 -e 'nosuch_*:*'

# A malformed filter: the kernel's own message, from ktop's instance's error_log (the
# top-level error_log must not get it).
cat "$TRACEFS/error_log" >"$T/error_log.before" 2>/dev/null
run_ktop 15 "$T/filter.out" "$T/filter.err" -b --duration 5 -e sched:sched_switch --filter 'prev_pid >'
assert_outcome filter 1 'sched:sched_switch.*(parse error|[Ii]nvalid)' '(error|Invalid value)' 3
if [ "$(wc -l <"$T/filter.err")" -gt 1 ]; then
	# The kernel's command and caret, the caret within or just after the command.
	l2=$(sed -n 2p "$T/filter.err")
	l3=$(sed -n 3p "$T/filter.err")
	[[ $l2 == *"Command: prev_pid >"* ]] || fail "filter: second line is not the kernel's command: '$l2'"
	[[ $l3 =~ ^\ +\^$ ]] || fail "filter: third line is not a caret: '$l3'"
	prefix=${l2%%Command: *}
	start=$((${#prefix} + 9))
	if [ "${#l3}" -le "$start" ] || [ "${#l3}" -gt "$((${#l2} + 2))" ]; then
		fail "filter: caret at column ${#l3} is not under the command (columns $start-${#l2})"
	fi
fi
cmp -s "$T/error_log.before" <(cat "$TRACEFS/error_log" 2>/dev/null) ||
	fail "filter: the rejected filter landed in the top-level error_log (ktop wrote outside its instance)"

run_ktop 15 "$T/bad_field.out" "$T/bad_field.err" -b --duration 5 -e sched:sched_switch --filter 'no_such_field == 1'
assert_outcome bad_field 1 'sched:sched_switch.*(Field not found|field)' '(error|not found)' 3

# ---- not root: exit 3 ------------------------------------------------------------------
as_nobody=()
if command -v setpriv >/dev/null 2>&1; then
	as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
elif command -v runuser >/dev/null 2>&1; then
	as_nobody=(runuser -u nobody --)
fi
if [ ${#as_nobody[@]} -eq 0 ]; then
	log "no setpriv or runuser: the not-root case is not tested"
else
	for mode in batch explorer; do
		args=(-e sched:sched_switch)
		[ "$mode" = batch ] && args=(-b --duration 5 "${args[@]}")
		# A configuration directory nobody may look into would add its own complaint.
		XDG_CONFIG_HOME=/nonexistent/ktop-test-$$ "${as_nobody[@]}" "$KTOP" "${args[@]}" \
			>"$T/nobody_$mode.out" 2>"$T/nobody_$mode.err" </dev/null &
		KTOP_PID=$!
		KTOP_PIDS+=("$KTOP_PID")
		wait_pid_exit "$KTOP_PID" 15 || fail "ktop as nobody ($mode) still running after 15s"
		KTOP_RC=$WAIT_RC
		assert_outcome "nobody_$mode" 3 '(Permission denied|not permitted|root|privilege)' '(root|CAP_SYS_ADMIN|sudo)' 1
	done
fi

pass
