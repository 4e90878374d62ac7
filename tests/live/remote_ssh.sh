#!/bin/bash
# ktop -H HOST through a real sshd, started by the test on a local port with a throwaway key
# (openssh-server is in ./dev's PKGS): ssh's own config applies (a wrapper puts -F first in
# PATH, as a user's ~/.ssh/config would), and `ktop` is on the remote PATH (sshd's SetEnv).
#   - every getppid() of a workload of exactly N calls arrives, nothing lost;
#   - the ssh client killed with -9 while the agent holds a probe: the agent exits, and its
#     instance and probe group are gone within 2 s.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$SSHD" ] || skip "no sshd: apt-get install openssh-server (./dev deps)"
if ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null; then
	skip "no ssh client (openssh-client)"
fi

N=${KTOP_EXACT_N:-200000}
S=$T/ssh
mkdir -p "$S" "$T/bin" /run/sshd
ssh-keygen -q -t ed25519 -N '' -f "$S/host_key" || fail "ssh-keygen host key"
ssh-keygen -q -t ed25519 -N '' -f "$S/id" || fail "ssh-keygen client key"
cp "$S/id.pub" "$S/authorized_keys"
ln -s "$KTOP" "$T/bin/ktop"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$S/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $S/host_key
AuthorizedKeysFile $S/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile $S/sshd.pid
SetEnv PATH=$T/bin:/usr/sbin:/usr/bin:/sbin:/bin ASAN_OPTIONS=${ASAN_OPTIONS:-} LSAN_OPTIONS=${LSAN_OPTIONS:-} UBSAN_OPTIONS=${UBSAN_OPTIONS:-}
CONF
cat >"$S/config" <<CONF
Host ktop-test
	HostName 127.0.0.1
	Port $port
	User root
	IdentityFile $S/id
	IdentitiesOnly yes
	BatchMode yes
	StrictHostKeyChecking no
	UserKnownHostsFile /dev/null
	LogLevel ERROR
CONF
printf '#!/bin/sh\nexec %s -F %s "$@"\n' "$(command -v ssh)" "$S/config" >"$T/bin/ssh"
chmod 755 "$T/bin/ssh"
"$SSHD" -D -e -f "$S/sshd_config" 2>"$S/sshd.log" &
sshd=$!
CLEANUP_PIDS+=("$sshd")
_sshd_up() { "$T/bin/ssh" ktop-test true 2>/dev/null; }
wait_until 10 _sshd_up || fail "sshd on port $port does not let the test's key in: $(tail -n5 "$S/sshd.log")"
KTOP_ENV=(PATH="$T/bin:$PATH")

# the agent: a `ktop --agent` below this test's sshd; its pid in agent. Not its guard: a fork
# with the same command line, the agent its parent (the glob lists /proc/10018 before
# /proc/9854, so a guard whose pid has one digit more was taken for the agent)
_is_agent_cmd() { [ "$( { tr '\0' ' ' <"/proc/$1/cmdline"; } 2>/dev/null)" = "ktop --agent " ]; }
_descends() { local p=$1; while [ "$p" -gt 1 ]; do [ "$p" = "$sshd" ] && return 0; p=$(awk '{ print $4 }' "/proc/$p/stat" 2>/dev/null) || return 1; done; return 1; }
_find_agent()
{
	local c p
	for c in /proc/[0-9]*/cmdline; do
		p=${c#/proc/}
		p=${p%/cmdline}
		_is_agent_cmd "$p" && ! _is_agent_cmd "$(awk '{ print $4 }' "/proc/$p/stat" 2>/dev/null)" &&
			_descends "$p" && agent=$p && return 0
	done
	return 1
}

# --- every call over ssh -----------------------------------------------------------------
rm -f "$T/go"
WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" count "$N" ktop-exact >"$T/wl" &
wl=$!
CLEANUP_PIDS+=("$wl")
start_ktop "$T/exact.out" "$T/exact.err" -b -H ktop-test -q \
	-e syscalls:sys_enter_getppid --filter "common_pid == $wl"
kpid=$KTOP_PID
FAIL_SHOW=("$T/exact.err" "$S/sshd.log")
wait_until 30 _find_agent || fail "no agent below sshd: $(head -c 500 "$T/exact.err")"
KTOP_PIDS+=("$agent")
wait_capturing "$agent" syscalls sys_enter_getppid
touch "$T/go"
wait_pid_exit "$wl" 60 || fail "workload count $N did not finish within 60s"
stop_ktop "$kpid" INT 30
[ "$KTOP_RC" = 0 ] || fail "viewer exited $KTOP_RC; stderr: $(head -c 500 "$T/exact.err")"
wait_pid_exit "$agent" 5 || fail "the agent outlived its viewer"
s=$(tail -n1 "$T/exact.out")
[[ $s =~ ^#\ ktop:\ events=([0-9]+)\ lost=0\ lost_marked=0\ lost_unknown_pages=0\  ]] ||
	fail "summary: '$s'"
[ "${BASH_REMATCH[1]}" = "$N" ] || fail "events=${BASH_REMATCH[1]}, the workload made exactly $N calls"
grep -q "^# ktop: agent at $(uname -n) " "$T/exact.out" || fail "no 'agent at $(uname -n)' line: $(cat "$T/exact.out")"
log "ssh: $(tail -n2 "$T/exact.out" | head -n1)"
log "ssh: $s"

# --- the ssh client killed with -9 ---------------------------------------------------------
libc=$(ldd "$KTOP_WORKLOAD_BIN" | awk '/libc\.so/ { print $3; exit }')
start_ktop "$T/kill.out" "$T/kill.err" -b -H ktop-test --uprobe "ktop_atoi=$libc:atoi" \
	-e syscalls:sys_enter_getppid
kpid=$KTOP_PID
FAIL_SHOW=("$T/kill.err" "$S/sshd.log")
agent=
wait_until 30 _find_agent || fail "no agent below sshd: $(head -c 500 "$T/kill.err")"
KTOP_PIDS+=("$agent")
wait_capturing "$agent" syscalls sys_enter_getppid
grep -q "^p:ktop_$agent/ktop_atoi " "$TRACEFS/uprobe_events" || fail "the agent made no probe"
client=$(pgrep -P "$kpid" -x ssh) || fail "no ssh client below the viewer $kpid"
kill -9 "$client"
wait_until 2 all_gone "$agent" ||
	fail "2 s after the ssh client's kill -9: agent alive=$(pid_alive "$agent" && echo yes || echo no), instance=$(instance_exists "$agent" && echo yes || echo no)"
log "kill -9 of ssh: agent $agent gone, its instance and probe group removed within 2 s"
wait_pid_exit "$kpid" 10 || fail "the viewer did not notice its ssh died"
grep -q "agent at" "$T/kill.err" || log "viewer after its ssh died: $(head -c 300 "$T/kill.err")"

assert_clean
pass
