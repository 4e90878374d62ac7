#!/bin/bash
# What an agent's command writes to its stderr (ssh's warnings, the agent's own messages),
# with no kernel: a made-up agent (tests/remote/fake_peer.py events ... stderr) writes one
# line after its hello and one before its END.
#   - batch mode with one remote: its lines reach ktop's stderr as they are, nothing else;
#   - escape sequences in them (a hostile agent's: OSC, CSI, C1 controls, a carriage return,
#     a backspace) reach ktop's stderr as '?', as batch text is escaped (src/util/textout.c), with
#     one remote and with several;
#   - with several: each line carries its host's label, and only its own host's; agents that
#     flood their stderr past a pipe's capacity are read while the viewer waits for them,
#     and as they end;
#   - the explorer that cannot start (the command exits before its hello): the command's
#     messages, then ktop's one line saying why, in that order (the explorer reads the
#     command's stderr through a pipe, so it must hand it on before it gives up).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_fake_agent

# --- one remote: passed through ---------------------------------------------------------------
run_ktop 30 "$T/r.out" "$T/r.err" -b --via "$FAKE stderr" -e raw_syscalls:sys_enter --duration 0.5
[ "$KTOP_RC" = 0 ] || fail "one remote: exit $KTOP_RC; stderr: $(cat "$T/r.err")"
printf 'fake agent: warming up\nfake agent: done\n' | diff -u - "$T/r.err" ||
	fail "one remote: the agent's stderr differs (above)"
[ "$(grep -c '^[0-9.]* \[00[01]\]' "$T/r.out")" = 4 ] || fail "one remote: not 4 events: $(cat "$T/r.out")"

# --- escape sequences: every byte the explorer would not draw is a '?' ------------------------
esc='fake agent: ?]0;owned?title ?[2Jclear ?31mred ??1m c1?? end'
run_ktop 30 "$T/x.out" "$T/x.err" -b --via "$FAKE escapes" -e raw_syscalls:sys_enter --duration 0.5
[ "$KTOP_RC" = 0 ] || fail "escapes: exit $KTOP_RC; stderr: $(od -c "$T/x.err" | head)"
printf '%s\n' "$esc" | cmp -s - "$T/x.err" || fail "escapes: ktop's stderr is not '$esc': $(od -c "$T/x.err" | head)"
run_ktop 30 "$T/x.out" "$T/x.err" -b --via "$FAKE 0 0" --via "$FAKE 0 0 escapes" \
	-e raw_syscalls:sys_enter --duration 0.5
[ "$KTOP_RC" = 0 ] || fail "escapes, several: exit $KTOP_RC; stderr: $(od -c "$T/x.err" | head)"
printf 'via2: %s\n' "$esc" | cmp -s - "$T/x.err" ||
	fail "escapes, several: ktop's stderr is not 'via2: $esc': $(od -c "$T/x.err" | head)"

# --- several: each line with its host's label -------------------------------------------------
run_ktop 30 "$T/m.out" "$T/m.err" -b --via "$FAKE 0 0" --via "$FAKE 0 0 stderr" \
	-e raw_syscalls:sys_enter --duration 1
[ "$KTOP_RC" = 0 ] || fail "several: exit $KTOP_RC; stderr: $(cat "$T/m.err")"
printf 'via2: fake agent: warming up\nvia2: fake agent: done\n' | diff -u - "$T/m.err" ||
	fail "several: the agents' stderr differs (above)"
grep -q '^# ktop: events=6 ' "$T/m.out" || fail "several: totals: $(tail -n1 "$T/m.out")"

# --- several that flood their stderr past a pipe's 64 KiB: read while waiting for them --------
# Each writes 100 KB to its stderr after its hello and answers nothing until that is read: a
# viewer that waited on the agents' output alone would wait for a pong that never comes.
run_ktop 60 "$T/f.out" "$T/f.err" -b --via "$FAKE 0 0 flood" --via "$FAKE 0 0 flood" \
	-e raw_syscalls:sys_enter --duration 0.5
[ "$KTOP_RC" = 0 ] || fail "flood: exit $KTOP_RC; stderr: $(grep -v 'noise' "$T/f.err")"
[ "$(grep -c '^via[12]: fake agent: noise ' "$T/f.err")" = 2000 ] ||
	fail "flood: $(grep -c 'noise' "$T/f.err") lines of the agents' stderr handed on, not 2000"
grep -q '^# ktop: events=6 ' "$T/f.out" || fail "flood: totals: $(tail -n1 "$T/f.out")"

# --- one that floods its stderr as it ends: read while ktop waits for it to exit -------------
run_ktop 60 "$T/z.out" "$T/z.err" -b --via "$FAKE 0 0" --via "$FAKE 0 0 floodend" \
	-e raw_syscalls:sys_enter --duration 0.5
[ "$KTOP_RC" = 0 ] || fail "floodend: exit $KTOP_RC; stderr: $(grep -v 'last words' "$T/z.err")"
[ "$(grep -c '^via2: fake agent: last words ' "$T/z.err")" = 5000 ] ||
	fail "floodend: $(grep -c 'last words' "$T/z.err") of the 5000 lines it wrote as it ended handed on"

# --- the explorer that cannot start: the command's words, then why -----------------------------
run_ktop 30 "$T/e.out" "$T/e.err" --via "echo 'ssh: connect to host db-9 port 22: No route to host' >&2; exit 255"
[ "$KTOP_RC" = 1 ] || fail "explorer: exit $KTOP_RC; stderr: $(cat "$T/e.err")"
printf '%s\n' "ssh: connect to host db-9 port 22: No route to host" \
	"ktop: echo 'ssh: connect to host db-9 port 22: No route to host' >&2; exit 255 exited before its hello (its messages are above)" |
	diff -u - "$T/e.err" || fail "explorer: stderr differs (above)"
pass
