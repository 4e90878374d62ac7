#!/bin/bash
# BPF histograms of a USDT probe (issue 16), through batch mode, against
# tests/helpers/usdt_target (ktop_test:hit fired N times with (i * 7 - 3, 1000000000000 + i,
# "ktop-usdt-<i>"), guarded by its semaphore):
#  - valued by arg2 and keyed by arg3:string: N keys ktop-usdt-0..N-1, each one hit whose
#    sum, min and max are exactly 1000000000000 + i;
#  - hits only, keyed by pid: N hits of the target's pid;
#  - the target's guard was open N times (libbpf's attach counted the semaphore up), and
#    the programs are gone after ktop;
#  - refusals in one line: an unknown probe, an argument the probe does not have.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_usdt_target
N=29

rm -f "$T/go"
"$TGT" "$N" "$T/go" >"$T/target.out" &
tgt=$!
CLEANUP_PIDS+=("$tgt")
wait_until 10 has_line "$T/target.out" || fail "usdt target printed no pid"
start_ktop "$T/hist.out" "$T/hist.err" -b -v --log "$T/ktop.log" \
	--hist "usdt:$TGT:ktop_test:hit.arg2,by=arg3:string,pid=$tgt" \
	--hist "usdt:$TGT:ktop_test:hit,by=pid,pid=$tgt"
pid=$KTOP_PID
wait_attached "$T/ktop.log" 2
mapfile -t PROGS < <(prog_ids "$pid")
touch "$T/go"
wait_pid_exit "$tgt" 10 || fail "usdt target did not finish"
[ "$(sed -n 2p "$T/target.out")" = "guard $N semaphore 1" ] ||
	fail "the target's guard: '$(sed -n 2p "$T/target.out")', expected 'guard $N semaphore 1'"
stop_ktop "$pid" INT 10
[ "$KTOP_RC" = 0 ] || fail "ktop exited $KTOP_RC: $(head -c 400 "$T/hist.err")"
out=$T/hist.out
grep -q "^# hist usdt:$TGT:ktop_test:hit.arg2,by=arg3:string,pid=$tgt: by=arg3 unit=value scale=log2 via=usdt keys=$N missed=0\$" "$out" ||
	fail "no header of the valued histogram: $(grep '^# hist' "$out")"
for ((i = 0; i < N; i++)); do
	v=$((1000000000000 + i))
	hist_key_line "$out" "ktop-usdt-$i" | grep -q "^key ktop-usdt-$i count=1 sum=$v avg=$v min=$v .* max=$v\$" ||
		fail "key ktop-usdt-$i: '$(hist_key_line "$out" "ktop-usdt-$i")', expected one hit of $v"
done
grep -q "^# hist usdt:$TGT:ktop_test:hit,by=pid,pid=$tgt: by=pid unit=value scale=log2 via=usdt keys=1 missed=0\$" "$out" ||
	fail "no header of the hits histogram: $(grep '^# hist' "$out")"
hist_key_line "$out" "pid $tgt" | grep -q "^key pid $tgt count=$N sum=0 " ||
	fail "key pid $tgt: '$(hist_key_line "$out" "pid $tgt")', expected $N hits"
assert_progs_gone "${PROGS[@]}"
assert_clean
log "usdt histograms: $N keys by a string argument with exact values, $N hits by pid"

# refusals: one line each
run_ktop 20 "$T/miss.out" "$T/miss.err" -b --duration 0.2 --hist "usdt:$TGT:ktop_test:miss"
[ "$KTOP_RC" = 1 ] || fail "an unknown probe: exit $KTOP_RC"
[ "$(cat "$T/miss.err")" = "ktop: usdt:$TGT:ktop_test:miss: no USDT probe 'ktop_test:miss' in $TGT (ktop --list-usdt $TGT lists its 1)" ] ||
	fail "an unknown probe: $(cat "$T/miss.err")"
run_ktop 20 "$T/arg.out" "$T/arg.err" -b --duration 0.2 --hist "usdt:$TGT:ktop_test:hit.arg4"
[ "$KTOP_RC" = 1 ] || fail "a missing argument: exit $KTOP_RC"
[ "$(cat "$T/arg.err")" = "ktop: usdt:$TGT:ktop_test:hit.arg4: ktop_test:hit has 3 arguments; there is no arg4" ] ||
	fail "a missing argument: $(cat "$T/arg.err")"
assert_clean
pass
