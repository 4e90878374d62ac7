# shellcheck shell=bash
# Helpers for the BPF histogram tests, sourced after lib.sh.
#
# A ktop's BPF programs are found through its own file descriptors (/proc/PID/fdinfo has a
# prog_id line for program and link fds), so only programs that pid holds are ever looked
# at; after it exits, each of those ids must be gone from the kernel (bpftool prog show id).

KTOP_HISTWORK=${KTOP_HISTWORK:-$(dirname "$KTOP_WORKLOAD_BIN")/histwork}

require_bpftool()
{
	command -v bpftool >/dev/null || skip "no bpftool (apt-get install bpftool)"
}

# Every histogram test against the live kernel: root and tracefs, bpftool, a ktop with BPF.
require_live_hist()
{
	require_root_tracefs
	require_bpftool
	require_bpf_hist
}

# A ktop configured with --disable-bpf has no histograms to test.
require_bpf_hist()
{
	"$KTOP" -b --hist syscall-latency --duration 0.1 2>&1 | grep -q 'built without BPF' &&
		skip "this ktop was configured with --disable-bpf"
	return 0
}

# prog_ids PID: the ids of the BPF programs PID holds, one per line, sorted.
prog_ids()
{
	cat /proc/"$1"/fdinfo/* 2>/dev/null | sed -n 's/^prog_id:[[:space:]]*\([0-9]*\)$/\1/p' | sort -un
}

# map_ids PID: the ids of the BPF maps PID holds, likewise.
map_ids()
{
	cat /proc/"$1"/fdinfo/* 2>/dev/null | sed -n 's/^map_id:[[:space:]]*\([0-9]*\)$/\1/p' | sort -un
}

# map_named PID NAME: the id of the BPF map called NAME that PID holds.
map_named()
{
	local id
	for id in $(map_ids "$1"); do
		bpftool map show id "$id" 2>/dev/null | grep -q " name $2 " && { echo "$id"; return; }
	done
}

# map_keys ID: the keys of map ID as its BTF formats them, one per line.
map_keys()
{
	bpftool map dump id "$1" -j |
		python3 -c 'import json, sys; [print(e["formatted"]["key"]) for e in json.load(sys.stdin)]'
}

# kernel_missed PID: KERNEL_MISSED is what the kernel says PID's BPF programs have failed to
# count so far: their runs it skipped (recursion_misses, bpftool prog show) and the samples
# they themselves counted as lost in their .bss (dropped, untimed, unended: bpftool map
# dump). The oracle for ktop's missed= (see _accounted).
kernel_missed()
{
	local id
	KERNEL_MISSED=$({
		for id in $(prog_ids "$1"); do bpftool prog show id "$id" -j && echo; done
		for id in $(map_ids "$1"); do
			bpftool map show id "$id" 2>/dev/null | grep -q '\.bss ' && bpftool map dump id "$id" -j && echo
		done
	} | python3 -c '
import json, sys
n = 0
for line in sys.stdin:
    if not line.strip():
        continue
    o = json.loads(line)
    if isinstance(o, dict):
        n += o.get("recursion_misses", 0)
        continue
    for e in o:
        for sec in e["formatted"]["value"].values():
            n += sum(v for var in sec for k, v in var.items() if k in ("dropped", "untimed", "unended"))
print(n)')
	[ -n "$KERNEL_MISSED" ] || fail "bpftool gave no figures for the programs of $1"
}

# wait_progs PID N: until PID holds at least N programs (loaded; see wait_attached).
_has_progs() { [ "$(prog_ids "$1" | wc -l)" -ge "$2" ]; }
wait_progs()
{
	wait_until 20 _has_progs "$1" "$2" ||
		fail "ktop $1 holds $(prog_ids "$1" | wc -l) BPF programs after 20s, expected $2; stderr: $(head -c 300 "$T"/*.err 2>/dev/null)"
}

# wait_attached LOG N: until ktop's debug log (-v --log LOG) says N histograms are attached
# (or, with ATTACHED_RE='offcpu_open: attached via ', the off-CPU profile). A program is
# loaded before it is attached, so its fd alone says too early.
ATTACHED_RE='bpfhist_open: .* attached via '
_attached()
{
	local n
	n=$(grep -c -- "$ATTACHED_RE" "$1" 2>/dev/null)
	[ "${n:-0}" -ge "$2" ]
}
wait_attached()
{
	wait_until 20 _attached "$1" "$2" ||
		fail "ktop did not log $2 attached programs within 20s: $(grep -c 'attached via' "$1" 2>/dev/null) in $1"
}

# assert_progs_gone ID...: none of these programs exists any more (freed after the last fd
# closed; the kernel frees them shortly after, hence the wait).
_progs_gone()
{
	local id
	for id in "$@"; do
		bpftool prog show id "$id" >/dev/null 2>&1 && return 1
	done
	return 0
}
assert_progs_gone()
{
	[ $# -gt 0 ] || fail "assert_progs_gone: no program ids (the ktop held none?)"
	wait_until 5 _progs_gone "$@" ||
		fail "BPF programs of an exited ktop remain: $(for id in "$@"; do bpftool prog show id "$id" 2>/dev/null | head -1; done)"
}

# hist_key_line FILE KEY: the "key KEY count=..." line of a text histogram.
hist_key_line() { grep -m1 "^key $2 count=" "$1"; }
# hist_bucket FILE KEY LO HI: the count in bucket [LO, HI) of KEY (0 when absent).
hist_bucket()
{
	awk -v key="key $2 " -v b="  [$3, $4) " '
		index($0, "key ") == 1 { inkey = index($0, key) == 1; next }
		inkey && index($0, b) == 1 { split(substr($0, length(b) + 1), f, " "); print f[1]; found = 1; exit }
		END { if (!found) print 0 }' "$1"
}

# hist_from FILE KEY LO: the count in every bucket of KEY from LO up (0 when none).
hist_from()
{
	awk -v key="key $2 " -v lo="$3" '
		index($0, "key ") == 1 { inkey = index($0, key) == 1; next }
		inkey && index($0, "  [") == 1 { if (substr($1, 2) + 0 >= lo) n += $3 }
		END { print n + 0 }' "$1"
}

# loop_attach SIZE_MB: a loop device of its own over a file in $T, for block I/O of known
# shape that nothing else on the machine touches; its name in LOOPDEV, its dev_t as the
# block tracepoints record it (MAJOR << 20 | MINOR) in LOOPDEVT. Detached on exit, before
# lib.sh's clean-up removes $T.
LOOPDEV=
loop_attach()
{
	command -v losetup >/dev/null || skip "no losetup (apt-get install mount)"
	dd if=/dev/zero of="$T/loop.img" bs=1M count="$1" status=none || fail "cannot write $T/loop.img"
	LOOPDEV=$(losetup -f --show "$T/loop.img" 2>"$T/losetup.err") ||
		skip "no loop device here: $(cat "$T/losetup.err")"
	trap 'rc=$?; losetup -d "$LOOPDEV" 2>/dev/null; (exit $rc); _cleanup' EXIT
	local mm
	mm=$(cat "/sys/block/${LOOPDEV#/dev/}/dev") || fail "no /sys/block entry for $LOOPDEV"
	LOOPDEVT=$(( (${mm%:*} << 20) | ${mm#*:} ))
}

# run_hist NAME WORKLOAD... -- KTOP-ARGS...: starts the workload held back, starts ktop with
# the arguments (PID in them replaced by the workload's), waits until its NHIST histograms are
# attached, lets the workload run, then SIGINTs ktop. Output in $T/NAME.out, the workload's
# pid in WPID, ktop's programs in PROGS.
# GO=exec (sleep tests): a shell blocked on a FIFO execs the workload when released, so the
# pid sleeps once before and does nothing else but the workload. It runs SCHED_FIFO: no
# normal task can preempt it, so each of its sleeps is one stretch off the CPU, and the
# only others are the ones it makes itself. GO=env (reads and
# writes, whose program loader would read(2) after an exec): the helper waits for a file.
# SWITCH_LOG=1: an instance of the test's own also records the workload's sched_switch and
# sched_wakeup while it runs, into $T/NAME.switches, shown when a count comes out wrong. It is
# a witness for counts, not their oracle: under load this kernel has left switches in out of
# it that ktop's programs saw, and out of both at once (bpf_hist.sh); what it does bound is
# how many stretches ktop may call unended (offcpu-lib.sh's offcpu_check).
# BLOCK_LOG=DEVT: the same for block_rq_issue and block_rq_complete of that device, into
# $T/NAME.blocks (bio-latency once counted 7 of 8 requests in CI, with nothing missed).
GO=exec
SWITCH_LOG=
BLOCK_LOG=
RUN_KMISSED=0 # run_hist's: what the kernel said ktop's programs failed to count
# _event_log_start FILTER SYS:EV...: the events in an instance of the test's own, FILTER
# (WPID in it: the workload's pid) on each.
_event_log_start()
{
	local I=$TRACEFS/instances/histlog-$$ filter=${1//WPID/$WPID} ev
	shift
	mkdir "$I" || fail "cannot create instance histlog-$$"
	CLEANUP_INSTANCES+=("histlog-$$")
	for ev in "$@"; do
		echo "$filter" >"$I/events/${ev/://}/filter" &&
			echo 1 >"$I/events/${ev/://}/enable" ||
			fail "cannot record $ev ($filter) in instance histlog-$$"
	done
}
_event_log_stop() # FILE
{
	local I=$TRACEFS/instances/histlog-$$
	echo 0 >"$I/tracing_on"
	grep -v '^#' "$I/trace" >"$1"
	_rm_instance "histlog-$$"
}
# switch_log_start: the workload's (WPID's) sched_switch and sched_wakeup into an instance of
# the test's own; _event_log_stop FILE ends it.
switch_log_start()
{
	_event_log_start "prev_pid == WPID || next_pid == WPID" sched:sched_switch
	echo "pid == $WPID" >"$TRACEFS/instances/histlog-$$/events/sched/sched_wakeup/filter" &&
		echo 1 >"$TRACEFS/instances/histlog-$$/events/sched/sched_wakeup/enable" ||
		fail "cannot record the workload's wakeups in instance histlog-$$"
}
run_hist()
{
	local name=$1 args=() a w=()
	shift
	while [ "$1" != -- ]; do w+=("$1"); shift; done
	shift
	rm -f "$T/$name.go" "$T/$name.fifo"
	if [ "$GO" = exec ]; then
		mkfifo "$T/$name.fifo"
		# shellcheck disable=SC2016 # $0 and $@ belong to the inner shell
		chrt -f 1 bash -c 'read -r _ <"$0"; exec "$@"' "$T/$name.fifo" "${w[@]}" >"$T/$name.wl" &
		WPID=$!
	else
		WORKLOAD_GO=$T/$name.go "${w[@]}" >"$T/$name.wl" &
		wait_until 5 has_line "$T/$name.wl" || fail "$name: the workload printed no pid"
		WPID=$(head -n1 "$T/$name.wl" | cut -d' ' -f1)
	fi
	local wl=$!
	CLEANUP_PIDS+=("$wl")
	for a in "$@"; do args+=("${a//PID/$WPID}"); done
	start_ktop "$T/$name.out" "$T/$name.err" -b -v --log "$T/$name.klog" "${args[@]}"
	wait_attached "$T/$name.klog" "$NHIST"
	mapfile -t PROGS < <(prog_ids "$KTOP_PID")
	if [ -n "$SWITCH_LOG" ]; then
		switch_log_start
	elif [ -n "$BLOCK_LOG" ]; then
		_event_log_start "dev == $BLOCK_LOG" block:block_rq_issue block:block_rq_complete
	fi
	if [ "$GO" = exec ]; then echo go >"$T/$name.fifo"; else touch "$T/$name.go"; fi
	wait "$wl" || fail "$name: the workload failed"
	[ -n "$SWITCH_LOG" ] && _event_log_stop "$T/$name.switches"
	[ -n "$BLOCK_LOG" ] && _event_log_stop "$T/$name.blocks"
	# Nothing to wait for: the workload was reaped, and its every event ran ktop's programs in
	# the kernel as it happened. What they failed to count, by the kernel's word, before
	# ktop's final read:
	kernel_missed "$KTOP_PID"
	RUN_KMISSED=$KERNEL_MISSED
	stop_ktop "$KTOP_PID" INT 10
	[ "$KTOP_RC" = 0 ] || fail "$name: ktop exited $KTOP_RC; stderr: $(head -c 400 "$T/$name.err")"
	assert_no_sanitizer "$T/$name.err"
	assert_progs_gone "${PROGS[@]}"
}

# The runs the kernel skipped, as ktop reported them (missed= in every "# hist" header of FILE).
hist_missed() # FILE
{
	sed -n 's/^# hist .* missed=\([0-9]*\).*/\1/p' "$1" | awk '{ n += $1 } END { print n + 0 }'
}

# COUNT exactly, or fewer by no more than the runs ktop reported the kernel skipped (a plain
# tracepoint program does not run while a BPF map syscall holds its CPU): nothing is lost
# without being counted. ktop's report is no oracle: the shortfall must also be within what
# the kernel itself said the programs failed to count once the workload had ended
# (RUN_KMISSED, kernel_missed).
_accounted() # GOT EXPECTED FILE WHAT
{
	local missed short=$(($2 - ${1:-0}))
	[ "$short" = 0 ] && return 0
	missed=$(hist_missed "$3")
	[ "$short" -gt 0 ] && [ "$short" -le "$missed" ] || return 1
	if [ "$short" -gt "$RUN_KMISSED" ]; then
		log "$4: $1 of $2: ktop says $missed runs were skipped, the kernel $RUN_KMISSED"
		return 1
	fi
	log "$4: $1 of $2, the kernel skipped $missed runs (reported; the kernel said $RUN_KMISSED)"
}

_expect_count() # GOT EXPECTED FILE WHAT
{
	_accounted "$1" "$2" "$3" "$4" || fail "$(basename "$3" .out): $4 holds $1, expected $2:
$(cat "$3")"
}

expect_bucket() # FILE KEY LO HI COUNT
{
	_expect_count "$(hist_bucket "$1" "$2" "$3" "$4")" "$5" "$1" "key $2 bucket [$3, $4)"
}

# A time that has a floor and no ceiling: a sleep of 40 ms is 40 ms off the CPU at least,
# but nothing bounds how long its task then waits for a CPU (on a loaded machine, tens of ms
# for a normal task; with a kernel that does not preempt, over 100 ms even for SCHED_FIFO).
expect_from() # FILE KEY LO COUNT
{
	_expect_count "$(hist_from "$1" "$2" "$3")" "$4" "$1" "key $2 from $3 up"
}

# EXTRA: up to that many more are right too (see bpf_hist.sh's runq-latency).
expect_key_count() # FILE KEY COUNT [EXTRA]
{
	local got
	got=$(hist_key_line "$1" "$2" | sed -n 's/.* count=\([0-9]*\) .*/\1/p')
	if [ "${got:-0}" -gt "$3" ] && [ "$got" -le "$(($3 + ${4:-0}))" ]; then
		log "$(basename "$1" .out): key $2 count=$got: $3, and $((got - $3)) of $4 allowed more"
		return 0
	fi
	_accounted "$got" "$3" "$1" "key $2 count" ||
		fail "$(basename "$1" .out): key $2 has count=$got, expected $3:
$(cat "$1")"
}

# A test-only BPF object, tests/helpers/NAME.bpf.o, that ktop loads in place of a built-in
# one (KTOP_TEST_BPF_OBJECT): its path in TEST_OBJ.
require_test_object() # NAME
{
	TEST_OBJ=$(dirname "$KTOP_WORKLOAD_BIN")/$1.bpf.o
	[ -s "$TEST_OBJ" ] || fail "no test object at $TEST_OBJ (make check builds it)"
}

# The object the verifier refuses (tests/helpers/verifier_reject.bpf.c), in place of
# syscall-latency's.
KTOP_REJECT_OBJ=${KTOP_REJECT_OBJ:-$(dirname "$KTOP_WORKLOAD_BIN")/verifier_reject.bpf.o}
require_reject_obj()
{
	[ -s "$KTOP_REJECT_OBJ" ] || fail "no test object at $KTOP_REJECT_OBJ (make check builds it)"
}

# verifier_last_lines LOG: the verifier's last two lines before libbpf's "-- END PROG LOAD
# LOG --" in ktop's -v log, the first refusal's, one per line.
verifier_last_lines()
{
	grep -m1 -B2 -- '-- END PROG LOAD LOG --' "$1" | head -2 | sed 's/^libbpf: //'
}
