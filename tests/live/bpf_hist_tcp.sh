#!/bin/bash
# The tcp-connect-latency histogram (src/probes/tcpconn.bpf.c, the first kind added as one
# row of src/backend/bpf/histkind.c) through each variant, against connects of our own making: a
# python process listens on a loopback port and connects to it N times, then M times to a
# port where nothing listens (refused: SYN_SENT to CLOSE, not counted). With pid= and
# by=dport, exactly one key, the listening port, with exactly N connects (fewer only by the
# runs ktop reports the kernel skipped); by=comm keys them by the task that connected, though
# the handshake ends in a softirq. A key the program cannot make is refused in one line.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
command -v python3 >/dev/null || fail "no python3 (./dev installs it)"
KTOP_ENV=(KTOP_NO_GUARD=1)
N=37
M=5

cat >"$T/conn.py" <<'PY'
import os, socket, sys, time
n, m, go = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
lsn = socket.socket()
lsn.bind(("127.0.0.1", 0))
lsn.listen(128)
closed = socket.socket()
closed.bind(("127.0.0.1", 0))  # bound, never listening: a connect there is refused
print(os.getpid(), lsn.getsockname()[1], flush=True)
while not os.path.exists(go):
    time.sleep(0.01)
for _ in range(n):
    c = socket.create_connection(lsn.getsockname())
    a, _ = lsn.accept()
    c.close()
    a.close()
for _ in range(m):
    try:
        socket.create_connection(closed.getsockname()).close()
        sys.exit("a connect to a port nobody listens on succeeded")
    except ConnectionRefusedError:
        pass
PY

# count VIA BY KEY: N connects under KEY
count()
{
	local via=$1 by=$2 want=$3 out=$T/$1-$2.out wl=$T/$1-$2.wl got
	python3 "$T/conn.py" "$N" "$M" "$T/$via-$by.go" >"$wl" &
	local wpid=$!
	CLEANUP_PIDS+=("$wpid")
	wait_until 5 has_line "$wl" || fail "$via: the workload printed no pid"
	read -r pypid port <"$wl"
	[ "$want" = port ] && want=$port
	start_ktop "$out" "$T/$via-$by.err" -b -v --log "$T/$via-$by.klog" \
		--hist "tcp-connect-latency,pid=$pypid,by=$by,via=$via"
	wait_attached "$T/$via-$by.klog" 1
	touch "$T/$via-$by.go"
	wait "$wpid" || fail "$via: the workload failed"
	sleep 0.3 # ktop's last read after the workload's last connect
	stop_ktop "$KTOP_PID" INT 10
	[ "$KTOP_RC" = 0 ] || fail "$via: ktop exited $KTOP_RC; stderr: $(head -c 400 "$T/$via-$by.err")"
	assert_no_sanitizer "$T/$via-$by.err"
	grep -q "^# hist tcp-connect-latency,pid=$pypid,by=$by,via=$via: by=$by unit=ns scale=log2 via=$via " "$out" ||
		fail "$via: no tcp-connect-latency header: $(head -3 "$out")"
	got=$(hist_key_line "$out" "$want" | sed 's/.* count=\([0-9]*\) .*/\1/')
	_expect_count "${got:-0}" "$N" "$out" "key $want via $via"
	[ "$(grep -c '^key ' "$out")" = 1 ] || fail "$via: keys other than $want: $(grep '^key ' "$out")"
	log "tcp-connect-latency via $via by=$by: ${got:-0} of $N connects under $want, $M refused ones left out"
}

for via in tp_btf raw_tp tracepoint; do
	count "$via" dport port
done
count tp_btf comm python3

run_ktop 20 "$T/bad.out" "$T/bad.err" -b --hist tcp-connect-latency,by=ret --duration 0.2
[ "$(cat "$T/bad.err")" = "ktop: tcp-connect-latency,by=ret: tp_btf: keys by pid, tid, comm, cpu, cgroup or dport only, not by=ret; raw_tp: keys by pid, tid, comm, cpu, cgroup or dport only, not by=ret; tracepoint: keys by pid, tid, comm, cpu, cgroup or dport only, not by=ret" ] ||
	fail "by=ret: expected a one-line refusal: $(cat "$T/bad.err")"
assert_clean
pass
