#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The agent that ships itself (issue 35), into the kernel lab's guest: Debian's stock kernel
# under qemu with busybox alone (run-vm.sh's LAB_NO_KTOP=1: no ktop, no shared library, no
# loader), whose second serial port, ttyS1, carries an interactive busybox shell on a line as
# the kernel sets it up (tests/lab/remote-shell.sh). qemu puts the port on a socket, and
# this machine's viewer runs
#   ktop -b --via 'socat - UNIX-CONNECT:SOCKET' --push --compress -e syscalls:sys_enter_read
#        --filter 'common_pid == WL && fd == 0' --max-events N
# so it writes that shell its script (which makes the line raw), checks the guest's machine
# and kernel (x86_64 and the lab's kernel, not this machine's), sends its static agent
# (stripped, as the package installs it) gzip'd through the line (the guest's busybox
# unpacks it: the 8250 carries ~5-8 kB/s into a guest under TCG) and lets it run from a
# memfd. The guest's workload reads its stdin exactly
# N times (dd bs=1) once the agent traces it: the viewer must print N of N, none lost. Then
# the guest test finds no process and no file of the agent left, and the harness's
# kernel-clean.sh no ktop-* instance, no ktop_* dynamic event, the tracer nop.
# Logs the figures: the push's bytes and time over the line, the capture's time.
# Environment: as run-vm.sh's.
set -u
export KTOP_TEST_TIMEOUT=${KTOP_TEST_TIMEOUT:-1800}
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
agent=$(dirname "$KTOP")/ktop-agent
[ -x "$agent" ] || skip "no ktop-agent beside $KTOP (configure found no static libtracefs, libbpf, ...)"
if ! command -v socat >/dev/null 2>&1; then
	[ "$(id -u)" = 0 ] || skip "no socat, and not root to install it"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends socat \
		>"$T/apt.log" 2>&1 || fail "apt-get install socat failed: $(tail -n 3 "$T/apt.log")"
fi

builddir=${LAB_BUILDDIR:-$(cd "$(dirname "$KTOP")" && pwd)}
work=$builddir/tests/lab/push-run
console=$work/lab-console.log
sock=$T/shell.sock
mkdir -p "$work" || fail "cannot make $work"
rm -f "$console" "$work/qemu.pid"

t0=$(date +%s.%N)
secs() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
LAB_SRCDIR=$KTOP_SRCDIR LAB_BUILDDIR=$builddir LAB_WORKDIR=$work LAB_ONLY_EXTRA=1 LAB_NO_KTOP=1 \
	LAB_EXTRA_TEST=$here/remote-shell.sh \
	LAB_TEST_TIMEOUT=1200 LAB_TIMEOUT=1500 LAB_SERIAL1="unix:$sock,server=on,wait=off" \
	LAB_QEMU_ARGS="-pidfile $work/qemu.pid" \
	bash "$here/run-vm.sh" >"$work/run-vm.out" 2>&1 &
vm=$!
_shell_or_end() { grep -q '^LAB-PUSH-READY' "$console" 2>/dev/null || ! pid_alive "$vm"; }
# a kernel to fetch the first time: minutes
wait_until 1200 _shell_or_end || fail "no shell in the guest after 1200 s: $(tail -n 5 "$work/run-vm.out")"
if ! grep -q '^LAB-PUSH-READY' "$console" 2>/dev/null; then
	wait "$vm"
	rc=$?
	[ $rc = 77 ] && skip "$(sed -n 's/^lab: skip: //p' "$work/run-vm.out")"
	grep -q '^lab: error: ' "$work/run-vm.out" &&
		fail "$(sed -n 's/^lab: error: //p' "$work/run-vm.out" | head -n 1)"
	fail "run-vm.sh exited $rc before the guest's shell started: $(tail -n 30 "$work/run-vm.out")"
fi
qemu=$(cat "$work/qemu.pid" 2>/dev/null)
[ -n "$qemu" ] || fail "no qemu pid file"
CLEANUP_PIDS+=("$qemu" "$vm") # qemu first: run-vm.sh then ends
kver=$(sed -n 's/^LAB-BOOTED \([^ ]*\) .*/\1/p' "$console" | tr -d '\r')
read -r wl n < <(sed -n 's/^LAB-PUSH-READY \([0-9]*\) \([0-9]*\) .*/\1 \2/p' "$console")
[ "$kver" != "$(uname -r)" ] || fail "the guest runs this machine's kernel ($kver): the check of another kernel is not made"
log "guest $kver (this machine: $(uname -r)), no ktop, shell on ttyS1, workload pid $wl, $(secs "$t0") s after run-vm.sh"

# the agent as the package installs it (stripped); the viewer gzips it for the wire, as the
# guest's busybox has gzip
strip -o "$T/ktop-agent" "$agent" || fail "strip $agent failed"
KTOP_ENV=(KTOP_AGENT="$T/ktop-agent")
t1=$(date +%s.%N)
start_ktop "$T/x.out" "$T/x.err" -b --via "socat - UNIX-CONNECT:$sock" --push --compress \
	-e syscalls:sys_enter_read --filter "common_pid == $wl && fd == 0" --max-events "$n"
kpid=$KTOP_PID
_sent() { grep -q 'sent the agent' "$T/x.err" || ! pid_alive "$kpid"; }
wait_until 900 _sent || fail "the agent was not sent in 900 s: $(head -c 500 "$T/x.err")"
size=$(stat -c %s "$T/ktop-agent")
grep -q "^ktop: socat - UNIX-CONNECT:$sock: --push: sent the agent ($size bytes) as [0-9]* bytes of gzip, running from memory$" "$T/x.err" ||
	fail "the viewer did not send the agent gzip'd: $(head -c 1000 "$T/x.err")"
wire=$(grep -o 'as [0-9]* bytes of gzip' "$T/x.err" | grep -o '[0-9]*')
push_s=$(secs "$t1")
log "sent the agent: $size bytes as $wire bytes of gzip through the serial line in $push_s s ($(awk -v b="$wire" -v s="$push_s" 'BEGIN { printf "%.1f", b / s / 1000 }') kB/s, load $(cut -d' ' -f1 /proc/loadavg))"
t2=$(date +%s.%N)
wait_pid_exit "$kpid" 900 || fail "the viewer still runs 900 s after the push: $(tail -c 500 "$T/x.err")"
[ "$WAIT_RC" = 0 ] || fail "the viewer exited $WAIT_RC: $(head -c 1000 "$T/x.err")"
s=$(tail -n1 "$T/x.out")
[[ $s =~ ^#\ ktop:\ events=([0-9]+)\ lost=([0-9]+)\  ]] || fail "no summary line: '$s'"
{ [ "${BASH_REMATCH[1]}" = "$n" ] && [ "${BASH_REMATCH[2]}" = 0 ]; } ||
	fail "events=${BASH_REMATCH[1]} lost=${BASH_REMATCH[2]}, the workload read exactly $n times"
rows=$(grep -cE "^.* dd-$wl .*syscalls:sys_enter_read: fd: 0x0+, buf: 0x[0-9a-f]+, count: 0x0*1$" "$T/x.out")
[ "$rows" = "$n" ] || fail "$rows rows of dd-$wl's reads of fd 0, expected $n: $(grep -m3 sys_enter_read "$T/x.out")"
grep -q "^# ktop: agent at .* $kver" "$T/x.out" || fail "no agent line naming the guest's kernel: $(grep '^#' "$T/x.out" | head -n 5)"
log "$rows of $n reads arrived, none lost, $(secs "$t2") s after the push"

_ended() { grep -q '^LAB-PUSH-EXIT' "$console"; }
wait_until 120 _ended || fail "the guest's shell did not end after the viewer: $(tail -n 5 "$console")"
wait_pid_exit "$vm" 600 || fail "run-vm.sh did not end"
grep -E '^ *1: uart' "$console" | tr -d '\r' | sed 's/^/  guest ttyS1: /' >&2
[ "$WAIT_RC" = 0 ] || fail "the guest was not left clean or the lab failed (run-vm.sh exit $WAIT_RC): $(grep -A25 '^LAB-PUSH-EXIT' "$console" | tr -d '\r'; tail -n 8 "$work/run-vm.out")"
grep -q '^LAB-PUSH-CLEAN' "$console" || fail "the guest test did not check itself clean: $(grep '^LAB-' "$console")"
grep -q '^LAB-RESULT zz-extra-remote-shell PASS' "$console" ||
	fail "the guest test did not pass: $(grep '^LAB-' "$console")"
log "guest clean: no process or file of the agent, no ktop-* instance, no ktop_* dynamic event, tracer nop"
pass
