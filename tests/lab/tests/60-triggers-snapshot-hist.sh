#!/bin/sh
# snapshot and hist triggers (the stock kernel has both; the host's has neither) in ktop's
# instance, through --trigger: exec'ing a marker 5 times aggregates 5 hits under its file
# name in the event's hist file, which ktop -b prints before its summary. A snapshot:1
# trigger on another marker's exec swaps the instance's buffer, with what the reader had not
# read yet (that exec at least), into the instance's snapshot file, which ktop -b prints
# too: every exec is in the stream or in the snapshot, exactly once. The harness checks
# nothing of ktop's is left afterwards.
T=${TRACEFS:-/sys/kernel/tracing}
out=/tmp/trig.out
err=/tmp/trig.err
fail() { echo "$1"; head -20 "$out"; cat "$err"; exit 1; }
avail=$(head -2 "$T/events/sched/sched_process_exec/trigger")
case "$avail" in
*snapshot*hist* | *hist*snapshot*) ;;
*) fail "this kernel lists no snapshot and hist triggers: $avail" ;;
esac
ln -sf /bin/busybox /tmp/lab_hist
ln -sf /bin/busybox /tmp/lab_snap
"$KTOP" -b -e sched:sched_process_exec --filter 'filename ~ "/tmp/lab_*"' \
	--trigger 'sched:sched_process_exec:hist:keys=filename' \
	--trigger 'sched:sched_process_exec:snapshot:1 if filename ~ "*/lab_snap"' \
	>"$out" 2>"$err" &
kp=$!
I="$T/instances/ktop-$kp"
i=0
while ! grep -q '^snapshot:count=1' "$I/events/sched/sched_process_exec/trigger" 2>/dev/null; do
	i=$((i + 1))
	[ $i -le 300 ] && kill -0 $kp 2>/dev/null || fail "ktop did not set its triggers"
	sleep 0.1
done
grep -q '^hist:keys=filename' "$I/events/sched/sched_process_exec/trigger" ||
	fail "no hist trigger in ktop-$kp: $(cat "$I/events/sched/sched_process_exec/trigger")"
i=0
while [ $i -lt 5 ]; do /tmp/lab_hist true 2>/dev/null; i=$((i + 1)); done
/tmp/lab_snap true 2>/dev/null
grep -q '^snapshot:count=0' "$I/events/sched/sched_process_exec/trigger" ||
	fail "the snapshot trigger did not fire: $(cat "$I/events/sched/sched_process_exec/trigger")"
snap=$(grep -c 'sched_process_exec: filename=/tmp/lab_snap ' "$I/snapshot")
[ "$snap" = 1 ] || fail "the snapshot holds $snap execs of /tmp/lab_snap, expected 1: $(grep -v '^#' "$I/snapshot" | head -10)"
sleep 0.5
kill -INT $kp
wait $kp
rc=$?
[ $rc -eq 0 ] || fail "ktop -b --trigger exited $rc"
grep -q '^# ktop: trigger sched:sched_process_exec:hist:keys=filename made:$' "$out" ||
	fail "ktop -b printed no hist trigger section"
line=$(grep -E '\{ filename: +/tmp/lab_hist +\} hitcount: +[0-9]+' "$out")
echo "hist: $line"
count=$(echo "$line" | sed 's/.*hitcount: *//')
[ "$count" = 5 ] || fail "the hist trigger counted '$count' execs of /tmp/lab_hist, expected 5: '$line'"
grep -q '^# ktop: trigger sched:sched_process_exec:snapshot:1 if filename ~ "\*/lab_snap" made:$' "$out" ||
	fail "ktop -b printed no snapshot section"
# the stream's rows, then the snapshot's as ktop printed them (after its section header)
for m in lab_hist lab_snap; do
	rows=$(grep -c "sched:sched_process_exec: filename=/tmp/$m " "$out")
	snapped=$(sed -n '/^# ktop: trigger .*:snapshot:1 .* made:$/,/^# ktop: events=/p' "$out" |
		grep -c "sched_process_exec: filename=/tmp/$m ")
	echo "$m: $rows in the stream, $snapped in the snapshot"
	want=5
	[ $m = lab_snap ] && want=1
	[ $((rows + snapped)) -eq $want ] ||
		fail "$m: $rows rows in the stream and $snapped in the snapshot, expected $want in all"
done
tail -n1 "$out" | grep -q '^# ktop: events=' || fail "the summary is not the last line"
exit 0
