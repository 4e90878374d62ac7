#!/bin/sh
# lock-contention and offcpu on another kernel's BTF (Debian's 6.1): lock-contention's program
# attaches via tp_btf, raw_tp and tracepoint (the lock tracepoints came in 5.19; one CPU here
# makes little contention, so only the attach is checked: the counts are proven on the host,
# tests/live/bpf_hist_lock.sh), and offcpu, whose typed variants read the task's __state
# through CO-RE to skip a dying task's last switch, attaches each way and still counts the
# guest's 5 sleeps of 200 ms (by next_comm, its default: key sleep, 5 in the buckets from
# 2^27 ns up, or fewer by no more than the header's missed=: nothing lost uncounted).
. /lab/lib.sh
status=0
for via in tp_btf raw_tp tracepoint; do
	rm -f /tmp/lo.log
	"$KTOP" -b -v --log /tmp/lo.log \
		--hist "lock-contention,via=$via" --hist "offcpu,via=$via" >/tmp/lo.out 2>/tmp/lo.err &
	k=$!
	wait_attached /tmp/lo.log 2 $k
	for n in 1 2 3 4 5; do sleep 0.2; done
	sleep 0.3 # the last switch back in lands before the final read
	kill -INT $k
	ktop_ok $k /tmp/lo.err $via || { status=1; continue; }
	grep -q "^# hist lock-contention,via=$via: by=comm unit=ns scale=log2 via=$via " /tmp/lo.out ||
		{ echo "via=$via: no lock-contention histogram attached via $via"; head -3 /tmp/lo.out; status=1; }
	# key sleep's buckets "  [LO, HI) N |...": those from 2^27 ns up
	long=$(awk '/^#/{ off = ($2 == "hist" && $3 ~ /^offcpu/); on = 0 }
		/^key /{ on = off && $2 == "sleep" }
		on && /^  \[/{ lo = substr($1, 2) + 0; if (lo >= 134217728) n += $3 }
		END { print n + 0 }' /tmp/lo.out)
	line=$(sed -n '/^# hist offcpu/,/^# ktop/p' /tmp/lo.out | grep "^key sleep count=" | head -1)
	missed=$(sed -n 's/^# hist offcpu.* missed=\([0-9]*\).*/\1/p' /tmp/lo.out)
	if ! grep -q "^# hist offcpu,via=$via: .* via=$via " /tmp/lo.out ||
		[ "$((long + ${missed:-0}))" -lt 5 ]; then
		echo "via=$via: offcpu counted $long sleeps of 200 ms, expected 5: '$line'"
		grep -A3 '^# hist offcpu' /tmp/lo.out
		status=1
		continue
	fi
	echo "via=$via: lock-contention attached; offcpu: $line"
done
exit $status
