#!/bin/bash
# The agent that ships itself (src/remote/push.c, src/agent/agent_main.c), into a bare root that
# has no ktop and no library: busybox-static, /proc and /sys, a tmpfs /tmp, entered with
# --via 'chroot ROOT /bin/sh' --push:
#   - every getppid() of a workload of exactly N calls arrives, nothing lost;
#   - while it runs, the agent is a memfd (/proc/PID/exe) and nothing of it is in the root;
#   - after, the root's files are the same as before, its /tmp empty, the agent and its
#     instance gone;
#   - -H HOST (a stand-in ssh on PATH) sends it by itself, --no-push does not;
#   - a root whose only writable place is noexec, a host of another architecture, and a
#     --via command that is no shell are each refused in one line, the root left the same.
set -u
KTOP_PRIVATE_MOUNTS=${KTOP_PRIVATE_MOUNTS:-1}
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
[ -x "$(dirname "$KTOP")/ktop-agent" ] ||
	skip "no ktop-agent beside $KTOP (configure found no static libtracefs, libbpf, ...)"
busybox=$(dpkg -L busybox-static 2>/dev/null | grep -m1 '/busybox$')
[ -x "$busybox" ] || skip "no busybox-static (apt-get install busybox-static, or ./dev deps)"
[ "$KTOP_PRIVATE_MOUNTS" = inside ] || skip "needs a private mount namespace (unshare -m)"

N=${KTOP_EXACT_N:-200000}
R=$T/root
mkdir -p "$R/bin" "$R/proc" "$R/sys" "$R/tmp" "$R/dev"
cp "$busybox" "$R/bin/busybox"
for c in sh head wc chmod rm uname printf id cat echo; do ln -s busybox "$R/bin/$c"; done
mknod -m 666 "$R/dev/null" c 1 3
mount -t proc proc "$R/proc"
mount --rbind /sys "$R/sys"
mount -t tmpfs -o mode=1777 tmpfs "$R/tmp"

# The root's files (not its mounts): path, size, mode, mtime, content.
snapshot()
{
	(cd "$R" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./tmp \) -prune -o \
		-printf '%p %s %m %T@ %l\n' | sort && find . -xdev -type f -exec md5sum {} + | sort)
}
snapshot >"$T/before"
same_root()
{
	snapshot >"$T/after"
	cmp -s "$T/before" "$T/after" || fail "$1: the root changed: $(diff "$T/before" "$T/after" | head -5)"
	[ -z "$(ls -A "$R/tmp")" ] || fail "$1: left in the root's /tmp: $(ls -A "$R/tmp")"
}

# --- exact: N calls through the pushed agent ---------------------------------------------
workload_start exact count "$N" ktop-push
wl=$(head -n1 "$T/exact.wl")
# exec: the shell, then the agent, keep the viewer's child's pid
start_ktop "$T/x.out" "$T/x.err" -b --via "exec chroot $R /bin/sh" --push \
	-e syscalls:sys_enter_getppid --filter "common_pid == $wl" --max-events "$N"
kpid=$KTOP_PID
wait_until 30 sh -c "pgrep -P $kpid >/dev/null" || fail "the viewer started no command: $(head -c 500 "$T/x.err")"
agent=$(pgrep -P "$kpid" | head -n1)
KTOP_PIDS+=("$agent")
wait_capturing "$agent" syscalls sys_enter_getppid 30
exe=$(readlink "/proc/$agent/exe")
[[ $exe == /memfd:ktop-agent* ]] || fail "the agent runs from '$exe', not from a memfd"
[ -z "$(ls -A "$R/tmp")" ] || fail "while the agent runs, the root's /tmp holds $(ls -A "$R/tmp")"
workload_go exact 60
wait_pid_exit "$kpid" 60 || stop_ktop "$kpid" INT 30
[ "${WAIT_RC:-$KTOP_RC}" = 0 ] || fail "the viewer exited ${WAIT_RC:-$KTOP_RC}: $(head -c 500 "$T/x.err")"
wait_pid_exit "$agent" 5 || fail "the agent outlived its viewer"
instance_gone "$agent" || fail "instance ktop-$agent left after the agent exited"
s=$(tail -n1 "$T/x.out")
[[ $s =~ ^#\ ktop:\ events=([0-9]+)\ lost=([0-9]+)\  ]] || fail "no summary line: '$s'"
{ [ "${BASH_REMATCH[1]}" = "$N" ] && [ "${BASH_REMATCH[2]}" = 0 ]; } ||
	fail "events=${BASH_REMATCH[1]} lost=${BASH_REMATCH[2]}, the workload made exactly $N calls"
rows=$(grep -c "ktop-push-$wl .*syscalls:sys_enter_getppid: $" "$T/x.out")
[ "$rows" = "$N" ] || fail "$rows rows of ktop-push-$wl's getppid, expected $N"
grep -q "sent the agent ([0-9]* bytes)" "$T/x.err" || fail "the viewer did not say it sent the agent: $(cat "$T/x.err")"
same_root "exact"
log "exact: $N of $N through the pushed agent; $(grep -o 'sent the agent ([0-9]* bytes)' "$T/x.err")"

# --- -H: a host without ktop gets the agent by itself, through ssh's own shell ------------
# (a stand-in ssh on PATH: "ssh -T HOST CMD" runs CMD in the root)
mkdir -p "$T/bin"
printf '#!/bin/sh\necho "$*" >%s\nshift 2\nexec chroot %s /bin/sh -c "$*"\n' "$T/ssh.args" "$R" >"$T/bin/ssh"
chmod 755 "$T/bin/ssh"
KTOP_ENV=(PATH="$T/bin:$PATH")
run_ktop 60 "$T/h.out" "$T/h.err" -b -H bare1 -e sched:sched_process_exec --duration 1
[ "$KTOP_RC" = 0 ] || fail "-H bare1: exit $KTOP_RC: $(head -c 500 "$T/h.err")"
[ "$(cat "$T/ssh.args")" = "-T bare1 sh" ] || fail "-H ran ssh $(cat "$T/ssh.args"), not -T bare1 sh"
grep -q "^ktop: bare1: no ktop of remote protocol [0-9]* there: sent the agent" "$T/h.err" || fail "-H bare1: $(cat "$T/h.err")"
grep -q "^# ktop: agent at " "$T/h.out" || fail "-H bare1: no agent line: $(tail -n 3 "$T/h.out")"
same_root "-H"
# --no-push: ssh HOST ktop --agent, as before, which the root cannot run
run_ktop 60 "$T/n.out" "$T/n.err" -b -H bare1 --no-push -e sched:sched_switch --duration 1
{ [ "$KTOP_RC" = 1 ] && grep -q "exited before its hello" "$T/n.err"; } ||
	fail "--no-push: exit $KTOP_RC: $(cat "$T/n.err")"
[ "$(cat "$T/ssh.args")" = "-T bare1 ktop --agent" ] || fail "--no-push ran ssh $(cat "$T/ssh.args")"
KTOP_ENV=()
same_root "--no-push"

# --- refusals, in one line, the root left the same ----------------------------------------
# run_push WHAT TEXT VIA: a refused run, exit 1, its one line naming the cause.
run_push()
{
	run_ktop 60 "$T/r.out" "$T/r.err" -b --via "$3" --push -e sched:sched_switch --duration 1
	[ "$KTOP_RC" = 1 ] || fail "$1: exit $KTOP_RC, expected 1: $(head -c 500 "$T/r.err")"
	grep -qF -- "$2" "$T/r.err" || fail "$1: no '$2' in: $(cat "$T/r.err")"
	[ "$(grep -c '^ktop: ' "$T/r.err")" = 1 ] || fail "$1: not one line: $(cat "$T/r.err")"
	same_root "$1"
	log "$1: $(grep '^ktop: ' "$T/r.err" | cut -c1-120)"
}
mount -o remount,noexec "$R/tmp"
run_push noexec "no writable place that allows exec" "chroot $R /bin/sh"
mount -o remount,exec "$R/tmp"
# Another machine: the push script run where uname says aarch64 (a function: busybox's sh
# prefers its own applets to files on PATH).
cat >"$R/arm.sh" <<'EOS'
uname() { if [ "$1" = -m ]; then echo aarch64; else echo 6.1.0; fi; }
read -r l; eval "$l"
EOS
snapshot >"$T/before"
run_push arch "is aarch64, the agent this ktop sends is built for $(uname -m)" "chroot $R /bin/sh /arm.sh"
run_push "not a shell" "did not answer as a POSIX shell" "echo not-a-shell"
pass
