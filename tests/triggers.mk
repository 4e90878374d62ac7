# Issue #16: event triggers (--trigger, the picker's keys) and the "stop when" recipe.
LIVE_TESTS += tests/live/triggers.sh
TERM_TESTS += tests/term/triggers_picker.sh
