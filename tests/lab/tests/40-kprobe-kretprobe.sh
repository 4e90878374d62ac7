#!/bin/sh
# A kprobe and a kretprobe with typed fetchargs, through batch mode: do_sys_openat2's dfd
# ($arg1:s32, AT_FDCWD = -100), the path string it was given (+0($arg2):string) and its
# return value ($retval:s32, the new fd, >= 0) for a known path the guest shell opens 5 times.
T=${TRACEFS:-/sys/kernel/tracing}
known=/tmp/ktop-lab-open-me
echo x >"$known"
out=/tmp/kprobe.out
err=/tmp/kprobe.err
fail() { echo "$1"; grep "$known" "$out" | head -5; head -5 "$out"; cat "$err"; exit 1; }
"$KTOP" -b --kprobe 'do_sys_openat2 dfd=$arg1:s32 path=+0($arg2):string' \
	--kretprobe 'do_sys_openat2 ret=$retval:s32' >"$out" 2>"$err" &
kp=$!
i=0
while [ "$(cat "$T/instances/ktop-$kp/events/ktop_$kp/do_sys_openat2_ret/enable" 2>/dev/null)" != 1 ]; do
	i=$((i + 1))
	[ $i -le 300 ] && kill -0 $kp 2>/dev/null || fail "ktop did not enable its probes"
	sleep 0.1
done
grep -q "^p:ktop_$kp/do_sys_openat2 do_sys_openat2 " "$T/dynamic_events" ||
	fail "no kprobe ktop_$kp/do_sys_openat2 in dynamic_events"
i=0
while [ $i -lt 5 ]; do cat "$known" >/dev/null; i=$((i + 1)); done
sleep 0.5
kill -INT $kp
wait $kp
rc=$?
[ $rc -eq 0 ] || fail "ktop -b --kprobe/--kretprobe exited $rc"
# "ts [cpu] comm-pid ktop_N:do_sys_openat2: (do_sys_openat2+0x0/0x..) dfd=-100 path=\"...\""
hits=$(grep -c "ktop_$kp:do_sys_openat2: .* dfd=-100 path=\"$known\"" "$out")
echo "kprobe hits on $known: $hits"
[ "$hits" -eq 5 ] || fail "expected 5 kprobe hits with dfd=-100 path=\"$known\""
# each open of the known path returned a file descriptor: its task's next record is the return
pids=$(grep "ktop_$kp:do_sys_openat2: .*path=\"$known\"" "$out" |
	sed 's/^[^]]*] *[^ ]*-\([0-9]*\) .*/\1/' | sort -u)
good=0
for p in $pids; do
	r=$(grep -E -- "-$p +ktop_$kp:do_sys_openat2(: |_ret: )" "$out" |
		grep -A1 "path=\"$known\"" | grep '_ret: ' | sed 's/.* ret=//' | head -1)
	case "$r" in
	'' | -*) fail "open of $known by pid $p returned '$r'" ;;
	*) good=$((good + 1)) ;;
	esac
done
[ "$good" -eq 5 ] || fail "expected 5 tasks with a return value, got $good"
exit 0
