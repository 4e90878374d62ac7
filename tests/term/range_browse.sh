#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# ktop -i FILE --from --to opens the explorer on that window alone (issue 33): a
# deterministic file (tests/helpers/mkrecording: 30,000 switches, 10 µs apart, a 150 ms gap
# every 10,000), the window +0.1..+0.3 (relative to its first event), and trace-cmd report
# of the same file as the oracle:
#   - the stream opens at the window's first event, times counted from the file's start;
#   - End shows the window's last event, not the file's;
#   - the header's event count and duration are the window's.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (apt-get install trace-cmd)"
MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
[ -x "$MK" ] || skip "no $MK (make check builds it)"

ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/m.dat" 30000 2 ||
	fail "mkrecording failed"
trace-cmd report -t "$T/m.dat" >"$T/m.rep" 2>&1 || fail "trace-cmd report: $(head -c 300 "$T/m.rep")"
# the window's rows by trace-cmd: "SECONDS CPU PID" relative to the first event, in µs as the
# stream prints them
awk 'match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+:/) {
	split(substr($0, RSTART, RLENGTH), f, /[][ :]+/); cpu = f[2]; ts = f[3]
	split(ts, p, "."); ns = p[1] * 1000000000 + p[2]
	if (!first) first = ns
	rel = ns - first
	if (rel >= 100000000 && rel <= 300000000)
		printf "%d.%06d %03d\n", rel / 1000000000, (rel % 1000000000) / 1000, cpu
}' "$T/m.rep" >"$T/window"
n=$(wc -l <"$T/window")
[ "$n" -gt 100 ] || fail "trace-cmd's window has $n rows"
read -r first_ts first_cpu <<<"$(head -1 "$T/window")"
read -r last_ts last_cpu <<<"$(tail -1 "$T/window")"

tmux_start 120 30 -- -i "$T/m.dat" --from +0.1 --to +0.3
expect_text "^${first_ts//./\\.} \[$first_cpu\] " 10 \
	"the stream does not open at the window's first event ($first_ts, trace-cmd's)"
tmux_keys End
expect_text "^${last_ts//./\\.} \[$last_cpu\] " 10 \
	"End does not show the window's last event ($last_ts, trace-cmd's)"
dur=$(awk -v a="$first_ts" -v b="$last_ts" 'BEGIN { printf "%.3f", b - a }')
expect_text "RECORDING m.dat .*duration: ${dur//./\\.}s" 5 "the header's duration is not the window's $dur s"
log "-i --from +0.1 --to +0.3: the stream spans trace-cmd's $n rows of the window, $first_ts to $last_ts"
tmux_keys q
pass
