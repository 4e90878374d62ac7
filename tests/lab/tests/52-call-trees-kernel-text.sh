#!/bin/sh
# ktop's live function_graph trees against the kernel's own text of the same events, call by
# call: function, depth, caller, duration and its mark, exactly as the kernel prints them.
#
# How both see the same events: ktop (-b -t function_graph -g vfs_read --top-level --tree)
# traces at the top level and consumes its ring buffer. Once it is tracing and idle it is
# stopped (SIGSTOP, all its threads), dd runs its reads, and the kernel's `trace` file, which
# reads the buffer without consuming it, gives the kernel's text of everything ktop has not
# read yet (read with the kernel's pause-on-trace option, so that reading adds nothing): all
# of dd's calls, since dd ran only while ktop was stopped. Then ktop continues,
# consumes those very records and prints its trees. dd's calls must be the same list both
# ways; other tasks' calls (ktop read part of them before the stop) are not compared.
# The comparison is then run on two altered copies of ktop's output (one duration digit, one
# call's depth) and must fail on each: it can tell.
T=${TRACEFS:-/sys/kernel/tracing}
W=/tmp/cktext
mkdir -p $W

# The kernel's text and ktop's, read the same way: /lab/calltext.awk (tests/lab/calltext.awk)
# writes FILE.calls.PID for each task.

# same KTOP_TEXT: dd's calls in ktop's text equal the kernel's, line by line.
same()
{
	rm -f "$1".calls.*
	awk -f /lab/calltext.awk "$1" || return 1
	[ -s "$1.calls.$dd" ] || { echo "ktop's text has no calls of dd ($dd)"; return 1; }
	awk 'NR == FNR { k[FNR] = $0; nk = FNR; next }
		{ if ($0 != k[FNR]) { printf "call %d: kernel \"%s\", ktop \"%s\"\n", FNR, k[FNR], $0
			bad = 1; exit 1 } }
		END { if (!bad && FNR != nk) { printf "kernel %d calls, ktop %d\n", nk, FNR; exit 1 } }' \
		"$kcalls" "$1.calls.$dd"
}

# One capture and its comparison: 0 same, 1 different, 2 an interrupt hit dd (try again).
capture()
{
	"$KTOP" -b -t function_graph -g vfs_read --top-level --duration 30 --tree \
		>$W/ktop.txt 2>$W/ktop.err &
	k=$!
	i=0
	until [ "$(cat $T/current_tracer)" = function_graph ] && grep -q vfs_read $T/set_graph_function; do
		i=$((i + 1))
		if [ $i -gt 300 ] || ! kill -0 $k 2>/dev/null; then
			cat $W/ktop.err
			echo "ktop never traced with function_graph at the top level"
			kill $k
			return 1
		fi
		sleep 0.1
	done

	pause=$(cat $T/options/pause-on-trace)
	# One command, parsed before it runs: the shell reads no more of this script meanwhile.
	window()
	{
		sleep 1 # ktop's reader has taken what came before (it sweeps every 100 ms)
		kill -STOP $k
		dd if=/dev/zero of=/dev/null bs=512 count=20 2>/dev/null &
		dd=$!
		wait $dd
		# Reading `trace` is itself a vfs_read, traced: without pause-on-trace (off on this
		# kernel) the reader would chase its own events for ever. The one tracefs write of the
		# test, a reading option, put back at once.
		echo 1 >$T/options/pause-on-trace
		dd if=$T/trace of=$W/kernel.txt bs=64k 2>/dev/null
		echo "$pause" >$T/options/pause-on-trace
		kill -CONT $k
		kill -INT $k
	}
	window
	wait $k
	rc=$?
	if [ $rc -ne 0 ]; then
		cat $W/ktop.err
		echo "ktop --tree exited $rc"
		return 1
	fi

	rm -f $W/kernel.txt.calls.*
	awk -f /lab/calltext.awk $W/kernel.txt
	kcalls=$W/kernel.txt.calls.$dd
	[ -s "$kcalls" ] || kcalls=$W/kernel.txt.calls.?
	if [ ! -s "$kcalls" ]; then
		head -n 20 $W/kernel.txt
		echo "the kernel's text has no calls of dd ($dd)"
		return 1
	fi
	roots=$(grep -c '^0 vfs_read ' "$kcalls")
	echo "kernel text: $(wc -l <"$kcalls") calls of dd-$dd, $roots vfs_read trees;" \
		"other tasks: $(ls $W/kernel.txt.calls.* | grep -vc "calls.$dd\$")"
	if [ "$roots" -lt 20 ]; then
		cat "$kcalls"
		echo "expected dd's 20 reads in the kernel's text"
		return 1
	fi
	if ! same $W/ktop.txt >$W/same.why; then
		cat $W/same.why
		# An interrupt inside dd's reads. One taken as the kernel entered a call is read
		# above as ktop builds it (the irqentry fixture proves the builder on one), but
		# when it came before the kernel took the call's calltime the call does not hold
		# it, and ktop leaves its calls callerless: the text cannot show which. Such a
		# capture is retried, at most three times; one without an interrupt must match.
		if grep -Eq '^[0-9]+ [^ ]*(irq|sysvec|softirq)' "$kcalls"; then
			echo "an interrupt landed in dd's calls: capturing again"
			return 2
		fi
		grep -- "-$dd " $W/ktop.txt | head -n 40
		echo "ktop's trees differ from the kernel's text"
		return 1
	fi
}

tries=0
while :; do
	tries=$((tries + 1))
	capture
	r=$?
	[ $r = 0 ] && break
	[ $r = 2 ] && [ $tries -lt 4 ] && continue
	exit 1
done
echo "ktop: the same $(wc -l <"$kcalls") calls, depths, callers and durations"

# The comparison can fail: one duration digit, then one call's depth, altered in ktop's text.
awk -v dd="-$dd " '!done && index($0, dd) && /[0-9] us/ {
	i = index($0, " us"); d = substr($0, i - 1, 1)
	$0 = substr($0, 1, i - 2) ((d + 1) % 10) substr($0, i); done = 1 } 1' \
	$W/ktop.txt >$W/dur.txt
awk -v dd="-$dd " '!done && index($0, dd) && match($0, / [^ |]+\(\);$/) {
	$0 = substr($0, 1, RSTART) "  " substr($0, RSTART + 1); done = 1 } 1' \
	$W/ktop.txt >$W/depth.txt
for f in dur depth; do
	if same $W/$f.txt >$W/$f.why; then
		echo "the comparison passed ktop's text with one $f altered"
		exit 1
	fi
	echo "altered $f: $(cat $W/$f.why)"
done
exit 0
