#!/bin/bash
# Batch mode's `# probe` lines for uprobes: the kernel's hit count from uprobe_profile, exact,
# without misses (the kernel counts none for uprobes), as text and as JSON. The target is a
# private copy of tests/helpers/probe_target (the kernel counts a uprobe's hits in every
# process running the file; no other test runs this copy), calling ktop_probe_target a known
# number of times. uprobe_profile names no group: two ktops probing the same function of the
# same file have lines that differ only in their order, and each reports its own count:
#  - ktop A probes it, the target calls it N1 times;
#  - ktop B probes it too, the target calls it N2 times;
#  - B stops while A's probe, listed first, exists: B's uprobe and uretprobe say hits=N2 (in
#    its JSON), not A's count;
#  - the target calls it N3 more times, A stops: hits=N1+N2+N3.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
private_probe_target
N1=11 N2=7 N3=5
probes=(--uprobe "$target:ktop_probe_target" --uretprobe "$target:ktop_probe_target")

calls() { "$target" "$1" >"$T/target.out" || fail "probe_target $1 failed"; }
# finish PID OUT ERR: SIGINT, a clean exit, nothing on stderr, its group gone.
finish()
{
	stop_ktop "$1" INT 10
	[ "$KTOP_RC" = 0 ] || fail "ktop $1 exited $KTOP_RC; stderr: $(head -c 400 "$3")"
	[ -s "$3" ] && fail "ktop $1 wrote to stderr: $(head -c 400 "$3")"
	grep -q "ktop_$1/" "$(_dynevents_file)" && fail "ktop $1 left its probes behind"
}
# has OUT LINE: OUT has exactly the line LINE.
has() { grep -qFx -- "$2" "$1" || fail "no line '$2'; the ktop's lines: $(grep -E '^(# |\{"probe)' "$1")"; }

start_ktop "$T/a.out" "$T/a.err" -b -q "${probes[@]}"
a=$KTOP_PID
wait_capturing "$a" "ktop_$a" ktop_probe_target_ret
calls "$N1"
start_ktop "$T/b.out" "$T/b.err" -b -q --json "${probes[@]}"
b=$KTOP_PID
wait_capturing "$b" "ktop_$b" ktop_probe_target_ret
calls "$N2"
finish "$b" "$T/b.out" "$T/b.err"
calls "$N3"
finish "$a" "$T/a.out" "$T/a.err"

ha=$((N1 + N2 + N3)) hb=$N2
has "$T/a.out" "# probe ktop_$a:ktop_probe_target uprobe hits=$ha"
has "$T/a.out" "# probe ktop_$a:ktop_probe_target_ret uretprobe hits=$ha"
has "$T/b.out" "{\"probe\":{\"event\":\"ktop_$b:ktop_probe_target\",\"kind\":\"uprobe\",\"maxactive\":0,\"hits\":$hb}}"
has "$T/b.out" "{\"probe\":{\"event\":\"ktop_$b:ktop_probe_target_ret\",\"kind\":\"uretprobe\",\"maxactive\":0,\"hits\":$hb}}"
log "two ktops on one function: hits=$ha and hits=$hb, each its own, no misses"
assert_clean
pass
