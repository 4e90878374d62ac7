#!/bin/bash
# A test of the kernel lab harness itself: run-vm.sh must exit non-zero, never hang and never
# pass, when a lab test fails, when a test leaves ktop state in the kernel, when the guest
# kernel panics and when the guest hangs.
# Same environment as run-vm.sh (LAB_BUILDDIR, LAB_SRCDIR); the kernel cache and static ktop
# are shared with it, each case's image and console log go to a temporary directory.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LAB_SRCDIR=${LAB_SRCDIR:-$(cd "$here/../.." && pwd)}
export LAB_BUILDDIR=${LAB_BUILDDIR:-$PWD}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-harness.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
failures=0

# expect_failure NAME WHAT-THE-OUTPUT-MUST-SAY SCRIPT-BODY [VAR=VALUE...]
expect_failure()
{
	local name=$1 want=$2 body=$3
	shift 3
	mkdir -p "$tmp/$name"
	printf '#!/bin/sh\n%s\n' "$body" >"$tmp/$name/$name.sh"
	local start=$SECONDS rc
	# the broken test alone: the real lab tests ran in kernel-lab.tap
	env LAB_WORKDIR="$tmp/$name" LAB_EXTRA_TEST="$tmp/$name/$name.sh" LAB_ONLY_EXTRA=1 "$@" \
		"$here/run-vm.sh" >"$tmp/$name/out" 2>&1
	rc=$?
	if [ $rc -eq 77 ]; then
		cat "$tmp/$name/out"
		echo "SKIP: harness/$name: the lab cannot run here"
		exit 77
	fi
	if [ $rc -eq 0 ]; then
		echo "FAIL: harness/$name: run-vm.sh passed"
	elif ! grep -q -- "$want" "$tmp/$name/out"; then
		echo "FAIL: harness/$name: run-vm.sh exited $rc but never said '$want'"
	else
		echo "PASS: harness/$name (run-vm.sh exited $rc in $((SECONDS - start))s)"
		return 0
	fi
	sed 's/^/    /' "$tmp/$name/out"
	failures=$((failures + 1))
}

expect_failure failing-test 'FAIL: lab/zz-extra-failing-test' 'echo "deliberate failure"; exit 1'
expect_failure panic 'kernel panic' 'echo c > /proc/sysrq-trigger; sleep 30'
expect_failure leftover 'left ktop state in the kernel' \
	'mkdir "$TRACEFS/instances/ktop-999999"; exit 0'
expect_failure hang 'guest hung' 'sleep 100000' LAB_TIMEOUT=40 LAB_TEST_TIMEOUT=100000
# a kernel apt does not know: said, package and suite, and no other kernel booted instead
expect_failure no-such-kernel "linux-image-9.99-amd64 is not in this machine's apt sources" \
	'exit 0' LAB_KERNEL_META=linux-image-9.99-amd64

[ $failures -eq 0 ]
