#!/bin/bash
# Runs the kernel skips are reported, made on purpose and counted exactly. With
# KTOP_TEST_BPF_OBJECT=tphist:FILE both histograms load tests/helpers/tphist_recurse.bpf.o, the
# generic tracepoint histogram whose every counted run also sends its task SIGWINCH (ignored):
#   A: field:syscalls:sys_enter_getppid.__syscall_nr,pid=W  (W: N getppid calls)
#   B: field:signal:signal_generate.sig,pid=W
# Each of A's runs fires signal_generate inside itself, where B cannot run (one tracepoint
# program per CPU at a time): the kernel skips B there and counts it. So A counts every call
# it did not miss, and B reports at least one miss per run of A - in the text header
# (missed=N) and in JSON ("missed"). Without the reporting, or with ktop summing the wrong
# programs, the counts do not add up.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_workload
require_test_object tphist_recurse
KTOP_ENV=(KTOP_NO_GUARD=1 "KTOP_TEST_BPF_OBJECT=tphist:$TEST_OBJ")
N=200
A='field:syscalls:sys_enter_getppid.__syscall_nr,pid=PID'
B='field:signal:signal_generate.sig,pid=PID'

# section FILE SPEC-PREFIX: the lines of the histogram whose header starts so.
section() { awk -v h="# hist $2" 'index($0, "# hist ") == 1 { on = index($0, h) == 1 } on' "$1"; }
count_of() { hist_key_line "$1" all | sed -n 's/.* count=\([0-9]*\) .*/\1/p'; }

GO='env' # the workload waits for a file, so no shell starts in W once A counts
NHIST=2
run_hist text "$KTOP_WORKLOAD" count $N ktop-missed -- --hist "$A" --hist "$B"
section "$T/text.out" "field:syscalls:sys_enter_getppid" >"$T/a.out"
section "$T/text.out" "field:signal:signal_generate" >"$T/b.out"
a_count=$(count_of "$T/a.out") a_missed=$(hist_missed "$T/a.out")
b_count=$(count_of "$T/b.out") b_missed=$(hist_missed "$T/b.out")
log "A: count=${a_count:-none} missed=${a_missed:-none}; B: count=${b_count:-0} missed=${b_missed:-none}"
grep -q '^# hist .* missed=[0-9]' "$T/a.out" && grep -q '^# hist .* missed=[0-9]' "$T/b.out" ||
	fail "no missed= in the headers: $(cat "$T/text.out")"
[ -n "$a_count" ] && [ "$((a_count + a_missed))" = $N ] ||
	fail "A: $a_count counted and $a_missed missed of $N getppid calls: $(cat "$T/a.out")"
[ "$a_count" -gt 0 ] && [ "$b_missed" -ge "$a_count" ] ||
	fail "B reports $b_missed missed runs, expected one for each of A's $a_count: $(cat "$T/text.out")"
# B's own runs (W's signals outside A, such as SIGCHLD at its exit) each skip one more
[ "$b_missed" -le "$((a_count + ${b_count:-0} + 1))" ] ||
	fail "B reports $b_missed missed runs, more than A's $a_count and its own ${b_count:-0} explain"

# The same in JSON.
run_hist json "$KTOP_WORKLOAD" count $N ktop-missed -- --hist "$A" --hist "$B" --json
python3 - "$T/json.out" $N <<'PY' || fail "JSON: missed runs not reported: $(cat "$T/json.out")"
import json, sys
hists = [json.loads(l)["hist"] for l in open(sys.argv[1]) if l.startswith('{"hist":')]
a = next(h for h in hists if h["spec"].startswith("field:syscalls:sys_enter_getppid"))
b = next(h for h in hists if h["spec"].startswith("field:signal:signal_generate"))
count = lambda h: sum(k["count"] for k in h.get("keys", []))
assert count(a) + a["missed"] == int(sys.argv[2]), (count(a), a["missed"])
assert count(a) > 0 and b["missed"] >= count(a), (count(a), b["missed"])
PY
assert_clean
pass
