#!/bin/bash
# tests/package/installed.sh KTOP_DEB, as root in a pristine Debian 12 (./dev fresh's second
# root): apt-get installs the package with nothing but what its Depends pull in, then the
# installed ktop runs: --doctor, a batch capture counted against a known workload, the
# static agent sent through a shell (--push), the explorer in tmux (tmux installed after the first two, for the test alone).
set -eu
deb=${1:?usage: tests/package/installed.sh ktop_VERSION_ARCH.deb}
tracefs=/sys/kernel/tracing
say() { echo "installed: $*" >&2; }
fail() { say "FAIL: $*"; exit 1; }
T=$(mktemp -d /tmp/ktop-installed.XXXXXX)
pids=()
# (under set -e: a ktop already waited for, a tmux server already gone are no failure)
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	tmux -L inst kill-server 2>/dev/null || true
	rm -rf "$T"
}
trap cleanup EXIT

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "$deb" >"$T/apt.log" 2>&1 ||
	{ tail -n 20 "$T/apt.log" >&2; fail "apt-get install $deb"; }
[ "$(command -v ktop)" = /usr/bin/ktop ] || fail "no /usr/bin/ktop after installing $deb"
[ -s /usr/share/bash-completion/completions/ktop ] || fail "no bash completion installed"

ktop --doctor >"$T/doctor" 2>&1 || { cat "$T/doctor" >&2; fail "ktop --doctor exited $?"; }
grep -q 'tracefs' "$T/doctor" || fail "ktop --doctor does not report tracefs: $(head -n 5 "$T/doctor")"

# A batch capture: 50 execs of a copy of true under a name nobody else runs.
cp /bin/true "$T/ktop-deb-true"
ktop -b -e sched:sched_process_exec --duration 30 >"$T/batch" 2>"$T/batch.err" &
kpid=$!
pids+=("$kpid")
for _ in $(seq 100); do
	[ "$(cat "$tracefs/instances/ktop-$kpid/events/sched/sched_process_exec/enable" 2>/dev/null)" = 1 ] && break
	sleep 0.1
done
[ "$(cat "$tracefs/instances/ktop-$kpid/events/sched/sched_process_exec/enable" 2>/dev/null)" = 1 ] ||
	fail "the installed ktop did not start capturing: $(cat "$T/batch.err")"
for _ in $(seq 50); do "$T/ktop-deb-true"; done
kill -INT "$kpid"
wait "$kpid" || fail "ktop -b exited $? after SIGINT: $(cat "$T/batch.err")"
n=$(grep -cF "filename=$T/ktop-deb-true " "$T/batch" || true)
[ "$n" = 50 ] || fail "ktop -b saw $n of 50 execs of $T/ktop-deb-true"
[ ! -d "$tracefs/instances/ktop-$kpid" ] || fail "ktop-$kpid left its instance behind"

# The installed static agent, sent through a shell as -H sends it where a host has no ktop.
ktop -b --via sh --push -e sched:sched_process_exec --duration 1 >"$T/push.out" 2>"$T/push.err" ||
	fail "ktop --via sh --push: $(cat "$T/push.err")"
{ grep -q "sent the agent" "$T/push.err" && grep -q "^# ktop: agent at " "$T/push.out"; } ||
	fail "the installed agent was not sent: $(cat "$T/push.err")"

# The explorer in tmux: its stream shows the events, q leaves the kernel as it was.
apt-get install -y -qq --no-install-recommends tmux >"$T/apt.log" 2>&1 || fail "apt-get install tmux"
tmux -L inst new-session -d -x 160 -y 40 -s t "ktop -e sched:sched_switch; echo KTOP-EXIT=\$? >$T/exit; sleep 60"
seen=
for _ in $(seq 100); do
	tmux -L inst capture-pane -p -t t >"$T/screen" 2>/dev/null || true
	grep -q 'sched_switch.* ==> ' "$T/screen" && { seen=1; break; }
	sleep 0.1
done
[ -n "$seen" ] || { cat "$T/screen" >&2; fail "the explorer shows no sched_switch rows"; }
tmux -L inst send-keys -t t q
for _ in $(seq 100); do [ -s "$T/exit" ] && break; sleep 0.1; done
[ "$(cat "$T/exit" 2>/dev/null)" = KTOP-EXIT=0 ] || fail "the explorer did not quit on q: $(cat "$T/exit" 2>/dev/null)"
for d in "$tracefs"/instances/ktop-*; do
	[ -d "$d" ] && [ ! -d "/proc/${d##*ktop-}" ] && fail "an instance of a dead ktop remains: $d"
done
say "PASS: $(dpkg-query -W -f '${Package} ${Version}' ktop) installed; --doctor; 50 of 50 execs counted; the agent pushed; the explorer quit cleanly"
