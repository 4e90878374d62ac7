#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# A recording's tail before its index (ktop -i, 150x30 tmux pane): a deterministic
# 300,000-event file (tests/helpers/mkrecording), many store chunks, larger than --memory.
# The index is held after its first screen (KTOP_TEST_INDEX_GATE), so what End shows comes
# from the tail read on its own, never from the index:
#   - End shows the file's real last rows (trace-cmd report | tail), while the header still
#     says the file is being read and the row count is marked an estimate ("~");
#   - Page Up from there shows rows that follow each other in trace-cmd's order;
#   - once the index is let through, the same rows stay on screen (their provisional
#     numbers are settled) and the count is exact; Home shows the first rows again;
#   - ktop's peak resident size stays within --memory over what it needs for a tiny file.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_tmux
MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
[ -x "$MK" ] || skip "no $MK (make check builds it)"
command -v trace-cmd >/dev/null || skip "no trace-cmd (Debian package trace-cmd)"
# the sanitizer's quarantine of freed memory would count as ktop's
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:quarantine_size_mb=1"
MEM_MB=8

for n in 1000 300000; do
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/r$n.dat" "$n" 2 ||
		fail "mkrecording failed"
done
[ "$(stat -c %s "$T/r300000.dat")" -gt $((MEM_MB * 2 * 1048576)) ] ||
	fail "the big recording is not larger than --memory"

# "REL-TS [CPU] COMM-PID" per event, as ktop's rows begin (times from the first event).
trace-cmd report "$T/r300000.dat" 2>/dev/null |
	awk '$2 ~ /^\[[0-9]+\]$/ { sub(":", "", $3); if (!n++) base = $3;
		printf "%.6f %s %s\n", $3 - base, $2, $1 }' >"$T/report.txt"
[ "$(wc -l <"$T/report.txt")" = 300000 ] || fail "trace-cmd report did not list 300000 events"
# the same from the screen's stream rows
screen_rows() { tmux_screen | grep -Eo '^ *[0-9]+\.[0-9]{6} \[[0-9]{3}\] +[^ ]+' |
	awk '{ print $1, $2, $3 }'; }
# peak resident size of the ktop in the pane, kB
hwm() { awk '/^VmHWM/ { print $2 }' "/proc/$KTOP_PID/status"; }

# ---- what ktop needs for a tiny recording, browsed the same way ---------------------------
tmux_start 150 30 -- -i "$T/r1000.dat" --memory ${MEM_MB}M
expect_text "^ *0\.000000 \[000\] +task1000-1000 " 10 "the tiny recording shows no first event"
tmux_keys End
expect_text "^ *[0-9.]+ \[001\] +task1049-1049 " 10 "End: not the tiny recording's last event"
base_kb=$(hwm)
tmux_keys q
tmux_wait_exit 10 || fail "ktop did not exit on q"
tmux_kill_server

# ---- the big one, its index held after the first screen ------------------------------------
touch "$T/gate"
tmux_start 150 30 "KTOP_TEST_INDEX_GATE=$T/gate" -- -i "$T/r300000.dat" --memory ${MEM_MB}M
expect_text "^ *0\.000000 \[000\] +task1000-1000 " 10 "the stream does not open at the first event"
expect_text "~[0-9]+ held" 5 "the row count is not marked an estimate while the index runs"

tmux_keys End
last=$(tail -n1 "$T/report.txt")
last_re=$(sed 's/[].[]/\\&/g; s/ / +/g' <<<"$last")
expect_text "^ *$last_re " 10 "End does not show the file's last event ($last)"
screen_rows >"$T/end.txt"
tail -n "$(wc -l <"$T/end.txt")" "$T/report.txt" | diff -u - "$T/end.txt" >&2 ||
	fail "End's rows are not trace-cmd report's last rows"
tmux_screen | grep -q "(reading\.\.\.)" ||
	fail "the index was through before End: the tail was not read on its own"
expect_text "~[0-9]+ held" 1 "the row count is not marked an estimate before the index is through"

# ---- back through the tail -------------------------------------------------------------------
for _ in 1 2 3 4 5 6; do tmux_keys PPage; done
wait_for_no_text "^ *$last_re " 5 || fail "Page Up did not leave the last screen"
sleep 0.3
screen_rows >"$T/up.txt"
[ "$(wc -l <"$T/up.txt")" -ge 20 ] || fail "Page Up shows $(wc -l <"$T/up.txt") rows"
grep -n -x -F -f <(head -n1 "$T/up.txt") "$T/report.txt" >"$T/at" || fail "row not in the report"
at=$(cut -d: -f1 "$T/at")
tail -n +"$at" "$T/report.txt" | head -n "$(wc -l <"$T/up.txt")" | diff -u - "$T/up.txt" >&2 ||
	fail "the rows above the tail do not follow each other as in trace-cmd report"

# ---- the index let through: the same rows, exact numbers --------------------------------------
rm -f "$T/gate"
expect_text " [0-9]+ held" 60 "the row count is still an estimate after the index"
wait_for_no_text "\(reading\.\.\.\)" 60 || fail "the index did not finish"
sleep 0.3
screen_rows | diff -u "$T/up.txt" - >&2 || fail "the rows moved when the index settled them"
tmux_keys End
expect_text "^ *$last_re " 10 "End after the index does not show the last event"
tmux_keys Home
expect_text "^ *0\.000000 \[000\] +task1000-1000 " 10 "Home after End does not show the first event"
screen_rows >"$T/home.txt"
head -n "$(wc -l <"$T/home.txt")" "$T/report.txt" | diff -u - "$T/home.txt" >&2 ||
	fail "Home's rows are not trace-cmd report's first rows"

# ---- memory -------------------------------------------------------------------------------
big_kb=$(hwm)
log "peak resident: tiny recording ${base_kb} kB, big one ${big_kb} kB, --memory ${MEM_MB}M"
# slack: the file pages libtracecmd maps between two releases (every 65536 records)
[ "$big_kb" -le $((base_kb + MEM_MB * 1024 + 6144)) ] ||
	fail "peak resident size ${big_kb} kB: more than --memory ${MEM_MB}M over the tiny file's ${base_kb} kB"

tmux_keys q
tmux_wait_exit 10 || fail "ktop did not exit on q"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
assert_terminal_restored
assert_no_sanitizer_on_screen
pass
