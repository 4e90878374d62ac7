#!/bin/sh
# The CPU profiles on the stock kernel (the host kernel's own are tests/live/profile_*.sh and
# offcpu_sleep.sh). On-CPU: while dd copies /dev/zero to /dev/null, ktop -b --profile
# --folded samples for 2 s; the event on stderr is cycles when the guest has a PMU
# (/sys/bus/event_source/devices/cpu) and cpu-clock when not (qemu's TCG has none), dd's
# kernel stacks run from do_syscall_64 through vfs_read, and every kernel frame of them is a
# name of the guest's /proc/kallsyms, not an address. Off-CPU: ktop -b --off-cpu --comm sleep
# over 5 sleeps of 200 ms gives 1 s (+-5 %) under do_nanosleep, attached by the first BPF
# variant the guest's kernel (with BTF) takes. The harness checks nothing of ktop's is left.
out=/tmp/prof.out
err=/tmp/prof.err
fail() { echo "$1"; head -20 "$out"; cat "$err"; exit 1; }

# --- on-CPU -----------------------------------------------------------------------------
dd if=/dev/zero of=/dev/null bs=64k 2>/dev/null &
dd=$!
"$KTOP" -b --profile -F 99 --duration 2 --folded >"$out" 2>"$err"
rc=$?
kill $dd
wait $dd 2>/dev/null
[ $rc -eq 0 ] || fail "ktop -b --profile exited $rc"
counts=$(grep '^ktop: profile: ' "$err")
pmu="no /sys/bus/event_source/devices/cpu"
[ -e /sys/bus/event_source/devices/cpu ] && pmu="/sys/bus/event_source/devices/cpu"
echo "$pmu; $counts"
[ -s "$out" ] || fail "no folded stacks"
grep -Ev ' [0-9]+$' "$out" && fail "a line that is not a folded stack (above)"
want=cpu-clock
[ -e /sys/bus/event_source/devices/cpu ] && want=cycles
case $counts in
"ktop: profile: event=$want freq=99Hz "*) ;;
*) fail "expected event=$want at 99 Hz on stderr ($pmu)" ;;
esac
# dd's kernel frames, from do_syscall_64 to the leaf, one per line, then its samples
# through vfs_read
awk '/^dd;/ { sub(/ [0-9]+$/, ""); n = split($0, f, ";"); k = 0
		for (i = 2; i <= n; i++) { if (f[i] == "do_syscall_64") k = 1; if (k) print f[i] } }' \
	"$out" | sort -u >/tmp/prof.kframes
read_n=$(awk '/^dd;/ && /;do_syscall_64;/ && /;vfs_read;/ { s += $NF } END { print s + 0 }' "$out")
dd_n=$(awk '/^dd;/ { s += $NF } END { print s + 0 }' "$out")
echo "dd: $dd_n samples, $read_n through do_syscall_64 and vfs_read; top stacks:"
awk '{ print $NF, $0 }' "$out" | sort -rn | head -5 | cut -d' ' -f2- | cut -c1-300
[ "$read_n" -gt 0 ] || fail "no dd stack through do_syscall_64 and vfs_read"
# each kernel frame is a text symbol of the guest's kallsyms
missing=$(awk 'FNR == NR { want[$1] = 1; next }
	($2 == "T" || $2 == "t") && ($3 in want) { delete want[$3] }
	END { for (w in want) print w }' /tmp/prof.kframes /proc/kallsyms)
[ -z "$missing" ] || fail "dd's kernel frames not named from /proc/kallsyms: $missing"
echo "dd's $(wc -l </tmp/prof.kframes) kernel frames are all in /proc/kallsyms"

# --- off-CPU ------------------------------------------------------------------------------
# The waits here are usleep, not sleep: only the 5 sleeps are tasks named sleep.
"$KTOP" -b -v --log /tmp/oc.log --off-cpu --comm sleep --folded >"$out" 2>"$err" &
k=$!
i=0
while ! grep -q 'attached via' /tmp/oc.log 2>/dev/null; do
	i=$((i + 1))
	[ $i -le 100 ] && kill -0 $k 2>/dev/null || fail "ktop --off-cpu did not attach"
	usleep 100000
done
for _ in 1 2 3 4 5; do sleep 0.2; done
usleep 300000 # the last switch back in lands before the final read
kill -INT $k
wait $k
rc=$?
[ $rc -eq 0 ] || fail "ktop -b --off-cpu exited $rc"
grep '^ktop: off-cpu: ' "$err" | cut -c1-200
grep -m1 'attached via' /tmp/oc.log
ns=$(awk '/^sleep;/ && /;do_nanosleep(;| )/ { s += $NF } END { printf "%d\n", s }' "$out")
echo "5 sleeps of 200 ms: $ns ns off the CPU under do_nanosleep:"
grep ';do_nanosleep' "$out" | cut -c1-300
[ "$ns" -ge 950000000 ] && [ "$ns" -le 1050000000 ] ||
	fail "expected 1 s +-5 % under do_nanosleep"
exit 0
