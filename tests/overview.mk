# The overview (issue 32): cgroup names and bucket quantiles (unit); its figures against the
# kernel's own accounting for workloads of known behaviour (live); the pane (tmux).
UNIT_CHECKS += tests/unit/check_overview
LIVE_TESTS += tests/live/overview_counts.sh tests/live/overview_strip.sh
EXTRA_DIST += tests/helpers/overview_work.py tests/overview-lib.sh
TERM_TESTS += tests/term/overview_pane.sh
# Over an agent (--via 'ktop --agent'): -b --top's counts against /proc and the workload,
# /proc's columns from an agent without BPF; the pane over an agent (O, filter, threads,
# drill-down), its programs gone with the viewer.
LIVE_TESTS += tests/live/remote_overview.sh
LIVE_TESTS += tests/live/remote_overview_hosts.sh
TERM_TESTS += tests/term/remote_overview_pane.sh
TERM_TESTS += tests/term/remote_overview_hosts.sh
# Enter on a cell opens the pane behind it; Space pins; C chooses the columns (ktoprc).
TERM_TESTS += tests/term/overview_cells.sh
# A recording: the pane names what the file lacks; -b --top -i refused in one line.
TERM_TESTS += tests/term/overview_recording.sh
# The strip's per-disk latency counted in the kernel against /proc/diskstats for fsync'd
# writes; diskstats' mean, marked so, without BPF.
LIVE_TESTS += tests/live/overview_disklat.sh
# Enter on FLT opens the process's page-faults flame graph, on IO/s its block I/O latency
# by disk; Esc back, the cursor on its row.
TERM_TESTS += tests/term/overview_drill_io.sh
# A recording's overview from its sched_switch and sched_wakeup against trace-cmd report.
LIVE_TESTS += tests/live/overview_recording.sh
