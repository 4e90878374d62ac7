#!/bin/sh
# The I/O built-ins' typed variants on another kernel's BTF (CO-RE relocations against
# Debian's 6.1, whose struct request, task_struct and pt_regs are laid out differently from
# the build machine's): bio-latency, bio-size, read-size and write-size each attach via
# tp_btf, raw_tp and tracepoint; read-size and write-size count dd's 50 reads and 50 writes of
# 100 bytes exactly (bucket [64, 128)), by comm, whatever the variant. (Block I/O of known shape is proven on
# the host, on a loop device: tests/live/bpf_hist_io.sh; this guest has no disk.)
. /lab/lib.sh
status=0
for via in tp_btf raw_tp tracepoint; do
	rm -f /tmp/io.log
	"$KTOP" -b -v --log /tmp/io.log --duration 4 \
		--hist "read-size,via=$via" --hist "write-size,via=$via" \
		--hist "bio-latency,by=dev,via=$via" --hist "bio-size,via=$via" >/tmp/io.out 2>/tmp/io.err &
	k=$!
	wait_attached /tmp/io.log 4 $k
	dd if=/dev/zero of=/dev/null bs=100 count=50 2>/dev/null
	ktop_ok $k /tmp/io.err $via || { status=1; continue; }
	n=$(grep -c "^# hist .* via=$via " /tmp/io.out)
	[ "$n" = 4 ] || { grep '^# hist' /tmp/io.out; echo "via=$via: $n of 4 histograms attached so"; status=1; }
	for h in read-size write-size; do
		sed -n "/^# hist $h,via=$via: /,/^# hist /p" /tmp/io.out >/tmp/io.one
		# (dd's own record counts, written at its end, are shorter)
		if ! grep -q '^key dd count=' /tmp/io.one || ! grep -q '^  \[64, 128) 50 ' /tmp/io.one; then
			cat /tmp/io.one
			echo "via=$via: $h did not count dd's 50 calls of 100 bytes"
			status=1
		fi
	done
	echo "via=$via: the four I/O histograms attached; dd's reads and writes exact"
done
exit $status
