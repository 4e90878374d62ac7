# Issue #34: the flight recorder (--arm, --incidents), checked with trace-cmd against the
# workload's own clock.
LIVE_TESTS += tests/live/flightrec.sh
# Quitting inside a post-roll: the incident written truncated, said so.
LIVE_TESTS += tests/live/flightrec_quit.sh
EXTRA_DIST += tests/helpers/incident_check.py
UNIT_CHECKS += tests/unit/check_armspec
TERM_TESTS += tests/term/flightrec_explorer.sh
# Disarming or quitting inside a post-roll: written truncated; the pane keeps its rows.
TERM_TESTS += tests/term/flightrec_disarm.sh
