#!/bin/bash
# Fuzzes one parser of user input (tests/fuzz/fuzz_NAME.c, built by tests/fuzz.mk) for a
# bounded time under ASan and UBSan. make check runs it once per tests/fuzz/NAME.dict (the
# target's libFuzzer dictionary: the grammar's words), starting from the seeds in
# tests/fuzz/corpus/NAME: real inputs, and every input that once failed. KTOP_FUZZ_SECS
# (default 20) bounds the run. A crash, a sanitizer report, a leak, a hang (one input over
# 10 s) or a broken promise of the parser (fuzz_parser.h) fails the test; the failing input
# is kept whole in the build tree's tests/fuzz/failed/NAME/ and printed in full, base64.
#   replay:  tests/fuzz/fuzz_NAME FILE
#   longer:  make check TESTS=tests/fuzz/NAME.dict KTOP_FUZZ_SECS=600
set -u
dict=${1:?usage: fuzz_parser.sh tests/fuzz/NAME.dict}
name=$(basename "$dict" .dict)
SECS=${KTOP_FUZZ_SECS:-20}
export KTOP_TEST_TIMEOUT=${KTOP_TEST_TIMEOUT:-$((SECS + 120))}
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
TEST_NAME=fuzz_$name
FUZZER=$(dirname "$KTOP")/tests/fuzz/fuzz_$name
KEEP=$(dirname "$KTOP")/tests/fuzz/failed/$name
SEEDS=$(dirname "$dict")/corpus/$name
[ -x "$FUZZER" ] || skip "no $FUZZER (configure found no clang that links -fsanitize=fuzzer)"
[ -n "$(ls -A "$SEEDS" 2>/dev/null)" ] || fail "no seeds in $SEEDS"

# New finds go to $T/corpus; the seeds in the tree are only read.
mkdir -p "$T/corpus" "$T/failed"
"$FUZZER" -max_total_time="$SECS" -timeout=10 -max_len=4096 -dict="$dict" \
	-print_final_stats=1 -artifact_prefix="$T/failed/" "$T/corpus" "$SEEDS" >"$T/fuzz.log" 2>&1
rc=$?
tail -n 12 "$T/fuzz.log" >&2
if [ "$rc" != 0 ] || [ -n "$(ls -A "$T/failed")" ]; then
	grep -m1 -B 2 -A 40 -E "$SANITIZER_RE|^fuzz: |deadly signal|libFuzzer: " "$T/fuzz.log" >&2
	mkdir -p "$KEEP"
	for a in "$T"/failed/*; do
		[ -f "$a" ] || continue
		cp "$a" "$KEEP/"
		log "failing input, kept as $KEEP/$(basename "$a") ($(wc -c <"$a") bytes), base64:"
		base64 -w 120 "$a" >&2
	done
	fail "the fuzzer found a failing input (exit $rc)"
fi
assert_no_sanitizer "$T/fuzz.log"
runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$T/fuzz.log")
[ -n "$runs" ] || fail "the fuzzer did not run to its time limit"
log "$runs inputs in ${SECS}s, $(find "$T/corpus" -type f | wc -l) new in the corpus"
pass
