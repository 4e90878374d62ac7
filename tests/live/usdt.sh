#!/bin/bash
# USDT probes through batch mode (issue 16), against tests/helpers/usdt_target (our
# <sys/sdt.h> probe ktop_test:hit, guarded by its semaphore, fired N times with
# (i * 7 - 3, 1000000000000 + i, "ktop-usdt-<i>")) and against the real /usr/bin/python3.11
# (python:function__entry, semaphore-guarded too). Asserted:
#  - --list-usdt lists a file's probes and a running process's (its shared libraries too);
#  - exactly N hits with the int, the long and the string as the target passed them, and
#    ktop_test:twice of its shared library (no semaphore, two sites, constants) as two
#    uprobes twice and twice_2 with one hit each, 1 and 2, after them; the
#    target's guard was open N times (the kernel counted the semaphore up through the
#    probe's ref_ctr_offset) and is closed again once ktop is gone;
#  - python3.11: exactly K function__entry hits naming our function, file and line (3.11
#    fires this probe on a generator's close, not on a plain call: what the test drives;
#    the line is the yield's, 3, where the generator resumes);
#  - bad inputs: a one-line error each (missing binary, no notes, unknown probe, a pid not
#    running, a bad definition), the right exit status, nothing left in uprobe_events.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_python
require_usdt_target
PY=/usr/bin/python3.11
DYN=$(_dynevents_file)
N=41
K=17
group_gone() { ! grep -q "^[^:]*:ktop_$1/" "$DYN"; }

# ---- listing --------------------------------------------------------------------------------
run_ktop 20 "$T/list.out" "$T/list.err" --list-usdt "$TGT"
[ "$KTOP_RC" = 0 ] || fail "--list-usdt $TGT exited $KTOP_RC: $(cat "$T/list.err")"
grep -Eq "^$TGT:ktop_test:hit  0x[0-9a-f]+  semaphore 0x[0-9a-f]+  -4@[^ ]+ -8@[^ ]+ 8@[^ ]+\$" \
	"$T/list.out" || fail "--list-usdt $TGT: $(cat "$T/list.out")"
[ "$(wc -l <"$T/list.out")" = 1 ] || fail "--list-usdt $TGT: more than one probe"
run_ktop 20 "$T/llist.out" "$T/llist.err" --list-usdt "$LIB"
[ "$KTOP_RC" = 0 ] || fail "--list-usdt $LIB exited $KTOP_RC: $(cat "$T/llist.err")"
grep -Eq "^$LIB:ktop_test:twice  0x[0-9a-f]+  semaphore -  -4@\\\$1\$" "$T/llist.out" ||
	fail "--list-usdt $LIB: no first site of ktop_test:twice: $(cat "$T/llist.out")"
[ "$(wc -l <"$T/llist.out")" = 2 ] || fail "--list-usdt $LIB: not 2 sites: $(cat "$T/llist.out")"

# ---- our target: values, counts, the semaphore --------------------------------------------------
rm -f "$T/go"
"$TGT" "$N" "$T/go" >"$T/target.out" &
tgt=$!
CLEANUP_PIDS+=("$tgt")
wait_until 10 has_line "$T/target.out" || fail "usdt target printed no pid"
# a running process: its program and its libraries
run_ktop 20 "$T/plist.out" "$T/plist.err" --list-usdt "$tgt"
[ "$KTOP_RC" = 0 ] || fail "--list-usdt $tgt exited $KTOP_RC: $(cat "$T/plist.err")"
grep -q "^$TGT:ktop_test:hit " "$T/plist.out" && [ "$(grep -c "^$LIB:ktop_test:twice " "$T/plist.out")" = 2 ] ||
	fail "--list-usdt $tgt: $(cat "$T/plist.out")"

start_ktop "$T/run.out" "$T/run.err" -b --json --usdt "$TGT:ktop_test:hit arg3:string pid=$tgt" \
	--usdt "$LIB:ktop_test:twice pid=$tgt"
pid=$KTOP_PID
wait_capturing "$pid" "ktop_$pid" hit
# the probes are enabled one after another: the last one too before the target goes (a soak
# run lost twice_2's hit to that gap)
wait_capturing "$pid" "ktop_$pid" twice_2
grep -Eq "^p:ktop_$pid/hit $TGT:0x[0-9a-f]+\(0x[0-9a-f]+\) arg1=[^ ]+:s32 arg2=[^ ]+:s64 arg3=\+0\([^ ]+\):string\$" \
	"$TRACEFS/uprobe_events" || fail "uprobe_events: $(grep "ktop_$pid/" "$TRACEFS/uprobe_events")"
grep -Eq "^p:ktop_$pid/twice_2 $LIB:0x[0-9a-f]+ arg1=\\\\2:s32\$" "$TRACEFS/uprobe_events" ||
	fail "uprobe_events: $(grep "ktop_$pid/" "$TRACEFS/uprobe_events")"
touch "$T/go"
wait_pid_exit "$tgt" 10 || fail "usdt target did not finish"
[ "$WAIT_RC" = 0 ] || fail "usdt target exited $WAIT_RC"
[ "$(sed -n 2p "$T/target.out")" = "guard $N semaphore 1" ] ||
	fail "the target's guard: '$(sed -n 2p "$T/target.out")', expected 'guard $N semaphore 1'"
stop_ktop "$pid" INT 10
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC; stderr: $(head -c 400 "$T/run.err")"
[ -s "$T/run.err" ] && fail "ktop wrote to stderr: $(head -c 400 "$T/run.err")"
group_gone "$pid" || fail "ktop_$pid left in uprobe_events: $(grep "ktop_$pid/" "$DYN")"
assert_clean
python3 "$(dirname "$0")/../helpers/usdt_hits.py" "$T/run.out" "ktop_$pid" "$tgt" "$N" ||
	fail "USDT hits wrong (see above)"
# without ktop the guard stays shut: the kernel put the semaphore back
"$TGT" 3 >"$T/after.out" || fail "usdt target failed"
[ "$(sed -n 2p "$T/after.out")" = "guard 0 semaphore 0" ] ||
	fail "after ktop: '$(sed -n 2p "$T/after.out")', expected 'guard 0 semaphore 0'"
log "our probe: $N hits with exact int, long and string, semaphore counted up and back"

# ---- python3.11 --------------------------------------------------------------------------------
"$KTOP" --list-usdt "$PY" >"$T/pylist.out" 2>&1 || fail "--list-usdt $PY: $(cat "$T/pylist.out") (./dev installs python3, Debian's 3.11 has USDT notes)"
grep -Eq "^$PY:python:function__entry  0x[0-9a-f]+  semaphore 0x[0-9a-f]+  " "$T/pylist.out" ||
	fail "--list-usdt $PY has no python:function__entry: $(cat "$T/pylist.out")"
cat >"$T/calls.py" <<PYEOF
import os, sys, time
def ktop_usdt_gen():
    yield 1
print(os.getpid(), flush=True)
while not os.path.exists(sys.argv[1]):
    time.sleep(0.01)
for i in range($K):
    g = ktop_usdt_gen()
    next(g)
    g.close()
PYEOF
# py_run TYPES WHAT: K function__entry hits of our generator, named with file and line
py_run()
{
	rm -f "$T/pygo"
	"$PY" "$T/calls.py" "$T/pygo" >"$T/py.out" &
	py=$!
	CLEANUP_PIDS+=("$py")
	wait_until 10 has_line "$T/py.out" || fail "python printed no pid"
	start_ktop "$T/py.json" "$T/py.err" -b --json \
		--usdt "$PY:python:function__entry${1:+ $1} pid=$py"
	pid=$KTOP_PID
	wait_capturing "$pid" "ktop_$pid" function__entry
	touch "$T/pygo"
	wait_pid_exit "$py" 10 || fail "python did not finish"
	stop_ktop "$pid" INT 10
	[ "$KTOP_RC" = 0 ] || fail "ktop (python) exited $KTOP_RC; stderr: $(head -c 400 "$T/py.err")"
	group_gone "$pid" || fail "ktop_$pid left in uprobe_events after the python run"
	assert_clean
	python3 - "$T/py.json" "$pid" "$K" "$T/calls.py" <<-'PYEOF' || fail "python function__entry hits wrong"
	import json, sys
	path, kpid, k, script = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
	rows = [r for r in map(json.loads, open(path)) if "event" in r]
	ours = [r for r in rows if r["event"] == f"ktop_{kpid}:function__entry" and r["fields"]["arg2"] == "ktop_usdt_gen"]
	ok = len(ours) == k and all(r["fields"]["arg1"] == script and r["fields"]["arg3"] == 3 for r in ours)
	if not ok:
	    print("usdt: python:", len(ours), "entries of ktop_usdt_gen, expected", k, ours[:2])
	sys.exit(0 if ok else 1)
	PYEOF
	log "python3.11 ($2): $K function__entry hits with the function's name, file and line"
}
py_run "arg1:string arg2:string" "typed by the user"
# without types: python's probes are known to pass file and function as char pointers
py_run "" "its known signature"

# ---- bad inputs: one line each, nothing left ---------------------------------------------------
n=0
expect()
{
	local want_rc=$1 want=$2 got
	shift 2
	n=$((n + 1))
	run_ktop 20 "$T/bad$n.out" "$T/bad$n.err" "$@"
	got=$(cat "$T/bad$n.err")
	[ "$KTOP_RC" = "$want_rc" ] || fail "ktop $* exited $KTOP_RC, expected $want_rc; stderr: $got"
	[ "$got" = "$want" ] || fail "ktop $*:
  got:  $got
  want: $want"
	group_gone "$KTOP_PID" || fail "ktop $* left ktop_$KTOP_PID in uprobe_events"
	assert_clean
}
B=(-b -q --duration 0.2 --buffer-kb 1024)
expect 1 "ktop: no such file: /nonexistent/app (No such file or directory)" \
	"${B[@]}" --usdt /nonexistent/app:p:x
expect 1 "ktop: /usr/bin/env has no USDT probes (no .note.stapsdt notes; programs get them from <sys/sdt.h>)" \
	"${B[@]}" --usdt /usr/bin/env:p:x
expect 1 "ktop: no USDT probe 'ktop_test:miss' in $TGT (ktop --list-usdt $TGT lists its 1)" \
	"${B[@]}" --usdt "$TGT:ktop_test:miss"
expect 1 "ktop: ktop_test:hit has 3 arguments; there is no arg5" \
	"${B[@]}" --usdt "$TGT:ktop_test:hit arg5:string"
expect 2 "ktop: --usdt '$TGT:hit': USDT target is PATH:PROVIDER:PROBE, as in /usr/bin/python3.11:python:function__entry (ktop --list-usdt PATH lists them) (see ktop --help)" \
	"${B[@]}" --usdt "$TGT:hit"
# a pid that is not running: one that just ended
"$TGT" 0 >"$T/dead.out"
dead=$(head -1 "$T/dead.out")
expect 1 "ktop: no process $dead (it is not running; ps shows the ones there are)" \
	--list-usdt "$dead"
expect 1 "ktop: /usr/bin/env has no USDT probes (no .note.stapsdt notes; programs get them from <sys/sdt.h>)" \
	--list-usdt /usr/bin/env
log "bad inputs: one line each, nothing left"
pass
