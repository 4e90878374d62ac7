#!/bin/sh
# The guest's side of tests/lab/remote-push.sh. The guest has no ktop and no library
# (run-vm.sh's LAB_NO_KTOP=1: busybox and the lab's scripts alone) and offers a busybox shell
# on its second serial port, ttyS1, as a console would: the line as the kernel sets it up
# (cooked, echo on), the shell interactive (a banner, a prompt, its line editor's echo), its
# stderr on the line too. The host's viewer runs `ktop -b --via 'socat - UNIX-CONNECT:SOCKET'
# --push`: its script makes the line raw and takes the static agent, which runs from a
# memfd. A workload here reads its stdin exactly N times once the agent's instance traces
# those reads (its filter set, the event on); the viewer must count N of N.
# Then nothing of the agent may be left: no process, no file in any writable place (the
# initramfs root with /run, /tmp and /dev: names, types, modes, sizes, a file's time and
# checksum); the harness's kernel-clean.sh checks the kernel after.
N=200000
T=/sys/kernel/tracing
fail() { echo "LAB-PUSH-FAIL $*"; exit 1; }
if [ -e /bin/ktop ] || command -v ktop >/dev/null 2>&1; then fail "the guest has a ktop"; fi
libs=$(find / -xdev \( -name '*.so' -o -name '*.so.*' -o -name 'ld-linux*' \))
[ -z "$libs" ] || fail "the guest has shared libraries: $libs"

# snapshot: the writable places' entries; a directory's and a device's time is left out (a
# directory's changes with what comes and goes in it, a tty's with its traffic).
snapshot()
{
	names=$(find / /tmp /dev -xdev | sort)
	echo "$names" | xargs stat -c '%n %F %a'
	echo "$names" | while read -r f; do
		[ -f "$f" ] && [ ! -L "$f" ] && echo "$(stat -c '%s %Y' "$f") $(md5sum "$f")"
	done
}
before=$(snapshot)

# the workload: once the agent's instance traces reads with a filter, dd's N reads of fd 0
# (if=/dev/zero moved onto it), one byte each; the wait itself reads no fd 0
traced()
{
	for e in "$T"/instances/ktop-*/events/syscalls/sys_enter_read; do
		[ "$(cat "$e/enable" 2>/dev/null)" = 1 ] && grep -q common_pid "$e/filter" && return 0
	done
	return 1
}
(until traced; do sleep 0.1; done; exec dd if=/dev/zero of=/dev/null bs=1 count=$N) &
wl=$!
echo "LAB-PUSH-READY $wl $N uptime $(cut -d' ' -f1 /proc/uptime)"
sh </dev/ttyS1 >/dev/ttyS1 2>&1
rc=$?
echo "LAB-PUSH-EXIT $rc uptime $(cut -d' ' -f1 /proc/uptime)"
# the bytes the line carried: rx from the host (the agent, then requests), tx to it
grep '^1:' /proc/tty/driver/serial
kill "$wl" 2>/dev/null && fail "the workload was still waiting: the agent never traced it"
wait "$wl"
[ "$rc" = 0 ] || fail "the shell (then the agent) on ttyS1 exited $rc"

for p in /proc/[0-9]*; do
	case $(readlink "$p/exe" 2>/dev/null) in
	*memfd:* | *ktop*) fail "left running: ${p#/proc/} $(readlink "$p/exe") $(tr '\0' ' ' <"$p/cmdline")" ;;
	esac
done
after=$(snapshot)
if [ "$before" != "$after" ]; then
	echo "$before" >/tmp/.before
	echo "$after" | diff /tmp/.before - | head -n 20
	fail "the guest's files changed"
fi
echo "LAB-PUSH-CLEAN no process, no file of the agent left"
