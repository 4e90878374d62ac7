#!/bin/sh
# Function latency through ktop's own BPF loader, on a kernel that has kprobes and fentry:
# a histogram of vfs_read while dd reads in a loop, once via fentry/fexit and once via
# kprobe/kretprobe. Each must say how it attached and count at least one whole dd run
# (1000 reads).
(while :; do dd if=/dev/zero of=/dev/null bs=512 count=1000 2>/dev/null; done) &
load=$!
status=0
for via in fentry kprobe; do
	"$KTOP" -b --hist "func:vfs_read,by=comm,via=$via" --duration 2 >/tmp/fl.out 2>/tmp/fl.err
	rc=$?
	head -n 4 /tmp/fl.out
	if [ $rc -ne 0 ]; then
		cat /tmp/fl.err
		echo "ktop --hist func:vfs_read,via=$via exited $rc"
		status=1
		continue
	fi
	grep -q "^# hist func:vfs_read,by=comm,via=$via: .* via=$via " /tmp/fl.out ||
		{ echo "not attached via $via"; status=1; }
	count=$(sed -n 's/^key dd count=\([0-9]*\) .*/\1/p' /tmp/fl.out)
	if [ "${count:-0}" -lt 1000 ]; then
		cat /tmp/fl.out
		echo "via $via: dd's vfs_read count ${count:-none}, expected at least 1000"
		status=1
	fi
done
kill $load
wait $load 2>/dev/null
exit $status
