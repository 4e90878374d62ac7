#!/bin/sh
# ktop -b -t function_graph --tree, live, while dd reads /dev/zero in a loop: the trees come
# out in the kernel's function_graph layout, dd's rooted at vfs_read, every "name() {" closed
# by its "}", each call within its caller's duration, each duration with the kernel's own
# mark; and --json gives one object per tree. set_graph_function (-g vfs_read) roots every
# tree at vfs_read. Debian's 6.1 allows function_graph and set_graph_function only at the top
# level: there ktop without --top-level
# refuses in one line that names --top-level and leaves the top level as it was, and with
# --top-level (which changes nothing where the instance has function_graph) it traces there.
# (The host's unit tests compare the trees call by call with the kernel's text of lab
# recordings: tests/fixtures/lab/.)
# (paced: with --top-level the tracer is system-wide, and an unpaced loop under TCG makes more
# events than the guest decodes within the test's time limit)
(while :; do dd if=/dev/zero of=/dev/null bs=512 count=200 2>/dev/null; sleep 0.05; done) &
load=$!
status=0
set -- -t function_graph -g vfs_read
T=${TRACEFS:-/sys/kernel/tracing}
"$KTOP" -b "$@" --duration 1 --tree >/tmp/ct.out 2>/tmp/ct.err
rc=$?
if [ $rc -ne 0 ]; then
	if [ $rc -ne 1 ] || [ "$(wc -l </tmp/ct.err)" -ne 1 ] ||
		! grep -q -- '^ktop: function_graph exists only at .*--top-level' /tmp/ct.err ||
		[ "$(cat "$T/current_tracer")" != nop ] || grep -qv '^#' "$T/set_ftrace_filter"; then
		cat /tmp/ct.err
		echo "without --top-level: exit $rc, expected 1 with one line naming --top-level"
		kill $load
		exit 1
	fi
	echo "without --top-level: $(cat /tmp/ct.err)"
fi
set -- "$@" --top-level
"$KTOP" -b "$@" --duration 2 --tree >/tmp/ct.out 2>/tmp/ct.err
rc=$?
"$KTOP" -b "$@" --duration 1 --tree --json >/tmp/ct.json 2>>/tmp/ct.err
rcj=$?
kill $load
wait $load 2>/dev/null
if [ $rc -ne 0 ] || [ $rcj -ne 0 ]; then
	cat /tmp/ct.err
	echo "ktop --tree exited $rc, with --json $rcj"
	exit 1
fi
head -n 12 /tmp/ct.out
tail -n 1 /tmp/ct.out
# Layout: "cpu) task-pid | mark duration | indented call"; checked per task with a stack.
awk -F'|' '
function mark(us) {
	return us > 1000000 ? "$" : us > 100000 ? "@" : us > 10000 ? "*" : us > 1000 ? "#" : \
		us > 100 ? "!" : us > 10 ? "+" : " "
}
function bad(why) { print "line " NR ": " why ": " $0; errors++ }
/^#/ || NF < 3 { next }
{
	task = $1; sub(/^ *[0-9]+\) */, "", task); sub(/ *$/, "", task)
	dur = $2; call = $3
	ind = match(call, /[^ ]/) - 2; depth = int(ind / 2)
	text = substr(call, ind + 2)
	us = -1
	if (match(dur, /[0-9.]+ us/)) {
		us = substr(dur, RSTART, RLENGTH - 3) + 0
		m = substr(dur, 2, 1)
		if (m != mark(us)) bad("mark \"" m "\" for " us " us")
	}
	# (an interrupt taken as vfs_read returns can carry depth 0 in the records the kernel made: a
	# root of its own, seen once in a lab run)
	if (task ~ /^dd-/ && depth == 0 && text ~ /^vfs_read\(\)/) roots++
	else if (task ~ /^dd-/ && depth == 0 && text !~ /^}/ &&
		text !~ /^(irq_enter_rcu|irq_exit_rcu|__sysvec_[a-z_]*)\(\)/)
		bad("a root of dd other than vfs_read")
	if (text ~ /\{/) {
		n = ++sp[task]; open[task, n] = depth; maxkid[task, n] = 0
	} else if (text ~ /^}/) {
		n = sp[task]
		if (n < 1 || open[task, n] != depth) { bad("} without its {"); next }
		sp[task]--
		# the closed call against what its children took
		if (us >= 0 && maxkid[task, n] > us) bad("a callee longer than its caller")
		maxkid[task, n] = 0
		if (n > 1 && us > maxkid[task, n - 1]) maxkid[task, n - 1] = us
	} else if (us >= 0) {
		n = sp[task]
		if (n >= 1 && us > maxkid[task, n]) maxkid[task, n] = us
	}
}
END {
	for (k in sp) if (sp[k] != 0) { print "task " k ": " sp[k] " calls never closed"; errors++ }
	print "trees: " roots " vfs_read roots, " errors + 0 " problems"
	exit (errors > 0 || roots < 100)
}' /tmp/ct.out || status=1
trees=$(grep -c '^{"tree":{"func":"vfs_read",.*"calls":\[{"func":"' /tmp/ct.json)
echo "json: $trees vfs_read trees with callees"
if [ "${trees:-0}" -lt 50 ]; then
	head -c 2000 /tmp/ct.json
	echo "--tree --json gave ${trees:-no} vfs_read trees"
	status=1
fi
exit $status
