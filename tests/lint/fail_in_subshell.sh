#!/bin/bash
# No test calls a function that can fail the test (fail, skip, or one that calls them) inside
# $(...): a fail there only ends the subshell, and the bound it guarded silently goes
# (tests/lint/fail_in_subshell.py lists each such call).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_python
python3 "$KTOP_SRCDIR/tests/lint/fail_in_subshell.py" "$KTOP_SRCDIR" >"$T/calls" ||
	fail "a fail inside \$(...) would only end its subshell: $(cat "$T/calls")"
pass
