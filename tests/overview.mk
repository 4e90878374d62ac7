# The overview (issue 32): cgroup names and bucket quantiles (unit); its figures against the
# kernel's own accounting for workloads of known behaviour (live); the pane (tmux).
UNIT_CHECKS += tests/unit/check_overview
LIVE_TESTS += tests/live/overview_counts.sh
EXTRA_DIST += tests/helpers/overview_work.py
TERM_TESTS += tests/term/overview_pane.sh
