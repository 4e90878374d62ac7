#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# Stacks on events in batch mode (--stack): a workload makes exactly N getppid() calls under
# its own name; ktop -b --stack syscalls:sys_enter_getppid, filtered to that name, must
#   1. (text) print N getppid rows, each followed by its kernel stack (" => " lines, innermost
#      first) holding the syscall entry path, and no kernel_stack rows of their own; the
#      summary counts N stack records; the stacktrace trigger is in ktop's instance while it
#      runs and the instance is gone after (the kernel-state contract);
#   2. (--json) carry each stack as a "stack" array of named frames, on each of the N rows;
#   3. (--folded) fold them: lines "comm;outermost;...;innermost COUNT" whose counts add up to
#      N, every one from the syscall entry (entry_SYSCALL_64...) through do_syscall_64;
#   4. the run of 1 recorded with -o: ktop -b -i shows the same rows with their stacks, and
#      folds them the same;
#   5. (--user-stacks) the instance's userstacktrace option: each row also carries its
#      task's user stack, its innermost frame named (libc's syscall()) while the task runs;
#   6. and after it exited: processes gone before their rows are printed keep them named
#      (perf's side band of mappings, as the profile keeps its samples' names).
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload

N=25
NAME=kts-stack
EV=syscalls:sys_enter_getppid
TRIG_RE='^stacktrace:unlimited'

trigger_file() { echo "$(instance_dir "$1")/events/syscalls/sys_enter_getppid/trigger"; }
trigger_set() { grep -Eq -- "$TRIG_RE" "$(trigger_file "$1")" 2>/dev/null; }

# run OUT ARGS...: ktop -b --stack EV (filtered to the workload's name) with ARGS, the
# workload's N calls while the trigger is in place, then SIGINT.
run()
{
	local out=$1
	shift
	start_ktop "$T/$out" "$T/$out.err" -b --stack "$EV" --filter "comm == \"$NAME\"" "$@"
	kpid=$KTOP_PID
	wait_capturing "$kpid" syscalls sys_enter_getppid
	wait_until 15 trigger_set "$kpid" ||
		fail "no stacktrace trigger on $EV in ktop-$kpid: $(cat "$(trigger_file "$kpid")" 2>&1)"
	wl=$("$KTOP_WORKLOAD" count "$N" "$NAME")
	"$KTOP_WORKLOAD" count 300 kts-filler >/dev/null
	stop_ktop "$kpid" INT 30
	[ "$KTOP_RC" = 0 ] || fail "ktop $* exited $KTOP_RC: $(head -c 400 "$T/$out.err")"
	assert_no_sanitizer "$T/$out.err"
	assert_clean
}

# check_text FILE WHAT: N getppid rows of the workload, each followed by its stack holding
# the syscall entry path, and no stack record printed as a row of its own.
check_text()
{
	local rows bare nopath
	rows=$(grep -Ec -- " $NAME-$wl +$EV:" "$1")
	[ "$rows" = "$N" ] || fail "$2: $rows getppid rows of $NAME-$wl, expected $N: $(head -5 "$1")"
	grep -q "ftrace:kernel_stack" "$1" &&
		fail "$2: stack records printed as rows of their own: $(grep -m2 kernel_stack "$1")"
	# Per row: how many frames follow it, and whether the syscall entry path is among them.
	awk -v ev=" $EV:" '
		index($0, ev) { if (n) print frames, path; n++; frames = 0; path = 0; next }
		/^ => / { frames++; if ($2 ~ /^do_syscall_64\+0x[0-9a-f]+(\/0x[0-9a-f]+)?$/) path = 1; next }
		/^#/ { next }
		{ if (n) print frames, path; n = 0 }
		END { if (n) print frames, path }' "$1" >"$T/per_row"
	[ "$(wc -l <"$T/per_row")" = "$N" ] || fail "$2: $(wc -l <"$T/per_row") rows read back, expected $N"
	bare=$(awk '$1 == 0' "$T/per_row" | wc -l)
	[ "$bare" = 0 ] || fail "$2: $bare of $N rows without a stack: $(head -20 "$1")"
	nopath=$(awk '$2 == 0' "$T/per_row" | wc -l)
	[ "$nopath" = 0 ] || fail "$2: $nopath of $N stacks without do_syscall_64+OFF[/SIZE]: $(head -20 "$1")"
	log "$2: $N rows, each with its stack ($(awk '{ s += $1 } END { print s / NR }' "$T/per_row") frames on average)"
}

# check_folded FILE WHAT: lines "comm;outermost;...;innermost COUNT" adding up to N.
check_folded()
{
	grep -v '^#' "$1" >"$T/lines"
	awk -v name="$NAME" -v want="$N" '
		{ count = $NF; stack = $0; sub(/ [0-9]+$/, "", stack); n = split(stack, f, ";") }
		f[1] != name { print "a line not under " name ": " $0; bad = 1; next }
		stack !~ /;do_syscall_64;/ { print "not through do_syscall_64: " $0; bad = 1 }
		f[2] !~ /^entry_SYSCALL_64/ { print "the root is not the syscall entry: " $0; bad = 1 }
		{ total += count }
		END { if (total != want) { print "folded counts add up to " total; bad = 1 }
		      exit bad }' "$T/lines" || fail "$2: folded output: $(head -5 "$1")"
	log "$2: $(wc -l <"$T/lines") distinct stacks, $N events"
}

# ---- 1. text: each row, then its stack; recorded (-o) as it goes -----------------------------
run text -o "$T/s.dat"
recorded=$wl
check_text "$T/text" text
grep -qx "# ktop: stacks=$N (kernel and user stack records, each printed with its event)" \
	"$T/text" || fail "the summary does not count $N stack records: $(grep '^#' "$T/text")"

# ---- 2. --json: a stack array on each row ---------------------------------------------------
run json --json
python3 - "$T/json" "$wl" "$N" <<'EOF' || fail "--json stacks check failed (see above)"
import json, sys

path, wl, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = with_path = 0
for line in open(path):
    o = json.loads(line)
    if o.get("event") != "syscalls:sys_enter_getppid" or o.get("pid") != wl:
        continue
    rows += 1
    st = o.get("stack")
    if not isinstance(st, list) or not st:
        sys.exit(f"row without a stack array: {line.strip()}")
    for f in st:
        if set(f) != {"addr", "name", "kind"} or not f["addr"].startswith("0x"):
            sys.exit(f"malformed frame {f} in {line.strip()}")
    if any(f["name"] == "do_syscall_64" and f["kind"] == "kernel" for f in st):
        with_path += 1
if (rows, with_path) != (n, n):
    sys.exit(f"{rows} rows, {with_path} with do_syscall_64 in their stack; expected {n}, {n}")
EOF
log "json: $N rows with a stack array"

# ---- 3. --folded -----------------------------------------------------------------------------
run folded --folded
check_folded "$T/folded" folded

# ---- 4. the recording: the same stacks under the same rows, and folded ------------------------
run_ktop 60 "$T/replay" "$T/replay.err" -b -i "$T/s.dat"
[ "$KTOP_RC" = 0 ] || fail "ktop -b -i exited $KTOP_RC: $(head -c 400 "$T/replay.err")"
wl=$recorded
check_text "$T/replay" "-i"
run_ktop 60 "$T/replay.folded" "$T/replay.err" -b -i "$T/s.dat" --folded
[ "$KTOP_RC" = 0 ] || fail "ktop -b -i --folded exited $KTOP_RC: $(head -c 400 "$T/replay.err")"
check_folded "$T/replay.folded" "-i --folded"

# check_user FILE ROWS ALL: at least ROWS getppid rows in FILE (--json), each with its kernel
# stack then user frames; ALL=1: every row's innermost user frame is named syscall (libc's),
# else at least one.
check_user()
{
	python3 - "$@" <<'EOF' || fail "--user-stacks check of $1 failed (see above)"
import json, sys

path, want, every = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
rows = named = 0
unnamed = None
for line in open(path):
    o = json.loads(line)
    if o.get("event") != "syscalls:sys_enter_getppid":
        continue
    rows += 1
    st = o.get("stack") or []
    kernel = [i for i, f in enumerate(st) if f["kind"] == "kernel"]
    if not kernel:
        sys.exit(f"a row without its kernel stack: {line.strip()}")
    user = [f for f in st[kernel[-1] + 1:] if int(f["addr"], 16) < 1 << 47]
    if not user:
        sys.exit(f"a row without user frames after its kernel ones: {line.strip()}")
    if user[0]["kind"] == "user" and user[0]["name"] == "syscall":
        named += 1
    else:
        unnamed = user[0]
if rows < want or not named or (every and named < rows):
    sys.exit(f"{rows} rows (want {want}), {named} with their innermost user frame named "
             f"syscall; one not: {unnamed}")
print(f"{rows} rows with user frames, {named} named")
EOF
}

# ---- 5. --user-stacks: the task's user stack after its kernel stack ---------------------------
# A workload that lives for 3 s (its mappings name its frames while it runs; batch prints
# each second): every row carries user frames, the innermost in libc's syscall().
start_ktop "$T/user" "$T/user.err" -b --json --stack "$EV" --user-stacks \
	--filter 'comm == "kts-user"'
kpid=$KTOP_PID
wait_capturing "$kpid" syscalls sys_enter_getppid
wait_until 15 trigger_set "$kpid" || fail "no stacktrace trigger with --user-stacks"
[ "$(cat "$(instance_dir "$kpid")/options/userstacktrace")" = 1 ] ||
	fail "--user-stacks did not set the instance's userstacktrace option"
WORKLOAD_CPU=any "$KTOP_WORKLOAD" rate 20 3 kts-user >/dev/null
stop_ktop "$kpid" INT 30
[ "$KTOP_RC" = 0 ] || fail "ktop --user-stacks exited $KTOP_RC: $(head -c 400 "$T/user.err")"
assert_no_sanitizer "$T/user.err"
assert_clean
check_user "$T/user" 20 0

# ---- 6. --user-stacks, processes gone before their rows are printed ------------------------
# Three workloads that make their N calls and exit at once, started after ktop: batch
# prints a second later, when /proc has nothing of them; perf's side band (their execs and
# mappings) still names every row's innermost user frame.
start_ktop "$T/gone" "$T/gone.err" -b --json --stack "$EV" --user-stacks \
	--filter 'comm == "kts-gone"'
kpid=$KTOP_PID
wait_capturing "$kpid" syscalls sys_enter_getppid
wait_until 15 trigger_set "$kpid" || fail "no stacktrace trigger with --user-stacks"
for _ in 1 2 3; do
	"$KTOP_WORKLOAD" count "$N" kts-gone >/dev/null
done
stop_ktop "$kpid" INT 30
[ "$KTOP_RC" = 0 ] || fail "ktop --user-stacks exited $KTOP_RC: $(head -c 400 "$T/gone.err")"
assert_no_sanitizer "$T/gone.err"
assert_clean
check_user "$T/gone" $((3 * N)) 1
pass
