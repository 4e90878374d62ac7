# shellcheck shell=bash
# Helpers for the off-CPU profile's tests, sourced after lib.sh: the workload of known shape
# (workload block 200 5 NAME: 5 reads of a pipe, each answered 200 ms after the reader is
# seen off the CPU, then blocked_ns=<the reads' time>) and what ktop -b --off-cpu must say
# of it, locally (offcpu_sleep.sh) or through agents (remote_offcpu.sh).

OFFCPU_READS=5
OFFCPU_READ_NS=200000000
OFFCPU_PIPE_READ=';(anon_)?pipe_read;'

# offcpu_blocked_ns WL: the time the workload's reads took, as it printed it (the upper
# bound).
offcpu_blocked_ns()
{
	local ns
	ns=$(sed -n 's/^blocked_ns=//p' "$1")
	[ -n "$ns" ] || fail "the workload printed no blocked_ns=: $(cat "$1")"
	echo "$ns"
}

# offcpu_check WHAT FOLDED NAME UNENDED HI [CONTEXT]: NAME's folded stacks through the
# kernel's pipe read hold 1 s at least (less 200 ms for each stretch ktop reported
# unended), no more than HI (the reads' time), each under libc's read and vfs_read and
# ending at __schedule. CONTEXT goes with a failure.
offcpu_check()
{
	local what=$1 out=$2 name=$3 unended=$4 hi=$5 ns lo bad
	ns=$(awk -v n="$name;" -v re="$OFFCPU_PIPE_READ" 'index($0, n) == 1 && $0 ~ re { s += $NF } END { printf "%d\n", s }' "$out")
	lo=$(((OFFCPU_READS - unended) * OFFCPU_READ_NS))
	if [ "$ns" -lt "$lo" ] || [ "$ns" -gt "$hi" ]; then
		fail "$what: $ns ns off the CPU in the pipe read, expected $lo to $hi (the reads' time):
$(grep -- "^$name;" "$out")
${6:-}"
	fi
	bad=$(grep -- "^$name;" "$out" | grep -E -- "$OFFCPU_PIPE_READ" |
		grep -Ev ';(__libc_|__GI___libc_)?read;(.*;)?vfs_read;(.*;)?(anon_)?pipe_read;(.*;)?__schedule [0-9]+$')
	[ -z "$bad" ] || fail "$what: a pipe read stack without libc's read, vfs_read or __schedule as its leaf: $bad"
	log "$what: $ns ns in the pipe read (the reads took $hi, $unended unended): $(grep -- "^$name;" "$out" | grep -E -m1 -- "$OFFCPU_PIPE_READ" | cut -c1-200)"
}

# offcpu_check_json OUT NAME HI [HOST]: OUT is one {"offcpu":...} object (with HOST: an
# object {"host":HOST,"offcpu":...} among the lines), unit ns, NAME's time in the pipe read
# within offcpu_check's bounds, its total the sum of its stacks. Returns non-zero with
# Python's reason on stderr.
offcpu_check_json()
{
	python3 - "$1" "$2" "$OFFCPU_READS" "$OFFCPU_READ_NS" "$3" "${4:-}" <<'EOF'
import json, re, sys
path, name, reads, read_ns, hi, host = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6]), sys.argv[6]
lines = open(path).readlines()
objs = [json.loads(l) for l in lines if '"offcpu":' in l]
assert len(objs) == 1 and (host or len(lines) == 1), (len(objs), len(lines))
assert not host or objs[0]["host"] == host, objs[0].get("host")
p = objs[0]["offcpu"]
lo = (reads - p["unended"]) * read_ns
assert p["unit"] == "ns" and p["via"] in ("tp_btf", "raw_tp", "tracepoint"), p
ns = sum(s["count"] for s in p["stacks"] if s["frames"][0] == name
         and any(re.fullmatch("(anon_)?pipe_read", f) for f in s["frames"]))
assert lo <= ns <= hi, (ns, lo, hi)
assert p["total"] == sum(s["count"] for s in p["stacks"]), p["total"]
EOF
}
