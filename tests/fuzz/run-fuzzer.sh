# shellcheck shell=bash
# run_fuzzer FUZZER SEEDS SECS [ARG...]: runs the libFuzzer target FUZZER for SECS seconds
# from the seed directory SEEDS (its finds go to a corpus of the test's own, in $T); further
# arguments go to libFuzzer: options (-timeout=, -dict=...) or more seed directories.
# FUZZ_KEEP: the target's seed directory in the source tree (tests/fuzz/corpus/NAME). Fails
# the test on a crash, a sanitizer report, a leak, an out-of-memory or a timeout, and when it
# did not run to its time limit. Sourced after lib.sh by tests/fuzz/fuzz_*.sh; the sanitizer
# options are the caller's (ASAN_OPTIONS=... run_fuzzer ...).
#
# Every failing input is kept whole where a later run does not remove it: in the build tree,
# tests/fuzz/artifacts/NAME/ beside the fuzzer (NAME: the fuzzer's file name), and printed
# whole in base64 in the log with the command that replays it, so that CI's printed log
# alone reproduces the failure. A timeout's input is replayed once, only to tell in the log
# whether it hangs by itself (a bug, to fix and keep as a seed) or runs in a moment (the
# machine or its clock stalled during that run); the test fails either way. And every input
# that failed the test is kept as a seed, by itself, in FUZZ_KEEP (named by its hash: the
# same input once), so that the next run, and git once the bug is fixed, have it: the log
# says where. Inputs that crashed only a child the target survived stay in the build tree.

FUZZ_REPLAY_SECS=${FUZZ_REPLAY_SECS:-20}

run_fuzzer()
{
	local fuzzer=$1 seeds=$2 secs=$3 name art rc a n=0 opts=() dirs=()
	shift 3
	# libFuzzer writes its finds into the first directory named: the test's own corpus,
	# never a seed directory of the source tree.
	for a in "$@"; do
		case $a in -*) opts+=("$a") ;; *) dirs+=("$a") ;; esac
	done
	name=$(basename "$fuzzer")
	art=$(cd "$(dirname "$fuzzer")" && pwd)/artifacts/$name
	mkdir -p "$art" "$T/corpus-$name" || fail "cannot make $art"
	touch "$T/$name.start"
	"$fuzzer" -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$art/" \
		"${opts[@]}" "$T/corpus-$name" "$seeds" "${dirs[@]}" >"$T/$name.log" 2>&1
	rc=$?
	tail -n 15 "$T/$name.log" >&2
	grep -m1 -A 30 -E '==ERROR|Direct leak|runtime error' "$T/$name.log" >&2
	while IFS= read -r a; do
		n=$((n + 1))
		# a child's crash that the target survived is the containment working: kept in
		# the build tree only, so a passing run leaves the source tree as it found it
		[ "$rc" != 0 ] || continue
		_fuzz_keep "$a"
		log "input kept in $a ($(stat -c %s "$a") bytes); to replay it:"
		echo "base64 -d >input <<'EOF' && $fuzzer input" >&2
		base64 -w 120 "$a" >&2
		echo EOF >&2
		case $(basename "$a") in timeout-*) _fuzz_replay "$fuzzer" "$a" ;; esac
	done < <(find "$art" -type f -newer "$T/$name.start" | sort)
	[ "$rc" = 0 ] || fail "$name: the fuzzer failed (exit $rc); $n input(s) kept in $art"
	# a target that forks (recording.c reads each file in a child first): a child that
	# crashes runs the fuzzer's handlers and leaves an input behind, the target survives
	[ "$n" = 0 ] || log "$n input(s) crashed a child process the target survived, kept in $art"
	grep -q 'Done [0-9]* runs' "$T/$name.log" || fail "$name: the fuzzer did not run to its time limit"
}

# _fuzz_keep INPUT: a copy of the failing input in the source tree's seeds (FUZZ_KEEP).
_fuzz_keep()
{
	local keep=${FUZZ_KEEP:?run_fuzzer needs FUZZ_KEEP: the seed directory in the source tree}
	case $(basename "$1") in slow-unit-*) return ;; esac
	if cp "$1" "$keep/" 2>/dev/null; then
		log "kept as a seed: $keep/$(basename "$1") (commit it with the fix)"
	else
		log "could not keep $(basename "$1") in $keep (a read-only source tree?): it is in $1"
	fi
}

# _fuzz_replay FUZZER INPUT: says how long the input takes on its own.
_fuzz_replay()
{
	local ms
	timeout -k 10 "$FUZZ_REPLAY_SECS" "$1" "$2" >"$T/replay.log" 2>&1
	ms=$(sed -n 's/^Executed .* in \([0-9]*\) ms$/\1/p' "$T/replay.log")
	if [ -n "$ms" ]; then
		log "replayed alone, it ran in $ms ms: not a hang of its own (the machine or its clock stalled?)"
	else
		log "replayed alone, it did not finish in $FUZZ_REPLAY_SECS s: a hang; $(tail -n 3 "$T/replay.log")"
	fi
}
