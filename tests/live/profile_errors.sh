#!/bin/bash
# The profile's bad inputs each get one line on stderr naming the cause and the way out,
# nothing on stdout, the documented exit status, and nothing left behind:
#  - -F 0 (a usage error, exit 2);
#  - -F above kernel.perf_event_max_sample_rate (the kernel's limit, exit 1);
#  - -p of a process that does not exist (exit 1);
#  - --profile NAME, the old long form of -P (exit 2).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs

# check NAME RC REGEX ARGS...: one stderr line "ktop: ..." matching REGEX, exit RC.
check()
{
	local name=$1 rc=$2 re=$3
	shift 3
	run_ktop 30 "$T/$name.out" "$T/$name.err" "$@"
	[ "$KTOP_RC" = "$rc" ] || fail "$name: exit $KTOP_RC, not $rc: $(head -c 300 "$T/$name.err")"
	[ ! -s "$T/$name.out" ] || fail "$name: stdout not empty: $(head -c 300 "$T/$name.out")"
	[ "$(wc -l <"$T/$name.err")" = 1 ] || fail "$name: not one line: $(cat "$T/$name.err")"
	grep -Eq "^ktop: $re" "$T/$name.err" || fail "$name: '$(cat "$T/$name.err")' !~ '$re'"
	log "$name: $(cat "$T/$name.err")"
}

check freq-zero 2 "-F takes samples per second, 1 or more \(perf's default is 99\), not '0'" \
	-b --profile -F 0 --duration 1
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
over=$((max + 1))
check freq-over 1 "-F $over is above kernel.perf_event_max_sample_rate \($max\): give -F $max or less, or raise it \(sysctl kernel.perf_event_max_sample_rate=$over\)" \
	-b --profile -F "$over" --duration 1
# a pid that was and is no more
sleep 0 &
gone=$!
wait "$gone"
pid_alive "$gone" && fail "pid $gone is alive again"
check no-pid 1 "-p $gone: no such process" -b --profile -p "$gone" --duration 1
check old-long-P 2 "unexpected argument 'sched' \(--profile is the CPU profile and takes no value; -P NAME, or --preset NAME, starts with a profile of events\)" \
	--profile sched

assert_clean
pass
