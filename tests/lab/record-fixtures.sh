#!/bin/sh
# Guest side of `make lab-fixtures` (tests/fixtures/lab/README.md): records function_graph and
# kprobe captures with the kernel's own tool, trace-cmd (on two CPUs only the migrate one, on
# one CPU all the others), and hands each back to the host with
# lab-save: NAME.dat (trace.dat), NAME.trace (the kernel's own text of the same events, the
# tracefs `trace` file) and NAME.report (`trace-cmd report` of NAME.dat).
#
# trace.dat files carry /proc/kallsyms (~10 MB here), so each capture is extracted with a
# kallsyms cut down to the functions its `trace` text names, bind-mounted over /proc/kallsyms.
T=/sys/kernel/tracing
W=/tmp/fixtures
mkdir -p $W
cd $W || exit 1
fail=0
setup=
say() { echo "fixtures: $*"; }

# names FILE.trace: the kallsyms lines of every function the kernel's text names.
names()
{
	grep -o '[A-Za-z_][A-Za-z0-9_.]*()' "$1" | tr -d '()' | sort -u >names.txt
	grep -o '/\* [A-Za-z_][A-Za-z0-9_.]* \*/' "$1" | cut -d' ' -f2 | sort -u >>names.txt
	awk 'NR == FNR { want[$1] = 1; next } ($3 in want) && !seen[$3]++' names.txt /proc/kallsyms
}

# with_small_kallsyms NAME.trace CMD...: CMD with /proc/kallsyms cut down to NAME.trace's names.
with_small_kallsyms()
{
	names "$1" >kallsyms.small
	shift
	mount --bind $W/kallsyms.small /proc/kallsyms || return 1
	"$@"
	rc=$?
	umount /proc/kallsyms
	return $rc
}

# save NAME: hand NAME.dat, NAME.trace and NAME.report back.
save()
{
	trace-cmd report "$1.dat" >"$1.report" 2>"$1.report-err" ||
		{ cat "$1.report-err"; fail=1; }
	for f in "$1.dat" "$1.trace" "$1.report"; do
		lab-save "$f" || fail=1
	done
	say "$1: $(wc -c <"$1.dat") bytes of trace.dat, $(grep -c . "$1.trace") lines of text"
}

# capture NAME WORKLOAD START-ARGS...: trace-cmd start with START-ARGS on the pid of WORKLOAD
# (a shell command, started first and held until tracing is on), then stop, keep the text,
# extract the trace.dat. $setup, when set, runs after trace-cmd reset (which removes every
# kprobe) and before the start. fixture: the same, then save.
capture()
{
	name=$1 work=$2
	shift 2
	rm -f go; mkfifo go
	sh -c "read x <go; exec $work" >/dev/null 2>&1 &
	pid=$!
	trace-cmd reset >/dev/null 2>&1
	echo 0 >$T/max_graph_depth # trace-cmd reset leaves the depth fixture's limit
	[ -z "$setup" ] || eval "$setup" || { say "$name: $setup failed"; fail=1; }
	trace-cmd start -P $pid -O funcgraph-proc -O funcgraph-abstime "$@" >/dev/null ||
		{ say "$name: trace-cmd start $* failed"; fail=1; kill $pid; return; }
	echo go >go
	wait $pid
	trace-cmd stop
	dd if=$T/trace of="$name.trace" bs=64k 2>/dev/null
	with_small_kallsyms "$name.trace" trace-cmd extract -o "$name.dat" >/dev/null 2>&1 ||
		{ say "$name: trace-cmd extract failed"; fail=1; }
}

fixture()
{
	capture "$@"
	save "$1"
}

# entry_window FILE.trace: true when the text has an interrupt taken while the kernel entered
# a call: its calls one level deeper than that call, printed before the call's own line
# (any line, then a call at a depth shallower than it by more than its own nesting allows).
entry_window()
{
	awk 'index($0, "|") == 0 { next }
		{ text = $0; sub(/.*\|/, "", text); if (text !~ /([;{}]|\*\/) *$/) next
		  match(text, /^ */); d = (RLENGTH - 2) / 2
		  if (text ~ /(\{|;) *$/ && seen && d < prev) found = 1
		  prev = d; seen = 1 }
		END { exit !found }' "$1"
}

# migrate (on two CPUs: make lab-fixtures boots a second guest with LAB_SMP=2 for it): dd,
# pinned to CPU 0, blocks in vfs_read on an empty fifo; its affinity moves to CPU 1 and a
# byte arrives, so the wakeup runs it on CPU 1, where the same vfs_read (and pipe_read,
# schedule... below it) returns: calls entered on CPU 0 and exited on CPU 1.
if [ "$(nproc)" -ge 2 ]; then
	rm -f go mig; mkfifo go mig
	exec 3<>mig # a writer held open: dd's open does not wait, its read does
	taskset 1 sh -c "read x <go; exec dd if=mig of=/dev/null bs=1 count=1" >/dev/null 2>&1 &
	pid=$!
	trace-cmd reset >/dev/null 2>&1
	echo 0 >$T/max_graph_depth
	trace-cmd start -P $pid -O funcgraph-proc -O funcgraph-abstime -p function_graph \
		-g vfs_read -b 256 >/dev/null || { say "migrate: trace-cmd start failed"; fail=1; }
	echo go >go
	sleep 2 # dd is asleep in pipe_read by now
	taskset -p 2 $pid >/dev/null || { say "migrate: taskset -p 2 $pid failed"; fail=1; }
	echo x >&3
	wait $pid
	exec 3>&-
	trace-cmd stop
	dd if=$T/trace of=migrate.trace bs=64k 2>/dev/null
	grep -q ' 1) *dd-' migrate.trace ||
		{ say "migrate: dd never ran on CPU 1"; fail=1; }
	with_small_kallsyms migrate.trace trace-cmd extract -o migrate.dat >/dev/null 2>&1 ||
		{ say "migrate: trace-cmd extract failed"; fail=1; }
	save migrate
	trace-cmd reset >/dev/null 2>&1
	exit $fail
fi

# normal: a handful of small reads, every function below vfs_read.
fixture normal "dd if=/dev/zero of=/dev/null bs=512 count=3" \
	-p function_graph -g vfs_read -b 256
# depth: the same, the tracer's own depth limit at 2.
fixture depth "dd if=/dev/zero of=/dev/null bs=512 count=3" \
	-p function_graph -g vfs_read --max-graph-depth 2 -b 256
# irq: 64 KiB reads of /dev/zero take long enough under qemu (milliseconds) that timer
# interrupts land in the middle of them and show as calls nested in the task's.
fixture irq "dd if=/dev/zero of=/dev/null bs=65536 count=4" \
	-p function_graph -g vfs_read -b 4096
# irqentry: the same reads until a timer interrupt lands between the kernel counting a call's
# depth and recording its entry: the interrupt's calls come first, one level deeper.
tries=0
until [ $tries -ge 12 ]; do
	tries=$((tries + 1))
	capture irqentry "dd if=/dev/zero of=/dev/null bs=65536 count=4" \
		-p function_graph -g vfs_read -b 4096
	entry_window irqentry.trace && break
done
entry_window irqentry.trace ||
	{ say "irqentry: no interrupt in an entry window in $tries captures"; fail=1; }
say "irqentry: taken from capture $tries"
save irqentry
# midcall: a buffer far too small for the capture; what is left starts in the middle of calls
# (exits whose entries were overwritten).
fixture midcall "dd if=/dev/zero of=/dev/null bs=512 count=200" \
	-p function_graph -g vfs_read -b 8
# kprobe: a kprobe and a kretprobe with typed fetchargs on do_filp_open (its struct filename
# starts with the name).
setup="echo 'p:ktopfx/open do_filp_open dfd=\$arg1:s32 path=+0(+0(\$arg2)):string' \
	>>$T/kprobe_events && echo 'r:ktopfx/open_ret do_filp_open ret=\$retval:x64' >>$T/kprobe_events"
fixture kprobe "cat /etc/nonexistent /proc/version /init" -e ktopfx -b 64
setup=
trace-cmd reset >/dev/null 2>&1 # removes the probes too

# lost: streamed with trace-cmd record while the workload floods a tiny buffer, so pages are
# lost between the ones read. The same workload as normal: its functions name kallsyms.
trace-cmd reset >/dev/null 2>&1
with_small_kallsyms normal.trace trace-cmd record -o lost.dat -p function_graph -g vfs_read \
	-b 4 -O funcgraph-proc -F dd if=/dev/zero of=/dev/null bs=512 count=300 \
	>lost.record 2>&1 || { cat lost.record; fail=1; }
trace-cmd reset >/dev/null 2>&1
trace-cmd report lost.dat >lost.report 2>&1 || fail=1
lab-save lost.dat && lab-save lost.report || fail=1
say "lost: $(wc -c <lost.dat) bytes, $(grep -c 'LOST\|missed' lost.report) loss marks"
trace-cmd reset >/dev/null 2>&1
exit $fail
