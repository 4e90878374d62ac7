#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# What perf's side band lost is said, not only logged. The side band (src/backend/perf/taskwatch.c)
# names tasks by their forks, execs and renames; when its ring fills, the kernel drops
# records and says how many with the next one it writes. Here ktop is stopped (SIGSTOP)
# while a workload forks 20000 children: some 40000 fork and exit records for rings of 64 KiB
# a CPU. After SIGCONT, short fork bursts give the kernel its next records, carrying the
# loss. Then:
#   - batch: a run that lost nothing has no side-band line; this one prints
#     "# ktop: side band lost N records (...)" with 0 < N <= what the workload made and
#     whatever else forked meanwhile could add, before the summary, and JSON
#     {"side_band":{"lost":N}};
#   - the explorer's header shows "side band lost: N".
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_tmux

FORKS=20000

# the stopped ktop misses the workload's records; bursts after SIGCONT carry the loss
storm_while_stopped()
{
	kill -STOP "$1" || fail "cannot stop ktop $1"
	"$KTOP_WORKLOAD" forks "$FORKS" >/dev/null || { kill -CONT "$1"; fail "the fork workload failed"; }
	kill -CONT "$1" || fail "cannot continue ktop $1"
}
burst() { "$KTOP_WORKLOAD" forks 200 >/dev/null; }
# the reader thread: the side band is open before it starts (src/backend/ingest/reader.c)
reading() { [ "$(ls /proc/"$1"/task 2>/dev/null | wc -l)" -ge 2 ]; }

# A run that loses nothing says nothing about the side band.
# The side band names the rows ktop keeps or prints (a quiet -q count opens none): an event
# that fires only for a task hung for minutes, so the output is the summary alone (and no
# syscall hook slows the forks).
NAMED=(-b -e sched:sched_process_hang)
run_ktop 20 "$T/quiet.out" "$T/quiet.err" "${NAMED[@]}" --duration 1
[ "$KTOP_RC" = 0 ] || fail "ktop -b exited $KTOP_RC: $(cat "$T/quiet.err")"
grep -q "side band" "$T/quiet.out" && fail "a run that lost nothing reports: $(grep "side band" "$T/quiet.out")"

for fmt in text json; do
	args=("${NAMED[@]}")
	[ "$fmt" = json ] && args+=(--json)
	start_ktop "$T/$fmt.out" "$T/$fmt.err" "${args[@]}"
	kpid=$KTOP_PID
	wait_until 10 reading "$kpid" || fail "ktop $kpid started no reader"
	storm_while_stopped "$kpid"
	for _ in 1 2 3 4 5; do burst; sleep 0.3; done
	stop_ktop "$kpid" INT 20
	[ "$KTOP_RC" = 0 ] || fail "ktop ($fmt) exited $KTOP_RC: $(cat "$T/$fmt.err")"
	if [ "$fmt" = text ]; then
		line=$(grep "^# ktop: side band lost" "$T/text.out") ||
			fail "no side-band line after a stopped ktop missed $FORKS forks; output: $(cat "$T/text.out")"
		n=$(sed -E 's/^# ktop: side band lost ([0-9]+) records .*/\1/' <<<"$line")
		[ "$(tail -n1 "$T/text.out" | cut -c1-15)" = "# ktop: events=" ] ||
			fail "the summary is not the last line: $(tail -n1 "$T/text.out")"
	else
		n=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    d = json.loads(l)
    if "side_band" in d: print(d["side_band"]["lost"])' "$T/json.out") ||
			fail "unreadable JSON: $(cat "$T/json.out")"
		[ -n "$n" ] || fail "no side_band object in the JSON: $(cat "$T/json.out")"
	fi
	# each fork is a fork record and an exit record; others forking meanwhile add a few
	[[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -gt 0 ] && [ "$n" -le $((2 * FORKS + 20000)) ] ||
		fail "$fmt: side band lost '$n' records of some $((2 * FORKS))"
	log "$fmt: the side band lost $n of some $((2 * FORKS)) records"
done

# The explorer's header.
tmux_start 100 24 -- -e syscalls:sys_enter_getppid
kpid=$KTOP_PID
wait_capturing "$kpid" syscalls sys_enter_getppid
wait_until 10 reading "$kpid" || fail "ktop $kpid started no reader"
expect_text "lost: 0" 10 "the explorer did not start"
tmux_screen | grep -q "side band" && fail "the header speaks of the side band before any loss"
storm_while_stopped "$kpid"
header_says() { burst; tmux_screen | grep -Eq "side band lost: [1-9][0-9]*"; }
wait_until 15 header_says || {
	tmux_screen | sed 's/^/  | /' >&2
	fail "the header does not show the side band's loss"
}
tmux_keys q
tmux_wait_exit 10
assert_clean
pass
