#!/bin/bash
# Golden error messages for bad probe definitions and bad tracer and function-list requests,
# each with its exit status (2: the command line itself is wrong, checked before the kernel
# is touched; 1: the kernel or the files said no), one line unless the kernel's own
# error_log entry is quoted (then three: the entry, its Command:, the caret under the fault),
# and nothing left behind: no instance ktop-<pid>, no group ktop_<pid>, the top level as it
# was - also when a second probe fails after a first was created.
set -u
# two dozen ktop runs: more than the default bound on a loaded machine
KTOP_TEST_TIMEOUT=${KTOP_TEST_TIMEOUT:-480}
# shellcheck source-path=SCRIPTDIR source=../lib.sh
. "$(dirname "$0")/../lib.sh"
require_root_tracefs
KTOP_PROBE_TARGET=${KTOP_PROBE_TARGET:-$(dirname "$KTOP")/tests/helpers/probe_target}
[ -x "$KTOP_PROBE_TARGET" ] || fail "no probe target at '$KTOP_PROBE_TARGET' (make check builds it)"
TGT=$(readlink -f "$KTOP_PROBE_TARGET")
DYN=$(_dynevents_file)

n=0
# Small ring buffers: two dozen runs stay quick on a loaded machine.
# expect STATUS 'EXPECTED STDERR' ARGS...: ktop -b with ARGS exits STATUS and prints exactly
# EXPECTED (with @PID@ for ktop's pid; a bash pattern, so * matches what the kernel decides)
# on stderr, nothing on stdout, and leaves nothing.
expect()
{
	local want_rc=$1 want=$2 got
	shift 2
	n=$((n + 1))
	run_ktop 20 "$T/$n.out" "$T/$n.err" -b -q --duration 0.2 --buffer-kb 1024 "$@"
	got=$(cat "$T/$n.err")
	want=${want//@PID@/$KTOP_PID}
	[ "$KTOP_RC" = "$want_rc" ] || fail "ktop $* exited $KTOP_RC, expected $want_rc; stderr: $got"
	# shellcheck disable=SC2053 # EXPECTED may hold a * where the kernel decides
	[[ $got == $want ]] || fail "ktop $*:
  got:  $got
  want: $want"
	[ -s "$T/$n.out" ] && fail "ktop $* printed on stdout: $(head -c 200 "$T/$n.out")"
	grep -q "^[^:]*:ktop_$KTOP_PID/" "$DYN" && fail "ktop $* left group ktop_$KTOP_PID"
	assert_clean
}

# ---- definitions the parser refuses (exit 2, column of the fault) -------------------------------
expect 2 "ktop: --kprobe 'do_sys_openat2 x=\$retval': '\$retval' exists only in return probes (use a kretprobe) (at column 18) (see ktop --help)" \
	--kprobe 'do_sys_openat2 x=$retval'
expect 2 "ktop: --kprobe 'do_sys_openat2 path=\$arg2:string': type 'string' needs a dereference, as in +0(\$arg2):string (at column 27) (see ktop --help)" \
	--kprobe 'do_sys_openat2 path=$arg2:string'
expect 2 "ktop: --uprobe '$TGT:ktop_probe_target n=\$arg1': uprobes cannot use \$argN: name the register (x86-64: %di %si %dx %cx %r8 %r9 for arguments 1-6) (at column $(( ${#TGT} + 22 ))) (see ktop --help)" \
	--uprobe "$TGT:ktop_probe_target n=\$arg1"
expect 2 "ktop: --uretprobe '$TGT:ktop_probe_target r=\$retval:u33': unknown type 'u33' (u8..u64, s8..s64, x8..x64, char, string, ustring, symbol, symstr) (at column $(( ${#TGT} + 30 ))) (see ktop --help)" \
	--uretprobe "$TGT:ktop_probe_target r=\$retval:u33"
expect 2 "ktop: --kretprobe 'do_nanosleep maxactive=5000': maxactive must be a number from 1 to 4096 (at column 24) (see ktop --help)" \
	--kretprobe 'do_nanosleep maxactive=5000'
expect 2 "ktop: --kprobe 'do_nanosleep maxactive=8': maxactive= is for kretprobes (how many calls may be in flight at once) (at column 14) (see ktop --help)" \
	--kprobe 'do_nanosleep maxactive=8'
expect 2 "ktop: --uprobe '/usr/bin/bash': uprobe target is PATH:FUNCTION, as in /usr/bin/bash:readline (at column 14) (see ktop --help)" \
	--uprobe /usr/bin/bash
expect 2 "ktop: --ftrace-filter 'vfs_read:bogus': unknown command 'bogus' (mod, traceon, traceoff, stacktrace, snapshot, dump, cpudump) (see ktop --help)" \
	--ftrace-filter 'vfs_read:bogus'
expect 2 "ktop: --graph-function 'schedule:traceoff': function triggers go in set_ftrace_filter only (see ktop --help)" \
	-g schedule:traceoff
expect 2 "ktop: --follow-children applies to -p or --comm, and neither was given (see ktop --help)" \
	--follow-children -e sched:sched_switch
expect 2 "ktop: --comm takes a command name of 1 to 15 characters without quotes or backslashes, not 'a-very-long-command-name' (see ktop --help)" \
	--comm a-very-long-command-name -e sched:sched_switch

# ---- what the files and the kernel refuse (exit 1) ----------------------------------------------
expect 1 "ktop: no such file: /nonexistent/bin (No such file or directory)" \
	--uprobe /nonexistent/bin:main
expect 1 "ktop: /etc/hostname is not an ELF file (uprobes need a binary or a shared library)" \
	--uprobe /etc/hostname:main
expect 1 "ktop: no function 'no_such_function' in $TGT (neither .symtab nor .dynsym has it; the probe editor lists the ones there are)" \
	--uprobe "$TGT:no_such_function"
# a second probe fails after the first was made: the first goes too
expect 1 "ktop: probe ktop_@PID@:twice exists already (delete it or pick another NAME=)" \
	--uprobe "twice=$TGT:ktop_probe_target" --uretprobe "twice=$TGT:ktop_probe_target"
expect 1 "ktop: no tracer 'no_such_tracer' in ktop's instance (available: *nop*)" \
	-t no_such_tracer

# The kernel's own words, with its caret under the register it does not know.
n=$((n + 1))
run_ktop 20 "$T/reg.out" "$T/reg.err" -b -q --duration 0.2 --buffer-kb 1024 --uprobe "$TGT:ktop_probe_target x=%nosuchreg"
[ "$KTOP_RC" = 1 ] || fail "a register the kernel does not know: exit $KTOP_RC, expected 1"
mapfile -t L <"$T/reg.err"
[ "${#L[@]}" = 3 ] || fail "kernel rejection: ${#L[@]} lines, expected 3: $(cat "$T/reg.err")"
[[ ${L[0]} == "ktop: uprobe rejected by the kernel: trace_uprobe: error: "* ]] || fail "line 1: ${L[0]}"
[[ ${L[1]} == "  Command: p:ktop_$KTOP_PID/ktop_probe_target $TGT:0x"*" x=%nosuchreg" ]] || fail "line 2: ${L[1]}"
caret=${L[2]%^}
reg=${L[1]#*x=}
[ "${#caret}" = "$(( ${#L[1]} - ${#reg} ))" ] || fail "the caret is not under x=%nosuchreg: '${L[1]}' / '${L[2]}'"
[ -z "${caret// /}" ] || fail "line 3 is not a caret: ${L[2]}"
grep -q "^[^:]*:ktop_$KTOP_PID/" "$DYN" && fail "rejected probe left group ktop_$KTOP_PID"
assert_clean

# ---- what this machine's kernel lacks (the kernel lab covers them where they exist) -------------
if [ ! -e "$TRACEFS/kprobe_events" ]; then
	expect 1 "ktop: this kernel has no kprobe events (CONFIG_KPROBE_EVENTS is off): probe user space with --uprobe, use tracepoints (-e), or a kernel with kprobes" \
		--kprobe 'do_sys_openat2 path=+0($arg2):string'
	expect 1 "ktop: this kernel has no kprobe events (CONFIG_KPROBE_EVENTS is off): probe user space with --uprobe, use tracepoints (-e), or a kernel with kprobes" \
		--kretprobe 'do_sys_openat2 ret=$retval:s32'
else
	expect 1 "ktop: no kernel function 'no_such_kernel_function' (/proc/kallsyms has no such text symbol; check the spelling, the probe editor completes names)" \
		--kprobe no_such_kernel_function
fi
# The function tracer is refused here (EPERM on current_tracer and its filter files).
if ! cat "$TRACEFS/set_ftrace_filter" >/dev/null 2>&1; then
	expect 1 "ktop: function tracer refused by the kernel: current_tracer: Operation not permitted (EPERM) — ftrace_enabled off or lockdown? (the kernel allows no function hooks here)" \
		-t function
	expect 1 "ktop: set_ftrace_filter is not writable in ktop's instance: Operation not permitted (EPERM) — ftrace_enabled off or lockdown? (the kernel allows no function hooks here)" \
		--ftrace-filter vfs_read -t function
	expect 1 "ktop: set_ftrace_notrace is not writable in ktop's instance: Operation not permitted (EPERM) — ftrace_enabled off or lockdown? (the kernel allows no function hooks here)" \
		--ftrace-notrace 'vfs_*'
fi
if ! grep -qw function_graph "$TRACEFS/available_tracers"; then
	expect 1 "ktop: no tracer 'function_graph' in ktop's instance (available: *nop*); the kernel lacks it or does not allow it in instances" \
		-t function_graph
fi
# (where the top level has it, the message names --top-level: tests/live/top_level.sh)
if [ ! -e "$TRACEFS/set_graph_function" ]; then
	expect 1 "ktop: set_graph_function is not in ktop's instance on this kernel (the kernel has no function_graph: CONFIG_FUNCTION_GRAPH_TRACER)" \
		-g vfs_read
fi
log "$n bad requests: golden messages, exit codes, nothing left"
pass
