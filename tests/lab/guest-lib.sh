# The lab tests' shared steps, sourced inside the guest as /lab/lib.sh (busybox sh).

# wait_attached LOG N PID: until ktop PID's log LOG says "attached via" N times, PID exits or
# 10 s pass; the test's own checks then say what did not attach.
wait_attached() {
	i=0
	while n=$(grep -c 'attached via' "$1" 2>/dev/null); [ "${n:-0}" -lt "$2" ] && [ $i -lt 100 ]; do
		kill -0 "$3" 2>/dev/null || return
		sleep 0.1
		i=$((i + 1))
	done
}

# ktop_ok PID ERR VIA: waits for ktop PID; when it exits non-zero, prints its stderr ERR and
# the exit status for variant VIA, and fails.
ktop_ok() {
	wait "$1"
	rc=$?
	[ $rc -eq 0 ] && return 0
	cat "$2"
	echo "via=$3: ktop exited $rc"
	return 1
}
