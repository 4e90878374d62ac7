# shellcheck shell=bash disable=SC2034 # OFFCPU_* are for the tests that source this
# Helpers for the off-CPU profile's tests, sourced after lib.sh: the workload of known shape
# (workload block 200 5 NAME: 5 reads of a pipe, each answered 200 ms after the reader is
# seen off the CPU, then blocked_ns=<the reads' time>) and what ktop -b --off-cpu must say
# of it, locally (offcpu_sleep.sh) or through agents (remote_offcpu.sh).

OFFCPU_READS=5
OFFCPU_READ_NS=200000000
OFFCPU_PIPE_READ=';(anon_)?pipe_read;'

# offcpu_blocked_ns WL: OFFCPU_HI is the time the workload's reads took, as it printed it
# (the upper bound). A variable, not $(...): a fail in a subshell only ends the subshell.
offcpu_blocked_ns()
{
	OFFCPU_HI=$(sed -n 's/^blocked_ns=//p' "$1")
	[ -n "$OFFCPU_HI" ] || fail "the workload printed no blocked_ns=: $(cat "$1")"
}

# offcpu_seen_ended SWITCHES PID: OFFCPU_ENDED is how many of PID's stretches off the CPU of
# a read's length (less 10 % for the clocks' grain) the test's own instance saw begin and
# end (a switch out, then one in), at most the reads'.
offcpu_seen_ended()
{
	OFFCPU_ENDED=$(awk -v pid="$2" -v min="$OFFCPU_READ_NS" -v reads="$OFFCPU_READS" '
		{ for (i = 2; i <= NF; i++) if ($i == "sched_switch:") { t = $(i - 1); sub(/:$/, "", t) } }
		/ sched_switch: / && index($0, " prev_pid=" pid " ") { out = t }
		/ sched_switch: / && index($0, " next_pid=" pid " ") && out != "" {
			if ((t - out) * 1e9 >= min * 0.9) n++
			out = ""
		}
		END { print (n > reads ? reads : n + 0) }' "$1")
}

# offcpu_check WHAT FOLDED NAME UNENDED HI ENDED [CONTEXT]: NAME's folded stacks through the
# kernel's pipe read hold 1 s at least (less 200 ms for each stretch ktop reported
# unended), no more than HI (the reads' time), each under libc's read and vfs_read and
# ending at __schedule. ktop's unended count is bounded by the kernel's: of the ENDED
# stretches the test's own instance saw end, ktop may miss one (a program run the kernel
# skipped), not more: a ktop that never matched a switch in fails here. CONTEXT goes with
# a failure.
offcpu_check()
{
	local what=$1 out=$2 name=$3 unended=$4 hi=$5 ended=$6 ns lo bad
	[ "$unended" -le $((OFFCPU_READS - ended + 1)) ] ||
		fail "$what: ktop reports $unended of $OFFCPU_READS stretches unended, the kernel's own instance saw $ended end:
${7:-}"
	ns=$(awk -v n="$name;" -v re="$OFFCPU_PIPE_READ" 'index($0, n) == 1 && $0 ~ re { s += $NF } END { printf "%d\n", s }' "$out")
	lo=$(((OFFCPU_READS - unended) * OFFCPU_READ_NS))
	if [ "$ns" -lt "$lo" ] || [ "$ns" -gt "$hi" ]; then
		fail "$what: $ns ns off the CPU in the pipe read, expected $lo to $hi (the reads' time):
$(grep -- "^$name;" "$out")
${7:-}"
	fi
	bad=$(grep -- "^$name;" "$out" | grep -E -- "$OFFCPU_PIPE_READ" |
		grep -Ev ';(__libc_|__GI___libc_)?read;(.*;)?vfs_read;(.*;)?(anon_)?pipe_read;(.*;)?__schedule [0-9]+$')
	[ -z "$bad" ] || fail "$what: a pipe read stack without libc's read, vfs_read or __schedule as its leaf: $bad"
	log "$what: $ns ns in the pipe read (the reads took $hi, $unended unended, the kernel saw $ended end): $(grep -- "^$name;" "$out" | grep -E -m1 -- "$OFFCPU_PIPE_READ" | cut -c1-200)"
}

# offcpu_check_json OUT NAME HI ENDED [HOST]: OUT is one {"offcpu":...} object (with HOST:
# an object {"host":HOST,"offcpu":...} among the lines), unit ns, NAME's time in the pipe
# read within offcpu_check's bounds (its unended count too), its total the sum of its
# stacks. Returns non-zero with Python's reason on stderr.
offcpu_check_json()
{
	python3 - "$1" "$2" "$OFFCPU_READS" "$OFFCPU_READ_NS" "$3" "$4" "${5:-}" <<'EOF'
import json, re, sys
path, name, reads, read_ns, hi, ended, host = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:7]), sys.argv[7]
lines = open(path).readlines()
objs = [json.loads(l) for l in lines if '"offcpu":' in l]
assert len(objs) == 1 and (host or len(lines) == 1), (len(objs), len(lines))
assert not host or objs[0]["host"] == host, objs[0].get("host")
p = objs[0]["offcpu"]
assert p["unended"] <= reads - ended + 1, ("unended", p["unended"], "the kernel saw end", ended)
lo = (reads - p["unended"]) * read_ns
assert p["unit"] == "ns" and p["via"] in ("tp_btf", "raw_tp", "tracepoint"), p
ns = sum(s["count"] for s in p["stacks"] if s["frames"][0] == name
         and any(re.fullmatch("(anon_)?pipe_read", f) for f in s["frames"]))
assert lo <= ns <= hi, (ns, lo, hi)
assert p["total"] == sum(s["count"] for s in p["stacks"]), p["total"]
EOF
}
