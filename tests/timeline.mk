# The time axis (issue 33): the timeline and heat-map panes and the range the stream
# follows, against trace-cmd report of a recording made in the test, and live.
TERM_TESTS += tests/term/timeline.sh
EXTRA_DIST += tests/helpers/timeline_expect.py
TERM_TESTS += tests/term/range_panes.sh
TERM_TESTS += tests/term/timeline_wheel.sh
TERM_TESTS += tests/term/timeline_drag.sh
TERM_TESTS += tests/term/timeline_marks.sh
TERM_TESTS += tests/term/hist_recording_latency.sh
