# shellcheck shell=bash
# Helpers for the profile tests, sourced after lib.sh: the workloads of known CPU shape
# (tests/helpers/profwork.c), waiting for ktop to sample, and shares of functions in folded
# stacks (ktop's, or perf script's folded the way stackcollapse-perf folds them).

KTOP_PROFWORK=${KTOP_PROFWORK:-$(dirname "$KTOP_WORKLOAD_BIN")/profwork}

require_profwork()
{
	[ -x "$KTOP_PROFWORK" ] || fail "no workload helper at '$KTOP_PROFWORK' (make check builds it)"
}

# What the flame graph pane's tests on a live profile need: root, tracefs, tmux, profwork.
require_flame_live()
{
	require_root_tracefs
	require_tmux
	require_profwork
}

# flame_root_total: the samples under the flame pane's root, from its status line while
# the root is selected.
# shellcheck disable=SC2119 # the whole screen, no capture options
flame_root_total() { tmux_screen | sed -n 's/^all  total \([0-9]*\) samples.*/\1/p'; }
_flame_total_at_least() { local t; t=$(flame_root_total); [ -n "$t" ] && [ "$t" -ge "$1" ]; }

# start_profwork OUT ARGS...: a workload in the background, pid in PROFWORK_PID, returns
# once it printed "ready" (it starts its work right after).
PROFWORK_PID=
_ready() { grep -q '^ready$' "$1"; }
start_profwork()
{
	local out=$1
	shift
	"$KTOP_PROFWORK" "$@" >"$out" 2>&1 &
	PROFWORK_PID=$!
	CLEANUP_PIDS+=("$PROFWORK_PID")
	wait_until 10 _ready "$out" || fail "profwork $* did not start: $(head -c 300 "$out")"
}

# start_profwork_as NAME OUT ARGS...: start_profwork under a task name of the test's own
# (through a link of that name: other tests' profwork processes may be running beside it).
start_profwork_as()
{
	local name=$1
	shift
	ln -sf "$KTOP_PROFWORK" "$T/$name" || fail "cannot link $T/$name"
	KTOP_PROFWORK=$T/$name start_profwork "$@"
}

# wait_sampling PID: until ktop PID mapped a sample ring on every online CPU.
_sampling()
{
	local rings
	rings=$(grep -c 'perf_event' "/proc/$1/maps" 2>/dev/null)
	[ "${rings:-0}" -ge "$(nproc)" ] || ! pid_alive "$1"
}
wait_sampling()
{
	wait_until 20 _sampling "$1" || fail "ktop $1 mapped no sample rings within 20s"
	pid_alive "$1" || fail "ktop $1 exited before sampling; stderr: $(head -c 400 "$2")"
}

# profile_cpu CPU_SECS OUT ERR ARGS...: ktop ARGS (a batch profile) from its first sample
# ring until profwork has run CPU_SECS more seconds of CPU, then SIGINT (status in
# KTOP_RC). A wall-clock --duration gives a workload on a loaded machine a fraction of a CPU
# and the test too few samples; CPU time is what the samples measure. STOP_ALSO: pids to
# SIGINT at the same moment (perf record over the same window). ktop's anonymous memory
# (RssAnon, kB, /proc/PID/status) once its ring is mapped and just before the SIGINT, in
# PROFILE_ANON0 and PROFILE_ANON1: what its profile took, by the kernel's count; profwork's
# cpu_ticks before ktop started and just before the SIGINT in PROFILE_CPU0 and PROFILE_CPU1
# (samples_at_most).
STOP_ALSO=()
rss_anon_kb() { awk '$1 == "RssAnon:" { print $2 }' "/proc/$1/status" 2>/dev/null; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
_mapped_ring() { grep -q 'perf_event' "/proc/$1/maps" 2>/dev/null || ! pid_alive "$1"; }
_ran_cpu() { [ "$(cpu_ticks "$1")" -ge "$2" ] || ! pid_alive "$1" || ! pid_alive "$3"; }
profile_cpu()
{
	local secs=$1 out=$2 err=$3 until p
	shift 3
	PROFILE_CPU0=$(cpu_ticks "$PROFWORK_PID")
	start_ktop "$out" "$err" "$@" --duration 600
	wait_until 20 _mapped_ring "$KTOP_PID" || fail "ktop mapped no sample ring within 20s"
	pid_alive "$KTOP_PID" || fail "ktop exited before sampling: $(head -c 400 "$err")"
	PROFILE_ANON0=$(rss_anon_kb "$KTOP_PID")
	until=$(awk -v t="$(cpu_ticks "$PROFWORK_PID")" -v s="$secs" -v hz="$(getconf CLK_TCK)" \
		'BEGIN { printf "%d", t + s * hz }')
	wait_until 300 _ran_cpu "$PROFWORK_PID" "$until" "$KTOP_PID" ||
		fail "profwork ran less than ${secs}s of CPU in 300s"
	pid_alive "$PROFWORK_PID" || fail "profwork ended before ${secs}s of CPU: $(head -c 300 "$T/work.out")"
	PROFILE_ANON1=$(rss_anon_kb "$KTOP_PID")
	PROFILE_CPU1=$(cpu_ticks "$PROFWORK_PID")
	for p in "${STOP_ALSO[@]+"${STOP_ALSO[@]}"}"; do kill -INT "$p" 2>/dev/null; done
	stop_ktop "$KTOP_PID" INT 60
}

# samples_at_most N WHAT: N samples at 99 Hz are no more than profwork's CPU between
# PROFILE_CPU0 and PROFILE_CPU1 gives, by the kernel's count, with 10 % and 10 samples more
# for the ticks' grain and the samples between the last look and the stop: a sampler that
# counts a sample twice fails here.
samples_at_most()
{
	local max
	max=$(awk -v t0="$PROFILE_CPU0" -v t1="$PROFILE_CPU1" -v hz="$(getconf CLK_TCK)" \
		'BEGIN { printf "%d", (t1 - t0) / hz * 99 * 1.1 + 10 }')
	[ "$1" -le "$max" ] ||
		fail "$2: $1 samples, more than 99 Hz over profwork's $(((PROFILE_CPU1 - PROFILE_CPU0))) ticks of CPU give ($max at most)"
}

# samples FOLDED TASK: the samples of stacks whose first frame is TASK.
samples()
{
	awk -v t="$2" '{ split($0, f, ";") } f[1] == t { n += $NF } END { print n + 0 }' "$1"
}

# share FOLDED TASK FUNC: percent of TASK's samples whose stack holds frame FUNC.
share()
{
	awk -v t="$2" -v fn="$3" '
		{ line = $0; sub(/ [0-9]+$/, "", line); m = split(line, f, ";") }
		f[1] != t { next }
		{ total += $NF; for (i = 2; i <= m; i++) if (f[i] == fn) { hit += $NF; break } }
		END { printf "%.2f\n", total ? 100 * hit / total : 0 }' "$1"
}

# function_shares FOLDED TASK: "PERCENT FUNC" per function of TASK's stacks (a function
# counted once per stack), largest first.
function_shares()
{
	awk -v t="$2" '
		{ line = $0; sub(/ [0-9]+$/, "", line); m = split(line, f, ";") }
		f[1] != t { next }
		{
			total += $NF
			delete seen
			for (i = 2; i <= m; i++)
				if (!(f[i] in seen)) { seen[f[i]] = 1; sh[f[i]] += $NF }
		}
		END { for (fn in sh) printf "%.2f %s\n", 100 * sh[fn] / total, fn }' "$1" |
		sort -k1,1nr -k2
}

# perf_folded: perf script's output on stdin folded as stackcollapse-perf does
# ("comm;outermost;...;leaf count"), symbol versions dropped as ktop drops them.
perf_folded()
{
	awk '
		function flush(  s, i) {
			if (comm != "") {
				s = comm
				for (i = n - 1; i >= 0; i--)
					s = s ";" fr[i]
				c[s]++
			}
			comm = ""
			n = 0
		}
		/^[^ \t]/ { flush(); comm = $1; next }
		/^[ \t]+[0-9a-f]+ / {
			sym = $2
			sub(/\+0x[0-9a-f]+$/, "", sym)
			sub(/@.*/, "", sym)
			fr[n++] = sym
			next
		}
		/^[ \t]*$/ { flush() }
		END { flush(); for (s in c) print s, c[s] }'
}

# record_profile SECONDS: ktop -b --profile --comm profwork -o $T/p.dat for SECONDS of its CPU on a
# workload splitting its CPU between two functions; the folded stacks it printed in
# $T/live (its counts in $T/live.err), profwork's samples in PROFWORK_SAMPLES.
PROFWORK_SAMPLES=
record_profile()
{
	start_profwork "$T/work.out" split 60
	profile_cpu "$1" "$T/live" "$T/live.err" -b --profile --comm profwork --folded \
		-o "$T/p.dat"
	[ "$KTOP_RC" = 0 ] || fail "ktop -o exited $KTOP_RC: $(head -c 400 "$T/live.err")"
	_end_pid "$PROFWORK_PID"
	# shellcheck disable=SC2034 # read by the tests that source this
	PROFWORK_SAMPLES=$(samples "$T/live" profwork)
}
