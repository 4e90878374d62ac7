#!/bin/sh
# The guest's side of tests/lab/remote-explorer.sh: ktop --agent on the second serial port,
# ttyS1, which qemu connects to a socket the host's viewers reach through socat, twice: for
# the host's batch run (--tree), then for its explorer. The line is raw (no echo, no
# translation, no flow control: the frames are binary) and never closes: each agent ends on
# its viewer's end request (or, a viewer gone without one, on a minute of its silence). Then the harness's kernel-clean.sh checks the guest (no ktop-*
# instance, no ktop_* dynamic event, tracer nop) and reports this test.
stty -F /dev/ttyS1 raw -echo -ixon -ixoff -crtscts clocal || exit 1
# vfs_read calls for the host's kprobe to see (the agent's own threads are left out of what
# it traces; busybox cat would sendfile, dd reads)
(while :; do dd if=/dev/zero of=/dev/null bs=512 count=1 2>/dev/null; sleep 0.5; done) &
load=$!
for viewer in batch explorer; do
	echo "LAB-AGENT-READY $viewer uptime $(cut -d' ' -f1 /proc/uptime)"
	ktop --agent </dev/ttyS1 >/dev/ttyS1 2>>/tmp/agent.err
	rc=$?
	# how it ended: its viewer's end request (no words), or a minute of its silence
	echo "LAB-AGENT-EXIT $viewer $rc uptime $(cut -d' ' -f1 /proc/uptime) $(tail -n 1 /tmp/agent.err 2>/dev/null)"
	[ $rc = 0 ] || break
done
kill $load
# the bytes the line carried: rx from the host, tx to it
grep '^1:' /proc/tty/driver/serial
cat /tmp/agent.err
exit $rc
