#!/bin/bash
# shellcheck disable=SC2317,SC2119 # helpers called through wait_until; tmux_screen takes no $1
# The kernel lab as a remote (issue 18): this machine's explorer, in tmux, drives the lab
# guest's kernel through a pipe. run-vm.sh boots Debian's stock 6.12 kernel (its instances
# offer function_graph; 6.1's only the top level) with tests/lab/remote-agent.sh alone, which
# runs ktop --agent on the guest's second serial port; qemu puts that port on a socket, and
# the viewers here run `ktop --via 'socat - UNIX-CONNECT:SOCKET' --compress`. First a batch
# run: -t function_graph --ftrace-filter vfs_read --tree prints the guest's vfs_read calls
# as call trees, each with its duration, and no other function. Then the explorer:
#   - in the tracer pane, set_ftrace_filter of the agent's instance takes vfs_read, typed
#     whole (the agent's kernel checks it; this machine's names are not offered);
#   - R switches the agent's tracer to function_graph (the agent's kallsyms come first);
#   - T's call tree shows calls with their durations under the kernel's function name (no
#     address): vfs_read alone, as the list says, a name this machine's kernel has too;
#   - P, k makes a kprobe on vfs_read in the agent's group, listed enabled;
#   - R back to nop: the stream shows the kprobe's hits, decoded;
#   - q: the agent on a line that never closes ends (the viewer's end request), and the
#     harness's kernel-clean.sh finds no ktop-* instance, no ktop_* dynamic event and the
#     tracer nop in the guest: run-vm.sh reports the guest test passed.
# This host's kernel has neither function_graph nor kprobes: nothing here is faked.
# Logs the figures: boot to explorer, the switches, the bytes the serial line carried.
# Environment: as run-vm.sh's; LAB_REMOTE_KERNEL_META (default linux-image-6.12-amd64) is the
# meta package naming the kernel.
set -u
export KTOP_TEST_TIMEOUT=${KTOP_TEST_TIMEOUT:-1800}
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_tmux
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v socat >/dev/null 2>&1; then
	[ "$(id -u)" = 0 ] || skip "no socat, and not root to install it"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends socat \
		>"$T/apt.log" 2>&1 || fail "apt-get install socat failed: $(tail -n 3 "$T/apt.log")"
fi

builddir=${LAB_BUILDDIR:-$(cd "$(dirname "$KTOP")" && pwd)}
work=$builddir/tests/lab/remote-run
console=$work/lab-console.log
sock=$T/agent.sock
mkdir -p "$work" || fail "cannot make $work"
rm -f "$console" "$work/qemu.pid"

t0=$(date +%s.%N)
secs() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
LAB_SRCDIR=$KTOP_SRCDIR LAB_BUILDDIR=$builddir LAB_WORKDIR=$work LAB_ONLY_EXTRA=1 \
	LAB_EXTRA_TEST=$here/remote-agent.sh \
	LAB_KERNEL_META=${LAB_REMOTE_KERNEL_META:-linux-image-6.12-amd64} \
	LAB_TEST_TIMEOUT=1200 LAB_TIMEOUT=1500 LAB_SERIAL1="unix:$sock,server=on,wait=off" \
	LAB_QEMU_ARGS="-pidfile $work/qemu.pid" \
	bash "$here/run-vm.sh" >"$work/run-vm.out" 2>&1 &
vm=$!
_agent_or_end() { grep -q '^LAB-AGENT-READY' "$console" 2>/dev/null || ! pid_alive "$vm"; }
# a static ktop to build and a kernel to fetch the first time: minutes
wait_until 1200 _agent_or_end || fail "no agent in the guest after 1200 s: $(tail -n 5 "$work/run-vm.out")"
if ! grep -q '^LAB-AGENT-READY' "$console" 2>/dev/null; then
	wait "$vm"
	rc=$?
	[ $rc = 77 ] && skip "$(sed -n 's/^lab: skip: //p' "$work/run-vm.out")"
	# the lab's own reason first (a kernel package apt does not have: its name and suite)
	grep -q '^lab: error: ' "$work/run-vm.out" &&
		fail "$(sed -n 's/^lab: error: //p' "$work/run-vm.out" | head -n 1)"
	fail "run-vm.sh exited $rc before the guest's agent started: $(tail -n 30 "$work/run-vm.out")"
fi
qemu=$(cat "$work/qemu.pid" 2>/dev/null)
[ -n "$qemu" ] || fail "no qemu pid file"
CLEANUP_PIDS+=("$qemu" "$vm") # qemu first: run-vm.sh then ends
kver=$(sed -n 's/^LAB-BOOTED \([^ ]*\) .*/\1/p' "$console" | tr -d '\r')
log "guest $kver: agent started at uptime $(sed -n 's/^LAB-AGENT-READY batch uptime \([0-9.]*\).*/\1/p' "$console"), $(secs "$t0") s after run-vm.sh (static build and boot)"

# Batch mode's --tree over the agent, the function list given on the command line.
t1=$(date +%s.%N)
run_ktop 900 "$T/tree.out" "$T/tree.err" -b --via "socat - UNIX-CONNECT:$sock" --compress \
	-t function_graph --ftrace-filter vfs_read --tree --duration 5
[ "$KTOP_RC" = 0 ] || fail "-b --tree over the agent exited $KTOP_RC: $(tail -c 4000 "$T/tree.err")"
sed -n '/^# CPU  TASK\/PID/,$p' "$T/tree.out" | grep -E '^ *[0-9]+\) ' >"$T/trees"
calls=$(grep -cE '^ *[0-9]+\) +[^ ]+-[0-9]+ +\| +[-!#*@$+ ] [0-9.]+ us +\| +vfs_read\(\);$' "$T/trees")
[ "$calls" -ge 1 ] || fail "--tree printed no vfs_read call with its duration: $(head -n 20 "$T/tree.out")"
# a call the capture caught midway (the agent's own read of its line) opens "{ /* began
# before the capture */" and closes on "}": still vfs_read, and nothing below it
funcs=$(grep -oE '[a-zA-Z_][a-zA-Z0-9_.]*\(\)' "$T/trees" | sort -u)
[ "$funcs" = "vfs_read()" ] || fail "--tree printed other functions than vfs_read: $(echo "$funcs" | head -n 5 | tr '\n' ' ')"
log "-b --tree over the agent: $calls vfs_read calls as trees, $(secs "$t1") s"
_next_agent() { grep -q '^LAB-AGENT-READY explorer' "$console" 2>/dev/null; }
wait_until 120 _next_agent || fail "the guest started no agent for the explorer: $(grep '^LAB-AGENT' "$console")"

# The agent waits 30 s for the viewer's hello from its start: start at once.
t1=$(date +%s.%N)
tmux_start 200 50 "XDG_CONFIG_HOME=$T/xdg" -- --via "socat - UNIX-CONNECT:$sock" --compress
expect_text "No events enabled" 60 "the explorer did not start over the guest's agent"
expect_text "via socat" 3 "the header does not name the remote"
log "explorer up $(secs "$t1") s after its start ($(secs "$t0") s after run-vm.sh)"

# tracer_row NAME: NAME's row among the tracer pane's rows (1 = the first).
tracer_row()
{
	tmux_screen | grep -oE '\((\*| )\) [a-z_]+' | awk -v t="$1" '$NF == t { print NR; exit }'
}
# switch_tracer FROM TO: R, the cursor moved from FROM's row (where it stands on the current
# tracer) to TO's, Enter; the agent's kernel switches (10-20 s under TCG, every call site
# patched), behind what the serial line still has to carry.
switch_tracer()
{
	local from to i t
	tmux_keys R
	expect_text "Tracers +current: $1" 30 "R did not open the tracer pane on $1"
	tmux_screen | grep -qE "$2 +not offered" &&
		fail "the guest kernel ($kver) offers no $2 in ktop's instance"
	from=$(tracer_row "$1") to=$(tracer_row "$2")
	if [ -z "$from" ] || [ -z "$to" ]; then fail "the tracer pane lists no $1 or $2"; fi
	for ((i = from; i < to; i++)); do tmux_keys Down; done
	for ((i = from; i > to; i--)); do tmux_keys Up; done
	t=$(date +%s.%N)
	tmux_keys Enter
	expect_text "tracer: $2 " 300 "the agent's tracer did not become $2"
	log "tracer $1 -> $2: $(secs "$t") s"
	tmux_keys Escape
	wait_for_no_text "Tracers +current" 5 || fail "Esc did not close the tracer pane"
}
# The agent's function list: vfs_read alone, checked and taken by the agent's kernel.
tmux_keys R
expect_text "Tracers +current: nop" 30 "R did not open the tracer pane"
# the first list: past every tracer row, from the top
ntr=$(tmux_screen | grep -cE '\((\*| )\) [a-z_]+')
for ((i = 0; i < ntr; i++)); do tmux_keys Up; done
for ((i = 0; i < ntr; i++)); do tmux_keys Down; done
tmux_keys Enter
expect_text "the agent's kernel: type a function or a glob" 30 \
	"Enter on set_ftrace_filter opened no function picker over the agent"
tmux_text vfs_read
tmux_keys Enter
expect_text "added vfs_read: set_ftrace_filter holds 1" 120 \
	"vfs_read did not go into the agent's set_ftrace_filter"
tmux_keys Escape Escape
wait_for_no_text "Tracers +current" 5 || fail "Esc did not close the tracer pane"
log "set_ftrace_filter of the agent's instance: vfs_read"
switch_tracer nop function_graph

# The call tree: durations and the guest kernel's function names.
tmux_keys T
expect_text "Call tree" 30 "T opened no call-tree pane"
# Debian's package holds no real System.map: the scheduler, syscall and workqueue functions
# every kernel has are looked up in this machine's kallsyms instead.
awk '$2 ~ /^[tTwW]$/ { print $3 }' /proc/kallsyms | sort -u >"$T/host-functions"
row_re='[0-9.]+ (ns|us|ms|s) +[0-9]* +[^ ]* ?[a-zA-Z_][a-zA-Z0-9_.]*\(\)'
_tree_names()
{
	tmux_screen | grep -oE "$row_re" | grep -oE '[a-zA-Z_][a-zA-Z0-9_.]*\(\)$' | tr -d '()' |
		sort -u
}
_named_rows() { [ "$(_tree_names | comm -12 - "$T/host-functions")" = vfs_read ]; }
wait_until 300 _named_rows || { tmux_screen | sed 's/^/  | /' >&2; fail "no call tree of vfs_read by name with durations"; }
[ "$(_tree_names)" = vfs_read ] || fail "the call tree holds functions set_ftrace_filter left out: $(_tree_names | tr '\n' ' ')"

tmux_screen | grep -E '0x[0-9a-f]{8,}\(\)' &&
	fail "the call tree shows addresses: the guest's kallsyms did not come"
names=$(_tree_names)
log "call tree: $(echo "$names" | wc -w) functions named, e.g. $(echo "$names" | head -n 4 | tr '\n' ' ')"
tmux_keys T
wait_for_no_text "Call tree" 5 || fail "T did not close the call tree"

# A kprobe in the agent's group, made while function_graph runs.
tmux_keys P
expect_text "Probes [^ ]+ +[0-9]+ probes?" 30 "P did not open the probe editor"
tmux_keys i
expect_text "kprobe \[NAME=\]FUNC" 10 "i did not ask for a kprobe"
tmux_text 'labprobe=vfs_read'
tmux_keys Enter
expect_text "created and enabled ktop_[0-9]+:labprobe" 300 "the agent did not make the kprobe"
group=$(tmux_screen | grep -oE 'created and enabled ktop_[0-9]+' | grep -oE 'ktop_[0-9]+')
expect_text "\[x\] labprobe +kprobe +labprobe=vfs_read" 5 "the editor does not list the kprobe enabled"
tmux_keys Escape
wait_for_no_text "Probes [^ ]+ +[0-9]+ probes?" 5 || fail "Esc did not close the probe editor"

# Back to nop: what the line carries is the kprobe's hits (the guest test's dd reads twice a
# second), decoded.
switch_tracer function_graph nop
expect_text "dd-[0-9]+ +$group:labprobe +\([0-9a-f]+\)" 120 "no hit of the kprobe (the guest's dd) in the stream"
log "stream: $group:labprobe hits"

# q: the explorer sends its end request and closes the pipe; the guest's agent ends and
# the harness checks that the guest is clean.
t=$(date +%s.%N)
tmux_quit_clean
_agent_gone() { grep -q '^LAB-AGENT-EXIT explorer' "$console"; }
wait_until 120 _agent_gone || fail "the guest's agent did not end after q: $(tail -n 5 "$console")"
log "guest agent ended $(secs "$t") s after q: $(grep -m1 '^LAB-AGENT-EXIT explorer' "$console" | tr -d '\r')"
wait_pid_exit "$vm" 600 || fail "run-vm.sh did not end"
grep -E '^ *1: uart' "$console" | tr -d '\r' | sed 's/^/  guest ttyS1: /' >&2
[ "$WAIT_RC" = 0 ] || fail "the guest was not left clean or the lab failed (run-vm.sh exit $WAIT_RC): $(grep -A12 '^LAB-AGENT-EXIT explorer' "$console" | tr -d '\r'; tail -n 8 "$work/run-vm.out")"
grep -q '^LAB-RESULT zz-extra-remote-agent PASS' "$console" ||
	fail "the guest test did not pass: $(grep '^LAB-' "$console")"
log "guest clean: no ktop-* instance, no ktop_* dynamic event, tracer nop"
pass
