#!/bin/bash
# Bad folded files: ktop --flame refuses them before the screen starts, with one line naming
# the file, the line and the reason (exit 1; usage errors exit 2); the pane's r refuses them
# with the same line on the status line and keeps the graph it showed.
set -u
# shellcheck source-path=SCRIPTDIR source=flame-lib.sh
. "$(dirname "$0")/flame-lib.sh"
printf 'app;main;a 3\napp;main;b 4\napp;;c 5\n' >bad.folded
printf '# nothing but a comment\n' >empty.folded

# expect_refusal STATUS LINE ARGS...: ktop ARGS exits STATUS with LINE alone on stderr
expect_refusal()
{
	local want_rc=$1 want=$2 rc
	shift 2
	"$KTOP" "$@" </dev/null >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" = "$want_rc" ] || fail "ktop $*: exit $rc, not $want_rc ($(cat "$T/err"))"
	[ "$(cat "$T/err")" = "$want" ] || fail "ktop $*: said '$(cat "$T/err")', not '$want'"
	[ ! -s "$T/out" ] || fail "ktop $*: wrote to stdout: $(cat "$T/out")"
}
expect_refusal 1 "ktop: bad.folded:3: empty frame 2 (two ';' in a row, or one at an end)" \
	--flame bad.folded
expect_refusal 1 "ktop: empty.folded: no stacks (folded stacks are 'frame;frame;... COUNT' lines)" \
	--flame empty.folded
expect_refusal 1 "ktop: missing.folded: No such file or directory" --flame missing.folded
expect_refusal 1 "ktop: bad.folded:3: empty frame 2 (two ';' in a row, or one at an end)" \
	--flame shares.folded --diff-base bad.folded
expect_refusal 2 "ktop: --diff-base is the baseline of --flame FILE, and no --flame was given (see ktop --help)" \
	--diff-base shares.folded

flame_start -- --flame shares.folded
flame_expect_run 5 "0 71 - ▏app                                                                ▏bg" "app is not 900/1050 of the width"
for f in bad.folded empty.folded missing.folded; do
	tmux_keys r
	expect_text "Open folded stacks:" 3 "r opened no prompt"
	tmux_text "$f"
	tmux_keys Enter
	want=$("$KTOP" --flame "$f" 2>&1 </dev/null)
	want=$(printf '%s' "open: ${want#ktop: }" | sed 's/[][().*^$+?{}|\\]/\\&/g')
	expect_text "^$want" 3 "r $f: not the line ktop --flame gives"
	expect_text "Flame graph: shares\\.folded \\(samples\\)" 3 "r $f: the graph shown went"
	flame_expect_run 5 "0 71 - ▏app                                                                ▏bg" "r $f: the graph changed"
	pid_alive "$KTOP_PID" || fail "ktop died on $f"
done
# a good file replaces it
tmux_keys r
tmux_text after.folded
tmux_keys Enter
expect_text "Flame graph: after\\.folded \\(samples\\)" 3 "r after.folded did not open it"
flame_expect_run 7 "0 80 42 ▏[.] grew                                                   ▏[.] shrank" "after.folded's grew is not 75% of the width"
tmux_quit_clean
pass
