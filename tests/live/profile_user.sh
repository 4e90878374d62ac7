#!/bin/bash
# The profile without privileges, on the real kernel, at kernel.perf_event_paranoid=2 (the
# usual default; set for the test and put back when it was not):
#  - as nobody, -b --profile -p of nobody's own process samples its user space, as
#    perf record -p does then: exit 0, the event named cpu-clock:u (or cycles:u), the
#    workload's functions named, no kernel frame;
#  - as nobody, a profile of every CPU is refused in one line naming the sysctl and the way
#    out, exit 3, nothing on stdout.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source-path=SCRIPTDIR source=../profile-lib.sh
. "$(dirname "$0")/../profile-lib.sh"
require_root_tracefs
require_profwork
command -v setpriv >/dev/null 2>&1 || skip "needs setpriv (util-linux)"

NOBODY=65534
# $T is root's (0700), and so may be the build tree: nobody runs copies
chmod 711 "$T"
NB=$T/nobody
mkdir -p "$NB/config"
cp "$KTOP" "$NB/ktop"
cp "$KTOP_PROFWORK" "$NB/profwork"
chown -R "$NOBODY:$NOBODY" "$NB"
AS_NOBODY=(XDG_CONFIG_HOME="$NB/config" PATH=/usr/local/bin:/usr/bin:/bin setpriv
	"--reuid=$NOBODY" "--regid=$NOBODY" --clear-groups --inh-caps=-all)
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" = 2 ] || set_sysctl kernel.perf_event_paranoid 2

env "${AS_NOBODY[@]}" "$NB/profwork" split 60 >"$NB/work.out" 2>&1 &
WL=$!
CLEANUP_PIDS+=("$WL")
wait_until 10 grep -q '^ready$' "$NB/work.out" || fail "nobody's profwork did not start"

KTOP_ENV=("${AS_NOBODY[@]}")
PROFWORK_PID=$WL
profile_cpu 1 "$T/own" "$T/own.err" -b --profile -p "$WL" --folded
[ "$KTOP_RC" = 0 ] || fail "nobody's profile of its own process exited $KTOP_RC: $(head -c 400 "$T/own.err")"
grep -Eq '^ktop: profile: event=(cpu-clock|cycles):u ' "$T/own.err" ||
	fail "the event is not named user-only: $(head -c 300 "$T/own.err")"
n=$(samples "$T/own" profwork)
[ "$n" -ge 20 ] || fail "only $n samples of nobody's profwork"
s70=$(share "$T/own" profwork hot_seventy)
log "nobody: $n samples, hot_seventy $s70%; $(cat "$T/own.err")"
awk -v a="$s70" 'BEGIN { exit !(a >= 50) }' || fail "hot_seventy only $s70%: $(head -3 "$T/own")"
grep -Eq ';(entry_SYSCALL_64[a-z_]*|do_syscall_64|asm_sysvec_[a-z_]*)( |;)' "$T/own" &&
	fail "kernel frames in a user-only profile: $(grep -E 'do_syscall_64|asm_sysvec' "$T/own" | head -2)"

run_ktop 60 "$T/all" "$T/all.err" -b --profile --duration 1 --folded
KTOP_ENV=()
[ "$KTOP_RC" = 3 ] || fail "nobody's profile of every CPU exited $KTOP_RC, not 3: $(head -c 400 "$T/all.err")"
[ "$(wc -l <"$T/all.err")" = 1 ] || fail "not one line: $(cat "$T/all.err")"
grep -q 'kernel.perf_event_paranoid=2' "$T/all.err" || fail "no sysctl named: $(cat "$T/all.err")"
[ ! -s "$T/all" ] || fail "stdout not empty: $(head -c 200 "$T/all")"
log "every CPU: $(cat "$T/all.err")"

_end_pid "$WL"
restore_sysctls
assert_clean
pass
