# shellcheck shell=bash
# Helpers for the terminal tests on a made recording, sourced after lib.sh: no root needed.

# mkrec FILE N: FILE, a recording of N sched_switch records on 2 CPUs, the i-th of pid
# 1000 + i % 50 named task<pid> (tests/helpers/mkrecording); skips without the helper.
mkrec()
{
	local mk=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}

	[ -x "$mk" ] || skip "no $mk (make check builds it)"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$mk" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$1" "$2" 2 ||
		fail "mkrecording failed"
}

# mkrec_times FILE: a line a row, oldest first, "task-pid time" as the stream shows the time
# (from the first record on), read from `trace-cmd report` of FILE.
mkrec_times()
{
	command -v trace-cmd >/dev/null || skip "needs trace-cmd"
	trace-cmd report "$1" 2>/dev/null | awk '$3 ~ /^[0-9.]+:$/ {
		t = substr($3, 1, length($3) - 1); if (!n++) t0 = t; printf "%s %.6f\n", $1, t - t0 }'
}
