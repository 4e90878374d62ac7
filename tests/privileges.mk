# Issue 13: the privilege matrix: as nobody, with CAP_BPF and CAP_PERFMON but no
# CAP_SYS_ADMIN, at kernel.perf_event_paranoid 2 and 3 (src/backend/tracefs/privs.c, pmu.c).
LIVE_TESTS += tests/live/privileges.sh
