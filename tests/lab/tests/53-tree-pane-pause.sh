#!/bin/sh
# The call-tree pane over a live function_graph capture, in a real terminal (the host's tmux,
# which run-vm.sh copies into the guest): p pauses the display while the capture goes on.
# While paused (the whole display is: the header too), dd makes 3000 vfs_read calls: the
# pane's rows and its tree count stay as they were, and ktop keeps capturing: the kernel's
# ring buffer holds almost none of dd's records (per_cpu/cpu0/stats "entries": ktop's reader
# consumed them). On resume, with dd done, the pane catches up at once with at least those
# 3000 trees.
# (The host cannot test this: its kernel has no function_graph, and a recording, ktop -i,
# refuses p: it never changes.)
W=/tmp/treepause
T=${TRACEFS:-/sys/kernel/tracing}
mkdir -p $W
command -v tmux >/dev/null || { echo "no tmux in the guest (run-vm.sh copies the host's)"; exit 1; }
cat >$W/tmux.conf <<'EOF'
set -g default-terminal screen
set -g status off
set -g remain-on-exit on
set -g history-limit 0
set -sg escape-time 0
EOF
tm() { TERM=screen tmux -S $W/sock -f $W/tmux.conf "$@"; }
screen() { tm capture-pane -p -t t; }
# wait_for ERE TENTHS: until the screen shows ERE; on time-out shows the screen, returns 1
wait_for()
{
	i=0
	until screen | grep -Eq -- "$1"; do
		i=$((i + 1))
		tm has-session -t t 2>/dev/null || { echo "the tmux session is gone"; return 1; }
		if [ $i -gt "$2" ]; then
			screen
			echo "no /$1/ on the screen"
			return 1
		fi
		sleep 0.1
	done
}
trees() { screen | sed -n 's/.* \([0-9][0-9]*\) trees.*/\1/p' | head -n 1; }
unread() { sed -n 's/^entries: //p' $T/per_cpu/cpu0/stats; }
rows() { screen | grep 'vfs_read()'; }
quit()
{
	kill $load 2>/dev/null
	tm send-keys -t t q
	i=0
	while [ ! -s $W/rc ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	tm kill-server 2>/dev/null
	[ -s $W/err ] && cat $W/err
	[ "$(cat $W/rc 2>/dev/null)" = 0 ] || { echo "ktop exited $(cat $W/rc 2>/dev/null)"; exit 1; }
}
fail() { echo "$*"; quit; exit 1; }

tm new-session -d -s t -x 120 -y 40 \
	"$KTOP -t function_graph -g vfs_read --top-level -d 2 2>$W/err; echo \$? >$W/rc"
wait_for 'rate: ' 600 || fail "ktop did not start"
tm send-keys -t t T z
wait_for 'Call tree' 50 || fail "T opened no call-tree pane"
(while :; do dd if=/dev/zero of=/dev/null bs=512 count=20 2>/dev/null; sleep 0.1; done) &
load=$!
i=0
while [ "$(trees)" -lt 20 ] 2>/dev/null || [ -z "$(trees)" ]; do
	i=$((i + 1))
	[ $i -lt 300 ] || { screen; fail "the pane shows no growing trees"; }
	sleep 0.1
done
kill $load
wait $load 2>/dev/null

tm send-keys -t t p
wait_for 'PAUSED [0-9]+ trees' 30 || fail "p did not pause the pane"
sleep 0.5 # a tick or two: what the pane shows now stays
n1=$(trees)
rows >$W/rows1
dd if=/dev/zero of=/dev/null bs=512 count=3000 2>/dev/null
sleep 1.5 # several ticks (-d 2: every 0.2 s)
n2=$(trees) left=$(unread)
rows >$W/rows2
echo "paused: $n1 trees; after dd's 3000 reads: $n2 trees, $left records unread in the kernel"
[ "$n2" = "$n1" ] || fail "the paused pane's tree count moved ($n1 -> $n2)"
cmp -s $W/rows1 $W/rows2 || { diff $W/rows1 $W/rows2; fail "the paused pane's rows changed"; }
[ -s $W/rows1 ] || fail "no vfs_read rows on the paused pane"
[ "$left" -lt 3000 ] || fail "ktop stopped reading while the pane was paused ($left records unread)"

tm send-keys -t t p
wait_for '[^D] [0-9]+ trees' 30 || fail "p did not resume the pane"
i=0
while [ "$(trees)" -lt $((n1 + 3000)) ]; do
	i=$((i + 1))
	[ $i -lt 30 ] || { screen; fail "resumed: $(trees) trees, expected $n1 + dd's 3000"; }
	sleep 0.1
done
echo "resumed: $(trees) trees"
quit
exit 0
