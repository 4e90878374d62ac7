# Issue #16: cgroup scoping (--cgroup, the scope key's cgroup=).
LIVE_TESTS += tests/live/cgroup_scope.sh
TERM_TESTS += tests/term/cgroup_key.sh
