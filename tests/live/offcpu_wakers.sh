#!/bin/bash
# Wakeup chains (ktop -b --off-cpu --wakers, ktop.1 OFF-CPU PROFILE) against a workload of
# known shape (profwork wakechain): thread wc-waiter blocks in waiter_wait on a pipe that
# wc-waker writes from waker_work after 50 ms of CPU there, 10 rounds. Each of the waiter's
# reads is then under the waker's stacks as offwaketime folds them (blocked frames ending at
# __schedule, "--", the waker's from try_to_wake_up out to waker_work, its name last), and
# the time under waker_work is the reads' time by the workload's own clock (CLOCK_MONOTONIC,
# bpf_ktime_get_ns's), less 10 % at most. --comm keeps the blocked threads of that name
# only. With three threads (wc-kicker wakes wc-waker, which wakes wc-waiter) the chain's
# second step is there too: wc-waker's own reads, in waker_wait, are under kicker_work and
# wc-kicker, for their time by the workload's clock; so in --json. Every program is gone
# after ktop exits. --wakers alone is refused in one line (over agents: remote_offcpu.sh).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
# shellcheck source-path=SCRIPTDIR source=../profile-lib.sh
. "$(dirname "$0")/../profile-lib.sh"
require_live_hist
require_profwork
require_python

ATTACHED_RE='offcpu_open: attached via '
NHIST=1
ROUNDS=10
MS=50

# ---- refusals ----------------------------------------------------------------------------
"$KTOP" -b --wakers --duration 1 >"$T/alone.out" 2>"$T/alone.err" && fail "--wakers alone ran"
grep -q "^ktop: --wakers joins the off-CPU profile's waits to their wakers: add -b --off-cpu" \
	"$T/alone.err" || fail "--wakers alone: not the one-line refusal: $(cat "$T/alone.err")"

# wl_ns RUN KEY: the workload's own clock for KEY (waiter_ns, waker_ns), into WL_NS.
wl_ns()
{
	WL_NS=$(sed -n "s/^$2=//p" "$T/$1.wl")
	[ -n "$WL_NS" ] && [ "$WL_NS" -ge $((ROUNDS * MS * 1000000)) ] ||
		fail "$1: the workload printed no $2= of ${ROUNDS}x${MS} ms at least: $(cat "$T/$1.wl")"
}

# check_chain RUN BLOCKED IN WAKER FN: in RUN's folded stacks ($T/RUN.folded), BLOCKED's time blocked in IN
# (through the kernel's pipe read) and woken by WAKER from FN is within 10 % under the
# workload's clock (WL_NS), and each such stack is offwaketime's shape.
check_chain()
{
	local run=$1 blocked=$2 in=$3 waker=$4 fn=$5 ns bad
	ns=$(awk -v b="$blocked;" -v at=";$in;" -v fn=";$fn;" -v w=";$waker" '
		index($0, b) == 1 && index($0, at) && index($0, fn) &&
		substr($0, length($0) - length($NF) - length(w), length(w)) == w { s += $NF }
		END { printf "%d\n", s }' "$T/$run.folded")
	if [ "$ns" -lt $((WL_NS * 9 / 10)) ] || [ "$ns" -gt "$WL_NS" ]; then
		fail "$run: $ns ns of $blocked in $in woken by $waker in $fn, the workload's clock says $WL_NS (-10 %):
$(grep -- "^$blocked;" "$T/$run.folded" | cut -c1-400)"
	fi
	bad=$(grep -- "^$blocked;.*;$in;.*;$fn;" "$T/$run.folded" |
		grep -Ev ";(anon_)?pipe_read;(.*;)?__schedule;--;try_to_wake_up;(.*;)?(anon_)?pipe_write;(.*;)?$fn;(.*;)?$waker [0-9]+$")
	[ -z "$bad" ] || fail "$run: a chain not in offwaketime's shape (blocked;...;__schedule;--;try_to_wake_up;...;$fn;...;$waker): $bad"
	log "$run: $blocked in $in woken from $fn: $ns ns of the workload's $WL_NS"
}

# ---- two threads, --comm, folded -----------------------------------------------------------
run_hist two "$KTOP_PROFWORK" wakechain "$ROUNDS" "$MS" 2 -- --off-cpu --wakers --comm wc-waiter --folded
grep -q '^ktop: off-cpu: via=.* wakers=1$' "$T/two.err" || fail "two: no wakers=1 in the counts: $(cat "$T/two.err")"
grep -v '^wc-waiter;' "$T/two.out" | grep -q . &&
	fail "two: --comm wc-waiter, yet other threads' stacks: $(grep -v '^wc-waiter;' "$T/two.out" | head -3)"
wl_ns two waiter_ns
cp "$T/two.out" "$T/two.folded"
check_chain two wc-waiter waiter_wait wc-waker waker_work

# ---- three threads, -p, --json: the chain's second step ------------------------------------
run_hist three "$KTOP_PROFWORK" wakechain "$ROUNDS" "$MS" 3 -- --off-cpu --wakers -p PID --json
python3 - "$T/three.out" >"$T/three.folded" <<'EOF' || fail "three: --json: $(head -c 600 "$T/three.out")"
import json, sys
lines = open(sys.argv[1]).readlines()
assert len(lines) == 1, len(lines)
p = json.loads(lines[0])["offcpu"]
assert p["wakers"] is True and p["unit"] == "ns", p
assert p["total"] == sum(s["count"] for s in p["stacks"]), p["total"]
for s in p["stacks"]:
    assert s["frames"].count("--") == 1, s["frames"]
    print(";".join(s["frames"]), s["count"])
EOF
wl_ns three waiter_ns
check_chain three wc-waiter waiter_wait wc-waker waker_work
wl_ns three waker_ns
check_chain three wc-waker waker_wait wc-kicker kicker_work
assert_clean
pass
