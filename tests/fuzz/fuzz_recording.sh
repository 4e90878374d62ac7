#!/bin/bash
# Fuzzes the recording reader (tests/fuzz/fuzz_recording.c: ktop's structure check, then
# libtracecmd, the paged store and the decoder) for a bounded time, KTOP_FUZZ_SECS (default
# 30), under ASan and UBSan, starting from a deterministic recording, its truncations and its
# version 7 forms.
# Any crash, sanitizer report or hang fails the test; the input is kept whole in the build
# tree, as a seed in tests/fuzz/corpus/recording, and printed whole in the log
# (run-fuzzer.sh).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=run-fuzzer.sh
. "$(dirname "$0")/run-fuzzer.sh"
FUZZER=${KTOP_FUZZER:-$(dirname "$KTOP")/tests/fuzz/fuzz_recording}
MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
[ -x "$FUZZER" ] || skip "no fuzzer at $FUZZER (configure found no clang with -fsanitize=fuzzer)"
[ -x "$MK" ] || skip "no $MK (make check builds it)"
SECS=${KTOP_FUZZ_SECS:-30}

mkdir -p "$T/seeds"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/seeds/good.dat" 300 2 ||
	fail "mkrecording failed"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/seeds/one.dat" 3 1 ||
	fail "mkrecording failed"
for n in 12 300 600 2000 4200; do
	head -c "$n" "$T/seeds/good.dat" >"$T/seeds/cut$n.dat"
done
# Version 7, its sections and BUFFER option, plain (whose pages ktop checks on disk) and
# zstd-compressed (unpacked by libtracecmd): the same recording through trace-cmd convert.
command -v trace-cmd >/dev/null || fail "no trace-cmd (./dev installs it) to write version 7 seeds"
for z in none zstd; do
	trace-cmd convert -i "$T/seeds/good.dat" -o "$T/seeds/v7-$z.dat" --file-version 7 \
		--compression "$z" >"$T/convert.log" 2>&1 ||
		fail "trace-cmd convert --file-version 7 --compression $z: $(tail -n 3 "$T/convert.log")"
done
# -timeout: one input taking 60 s is a hang. Replaying a corpus of 140 takes 138 ms for the
# median input, 705 ms for the slowest; but on a loaded 2-vCPU machine (load average 12,
# other tests tracing every event, CPU hogs) the slowest of 13160 runs took 3 s where it
# replays in 78 ms: 40 times as long, which is 28 s for the slowest input. With a hang,
# the test still ends within its 180 s (30 s, 60 s, and run-fuzzer.sh's 20 s replay).
# Leaks: libtracecmd 3.1 leaks on some corrupt files it refuses (allocations inside it,
# which only it could free), per input and at exit, so neither libFuzzer nor LeakSanitizer
# at exit looks for them; ktop's own leaks are caught by every other test.
# symbolize=0: libtracecmd first reads each file in a child (recording.c), and a child it
# crashes prints its stack under the fuzzer's handlers; symbolizing that takes seconds
# under load, counted against the parent's input. A failing input is kept and printed
# whole (run-fuzzer.sh), to be replayed with symbols. Inputs that once failed are seeds too
# (tests/fuzz/corpus/recording: a print format dividing by a field that is 0; version 7
# files, plain and zstd, whose second page says it holds 128 MiB, at the top level and in an
# instance's buffer; zstd chunks whose size says 1 GiB, or one page where two are packed).
FUZZ_KEEP=$KTOP_SRCDIR/tests/fuzz/corpus/recording \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:symbolize=0" \
	run_fuzzer "$FUZZER" "$T/seeds" "$SECS" -timeout=60 -rss_limit_mb=2048 -detect_leaks=0 \
	"$KTOP_SRCDIR/tests/fuzz/corpus/recording"
pass
