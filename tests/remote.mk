# Issue #18: the remote protocol (src/remote/), ktop --agent and the viewer's side.
UNIT_CHECKS += tests/unit/check_remote
# Several hosts merged by shifted time (src/remote/hostmerge.c).
UNIT_CHECKS += tests/unit/check_hostmerge
# No kernel: peers of another protocol version, commands that are not agents.
TESTS += tests/remote/version.sh tests/remote/decode.sh tests/remote/multi_fake.sh \
	tests/remote/backlog.sh tests/remote/agent_stderr.sh
EXTRA_DIST += tests/remote/version.sh tests/remote/decode.sh tests/remote/multi_fake.sh \
	tests/remote/backlog.sh tests/remote/agent_stderr.sh \
	tests/remote/snapshots_fake.sh \
	tests/remote/fake_peer.py \
	tests/remote/throttle.py
# A hostile agent (issue 36): corrupt pages, a second hello, formats not asked for, names that
# climb, too many formats: one line and exit 1, never a crash.
TESTS += tests/remote/hostile.sh
EXTRA_DIST += tests/remote/hostile.sh
# --hist and --pmu over agents: snapshots printed as locally, per host, refusals, old agents.
TESTS += tests/remote/snapshots_fake.sh
# Live: --via over a plain pipe (exact counts, loss, kill -9 of the viewer), a real sshd.
LIVE_TESTS += tests/live/remote_via.sh tests/live/remote_ssh.sh tests/live/remote_throttle.sh
LIVE_TESTS += tests/live/remote_silence.sh
# A FIFO or a device named to the agent is refused, never opened (issue 36).
LIVE_TESTS += tests/live/remote_open.sh
# Two agents through --via merged into one stream: exact per host, in time, clean after.
LIVE_TESTS += tests/live/remote_multi.sh
# --hist and --pmu through agents: exact per host, the agent's refusal, all gone after -9.
LIVE_TESTS += tests/live/remote_hist.sh
# -p, --comm and --cgroup over an agent: the scope request (src/agent/agent.c).
LIVE_TESTS += tests/live/remote_scope.sh
# --usdt over an agent: the sites of a binary on the agent's machine (src/agent/agent.c).
LIVE_TESTS += tests/live/remote_usdt.sh
# --stack over an agent: the frames named from the agent's kallsyms.
LIVE_TESTS += tests/live/remote_stack.sh
# --profile over agents: each samples on its own machine, the stacks under their host.
LIVE_TESTS += tests/live/remote_profile.sh
# --off-cpu over agents: a workload's known reads of a pipe counted on each agent's machine.
LIVE_TESTS += tests/live/remote_offcpu.sh
# The explorer over an agent (--via without -b): picker, exact stream, D, refusals, clean-up.
TERM_TESTS += tests/term/remote_explorer.sh
# The histogram pane over an agent: its refusal, exact live counts, its programs gone on Esc and q.
TERM_TESTS += tests/term/remote_hist_pane.sh
# The counters pane over agents: the agent's figures (a workload's calls counted), refused
# counters and a refusing host in one line, a column per host, the agents' perf fds gone on
# Esc and q.
TERM_TESTS += tests/term/remote_counters_pane.sh
# The flame pane over agents: profwork's split live, off-CPU, two hosts under their labels,
# a refused -F in one line, the agents' perf fds and programs gone on Esc and q.
TERM_TESTS += tests/term/remote_flame.sh
# The probe editor over an agent: a uprobe made, toggled, its exact hits, a refusal, deleted.
TERM_TESTS += tests/term/remote_probes.sh
# The explorer over a made-up agent, no kernel: the header's "behind" while the agent is
# behind; the agent's stderr in the status line and after the explorer, not over its screen.
TERM_TESTS += tests/term/remote_fake.sh
# An agent flooding its stderr: 64 KiB of it kept for after the explorer, the rest counted.
TERM_TESTS += tests/term/remote_stderr_flood.sh
# The explorer over two made-up agents: host column in merged time, offsets, D per host,
# one host's refusal named, a probe's refusal on one host.
TERM_TESTS += tests/term/remote_hosts.sh
# The explorer over two real agents: the picker on both instances, the exact merged stream
# with its host column, D per host, both clean within 2 s of q.
TERM_TESTS += tests/term/remote_hosts_live.sh
# The probe editor over two real agents: one uprobe made on both (exact hits per host, live
# counts), a refusal on one host leaves neither with it, delete on both.
TERM_TESTS += tests/term/remote_probes_multi.sh
# USDT from the probe editor over an agent: the sites the agent reads, their exact live counts.
TERM_TESTS += tests/term/remote_usdt_editor.sh
TERM_TESTS += tests/term/remote_start_probes.sh
TERM_TESTS += tests/term/remote_ksyms.sh
# Scope in the explorer over agents: -p at start-up, the scope keys (pid, comm, cgroup,
# empty) on one and two agents, exact counts, refusals naming the host.
TERM_TESTS += tests/term/remote_scope_keys.sh
# Stacks on events in the explorer over an agent: ^K on and off, --stack, frames named from
# the agent's kallsyms.
TERM_TESTS += tests/term/remote_evstacks.sh
# The scope key over two made-up agents, one refusing the pid: it records nothing then.
TERM_TESTS += tests/term/remote_scope_hosts.sh
TERM_TESTS += tests/term/remote_stop_hosts.sh
# Stacks over two made-up agents whose kernels lie apart: each frame named by its host's.
TERM_TESTS += tests/term/remote_evstacks_hosts.sh
# The agent that ships itself: --via 'chroot ROOT /bin/sh' --push and -H into a bare busybox
# root, exact counts, nothing left in the root, refusals in one line.
LIVE_TESTS += tests/live/remote_push.sh
