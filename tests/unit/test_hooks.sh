#!/bin/sh
# The test suite's hooks (KTOP_NO_GUARD, KTOP_TEST_*) are in a ktop built with
# --enable-test-hooks and nowhere else. In a plain build (make distcheck's) neither the
# variables' names nor the --version line that announces them are in the binary: nothing
# reads them, so sudo -E ktop cannot be steered by its caller's environment. In a build with
# them (./dev check's) every name is there, and --version says so. No root needed.
set -u
KTOP=${KTOP:?KTOP names the ktop binary}
names='KTOP_NO_GUARD KTOP_TEST_BPF_OBJECT KTOP_TEST_INDEX_GATE KTOP_TEST_INDEX_START_GATE KTOP_TEST_REDRAW_MIN_MS KTOP_TEST_TIMELINE_DUMP'
fail() { echo "test_hooks: FAIL: $*" >&2; exit 1; }
hooks=$(grep -c -- "^#define KTOP_TEST_HOOKS 1" "${KTOP%/*}/config.h")
found=0
for n in $names; do
	if grep -aq "$n" "$KTOP"; then found=$((found + 1)); fi
done
announced=$("$KTOP" --version | grep -c -- --enable-test-hooks)
if [ "$hooks" = 1 ]; then
	[ "$found" = 6 ] || fail "built with the hooks, but only $found of the 6 names are in $KTOP"
	[ "$announced" = 1 ] || fail "built with the hooks, but --version does not say so"
else
	[ "$found" = 0 ] || fail "built without the hooks, yet $found of their names are in $KTOP"
	[ "$announced" = 0 ] || fail "built without the hooks, yet --version announces them"
fi
echo "test_hooks: PASS (config.h: KTOP_TEST_HOOKS $hooks; names in the binary: $found of 6)" >&2
