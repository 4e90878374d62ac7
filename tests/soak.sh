#!/bin/bash
# ./dev soak [N] [--load]: is the README's test command deterministic? Clones this
# repository's HEAD afresh N times (default 5), runs `.ci/run` in each clone as CI does
# (CI=true, no standard input) and counts the runs that passed. --load keeps one CPU busy
# with a spinning process the whole time, the way a shared CI machine is busy. No run is
# retried: a single failure is a flaky test to find, and its log is kept.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
runs=5
load=
for a in "$@"; do
	case "$a" in
	--load) load=1 ;;
	[0-9]*) runs=$a ;;
	*) echo "usage: ./dev soak [N] [--load]" >&2; exit 2 ;;
	esac
done
dir=${KTOP_SOAK_DIR:-/var/tmp/ktop-soak}
mkdir -p "$dir"
say() { printf 'soak: %s\n' "$*" >&2; }

spinner=
if [ "$load" ]; then
	(while :; do :; done) &
	spinner=$!
	say "CPU load: pid $spinner spins on one core"
fi
trap 'if [ -n "$spinner" ]; then kill "$spinner" 2>/dev/null; fi' EXIT

rev=$(git -C "$top" rev-parse --short HEAD)
passed=0
for i in $(seq 1 "$runs"); do
	clone=$dir/run$i
	rm -rf "$clone"
	git clone -q --no-local "$top" "$clone" && git -C "$clone" checkout -q "$rev" || exit 1
	start=$(date +%s)
	(cd "$clone" && CI=true bash .ci/run </dev/null >"$dir/run$i.log" 2>&1)
	rc=$?
	line=$(grep -E '^ktop: [0-9]+ passed' "$dir/run$i.log" | tail -n 1)
	if [ "$rc" = 0 ]; then
		passed=$((passed + 1))
		rm -rf "$clone"
		say "run $i/$runs: passed in $(($(date +%s) - start)) s: $line"
	else
		say "run $i/$runs: FAILED (exit $rc) in $(($(date +%s) - start)) s: ${line:-no summary}; log $dir/run$i.log, tree $clone"
		grep -E '^(FAIL|ERROR):' "$dir/run$i.log" | sed 's/^/soak:   /' >&2
	fi
done
say "$rev: $passed of $runs fresh-clone runs of .ci/run passed${load:+ under CPU load}"
[ "$passed" = "$runs" ]
