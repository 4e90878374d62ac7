#!/bin/bash
# Fuzzes the recording reader (tests/fuzz/fuzz_recording.c: ktop's structure check, then
# libtracecmd, the paged store and the decoder) for a bounded time, KTOP_FUZZ_SECS (default
# 30), under ASan and UBSan, starting from a deterministic recording and its truncations.
# Any crash, sanitizer report or hang fails the test; the input is kept in the log.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
FUZZER=${KTOP_FUZZER:-$(dirname "$KTOP")/tests/fuzz/fuzz_recording}
MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
[ -x "$FUZZER" ] || skip "no fuzzer at $FUZZER (configure found no clang with -fsanitize=fuzzer)"
[ -x "$MK" ] || skip "no $MK (make check builds it)"
SECS=${KTOP_FUZZ_SECS:-30}

mkdir -p "$T/seeds" "$T/corpus"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/seeds/good.dat" 300 2 ||
	fail "mkrecording failed"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/seeds/one.dat" 3 1 ||
	fail "mkrecording failed"
for n in 12 300 600 2000 4200; do
	head -c "$n" "$T/seeds/good.dat" >"$T/seeds/cut$n.dat"
done
cd "$T" || fail "cannot enter $T"
# -timeout: one input taking 20 s is a hang; the corpus directory takes new finds.
# Leaks: libtracecmd 3.1 leaks on some corrupt files it refuses (allocations inside it,
# which only it could free), per input and at exit, so neither libFuzzer nor LeakSanitizer
# at exit looks for them; ktop's own leaks are caught by every other test.
# symbolize=0: libtracecmd first reads each file in a child (recording.c), and a child it
# crashes prints its stack under the fuzzer's handlers; symbolizing that takes seconds
# under load, counted against the parent's input. A failing input is kept and printed
# below, to be replayed with symbols.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:symbolize=0" \
	"$FUZZER" -max_total_time="$SECS" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
	-detect_leaks=0 \
	-artifact_prefix="$T/" "$T/corpus" "$T/seeds" >"$T/fuzz.log" 2>&1
rc=$?
tail -n 15 "$T/fuzz.log" >&2
grep -m1 -A 30 -E '==ERROR|Direct leak|runtime error' "$T/fuzz.log" >&2
if [ "$rc" != 0 ]; then
	for a in "$T"/crash-* "$T"/leak-* "$T"/timeout-* "$T"/oom-*; do
		[ -f "$a" ] || continue
		log "input that failed ($a), base64:"
		base64 -w 120 "$a" | head -c 4000 >&2
	done
	fail "the fuzzer found a failing input (exit $rc)"
fi
grep -q 'Done [0-9]* runs' "$T/fuzz.log" || fail "the fuzzer did not run to its time limit"
pass
