# shellcheck shell=bash disable=SC2034 # globals are for the tests that source this
# The kernel-state contract (docs/architecture.md): ktop's instances (ktop-PID) found and
# waited for, and assert_clean, which checks that nothing of ktop's is left and that the
# top level is as require_root_tracefs found it. Sourced by tests/lib.sh.

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

# all_gone PID: ktop PID has exited and its instance and probe group are gone (for
# wait_until after a kill).
all_gone()
{
	! pid_alive "$1" && instance_gone "$1" && ! grep -q "^[^:]*:ktop_$1/" "$(_dynevents_file)" 2>/dev/null
}

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
