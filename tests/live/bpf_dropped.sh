#!/bin/bash
# Samples a program had but its map refused are reported, not lost unsaid. With
# KTOP_TEST_BPF_OBJECT=tphist:FILE the histogram loads tests/helpers/tphist_onerow.bpf.o, the
# generic tracepoint histogram whose map holds one row. The workload renames itself before
# each of N getppid calls, so a histogram by comm has N keys (N+1 or more when the start-up
# calls getppid too, as the sanitizers' runtime does): one row is kept (count 1) and every
# other call is refused, and ktop must say it missed each (text and JSON). The calls are
# counted beside it by syscall-latency (its own object, a map of room enough). A kernel
# since 6.15 can refuse any hash map update under lock contention the same way.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_workload
require_test_object tphist_onerow
KTOP_ENV=(KTOP_NO_GUARD=1 "KTOP_TEST_BPF_OBJECT=tphist:$TEST_OBJ")
NAMES=(dropped-a dropped-b dropped-c dropped-d dropped-e)
N=${#NAMES[@]}
SPEC='field:syscalls:sys_enter_getppid.__syscall_nr,by=comm,pid=PID'
REF='syscall-latency,by=syscall,pid=PID'

# section FILE SPEC-PREFIX: the lines of the histogram whose header starts so.
section() { awk -v h="# hist $2" 'index($0, "# hist ") == 1 { on = index($0, h) == 1 } on' "$1"; }

GO='exec' # the shell's own getppid calls come before it waits; only the workload's are counted
NHIST=2
run_hist text "$KTOP_WORKLOAD" names "${NAMES[@]}" -- --hist "$SPEC" --hist "$REF"
section "$T/text.out" "field:syscalls:sys_enter_getppid" >"$T/one.out"
section "$T/text.out" "syscall-latency" >"$T/ref.out"
keys=$(grep -c '^key ' "$T/one.out")
count=$(sed -n 's/^key .* count=\([0-9]*\) .*/\1/p' "$T/one.out")
missed=$(hist_missed "$T/one.out")
calls=$(hist_key_line "$T/ref.out" getppid | sed -n 's/.* count=\([0-9]*\) .*/\1/p')
log "keys=$keys count=$count missed=$missed; the workload made ${calls:-no} getppid calls"
[ "${calls:-0}" -ge "$N" ] && [ "$(hist_missed "$T/ref.out")" = 0 ] ||
	fail "syscall-latency did not count the $N calls at least: $(cat "$T/ref.out")"
[ "$keys" = 1 ] && [ "$count" = 1 ] ||
	fail "expected one row counting one call (the map holds one): $(cat "$T/one.out")"
[ "$missed" = $((calls - 1)) ] ||
	fail "the map refused $((calls - 1)) samples, ktop says missed=$missed: $(cat "$T/one.out")"

run_hist json "$KTOP_WORKLOAD" names "${NAMES[@]}" -- --hist "$SPEC" --hist "$REF" --json
python3 - "$T/json.out" <<'PY' || fail "JSON: refused samples not reported: $(cat "$T/json.out")"
import json, sys
hists = [json.loads(l)["hist"] for l in open(sys.argv[1]) if l.startswith('{"hist":')]
one = next(h for h in hists if h["spec"].startswith("field:"))
ref = next(h for h in hists if h["spec"].startswith("syscall-latency"))
calls = sum(k["count"] for k in ref["keys"] if k.get("key") == "getppid" or k.get("name") == "getppid")
count = sum(k["count"] for k in one.get("keys", []))
assert calls >= 5 and (count, one["missed"]) == (1, calls - 1), (calls, count, one["missed"])
PY
assert_clean
pass
