#!/bin/bash
# The I/O built-ins through each of their variants, against workloads of known shape; every
# variant (tp_btf, raw_tp, tracepoint, pinned with via=) must count exactly the same:
#  - read-size: 50 reads of 100 bytes and 30 of 5000 (by comm, and by pid): 50 in [64, 128),
#    30 in [4096, 8192), count 80, sum 155000
#  - write-size: 7 writes of 3000 bytes: 7 in [2048, 4096), sum 21000
#  - bio-size and bio-latency keyed by dev, on a loop device of the test's own over a file:
#    5 O_DIRECT reads of 4 KiB and 3 of 64 KiB are 8 requests, 5 in [4096, 8192) and 3 in
#    [65536, 131072), sum 217088 bytes, and 8 latencies (or fewer by the samples ktop
#    reports missed: a start its map refused, a run the kernel skipped)
#  - a key the typed hooks cannot give refuses them in one line and leaves the tracepoint
# The programs each ktop held are gone after it exits.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../hist-lib.sh
. "$(dirname "$0")/../hist-lib.sh"
require_live_hist
[ -x "$KTOP_HISTWORK" ] || fail "no histwork helper at $KTOP_HISTWORK"
KTOP_ENV=(KTOP_NO_GUARD=1)
loop_attach 8
log "block I/O on $LOOPDEV (dev_t $LOOPDEVT)"

# section FILE SPEC: the lines of one histogram of a batch output, header included
section()
{
	awk -v h="# hist $2: " 'index($0, "# hist ") == 1 { on = index($0, h) == 1 } on' "$1"
}

# expect_key FILE KEY COUNT SUM: the key line says exactly this count and sum
expect_key()
{
	hist_key_line "$1" "$2" | grep -q " count=$3 sum=$4 " ||
		fail "$(basename "$1"): key $2: expected count=$3 sum=$4: $(cat "$1")"
}

for via in tp_btf raw_tp tracepoint; do
	# ---- read and write sizes ---------------------------------------------------------
	GO="env"
	NHIST=2
	run_hist "read-$via" "$KTOP_HISTWORK" read 100:50 5000:30 -- \
		--hist "read-size,pid=PID,via=$via" --hist "read-size,by=pid,pid=PID,via=$via"
	out=$T/read-$via.out
	[ "$(grep -c "^# hist read-size.* via=$via " "$out")" = 2 ] ||
		fail "read-size via=$via not used: $(grep '^# hist' "$out")"
	section "$out" "read-size,pid=$WPID,via=$via" >"$T/r1-$via"
	section "$out" "read-size,by=pid,pid=$WPID,via=$via" >"$T/r2-$via"
	expect_key "$T/r1-$via" histwork 80 155000
	expect_bucket "$T/r1-$via" histwork 64 128 50
	expect_bucket "$T/r1-$via" histwork 4096 8192 30
	expect_key "$T/r2-$via" "pid $WPID" 80 155000
	[ "$(grep -c '^key ' "$T/r2-$via")" = 1 ] || fail "read-size by=pid via=$via: not one key: $(cat "$T/r2-$via")"

	NHIST=1
	run_hist "write-$via" "$KTOP_HISTWORK" write 3000:7 -- --hist "write-size,pid=PID,via=$via"
	out=$T/write-$via.out
	grep -q "^# hist write-size.* by=comm .* via=$via " "$out" || fail "write-size via=$via not used: $(head -1 "$out")"
	expect_key "$out" histwork 7 21000
	expect_bucket "$out" histwork 2048 4096 7
	log "via=$via: read and write sizes exact"

	# ---- block requests on the test's loop device ----------------------------------------
	GO="exec"
	NHIST=2
	BLOCK_LOG=$LOOPDEVT
	# shellcheck disable=SC2016 # $0 belongs to the inner shell
	run_hist "bio-$via" bash -c 'dd if="$0" of=/dev/null iflag=direct bs=4096 count=5 status=none &&
		dd if="$0" of=/dev/null iflag=direct bs=65536 skip=1 count=3 status=none' "$LOOPDEV" -- \
		--hist "bio-size,by=dev,via=$via" --hist "bio-latency,by=dev,via=$via"
	out=$T/bio-$via.out
	[ "$(grep -c "^# hist bio-.* by=dev .* via=$via " "$out")" = 2 ] ||
		fail "bio via=$via not used: $(grep '^# hist' "$out")"
	section "$out" "bio-size,by=dev,via=$via" >"$T/bs-$via"
	section "$out" "bio-latency,by=dev,via=$via" >"$T/bl-$via"
	expect_key "$T/bs-$via" "$LOOPDEVT" 8 217088
	expect_bucket "$T/bs-$via" "$LOOPDEVT" 4096 8192 5
	expect_bucket "$T/bs-$via" "$LOOPDEVT" 65536 131072 3
	hist_key_line "$T/bl-$via" "$LOOPDEVT" | grep -q ' count=8 ' || {
		log "bio-latency via=$via: not 8; the loop device's requests as the kernel recorded them:"
		cat "$T/bio-$via.blocks" "$T/bs-$via" >&2
	}
	expect_key_count "$T/bl-$via" "$LOOPDEVT" 8
	BLOCK_LOG=
	log "via=$via: block request sizes and latencies exact"
done

# ---- keys the typed hooks do not have: one line each, the tracepoint stays --------------------
run_ktop 20 "$T/k1.out" "$T/k1.err" -b --hist 'bio-size,by=rwbs,via=tp_btf' --duration 0.5
[ "$KTOP_RC" = 1 ] && [ "$(wc -l <"$T/k1.err")" = 1 ] &&
	grep -q 'bio-size,by=rwbs,via=tp_btf: tp_btf: keys by the field dev only, not by=rwbs' "$T/k1.err" ||
	fail "bio-size by=rwbs via tp_btf: exit $KTOP_RC: $(cat "$T/k1.err")"
run_ktop 20 "$T/k2.out" "$T/k2.err" -b --hist 'read-size,by=ret,via=raw_tp' --duration 0.5
[ "$KTOP_RC" = 1 ] && [ "$(wc -l <"$T/k2.err")" = 1 ] &&
	grep -q 'raw_tp: keys by pid, tid, comm or cpu only, not by=ret' "$T/k2.err" ||
	fail "read-size by=ret via raw_tp: exit $KTOP_RC: $(cat "$T/k2.err")"
run_ktop 20 "$T/k3.out" "$T/k3.err" -b --hist 'bio-size,by=rwbs' --hist 'read-size' --duration 0.5
[ "$KTOP_RC" = 0 ] && grep -q '^# hist bio-size,by=rwbs: .* via=tracepoint ' "$T/k3.out" &&
	grep -q '^# hist read-size: .* via=tp_btf ' "$T/k3.out" ||
	fail "bio-size by=rwbs did not fall back to the tracepoint, or read-size not via tp_btf: $KTOP_RC $(cat "$T/k3.err") $(grep '^# hist' "$T/k3.out")"
log "by a field they cannot give: the typed variants refuse in one line, the tracepoint stays"
assert_clean
pass
