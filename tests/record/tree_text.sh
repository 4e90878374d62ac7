#!/bin/bash
# ktop -b -i FILE --tree: the call trees of a recording, in the kernel's own layout, equal the
# kernel's text of the same events call by call (function, depth, caller, duration and its
# mark, in order), for the kernel lab's function_graph captures (tests/fixtures/lab): whole
# calls, the tracer's depth limit, interrupts nested in calls (taken inside a call, while it
# returned, or while it was entered), and a call entered on one CPU and left on another.
# (midcall, a capture begun inside calls, is the unit test's: ktop names callers there that
# the kernel's text cannot show.) Both texts are read by the lab's own reader,
# tests/lab/calltext.awk. Then --json gives one object per tree, and a recording without
# function_graph formats is refused in one line that says how to make one.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_ktop
require_python
FIX=$KTOP_SRCDIR/tests/fixtures/lab
CALLTEXT=$KTOP_SRCDIR/tests/lab/calltext.awk

for b in normal depth irq irqentry migrate; do
	[ -r "$FIX/$b.dat" ] && [ -r "$FIX/$b.trace" ] || fail "$FIX/$b.dat or .trace missing"
	cp "$FIX/$b.trace" "$T/$b.kernel"
	"$KTOP" -b -i "$FIX/$b.dat" --tree >"$T/$b.ktop" 2>"$T/$b.err" ||
		fail "ktop -b -i $b.dat --tree exited $?: $(head -c 600 "$T/$b.err")"
	(cd "$T" && awk -f "$CALLTEXT" "$b.kernel" && awk -f "$CALLTEXT" "$b.ktop") ||
		fail "calltext.awk failed on $b"
	tasks=0
	for k in "$T/$b.kernel.calls."*; do
		[ -f "$k" ] || fail "$b: no calls in the kernel's text"
		pid=${k##*.}
		ours=$T/$b.ktop.calls.$pid
		[ -s "$ours" ] || fail "$b: ktop's trees have no calls of task $pid"
		if ! cmp -s "$k" "$ours"; then
			diff "$k" "$ours" | head -n 8 >&2
			fail "$b: task $pid's calls differ from the kernel's text (< kernel, > ktop)"
		fi
		log "$b: task $pid, $(wc -l <"$k") calls as the kernel printed them"
		tasks=$((tasks + 1))
	done
	[ "$(find "$T" -name "$b.ktop.calls.*" | wc -l)" -eq "$tasks" ] ||
		fail "$b: ktop's trees have tasks the kernel's text does not"
done

# The interrupt taken while a call was entered is nested in that call.
grep -Eq '^[0-9]+ [^ ]*(irq|sysvec)[^ ]* [^ ]+ [0-9.]+ __rcu_read_unlock$' \
	"$T/irqentry.ktop.calls."* || fail "irqentry: no interrupt nested in __rcu_read_unlock"

# JSON: one object per tree, as many as the text's roots.
"$KTOP" -b -i "$FIX/irq.dat" --tree --json >"$T/irq.json" 2>"$T/irq.jerr" ||
	fail "ktop --tree --json exited $?: $(head -c 600 "$T/irq.jerr")"
roots=$(grep -c '^0 ' "$T/irq.ktop.calls."*)
python3 - "$T/irq.json" "$roots" <<'PY' || fail "irq.dat: the JSON trees are not the text's"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
trees = [l["tree"] for l in lines if "tree" in l]
assert "summary" in lines[-1], "no summary object last"
assert len(trees) == int(sys.argv[2]), (len(trees), sys.argv[2])
for t in trees:
    assert t["func"] == "vfs_read" and t["depth"] == 0, t["func"]
    assert t["duration_ns"] >= sum(c["duration_ns"] for c in t.get("calls", []))
PY

# A recording with no function_graph formats: one line, the cause and the way out.
MK=${KTOP_MKRECORDING:-$(dirname "$KTOP")/tests/helpers/mkrecording}
[ -x "$MK" ] || fail "no $MK (make check builds it)"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$MK" "$KTOP_SRCDIR/tests/unit/fixtures/tracing" "$T/sched.dat" 100 1 ||
	fail "mkrecording failed"
if "$KTOP" -b -i "$T/sched.dat" --tree >"$T/sched.out" 2>"$T/sched.err"; then
	fail "--tree on a recording without function_graph formats succeeded"
fi
[ "$(wc -l <"$T/sched.err")" = 1 ] || fail "not one line: $(cat "$T/sched.err")"
grep -q "sched.dat: --tree: no funcgraph_entry/funcgraph_exit event formats (a capture with -t function_graph has them)" \
	"$T/sched.err" || fail "the error does not name the cause and the way out: $(cat "$T/sched.err")"
[ ! -s "$T/sched.out" ] || fail "a refused --tree printed something"
pass
