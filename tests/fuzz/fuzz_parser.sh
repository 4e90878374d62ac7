#!/bin/bash
# Fuzzes one parser of user input (tests/fuzz/fuzz_NAME.c, built by tests/fuzz.mk) for a
# bounded time under ASan and UBSan. make check runs it once per tests/fuzz/NAME.dict (the
# target's libFuzzer dictionary: the grammar's words), starting from the seeds in
# tests/fuzz/corpus/NAME: real inputs, and every input that once failed. KTOP_FUZZ_SECS
# (default 20) bounds the run. A crash, a sanitizer report, a leak, a hang (one input over
# 10 s) or a broken promise of the parser (fuzz_parser.h) fails the test; the failing input
# is kept whole in the build tree's tests/fuzz/artifacts/fuzz_NAME/, as a seed in
# tests/fuzz/corpus/NAME of the source tree, and printed in full, base64
# (tests/fuzz/run-fuzzer.sh, shared with the recording reader's target).
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
SEEDS=$(dirname "$dict")/corpus/$name
[ -x "$FUZZER" ] || skip "no $FUZZER (configure found no clang that links -fsanitize=fuzzer)"
[ -n "$(ls -A "$SEEDS" 2>/dev/null)" ] || fail "no seeds in $SEEDS"

# shellcheck source-path=SCRIPTDIR source=run-fuzzer.sh
. "$(dirname "$0")/run-fuzzer.sh"
FUZZ_KEEP=$SEEDS run_fuzzer "$FUZZER" "$SEEDS" "$SECS" -timeout=10 -max_len=4096 -dict="$dict"
assert_no_sanitizer "$T/fuzz_$name.log"
log "$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$T/fuzz_$name.log") inputs in ${SECS}s," \
	"$(find "$T/corpus-fuzz_$name" -type f | wc -l) new in the corpus"
pass
