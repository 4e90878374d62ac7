# shellcheck shell=bash
# The overview's live tests' workloads (overview_counts.sh, remote_overview.sh): each started
# in the background, its output kept, its pid by tag; the python ones stop themselves
# (SIGSTOP) when done so their /proc files can be read while nothing more happens to them.

declare -A PID_OF
WORK="python3 $KTOP_SRCDIR/tests/helpers/overview_work.py"

# bg TAG CMD...: CMD in the background, its output in $T/TAG.wl, its pid in PID_OF[TAG]
bg()
{
	local tag=$1
	shift
	"$@" >"$T/$tag.wl" 2>"$T/$tag.wlerr" &
	PID_OF[$tag]=$!
	CLEANUP_PIDS+=($!)
}

# shellcheck disable=SC2317 # called through wait_until
_stopped() { [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = T ]; }
