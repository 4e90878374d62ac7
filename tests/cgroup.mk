# Issue #16: cgroup scoping (--cgroup, the scope key's cgroup=).
LIVE_TESTS += tests/live/cgroup_scope.sh
