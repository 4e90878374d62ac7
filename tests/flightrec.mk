# Issue #34: the flight recorder (--arm, --incidents), checked with trace-cmd against the
# workload's own clock.
LIVE_TESTS += tests/live/flightrec.sh
EXTRA_DIST += tests/helpers/incident_check.py
check_PROGRAMS += tests/unit/check_armspec
tests_unit_check_armspec_SOURCES = tests/unit/check_armspec.c
tests_unit_check_armspec_CFLAGS = $(UNIT_CFLAGS)
tests_unit_check_armspec_LDADD = $(UNIT_LDADD)
UNIT_TESTS += tests/unit/check_armspec
