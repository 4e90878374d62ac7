#!/bin/bash
# shellcheck disable=SC2317 # helpers called through wait_until
# shellcheck disable=SC2016 # 'exec "$0" "$@"' is for the shell capsh starts
# The privilege matrix (ktop.1, PRIVILEGES): with fewer privileges ktop does what it still
# can, and refuses the rest in one line that names the missing privilege, capability or
# sysctl and the way out, with exit status 3 and nothing on stdout:
#  - as nobody at kernel.perf_event_paranoid=2: -b --pmu -p of its own process counts its
#    user space as perf stat -p does (task-clock:u > 0, minor-faults:u >= the pages it
#    touched), context switches are n/a naming the sysctl; counting every CPU and counting
#    another user's process (-p 1) are refused;
#  - at paranoid=3, the same run agrees with the kernel, which a direct perf_event_open as
#    nobody asks (Debian's kernels forbid users everything at 3, others treat 3 as 2): it
#    counts, or it is refused naming the sysctl;
#  - as nobody: -b -i FILE prints the recording's events, the explorer shows it (tmux),
#    --doctor reports; live events, probes, BPF histograms and the explorer without -i are
#    refused, the explorer before curses starts;
#  - as root with only CAP_BPF and CAP_PERFMON, and as root without CAP_SYS_ADMIN: events,
#    a BPF histogram and counters all count a workload exactly; as nobody with CAP_BPF and
#    CAP_PERFMON, the histogram and the counters do, without tracefs;
#  - as root without CAP_BPF, or without CAP_PERFMON: --hist is refused naming the
#    capability, --pmu over every CPU naming the sysctl.
# kernel.perf_event_paranoid is the machine's: each change is put back as soon as its runs
# are done, and by the clean-up on every exit path.
set -u
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
require_workload
require_tmux
require_python
command -v capsh >/dev/null 2>&1 || skip "needs capsh (apt-get install libcap2-bin)"
command -v setpriv >/dev/null 2>&1 || skip "needs setpriv (util-linux)"
command -v script >/dev/null 2>&1 || skip "needs script (util-linux)"

PAGES=${KTOP_PRIV_PAGES:-5000}
CALLS=${KTOP_PRIV_CALLS:-2000}
NOBODY=65534
FIXTURE=$KTOP_SRCDIR/tests/fixtures/lab/kprobe.dat

# nobody's own directory: $T is root's (0700), and so may be the build tree; nobody runs
# copies of ktop and the workload, and reads a copy of the recording.
chmod 711 "$T"
NB=$T/nobody
mkdir -p "$NB/config"
cp "$KTOP" "$NB/ktop"
cp "$KTOP_WORKLOAD_BIN" "$NB/workload"
cp "$FIXTURE" "$NB/rec.dat"
chown -R "$NOBODY:$NOBODY" "$NB"
KTOP=$NB/ktop
# (a PATH without root's own directories: python3 may be a shim there)
AS_NOBODY=(XDG_CONFIG_HOME="$NB/config" PATH=/usr/local/bin:/usr/bin:/bin setpriv "--reuid=$NOBODY" "--regid=$NOBODY"
	--clear-groups --inh-caps=-all)
# root (uid 0) with no capability but these two: the kernel gives root no others at exec
# shellcheck disable=SC2054 # the commas are capsh's
ONLY_BPF_PERFMON=(capsh --secbits=0x2f '--caps=cap_bpf,cap_perfmon+eip'
	--addamb=cap_bpf,cap_perfmon -- -c 'exec "$0" "$@"')
without() { WITHOUT=(capsh "--drop=$1" -- -c 'exec "$0" "$@"'); }

# The value column of a counter in the pmu table ("n/a" when unavailable), and its line.
value() { awk -v n="$2" '$1 == n { print $2; exit }' "$1"; }
line() { awk -v n="$2" '$1 == n { print; exit }' "$1"; }

_counting() { [ "$(perf_counter_fds "$1")" -gt 0 ] || ! pid_alive "$1"; }

# count_own OUT ERR: nobody's workload touches PAGES pages while nobody's ktop counts it
# with -b --pmu -p; KTOP_RC is ktop's status (3 when refused at once).
count_own()
{
	local out=$1 err=$2 wl
	rm -f "$NB/go" "$NB/touch.wl"
	env "${AS_NOBODY[@]}" env ASAN_OPTIONS=detect_leaks=0 WORKLOAD_GO="$NB/go" \
		"$NB/workload" touch "$PAGES" ktop-priv-touch >"$NB/touch.wl" &
	CLEANUP_PIDS+=("$!")
	wait_until 5 has_line "$NB/touch.wl" || fail "workload touch printed no pid"
	wl=$(head -n1 "$NB/touch.wl")
	KTOP_ENV=("${AS_NOBODY[@]}")
	start_ktop "$out" "$err" -b --pmu -p "$wl" --duration 60
	KTOP_ENV=()
	wait_until 15 _counting "$KTOP_PID" || fail "nobody's ktop opened no counter in 15s"
	if ! pid_alive "$KTOP_PID"; then
		wait_pid_exit "$KTOP_PID" 5
		KTOP_RC=$WAIT_RC
		return
	fi
	touch "$NB/go"
	wait_until 30 _pid_gone "$wl" || fail "workload touch $PAGES did not finish"
	stop_ktop "$KTOP_PID" INT 15
}

# check_own OUT ERR WHAT PARANOID: count_own's table: user space counted, the kernel's part
# named as hidden.
check_own()
{
	local out=$1 err=$2 what=$3 tc mf
	[ "$KTOP_RC" = 0 ] || fail "$what: exit $KTOP_RC; stderr: $(head -c 600 "$err")"
	[ -s "$err" ] && fail "$what: stderr: $(head -c 600 "$err")"
	tc=$(value "$out" task-clock:u)
	mf=$(value "$out" minor-faults:u)
	{ [[ $tc =~ ^[0-9]+$ ]] && [ "$tc" -gt 0 ]; } || fail "$what: task-clock:u is '$tc': $(head -8 "$out")"
	{ [[ $mf =~ ^[0-9]+$ ]] && [ "$mf" -ge "$PAGES" ]; } ||
		fail "$what: minor-faults:u '$mf' < $PAGES pages touched: $(line "$out" minor-faults:u)"
	[[ $(line "$out" context-switches) == *"n/a  counted only in the kernel, which kernel.perf_event_paranoid=$4 hides from users without CAP_PERFMON"* ]] ||
		fail "$what: context-switches: '$(line "$out" context-switches)'"
	tail -n1 "$out" | grep -q '^# ktop: events=0 ' || fail "$what: no summary last"
	log "$what: task-clock:u=$tc minor-faults:u=$mf ($PAGES pages), context-switches n/a"
}

tracefs_mode=$(printf '%04o' "0$(stat -c %a "$TRACEFS")")
NO_TRACEFS="cannot use tracefs at $TRACEFS: Permission denied (its owner is uid 0, mode $tracefs_mode, and no capability but CAP_DAC_OVERRIDE opens it: run ktop as root); without root, ktop counts your own processes (ktop -b --pmu -p PID) and reads recordings (ktop -i FILE)"
NO_BPF="not permitted: BPF tracing programs need CAP_BPF and CAP_PERFMON, and ktop lacks"

# ---- paranoid=2 ------------------------------------------------------------------------
set_sysctl kernel.perf_event_paranoid 2
count_own "$T/own2.out" "$T/own2.err"
check_own "$T/own2.out" "$T/own2.err" "nobody, paranoid=2, -b --pmu -p own" 2
refused "nobody, paranoid=2, --pmu every CPU" \
	"ktop: --pmu: not permitted (EACCES: kernel.perf_event_paranoid=2 and no CAP_PERFMON, which counting a whole CPU needs" \
	"${AS_NOBODY[@]}" :: -b --pmu --duration 5
refused "nobody, paranoid=2, --pmu -p 1" \
	"ktop: --pmu: not permitted: pid 1 is not this user's (perf counts another user's process only with CAP_PERFMON" \
	"${AS_NOBODY[@]}" :: -b --pmu -p 1 --duration 5
without cap_sys_admin,cap_perfmon
refused "root without CAP_PERFMON, paranoid=2, --pmu every CPU" \
	"ktop: --pmu: not permitted (EACCES: kernel.perf_event_paranoid=2 and no CAP_PERFMON, which counting a whole CPU needs" \
	"${WITHOUT[@]}" :: -b -q --pmu --duration 5
restore_sysctls

# ---- paranoid=3: ktop agrees with the kernel -------------------------------------------
# A user-space task-clock of its own, opened directly: "ok" or the errno's name.
ORACLE='
import ctypes, errno, os
attr = (ctypes.c_uint64 * 16)()
attr[0] = 1 | (128 << 32)            # type PERF_TYPE_SOFTWARE, size
attr[1] = 1                          # PERF_COUNT_SW_TASK_CLOCK
attr[5] = (1 << 5) | (1 << 6)        # exclude_kernel, exclude_hv
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.syscall(298, attr, 0, -1, -1, 0)
print("ok" if fd >= 0 else errno.errorcode[ctypes.get_errno()])
'
set_sysctl kernel.perf_event_paranoid 3
kernel3=$(env "${AS_NOBODY[@]}" python3 -c "$ORACLE")
count_own "$T/own3.out" "$T/own3.err"
restore_sysctls
log "paranoid=3: a user's own perf_event_open says $kernel3"
case $kernel3 in
ok)
	check_own "$T/own3.out" "$T/own3.err" "nobody, paranoid=3 (as 2 on this kernel), -b --pmu -p own" 3 ;;
EACCES | EPERM)
	cp "$T/own3.out" "$T/r.out"
	cp "$T/own3.err" "$T/r.err"
	expect_refusal "nobody, paranoid=3 (users forbidden here), -b --pmu -p own" \
		"not permitted: kernel.perf_event_paranoid=3 forbids perf_event_open to users without CAP_PERFMON (sysctl kernel.perf_event_paranoid=2 lets users count their own processes" ;;
*)
	fail "paranoid=3: perf_event_open as nobody failed with $kernel3" ;;
esac

# ---- nobody: what needs tracefs or BPF is refused; -i and --doctor work -----------------
refused "nobody, -e" "ktop: $NO_TRACEFS" "${AS_NOBODY[@]}" :: -b -e sched:sched_switch --duration 5
refused "nobody, --uprobe" "ktop: $NO_TRACEFS" "${AS_NOBODY[@]}" :: -b --uprobe "$NB/workload:main" --duration 5
refused "nobody, --hist" "ktop: syscall-latency: $NO_BPF both (run ktop as root, or give it both: setcap cap_bpf,cap_perfmon+ep)" \
	"${AS_NOBODY[@]}" :: -b --hist syscall-latency --duration 5

# The explorer on a terminal: refused before curses starts (no alternate screen).
TERM=xterm script -qec "env ${AS_NOBODY[*]} $KTOP" /dev/null </dev/null >"$T/ui.raw" 2>&1
rc=$?
[ "$rc" = 3 ] || fail "nobody's explorer exited $rc, expected 3: $(head -c 400 "$T/ui.raw")"
grep -q $'\e\\[?1049h' "$T/ui.raw" && fail "nobody's explorer switched to the alternate screen before refusing"
tr -d '\r' <"$T/ui.raw" >"$T/ui.txt"
{ [ "$(wc -l <"$T/ui.txt")" = 1 ] && grep -qF "ktop: $NO_TRACEFS" "$T/ui.txt"; } ||
	fail "nobody's explorer: '$(cat "$T/ui.txt")'"
log "nobody, explorer: exit 3 before curses"

KTOP_ENV=("${AS_NOBODY[@]}")
run_ktop 30 "$T/rec.out" "$T/rec.err" -b -q -i "$NB/rec.dat"
KTOP_ENV=()
want=$(grep -vc '^cpus=' "${FIXTURE%.dat}.report")
[ "$KTOP_RC" = 0 ] || fail "nobody, -b -i: exit $KTOP_RC: $(head -c 400 "$T/rec.err")"
[ -s "$T/rec.err" ] && fail "nobody, -b -i: stderr: $(head -c 400 "$T/rec.err")"
grep -q "^# ktop: events=$want " "$T/rec.out" ||
	fail "nobody, -b -i: not events=$want (trace-cmd report's count): $(cat "$T/rec.out")"
log "nobody, -b -i: events=$want, as trace-cmd report"

KTOP_ENV=("${AS_NOBODY[@]}")
run_ktop 60 "$T/doc.out" "$T/doc.err" --doctor
KTOP_ENV=()
[ "$KTOP_RC" = 1 ] || fail "nobody, --doctor: exit $KTOP_RC, expected 1 (tracing unusable)"
[ -s "$T/doc.err" ] && fail "nobody, --doctor: stderr: $(head -c 400 "$T/doc.err")"
grep -q "^no   root: euid $NOBODY: tracefs is root's, no capability but CAP_DAC_OVERRIDE opens it (run ktop as root" "$T/doc.out" ||
	fail "nobody, --doctor: root line '$(grep root: "$T/doc.out")'"
grep -q "^ok   perf_event_paranoid: " "$T/doc.out" || grep -q "^no   perf_event_paranoid: .*sysctl" "$T/doc.out" ||
	fail "nobody, --doctor: no perf_event_paranoid line"
log "nobody, --doctor: exit 1, $(wc -l <"$T/doc.out") lines"

cat >"$NB/ktop-as-nobody" <<EOF
#!/bin/sh
exec env ${AS_NOBODY[*]} $KTOP "\$@"
EOF
chmod 755 "$NB/ktop-as-nobody"
KTOP=$NB/ktop-as-nobody tmux_start 100 30 -- -i "$NB/rec.dat"
expect_text 'open_ret' 15 "nobody's explorer does not show the recording's open_ret events"
tmux_keys q
tmux_wait_exit 15 || fail "nobody's explorer on -i did not exit on q"
[ "$PANE_RC" = 0 ] || fail "nobody's explorer on -i exited $PANE_RC"
assert_terminal_restored
log "nobody, explorer -i: the recording shown, q exits 0"

# ---- root without CAP_SYS_ADMIN, with CAP_BPF and CAP_PERFMON: everything counts -----------
without cap_sys_admin
for who in only_bpf_perfmon no_sys_admin; do
	if [ "$who" = only_bpf_perfmon ]; then KTOP_ENV=("${ONLY_BPF_PERFMON[@]}")
	else KTOP_ENV=("${WITHOUT[@]}"); fi
	# cnt.wl too: the shell truncates it in the child, maybe after the wait below has read
	# the last run's pid from it
	rm -f "$T/go" "$T/cnt.wl"
	WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" count "$CALLS" ktop-priv-cnt >"$T/cnt.wl" &
	CLEANUP_PIDS+=("$!")
	wait_until 5 has_line "$T/cnt.wl" || fail "workload count printed no pid"
	wl=$(head -n1 "$T/cnt.wl")
	start_ktop "$T/$who.out" "$T/$who.err" -b -q -e syscalls:sys_enter_getppid -p "$wl" \
		--hist "syscall-latency,pid=$wl" --pmu --duration 60
	KTOP_ENV=()
	kp=$KTOP_PID
	wait_capturing "$kp" syscalls sys_enter_getppid
	wait_until 15 _counting "$kp" || fail "$who: no counter opened in 15s"
	pid_alive "$kp" || fail "$who: ktop exited: $(head -c 400 "$T/$who.err")"
	caps=$(awk '/^CapEff:/ { print $2 }' "/proc/$kp/status")
	touch "$T/go"
	wait_until 30 _pid_gone "$wl" || fail "$who: workload count did not finish"
	stop_ktop "$kp" INT 15
	[ "$KTOP_RC" = 0 ] || fail "$who: exit $KTOP_RC: $(head -c 600 "$T/$who.err")"
	[ -s "$T/$who.err" ] && fail "$who: stderr: $(head -c 600 "$T/$who.err")"
	grep -q "^# ktop: events=$CALLS " "$T/$who.out" ||
		fail "$who: not events=$CALLS: $(tail -n1 "$T/$who.out")"
	missed=$(sed -n 's/^# hist syscall-latency.* missed=\([0-9]*\).*/\1/p' "$T/$who.out")
	n=$(sed -n 's/^key getppid count=\([0-9]*\) .*/\1/p' "$T/$who.out")
	{ [[ $n =~ ^[0-9]+$ ]] && [ "$n" -le "$CALLS" ] && [ "$n" -ge $((CALLS - ${missed:-0})) ]; } ||
		fail "$who: getppid count '$n' of $CALLS (missed=${missed:-?}): $(grep -m3 '^# hist\|^key' "$T/$who.out")"
	tc=$(value "$T/$who.out" task-clock)
	{ [[ $tc =~ ^[0-9]+$ ]] && [ "$tc" -gt 0 ]; } || fail "$who: task-clock '$tc'"
	log "$who (CapEff $caps): events=$CALLS, getppid latencies $n (missed ${missed:-0}), task-clock=$tc"
done

# ---- nobody with CAP_BPF and CAP_PERFMON: no tracefs, but histograms and counters --------
# shellcheck disable=SC2054 # the commas are capsh's
NB_BPF_PERFMON=(capsh '--caps=cap_bpf,cap_perfmon+eip cap_setpcap,cap_setuid,cap_setgid+ep'
	--keep=1 --user=nobody --addamb=cap_bpf,cap_perfmon -- -c 'exec "$0" "$@"')
rm -f "$T/go" "$T/cnt.wl"
WORKLOAD_GO="$T/go" "$KTOP_WORKLOAD" count "$CALLS" ktop-priv-cnt >"$T/cnt.wl" &
CLEANUP_PIDS+=("$!")
wait_until 5 has_line "$T/cnt.wl" || fail "workload count printed no pid"
wl=$(head -n1 "$T/cnt.wl")
KTOP_ENV=(XDG_CONFIG_HOME="$NB/config" "${NB_BPF_PERFMON[@]}")
start_ktop "$T/nbcap.out" "$T/nbcap.err" -b -q --hist "syscall-latency,pid=$wl" --pmu -p "$wl" --duration 60
KTOP_ENV=()
kp=$KTOP_PID
# the counters open after the histogram is attached
wait_until 15 _counting "$kp" || fail "nobody with CAP_BPF, CAP_PERFMON: no counter opened in 15s"
pid_alive "$kp" || fail "nobody with CAP_BPF, CAP_PERFMON: ktop exited: $(head -c 400 "$T/nbcap.err")"
touch "$T/go"
wait_until 30 _pid_gone "$wl" || fail "workload count did not finish"
stop_ktop "$kp" INT 15
[ "$KTOP_RC" = 0 ] || fail "nobody with CAP_BPF, CAP_PERFMON: exit $KTOP_RC: $(head -c 600 "$T/nbcap.err")"
[ -s "$T/nbcap.err" ] && fail "nobody with CAP_BPF, CAP_PERFMON: stderr: $(head -c 600 "$T/nbcap.err")"
missed=$(sed -n 's/^# hist syscall-latency.* missed=\([0-9]*\).*/\1/p' "$T/nbcap.out")
n=$(sed -n 's/^key getppid count=\([0-9]*\) .*/\1/p' "$T/nbcap.out")
{ [[ $n =~ ^[0-9]+$ ]] && [ "$n" -le "$CALLS" ] && [ "$n" -ge $((CALLS - ${missed:-0})) ]; } ||
	fail "nobody with CAP_BPF, CAP_PERFMON: getppid count '$n' of $CALLS (missed=${missed:-?})"
tc=$(value "$T/nbcap.out" task-clock)
{ [[ $tc =~ ^[0-9]+$ ]] && [ "$tc" -gt 0 ]; } || fail "nobody with CAP_BPF, CAP_PERFMON: task-clock '$tc'"
log "nobody with CAP_BPF, CAP_PERFMON: getppid latencies $n (missed ${missed:-0}), task-clock=$tc (kernel included)"

# ---- root without CAP_BPF or without CAP_PERFMON: histograms refused ----------------------
without cap_sys_admin,cap_bpf
refused "root without CAP_BPF, --hist" "ktop: syscall-latency: $NO_BPF CAP_BPF (run ktop as root" \
	"${WITHOUT[@]}" :: -b -q --hist syscall-latency --duration 5
without cap_sys_admin,cap_perfmon
refused "root without CAP_PERFMON, --hist" "ktop: syscall-latency: $NO_BPF CAP_PERFMON (run ktop as root" \
	"${WITHOUT[@]}" :: -b -q --hist syscall-latency --duration 5

assert_clean
pass
