#!/bin/bash
# A process in a mount namespace of its own maps files at paths that, on the host, name
# FIFOs: the paths in its /proc/PID/maps are its own, not the host's. ktop reads the files
# the process maps (through /proc/PID/map_files or /proc/PID/root), never the host's
# path: opening the host FIFO would hang ktop for good.
#   - ktop --list-usdt PID lists the target's ktop_test:hit probe from the namespace's copy
#     of usdt_target, named by a path that reaches that copy from the host
#     (/proc/PID/root/...), within 20 s;
#   - ktop -b --profile -p PID --folded on profwork (split, in the namespace) ends when
#     asked and names hot_seventy and hot_thirty from the namespace's copy's symbols.
# Both hang without the fix; the FIFOs are still FIFOs afterwards.
KTOP_PRIVATE_MOUNTS=${KTOP_PRIVATE_MOUNTS:-1}
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../profile-lib.sh
. "$(dirname "$0")/../profile-lib.sh"
require_root_tracefs
require_usdt_target
require_profwork
[ "${KTOP_PRIVATE_MOUNTS:-}" = inside ] || skip "needs unshare (util-linux) for mount namespaces"
D=$T/ns
mkdir "$D" && mkfifo "$D/usdt_target" "$D/profwork" || fail "cannot make the FIFOs"

# in_ns OUT FILE... -- ARGS: in a mount namespace of its own, a tmpfs over $D holding
# copies of the FILEs; the first runs there with ARGS (same pid: unshare and sh exec it).
in_ns()
{
	local out=$1 files=()
	shift
	while [ "$1" != -- ]; do files+=("$1"); shift; done
	shift
	unshare -m --propagation private sh -c 'd=$1; n=$2; shift 2
		mount -t tmpfs ktop-ns "$d" || exit 90
		while [ "$n" -gt 0 ]; do cp "$1" "$d/" || exit 91; shift; n=$((n - 1)); done
		exec "$d/$0" "$@"' "$(basename "${files[0]}")" "$D" "${#files[@]}" "${files[@]}" \
		"$@" >"$out" 2>&1 &
	NS_PID=$!
	CLEANUP_PIDS+=("$NS_PID")
}

# --- USDT notes of a process: the namespace's file -----------------------------------------
in_ns "$T/usdt.out" "$TGT" "$LIB" -- 1 "$T/never"
usdt=$NS_PID
wait_until 10 has_line "$T/usdt.out" || fail "usdt_target did not start: $(cat "$T/usdt.out")"
grep -q "^$D/usdt_target$" <(sed 's/ (deleted)$//' "/proc/$usdt/maps" | awk '{ print $6 }') ||
	fail "usdt_target does not map $D/usdt_target: $(awk '{ print $6 }' "/proc/$usdt/maps" | sort -u)"
run_ktop 20 "$T/list" "$T/list.err" --list-usdt "$usdt"
[ "$KTOP_RC" = 0 ] || fail "--list-usdt $usdt exited $KTOP_RC: $(head -c 400 "$T/list.err")"
grep -q "^/proc/$usdt/root$D/usdt_target:ktop_test:hit " "$T/list" ||
	fail "ktop_test:hit is not listed from /proc/$usdt/root$D/usdt_target: $(head -c 600 "$T/list")"
log "$(grep ktop_test:hit "$T/list")"

# --- the profile's symbols: the namespace's file -------------------------------------------
in_ns "$T/work.out" "$KTOP_PROFWORK" -- split 600
PROFWORK_PID=$NS_PID
wait_until 10 _ready "$T/work.out" || fail "profwork did not start: $(cat "$T/work.out")"
profile_cpu 1 "$T/prof" "$T/prof.err" -b --profile -p "$PROFWORK_PID" --folded
[ "$KTOP_RC" = 0 ] || fail "the profile exited $KTOP_RC: $(head -c 400 "$T/prof.err")"
for fn in hot_seventy hot_thirty; do
	grep -q ";$fn[; ]" "$T/prof" || fail "no $fn in the profile: $(head -c 600 "$T/prof")"
done
[ -p "$D/usdt_target" ] && [ -p "$D/profwork" ] || fail "a FIFO on the host was replaced"
log "profile: $(grep -c . "$T/prof") stacks, hot_seventy and hot_thirty named"
assert_clean
pass
