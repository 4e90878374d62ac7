#!/bin/bash
# ktop mounts tracefs where it is not mounted: in a private mount namespace with tracefs
# unmounted, ktop --list and a short batch run work and leave it mounted there; the host's
# mounts are not touched.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
command -v unshare >/dev/null 2>&1 || skip "needs unshare (util-linux)"

cat >"$T/inner.sh" <<'INNER'
#!/bin/bash
# Runs in its own mount namespace: unmount every tracefs and debugfs, then ask ktop.
set -u
mount --make-rprivate / || exit 90
while umount /sys/kernel/tracing 2>/dev/null; do :; done
umount /sys/kernel/debug/tracing 2>/dev/null
umount /sys/kernel/debug 2>/dev/null
if grep -qE ' (tracefs|debugfs) ' /proc/self/mounts; then
	echo "still mounted: $(grep -E ' (tracefs|debugfs) ' /proc/self/mounts)"
	exit 91
fi
"$KTOP" --list 'sched:sched_switch' >"$1/list.out" 2>"$1/list.err" || exit 92
grep -q ' /sys/kernel/tracing tracefs ' /proc/self/mounts || exit 93
KTOP_NO_GUARD=1 "$KTOP" -b -q -e sched:sched_switch --duration 0.3 >"$1/batch.out" 2>"$1/batch.err" || exit 94
exit 0
INNER
chmod +x "$T/inner.sh"
before=$(grep -cE ' (tracefs|debugfs) ' /proc/self/mounts)
KTOP="$KTOP" unshare -m "$T/inner.sh" "$T"
rc=$?
case $rc in
0) ;;
90) skip "cannot make the mounts private here" ;;
91) fail "could not unmount tracefs in the namespace" ;;
92) fail "ktop --list failed without tracefs mounted: $(cat "$T/list.err")" ;;
93) fail "ktop --list did not mount tracefs at /sys/kernel/tracing" ;;
94) fail "ktop -b failed after mounting: $(cat "$T/batch.err")" ;;
*) fail "the namespace run exited $rc" ;;
esac
[ "$(cat "$T/list.out")" = sched:sched_switch ] || fail "ktop --list printed '$(cat "$T/list.out")'"
grep -q '^# ktop: events=' "$T/batch.out" || fail "no summary from the batch run: $(cat "$T/batch.out")"
[ "$(grep -cE ' (tracefs|debugfs) ' /proc/self/mounts)" = "$before" ] ||
	fail "the host's tracefs mounts changed"
assert_clean
pass
