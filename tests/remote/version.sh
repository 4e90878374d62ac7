#!/bin/bash
# The remote protocol's refusals, with no kernel involved (the agent refuses before it opens
# anything): a viewer and an agent of different protocol versions each say so in one line
# naming both versions; a command that is not an agent (a shell's "command not found", a
# silent exit) is named as such; an agent whose stdin stays silent gives up; none of them
# hangs. The refusals name the side to update. With -H, a host's ktop of another package
# version but this protocol is used as it is, one of another protocol gets the viewer's own
# agent (src/remote/push.c), or with --no-push the one-line refusal.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_python
FAKE=$KTOP_SRCDIR/tests/remote/fake_peer.py
version=$("$KTOP" --version | awk '{ print $NF; exit }')

# one_line WHAT RC TEXT: the last run exited RC with one line on stderr holding TEXT.
one_line()
{
	[ "$KTOP_RC" = "$2" ] || fail "$1: exit $KTOP_RC, expected $2; stderr: $(head -c 600 "$T/r.err")"
	[ "$(wc -l <"$T/r.err")" = 1 ] || fail "$1: stderr is not one line: $(head -c 1000 "$T/r.err")"
	grep -qF -- "$3" "$T/r.err" || fail "$1: stderr lacks '$3': $(cat "$T/r.err")"
	log "$1: $(cat "$T/r.err")"
}

# --- a viewer of this version (protocol 2), an agent of protocol 3 -------------------------
run_ktop 30 "$T/r.out" "$T/r.err" -b --via "python3 $FAKE agent" -e syscalls:sys_enter_getppid
one_line "newer agent" 1 "runs ktop 9.9 (remote protocol 3), this is ktop $version (protocol 2): update ktop on this machine, the viewer's"
[ -s "$T/r.out" ] && fail "newer agent: printed on stdout: $(head -c 300 "$T/r.out")"

# --- an agent of this version, a viewer of protocol 3: refused before the kernel is touched -
rm -f "$T/agent.out"
mkfifo "$T/to_agent" "$T/from_agent"
python3 "$FAKE" viewer "$T/agent.out" >"$T/to_agent" <"$T/from_agent" &
CLEANUP_PIDS+=("$!")
"$KTOP" --agent <"$T/to_agent" >"$T/from_agent" 2>"$T/r.err" &
KTOP_PIDS+=("$!")
wait_pid_exit "$!" 30 || fail "the agent did not refuse the newer viewer within 30s"
KTOP_RC=$WAIT_RC
one_line "newer viewer" 2 "ktop --agent: the viewer runs ktop 9.9 (remote protocol 3), this is ktop $version (protocol 2): update ktop on this host, or let the viewer send its own agent (--push)"
wait_pid_exit "${CLEANUP_PIDS[-1]}" 10 || fail "the fake viewer did not see the agent's end"
# what the agent said back: its hello (so the viewer names both versions) and the error
grep -qa "the viewer runs ktop 9.9" "$T/agent.out" || fail "the agent sent no error frame: $(od -c "$T/agent.out" | head -5)"
[ "$(head -c 6 "$T/agent.out" | od -An -tx1 | tr -d ' \n')" = 4b544f500201 ] ||
	fail "the agent's first frame is not a version-2 hello: $(od -An -tx1 "$T/agent.out" | head -2)"

# --- an agent whose stdin stays open and says nothing (started by hand): it gives up -------
mkfifo "$T/silent"
sleep 120 >"$T/silent" &
CLEANUP_PIDS+=("$!")
"$KTOP" --agent <"$T/silent" >"$T/r.out" 2>"$T/r.err" &
KTOP_PIDS+=("$!")
wait_pid_exit "$!" 45 || fail "an agent with a silent stdin still waits after 45 s"
KTOP_RC=$WAIT_RC
one_line "silent viewer" 2 "ktop --agent: no hello from a viewer on stdin within 30 s: ktop --agent is started by ktop -H or --via"
grep -qa "no hello from a viewer" "$T/r.out" ||
	fail "silent viewer: the agent sent no error frame: $(od -c "$T/r.out" | head -3)"

# --- -H: the host's ktop is used when it speaks this protocol, whatever its version --------
# A stand-in ssh on PATH runs "ssh -T HOST CMD" as sh -c CMD, where a stand-in ktop says it
# is ktop $2 of remote protocol $3 and runs a made-up agent of that protocol: a package
# version of its own, the same protocol (fake_peer.py events old: 0.0.9), or the next one
# (fake_peer.py agent). The agent the viewer would push is a made-up one too (KTOP_AGENT).
mkdir -p "$T/bin"
printf '#!/bin/sh\necho "$*" >>%s\nshift 2\nexec sh -c "$*"\n' "$T/ssh.args" >"$T/bin/ssh"
# host_ktop VERSION PROTO AGENT...: the host's ktop
host_ktop()
{
	local v=$1 p=$2
	shift 2
	printf '#!/bin/sh\nif [ "$1" = --version ]; then printf "ktop %s\\nremote protocol %s\\n"; exit 0; fi\nexec %s\n' \
		"$v" "$p" "$*" >"$T/bin/ktop"
	chmod 755 "$T/bin/ssh" "$T/bin/ktop"
}
FAKEFIX="python3 $FAKE events $KTOP_SRCDIR/tests/unit/fixtures/tracing"
printf '#!/bin/sh\nexec %s\n' "$FAKEFIX" >"$T/pushed-agent"
KTOP_ENV=(PATH="$T/bin:$PATH" KTOP_AGENT="$T/pushed-agent")
host_ktop 0.0.9 2 "$FAKEFIX old"
run_ktop 30 "$T/h.out" "$T/h.err" -b -H oldhost -e raw_syscalls:sys_enter --duration 0.5
[ "$KTOP_RC" = 0 ] || fail "same protocol, ktop 0.0.9 on the host: exit $KTOP_RC; stderr: $(cat "$T/h.err")"
[ "$(cat "$T/ssh.args")" = "-T oldhost sh" ] || fail "-H ran ssh $(cat "$T/ssh.args")"
[ -s "$T/h.err" ] && fail "same protocol: the host's ktop 0.0.9 was not used: $(cat "$T/h.err")"
grep -q '^# ktop: agent at fakehost ' "$T/h.out" && grep -q '^# ktop: events=[1-9]' "$T/h.out" ||
	fail "same protocol: no events from the agent: $(tail -n 3 "$T/h.out")"
log "same protocol, another version: the host's ktop 0.0.9 answered"
# another protocol on the host: the viewer sends its own agent
host_ktop 9.9 3 "python3 $FAKE agent"
rm -f "$T/ssh.args"
run_ktop 30 "$T/h.out" "$T/h.err" -b -H newhost -e raw_syscalls:sys_enter --duration 0.5
[ "$KTOP_RC" = 0 ] || fail "another protocol on the host: exit $KTOP_RC; stderr: $(cat "$T/h.err")"
# gzip'd on the wire: both ends (this machine) have gzip, and it is smaller
[ "$(cat "$T/h.err")" = "ktop: newhost: no ktop of remote protocol 2 there: sent the agent ($(stat -c %s "$T/pushed-agent") bytes) as $(gzip -9nc "$T/pushed-agent" | wc -c) bytes of gzip, running from memory" ] ||
	fail "another protocol on the host: not pushed: $(cat "$T/h.err")"
grep -q '^# ktop: agent at fakehost ' "$T/h.out" && grep -q '^# ktop: events=[1-9]' "$T/h.out" ||
	fail "pushed: no events from the agent: $(tail -n 3 "$T/h.out")"
log "another protocol: $(cat "$T/h.err")"
# --no-push: the host's own, refused in one line naming the side to update
run_ktop 30 "$T/r.out" "$T/r.err" -b -H newhost --no-push -e raw_syscalls:sys_enter
one_line "--no-push, newer host" 1 "ssh newhost ktop --agent runs ktop 9.9 (remote protocol 3), this is ktop $version (protocol 2): update ktop on this machine, the viewer's"
KTOP_ENV=()

# --- not an agent at all ------------------------------------------------------------------
run_ktop 30 "$T/r.out" "$T/r.err" -b --via "echo 'bash: line 1: ktop: command not found'; sleep 5" \
	-e syscalls:sys_enter_getppid
one_line "shell noise" 1 "not a ktop agent's frame: the stream starts with \"bash: line 1: ktop: command not found\" (is ktop --agent installed and on the remote PATH?)"
run_ktop 30 "$T/r.out" "$T/r.err" -b --via "exit 0" -e syscalls:sys_enter_getppid
one_line "silent exit" 1 "exit 0 exited before its hello"

# --- the explorer (no -b): the same lines before the screen is taken
run_ktop 30 "$T/r.out" "$T/r.err" --via "exit 0"
one_line "explorer, silent exit" 1 "exit 0 exited before its hello"
pass
