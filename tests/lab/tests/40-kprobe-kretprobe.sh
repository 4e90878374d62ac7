#!/bin/sh
# A kprobe and a kretprobe with typed fetchargs, through batch mode: do_sys_openat2's dfd
# ($arg1:s32, AT_FDCWD = -100), the path string it was given (+0($arg2):string) and its
# return value ($retval:s32, the new fd, >= 0) for a known path opened by the guest shell.
known=/tmp/ktop-lab-open-me
echo x >"$known"
out=/tmp/kprobe.out
(sleep 1; i=0; while [ $i -lt 5 ]; do cat "$known" >/dev/null; i=$((i + 1)); done) &
load=$!
"$KTOP" -b --duration 3 \
	--kprobe 'do_sys_openat2 dfd=$arg1:s32 path=+0($arg2):string' \
	--kretprobe 'do_sys_openat2 ret=$retval:s32' >"$out" 2>/tmp/kprobe.err
rc=$?
wait $load
fail() { echo "$1"; grep "$known" "$out" | head -5; head -5 "$out"; cat /tmp/kprobe.err; exit 1; }
[ $rc -eq 0 ] || fail "ktop -b --kprobe/--kretprobe exited $rc"
# "ts [cpu] comm-pid ktop_N:do_sys_openat2: (do_sys_openat2+0x0/0x..) dfd=-100 path=\"...\""
hits=$(grep -c "ktop_[0-9]*:do_sys_openat2: .* dfd=-100 path=\"$known\"" "$out")
echo "kprobe hits on $known: $hits"
[ "$hits" -eq 5 ] || fail "expected 5 kprobe hits with dfd=-100 path=\"$known\""
# each open of the known path returns a file descriptor: the same task's next return event
pids=$(grep "ktop_[0-9]*:do_sys_openat2: .*path=\"$known\"" "$out" |
	sed 's/^[^]]*] *[^ ]*-\([0-9]*\) .*/\1/' | sort -u)
good=0
for p in $pids; do
	r=$(grep -E -- "-$p +ktop_[0-9]+:do_sys_openat2(: .*path=\"$known\"|_ret: )" "$out" |
		grep -A1 "path=\"$known\"" | grep '_ret: ' | sed 's/.* ret=//' | head -1)
	case "$r" in
	'' | -*) fail "open of $known by pid $p returned '$r'" ;;
	*) good=$((good + 1)) ;;
	esac
done
[ "$good" -eq 5 ] || fail "expected 5 tasks with a return value, got $good"
grep -q 'ktop_[0-9]*:do_sys_openat2_ret: .* ret=' "$out" || fail "no kretprobe records"
exit 0
