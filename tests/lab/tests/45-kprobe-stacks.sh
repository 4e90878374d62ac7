#!/bin/sh
# Kernel stacks on a kprobe event (the host kernel has no kprobes): --stack on the probe's
# event puts a stacktrace trigger on it in ktop's instance, and each of the 5 opens of a
# known path the guest shell makes is a row followed by its stack, innermost first, from
# the probed function out through the openat syscall to the syscall entry; no stack is a
# row of its own. The harness checks nothing of ktop's is left afterwards.
T=${TRACEFS:-/sys/kernel/tracing}
known=/tmp/ktop-lab-stack-me
echo x >"$known"
out=/tmp/kstack.out
err=/tmp/kstack.err
fail() { echo "$1"; head -30 "$out"; cat "$err"; exit 1; }
"$KTOP" -b --kprobe 'labopen=do_sys_openat2 path=+0($arg2):string' \
	--stack 'ktop_*:labopen' >"$out" 2>"$err" &
kp=$!
i=0
while ! grep -q '^stacktrace:unlimited' "$T/instances/ktop-$kp/events/ktop_$kp/labopen/trigger" \
	2>/dev/null; do
	i=$((i + 1))
	[ $i -le 300 ] && kill -0 $kp 2>/dev/null || fail "ktop did not put a stacktrace trigger on its probe"
	sleep 0.1
done
i=0
while [ $i -lt 5 ]; do cat "$known" >/dev/null; i=$((i + 1)); done
sleep 0.5
kill -INT $kp
wait $kp
rc=$?
[ $rc -eq 0 ] || fail "ktop -b --kprobe --stack exited $rc"
grep -q "ftrace:kernel_stack" "$out" && fail "a stack printed as a row of its own"
# Per row of the known path: "FRAMES INNER OPENAT SYSCALL", from the " => " lines after it.
awk -v ev="ktop_$kp:labopen: " -v path="path=\"$known\"" '
	function flush() { if (n) print frames, inner, openat, sys; n = 0 }
	index($0, ev) {
		flush()
		if (index($0, path)) { n = 1; frames = 0; inner = ""; openat = 0; sys = 0 }
		next
	}
	/^ => / {
		if (!n) next
		frames++
		if (frames == 1) inner = $2
		if ($2 ~ /sys_openat/) openat = 1
		if ($2 ~ /^do_syscall_64\+/) sys = 1
		next
	}
	{ flush() }
	END { flush() }' "$out" >/tmp/kstack.rows
echo "rows of $known with their stacks (frames, innermost, openat, do_syscall_64):"
cat /tmp/kstack.rows
[ "$(wc -l </tmp/kstack.rows)" -eq 5 ] || fail "expected 5 kprobe rows of $known"
bad=$(awk '$1 == 0 || $3 != 1 || $4 != 1' /tmp/kstack.rows | wc -l)
[ "$bad" -eq 0 ] || fail "$bad rows without a stack through sys_openat and do_syscall_64"
exit 0
