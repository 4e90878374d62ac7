#!/bin/sh
# syscall-latency's variants on another kernel's BTF (Debian's 6.1): each attaches via tp_btf
# (with its sched_switch hook, which moves a call's start from its CPU's slot to the thread),
# raw_tp and tracepoint, and counts a dd of 50 reads of /dev/zero exactly, in the dd's pid
# alone (it waits for a file, then execs dd).
. /lab/lib.sh
status=0
for via in tp_btf raw_tp tracepoint; do
	rm -f /tmp/sl.log /tmp/sl.go
	sh -c 'while [ ! -e /tmp/sl.go ]; do usleep 10000; done
		exec dd if=/dev/zero of=/dev/null bs=100 count=50 2>/dev/null' &
	dd=$!
	"$KTOP" -b -v --log /tmp/sl.log --duration 4 \
		--hist "syscall-latency,pid=$dd,via=$via" >/tmp/sl.out 2>/tmp/sl.err &
	k=$!
	wait_attached /tmp/sl.log 1 $k
	touch /tmp/sl.go
	wait $dd
	ktop_ok $k /tmp/sl.err $via || { status=1; continue; }
	if ! grep -q "^# hist syscall-latency,pid=$dd,via=$via: .* via=$via " /tmp/sl.out ||
		! grep -q '^key read count=50 ' /tmp/sl.out; then
		cat /tmp/sl.out
		echo "via=$via: not attached so, or dd's 50 reads not counted exactly"
		status=1
		continue
	fi
	echo "via=$via: attached; dd's 50 reads counted exactly"
done
exit $status
