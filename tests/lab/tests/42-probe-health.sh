#!/bin/sh
# A kretprobe's health from the kernel's kprobe_profile, through batch mode: on
# hrtimer_nanosleep, where 8 `sleep 1` run at once. With maxactive=1 only one call can be in
# flight with its return seen: the others are misses, and ktop's summary says so with the way
# out (raise maxactive). With maxactive=64 every sleep returns into an event and nothing misses.
# ktop's hits must be the events it recorded. --json says the same as one object.
T=${TRACEFS:-/sys/kernel/tracing}
out=/tmp/health.out
err=/tmp/health.err
fail() { echo "$1"; grep '^# ' "$out"; grep -c _ret: "$out"; cat "$err"; cat "$T/kprobe_profile"; exit 1; }

# run MAXACTIVE [ARG...]: ktop on hrtimer_nanosleep's return while 8 sleepers overlap; sets kp
run() {
	ma=$1
	shift
	"$KTOP" -b "$@" --kretprobe "naps=hrtimer_nanosleep maxactive=$ma" >"$out" 2>"$err" &
	kp=$!
	i=0
	while [ "$(cat "$T/instances/ktop-$kp/events/ktop_$kp/naps/enable" 2>/dev/null)" != 1 ]; do
		i=$((i + 1))
		[ $i -le 300 ] && kill -0 $kp 2>/dev/null || fail "ktop did not enable its kretprobe"
		sleep 0.1
	done
	grep -q "^r$ma:ktop_$kp/naps hrtimer_nanosleep" "$T/dynamic_events" ||
		fail "no 'r$ma:ktop_$kp/naps' in dynamic_events: $(cat "$T/dynamic_events")"
	pids=
	i=0
	while [ $i -lt 8 ]; do
		sleep 1 &
		pids="$pids $!"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086 # one pid per word
	wait $pids
	sleep 0.5
	kill -INT $kp
	wait $kp
	rc=$?
	[ $rc -eq 0 ] || fail "ktop -b --kretprobe maxactive=$ma exited $rc"
}

# field N of ktop's "# probe ktop_N:naps kretprobe hits=H misses=M maxactive=A[: why]" line
health() {
	grep "^# probe ktop_$kp:naps kretprobe " "$out" | sed "s/.* $1=\([0-9]*\).*/\1/"
}

# return events of the 8 sleepers (by pid: the test's own waits are sleeps too)
mine() {
	n=0
	for p in $pids; do
		n=$((n + $(grep -c " sleep-$p .*ktop_$kp:naps: " "$out")))
	done
	echo $n
}

# measure MAXACTIVE: run, then ktop's line and counts, the events and the sleepers' share
measure() {
	run "$1"
	line=$(grep "^# probe ktop_$kp:naps " "$out")
	hits=$(health hits)
	misses=$(health misses)
	events=$(grep -c "ktop_$kp:naps: " "$out")
	sleeps=$(mine)
	echo "maxactive=$1: $line"
	echo "maxactive=$1: $events returns recorded, $sleeps of them by the 8 sleepers"
	[ -n "$hits" ] && [ -n "$misses" ] || fail "no probe health line in ktop's summary"
	[ "$hits" -eq "$events" ] || fail "hits=$hits but $events return events were recorded"
}

measure 1
[ "$misses" -gt 0 ] || fail "8 sleepers with maxactive=1 and no misses"
[ "$sleeps" -lt 8 ] || fail "all 8 sleeps returned into events with maxactive=1"
case "$line" in
*"maxactive=1: more calls were in flight at once than the kretprobe has instances (maxactive): their returns went unseen; raise maxactive=N (up to 4096)") ;;
*) fail "misses without the explanation: $line" ;;
esac

measure 64
[ "$misses" -eq 0 ] || fail "maxactive=64 and 8 sleepers, yet $misses misses"
[ "$sleeps" -eq 8 ] || fail "8 sleeps, $sleeps returns recorded"
case "$line" in
*": "*) fail "an explanation without misses: $line" ;;
esac

# --json: the same counts as one object before the summary, the reason with the misses
run 1 --json
line=$(grep '^{"probe":' "$out")
echo "maxactive=1 --json: $line"
echo "$line" | grep -q "^{\"probe\":{\"event\":\"ktop_$kp:naps\",\"kind\":\"kretprobe\",\"maxactive\":1,\"hits\":[0-9]*,\"misses\":[1-9][0-9]*,\"miss_reason\":\"more calls were in flight at once than the kretprobe has instances (maxactive): their returns went unseen; raise maxactive=N (up to 4096)\"}}$" ||
	fail "no probe object with misses and their reason in the JSON output"
exit 0
