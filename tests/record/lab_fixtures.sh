#!/bin/bash
# Interop with trace-cmd's own files: the kernel lab's recordings (tests/fixtures/lab/*.dat,
# written by trace-cmd extract; function_graph and kprobe captures
# made by trace-cmd on Debian's 6.1 kernel, which this machine's kernel cannot make) open in
# ktop -i and show the same rows as trace-cmd report, field by field, losses included.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_python
command -v trace-cmd >/dev/null || skip "trace-cmd is not installed (apt-get install trace-cmd)"
COMPARE=$KTOP_SRCDIR/tests/helpers/tdat_compare.py
n=0
for f in "$KTOP_SRCDIR"/tests/fixtures/lab/*.dat; do
	[ -f "$f" ] || continue
	b=$(basename "$f" .dat)
	"$KTOP" -b -i "$f" >"$T/$b.ktop" 2>"$T/$b.err" ||
		fail "ktop -i $b.dat exited $?: $(head -c 600 "$T/$b.err")"
	trace-cmd report -N -t "$f" >"$T/$b.report" 2>/dev/null || fail "trace-cmd report $b.dat"
	python3 "$COMPARE" "$T/$b.ktop" "$T/$b.report" >"$T/$b.cmp" 2>&1 ||
		fail "$b.dat: ktop -i and trace-cmd report differ: $(head -c 800 "$T/$b.cmp")"
	log "$b.dat: $(cat "$T/$b.cmp")"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || skip "no recordings in tests/fixtures/lab"
grep -q "funcgraph_entry" "$T/normal.ktop" || fail "no funcgraph_entry rows from normal.dat"
grep -q "ktopfx:open" "$T/kprobe.ktop" || fail "no kprobe rows from kprobe.dat"
pass
