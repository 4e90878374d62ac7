#!/bin/bash
# A verifier rejection, from the real kernel through ktop's real loader, in batch mode: with
# KTOP_TEST_BPF_OBJECT=syslat:FILE ktop loads tests/helpers/verifier_reject.bpf.o (syslat's
# programs and maps, each reading a map value without its NULL check) for syscall-latency.
#  - pinned to one variant: exit 1 and exactly one line that names the histogram and the
#    variant, says "verifier", and ends with the verifier's last two lines as the -v log has
#    them in full (the reason, then its statistics line)
#  - every variant refused: one line, each variant with the verifier's reason
#  - without the variable the same histogram loads: what the verifier refuses is the
#    substitute, not the loader
# Nothing is left: no instance, no probe group (the pane test, hist_reject.sh, also checks
# the programs and maps a running ktop holds).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
require_reject_obj
KTOP_ENV=(KTOP_NO_GUARD=1 "KTOP_TEST_BPF_OBJECT=syslat:$KTOP_REJECT_OBJ")

# ---- one variant: the golden line ---------------------------------------------------------------
for via in tp_btf raw_tp tracepoint; do
	run_ktop 20 "$T/$via.out" "$T/$via.err" -b -v --log "$T/$via.klog" \
		--hist "syscall-latency,via=$via" --duration 1
	[ "$KTOP_RC" = 1 ] || fail "via=$via: exit $KTOP_RC, expected 1: $(cat "$T/$via.err")"
	assert_no_sanitizer "$T/$via.err"
	[ "$(wc -l <"$T/$via.err")" = 1 ] || fail "via=$via: not one line: $(cat "$T/$via.err")"
	grep -q -- '-- BEGIN PROG LOAD LOG --' "$T/$via.klog" || fail "via=$via: the -v log has no verifier log"
	mapfile -t last < <(verifier_last_lines "$T/$via.klog")
	[ "${#last[@]}" = 2 ] || fail "via=$via: no verifier lines in the log: $(tail -5 "$T/$via.klog")"
	want="ktop: syscall-latency,via=$via: $via: verifier: ${last[0]} / ${last[1]}"
	[ "$(cat "$T/$via.err")" = "$want" ] || fail "via=$via:
 got:  $(cat "$T/$via.err")
 want: $want"
	# the verifier's own words, not a paraphrase: the unchecked read, then its statistics
	grep -Eq "verifier: R[0-9]+ invalid mem access 'map_value_or_null' / processed [0-9]+ insns" "$T/$via.err" ||
		fail "via=$via: not the verifier's reason: $(cat "$T/$via.err")"
	grep -q ulimit "$T/$via.err" && fail "via=$via: libbpf's ulimit hint reached the user"
done
log "one variant refused: $(cat "$T/tp_btf.err")"

# ---- every variant: one line, each with the verifier's reason ---------------------------------------
run_ktop 30 "$T/all.out" "$T/all.err" -b --hist syscall-latency --duration 1
[ "$KTOP_RC" = 1 ] && [ "$(wc -l <"$T/all.err")" = 1 ] ||
	fail "all variants: exit $KTOP_RC, not one line: $(cat "$T/all.err")"
grep -Eq "^ktop: syscall-latency: tp_btf: verifier: R[0-9]+ invalid mem access .*; raw_tp: verifier: " "$T/all.err" ||
	fail "all variants: each variant's reason not given: $(cat "$T/all.err")"
log "every variant refused, in one line"

# ---- the refusal is the object's, not the loader's: without the substitute it loads ---------------
KTOP_ENV=(KTOP_NO_GUARD=1)
run_ktop 20 "$T/ok.out" "$T/ok.err" -b --hist 'syscall-latency,via=tp_btf' --duration 0.5
[ "$KTOP_RC" = 0 ] && grep -q '^# hist syscall-latency,via=tp_btf: .* via=tp_btf ' "$T/ok.out" ||
	fail "the built-in object did not load: $KTOP_RC $(cat "$T/ok.err")"
assert_clean
pass
