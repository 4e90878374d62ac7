#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# The call-tree pane on a real function_graph recording from the kernel lab
# (tests/fixtures/lab/normal.dat), checked against the kernel's own text of the same events
# (normal.trace):
#   - T opens the pane; on a kernel without function_graph it says so, why, and how to
#     record elsewhere; r reads the recording; a file that is no trace.dat is refused in one
#     line and the pane keeps what it showed;
#   - one folded row per vfs_read, with the kernel's durations (in ms/us, with its marks);
#   - Enter unfolds (tree lines, the callees), h (Left) folds, E unfolds all, C folds all;
#   - L jumps to the longest child and names it with its duration, as the kernel's text
#     has it; Enter then unfolds that child, u goes back to the caller;
#   - v shows the merged graph and the self-time report; q quits.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_tmux
require_python

FIX=$KTOP_SRCDIR/tests/fixtures/lab
DAT=$FIX/normal.dat
[ -r "$DAT" ] || fail "$DAT missing"

# The kernel's text: the roots' durations, and the first root's longest callee.
read -r -d '' KERNEL_TEXT <<'PY'
import re, sys
roots, kids, stack = [], [], []
for line in open(sys.argv[1]):
    if line.startswith('#') or line.count('|') < 3:
        continue
    cols = line.rstrip('\n').split('|')
    dur, call = cols[-2], cols[-1]
    m = re.search(r'([0-9.]+) us', dur)
    us = float(m.group(1)) if m else None
    depth = (len(call) - len(call.lstrip(' ')) - 2) // 2
    text = call.strip()
    if text.endswith('{'):
        stack.append((depth, text[:-4]))
    elif text.startswith('}'):
        d, name = stack.pop()
        if d == 0:
            roots.append(us)
        elif d == 1 and len(roots) == 0:
            kids.append((us, name))
    elif text.endswith('();'):
        if depth == 0:
            roots.append(us)
        elif depth == 1 and len(roots) == 0:
            kids.append((us, text[:-3]))
def fmt(us):
    ns = us * 1000
    if ns < 1e6:
        return '%.3f us' % us
    return '%.3f ms' % (us / 1000) if ns < 1e9 else '%.3f s' % (us / 1e6)
print(len(roots))
print(fmt(roots[0]))
best = max(kids)
print(best[1])
print(fmt(best[0]))
PY
mapfile -t K < <(python3 -c "$KERNEL_TEXT" "$FIX/normal.trace") || fail "cannot read normal.trace"
nroots=${K[0]} root_dur=${K[1]} longest=${K[2]} longest_dur=${K[3]}
log "kernel text: $nroots vfs_read calls, the first $root_dur, its longest callee $longest ($longest_dur)"

mkdir -p "$T/xdg"
tmux_start 130 45 "XDG_CONFIG_HOME=$T/xdg" -- -d 5
expect_text "Events: all CPUs" 10 "ktop did not start"
tmux_keys T
expect_text "Call tree" 3 "T opened no call-tree pane"
tmux_keys z # the pane alone, so its rows start at the left edge
if ! grep -qw function_graph "$TRACEFS/available_tracers"; then
	expect_text "no function_graph tracer" 3 "the pane does not say this kernel lacks function_graph"
	expect_text "ktop -i trace.dat" 3 "the pane does not offer the recording path"
fi

# A file that is no trace.dat: one line, nothing lost.
tmux_keys r
expect_text "Open trace.dat:" 3 "r opened no prompt"
tmux_text "$FIX/README.md"
tmux_keys Enter
expect_text "open: .*README.md: not a trace.dat file" 3 "a bad file was not refused in one line"
_screen_has "Call tree " || fail "the pane title changed after a refused file"

tmux_keys r
expect_text "Open trace.dat:" 3 "r opened no prompt"
tmux_text "$DAT"
tmux_keys Enter
expect_text "Call tree: normal.dat +$nroots trees" 5 "the recording's $nroots trees are not shown"
# Folded roots, the first with the kernel's duration.
row1="^. +${root_dur//./\\.} +[0-9]+ .*vfs_read\(\) +pid [0-9]+ cpu 0"
expect_text "$row1" 3 "the first vfs_read does not show the kernel's $root_dur"
expect_count 'vfs_read\(\) *pid' "$nroots" 3 "not one folded row per vfs_read ($nroots)"

# Enter unfolds: the callees appear with tree lines; h (Left) folds again.
tmux_keys Enter
expect_text "(├─|\|-|└─|\`-) *[^ ]* ?rw_verify_area\(\)" 3 "Enter did not unfold the first call"
tmux_keys h
wait_for_no_text "rw_verify_area\(\)" 3 || fail "h did not fold the call"
# E unfolds everything (the deepest calls show), C folds everything.
tmux_keys E
expect_text "(│ |[|] |  ){2}(├─|└─|[|]-|\`-)" 3 "E did not unfold all (no call three levels down)"
tmux_keys C
wait_for_no_text "rw_verify_area\(\)" 3 || fail "C did not fold all"
expect_count 'vfs_read\(\) *pid' "$nroots" 3 "C left other than the roots"

# L: the longest child, named with the kernel's duration; Enter unfolds it; u goes back.
tmux_keys g L
expect_text "longest call in vfs_read\(\): $longest\(\), ${longest_dur//./\\.}" 3 \
	"L did not find $longest ($longest_dur) as the kernel's text has it"
tmux_keys u L
expect_text "longest call in vfs_read\(\): $longest\(\)" 3 "u did not go back to the caller"

# The merged graph and the report.
tmux_keys v
expect_text "Call graph: normal.dat" 3 "v did not switch to the graph view"
expect_text "^. +[0-9.]+ [mu]?s +$nroots +.*vfs_read\(\)" 3 "the graph does not merge the $nroots vfs_read calls"
tmux_keys v
expect_text "Call report: normal.dat" 3 "v did not switch to the report"
expect_text "self +count +total +function" 3 "the report has no self-time columns"

tmux_keys q
tmux_wait_exit 10 || fail "q did not quit"
[ "$PANE_RC" = 0 ] || fail "ktop exited $PANE_RC"
assert_terminal_restored
assert_no_sanitizer_on_screen
assert_clean
pass
